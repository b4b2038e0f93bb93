"""Board geometries: where a square, point or hexagonal cell lies on the canvas.

A geometry turns a game's own cell value into a centre on the canvas (:meth:`centre`), names it
as SPEC's notation does (:meth:`name`), finds the cells a move text names (:meth:`cells_in`)
and draws itself: squares or the lines through points with the coordinates round the edge
(:class:`Grid`), or hexagons labelled ``q,r`` (:class:`Hexes`). Flipping turns the board half
round: a1 goes to the top right, and on the hexagonal plane (q, r) goes where (-q, -r) was.
"""

from __future__ import annotations

import math
import re
from typing import Iterable, Mapping

from ..grid import FILES, square_name
from .canvas import HIGHLIGHT, HIGHLIGHT_EDGE, INK, UNIT, Canvas

LIGHT, DARK = "#f0d9b5", "#b58863"
PLAIN = "#e8d2a6"
LINE = "#5a4a32"
_SQUARE = re.compile(r"([a-z])(\d{1,2})")
_CELL = re.compile(r"(-?\d+),(-?\d+)")
SQRT3 = math.sqrt(3)


class Grid:
    """A rectangular board of ``cols`` x ``rows``; cells are square indices
    ``rank * cols + file`` (:mod:`engine.grid`). The board's squares span (0, 0) to
    (cols * UNIT, rows * UNIT) on the canvas; points sit at the squares' centres."""

    def __init__(self, cols: int, rows: int, flipped: bool = False,
                 points: bool = False) -> None:
        self.cols, self.rows, self.flipped, self.points = cols, rows, flipped, points
        self.width, self.height = cols * UNIT, rows * UNIT

    def place(self, file: float, rank: float) -> tuple[float, float]:
        """The canvas position of a (possibly fractional or off-board) file and rank."""
        if self.flipped:
            file, rank = self.cols - 1 - file, self.rows - 1 - rank
        return (file + 0.5) * UNIT, (self.rows - rank - 0.5) * UNIT

    def centre(self, square: int) -> tuple[float, float]:
        rank, file = divmod(square, self.cols)
        return self.place(file, rank)

    def name(self, square: int) -> str:
        return square_name(square, self.cols)

    def cells_in(self, text: str) -> list[int | None]:
        """The squares named in ``text`` in order (``None`` for a name off this board)."""
        found = []
        for letter, digits in _SQUARE.findall(text.lower()):
            file, rank = FILES.index(letter), int(digits) - 1
            found.append(rank * self.cols + file
                         if file < self.cols and 0 <= rank < self.rows else None)
        return found

    def highlight(self, canvas: Canvas, square: int, classes: str) -> None:
        x, y = self.centre(square)
        name = self.name(square)
        if self.points:
            canvas.circle(x, y, 0.46 * UNIT, classes, "marks", fill=HIGHLIGHT, opacity=0.75,
                          data_at=name)
        else:
            inset = 0.05 * UNIT
            canvas.rect(x - UNIT / 2 + inset, y - UNIT / 2 + inset, UNIT - 2 * inset,
                        UNIT - 2 * inset, classes, "marks", fill=HIGHLIGHT, fill_opacity=0.55,
                        stroke=HIGHLIGHT_EDGE, stroke_width=2 * inset, data_at=name)

    # --- drawing -------------------------------------------------------------------------------

    def draw_squares(self, canvas: Canvas, light: str = LIGHT, dark: str | None = DARK,
                     dots: bool = False) -> None:
        """Every square as a rectangle ``square light`` or ``square dark`` (a1 is dark, as on
        a chessboard); ``dark=None`` colours them all ``light``; ``dots`` puts a dot in each."""
        for square in range(self.cols * self.rows):
            rank, file = divmod(square, self.cols)
            shade = "dark" if dark and (rank + file) % 2 == 0 else "light"
            x, y = self.centre(square)
            canvas.rect(x - UNIT / 2, y - UNIT / 2, UNIT, UNIT, f"square {shade}",
                        fill=dark if shade == "dark" else light,
                        stroke=None if dark else LINE, stroke_width=None if dark else 0.5,
                        data_square=self.name(square))
            if dots:
                canvas.circle(x, y, 0.07 * UNIT, "dot", fill=LINE)
        canvas.rect(0, 0, self.width, self.height, "edge", fill="none", stroke=LINE,
                    stroke_width=1.5)

    def draw_lines(self, canvas: Canvas, background: str = PLAIN, margin: float = 0.5) -> None:
        """A board of points: the background, then a line through every rank and file."""
        (x0, y0), (x1, y1) = self.place(0, self.rows - 1), self.place(self.cols - 1, 0)
        left, right = min(x0, x1), max(x0, x1)
        top, bottom = min(y0, y1), max(y0, y1)
        pad = margin * UNIT
        canvas.rect(left - pad, top - pad, right - left + 2 * pad, bottom - top + 2 * pad,
                    "background", fill=background)
        for file in range(self.cols):
            canvas.line(self.place(file, 0), self.place(file, self.rows - 1), "gridline",
                        stroke=LINE, stroke_width=1.2)
        for rank in range(self.rows):
            canvas.line(self.place(0, rank), self.place(self.cols - 1, rank), "gridline",
                        stroke=LINE, stroke_width=1.2)
        for square in range(self.cols * self.rows):
            x, y = self.centre(square)
            canvas.rect(x - UNIT / 2, y - UNIT / 2, UNIT, UNIT, "square point", fill="none",
                        data_square=self.name(square))

    def draw_labels(self, canvas: Canvas, distance: float = 0.8) -> None:
        """File letters under the board and rank numbers left of it, ``distance`` squares
        from the outermost points (a label follows its file or rank when flipped)."""
        size = 0.32 * UNIT
        for file in range(self.cols):
            x, _ = self.place(file, 0)
            y = self.height - 0.5 * UNIT + distance * UNIT
            canvas.text(x, y, FILES[file], "coordinate file", size)
        for rank in range(self.rows):
            _, y = self.place(0, rank)
            x = 0.5 * UNIT - distance * UNIT
            canvas.text(x, y, str(rank + 1), "coordinate rank", size)


class Hexes:
    """The unbounded hexagonal plane of Cookie Disco: cells are axial ``(q, r)`` pairs, drawn
    pointy side up with row r at height r and q growing to the right, one ``UNIT`` apart, so
    that discs of diameter ``UNIT`` on neighbouring cells touch."""

    def __init__(self, flipped: bool = False) -> None:
        self.flipped = flipped
        self.radius = UNIT / SQRT3  # centre to corner

    def centre(self, cell: tuple[int, int]) -> tuple[float, float]:
        q, r = cell
        if self.flipped:
            q, r = -q, -r
        return UNIT * (q + r / 2), -UNIT * SQRT3 / 2 * r

    @staticmethod
    def name(cell: tuple[int, int]) -> str:
        return f"{cell[0]},{cell[1]}"

    @staticmethod
    def cells_in(text: str) -> list[tuple[int, int]]:
        return [(int(q), int(r)) for q, r in _CELL.findall(text)]

    def corners(self, cell: tuple[int, int], scale: float = 1.0) -> list[tuple[float, float]]:
        x, y = self.centre(cell)
        radius = scale * self.radius
        return [(x + radius * math.cos(math.radians(90 + 60 * k)),
                 y + radius * math.sin(math.radians(90 + 60 * k))) for k in range(6)]

    def highlight(self, canvas: Canvas, cell: tuple[int, int], classes: str) -> None:
        canvas.polygon(self.corners(cell, 0.96), classes, "marks", fill=HIGHLIGHT,
                       fill_opacity=0.8, stroke=HIGHLIGHT_EDGE, stroke_width=0.08 * UNIT,
                       data_at=self.name(cell))

    def draw_cells(self, canvas: Canvas, cells: Iterable[tuple[int, int]],
                   ink: Mapping[tuple[int, int], str] | None = None,
                   fill: str = "#f4ecd8") -> None:
        """The hexagons of ``cells``, each labelled with its ``q,r`` near its top, on top of
        any disc there: ``ink`` gives the label's colour on a cell whose disc needs another
        than the default."""
        for cell in cells:
            canvas.polygon(self.corners(cell), "cell", fill=fill, stroke="#c9b994",
                           stroke_width=1, data_square=self.name(cell))
            x, y = self.centre(cell)
            canvas.text(x, y - 0.3 * UNIT, self.name(cell), "coordinate cell", 0.18 * UNIT,
                        fill=(ink or {}).get(cell, INK))
