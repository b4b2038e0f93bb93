"""Bitboards: a set of squares held as one integer, bit ``n`` for square ``n``."""

from __future__ import annotations


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
