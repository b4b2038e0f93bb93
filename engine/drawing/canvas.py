"""The drawing primitives: a canvas that collects SVG elements in layers and writes SVG text.

A game draws on a :class:`Canvas` through its board geometry (:mod:`engine.drawing.boards`):
squares or points of a rectangular board, or hexagonal cells. Every element carries CSS
classes (``square light``, ``piece black``, ``lastmove`` ...) so that a page can restyle it, and
its default colours as presentation attributes, which any page style overrides; the picture
needs no stylesheet, font file or script to look right.

Elements go into layers drawn in a fixed order (board, marks, pieces, arrows, labels), so a
game may draw in any order and the last-move highlight still lies under the pieces. The canvas
keeps the bounding box of what it drew and sizes the picture to it: loops, hands and legends
outside a board need no layout arithmetic.
"""

from __future__ import annotations

import functools
import math
from typing import Iterable
from xml.sax.saxutils import escape, quoteattr

from ..core import COLOUR_NAMES

LAYERS = ("board", "marks", "pieces", "arrows", "labels")
UNIT = 40  # pixels per square or cell spacing
PADDING = 6
FONT = "sans-serif"

# Default colours (presentation attributes; a page's CSS wins over them).
PIECE_FILL = ("#1e1e1e", "#f7f7f2")
PIECE_STROKE = ("#000000", "#3a3a3a")
INK = "#333333"
HIGHLIGHT = "#f2e14c"
HIGHLIGHT_EDGE = "#e0a800"
ARROW = "#1f6fc5"
# How many distinct elements' texts are kept (a board of 19x19 squares, its pieces and marks).
ELEMENTS_KEPT = 8192


def number(value: float) -> str:
    """A coordinate as short text: ``12``, ``12.5``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def element(tag: str, attributes: dict, text: str | None = None) -> str:
    """One SVG element; attributes whose value is ``None`` are left out. Written once for each
    distinct element (a replay draws the same squares and pieces at every ply)."""
    return _element(tag, tuple(attributes.items()), text)


@functools.lru_cache(maxsize=ELEMENTS_KEPT)
def _element(tag: str, attributes: tuple, text: str | None) -> str:
    parts = [tag]
    for key, value in attributes:
        if value is None:
            continue
        if isinstance(value, float):
            value = number(value)
        parts.append(f"{key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}")
    if text is None:
        return f"<{' '.join(parts)}/>"
    return f"<{' '.join(parts)}>{escape(text)}</{tag}>"


class Canvas:
    """Collects the elements of one picture; :meth:`svg` writes them out.

    ``flipped`` turns the board half round (a1 top right); board geometries read it.
    ``last_move`` is the canonical text of the move that led to the position, for the game's
    hook or the default marking (:meth:`mark_move`).
    """

    def __init__(self, flipped: bool = False, last_move: str | None = None) -> None:
        self.flipped = flipped
        self.last_move = last_move
        self.board = None  # the geometry installed by the game (boards.Grid or boards.Hexes)
        self.move_marked = False
        self.zoom = 1.0  # the picture's size on the page per canvas unit (a game may enlarge it)
        self.layers: dict[str, list[str]] = {name: [] for name in LAYERS}
        self.box = [math.inf, math.inf, -math.inf, -math.inf]

    # --- low-level shapes ----------------------------------------------------------------------

    def extend(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Grow the picture's bounding box to hold the rectangle (x0, y0)-(x1, y1)."""
        box = self.box
        box[0], box[1] = min(box[0], x0, x1), min(box[1], y0, y1)
        box[2], box[3] = max(box[2], x0, x1), max(box[3], y0, y1)

    def add(self, layer: str, tag: str, attributes: dict, text: str | None = None) -> None:
        self.layers[layer].append(element(tag, attributes, text))

    def rect(self, x: float, y: float, width: float, height: float, classes: str,
             layer: str = "board", **attributes) -> None:
        self.extend(x, y, x + width, y + height)
        self.add(layer, "rect", {"class": classes, "x": float(x), "y": float(y),
                                 "width": float(width), "height": float(height), **attributes})

    def circle(self, x: float, y: float, radius: float, classes: str, layer: str = "board",
               **attributes) -> None:
        self.extend(x - radius, y - radius, x + radius, y + radius)
        self.add(layer, "circle", {"class": classes, "cx": float(x), "cy": float(y),
                                   "r": float(radius), **attributes})

    def polygon(self, points: Iterable[tuple[float, float]], classes: str,
                layer: str = "board", **attributes) -> None:
        points = list(points)
        for x, y in points:
            self.extend(x, y, x, y)
        text = " ".join(f"{number(x)},{number(y)}" for x, y in points)
        self.add(layer, "polygon", {"class": classes, "points": text, **attributes})

    def line(self, start: tuple[float, float], end: tuple[float, float], classes: str,
             layer: str = "board", **attributes) -> None:
        self.extend(*start, *end)
        self.add(layer, "line", {"class": classes, "x1": float(start[0]), "y1": float(start[1]),
                                 "x2": float(end[0]), "y2": float(end[1]), **attributes})

    def arc(self, centre: tuple[float, float], start: tuple[float, float],
            end: tuple[float, float], classes: str, large: bool = True,
            layer: str = "board", **attributes) -> None:
        """A circular arc round ``centre`` from ``start`` to ``end`` (both on one circle): the
        large arc by default, else the small one, each going the way that arc must go."""
        (cx, cy), (x0, y0), (x1, y1) = centre, start, end
        radius = math.hypot(x0 - cx, y0 - cy)
        self.extend(cx - radius, cy - radius, cx + radius, cy + radius)
        # On screen (y down) a positive cross product means the small arc turns clockwise,
        # which is SVG's sweep flag 1; the large arc goes the other way.
        clockwise = (x0 - cx) * (y1 - cy) - (y0 - cy) * (x1 - cx) > 0
        sweep = int(clockwise != large)
        path = (f"M{number(x0)},{number(y0)} A{number(radius)},{number(radius)} 0 "
                f"{int(large)} {sweep} {number(x1)},{number(y1)}")
        self.add(layer, "path", {"class": classes, "d": path, "fill": "none", **attributes})

    def text(self, x: float, y: float, text: str, classes: str, size: float = 12,
             anchor: str = "middle", layer: str = "labels", **attributes) -> None:
        """Text centred vertically on ``y``; ``anchor`` is SVG's text-anchor."""
        width = 0.6 * size * len(text)
        left = x - {"start": 0, "middle": width / 2, "end": width}[anchor]
        self.extend(left, y - size / 2, left + width, y + size / 2)
        self.add(layer, "text", {"class": classes, "x": float(x), "y": float(y + 0.35 * size),
                                 "font-size": float(size), "font-family": FONT,
                                 "text-anchor": anchor, "fill": attributes.pop("fill", INK),
                                 **attributes}, text)

    # --- pieces --------------------------------------------------------------------------------

    def disc(self, x: float, y: float, colour: int, radius: float | None = None,
             classes: str = "", **attributes) -> None:
        """A piece of ``colour`` (0 black, 1 white): a disc with classes ``piece black`` or
        ``piece white`` plus ``classes``; ``attributes`` may change its default colours."""
        radius = 0.4 * UNIT if radius is None else radius
        style = {"fill": PIECE_FILL[colour], "stroke": PIECE_STROKE[colour],
                 "stroke_width": max(1.0, radius / 12), **attributes}
        self.circle(x, y, radius, f"piece {COLOUR_NAMES[colour]} {classes}".strip(), "pieces",
                    **style)

    def piece(self, at, colour: int, scale: float = 0.4, classes: str = "",
              glyph: str = "") -> None:
        """A disc on the square, point or cell ``at`` of the board geometry; ``glyph`` is an
        optional letter written on it (Knightthrough's knights)."""
        x, y = self.board.centre(at)
        self.disc(x, y, colour, scale * UNIT, classes, data_at=self.board.name(at))
        if glyph:
            self.text(x, y, glyph, "glyph", 0.45 * UNIT, layer="pieces",
                      fill=PIECE_FILL[colour ^ 1], font_weight="bold")

    def domino(self, first, second, colour: int, last: bool = False) -> None:
        """A domino of ``colour`` covering two neighbouring squares: one piece, a rounded
        rectangle with a line between its halves; ``last`` outlines it as the last move."""
        (x0, y0), (x1, y1) = self.board.centre(first), self.board.centre(second)
        inset = 0.42 * UNIT
        left, top = min(x0, x1) - inset, min(y0, y1) - inset
        width, height = abs(x1 - x0) + 2 * inset, abs(y1 - y0) + 2 * inset
        name = f"{self.board.name(first)}-{self.board.name(second)}"
        classes = f"piece {COLOUR_NAMES[colour]} domino" + (" lastmove" if last else "")
        self.rect(left, top, width, height, classes, "pieces", rx=0.1 * UNIT,
                  fill=PIECE_FILL[colour], stroke=HIGHLIGHT if last else PIECE_STROKE[colour],
                  stroke_width=4 if last else 1.5, data_at=name)
        self.move_marked |= last
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        half = (0.3 * UNIT * (y1 - y0) / UNIT, 0.3 * UNIT * (x1 - x0) / UNIT)
        self.line((middle[0] - half[0], middle[1] - half[1]),
                  (middle[0] + half[0], middle[1] + half[1]), "divider", "pieces",
                  stroke=PIECE_FILL[colour ^ 1], stroke_width=1.5, opacity=0.6)

    # --- the last move -------------------------------------------------------------------------

    def highlight(self, at, classes: str = "lastmove") -> None:
        """Mark one square, point or cell of the board (under the pieces)."""
        self.board.highlight(self, at, classes)
        self.move_marked = True

    def arrow(self, origin, target, classes: str = "lastmove arrow") -> None:
        """An arrow from the centre of ``origin`` to near the centre of ``target``."""
        (x0, y0), (x1, y1) = self.board.centre(origin), self.board.centre(target)
        length = math.hypot(x1 - x0, y1 - y0)
        if not length:
            return
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        head, half = 0.32 * UNIT, 0.16 * UNIT
        tip = (x1 - 0.12 * UNIT * ux, y1 - 0.12 * UNIT * uy)
        base = (tip[0] - head * ux, tip[1] - head * uy)
        self.line((x0, y0), base, classes, "arrows", stroke=ARROW, stroke_width=0.1 * UNIT,
                  stroke_linecap="round", opacity=0.75)
        self.polygon([tip, (base[0] - half * uy, base[1] + half * ux),
                      (base[0] + half * uy, base[1] - half * ux)], classes, "arrows",
                     fill=ARROW, opacity=0.75)
        self.move_marked = True

    def mark_move(self, text: str | None, arrows: bool = True) -> None:
        """Mark the cells a move names: each part of a compound move (joined by ``+``) is a
        single cell (highlighted), a ``from-to`` pair (both highlighted, with an arrow when
        ``arrows``) or a swap ``a=b`` (both highlighted, joined by a dashed line)."""
        if not text or self.board is None:
            return
        for part in text.split("+"):
            cells = [cell for cell in self.board.cells_in(part) if cell is not None]
            for cell in cells:
                self.highlight(cell)
            if len(cells) == 2 and "=" in part:
                self.line(self.board.centre(cells[0]), self.board.centre(cells[1]),
                          "lastmove swap", "arrows", stroke=ARROW, stroke_width=0.06 * UNIT,
                          stroke_dasharray="6 4", opacity=0.8)
            elif len(cells) == 2 and arrows:
                self.arrow(*cells)

    # --- output --------------------------------------------------------------------------------

    def svg(self, classes: str = "", title: str = "", attributes: dict | None = None) -> str:
        """The SVG text of everything drawn, sized to its bounding box."""
        x0, y0, x1, y1 = self.box if self.box[0] < math.inf else (0, 0, UNIT, UNIT)
        x0, y0, x1, y1 = x0 - PADDING, y0 - PADDING, x1 + PADDING, y1 + PADDING
        width, height = x1 - x0, y1 - y0
        head = element("svg", {
            "xmlns": "http://www.w3.org/2000/svg", "class": f"board {classes}".strip(),
            "viewBox": f"{number(x0)} {number(y0)} {number(width)} {number(height)}",
            "width": float(width * self.zoom), "height": float(height * self.zoom),
            **(attributes or {})})[:-2] + ">"
        lines = [head]
        if title:
            lines.append(element("title", {}, title))
        for name in LAYERS:
            if self.layers[name]:
                lines.append(f'<g class="{name}">')
                lines.extend(self.layers[name])
                lines.append("</g>")
        lines.append("</svg>")
        return "\n".join(lines) + "\n"
