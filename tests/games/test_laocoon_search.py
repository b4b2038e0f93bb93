"""laoCoon's search aids: the pruned, ordered moves alpha-beta searches and the pieces of the
evaluation, each checked against positions where the answer is known."""

import random

import pytest

from engine import WHITE
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
    rings' own score: the territory race would tell the two apart too.)"""
    holes = {name: "." for name in ("b2", "c2", "d2", "e2", "f2", "b3", "f3", "b4", "f4",
                                    "b5", "f5", "b6", "c6", "d6", "e6", "f6")}
    open_board = setup(rows_with(**QUIET), white=("d4", "h8"), black=("a1", "h1"), hand="o")
    walled = setup(rows_with(**QUIET, **holes), white=("d4", "h8"), black=("a1", "h1"),
                   hand="o")
    assert walled.steps(WHITE) == open_board.steps(WHITE)

    def rings_score(position):
        return position._ring_value(WHITE, position.available())[0]
    assert rings_score(walled) < rings_score(open_board)
    assert walled.evaluate() < open_board.evaluate()


@pytest.mark.parametrize("variant", ["standard", "random", "quick"])
def test_playout_moves_are_legal_and_reach_every_step(variant):
    rng = random.Random(8)
    for _ in range(20):
        position = game(variant).initial_position()
        while position.outcome is None and position.ply < 120:
            legal = set(position.legal_moves())
            drawn = {position.playout_move(rng) for _ in range(200)}
            assert drawn <= legal
            if not position.placing:
                assert {move & 0xFFF for move in drawn} == {move & 0xFFF for move in legal}
            position.play(position.playout_move(rng))
