"""The search at the edges of its budget: a legal move with no time at all, and a draw
contempt that keeps its sign when one searcher plays both sides."""

import time

import pytest

from engine import BLACK, WHITE, find_game, game_names
from engine.core import Outcome, Termination
from engine.search import AlphaBeta, Budget, Mcts, TimeKeeper
from engine.search.alphabeta import CONTEMPT

from .graph_game import GraphGame


def spent_budget():
    """Soft and hard limits both already past when the search starts."""
    return Budget(soft=0.01, hard=0.02, start=time.perf_counter() - 1.0)


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("searcher", [AlphaBeta, Mcts, lambda seed: Mcts(seed, solver=False)])
def test_a_legal_move_comes_back_when_the_time_is_already_up(name, searcher):
    position = find_game(name)().initial_position()
    for _ in range(3):
        move = searcher(1).choose(position, spent_budget())
        assert move in position.legal_moves()
        position.play(move)


# A game built to show the contempt's sign: nodes are names, the side to move alternates.
# At P white may draw at once or play on into X, an evaluation of -10 for white. Searching
# for black, a draw is CONTEMPT (> 10) good for white there, so black avoids P and plays m2
# into Y (-15 for black) rather than m1 into P (-CONTEMPT for black). Searching for white
# first (from Z, through W to P), white prefers playing on at P (-10) to a draw (-CONTEMPT);
# a table kept from that search must not make black think P is worth +10 to it.
GRAPH = {"Z": {"z": "W"}, "W": {"w": "P"}, "R": {"m1": "P", "m2": "Y"},
         "P": {"draw": "D", "on": "X"}, "X": {"x": "X"}, "Y": {"y": "Y"}}
EVALUATION = {"X": 10, "Y": -15}  # for black to move; white sees the negative
ENDS = {"D": Outcome(None, Termination.NORMAL, "drawn")}


def test_draw_contempt_keeps_its_sign_when_the_searcher_changes_side():
    assert CONTEMPT > 15  # the example's premise: a draw is worse than -15 for black
    game = GraphGame(GRAPH, "R", BLACK, ENDS, EVALUATION)
    fresh = AlphaBeta(seed=1).choose(game.position("R", BLACK), Budget(depth=3))
    assert fresh == "m2"
    searcher = AlphaBeta(seed=1)
    searcher.choose(game.position("Z", WHITE), Budget(depth=4))
    assert searcher.choose(game.position("R", BLACK), Budget(depth=3)) == "m2"


def test_the_clock_settles_above_zero_under_an_increment():
    """A move costs its soft limit plus a fifth more plus 50 ms of overhead (a loaded
    machine); over 300 moves at 3 s + 0.2 s a move the clock must not run down to the margin,
    as it did when the whole increment was spent at any clock."""
    keeper = TimeKeeper()
    keeper.set_controls(3.0, 0.0, 0)
    keeper.increment = 0.2
    left = 3.0
    lowest = left
    for _ in range(300):
        keeper.left[BLACK] = (left, 0)
        soft, hard = keeper.allowance(BLACK, 10)
        left = left - min(1.2 * soft + 0.05, hard + 0.05) + 0.2
        lowest = min(lowest, left)
    assert lowest > 0.5


def test_a_fast_clock_keeps_its_reserve_through_delays():
    """2 s + 0.05 s a move, each move taking its soft limit plus a fifth plus 20 ms (at most
    its hard limit plus 20 ms), and every tenth move a 150 ms scheduling delay on top: the
    clock never falls below a full increment (it came down to 4 ms in a two-games-at-once
    self-play run before the reserve)."""
    keeper = TimeKeeper()
    keeper.set_controls(2.0, 0.0, 0)
    keeper.increment = 0.05
    left = lowest = 2.0
    for move in range(400):
        keeper.left[BLACK] = (left, 0)
        soft, hard = keeper.allowance(BLACK, 10)
        delay = 0.15 if move % 10 == 9 else 0.0
        left -= min(1.2 * soft + 0.02, hard + 0.02) + delay
        lowest = min(lowest, left)
        left += 0.05
    assert lowest > 0.05
