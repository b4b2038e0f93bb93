"""Knightthrough: every rule clause from a position, the board sizes, and a reference generator."""

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
from engine.games.knightthrough import KnightthroughPosition

from ..playouts import check_playout, square_names

FILES = "abcdefghijklmnopqrstuvwxyz"
PERFT_DATA = pathlib.Path(__file__).parent.parent / "data" / "perft"
KNIGHT_JUMPS = [(-1, 2), (1, 2), (-2, 1), (2, 1)]  # (files, ranks forward)


def game(cols=8, rows=8):
    return find_game("knightthrough")(size=(cols, rows))


def setup(black, white, to_move=WHITE, size=(8, 8)):
    return KnightthroughPosition.setup(game(*size), black, white, to_move)


def reference_moves(position: KnightthroughPosition) -> set[str]:
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
        for files, ranks in KNIGHT_JUMPS:
            target = (file + files, rank + forward * ranks)
            if not (0 <= target[0] < cols and 0 <= target[1] < rows) or board.get(target) == me:
                continue
            separator = "-" if target not in board else "x"
            moves.add(f"{FILES[file]}{rank + 1}{separator}{FILES[target[0]]}{target[1] + 1}")
    return moves


def reference_winner(position: KnightthroughPosition):
    """Who has won by the literal rules, or None."""
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


@pytest.mark.parametrize("size", [(8, 8), (3, 5), (3, 9), (4, 6), (7, 5), (26, 10)])
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


def test_setup_as_breakthrough_white_first():
    position = game(3, 6).initial_position()
    assert position.to_move == WHITE
    assert position.key() == setup("a5 b5 c5 a6 b6 c6", "a1 b1 c1 a2 b2 c2", size=(3, 6)).key()


def test_a_knight_jumps_forward_in_both_shapes_only():
    position = setup("h8", "d4")
    assert position.legal_move_texts() == ["d4-b5", "d4-c6", "d4-e6", "d4-f5"]
    for text in ("d4-b3", "d4-c2", "d4-e2", "d4-f3", "d4-d5", "d4-e5", "d4-d6"):
        with pytest.raises(IllegalMoveError, match="two ranks forward and one file sideways"):
            position.parse_move(text)


def test_black_jumps_down_the_board():
    position = setup("d5", "h1", to_move=BLACK)
    assert position.legal_move_texts() == ["d5-b4", "d5-c3", "d5-e3", "d5-f4"]


def test_a_knight_captures_by_landing_on_an_opponent_but_never_on_its_own_piece():
    position = setup("c6 f5 h8", "d4 e6 b5")
    assert position.legal_move_texts() == ["b5-a7", "b5-c7", "b5-d6", "d4xc6", "d4xf5",
                                           "e6-c7", "e6-d8", "e6-f8", "e6-g7"]
    with pytest.raises(IllegalMoveError, match="land on its own piece"):
        position.parse_move("d4xe6")
    position.play(position.parse_move("d4c6"))  # any separator is read
    assert position.pieces[BLACK] == setup("f5 h8", "").pieces[BLACK]
    position.undo()
    assert position.pieces[BLACK] == setup("c6 f5 h8", "").pieces[BLACK]


def test_white_wins_on_reaching_the_far_rank_by_either_shape():
    for text in ("c6-d8", "b7-d8"):
        position = setup("a8 h8", "c6 b7")
        position.play(position.parse_move(text))
        assert position.outcome == Outcome(WHITE, Termination.NORMAL, "white reached rank 8")


def test_black_wins_on_reaching_the_far_rank_also_by_a_capture():
    position = setup("c3 h8", "b1 h4", to_move=BLACK)
    position.play(position.parse_move("c3xb1"))
    assert position.outcome == Outcome(BLACK, Termination.NORMAL, "black reached rank 1")
    assert position.outcome.result == "B+"


def test_capturing_the_last_opponent_piece_wins():
    position = setup("e6", "d4 a2")
    position.play(position.parse_move("d4xe6"))
    assert position.outcome == Outcome(WHITE, Termination.NORMAL, "black has no pieces left")


def test_a_side_without_a_legal_move_loses():
    # On three files a knight one rank before its goal has no forward jump left: after
    # a5-c4, white's only knight b4 cannot move. (From four files on, the most advanced knight
    # can always jump one rank forward and two files sideways, so the rule never applies.)
    position = setup("a5", "b4", to_move=BLACK, size=(3, 5))
    position.play(position.parse_move("a5-c4"))
    assert position.outcome == Outcome(BLACK, Termination.NORMAL, "white has no legal move")
    assert position.legal_moves() == []
    # Judged in a set-up position too.
    position = setup("c5", "b4", size=(3, 5))
    assert position.outcome == Outcome(BLACK, Termination.NORMAL, "white has no legal move")


@pytest.mark.parametrize("size", [(3, 5), (3, 26), (26, 5)])
def test_the_extreme_board_sizes_are_accepted(size):
    position = check_playout(game(*size), seed=1, undo_every_ply=False)
    assert position.outcome.termination == Termination.NORMAL


def test_the_largest_board_plays_to_the_end():
    position = game(26, 26).initial_position()
    rng = random.Random(1)
    while position.outcome is None:
        position.play(rng.choice(position.legal_moves()))
    assert position.outcome.termination == Termination.NORMAL


@pytest.mark.parametrize("size", [(2, 8), (27, 8), (8, 4), (8, 27)])
def test_sizes_just_outside_the_range_are_refused(size):
    with pytest.raises(SizeError, match="3-26 columns by 5-26 rows"):
        game(*size)


@pytest.mark.parametrize("text", ["b1", "b1-c9", "b1-c3-d5", "", "1-3"])
def test_text_that_is_not_a_move_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        game().initial_position().parse_move(text)


@pytest.mark.parametrize("text", ["b1-c3", "B1C3", "b1xc3", "b1c3"])
def test_moves_are_read_leniently(text):
    position = game().initial_position()
    assert position.move_text(position.parse_move(text)) == "b1-c3"


@pytest.mark.parametrize("file_name, depth",
                         [("knightthrough.json", 3), ("knightthrough-4x6.json", 3)])
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
    winning = setup("h8 a5", "b6 h2")  # b6-c8 or b6-a8 reaches rank 8
    losing = setup("c3 h8", "h4 a5")  # black's c3 reaches rank 1 next; white cannot take it
    defended = setup("c3 h8", "b1 h4")  # b1 can take c3
    assert winning.evaluate() > 10_000
    assert losing.evaluate() < -10_000
    assert abs(defended.evaluate()) < 10_000


def test_the_evaluation_prefers_material_and_advancement():
    assert setup("a8", "a2 b2").evaluate() > setup("a8 b8", "a2").evaluate()
    assert setup("a8", "d5").evaluate() > setup("a8", "d3").evaluate()


# --- what the generic tests read: tests/test_drawing.py, tests/report/test_play.py ---------


def drawn_pieces(position, colour: int) -> set[str]:
    """Where ``colour``'s pieces are on the board, read from the rules' state: what
    tests/test_drawing.py finds drawn."""
    return square_names(position.pieces[colour], position.game.cols)


# How tests/report/test_play.py plays a whole game by clicks: the command's settings (a small
# board, a move limit), a pattern of the moves it prefers, and patterns of the kinds of move the
# person must have made.
PLAY_BY_CLICKS = (["--boardsize", "4x6"], r"x", [r"-|x"])
