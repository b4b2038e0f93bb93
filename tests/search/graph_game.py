"""A game given as a small graph, for tests that need a search to meet one exact situation.

Nodes are names; ``graph`` maps a node to its moves (by name) and the node each leads to; the
side to move alternates; ``ends`` maps a node to the outcome of reaching it and ``evaluation``
to its score for black to move (white sees the negative, every other node scores 0);
``position_type`` is the class of its positions, a :class:`GraphPosition` with a hook changed.
"""

from __future__ import annotations

from engine import BLACK
from engine.core import Game, Outcome, Position


class GraphGame(Game):
    name = "graph"
    title = "Graph"

    def __init__(self, graph: dict, start: str, first: int,
                 ends: dict[str, Outcome] | None = None,
                 evaluation: dict[str, int] | None = None,
                 position_type: type[GraphPosition] | None = None) -> None:
        super().__init__()
        self.graph, self.start, self.first = graph, start, first
        self.ends, self.evaluation = ends or {}, evaluation or {}
        self.position_type = position_type or GraphPosition

    def initial_position(self):
        return self.position(self.start, self.first)

    def position(self, node: str, to_move: int):
        return self.position_type(self, node, to_move)


class GraphPosition(Position):
    has_evaluation = True

    def __init__(self, game: GraphGame, node: str, to_move: int) -> None:
        super().__init__(game)
        self.node, self.to_move = node, to_move
        self._start()

    def _generate(self):
        return list(self.game.graph[self.node])

    def _apply(self, move):
        previous, self.node = self.node, self.game.graph[self.node][move]
        return previous

    def _revert(self, move, undo):
        self.node = undo

    def _judge(self, move):
        return self.game.ends.get(self.node)

    def evaluate(self):
        value = self.game.evaluation.get(self.node, 0)
        return value if self.to_move == BLACK else -value

    def move_text(self, move):
        return move

    def parse_move(self, text):
        return text

    def key(self):
        return self.node, self.to_move

    def diagram(self):
        return self.node
