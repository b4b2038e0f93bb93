"""Monte Carlo tree search (UCT with random playouts) for any game, with an MCTS-solver.

Every node keeps the wins of the player who made the move leading to it, so selection always
maximises the child's own mean. Proven results travel up the tree (MCTS-solver): a child whose
result is a proven win for the mover is chosen at once; a node all of whose children are proven
losses for their movers is a proven win for the mover into it. Playouts longer than
``playout_limit`` plies count as draws, so that games that may run forever still finish.
"""

from __future__ import annotations

import math
import random

from ..core import Position
from .analysis import Analysis
from .budget import Budget

PROVEN_WIN, PROVEN_LOSS = 1, -1


class _Node:
    __slots__ = ("move", "parent", "children", "untried", "visits", "wins", "proven", "mover")

    def __init__(self, move, parent: _Node | None, mover: int, untried: list) -> None:
        self.move = move
        self.parent = parent
        self.mover = mover  # who played ``move`` to reach this node
        self.children: list[_Node] = []
        self.untried = untried
        self.visits = 0
        self.wins = 0.0
        self.proven = 0  # PROVEN_WIN / PROVEN_LOSS for ``mover``, 0 when open


class Mcts:
    """UCT searcher; ``exploration`` is the constant c of UCB1. ``solver=False`` gives plain
    UCT (the strength baseline), which ignores proofs."""

    def __init__(self, seed: int | None = None, exploration: float = 0.9,
                 playout_limit: int = 400, solver: bool = True) -> None:
        self.random = random.Random(seed)
        self.exploration = exploration
        self.playout_limit = playout_limit
        self.solver = solver
        self.playouts = 0
        self.root: _Node | None = None
        self._budget = Budget()

    def choose(self, position: Position, budget: Budget):
        """The most visited move after the budget is spent (a proven win at once): the fixed
        playouts, or the soft time limit; the hard limit cuts either."""
        moves = position.legal_moves()
        self.root, self._budget, self.playouts = None, budget, 0
        if len(moves) == 1 and budget.playouts is None:
            return moves[0]
        working = position.copy()
        root = self.root = _Node(None, None, position.to_move ^ 1, self._shuffled(moves))
        limit = budget.playouts
        while not root.proven:
            if limit is not None and self.playouts >= limit:
                break
            if (limit is None and budget.past_soft()) or budget.past_hard():
                break
            self._iterate(working, root)
            self.playouts += 1
        if not root.children:  # no time for a single iteration: any legal move
            return root.untried[-1]
        return self._best(root).move

    def analysis(self, position: Position, move) -> Analysis:
        """What the last :meth:`choose` found, ``move`` (its choice) about to be played in
        ``position``: the chosen child's mean result for the mover (a draw counts half), its
        proof, the playouts as nodes, and the most visited line below it as the principal
        variation."""
        seconds = round(self._budget.elapsed(), 3)
        chosen = next((child for child in self.root.children if child.move == move), None
                      ) if self.root is not None else None
        if chosen is None:  # a forced move, or no time for a playout
            return Analysis(seconds=seconds, nodes=self.playouts, pv=(position.move_text(move),))
        proven = {PROVEN_WIN: "win", PROVEN_LOSS: "loss"}.get(chosen.proven)
        score = round(2 * chosen.wins / chosen.visits - 1, 3) if chosen.visits else 0.0
        if proven is not None:
            score = 1.0 if proven == "win" else -1.0
        working, texts, node = position.copy(), [], chosen
        while node is not None:
            texts.append(working.move_text(node.move))
            working.play(node.move)
            visited = [child for child in node.children if child.visits]
            node = max(visited, key=lambda child: child.visits) if visited else None
        return Analysis(score, proven, None, None, self.playouts, seconds, tuple(texts))

    def _shuffled(self, moves: list) -> list:
        self.random.shuffle(moves)
        return moves

    def _best(self, root: _Node) -> _Node:
        for child in root.children:
            if child.proven == PROVEN_WIN:
                return child
        candidates = [child for child in root.children if child.proven != PROVEN_LOSS]
        return max(candidates or root.children, key=lambda child: (child.visits, child.wins))

    def _iterate(self, position: Position, root: _Node) -> None:
        node, depth = root, 0
        # Selection: descend through fully expanded nodes.
        while not node.untried and node.children:
            node = self._select(node)
            position.play(node.move)
            depth += 1
        # Expansion: one new child, if the game goes on here.
        if node.untried and position.outcome is None:
            move = node.untried.pop()
            mover = position.to_move
            position.play(move)
            depth += 1
            child = _Node(move, node, mover, self._shuffled(position.legal_moves()))
            node.children.append(child)
            node = child
            if position.outcome is not None and self.solver:
                winner = position.outcome.winner
                child.proven = PROVEN_WIN if winner == mover else (
                    PROVEN_LOSS if winner is not None else 0)
        # Simulation.
        winner = self._playout(position)
        for _ in range(depth):
            position.undo()
        # Backpropagation, with proofs.
        while node is not None:
            node.visits += 1
            if winner is None:
                node.wins += 0.5
            elif winner == node.mover:
                node.wins += 1.0
            parent = node.parent
            if parent is not None and node.proven and self.solver:
                _prove(parent, node)
            node = parent

    def _select(self, node: _Node) -> _Node:
        log_visits = math.log(node.visits)
        c = self.exploration
        best, best_value = None, -math.inf
        for child in node.children:
            if child.proven == PROVEN_WIN:
                return child
            if child.proven == PROVEN_LOSS:
                value = -1.0
            else:
                value = child.wins / child.visits + c * math.sqrt(log_visits / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best

    def _playout(self, position: Position) -> int | None:
        """Play random moves to the end; the winner (``None`` for a draw or a cut playout)."""
        played = 0
        choice = self.random.choice
        while position.outcome is None and played < self.playout_limit:
            position.play(choice(position.legal_moves()))
            played += 1
        winner = position.outcome.winner if position.outcome is not None else None
        for _ in range(played):
            position.undo()
        return winner


def _prove(parent: _Node, child: _Node) -> None:
    """Carry a proven child result up to its parent (MCTS-solver)."""
    if child.proven == PROVEN_WIN:
        # The player to move at ``parent`` wins by playing into ``child``.
        parent.proven = PROVEN_LOSS
    elif not parent.untried and all(c.proven == PROVEN_LOSS for c in parent.children):
        parent.proven = PROVEN_WIN
