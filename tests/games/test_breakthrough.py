"""Breakthrough: every rule clause from a position, the board sizes, and a reference generator."""

import json
import pathlib
import random

import pytest

from engine import (
    BLACK,
    WHITE,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    SizeError,
    Termination,
    find_game,
)
from engine.games.breakthrough import BreakthroughPosition

from ..playouts import check_playout, square_names

FILES = "abcdefghijklmnopqrstuvwxyz"
PERFT_DATA = pathlib.Path(__file__).parent.parent / "data" / "perft"


def game(cols=8, rows=8):
    return find_game("breakthrough")(size=(cols, rows))


def setup(black, white, to_move=WHITE, size=(8, 8)):
    return BreakthroughPosition.setup(game(*size), black, white, to_move)


def reference_moves(position: BreakthroughPosition) -> set[str]:
    """The rules read literally, one square at a time: the slow, obviously right generator."""
    cols, rows = position.board.cols, position.board.rows
    me = position.to_move
    board = {}
    for colour in (BLACK, WHITE):
        for square in range(cols * rows):
            if position.pieces[colour] >> square & 1:
                board[(square % cols, square // cols)] = colour
    forward = 1 if me == WHITE else -1
    moves = set()
    for (file, rank), colour in board.items():
        if colour != me:
            continue
        for sideways in (-1, 0, 1):
            target = (file + sideways, rank + forward)
            if not (0 <= target[0] < cols and 0 <= target[1] < rows):
                continue
            occupant = board.get(target)
            if occupant is None or (occupant != me and sideways != 0):
                separator = "-" if occupant is None else "x"
                moves.add(f"{FILES[file]}{rank + 1}{separator}{FILES[target[0]]}{target[1] + 1}")
    return moves


def reference_winner(position: BreakthroughPosition):
    """Who has won by the literal rules, or None: a piece on the far rank, no opponent pieces
    left, or the side to move without a move."""
    cols, rows = position.board.cols, position.board.rows
    black, white = position.pieces
    if white >> (cols * (rows - 1)):
        return WHITE
    if black & ((1 << cols) - 1):
        return BLACK
    if not black or not white:
        return WHITE if black == 0 else BLACK
    if not reference_moves(position):
        return position.to_move ^ 1
    return None


@pytest.mark.parametrize("size", [(8, 8), (2, 5), (3, 7), (5, 6), (11, 5), (26, 9)])
def test_generator_and_judge_agree_with_the_literal_rules(size):
    rng = random.Random(sum(size))
    for _ in range(3):
        position = game(*size).initial_position()
        while True:
            expected = reference_winner(position)
            assert (position.outcome.winner if position.outcome else None) == expected
            if position.outcome:
                break
            assert set(position.legal_move_texts()) == reference_moves(position)
            position.play(rng.choice(position.legal_moves()))


def test_setup_white_on_the_first_two_ranks_black_on_the_top_two_white_first():
    position = game(5, 7).initial_position()
    assert position.to_move == WHITE
    assert position.key() == setup("a6 b6 c6 d6 e6 a7 b7 c7 d7 e7",
                                   "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2", size=(5, 7)).key()


def test_a_piece_moves_one_square_straight_or_diagonally_forward():
    position = setup("h8", "d4")
    assert position.legal_move_texts() == ["d4-c5", "d4-d5", "d4-e5"]
    for text in ("d4-d6", "d4-d3", "d4-c3", "d4-c4", "d4-b5"):
        with pytest.raises(IllegalMoveError, match="one square straight or diagonally forward"):
            position.parse_move(text)


def test_black_moves_down_the_board():
    position = setup("d5", "h1", to_move=BLACK)
    assert position.legal_move_texts() == ["d5-c4", "d5-d4", "d5-e4"]


def test_a_straight_move_is_blocked_by_any_piece_and_never_captures():
    position = setup("d5 a8", "d4 e4 e5")
    moves = position.legal_move_texts()
    assert "d4-d5" not in moves and "d4xd5" not in moves
    with pytest.raises(IllegalMoveError, match="captures diagonally, never straight ahead"):
        position.parse_move("d4xd5")
    with pytest.raises(IllegalMoveError, match="land on its own piece"):
        position.parse_move("e4-e5")


def test_captures_are_diagonal_only_and_remove_the_piece():
    position = setup("c5 e5 d5 h8", "d4")
    assert position.legal_move_texts() == ["d4xc5", "d4xe5"]
    position.play(position.parse_move("d4-e5"))  # any separator is read
    assert position.pieces[BLACK] == setup("c5 d5 h8", "").pieces[BLACK]
    assert position.outcome is None
    position.undo()
    assert position.pieces[BLACK] == setup("c5 e5 d5 h8", "").pieces[BLACK]


def test_a_diagonal_move_onto_an_own_piece_is_illegal():
    position = setup("h8", "d4 c5")
    assert "d4-c5" not in position.legal_move_texts()
    with pytest.raises(IllegalMoveError, match="land on its own piece"):
        position.parse_move("d4xc5")


@pytest.mark.parametrize("size", [(8, 8), (3, 5), (4, 11)])
def test_white_wins_on_reaching_the_far_rank(size):
    rows = size[1]
    position = setup(f"a{rows}", f"b{rows - 1}", size=size)
    position.play(position.parse_move(f"b{rows - 1}-b{rows}"))
    assert position.outcome == Outcome(WHITE, Termination.NORMAL, f"white reached rank {rows}")
    assert position.outcome.result == "W+" and position.legal_moves() == []


def test_black_wins_on_reaching_the_far_rank_also_by_a_capture():
    position = setup("c2 h7", "b1 a4", to_move=BLACK)
    position.play(position.parse_move("c2xb1"))
    assert position.outcome == Outcome(BLACK, Termination.NORMAL, "black reached rank 1")
    assert position.outcome.result == "B+"


def test_capturing_the_last_opponent_piece_wins():
    position = setup("e5", "d4 a2")
    position.play(position.parse_move("d4xe5"))
    assert position.outcome == Outcome(WHITE, Termination.NORMAL, "black has no pieces left")
    position = setup("e5 h8", "d4", to_move=BLACK)
    position.play(position.parse_move("e5xd4"))
    assert position.outcome == Outcome(BLACK, Termination.NORMAL, "white has no pieces left")


def test_a_side_with_pieces_always_has_a_move_so_the_no_move_rule_never_applies():
    # The most advanced piece has no friend in front of it, so one of its diagonal squares is
    # on the board (two files or more) and is empty or an opponent's: here every white piece
    # is blocked straight ahead, and still b4 may capture a5 or move to c5.
    position = setup("a5 b5 c5", "a4 b4", size=(3, 8))
    assert position.outcome is None
    assert position.legal_move_texts() == ["a4xb5", "b4xa5", "b4xc5"]
    position = setup("a4 b4 a5 b5", "a3 b3", to_move=BLACK, size=(2, 5))
    assert position.legal_move_texts() == ["a4xb3", "b4xa3"]


@pytest.mark.parametrize("size", [(2, 5), (2, 26), (26, 5)])
def test_the_extreme_board_sizes_are_accepted(size):
    position = check_playout(game(*size), seed=1, undo_every_ply=False)
    assert position.outcome.termination == Termination.NORMAL


def test_the_largest_board_plays_to_the_end():
    position = game(26, 26).initial_position()
    assert len(position.legal_moves()) == 3 * 26 - 2
    rng = random.Random(1)
    while position.outcome is None:
        position.play(rng.choice(position.legal_moves()))
    assert position.outcome.termination == Termination.NORMAL


@pytest.mark.parametrize("size", [(1, 8), (27, 8), (8, 4), (8, 27), (1, 4)])
def test_sizes_just_outside_the_range_are_refused(size):
    with pytest.raises(SizeError, match="2-26 columns by 5-26 rows"):
        game(*size)


def test_squares_are_named_on_the_largest_board():
    position = setup("z26", "a1 z24", size=(26, 26))
    assert "z24-y25" in position.legal_move_texts() and "z24-z25" in position.legal_move_texts()


@pytest.mark.parametrize("text", ["a2", "a2-a9", "i2-i3", "a2-a3-a4", "", "2-3"])
def test_text_that_is_not_a_move_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        game().initial_position().parse_move(text)


@pytest.mark.parametrize("text", ["a2-a3", "A2A3", "a2xa3", "a2a3"])
def test_moves_are_read_leniently(text):
    position = game().initial_position()
    assert position.move_text(position.parse_move(text)) == "a2-a3"


def test_errors_name_an_empty_origin_and_a_finished_game():
    position = game().initial_position()
    with pytest.raises(IllegalMoveError, match="no white piece on a3"):
        position.parse_move("a3-a4")
    position = setup("h8", "a7")
    position.play(position.parse_move("a7-a8"))
    with pytest.raises(IllegalMoveError, match="the game is over"):
        position.parse_move("h8-h7")


@pytest.mark.parametrize("file_name, depth",
                         [("breakthrough.json", 3), ("breakthrough-5x6.json", 4)])
def test_the_golden_perft_counts_agree_with_the_reference_generator(file_name, depth):
    record = json.loads((PERFT_DATA / file_name).read_text())
    size = tuple(record["size"]) if record["size"] else (8, 8)

    def reference_perft(position, depth):
        if depth == 0:
            return 1
        if position.outcome:
            return 0
        total = 0
        for text in reference_moves(position):
            position.play(position.parse_move(text))
            total += reference_perft(position, depth - 1)
            position.undo()
        return total

    position = game(*size).initial_position()
    assert reference_perft(position, depth) == record["counts"][depth - 1]


def test_the_evaluation_sees_a_win_next_move_and_an_unstoppable_runner():
    winning = setup("h8 a5", "b7 h2")  # white to move reaches rank 8
    losing = setup("b2 h8", "h5 a3")  # black's b2 reaches rank 1 next: white cannot take it
    defended = setup("b2 h8", "a1 h5")  # a1 can take b2
    recaptured = setup("b2 c3 h8", "a1 h5")  # a1xb2 c3xb2: a new runner
    outnumbered = setup("b2 c3 h8", "a1 c1 h5")  # a1xb2 c3xb2 c1xb2
    assert winning.evaluate() > 10_000
    assert losing.evaluate() < -10_000 and recaptured.evaluate() < -10_000
    assert abs(defended.evaluate()) < 10_000 and abs(outnumbered.evaluate()) < 10_000


def test_the_evaluation_prefers_material_and_advancement():
    assert setup("a8", "a2 b2").evaluate() > setup("a8 b8", "a2").evaluate()
    assert setup("a8", "d5").evaluate() > setup("a8", "d3").evaluate()


def test_the_diagram_has_coordinates_and_rank_1_at_the_bottom():
    lines = game(3, 5).initial_position().diagram().splitlines()
    assert lines[0].split() == lines[6].split() == ["a", "b", "c"]
    assert lines[1] == "5 X X X 5" and lines[5] == "1 O O O 1" and lines[3] == "3 . . . 3"
    assert lines[7] == "X black, O white; white to move"


# --- what the generic tests read: tests/test_drawing.py, tests/report/test_play.py ---------


def drawn_pieces(position, colour: int) -> set[str]:
    """Where ``colour``'s pieces are on the board, read from the rules' state: what
    tests/test_drawing.py finds drawn."""
    return square_names(position.pieces[colour], position.game.cols)


# How tests/report/test_play.py plays a whole game by clicks: the command's settings (a small
# board, a move limit), a pattern of the moves it prefers, and patterns of the kinds of move the
# person must have made.
PLAY_BY_CLICKS = (["--boardsize", "4x5"], r"x", [r"x"])
