"""laoCoon's search aids: the pruned, ordered moves alpha-beta searches and the pieces of the
evaluation, each checked against positions where the answer is known."""

import random

import pytest

from engine import WHITE
from engine.search import AlphaBeta, Budget
from engine.games import laocoon
from engine.games.laocoon import FIELD, NEIGHBOURS, SIZE

from .test_laocoon import QUIET, game, rows_with, setup

DROP_SHIFT = 12


def drop_of(move):
    return (move >> DROP_SHIFT) - 1


def middle_games(seed, count=6, plies=(8, 40)):
    """Positions of random games after 8 to 40 plies, with a disc in hand."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = game().initial_position()
        for _ in range(rng.randint(*plies)):
            if position.outcome is not None:
                break
            position.play(rng.choice(position.legal_moves()))
        if position.outcome is None and not position.placing and position.hand >= 0:
            found.append(position)
    return found


def step_squares(position):
    """Every (side, ring space, target) step both sides could make in ``position``."""
    return {(side, origin, target) for side in (0, 1) for origin, target in position.steps(side)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_moves_are_distinct_legal_moves_covering_every_step(seed):
    for position in middle_games(seed):
        legal = position.legal_moves()
        searched = position.search_moves()
        assert len(set(searched)) == len(searched)
        assert set(searched) <= set(legal)
        assert {move & 0xFFF for move in searched} == {move & 0xFFF for move in legal}
        assert len(searched) < len(legal)  # something was left out


@pytest.mark.parametrize("seed", [4, 5])
def test_every_placement_that_opens_or_closes_a_step_is_searched(seed):
    """A placement is left out only when it changes no ring's steps: compared with the same
    step and the disc put far from every ring, the steps of both sides differ at most on the
    space the disc covers only when the placement is kept."""
    checked = 0
    for position in middle_games(seed, count=4):
        searched = set(position.search_moves())
        by_step = {}
        for move in position.legal_moves():
            by_step.setdefault(move & 0xFFF, []).append(move)
        for step, moves in by_step.items():
            near = rings_after(position, step)
            far = [move for move in moves if drop_of(move) >= 0 and not near >> drop_of(move) & 1]
            if not far:
                continue
            position.play(far[0])
            reference = step_squares(position)
            position.undo()
            for move in moves:
                position.play(move)
                changed = {(side, origin, target) for side, origin, target
                           in step_squares(position) ^ reference if target == drop_of(move)}
                position.undo()
                if changed:
                    checked += 1
                    assert move in searched, position.move_text(move)
    assert checked


def rings_after(position, step):
    """The spaces next to a ring once the ring of ``step`` has moved."""
    rings = (position.rings[0] | position.rings[1]) ^ 1 << (step >> 6) ^ 1 << (step & FIELD)
    near = 0
    for square in range(SIZE * SIZE):
        if rings >> square & 1:
            near |= NEIGHBOURS[square]
    return near


@pytest.mark.parametrize("seed", [6, 7])
def test_one_placement_far_from_the_rings_stands_for_all_of_them(seed):
    for position in middle_games(seed):
        for step in {move & 0xFFF for move in position.legal_moves()}:
            near = rings_after(position, step)
            far = [move for move in position.search_moves() if move & 0xFFF == step
                   and drop_of(move) >= 0 and not near >> drop_of(move) & 1]
            assert len(far) <= 1


def test_the_evaluation_prefers_steps_of_two_colours_to_steps_of_one():
    """White's steps all onto yellow can be closed by one black ring moving onto yellow; with
    an orange neighbour among them (free too: black stands on purple) white is safer. Nothing
    else changes: the same steps, room and territory."""
    one = setup(rows_with(**QUIET), white=("d4", "d5"), black=("a1", "h1"), hand="o")
    two = setup(rows_with(**QUIET, c3="o"), white=("d4", "d5"), black=("a1", "h1"), hand="o")
    assert len(one.steps(WHITE)) == len(two.steps(WHITE))
    assert two.evaluate() > one.evaluate()


def test_a_ring_with_room_two_steps_away_is_worth_more():
    """A ring whose neighbours are open but whose next ring of spaces is all holes is walled in
    after a step or two; its legal steps and their colours are the same as in the open. (The
    rings' own score with the late game's weights: the fitted middle game's weigh those spaces
    at about nothing, and the territory race would tell the two apart too.)"""
    holes = {name: "." for name in ("b2", "c2", "d2", "e2", "f2", "b3", "f3", "b4", "f4",
                                    "b5", "f5", "b6", "c6", "d6", "e6", "f6")}
    open_board = setup(rows_with(**QUIET), white=("d4", "h8"), black=("a1", "h1"), hand="o")
    walled = setup(rows_with(**QUIET, **holes), white=("d4", "h8"), black=("a1", "h1"),
                   hand="o")
    assert walled.steps(WHITE) == open_board.steps(WHITE)

    def rings_score(position):
        terms, _ = position._ring_terms(WHITE, position.available())
        return sum(weight * term for weight, term in zip(laocoon.LATE_WEIGHTS, terms))
    assert rings_score(walled) < rings_score(open_board)
    assert walled.evaluate() < open_board.evaluate()


@pytest.mark.parametrize("seed", [8, 9])
def test_deep_moves_narrow_the_search_moves_but_keep_every_step(seed):
    """Below the root the search keeps every step and the placements that open or close a
    step, with one placement standing for the rest of each step's."""
    for position in middle_games(seed):
        searched = position.search_moves()
        deep = position.deep_moves()
        assert len(set(deep)) == len(deep)
        assert set(deep) <= set(searched)
        assert {move & 0xFFF for move in deep} == {move & 0xFFF for move in searched}


def winning_moves(position):
    """The legal moves after which the opponent cannot step, by playing every one."""
    found = set()
    for move in position.legal_moves():
        position.play(move)
        if position.outcome is not None:
            found.add(move)
        position.undo()
    return found


def test_noisy_moves_win_at_once_and_are_found_whenever_a_move_wins():
    rng = random.Random(10)
    noisy_total = winning_total = 0
    for _ in range(40):
        position = game().initial_position()
        while position.outcome is None:
            if not position.placing:
                noisy = position.noisy_moves()
                winning = winning_moves(position)
                assert set(noisy) <= winning
                noisy_total += bool(noisy)
                winning_total += bool(winning)
            position.play(rng.choice(position.legal_moves()))
    assert noisy_total == winning_total > 0


def test_noisy_moves_ban_the_colour_of_the_last_step():
    """Black's one step left goes onto orange (a7; every other space next to its rings is a
    hole): white wins by stepping a ring onto orange (c3), its disc going anywhere but a7."""
    holes = {name: "." for name in ("b7", "b8", "g1", "g2", "h2")}
    position = setup(rows_with(a8="p", h1="p", a7="o", c3="o", **holes),
                     white=("d4", "e4"), black=("a8", "h1"), hand="p")
    noisy = position.noisy_moves()
    assert noisy and set(noisy) <= winning_moves(position)
    assert all(position.move_text(move).startswith("d4-c3+") for move in noisy)


# A game the engine lost to plain UCT: after white's a1-a2+f8 black wins with g8-f8+a3, its
# orange disc on a3 next to white's ring closing nothing yet; white has two steps left.
CORNERED_GAME = (
    "a7 b3 d3 e5 a7-b6 e5-f4+c3 b6-c6+d6 f4-g3+b5 c6-d7+c7 g3-f3+e1 d7-e7+g4 b3-c4+d2 "
    "d3-c3+d4 c4-d4+a8 c3-d2+g2 f3-g4+f5 e7-f6+e4 g4-h5+h4 d2-c2+c3 d4-c3+c5 f6-f5+c1 "
    "h5-h6+h2 f5-e6+g5 c3-d4+g7 e6-f7+d1 d4-e4+a1 f7-g6+d5 e4-d5+h1 g6-g5+f5 d5-d6+g8 "
    "c2-b1+d5 h6-g7+h8 g5-h4+b2 g7-h7+e2 b1-a1+g5 h7-h8+d2 h4-h3+g4 h8-g8+b7 a1-a2+f8").split()


def test_deep_moves_keep_the_placements_next_to_a_cornered_opponent():
    position = game().position_after(CORNERED_GAME)
    assert len(position.steps(WHITE)) <= 3
    assert position.parse_move("g8-f8+a3") in position.deep_moves()
    position.undo()  # white to move: a four-ply search now sees the trap below its root
    move = AlphaBeta(seed=1).choose(position, Budget(depth=4))
    assert position.move_text(move) != "a1-a2+f8"
