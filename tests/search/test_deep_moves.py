"""Alpha-beta's narrower move lists below the root (``deep_moves``): a loss is proven only
when the moves left out lose as well."""

from engine import WHITE
from engine.core import Game, Outcome, Position, Termination
from engine.search import AlphaBeta, Budget
from engine.search.alphabeta import MATE_BOUND

# White moves from R to A; there black may "resign" (black loses at once) or "hold" (a quiet
# position). Below the root black's narrowed moves are only "resign".
GRAPH = {"R": {"go": "A"}, "A": {"resign": "L", "hold": "H"}, "H": {"wait": "H"}}


class Narrowed(Game):
    name = "narrowed"
    title = "Narrowed"

    def initial_position(self):
        return NarrowedPosition(self, "R", WHITE)


class NarrowedPosition(Position):
    has_evaluation = True

    def __init__(self, game, node, to_move):
        super().__init__(game)
        self.node, self.to_move = node, to_move
        self._start()

    def _generate(self):
        return list(GRAPH[self.node])

    def deep_moves(self):
        return ["resign"] if self.node == "A" else self.search_moves()

    def _apply(self, move):
        previous, self.node = self.node, GRAPH[self.node][move]
        return previous

    def _revert(self, move, undo):
        self.node = undo

    def _judge(self, move):
        if self.node == "L":
            return Outcome(WHITE, Termination.NORMAL, "black resigned")
        return None

    def move_text(self, move):
        return move

    def parse_move(self, text):
        return text

    def key(self):
        return self.node, self.to_move

    def diagram(self):
        return self.node


def test_a_loss_among_the_narrowed_moves_is_checked_against_the_others():
    searcher = AlphaBeta(seed=1)
    position = Narrowed().initial_position()
    assert searcher.choose(position, Budget(depth=3)) == "go"
    assert searcher.score < MATE_BOUND  # "hold" saves black: no win for white is claimed
