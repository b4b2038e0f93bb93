"""Late move reductions (``Position.late_move_reductions``): moves after the first N of a node
are searched one ply shallower first, and at full depth whenever that shallower search says
they beat the best move so far."""

import pytest

from engine import BLACK
from engine.games.laocoon import LaocoonPosition
from engine.search import AlphaBeta, Budget

from .answers import walked
from .graph_game import GraphGame, GraphPosition

# Black's one move "go" leads to N, where white has three quiet moves (a, b, c: worth 0) and,
# last, d: one ply short of the full depth it looks winning for white (D3), at full depth it
# loses (D4). Evaluations are black's view.
QUIET = {"w": "Q"}
GRAPH = {"R": {"go": "N"}, "N": {"a": "Q", "b": "Q", "c": "Q", "d": "D"}, "Q": QUIET,
         "D": {"x": "D2"}, "D2": {"y": "D3"}, "D3": {"z": "D4"}, "D4": QUIET}
EVALUATION = {"D3": -500, "D4": 500}


class ReducingPosition(GraphPosition):
    late_move_reductions = 3


def test_a_late_move_that_looks_best_when_reduced_is_searched_again_at_full_depth():
    for position_type in (GraphPosition, ReducingPosition):
        searcher = AlphaBeta(seed=1)
        position = GraphGame(GRAPH, "R", BLACK, evaluation=EVALUATION,
                             position_type=position_type).initial_position()
        assert searcher.choose(position, Budget(depth=5)) == "go"
        assert searcher.score == 0  # white keeps to a quiet move: d loses at full depth


@pytest.mark.parametrize("plies, seed", [(12, 1), (16, 4), (30, 3)])
def test_laocoon_searches_the_same_depth_with_fewer_nodes(plies, seed, monkeypatch):
    position = walked("laocoon", plies, seed)
    assert position.outcome is None and LaocoonPosition.late_move_reductions > 0
    reduced = AlphaBeta(seed=1)
    reduced.choose(position.copy(), Budget(depth=4))
    monkeypatch.setattr(LaocoonPosition, "late_move_reductions", 0)
    full = AlphaBeta(seed=1)
    full.choose(position.copy(), Budget(depth=4))
    assert reduced.nodes < full.nodes
