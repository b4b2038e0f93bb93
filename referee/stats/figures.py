"""How a figure that may be infinite or undefined is written, by one rule for the terminal,
``summary.json`` and the report page.

A figure is infinite when the counts put it beyond any number (the Elo of a perfect score, an
interval's end beyond a score of 0 or 1) and undefined when the counts cannot give it at all
(anything without games, the nElo of a run whose every unit scored the same). JSON has neither
infinity nor NaN, and ``null`` for both would leave a reader guessing, so the two are kept
apart: an infinite figure is the string ``"+inf"`` or ``"-inf"``, an undefined one ``null``.
As text both read the same everywhere: ``+inf``, ``-inf`` and ``n/a``.

>>> [as_json(value) for value in (1.5, float("inf"), -float("inf"), float("nan"), None)]
[1.5, '+inf', '-inf', None, None]
>>> [text(value) for value in (1.25, "+inf", float("-inf"), None)]
['1.2', '+inf', '-inf', 'n/a']
>>> text(12.0, signed=True), from_json("-inf")
('+12.0', -inf)
"""

from __future__ import annotations

import math
from typing import Union

Figure = Union[float, int, str, None]  # a number, "+inf"/"-inf", or None (undefined)

UNDEFINED = "n/a"
_INFINITE = {"+inf": math.inf, "-inf": -math.inf}


def as_json(value: float | None) -> Figure:
    """The figure as ``summary.json`` writes it."""
    if value is None or math.isnan(value):
        return None
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return value


def from_json(value: Figure) -> float | None:
    """A figure of ``summary.json`` back as a number (``None``: undefined)."""
    if isinstance(value, str):
        return _INFINITE[value]
    return value


def text(value: Figure, places: int = 1, signed: bool = False) -> str:
    """The figure as text: ``places`` decimals, with its sign when ``signed``."""
    value = from_json(value)
    if value is None or math.isnan(value):
        return UNDEFINED
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.{places}f}" if signed else f"{value:.{places}f}"


def interval_text(ends: list[Figure] | tuple[Figure, Figure] | None, places: int = 1) -> str:
    """A 95 % interval, ``[low, high]`` with signs; ``n/a`` when it is undefined.

    >>> interval_text(["-inf", 35.5]), interval_text([None, None])
    ('[-inf, +35.5]', 'n/a')
    """
    if not ends or ends[0] is None or ends[1] is None:
        return UNDEFINED
    return f"[{text(ends[0], places, True)}, {text(ends[1], places, True)}]"


def estimate_text(value: Figure, error: Figure, ends: list[Figure] | None,
                  places: int = 2) -> str:
    """A figure with its ``+/-``, or, where the ``+/-`` is not a number (an infinite
    figure), with its 95 % interval ``ends`` instead; alone when ``ends`` is ``None`` (the
    interval is shown elsewhere, or there is none).

    >>> estimate_text(12.345, 3.2, [9.1, 15.5]), estimate_text("+inf", None, [140.2, "+inf"])
    ('+12.35 +/- 3.20', '+inf, 95 % interval [+140.20, +inf]')
    >>> estimate_text("-inf", None, None)
    '-inf'
    """
    if from_json(value) is None:
        return UNDEFINED
    number = from_json(error)
    if number is not None and math.isfinite(number):
        return f"{text(value, places, True)} +/- {text(error, places)}"
    if ends is None:
        return text(value, places, True)
    return f"{text(value, places, True)}, 95 % interval {interval_text(ends, places)}"
