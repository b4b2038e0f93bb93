"""Lines of Action: the Olympiad rules 1-10, each from a position, and a reference generator."""

import random

import pytest

from engine import BLACK, WHITE, IllegalMoveError, MoveSyntaxError, Outcome, Termination, find_game
from engine.games.loa import LoaPosition, is_connected

from ..playouts import square_names

DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]


def reference_moves(position: LoaPosition) -> set[str]:
    """Rules 3-5 read literally, one square at a time: the slow, obviously right generator."""
    board = {}
    for colour in (BLACK, WHITE):
        for square in range(64):
            if position.pieces[colour] >> square & 1:
                board[(square % 8, square // 8)] = colour
    me = position.to_move
    moves = set()
    for (file, rank), colour in board.items():
        if colour != me:
            continue
        for df, dr in DIRECTIONS:
            count = 1
            for sign in (1, -1):
                f, r = file + sign * df, rank + sign * dr
                while 0 <= f < 8 and 0 <= r < 8:
                    count += (f, r) in board
                    f, r = f + sign * df, r + sign * dr
            target = (file + count * df, rank + count * dr)
            if not (0 <= target[0] < 8 and 0 <= target[1] < 8) or board.get(target) == me:
                continue
            jumped = [board.get((file + i * df, rank + i * dr)) for i in range(1, count)]
            if 1 - me in jumped:
                continue
            separator = "x" if target in board else "-"
            name = "abcdefgh"
            moves.add(f"{name[file]}{rank + 1}{separator}{name[target[0]]}{target[1] + 1}")
    return moves or {"pass"}


@pytest.mark.parametrize("seed", range(4))
def test_generator_agrees_with_the_literal_reading_of_rules_3_to_5(seed):
    rng = random.Random(seed)
    position = find_game("loa")().initial_position()
    while position.outcome is None:
        assert set(position.legal_move_texts()) == reference_moves(position)
        position.play(rng.choice(position.legal_moves()))


def test_rule_1_setup_has_empty_corners_and_twelve_pieces_each():
    position = find_game("loa")().initial_position()
    assert position.key() == LoaPosition.setup(
        "b1 c1 d1 e1 f1 g1 b8 c8 d8 e8 f8 g8", "a2 a3 a4 a5 a6 a7 h2 h3 h4 h5 h6 h7").key()


def test_rule_2_black_moves_first():
    position = find_game("loa")().initial_position()
    assert position.to_move == BLACK


def test_rule_3_a_move_goes_as_far_as_there_are_pieces_on_the_line():
    # b-file: b1, b5 and the white b7: three pieces, so b1 goes exactly three squares.
    position = LoaPosition.setup("b1 b5 h1", "b7 g8")
    moves = position.legal_move_texts()
    assert "b1-b4" in moves
    assert "b1-b3" not in moves and "b1-b2" not in moves
    with pytest.raises(IllegalMoveError, match="a line with 3 pieces allows 3 squares"):
        position.parse_move("b1-b3")


def test_rule_4_a_piece_jumps_its_own_pieces_but_does_not_land_on_them():
    position = LoaPosition.setup("a1 b1 d1 g4", "h8 e5")
    assert "a1-d1" not in position.legal_move_texts()  # rank 1 has 3 pieces: lands on d1
    with pytest.raises(IllegalMoveError, match="land on its own piece"):
        position.parse_move("a1-d1")
    position = LoaPosition.setup("a1 b1 h5", "h8 e5")
    assert "a1-c1" in position.legal_move_texts()  # jumps over its own b1


def test_rule_5_no_jumping_over_the_opponent_but_capture_by_landing():
    position = LoaPosition.setup("a1 h5", "b1 c1 h8")
    # rank 1 holds three pieces: a1 would jump the white b1 and c1.
    assert "a1-d1" not in position.legal_move_texts()
    with pytest.raises(IllegalMoveError, match="jump over an opponent piece"):
        position.parse_move("a1-d1")
    position = LoaPosition.setup("a1 h5", "b1 e8")
    assert "a1xb1" not in position.legal_move_texts()  # two pieces: a1 goes two squares
    position = LoaPosition.setup("a1 h5", "c1 e8")
    assert "a1xc1" in position.legal_move_texts()
    position.play(position.parse_move("a1-c1"))  # any separator is read
    assert position.pieces[WHITE] == LoaPosition.setup("", "e8").pieces[WHITE]


def test_rule_6_the_mover_wins_by_joining_all_pieces_diagonal_contact_counts():
    # f4 is alone on its anti-diagonal, so it steps one square to e5, touching d4 diagonally.
    position = LoaPosition.setup("c3 d4 f4", "a1 a8 h8")
    assert position.outcome is None
    position.play(position.parse_move("f4-e5"))
    assert position.outcome == Outcome(BLACK, Termination.NORMAL, "black connected all pieces")
    assert position.outcome.result == "B+"
    assert position.legal_moves() == []


def test_rule_7_a_single_piece_is_connected_so_capturing_down_to_one_loses():
    # Black's b2 captures d2 (two pieces on rank 2), leaving white the single piece h8.
    position = LoaPosition.setup("b2 c5 e7", "d2 h8")
    position.play(position.parse_move("b2xd2"))
    assert not is_connected(position.pieces[BLACK])
    assert position.outcome == Outcome(WHITE, Termination.NORMAL,
                                       "white is connected by the capture")


def test_spec_a_capture_that_connects_the_opponent_gives_the_opponent_the_win():
    # White's a4 is the straggler; black takes it without joining up: white's e4-g4 remain.
    position = LoaPosition.setup("a2 c6 h1", "a4 e4 f4 g4")
    position.play(position.parse_move("a2xa4"))
    assert position.outcome.winner == WHITE
    assert position.outcome.termination == Termination.NORMAL


def test_rule_8_a_move_connecting_both_sides_is_a_draw():
    # b4 takes white's straggler d4, joining e5; white is left with the joined g7-g8.
    position = LoaPosition.setup("b4 e5", "d4 g7 g8")
    position.play(position.parse_move("b4xd4"))
    assert position.outcome == Outcome(None, Termination.NORMAL, "both sides are connected")
    assert position.outcome.result == "0"


def test_rule_9_a_side_without_moves_passes_and_pass_is_otherwise_illegal():
    # Every line from a1 and a3 either leaves the board, lands on black or jumps white.
    position = LoaPosition.setup("a1 a3", "a2 a4 b1 b2 b3 b4 h6")
    assert position.legal_move_texts() == ["pass"]
    position.play(position.parse_move("PASS"))
    assert position.to_move == WHITE and position.outcome is None
    start = find_game("loa")().initial_position()
    with pytest.raises(IllegalMoveError, match="only legal when no other move exists"):
        start.parse_move("pass")


def test_rule_10_the_third_occurrence_of_a_position_is_a_draw():
    shuffle = ["b1-b3", "a2-c2", "b3-b1", "c2-a2"]
    position = find_game("loa")().position_after(shuffle)
    assert position.outcome is None and position.occurrences() == 2
    for text in shuffle[:3]:
        position.play(position.parse_move(text))
    assert position.outcome is None
    position.play(position.parse_move("c2-a2"))
    assert position.outcome.termination == Termination.REPETITION
    assert position.outcome.result == "0"
    assert position.legal_moves() == []
    position.undo()
    assert position.outcome is None and position.occurrences() == 2  # once per cycle


def test_repetition_needs_the_same_side_to_move():
    position = LoaPosition.setup("a1 a3", "a2 a4 b1 b2 b3 b4 h6")
    position.play(position.parse_move("pass"))
    assert position.occurrences() == 1  # same board, white to move: a different position


@pytest.mark.parametrize("text", ["b1-b9", "i1-i3", "b1", "b1-b3-b5", "", "b1 b3", "11-13"])
def test_text_that_is_not_a_move_is_a_syntax_error(text):
    position = find_game("loa")().initial_position()
    with pytest.raises(MoveSyntaxError):
        position.parse_move(text)


@pytest.mark.parametrize("text", ["b1-b3", "B1B3", "b1xb3", "b1b3"])
def test_moves_are_read_leniently(text):
    position = find_game("loa")().initial_position()
    assert position.move_text(position.parse_move(text)) == "b1-b3"


def test_an_empty_origin_is_named_in_the_error():
    position = find_game("loa")().initial_position()
    with pytest.raises(IllegalMoveError, match="no black piece on a2"):
        position.parse_move("a2-a4")


# --- what the generic tests read: tests/test_drawing.py, tests/report/test_play.py ---------


def drawn_pieces(position, colour: int) -> set[str]:
    """Where ``colour``'s pieces are on the board, read from the rules' state: what
    tests/test_drawing.py finds drawn."""
    return square_names(position.pieces[colour], 8)


# How tests/report/test_play.py plays a whole game by clicks: the command's settings (a small
# board, a move limit), a pattern of the moves it prefers, and patterns of the kinds of move the
# person must have made.
PLAY_BY_CLICKS = (["--max-moves", "16"], r".", [r"^[a-h]\d-", r"x"])
