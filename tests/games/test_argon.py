"""Argon (SPEC 2.8): every clause from a position, and a literal reference generator."""

import json
import pathlib
import random

import pytest

from engine import BLACK, WHITE, IllegalMoveError, MoveSyntaxError, SizeError, find_game
from engine.games.argon import MOVING, PLACING, ArgonPosition, is_connected, tables

from ..playouts import reference_counts, square_names

FILES = "abcdefghijklmnopqrs"
PERFT = pathlib.Path(__file__).parent.parent / "data" / "perft"
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def name(point) -> str:
    return f"{FILES[point[0]]}{point[1] + 1}"


def reference_moves(position: ArgonPosition) -> set[str]:
    """SPEC 2.8 read literally, point by point: the slow, obviously right generator."""
    cols, rows = position.table.cols, position.table.rows
    board = {(p % cols, p // cols): colour for colour in (BLACK, WHITE)
             for p in range(cols * rows) if position.stones[colour] >> p & 1}
    everywhere = [(f, r) for f in range(cols) for r in range(rows)]

    def on_board(f, r):
        return 0 <= f < cols and 0 <= r < rows

    def neighbours(point):
        return [(point[0] + df, point[1] + dr) for df, dr in DIRECTIONS
                if on_board(point[0] + df, point[1] + dr)]

    me = position.to_move
    if position.phase == PLACING:
        if not board:
            return {name(point) for point in everywhere}
        last = (position.last % cols, position.last // cols)
        moves = set()
        for first in neighbours(last):
            if first in board:
                continue
            after = {**board, first: me}
            seconds = [p for p in everywhere
                       if p not in after and all(n not in after for n in neighbours(p))]
            moves |= {f"{name(first)}+{name(second)}" for second in seconds}
            if not seconds:
                moves.add(name(first))
        return moves

    def walk(point, direction, left, ends):
        if left == 0:
            ends.add(point)
            return
        ahead = (point[0] + direction[0], point[1] + direction[1])
        if on_board(*ahead):
            walk(ahead, direction, left - 1, ends)
            return
        for turn in DIRECTIONS:
            if turn != direction and on_board(point[0] + turn[0], point[1] + turn[1]):
                walk((point[0] + turn[0], point[1] + turn[1]), turn, left - 1, ends)

    moves = set()
    for origin, colour in board.items():
        if colour != me:
            continue
        steps = sum(n not in board for n in neighbours(origin))
        ends = set()
        if steps:
            for direction in DIRECTIONS:
                walk(origin, direction, steps, ends)
        for target in ends - {origin}:
            if board.get(target) != me:
                separator = "x" if target in board else "-"
                moves.add(f"{name(origin)}{separator}{name(target)}")
    return moves


@pytest.mark.parametrize("size", [(5, 5), (7, 6), (9, 9)])
@pytest.mark.parametrize("seed", range(3))
def test_generator_agrees_with_the_literal_reading_of_the_rules(size, seed):
    rng = random.Random(seed)
    position = find_game("argon")(size=size).initial_position()
    while position.outcome is None and position.ply < 100:
        assert set(position.legal_move_texts()) == reference_moves(position)
        position.play(rng.choice(position.legal_moves()))


def texts_from(position: ArgonPosition, origin: str) -> set[str]:
    return {text for text in position.legal_move_texts()
            if text.startswith(origin) and text[len(origin)] in "-x"}


def test_golden_counts_agree_with_the_reference_generator():
    golden = json.loads((PERFT / "argon-5x5.json").read_text())["counts"]
    position = find_game("argon")(size=(5, 5)).initial_position()
    assert golden[0] == 25
    assert golden[:2] == reference_counts(position, reference_moves)


# --- board and phase 1 ------------------------------------------------------------------------

def test_the_board_is_9x9_by_default_and_5_to_19_each_way():
    assert find_game("argon")().size == (9, 9)
    for size in [(5, 5), (19, 19), (5, 19), (19, 5)]:
        assert find_game("argon")(size=size).initial_position().outcome is None
    for size in [(4, 9), (9, 4), (20, 9), (9, 20)]:
        with pytest.raises(SizeError):
            find_game("argon")(size=size)


def test_white_first_places_one_stone_anywhere():
    position = find_game("argon")().initial_position()
    assert position.to_move == WHITE
    assert len(position.legal_moves()) == 81
    assert all("+" not in text for text in position.legal_move_texts())
    position.play(position.parse_move("e5"))
    assert position.phase == PLACING and position.outcome is None  # one stone is one group


def test_later_turns_place_next_to_the_opponents_stone_then_on_a_lonely_point():
    position = find_game("argon")().position_after(["e5"])
    texts = position.legal_move_texts()
    assert {text.split("+")[0] for text in texts} == {"d5", "f5", "e4", "e6"}
    assert "d5+b2" in texts
    assert "d5+c5" not in texts  # c5 touches d5
    assert "d5+e6" not in texts  # e6 touches e5
    with pytest.raises(IllegalMoveError, match="next to e5"):
        position.parse_move("c5+a1")
    with pytest.raises(IllegalMoveError, match="c5 must be empty with only empty neighbours"):
        position.parse_move("d5+c5")
    with pytest.raises(IllegalMoveError, match="can still be placed"):
        position.parse_move("d5")


def test_the_first_stone_goes_next_to_the_second_stone_of_the_opponents_turn():
    position = find_game("argon")().position_after(["e5", "d5+b2"])
    assert {text.split("+")[0] for text in position.legal_move_texts()} == {"a2", "c2", "b1", "b3"}
    assert position.last == 1 * 9 + 1
    assert "last stone placed: b2 (black)" in position.diagram()


BOTH_KINDS = ArgonPosition.setup("d3 d5 e3 a4", "b2 d1 b4", BLACK, PLACING, "b2", (5, 5))


def test_one_turn_may_offer_both_kinds_and_a_lone_first_stone_ends_phase_one():
    # a1 is the only lonely point: a2 and b1 take it away, b3 and c2 do not.
    position = BOTH_KINDS.copy()
    assert position.legal_move_texts() == ["a2", "b1", "b3+a1", "c2+a1"]
    with pytest.raises(IllegalMoveError, match="no second stone is possible after a2"):
        position.parse_move("a2+a1")
    position.play(position.parse_move("c2+a1"))
    assert position.phase == PLACING and position.to_move == WHITE
    position.undo()
    position.play(position.parse_move("a2"))
    assert position.phase == MOVING and position.outcome is None
    assert position.to_move == WHITE  # the opponent moves first in phase 2
    assert all("-" in text or "x" in text for text in position.legal_move_texts())
    assert "phase 2 (moving)" in position.diagram()
    with pytest.raises(IllegalMoveError, match="moved in phase 2"):
        position.parse_move("c3")


def test_the_last_stone_always_has_an_empty_neighbour_in_phase_one():
    with pytest.raises(ValueError, match="no empty neighbour"):
        ArgonPosition.setup("a2 b1", "a1", BLACK, PLACING, "a1")


# Black to move, last white stone c4; no lonely point is left, so every turn is one stone.
CONNECTED_WHITE = "c4 b4 b3 b2 b1 b5"
SPLIT_WHITE = "c4 b4 b3 b2 b1 a5"
BLACK_STONES = "d3 e3 d5 d2 e2"


def test_the_turn_that_ends_phase_one_can_win():
    position = ArgonPosition.setup(BLACK_STONES, SPLIT_WHITE, BLACK, PLACING, "c4", (5, 5))
    assert position.legal_move_texts() == ["c3", "c5", "d4"]
    position.play(position.parse_move("d4"))
    assert position.outcome.winner == BLACK
    assert position.outcome.reason == "black connected all stones"


def test_the_turn_that_ends_phase_one_can_draw():
    position = ArgonPosition.setup(BLACK_STONES, CONNECTED_WHITE, BLACK, PLACING, "c4", (5, 5))
    position.play(position.parse_move("d4"))
    assert position.outcome.winner is None
    assert position.outcome.reason == "both sides are connected"


def test_the_turn_that_ends_phase_one_can_lose():
    position = ArgonPosition.setup(BLACK_STONES, CONNECTED_WHITE, BLACK, PLACING, "c4", (5, 5))
    position.play(position.parse_move("c3"))
    assert position.outcome.winner == WHITE


def test_the_turn_that_ends_phase_one_can_leave_the_game_open():
    position = ArgonPosition.setup(BLACK_STONES, SPLIT_WHITE, BLACK, PLACING, "c4", (5, 5))
    position.play(position.parse_move("c3"))
    assert position.outcome is None and position.phase == MOVING


# --- phase 2 routes ---------------------------------------------------------------------------

def test_a_free_stone_in_the_middle_goes_four_steps_straight():
    position = ArgonPosition.setup("a1 a9", "e5 i9", WHITE)
    assert texts_from(position, "e5") == {"e5-e9", "e5-e1", "e5-a5", "e5-i5"}


def test_a_stone_turns_at_the_edge_and_may_not_come_back_home():
    # c3 has 4 empty neighbours. West: b3, a3, then north a4-a5 or south a2-a1 (back east
    # would end on c3). South: c2, c1, then east d1-e1 or west b1-a1 (back would end on c3).
    position = ArgonPosition.setup("i1 a9", "c3 i9", WHITE)
    assert texts_from(position, "c3") == {"c3-c7", "c3-g3", "c3-a5", "c3-a1", "c3-e1"}
    with pytest.raises(IllegalMoveError, match="goes exactly 4 steps"):
        position.parse_move("c3-c5")


def test_a_stone_turns_twice_in_a_corner():
    # b2 west: a2, turn south a1, turn east b1, c1 (also south: b1, turn west a1, turn north
    # a2, a3). The other routes: b6, f2, a2-a5, back b2-d2, b1-e1, back b2-b4.
    position = ArgonPosition.setup("i1 a9", "b2 i9", WHITE)
    assert texts_from(position, "b2") == {"b2-b6", "b2-f2", "b2-a5", "b2-c1", "b2-a3",
                                          "b2-d2", "b2-e1", "b2-b4"}


def test_the_reversal_that_would_end_at_home_is_not_a_move():
    # b1 has 2 empty neighbours (a1, c1; b2 is taken): west a1 then back to b1 is no move;
    # west a1 then north a2, east to d1, north over b2 to b3 are.
    position = ArgonPosition.setup("b2 i9", "b1 a9", WHITE)
    assert texts_from(position, "b1") == {"b1-a2", "b1-d1", "b1-b3"}


def test_a_stone_passes_over_stones_of_both_colours():
    position = ArgonPosition.setup("c5 c6 a1", "c4 c8 i9", WHITE)  # c4: 3 empty neighbours
    assert "c4-c7" in texts_from(position, "c4")


def test_a_stone_without_empty_neighbours_cannot_move():
    position = ArgonPosition.setup("d5 f5 e4 e6", "e5 a1 a3", WHITE)
    assert texts_from(position, "e5") == set()
    with pytest.raises(IllegalMoveError, match="0 empty neighbours goes exactly 0 steps"):
        position.parse_move("e5-e9")


def test_a_stone_may_not_end_on_an_own_stone():
    position = ArgonPosition.setup("a1 a9", "e5 e1 i9", WHITE)
    assert "e5-e1" not in position.legal_move_texts()
    with pytest.raises(IllegalMoveError, match="land on its own stone"):
        position.parse_move("e5-e1")


def test_a_capture_removes_both_stones():
    position = ArgonPosition.setup("e9 a1 c1", "e5 i9 i7", WHITE)
    move = position.parse_move("e5-e9")
    assert position.move_text(move) == "e5xe9"
    position.play(move)
    assert position.stones == ArgonPosition.setup("a1 c1", "i9 i7", WHITE).stones
    position.undo()
    assert position.stones == ArgonPosition.setup("e9 a1 c1", "e5 i9 i7", WHITE).stones


# --- outcomes ---------------------------------------------------------------------------------

def test_a_move_that_connects_the_movers_stones_wins():
    position = ArgonPosition.setup("a1 c1", "e3 e8 e9", WHITE)
    position.play(position.parse_move("e3-e7"))
    assert position.outcome.winner == WHITE
    assert position.outcome.reason == "white connected all stones"


def test_a_move_that_connects_both_sides_draws():
    # The capture removes e3 and e7: white keeps e8-e9, black a1-a2.
    position = ArgonPosition.setup("e7 a1 a2", "e3 e8 e9", WHITE)
    position.play(position.parse_move("e3xe7"))
    assert position.outcome.winner is None
    assert position.outcome.reason == "both sides are connected"


def test_a_move_that_connects_only_the_opponents_stones_loses():
    position = ArgonPosition.setup("e7 a1 a2", "e3 e8 i9", WHITE)
    position.play(position.parse_move("e3xe7"))
    assert position.outcome.winner == BLACK
    assert position.outcome.reason == "white connected only the opponent's stones"


def test_a_move_that_connects_nobody_goes_on():
    position = ArgonPosition.setup("e7 a1 c1", "e3 e8 i9", WHITE)
    position.play(position.parse_move("e3xe7"))
    assert position.outcome is None and position.to_move == BLACK


def test_no_stones_at_all_count_as_one_group():
    assert is_connected(0, tables(9, 9))


def test_a_player_who_cannot_move_in_phase_two_loses():
    position = ArgonPosition.setup("a2 b1 e4 d5", "a1 e5", WHITE, size=(5, 5))
    assert position.outcome.winner == BLACK
    assert position.outcome.reason == "white cannot move"


def test_phase_two_can_go_round_in_circles():
    assert find_game("argon")().may_not_end


def test_moves_are_read_leniently():
    position = find_game("argon")().position_after(["e5"])
    assert position.move_text(position.parse_move(" D5+B2 ")) == "d5+b2"
    with pytest.raises(MoveSyntaxError):
        position.parse_move("d5+b2+c3")
    with pytest.raises(MoveSyntaxError):
        position.parse_move("d5+z2")
    position = ArgonPosition.setup("a1 a9", "e5 i9", WHITE)
    move = position.parse_move("e5-e9")
    assert position.parse_move("E5E9") == position.parse_move("e5xe9") == move


def test_phase_two_golden_counts_agree_with_the_reference_generator():
    record = json.loads((PERFT / "argon-7x7-phase2.json").read_text())
    position = find_game("argon")(size=tuple(record["size"])).position_after(record["moves"])
    assert position.phase == MOVING
    assert set(position.legal_move_texts()) == reference_moves(position)
    assert record["counts"][:2] == reference_counts(position, reference_moves)


def test_noisy_moves_are_exactly_the_moves_that_join_all_the_movers_stones():
    # From an engine game: white's i2-i4 joins i5, i4, i3 and h3 and wins.
    position = ArgonPosition.setup("i9 d7 c7 e5", "i5 h3 i3 i2", WHITE, phase=MOVING)
    noisy = set(position.noisy_moves())
    assert position.parse_move("i2-i4") in noisy
    for move in position.legal_moves():
        position.play(move)
        joined = position.outcome is not None and position.outcome.reason.endswith(
            ("connected all stones", "both sides are connected"))
        position.undo()
        assert (move in noisy) == joined, position.move_text(move)


def test_noisy_moves_are_none_while_placing():
    assert find_game("argon")().position_after(["e5"]).noisy_moves() == []


# --- what the generic tests read: tests/test_drawing.py, tests/report/test_play.py ---------


def drawn_pieces(position, colour: int) -> set[str]:
    """Where ``colour``'s pieces are on the board, read from the rules' state: what
    tests/test_drawing.py finds drawn."""
    return square_names(position.stones[colour], position.game.cols)


# How tests/report/test_play.py plays a whole game by clicks: the command's settings (a small
# board, a move limit), a pattern of the moves it prefers, and patterns of the kinds of move the
# person must have made.
PLAY_BY_CLICKS = (["--boardsize", "5"], r"\+|x", [r"\+", r"-|x"])
