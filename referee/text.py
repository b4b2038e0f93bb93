"""Text helpers every part of the referee uses: reasons squeezed onto one line, and numbers read
strictly from text (ASCII decimal only, as on the protocol).

Python's ``int()`` and ``float()`` take any script's digits (``١٠`` is 10), underscores,
``1e3``, ``inf`` and ``nan``; the readers below refuse all of these with a ``ValueError`` whose
message says what was expected, so that the command line can turn it into a one-line usage
error.

>>> whole("12"), decimal("-0.5"), decimal(".5")
(12, -0.5, 0.5)
>>> decimal("1e3")
Traceback (most recent call last):
...
ValueError: '1e3' is not a number (ASCII digits, a sign and a point)
"""

from __future__ import annotations

import re

_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def one_line(text: str, limit: int = 120) -> str:
    """``text`` squeezed onto one line of at most ``limit`` characters, for reasons and logs.

    >>> one_line("a\\n  b", 10)
    'a b'
    """
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def whole(text: str) -> int:
    """``text`` as a whole number in ASCII digits (a sign allowed); else ``ValueError``."""
    if not _WHOLE.fullmatch(text.strip()):
        raise ValueError(f"{text!r} is not a whole number (ASCII digits)")
    return int(text)


def decimal(text: str) -> float:
    """``text`` as a number in ASCII digits with a sign and a point allowed (no exponent, no
    ``inf``); else ``ValueError``."""
    if not _DECIMAL.fullmatch(text.strip()):
        raise ValueError(f"{text!r} is not a number (ASCII digits, a sign and a point)")
    return float(text)


def parse_anchor(text: str) -> tuple[str, float]:
    """``NAME=ELO`` as (name, Elo); the name may itself hold ``=`` (the last one splits).

    >>> parse_anchor("olympiad-engine --depth=2=1500")
    ('olympiad-engine --depth=2', 1500.0)
    """
    name, equals, elo = text.rpartition("=")
    try:
        value = decimal(elo)
    except ValueError:
        value = None
    if not (equals and name) or value is None:
        raise ValueError(f"{text!r} is not NAME=ELO (ASCII digits)")
    return name, value
