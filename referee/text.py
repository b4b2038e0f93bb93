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
from typing import Iterable

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


_BOARD_SIZE = re.compile(r"([0-9]+)(?:(?:\s*x\s*|\s+)([0-9]+))?")


def board_size(text: str) -> tuple[int, int]:
    """``N`` or ``COLSxROWS`` (the command line's ``--boardsize``, an event file's
    ``boardsize``) as (columns, rows); else ``ValueError``.

    >>> board_size("7x9"), board_size("10"), board_size(" 6 X 5 "), board_size("6 5")
    ((7, 9), (10, 10), (6, 5), (6, 5))
    >>> board_size("6x")
    Traceback (most recent call last):
    ...
    ValueError: '6x' is not N or COLSxROWS (ASCII digits)
    """
    match = _BOARD_SIZE.fullmatch(text.strip().lower())
    if not match:
        raise ValueError(f"{text!r} is not N or COLSxROWS (ASCII digits)")
    return int(match[1]), int(match[2] or match[1])


SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")


def sprt_values(words: Iterable[str]) -> dict[str, float | str]:
    """``elo0=A elo1=B [alpha=0.05] [beta=0.05] [model=normalized|logistic]`` as values (words
    may also come as one string); ``ValueError`` names the word that is wrong. Whether the
    values make a test is :class:`referee.stats.sprt.SprtSettings`'s to say.

    >>> sprt_values(["elo0=0 elo1=5", "MODEL=Logistic"])
    {'elo0': 0.0, 'elo1': 5.0, 'model': 'logistic'}
    >>> sprt_values(["elo0=0 alpha=x"])
    Traceback (most recent call last):
    ...
    ValueError: --sprt: alpha=x: not a number
    """
    values: dict[str, float | str] = {}
    for word in (part for text in words for part in text.split()):
        key, equals, value = word.partition("=")
        key = key.lower()
        if not equals or key not in SPRT_KEYS:
            raise ValueError(f"--sprt: {word!r} is not one of elo0=, elo1=, alpha=, beta=, "
                             f"model=")
        if key == "model":
            values[key] = value.lower()
            continue
        try:
            values[key] = decimal(value)
        except ValueError:
            raise ValueError(f"--sprt: {word}: not a number") from None
    for key in ("elo0", "elo1"):
        if key not in values:
            raise ValueError(f"--sprt: {key}= is missing (e.g. --sprt elo0=0 elo1=5)")
    return values


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
