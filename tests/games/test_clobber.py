"""Clobber rules (SPEC 2.4), each clause checked on positions built for it."""

import random

import pytest

from engine import BLACK, WHITE, IllegalMoveError, MoveSyntaxError, SizeError, find_game
from engine.games.clobber import ClobberPosition, in_play
from engine.grid import parse_square, square_name
from engine.perft import perft

from ..playouts import check_playout, square_names

Clobber = find_game("clobber")


def setup(black, white, to_move=BLACK, size=(5, 5)):
    """A position on a ``size`` board with stones on the named squares."""
    game = Clobber(size=size)
    cols, rows = size
    bits = [sum(1 << parse_square(name, cols, rows) for name in names) for names in (black, white)]
    return ClobberPosition(game, bits[0], bits[1], to_move)


def reference_moves(position):
    """The legal move texts found square by square, independently of the bitboard generator."""
    cols, rows = position.game.cols, position.game.rows
    own, opponent = position.pieces[position.to_move], position.pieces[position.to_move ^ 1]
    texts = []
    for rank in range(rows):
        for file in range(cols):
            if not own >> (rank * cols + file) & 1:
                continue
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                f, r = file + df, rank + dr
                if 0 <= f < cols and 0 <= r < rows and opponent >> (r * cols + f) & 1:
                    texts.append(f"{square_name(rank * cols + file, cols)}x"
                                 f"{square_name(r * cols + f, cols)}")
    return sorted(texts)


def test_start_is_a_chequerboard_with_black_on_a1_and_black_to_move():
    position = Clobber().initial_position()
    black, white = position.pieces
    assert (position.game.cols, position.game.rows) == (10, 10)
    assert position.to_move == BLACK and position.outcome is None
    for name, colour in (("a1", black), ("c1", black), ("b2", black), ("j10", black),
                         ("b1", white), ("a2", white), ("j1", white), ("a10", white)):
        assert colour >> parse_square(name, 10, 10) & 1, name
    assert black.bit_count() == white.bit_count() == 50
    assert black & white == 0


def test_every_adjacent_pair_gives_each_side_one_move():
    position = Clobber().initial_position()
    assert len(position.legal_moves()) == 9 * 10 + 10 * 9
    assert perft(position, 2) == 31252


def test_a_stone_takes_an_orthogonally_adjacent_opponent_stone_only():
    position = setup(["c3"], ["c4", "d3", "b2", "a3"])
    # Diagonal (b2), distant (a3) and empty squares are out of reach.
    assert position.legal_move_texts() == ["c3xc4", "c3xd3"]


def test_a_stone_never_moves_onto_its_own_stone_or_an_empty_square():
    position = setup(["c3", "c4", "b3"], ["e5"])
    assert position.outcome is not None
    position = setup(["c3", "c4"], ["d3"])
    assert position.legal_move_texts() == ["c3xd3"]


def test_the_capture_removes_the_taken_stone_and_moves_the_taker():
    position = setup(["c3"], ["c4", "d4"])
    position.play(position.parse_move("c3xc4"))
    black, white = position.pieces
    assert black == 1 << parse_square("c4", 5, 5)
    assert white == 1 << parse_square("d4", 5, 5)
    assert position.to_move == WHITE
    assert position.legal_move_texts() == ["d4xc4"]


@pytest.mark.parametrize("loser", [BLACK, WHITE])
def test_the_side_that_cannot_move_loses(loser):
    # Stones of both colours remain, but no two opposite stones touch.
    position = setup(["a1", "a2"], ["c1", "e5"], to_move=loser)
    assert position.outcome is not None
    assert position.outcome.winner == loser ^ 1
    assert position.legal_moves() == []


@pytest.mark.parametrize("loser", [BLACK, WHITE])
def test_the_last_capture_ends_the_game_for_the_side_left_without_moves(loser):
    mover = loser ^ 1
    stones = [["b2"], ["b3", "e5"]] if mover == BLACK else [["b3", "e5"], ["b2"]]
    position = setup(*stones, to_move=mover)
    position.play(position.legal_moves()[0])
    assert position.outcome.winner == mover
    assert position.outcome.result == ("B+" if mover == BLACK else "W+")
    assert "has no move" in position.outcome.reason


def test_one_by_one_board_black_cannot_move_and_loses_at_once():
    position = Clobber(size=(1, 1)).initial_position()
    assert position.outcome is not None and position.outcome.winner == WHITE
    assert position.legal_moves() == []


def test_one_by_two_board_black_takes_and_wins():
    position = Clobber(size=(1, 2)).initial_position()
    assert position.legal_move_texts() == ["a1xa2"]
    position.play(position.parse_move("a1xa2"))
    assert position.outcome.winner == BLACK


@pytest.mark.parametrize("size", [(1, 1), (26, 26), (1, 26), (26, 1), (7, 3)])
def test_board_sizes_from_1_to_26_each_way_are_accepted(size):
    position = Clobber(size=size).initial_position()
    assert position.legal_move_texts() == reference_moves(position)


@pytest.mark.parametrize("size", [(1, 1), (1, 6), (6, 1), (2, 9), (11, 4)])
def test_random_games_on_odd_boards_keep_every_invariant(size):
    check_playout(Clobber(size=size), seed=sum(size))


@pytest.mark.parametrize("size", [(0, 5), (5, 0), (27, 5), (5, 27)])
def test_board_sizes_outside_1_to_26_are_rejected(size):
    with pytest.raises(SizeError):
        Clobber(size=size)


def test_moves_read_with_x_dash_or_nothing_in_any_case_and_print_with_x():
    position = setup(["b2"], ["b3"])
    move = position.legal_moves()[0]
    assert position.move_text(move) == "b2xb3"
    for text in ("b2xb3", "b2-b3", "b2b3", "B2XB3", " b2-B3 "):
        assert position.parse_move(text) == move


@pytest.mark.parametrize("text, reason", [
    ("c2xc3", "no black stone on c2"),
    ("b2xc3", "orthogonally adjacent"),
    ("b2xb4", "orthogonally adjacent"),
    ("b2xa2", "no white stone on a2 to take"),
    ("b2xc2", "no white stone on c2 to take"),
])
def test_illegal_moves_say_why(text, reason):
    # a2 holds a black stone (no taking one's own), c2 is empty.
    position = setup(["b2", "a2"], ["b3", "c3"])
    with pytest.raises(IllegalMoveError, match=reason):
        position.parse_move(text)


def test_a_move_across_the_board_edge_is_not_adjacent():
    position = setup(["e1"], ["a2", "e2"])
    with pytest.raises(IllegalMoveError, match="orthogonally adjacent"):
        position.parse_move("e1xa2")


@pytest.mark.parametrize("text", ["b2", "b2xb", "pass", "b2xf3", "b2+b3"])
def test_text_that_is_not_a_move_on_this_board_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        setup(["b2"], ["b3"]).parse_move(text)


def test_no_move_is_legal_once_the_game_is_over():
    position = setup(["b2"], ["b3"])
    position.play(position.parse_move("b2xb3"))
    with pytest.raises(IllegalMoveError, match="game is over"):
        position.parse_move("b3xb2")


def test_generator_matches_a_square_by_square_reference_on_random_positions():
    rng = random.Random(7)
    for _ in range(300):
        cols, rows = rng.randint(1, 9), rng.randint(1, 9)
        squares = cols * rows
        black = rng.getrandbits(squares)
        white = rng.getrandbits(squares) & ~black
        to_move = rng.choice((BLACK, WHITE))
        position = ClobberPosition(Clobber(size=(cols, rows)), black, white, to_move)
        expected = reference_moves(position)
        assert position.legal_move_texts() == expected
        assert (position.outcome is None) == bool(expected)


def test_stones_in_play_are_the_regions_where_both_colours_touch():
    # b2-b3-b4-c4 is one region with both colours; e5 and a1 stand alone; d1-e1 are both black.
    position = setup(["b2", "b4", "d1", "e1", "a1"], ["b3", "c4", "e5"])
    names = {"b2", "b3", "b4", "c4"}
    expected = sum(1 << parse_square(name, 5, 5) for name in names)
    assert in_play(*position.pieces, position.tables) == expected


def test_evaluation_prefers_the_side_that_wins_the_live_regions():
    # a1 a2 against a3 is won by black whoever starts (black to move takes a3 and white is
    # stuck; white to move takes a2 and black takes back); white's lone e5 is out of play.
    position = setup(["a1", "a2"], ["a3", "e5"])
    assert position.evaluate() > 0
    position.to_move = WHITE
    assert position.evaluate() < 0


def test_evaluation_of_a_star_favours_the_side_to_move():
    # b2 b3 b4 is black-white-black: whoever moves first wins (the value *).
    position = setup(["b2", "b4"], ["b3", "e5"])
    assert position.evaluate() > 0
    position.to_move = WHITE
    assert position.evaluate() > 0


def test_diagram_shows_stones_and_coordinates():
    diagram = setup(["a1"], ["b1"], size=(2, 2)).diagram()
    assert diagram.splitlines()[:4] == ["  a b", "2 . . 2", "1 X O 1", "  a b"]
    assert "black to move" in diagram


# --- what the generic tests read: tests/test_drawing.py, tests/report/test_play.py ---------


def drawn_pieces(position, colour: int) -> set[str]:
    """Where ``colour``'s pieces are on the board, read from the rules' state: what
    tests/test_drawing.py finds drawn."""
    return square_names(position.pieces[colour], position.game.cols)


# How tests/report/test_play.py plays a whole game by clicks: the command's settings (a small
# board, a move limit), a pattern of the moves it prefers, and patterns of the kinds of move the
# person must have made.
PLAY_BY_CLICKS = (["--boardsize", "4"], r"x", [r"x"])
