"""Bitboards: a set of squares held as one integer, bit ``n`` for square ``n``.

PyPy keeps an integer below 2**63 in a machine word and a larger one as a slow big integer, and
a value computed from a big one (``big & mask``, ``big >> n``) stays big even when it is small:
only ``%`` by a machine word turns it back (:func:`machine_word`). CPython makes no difference.
"""

from __future__ import annotations

WORD_LIMIT = 0x7FFF_FFFF_FFFF_FFFF  # 2**63 - 1, the largest machine word of PyPy


def machine_word(bits: int) -> int:
    """``bits``, as a machine word on PyPy when it is below 2**63 (the same value).

    >>> machine_word((1 << 70) >> 10) == 1 << 60, machine_word(1 << 63) == 1 << 63
    (True, True)
    """
    return bits if bits >> 63 else bits % WORD_LIMIT


def squares_of(bits: int) -> list[int]:
    """The squares of ``bits``, lowest first.

    >>> squares_of(0b100101)
    [0, 2, 5]
    """
    squares = []
    while bits:
        low = bits & -bits
        squares.append(low.bit_length() - 1)
        bits ^= low
    return squares
