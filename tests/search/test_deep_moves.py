"""Alpha-beta's narrower move lists below the root (``deep_moves``): a loss is proven only
when the moves left out lose as well."""

from engine import WHITE
from engine.core import Outcome, Termination
from engine.search import AlphaBeta, Budget
from engine.search.alphabeta import MATE_BOUND

from .graph_game import GraphGame, GraphPosition

# White moves from R to A; there black may "resign" (black loses at once) or "hold" (a quiet
# position). Below the root black's narrowed moves are only "resign".
GRAPH = {"R": {"go": "A"}, "A": {"resign": "L", "hold": "H"}, "H": {"wait": "H"}}
ENDS = {"L": Outcome(WHITE, Termination.NORMAL, "black resigned")}


class NarrowedPosition(GraphPosition):
    def deep_moves(self):
        return ["resign"] if self.node == "A" else self.search_moves()


class Narrowed(GraphGame):
    def position(self, node, to_move):
        return NarrowedPosition(self, node, to_move)


def test_a_loss_among_the_narrowed_moves_is_checked_against_the_others():
    searcher = AlphaBeta(seed=1)
    position = Narrowed(GRAPH, "R", WHITE, ENDS).initial_position()
    assert searcher.choose(position, Budget(depth=3)) == "go"
    assert searcher.score < MATE_BOUND  # "hold" saves black: no win for white is claimed
