"""The drawing layer: every registered game drawn at the start, in the middle and at the end of
a seeded random game, read back as XML and checked against the position.

The games come from the registry. The places of the pieces come from each game's own state
(bitboards, hands, cookie cells) as its test module reads it, never from the drawing code; a
game that draws itself without such a reader fails the test, and a game drawn by the default
picture is checked against its cells.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
import xml.etree.ElementTree as ET

import pytest

from engine import BLACK, WHITE, Position, find_game, game_names
from engine.drawing import svg
from engine.games.clobber import ClobberPosition
from engine.grid import FILES, square_name, two_colour_cells

PLY_CAP = 300  # the "end" of a game that may run for ever


def expected_pieces(position, colour: int) -> tuple[set[str], int]:
    """Where ``colour``'s pieces must be drawn on the board (``data-at`` names) and how many in
    hand, from the rules' own state: a game that draws itself has its test module
    (tests/games/test_NAME.py) read them with ``drawn_pieces(position, colour)`` and, if it has
    a hand, ``drawn_hand(position, colour)``; a game drawn by default shows its ``cell``."""
    if type(position).draw is Position.draw:
        cols, rows = position.game.size
        return {square_name(square, cols) for square in range(cols * rows)
                if position.cell(square) == "XO"[colour]}, 0
    module = game_tests(position.game.name)
    return module.drawn_pieces(position, colour), getattr(module, "drawn_hand", no_hand)(
        position, colour)


def game_tests(name: str):
    """The test module of game ``name``, tests/games/test_NAME.py (``None`` for a game that
    has none): what it says about the game for the generic tests."""
    module = f"{__package__}.games.test_{name}"
    return importlib.import_module(module) if importlib.util.find_spec(module) else None


def no_hand(position, colour: int) -> int:
    return 0


def positions(name: str, seed: int = 7):
    """The start, the middle and the end of a seeded random game: (position, last move)."""
    game = find_game(name)()
    position = game.initial_position()
    rng = random.Random(seed)
    texts = []
    while position.outcome is None and position.ply < PLY_CAP:
        move = rng.choice(position.legal_moves())
        texts.append(position.move_text(move))
        position.play(move)
    middle = len(texts) // 2
    return [(game.initial_position(), None),
            (game.position_after(texts[:middle]), texts[middle - 1] if middle else None),
            (position, texts[-1] if texts else None)]


def elements(picture: str):
    """Every element of the SVG text with its set of classes."""
    root = ET.fromstring(picture)
    return [(element, set(element.get("class", "").split())) for element in root.iter()]


def pieces(picture: str, colour: str, hand: bool = False):
    return [element for element, classes in elements(picture)
            if {"piece", colour} <= classes and ("hand" in classes) == hand]


CASES = [(name, stage) for name in game_names() for stage in ("start", "middle", "end")]


@pytest.fixture(scope="module")
def drawn():
    """Each game's three positions, computed once."""
    return {name: positions(name) for name in game_names()}


@pytest.mark.parametrize("name", game_names())
def test_every_game_that_draws_itself_has_its_pieces_read_by_its_tests(name):
    if type(find_game(name)().initial_position()).draw is not Position.draw:
        assert hasattr(game_tests(name), "drawn_pieces"), (
            f"{name} draws itself: tests/games/test_{name}.py must say where its pieces are "
            f"with drawn_pieces(position, colour)")


@pytest.mark.parametrize("name, stage", CASES)
def test_pieces_are_drawn_where_the_position_has_them(drawn, name, stage):
    position, last = drawn[name][("start", "middle", "end").index(stage)]
    picture = svg(position, last)
    for colour in (BLACK, WHITE):
        word = ("black", "white")[colour]
        found = sorted(element.get("data-at") for element in pieces(picture, word))
        on_board, in_hand = expected_pieces(position, colour)
        assert found == sorted(on_board), f"{word} pieces"
        assert len(pieces(picture, word, hand=True)) == in_hand, f"{word} pieces in hand"


@pytest.mark.parametrize("name, stage", CASES)
def test_last_move_is_marked_on_the_cells_it_names(drawn, name, stage):
    position, last = drawn[name][("start", "middle", "end").index(stage)]
    picture = svg(position, last)
    marks = [element for element, classes in elements(picture) if "lastmove" in classes]
    root = ET.fromstring(picture)
    assert root.get("data-last-move") == last
    if last is None or last == "pass":
        assert not marks
        return
    assert marks
    named = set(re.findall(r"-?\d+,-?\d+" if name == "cookiedisco" else r"[a-z]\d+", last))
    marked = {mark.get("data-at") for mark in marks if mark.get("data-at")}
    if name == "domineering":
        assert marked == {last}
    else:
        assert marked == named


@pytest.mark.parametrize("name", game_names())
def test_coordinates_are_labelled(drawn, name):
    position, last = drawn[name][1]
    labels = {element.text for element, classes in elements(svg(position, last))
              if "coordinate" in classes}
    if name == "cookiedisco":
        occupied = {cell for colour in (BLACK, WHITE)
                    for cell in expected_pieces(position, colour)[0]}
        assert occupied and occupied <= labels
    else:
        cols, rows = position.game.size
        assert {FILES[file] for file in range(cols)} <= labels
        assert {str(rank) for rank in range(1, rows + 1)} <= labels


def _centre(picture: str, square: str) -> tuple[float, float]:
    """Where the square or cell named ``square`` is drawn (its rectangle or hexagon)."""
    for element, classes in elements(picture):
        if element.get("data-square") == square:
            if element.get("points"):
                xs, ys = zip(*(map(float, point.split(","))
                               for point in element.get("points").split()))
                return sum(xs) / len(xs), sum(ys) / len(ys)
            return (float(element.get("x")) + float(element.get("width")) / 2,
                    float(element.get("y")) + float(element.get("height")) / 2)
    raise AssertionError(f"no square {square}")


@pytest.mark.parametrize("name", game_names())
def test_flipped_board_turns_half_round(drawn, name):
    position, last = drawn[name][1]
    plain, flipped = svg(position, last), svg(position, last, flipped=True)
    assert plain != flipped
    if name == "cookiedisco":
        first, second = "0,0", "1,0"  # (1, 0) lies right of (0, 0), left when flipped
    else:
        cols, rows = position.game.size
        first, second = "a1", f"{FILES[cols - 1]}{rows}"
    (x0, y0), (x1, y1) = _centre(plain, first), _centre(plain, second)
    (fx0, fy0), (fx1, fy1) = _centre(flipped, first), _centre(flipped, second)
    assert x1 > x0 and (fx1 < fx0)
    if name != "cookiedisco":
        assert y1 < y0 and fy1 > fy0  # a1 bottom left, top right when flipped
    for colour in ("black", "white"):
        assert len(pieces(plain, colour)) == len(pieces(flipped, colour))


def test_a1_is_bottom_left():
    picture = svg(find_game("loa")().initial_position())
    a1, b1, a2 = (_centre(picture, name) for name in ("a1", "b1", "a2"))
    assert a1[0] < b1[0] and a1[1] == b1[1]
    assert a2[1] < a1[1] and a2[0] == a1[0]


def test_cookie_pips_show_the_points():
    position = find_game("cookiedisco")().initial_position()
    found = {}
    for element, classes in elements(svg(position)):
        if "cookie" in classes:
            centre = (float(element.get("cx")), float(element.get("cy")))
            found[centre] = 0
        elif "pip" in classes:
            nearest = min(found, key=lambda c: (c[0] - float(element.get("cx"))) ** 2
                          + (c[1] - float(element.get("cy"))) ** 2)
            found[nearest] += 1
    assert sorted(found.values()) == [1, 2, 2, 3, 3, 3]


def test_surakarta_has_its_eight_loops():
    picture = svg(find_game("surakarta")().initial_position())
    loops = [element for element, classes in elements(picture) if "loop" in classes]
    assert len(loops) == 8
    assert all(" 1 " in element.get("d") for element in loops)  # large arcs: three quarters


def test_laocoon_draws_every_disc():
    position = find_game("laocoon")().initial_position()
    discs = [classes for _, classes in elements(svg(position)) if "disc" in classes]
    assert len(discs) == 64
    for colour in ("blue", "purple", "orange", "yellow"):
        assert sum(colour in classes for classes in discs) == 16


class PlainClobber(ClobberPosition):
    """Clobber drawn by the default picture, from its diagram's cells."""

    @classmethod
    def start(cls, size: tuple[int, int]) -> PlainClobber:
        game = find_game("clobber")(size=size)
        return cls(game, *game.initial_position().pieces)

    draw = Position.draw

    def cell(self, square: int) -> str:
        return two_colour_cells(*self.pieces)(square)


def test_a_game_without_its_own_drawing_is_drawn_from_its_cells():
    position = PlainClobber.start((3, 2))
    position.play(position.parse_move("a1xb1"))
    picture = svg(position, "a1xb1")
    # a1 b1 c1 start black white black, a2 b2 c2 white black white; a1 takes b1
    assert sorted(element.get("data-at") for element in pieces(picture, "black")) == [
        "b1", "b2", "c1"]
    assert sorted(element.get("data-at") for element in pieces(picture, "white")) == ["a2", "c2"]
    marks = {mark.get("data-at") for mark, classes in elements(picture) if "lastmove" in classes}
    assert marks == {"a1", "b1", None}  # the two squares and the arrow
    assert {element.get("data-square") for element, classes in elements(picture)
            if "square" in classes} == {"a1", "b1", "c1", "a2", "b2", "c2"}


def test_other_cell_characters_are_written_on_their_squares():
    class Marked(PlainClobber):
        def cell(self, square: int) -> str:
            return "#" if square == 4 else "."

    picture = svg(Marked.start((3, 2)))
    marks = [(element.get("data-at"), element.text) for element, classes in elements(picture)
             if "mark" in classes]
    assert marks == [("b2", "#")] and not pieces(picture, "black") + pieces(picture, "white")


def test_a_game_with_neither_cells_nor_a_drawing_is_refused_in_one_line():
    class Bare(PlainClobber):
        cell = Position.cell

    with pytest.raises(NotImplementedError, match="clobber gives neither cell"):
        svg(Bare.start((3, 2)))
