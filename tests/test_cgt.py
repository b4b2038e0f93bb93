"""Regions, shapes and the exact sum solver of engine.cgt, against values worked by hand and
against plain exhaustive search of the real rules."""

import random

import pytest

from engine import BLACK, WHITE, find_game
from engine.cgt import FUZZY, NEGATIVE, POSITIVE, ZERO, SumSolver, components
from engine.games.clobber import CLOBBER, ClobberPosition, board_tables, neighbours, open_regions
from engine.games.domineering import DOMINEERING, DomineeringPosition, counts, outright_winner

Clobber = find_game("clobber")
Domineering = find_game("domineering")


def clobber_shape(rows):
    """A Clobber region drawn as text rows, top first: ``x`` black, ``o`` white."""
    return CLOBBER.normal([(x, -y, "xo".index(char)) for y, row in enumerate(rows)
                           for x, char in enumerate(row) if char in "xo"])


def domineering_shape(rows):
    """A Domineering region of empty squares drawn as text rows: ``.`` empty."""
    return DOMINEERING.normal([(x, -y, 0) for y, row in enumerate(rows)
                               for x, char in enumerate(row) if char == "."])


# Values worked by hand: a black-white pair is * (whoever moves takes and leaves the other
# without a move); x o x is * too; x x o is positive (black to move takes o and white is
# stuck; white to move takes the middle x and black takes back); the 2x2 chequer is fuzzy
# (each side's first capture leaves an x x o for itself).
@pytest.mark.parametrize("rows, outcome", [
    (["xo"], FUZZY), (["xox"], FUZZY), (["xxo"], POSITIVE), (["oox"], NEGATIVE),
    (["x", "x", "o"], POSITIVE), (["xo", "ox"], FUZZY), (["xx"], ZERO), (["x.o"], ZERO)])
def test_small_clobber_shapes(rows, outcome):
    shapes = [clobber_shape(rows)]
    solver = SumSolver(CLOBBER)
    assert (solver.wins(shapes, BLACK), solver.wins(shapes, WHITE)) == outcome


def test_star_plus_star_is_zero_in_clobber():
    solver = SumSolver(CLOBBER)
    pair = clobber_shape(["xo"])
    assert not solver.wins([pair, pair], BLACK) and not solver.wins([pair, pair], WHITE)
    assert solver.simplify([pair, pair]) == ()  # * is its own negative: the pair cancels


# Domineering by hand: a vertical 1x2 is 1 (black's one move), a horizontal one -1; a vertical
# 1x3 still holds one domino; the 2x2 square is ±1 and so are both 2x3 rectangles (the first
# player takes the middle or leaves the opponent one move fewer); the L-tromino is *.
@pytest.mark.parametrize("rows, outcome", [
    ([".", "."], POSITIVE), ([".."], NEGATIVE), ([".", ".", "."], POSITIVE),
    (["..", ".."], FUZZY), (["...", "..."], FUZZY), (["..", "..", ".."], FUZZY),
    ([".", ".."], FUZZY), (["..", " ."], FUZZY), (["."], ZERO),
    (["....", "....", "....", "...."], FUZZY)])
def test_small_domineering_shapes(rows, outcome):
    shapes = [domineering_shape(rows)]
    solver = SumSolver(DOMINEERING)
    assert (solver.wins(shapes, BLACK), solver.wins(shapes, WHITE)) == outcome


def test_a_region_and_its_negative_cancel_in_domineering():
    solver = SumSolver(DOMINEERING)
    square, vertical, horizontal = (domineering_shape(rows) for rows in
                                    (["..", ".."], [".", "."], [".."]))
    assert solver.simplify([vertical, horizontal]) == ()
    assert solver.simplify([square, square]) == ()  # ±1 is its own negative
    assert not solver.wins([vertical, horizontal], BLACK)
    # 1 + 1 - 1: black wins moving first or second.
    assert solver.wins([vertical, vertical, horizontal], BLACK)
    assert not solver.wins([vertical, vertical, horizontal], WHITE)


def test_a_capped_solve_gives_up_and_resumes_with_the_same_answer():
    rectangle = domineering_shape(["......", "......", "......", "......"])
    capped = SumSolver(DOMINEERING, region_limit=6)
    assert capped.wins_within([rectangle], BLACK, 64) is None
    while (answer := capped.wins_within([rectangle], BLACK, 500)) is None:
        pass  # each call continues from what the earlier ones proved
    assert answer == SumSolver(DOMINEERING, region_limit=6).wins([rectangle], BLACK)


def test_shapes_are_the_same_wherever_and_however_turned():
    # An x at a corner with an o on one side and an x on the other, four ways round.
    assert clobber_shape(["xo", "x."]) == clobber_shape([".x", "ox"]) == clobber_shape(
        ["xx", ".o"]) == clobber_shape(["ox", ".x"])
    assert clobber_shape(["xo", "x."]) != clobber_shape([".x", "xo"])  # the o at the corner
    assert clobber_shape(["xxo"]) != clobber_shape(["oox"])  # colours are kept
    # Domineering keeps orientation: a vertical strip is not a horizontal one.
    assert domineering_shape([".", "."]) != domineering_shape([".."])
    assert domineering_shape([".", ".."]) == domineering_shape(["..", "."]) == (
        domineering_shape(["..", " ."]))


def test_components_split_a_board_into_connected_parts():
    tables = board_tables(5, 5)
    # a1 b1 | d1 | a3 a4 b4, on a 5x5 board (bit = rank * 5 + file).
    cells = sum(1 << bit for bit in (0, 1, 3, 10, 15, 16))
    parts = components(cells, lambda stones: neighbours(stones, tables))
    assert sorted(parts) == sorted([1 | 2, 8, 1 << 10 | 1 << 15 | 1 << 16])
    assert components(cells, lambda stones: neighbours(stones, tables), seeds=8) == [8]


def plain_wins(position, memo):
    """Whether the side to move wins, by exhaustive negamax over the real rules."""
    if position.outcome is not None:
        return position.outcome.winner == position.to_move
    key = position.key()
    if key not in memo:
        memo[key] = False
        for move in position.legal_moves():
            position.play(move)
            lost = not plain_wins(position, memo)
            position.undo()
            if lost:
                memo[key] = True
                break
    return memo[key]


def random_clobber(rng, cols, rows):
    black = white = 0
    for square in range(cols * rows):
        draw = rng.random()
        if draw < 0.38:
            black |= 1 << square
        elif draw < 0.76:
            white |= 1 << square
    return ClobberPosition(Clobber(size=(cols, rows)), black, white, rng.choice((BLACK, WHITE)))


def random_domineering(rng, cols, rows):
    black = sum(1 << square for square in range(cols * rows) if rng.random() < 0.3)
    return DomineeringPosition(Domineering(size=(cols, rows)), black, 0,
                               rng.choice((BLACK, WHITE)))


@pytest.mark.parametrize("make, size", [(random_clobber, (4, 4)), (random_clobber, (5, 3)),
                                        (random_domineering, (4, 4)),
                                        (random_domineering, (5, 4))])
def test_regions_and_sums_agree_with_plain_search(make, size):
    """Perft-style: on random small positions, decomposing into regions and solving the sum
    (``Position.solve``) gives the same winner as exhaustive search of the whole board."""
    rng = random.Random(14)
    memo: dict = {}
    for _ in range(30):
        position = make(rng, *size)
        assert position.solve() == plain_wins(position, memo), position.diagram()


def test_zero_regions_are_left_out_of_the_search():
    # b1 c1 against a1 is x x o reversed (o x x, won by black whoever starts); e4 e5 against
    # nothing is dead; a4 b4 is x o: a star. Two regions stay open, the dead stones none.
    position = ClobberPosition(Clobber(size=(5, 5)), 0b110 | 1 << 15, 1 | 1 << 16)
    regions = open_regions(*position.pieces, position.tables)
    assert sorted(outcome for _, outcome in regions) == sorted([POSITIVE, FUZZY])
    # A position of two stars is 0: its regions stay, but it is lost for the side to move.
    stars = ClobberPosition(Clobber(size=(5, 5)), 1 | 1 << 15, 2 | 1 << 16)
    assert stars.solve() is False
    assert stars.evaluate() < 0


def test_search_moves_leave_out_regions_worth_zero():
    # On 5x5: a1 b1 is x o, a star (hot); a3 b3 c3 d3 is x x o o, worth 0 (checked against
    # plain search on a board of its own). Only the star's moves are worth searching.
    def bits(*names):
        return sum(1 << (int(name[1]) - 1) * 5 + "abcde".index(name[0]) for name in names)
    zero = ClobberPosition(Clobber(size=(4, 1)), 0b0011, 0b1100)
    assert plain_wins(zero, {}) is False
    zero.to_move = WHITE
    assert plain_wins(zero, {}) is False
    position = ClobberPosition(Clobber(size=(5, 5)), bits("a1", "a3", "b3"), bits("b1", "c3", "d3"))
    assert [position.move_text(move) for move in position.search_moves()] == ["a1xb1"]
    assert len(position.legal_moves()) == 2
    # Domineering 4x4 with only a 2x2 square (±1) and d1 d2 d3 c3 left open, the latter won by
    # black whoever starts: the square is hot and comes first, d2-d3 after it; d1-d2 is black's
    # own safe move (white can never cover d1 or d2), left out while black has others.
    def squares(*names):
        return sum(1 << (int(name[1]) - 1) * 4 + "abcd".index(name[0]) for name in names)
    covered = squares(*(f"{file}{rank}" for file in "abcd" for rank in "1234"))
    covered &= ~squares("a1", "b1", "a2", "b2", "d1", "d2", "d3", "c3")
    board = DomineeringPosition(Domineering(size=(4, 4)), covered, 0)
    texts = [board.move_text(move) for move in board.search_moves()]
    assert sorted(texts[:2]) == ["a1-a2", "b1-b2"] and texts[2:] == ["d2-d3"]
    # With only d1 d2 d3 open every black move is safe, and every one is searched.
    board = DomineeringPosition(Domineering(size=(4, 4)), covered | squares("a1", "b1", "a2",
                                                                             "b2", "c3"), 0)
    assert sorted(board.move_text(move) for move in board.search_moves()) == ["d1-d2", "d2-d3"]


def small_domineering_positions(rng: random.Random, tries: int):
    """Random Domineering positions of boards up to 6x6 (about a quarter of the squares covered,
    either side to move), those still in play with at most 16 empty squares, out of ``tries``."""
    for _ in range(tries):
        cols, rows = rng.randint(2, 6), rng.randint(2, 6)
        covered = rng.getrandbits(cols * rows) & rng.getrandbits(cols * rows)
        position = DomineeringPosition(Domineering(size=(cols, rows)), covered, 0,
                                       rng.choice((BLACK, WHITE)))
        if position.outcome is None and position._empty().bit_count() <= 16:
            yield position


def test_outright_wins_of_the_domineering_counts_agree_with_plain_search():
    """The safe-moves bound the solver prunes with never contradicts exhaustive search."""
    memos: dict = {}  # per board size: position keys do not say the size
    decided = 0
    for position in small_domineering_positions(random.Random(14), 2000):
        _, capacity, safe = counts(position._empty(), position.tables)
        winner = outright_winner(capacity, safe, position.to_move)
        if winner is not None:
            decided += 1
            memo = memos.setdefault(position.game.size, {})
            assert plain_wins(position, memo) == (winner == position.to_move)
    assert decided >= 50


def test_leaving_out_own_safe_moves_keeps_a_winning_move():
    """Domineering's search moves leave out the mover's own safe moves while it has others:
    on every won position where that drops a move, a winning move is still searched."""
    memos: dict = {}  # per board size: position keys do not say the size
    checked = 0
    for position in small_domineering_positions(random.Random(25), 3000):
        kept = position.search_moves()
        if len(kept) == len(position.legal_moves()):
            continue
        memo = memos.setdefault(position.game.size, {})
        if not plain_wins(position, memo):
            continue
        checked += 1
        assert any(not _wins_after(position, move, memo) for move in kept), position.diagram()
    assert checked >= 150


def _wins_after(position, move, memo) -> bool:
    """Whether the opponent wins after ``move`` (by :func:`plain_wins`)."""
    position.play(move)
    try:
        return plain_wins(position, memo)
    finally:
        position.undo()
