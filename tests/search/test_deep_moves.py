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


def test_a_loss_among_the_narrowed_moves_is_checked_against_the_others():
    searcher = AlphaBeta(seed=1)
    position = GraphGame(GRAPH, "R", WHITE, ENDS,
                         position_type=NarrowedPosition).initial_position()
    assert searcher.choose(position, Budget(depth=3)) == "go"
    assert searcher.score < MATE_BOUND  # "hold" saves black: no win for white is claimed


class NarrowerPosition(GraphPosition):
    """search_moves narrow too: "hold" (at A) and "flee" (at S) are left out."""

    def search_moves(self):
        return [move for move in self.legal_moves() if move not in ("hold", "flee")]

    def deep_moves(self):
        return self.search_moves()


def test_a_loss_is_checked_against_every_legal_move_not_only_search_moves():
    # laoCoon's search_moves keep one far disc placement for all: a reply they left out
    # escaped a win the search had claimed (a game against uct-10x, lost after it).
    searcher = AlphaBeta(seed=1)
    position = GraphGame(GRAPH, "R", WHITE, ENDS,
                         position_type=NarrowerPosition).initial_position()
    assert searcher.choose(position, Budget(depth=3)) == "go"
    assert searcher.score < MATE_BOUND


def test_at_the_root_the_moves_search_moves_left_out_are_tried_before_a_loss():
    # White at S may "go" (black then wins at once) or "flee", which search_moves leave out.
    graph = {"S": {"go": "B", "flee": "H"}, "B": {"win": "W"}, "H": {"wait": "H"}}
    ends = {"W": Outcome(1 - WHITE, Termination.NORMAL, "white cannot move")}
    searcher = AlphaBeta(seed=1)
    position = GraphGame(graph, "S", WHITE, ends,
                         position_type=NarrowerPosition).initial_position()
    assert searcher.choose(position, Budget(depth=3)) == "flee"
    assert searcher.score > -MATE_BOUND
