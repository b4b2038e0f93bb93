"""Rectangular boards: square names, lenient move reading and diagrams (SPEC 1.4).

Squares are numbered ``rank * cols + file`` from 0, so ``a1`` is 0 and the square above ``a1``
is ``cols``. Files are letters ``a``-``z`` (boards up to 26 columns), ranks are numbers from 1.
"""

from __future__ import annotations

import re
from typing import Callable

from .core import MoveSyntaxError

FILES = "abcdefghijklmnopqrstuvwxyz"
# Ranks are ASCII digits: \d would also take other scripts' digits, which int() reads.
_SQUARE = re.compile(r"([a-z])([0-9]{1,2})")
_FROM_TO = re.compile(r"([a-z][0-9]{1,2})[-x]?([a-z][0-9]{1,2})")


def square_name(square: int, cols: int) -> str:
    """The chess-style name of a square: ``square_name(9, 8) == 'b2'``."""
    rank, file = divmod(square, cols)
    return f"{FILES[file]}{rank + 1}"


def parse_square(text: str, cols: int, rows: int) -> int:
    """The square named ``text`` (any case) on a ``cols`` x ``rows`` board."""
    match = _SQUARE.fullmatch(text.strip().lower())
    if not match:
        raise MoveSyntaxError(
            f"{text!r} is not a square (expected a file letter and a rank, like c3)")
    file, rank = FILES.index(match[1]), int(match[2]) - 1
    if file >= cols or not 0 <= rank < rows:
        raise MoveSyntaxError(
            f"{text!r} is off the board (files a-{FILES[cols - 1]}, ranks 1-{rows})")
    return rank * cols + file


def parse_from_to(text: str, cols: int, rows: int) -> tuple[int, int]:
    """The two squares of a ``from-to`` move; ``-``, ``x`` or nothing may separate them."""
    match = _FROM_TO.fullmatch(text.strip().lower())
    if not match:
        raise MoveSyntaxError(f"{text!r} is not a move (expected two squares, like b1-b3 or b1xd3)")
    return parse_square(match[1], cols, rows), parse_square(match[2], cols, rows)


def from_to_text(origin: int, target: int, capture: bool, cols: int) -> str:
    """The canonical text of a move from one square to another: ``b1-b3`` or ``b1xd3``."""
    return f"{square_name(origin, cols)}{'x' if capture else '-'}{square_name(target, cols)}"


def two_colour_cells(black: int, white: int, marks: str = "XO.") -> Callable[[int], str]:
    """The ``cell`` function for :func:`render` of a board held as two bitboards: by default
    ``X`` for black, ``O`` for white and ``.`` for an empty square."""
    black_mark, white_mark, empty_mark = marks

    def cell(square: int) -> str:
        if black >> square & 1:
            return black_mark
        return white_mark if white >> square & 1 else empty_mark

    return cell


def render(cols: int, rows: int, cell: Callable[[int], str], legend: str = "") -> str:
    """A diagram of the board, rank 1 at the bottom, files labelled above and below.

    ``cell(square)`` gives the one-character picture of each square; ``legend`` lines are
    printed under the board.
    """
    width = len(str(rows))
    files = " " * (width + 1) + " ".join(FILES[:cols])
    lines = [files]
    for rank in range(rows - 1, -1, -1):
        row = " ".join(cell(rank * cols + file) for file in range(cols))
        lines.append(f"{rank + 1:>{width}} {row} {rank + 1}")
    lines.append(files)
    if legend:
        lines.append(legend)
    return "\n".join(lines)
