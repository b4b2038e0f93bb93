"""Domineering rules (SPEC 2.5), each clause checked on positions built for it."""

import random

import pytest

from engine import BLACK, WHITE, IllegalMoveError, MoveSyntaxError, SizeError, find_game
from engine.cgt import board_cells
from engine.games.domineering import (DOMINEERING, SOLVED, DomineeringPosition, counts,
                                      disjoint_runs, shape_counts)
from engine.grid import parse_square, square_name
from engine.perft import perft

from ..playouts import check_playout

Domineering = find_game("domineering")


def setup(black=(), white=(), to_move=BLACK, size=(5, 5)):
    """A position on a ``size`` board with the named squares covered by each side."""
    game = Domineering(size=size)
    cols, rows = size
    bits = [sum(1 << parse_square(name, cols, rows) for name in names) for names in (black, white)]
    return DomineeringPosition(game, bits[0], bits[1], to_move)


def reference_counts(empty):
    """(capacity, safe moves) of Left (vertical) and Right (horizontal) on the ``empty``
    (x, y) cells, found cell by cell, independently of the bitboard counts: the most dominoes
    each could fit at once, and how many of those no domino of the other could ever spoil."""
    capacity, safe = [0, 0], [0, 0]
    for side, (dx, dy) in enumerate(((0, 1), (1, 0))):
        spoilable = {(x, y) for x, y in empty
                     if (x + dy, y + dx) in empty or (x - dy, y - dx) in empty}
        for cells, counted in ((empty, capacity), (empty - spoilable, safe)):
            for x, y in cells:   # runs along the side's axis: n cells hold n // 2 dominoes
                if (x - dx, y - dy) in cells:
                    continue
                length = 1
                while (x + length * dx, y + length * dy) in cells:
                    length += 1
                counted[side] += length // 2
    return tuple(capacity), tuple(safe)


def reference_moves(position):
    """The legal move texts found square by square, independently of the bitboard generator."""
    cols, rows = position.game.cols, position.game.rows
    covered = position.covered[0] | position.covered[1]
    df, dr = (0, 1) if position.to_move == BLACK else (1, 0)
    texts = []
    for rank in range(rows - dr):
        for file in range(cols - df):
            first, second = rank * cols + file, (rank + dr) * cols + file + df
            if not (covered >> first & 1 or covered >> second & 1):
                texts.append(f"{square_name(first, cols)}-{square_name(second, cols)}")
    return sorted(texts)


def test_start_is_an_empty_8x8_board_with_black_to_move_vertically():
    position = Domineering().initial_position()
    assert (position.game.cols, position.game.rows) == (8, 8)
    assert position.covered == [0, 0] and position.to_move == BLACK
    texts = position.legal_move_texts()
    assert len(texts) == 8 * 7 and "a1-a2" in texts and "h7-h8" in texts and "a8-a9" not in texts


def test_second_ply_counts_by_hand():
    # A vertical domino on an edge file spoils 2 of white's 56 places, elsewhere 4.
    assert perft(Domineering().initial_position(), 2) == 14 * 54 + 42 * 52


def test_black_places_vertically_and_white_horizontally_on_empty_squares():
    position = setup(to_move=BLACK, size=(2, 2))
    assert position.legal_move_texts() == ["a1-a2", "b1-b2"]
    position.play(position.parse_move("a1-a2"))
    assert position.to_move == WHITE
    assert position.legal_moves() == []  # no two empty squares side by side
    position = setup(to_move=WHITE, size=(2, 2))
    assert position.legal_move_texts() == ["a1-b1", "a2-b2"]


def test_a_domino_needs_both_squares_empty():
    position = setup(black=["b2", "b3"], white=["c4", "d4"], to_move=BLACK, size=(4, 4))
    texts = position.legal_move_texts()
    assert "b1-b2" not in texts and "b3-b4" not in texts and "c3-c4" not in texts
    assert "a1-a2" in texts and "c1-c2" in texts


@pytest.mark.parametrize("loser", [BLACK, WHITE])
def test_the_side_that_cannot_place_loses(loser):
    # A 3x3 board with the middle rank and file covered: no vertical or horizontal pair left.
    position = setup(black=["b1", "b2", "b3"], white=["a2", "c2"], to_move=loser, size=(3, 3))
    assert position.outcome is not None and position.outcome.winner == loser ^ 1
    assert position.legal_moves() == []
    orientation = "vertical" if loser == BLACK else "horizontal"
    assert f"cannot place a {orientation} domino" in position.outcome.reason


def test_a_side_loses_though_the_other_could_still_place():
    # One column of two: white (horizontal) to move has nothing, black would have a1-a2.
    position = setup(to_move=WHITE, size=(1, 2))
    assert position.outcome.winner == BLACK
    position = setup(to_move=BLACK, size=(2, 1))
    assert position.outcome.winner == WHITE


def test_one_by_one_board_black_cannot_place_and_loses_at_once():
    position = Domineering(size=(1, 1)).initial_position()
    assert position.outcome is not None and position.outcome.winner == WHITE


def test_last_placement_wins():
    position = Domineering(size=(1, 2)).initial_position()
    position.play(position.parse_move("a1"))
    assert position.outcome.winner == BLACK and position.outcome.result == "B+"


@pytest.mark.parametrize("size", [(1, 1), (26, 26), (1, 26), (26, 1), (3, 7)])
def test_board_sizes_from_1_to_26_each_way_are_accepted(size):
    position = Domineering(size=size).initial_position()
    assert position.legal_move_texts() == reference_moves(position)


@pytest.mark.parametrize("size", [(1, 1), (1, 6), (6, 1), (2, 9), (11, 4)])
def test_random_games_on_odd_boards_keep_every_invariant(size):
    check_playout(Domineering(size=size), seed=sum(size))


@pytest.mark.parametrize("size", [(0, 5), (5, 0), (27, 5), (5, 27)])
def test_board_sizes_outside_1_to_26_are_rejected(size):
    with pytest.raises(SizeError):
        Domineering(size=size)


@pytest.mark.parametrize("colour, canonical, texts", [
    (BLACK, "c3-c4", ["c3-c4", "c4-c3", "c3c4", "c4c3", "C3", "c3", "c3xc4", " C4-c3 "]),
    (WHITE, "c3-d3", ["c3-d3", "d3-c3", "c3d3", "d3c3", "c3", "D3-C3"]),
])
def test_moves_read_in_either_order_or_as_the_lower_or_left_square(colour, canonical, texts):
    position = setup(to_move=colour)
    move = position.parse_move(canonical)
    assert position.move_text(move) == canonical
    for text in texts:
        assert position.parse_move(text) == move, text


def test_ten_and_more_ranks_read_in_every_form():
    position = setup(to_move=BLACK, size=(3, 12))
    move = position.parse_move("b10-b11")
    for text in ("b10", "b11b10", "B10B11"):
        assert position.parse_move(text) == move


@pytest.mark.parametrize("colour, text, reason", [
    (BLACK, "c3-d3", "black places dominoes vertically"),
    (BLACK, "d3", None),  # the shorthand takes the mover's orientation: d3-d4 is fine
    (WHITE, "c3-c4", "white places dominoes horizontally"),
    (BLACK, "c3-c5", "two orthogonally adjacent squares"),
    (WHITE, "c3-d4", "two orthogonally adjacent squares"),
    (WHITE, "e1-a2", "two orthogonally adjacent squares"),
    (BLACK, "c5", "a vertical domino from c5 would leave the board"),
    (WHITE, "e2", "a horizontal domino from e2 would leave the board"),
    (BLACK, "b1-b2", "b2 is already covered"),
    (WHITE, "a2-b2", "b2 is already covered"),
    (WHITE, "b2-c2", "b2 and c2 are already covered"),
])
def test_illegal_placements_say_why(colour, text, reason):
    position = setup(black=["b2", "b3"], white=["c2", "d2"], to_move=colour)
    if reason is None:
        position.parse_move(text)
        return
    with pytest.raises(IllegalMoveError, match=reason):
        position.parse_move(text)


@pytest.mark.parametrize("text", ["c", "c3-", "c3+c4", "pass", "f1", "c6", "c3-c9"])
def test_text_that_is_not_a_placement_on_this_board_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        setup().parse_move(text)


def test_no_placement_is_legal_once_the_game_is_over():
    position = setup(to_move=WHITE, size=(1, 2))
    with pytest.raises(IllegalMoveError, match="game is over"):
        position.parse_move("a1-a2")


def test_generator_matches_a_square_by_square_reference_on_random_positions():
    rng = random.Random(7)
    for _ in range(300):
        cols, rows = rng.randint(1, 9), rng.randint(1, 9)
        covered = rng.getrandbits(cols * rows) & rng.getrandbits(cols * rows)
        position = DomineeringPosition(Domineering(size=(cols, rows)), covered, 0,
                                       rng.choice((BLACK, WHITE)))
        expected = reference_moves(position)
        assert position.legal_move_texts() == expected
        assert (position.outcome is None) == bool(expected)


def test_disjoint_runs_counts_non_overlapping_dominoes_per_run():
    # Horizontal slots on a 4-wide board: a1-c1 is a run of 3 (2 dominoes), a2 alone (1).
    slots = 0b0001_0111
    assert disjoint_runs(slots, 1) == 3
    # A run ending at file c followed by a run starting at file a of the next rank.
    assert disjoint_runs(0b0001_0100, 1) == 2
    # Vertical slots a1, a2, a3 on a 2-wide board: one run of 3.
    assert disjoint_runs(0b01_01_01, 2) == 2


def test_evaluation_counts_safe_places():
    # On a 2x4 board with b covered: a1-a4 is black's alone (two safe vertical dominoes).
    position = setup(black=["b1", "b2", "b3", "b4"], to_move=BLACK, size=(2, 4))
    assert position.evaluate() > 0
    position.to_move = WHITE
    assert position.evaluate() < 0


def test_safe_moves_that_outlast_every_opponent_move_win_outright():
    # Files a and c are black's alone (8 safe vertical dominoes); white can still fit two
    # dominoes on e8-h8. Too big for the exact solve inside the evaluation (20 open squares).
    covered = [f"{file}{rank}" for file in "bdefgh" for rank in range(1, 8)] + ["b8", "d8"]
    position = setup(black=covered, to_move=BLACK, size=(8, 8))
    assert position.evaluate() >= SOLVED
    position.to_move = WHITE
    assert position.evaluate() <= -SOLVED


def test_region_counts_agree_with_the_board_counts():
    rng = random.Random(15)
    for _ in range(300):
        size = rng.randint(1, 7), rng.randint(1, 7)
        cols, rows = size
        covered = rng.getrandbits(cols * rows) & rng.getrandbits(cols * rows)
        position = DomineeringPosition(Domineering(size=size), covered, 0, BLACK)
        empty = position._empty()
        cells = {(x, y) for x, y, _ in board_cells(empty, cols, (empty,))}
        _, capacity, safe = counts(empty, position.tables)
        assert reference_counts(cells) == (capacity, safe)
        if cells:  # the same counts for the region's shape, as the sum solver takes them
            shape = DOMINEERING.normal([(x, y, 0) for x, y in cells])
            assert shape_counts(shape) == reference_counts({(x, y) for x, y, _ in shape})


def test_diagram_shows_each_sides_dominoes_and_coordinates():
    position = setup(size=(2, 2), to_move=WHITE)
    position.play(position.parse_move("a2-b2"))
    diagram = position.diagram()
    assert diagram.splitlines()[:4] == ["  a b", "2 - - 2", "1 . . 1", "  a b"]
    assert "black to move" in diagram


# --- what the generic tests read: tests/test_drawing.py, tests/report/test_play.py ---------


def drawn_pieces(position, colour: int) -> set[str]:
    """Where ``colour``'s dominoes are, as ``lower-upper`` or ``left-right`` square names, read
    from the rules' state: what tests/test_drawing.py finds drawn (a domino is one piece)."""
    cols = position.game.cols
    step = cols if colour == BLACK else 1
    covered, names = position.covered[colour], set()
    while covered:
        low = covered & -covered
        first = low.bit_length() - 1
        covered ^= low | low << step
        names.add(f"{square_name(first, cols)}-{square_name(first + step, cols)}")
    return names


# How tests/report/test_play.py plays a whole game by clicks: the command's settings (a small
# board, a move limit), a pattern of the moves it prefers, and patterns of the kinds of move the
# person must have made.
PLAY_BY_CLICKS = (["--boardsize", "4"], r"-", [r"^([a-d])(\d)-\1\d$"])
