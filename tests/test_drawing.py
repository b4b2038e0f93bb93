"""The drawing layer: every registered game drawn at the start, in the middle and at the end of
a seeded random game, read back as XML and checked against the position.

The counts of pieces come from each game's own state (bitboards, hands, cookie cells), never
from the drawing code; a game added to the registry without a counter here fails the test.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from engine import BLACK, WHITE, find_game, game_names
from engine.drawing import svg
from engine.grid import FILES

PLY_CAP = 300  # the "end" of a game that may run for ever


def squares(bits: int, cols: int) -> set[str]:
    return {f"{FILES[s % cols]}{s // cols + 1}" for s in range(bits.bit_length()) if bits >> s & 1}


def cookie_cells(position, colour: int) -> set[str]:
    from engine.games.cookiedisco import cell_text
    cell = position.cells[6 + colour]
    return set() if cell is None else {cell_text(cell)}


# For each game: the names of the cells where each colour has a piece on the board, and the
# pieces it holds in hand (drawn beside the board).
ON_BOARD = {
    "loa": lambda p, c: squares(p.pieces[c], 8),
    "breakthrough": lambda p, c: squares(p.pieces[c], p.game.cols),
    "knightthrough": lambda p, c: squares(p.pieces[c], p.game.cols),
    "clobber": lambda p, c: squares(p.pieces[c], p.game.cols),
    "surakarta": lambda p, c: squares(p.pieces[c], 6),
    "kolem": lambda p, c: squares(p.pieces[c], 5),
    "argon": lambda p, c: squares(p.stones[c], p.game.cols),
    "laocoon": lambda p, c: squares(p.rings[c], 8),
    "cookiedisco": cookie_cells,
}
IN_HAND = {"kolem": lambda p, c: p.hands[c]}


def domino_names(position, colour: int) -> set[str]:
    """Domineering's dominoes as ``lower-upper`` or ``left-right`` square names."""
    cols = position.game.cols
    step = cols if colour == BLACK else 1
    covered, names = position.covered[colour], set()
    while covered:
        low = covered & -covered
        first = low.bit_length() - 1
        covered ^= low | low << step
        names.add(f"{FILES[first % cols]}{first // cols + 1}-"
                  f"{FILES[(first + step) % cols]}{(first + step) // cols + 1}")
    return names


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


def test_every_game_has_a_piece_counter():
    assert set(game_names()) == set(ON_BOARD) | {"domineering"}


@pytest.mark.parametrize("name, stage", CASES)
def test_pieces_are_drawn_where_the_position_has_them(drawn, name, stage):
    position, last = drawn[name][("start", "middle", "end").index(stage)]
    picture = svg(position, last)
    for colour in (BLACK, WHITE):
        word = ("black", "white")[colour]
        found = sorted(element.get("data-at") for element in pieces(picture, word))
        if name == "domineering":
            expected = sorted(domino_names(position, colour))
        else:
            expected = sorted(ON_BOARD[name](position, colour))
        assert found == expected, f"{word} pieces"
        held = IN_HAND.get(name, lambda p, c: 0)(position, colour)
        assert len(pieces(picture, word, hand=True)) == held, f"{word} pieces in hand"


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
        occupied = {cell for colour in (BLACK, WHITE) for cell in cookie_cells(position, colour)}
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


def test_game_without_hook_is_refused():
    class Bare:
        game = find_game("loa")()
    with pytest.raises(TypeError, match="no drawing hook"):
        svg(Bare())
