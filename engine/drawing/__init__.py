"""Positions as SVG pictures: a pure function from a position to SVG text, as python-chess's
``chess.svg`` does it, with no drawing library and no external files.

>>> from engine import find_game
>>> game = find_game("loa")()
>>> picture = svg(game.position_after(["b1-b3"]), last_move="b1-b3")
>>> picture.count('class="piece black'), picture.count('class="piece white')
(12, 12)

Each game maps its position onto the drawing layer through one hook on its position class,
``draw(self, canvas)``, using the primitives of :class:`~engine.drawing.canvas.Canvas` and a
board geometry from :mod:`engine.drawing.boards`. The default hook (:meth:`Position.draw
<engine.core.Position.draw>`) draws the game's board of plain squares with what each square's
``cell`` says (:func:`cell_board`): a new game is drawn with no drawing code, and overrides
the hook only to look better. The hook may mark the last move itself
(``canvas.last_move`` holds its text); when it does not, the cells the move names are
highlighted, a from-to pair with an arrow. Every piece is an element with the classes
``piece`` and ``black`` or ``white`` and a ``data-at`` attribute naming its square; squares
carry ``square light|dark`` and ``data-square``; the last move's marks carry ``lastmove``.
"""

from __future__ import annotations

from ..core import BLACK, COLOUR_NAMES, WHITE, Position
from .boards import DARK, LIGHT, Grid, Hexes
from .canvas import UNIT, Canvas

__all__ = ["svg", "board_geometry", "caption", "square_board", "cell_board", "bitboard_pieces",
           "Canvas", "Grid", "Hexes", "UNIT"]

# What a square's ``cell`` character shows in the default picture (:func:`cell_board`).
CELL_PIECES = {"X": BLACK, "O": WHITE}
EMPTY_CELLS = (".", " ")


def svg(position: Position, last_move: str | None = None, flipped: bool = False,
        with_caption: bool = False) -> str:
    """The picture of ``position`` as SVG text.

    ``last_move`` is the canonical text of the move that led to it (marked on the board);
    ``flipped`` turns the board half round; ``with_caption`` writes a line under the picture
    with the side to move (or the result) and the last move.
    """
    canvas = Canvas(flipped, last_move)
    draw(position, canvas)
    if not canvas.move_marked:
        canvas.mark_move(last_move)
    if with_caption:
        x0, _, x1, y1 = canvas.box
        canvas.text((x0 + x1) / 2, y1 + 0.45 * UNIT, caption(position, last_move), "caption",
                    0.34 * UNIT)
    attributes = {"data-game": position.game.name, "data-ply": position.ply,
                  "data-to-move": COLOUR_NAMES[position.to_move] if position.outcome is None
                  else "none", "data-last-move": last_move}
    return canvas.svg(position.game.name, f"{position.game.title}: {caption(position, last_move)}",
                      attributes)


def board_geometry(position: Position, flipped: bool = False) -> Grid | Hexes | None:
    """The geometry ``position``'s picture is drawn on (:class:`Grid` or :class:`Hexes`):
    where each cell lies in the picture drawn with the same ``flipped``, and the cells a move
    text names, for a page that puts its own marks on the picture (the cells a person may
    click). ``None`` for a picture without one."""
    canvas = Canvas(flipped)
    draw(position, canvas)
    return canvas.board


def draw(position: Position, canvas: Canvas) -> None:
    """Draw ``position`` on ``canvas``: as its game draws it, else (:meth:`Position.draw
    <engine.core.Position.draw>` left as it is) as the board of its cells."""
    if position.draw(canvas) is NotImplemented:
        cell_board(canvas, position)


def caption(position: Position, last_move: str | None = None) -> str:
    """One line about the position: who moves (or how the game ended), and the last move."""
    names = {colour: name for name, colour in position.game.colour_aliases.items()}

    def side(colour: int) -> str:
        alias = names.get(colour)
        return f"{COLOUR_NAMES[colour]} ({alias})" if alias else COLOUR_NAMES[colour]

    outcome = position.outcome
    if outcome is None:
        state = f"{side(position.to_move)} to move"
    elif outcome.winner is None:
        state = f"draw: {outcome.reason}"
    else:
        state = f"{side(outcome.winner)} wins: {outcome.reason}"
    return f"{state}; last move {last_move}" if last_move else state


def square_board(canvas: Canvas, cols: int, rows: int, light: str = LIGHT,
                 dark: str | None = DARK, dots: bool = False) -> Grid:
    """Install and draw a board of squares with its coordinates (a chessboard by default,
    one colour when ``dark`` is ``None``); returns the geometry."""
    grid = canvas.board = Grid(cols, rows, canvas.flipped)
    grid.draw_squares(canvas, light, dark, dots)
    grid.draw_labels(canvas)
    return grid


def cell_board(canvas: Canvas, position: Position) -> Grid:
    """The default picture of a position (:meth:`Position.draw <engine.core.Position.draw>`):
    its game's board of plain squares with coordinates, and on each square what
    ``position.cell(square)`` says: ``X`` a black piece, ``O`` a white one, ``.`` (or a space)
    nothing, any other character written on the square (class ``mark``, with ``data-at``);
    returns the geometry."""
    if position.game.size is None:
        raise NotImplementedError(f"{position.game.name} has no rectangular board for the default "
                                  f"picture: its position must draw itself (draw(canvas))")
    cols, rows = position.game.size
    grid = square_board(canvas, cols, rows, dark=None)
    for square in range(cols * rows):
        mark = position.cell(square)
        if mark in CELL_PIECES:
            canvas.piece(square, CELL_PIECES[mark])
        elif mark not in EMPTY_CELLS:
            x, y = grid.centre(square)
            canvas.text(x, y, mark, "mark", 0.5 * UNIT, layer="pieces", data_at=grid.name(square))
    return grid


def bitboard_pieces(canvas: Canvas, bits: int, colour: int, **options) -> None:
    """A piece of ``colour`` on every square of the bitboard ``bits`` (options as for
    :meth:`Canvas.piece`)."""
    while bits:
        low = bits & -bits
        bits ^= low
        canvas.piece(low.bit_length() - 1, colour, **options)


def hand_row(canvas: Canvas, grid: Grid, colour: int, count: int, lost: int = 0,
             above: bool = False) -> None:
    """A player's pieces in hand in a row beside the board (above it or below its file
    letters), each a ``piece`` with the class ``hand``; then the pieces it has lost as dashed
    outlines (class ``lost``, not pieces), and a line of text saying both."""
    y = -0.7 * UNIT if above else grid.height + 1.05 * UNIT
    step, radius = 0.62 * UNIT, 0.27 * UNIT
    x = 0.4 * UNIT
    for _ in range(count):
        canvas.disc(x, y, colour, radius, "hand")
        x += step
    for _ in range(lost):
        canvas.circle(x, y, radius, f"lost {COLOUR_NAMES[colour]}", fill="none", stroke="#777777",
                      stroke_width=1, stroke_dasharray="3 3")
        x += step
    canvas.text(max(x, 0.4 * UNIT) - 0.1 * UNIT, y, f"{COLOUR_NAMES[colour]}: {count} in hand, "
                f"{lost} lost", "hand-count", 0.3 * UNIT, anchor="start")
