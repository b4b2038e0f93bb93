"""Monte Carlo tree search guided by a game's evaluation, for games with many moves a turn.

Random playouts say little in games like laoCoon or Amazons, where a turn has hundreds of
moves and most of them are poor; the strong programs of such games keep the tree of MCTS but
score its leaves with an evaluation. Here a node is expanded on its first visit: its
:meth:`~engine.core.Position.search_moves` become children, and the evaluation of the position
a child's move leads to, squashed into a win expectation (a sigmoid of the score over the
game's ``evaluation_scale``), is that child's first visit. Where a node has many moves only
one of each :meth:`~engine.core.Position.move_group` is evaluated at once (laoCoon: one disc
placement per ring step); its siblings take its value, a little less, until they are first
visited, since most nodes are visited too rarely to use every child's evaluation. The
children are kept best first, and selection (UCB1) looks only at the best
``WIDTH + sqrt(visits)`` of them (progressive widening): a move the evaluation dislikes is
tried once the likelier ones have been found out. The expansion backs up the best child's
value (a one-ply minimax), so every evaluation the search pays for is used.

What an iteration backs up blends that static value with the result of a random playout to
the end of the game (``playout_weight`` of it, half by default): the evaluation judges the
rings' room, the playout whether they are walled in soon, which the evaluation sees late.
Against plain UCT on three times the clock (0.3 s a move against 0.9 s) the blend won 10
laoCoon games of 10, the evaluation alone 7 of 10.

A move that ends the game is a proof, and proofs travel up the tree as in
:mod:`engine.search.mcts` (the MCTS-solver). The subtree below the moves played since the
previous search is kept for the next one.
"""

from __future__ import annotations

import math
import random

from ..core import Position
from .analysis import Analysis
from .budget import Budget
from .mcts import PROVEN_LOSS, PROVEN_WIN

# Children that selection considers at once, before the visits widen the choice.
WIDTH = 2
# At most this many moves of a node get a child: black's second placement with a swap in
# laoCoon's random variants has some 60,000, too many to evaluate; a seeded sample stands
# for them, and such a node is never proven won (a move left out might refute the proof).
MAX_CHILDREN = 600
# Nodes with at most this many moves have every child evaluated at expansion; above it, one of
# each move group (laoCoon: a ring step, whatever the disc placement) is.
EAGER_CHILDREN = 30
# What a child not yet evaluated is reckoned to lose against the evaluated one of its group,
# which comes first in the game's search order.
ESTIMATE_MARGIN = 0.02
# Random playouts longer than this count as draws (laoCoon's rings may wander for ever).
PLAYOUT_LIMIT = 400
# Scaled scores beyond this are squashed as if at it (exp would overflow on a won position's).
SQUASH_LIMIT = 30.0


class _Node:
    __slots__ = ("move", "parent", "children", "visits", "value", "proven", "complete",
                 "estimated")

    def __init__(self, move, parent: _Node | None, value: float) -> None:
        self.move = move
        self.parent = parent
        self.children: list[_Node] | None = None  # None until expanded, best first
        self.visits = 1
        self.value = value  # the sum of results for the player who moved into the node
        self.proven = 0  # PROVEN_WIN / PROVEN_LOSS for that player, 0 when open
        self.complete = True  # whether every search move has a child
        self.estimated = False  # whether ``value`` is a sibling's, not yet its own evaluation


class EvalMcts:
    """MCTS with evaluated leaves; ``exploration`` is UCB1's constant c, ``widening`` the
    factor of the square root of a node's visits in the number of children it considers,
    ``playout_weight`` the share of a random playout's result in what an iteration backs up
    (0: the evaluation alone)."""

    def __init__(self, seed: int | None = None, exploration: float = 0.35,
                 widening: float = 1.0, playout_weight: float = 0.5) -> None:
        self.random = random.Random(seed)
        self.exploration = exploration
        self.widening = widening
        self.playout_weight = playout_weight
        self.playouts = 0
        self.root: _Node | None = None
        self._root_moves: list = []
        self._budget = Budget()

    def choose(self, position: Position, budget: Budget):
        """The most visited move after the budget is spent (a proven win at once)."""
        self._budget, self.playouts = budget, 0
        moves = position.legal_moves()
        if len(moves) == 1 and budget.playouts is None:
            self.root = None
            return moves[0]
        root = self.root = self._reused_root(position)
        working = position.copy()
        scale = position.evaluation_scale
        limit = budget.playouts
        while not root.proven or root.children is None:
            if limit is not None and self.playouts >= limit:
                break
            if limit is None and self.playouts and budget.past_soft():
                break
            self._iterate(working, root, scale)
            self.playouts += 1
        self._root_moves = position.moves
        return self._best(root).move

    def analysis(self, position: Position, move) -> Analysis:
        """What the last :meth:`choose` found, ``move`` (its choice) about to be played in
        ``position``: the chosen child's mean expectation for the mover (as -1 to 1), its
        proof, the iterations as nodes, and the most visited line below it."""
        seconds = round(self._budget.elapsed(), 3)
        chosen = None
        if self.root is not None and self.root.children:
            chosen = next((child for child in self.root.children if child.move == move), None)
        if chosen is None:  # a forced move
            return Analysis(seconds=seconds, nodes=self.playouts, pv=(position.move_text(move),))
        proven = {PROVEN_WIN: "win", PROVEN_LOSS: "loss"}.get(chosen.proven)
        score = round(2 * chosen.value / chosen.visits - 1, 3)
        if proven is not None:
            score = 1.0 if proven == "win" else -1.0
        working, texts, node = position.copy(), [], chosen
        while node is not None:
            texts.append(working.move_text(node.move))
            working.play(node.move)
            node = max(node.children, key=lambda child: child.visits) if node.children else None
        return Analysis(score, proven, None, None, self.playouts, seconds, tuple(texts))

    def _reused_root(self, position: Position) -> _Node:
        """The node of the last search's tree for ``position`` when it lies two plies (our move
        and the reply) below the last root, else a fresh root."""
        moves, old = position.moves, self.root
        if old is not None and len(moves) == len(self._root_moves) + 2 \
                and moves[:-2] == self._root_moves:
            node = old
            for move in moves[-2:]:
                node = next((child for child in node.children or () if child.move == move), None)
                if node is None:
                    break
            if node is not None and node.children is not None:
                node.parent = None
                return node
        return _Node(None, None, 0.5)

    def _best(self, root: _Node) -> _Node:
        for child in root.children:
            if child.proven == PROVEN_WIN:
                return child
        candidates = [child for child in root.children if child.proven != PROVEN_LOSS]
        return max(candidates or root.children, key=lambda child: (child.visits, child.value))

    def _iterate(self, position: Position, root: _Node, scale: float) -> None:
        node, depth = root, 0
        while node.children is not None and not node.proven:
            node = self._select(node)
            position.play(node.move)
            depth += 1
            if node.estimated:
                break
        if node.proven:
            result = 1.0 if node.proven == PROVEN_WIN else 0.0
        elif node.estimated:
            result = self._judge(position, node, position.to_move ^ 1, scale)
            node.value = result
            node.estimated = False
            node.parent.children.sort(key=_mean, reverse=True)
            if not node.proven:
                result = self._blend(position, result)
        elif position.outcome is not None:  # a draw (a repetition, say): nothing to expand
            result = 0.5
        else:
            result = self._expand(position, node, scale)
            if not node.proven:
                result = self._blend(position, result)
        for _ in range(depth):
            position.undo()
        while node is not None:
            node.visits += 1
            node.value += result
            parent = node.parent
            if parent is not None and node.proven:
                _prove(parent, node)
            result = 1.0 - result
            node = parent

    def _expand(self, position: Position, node: _Node, scale: float) -> float:
        """Give ``node`` its children; the result for the player who moved into it (one
        minus the best child's value).

        With few moves every child is evaluated; with many, one move of each
        :meth:`~engine.core.Position.move_group` (the first in the search order) is, and the
        others take its value less ``ESTIMATE_MARGIN`` until they are first visited.
        """
        moves = position.search_moves()
        complete = len(moves) <= MAX_CHILDREN
        if not complete:
            moves = self.random.sample(moves, MAX_CHILDREN)
        mover = position.to_move
        eager = len(moves) <= EAGER_CHILDREN
        children = []
        judged = {}
        for move in moves:
            group = move if eager else position.move_group(move)
            known = judged.get(group)
            if known is None:
                position.play(move)
                child = _Node(move, node, 0.0)
                judged[group] = self._judge(position, child, mover, scale)
                child.value = judged[group]
                position.undo()
            else:
                child = _Node(move, node, max(0.0, known - ESTIMATE_MARGIN))
                child.estimated = True
            children.append(child)
        children.sort(key=_mean, reverse=True)
        node.children, node.complete = children, complete
        best = children[0]
        if best.proven == PROVEN_WIN:
            node.proven = PROVEN_LOSS
        elif complete and all(child.proven == PROVEN_LOSS for child in children):
            node.proven = PROVEN_WIN
        return 1.0 - best.value

    def _blend(self, position: Position, static: float) -> float:
        """``static``, the value for the player who moved into ``position``, blended with a
        random playout's result for that player (cut at ``PLAYOUT_LIMIT`` plies: a draw)."""
        weight = self.playout_weight
        if not weight:
            return static
        mover = position.to_move ^ 1
        played = 0
        rng = self.random
        while position.outcome is None and played < PLAYOUT_LIMIT:
            position.play(position.playout_move(rng))
            played += 1
        outcome = position.outcome
        result = 0.5
        if outcome is not None and outcome.winner is not None:
            result = float(outcome.winner == mover)
        for _ in range(played):
            position.undo()
        return (1.0 - weight) * static + weight * result

    @staticmethod
    def _judge(position: Position, node: _Node, mover: int, scale: float) -> float:
        """The value for ``mover`` of ``position``, just reached by ``node``'s move: the
        evaluation's win expectation, or the result of a game that is over (then a proof)."""
        outcome = position.outcome
        if outcome is None:
            score = max(-SQUASH_LIMIT, min(SQUASH_LIMIT, position.evaluate() / scale))
            return 1.0 / (1.0 + math.exp(score))
        if outcome.winner is None:
            return 0.5
        won = outcome.winner == mover
        node.proven = PROVEN_WIN if won else PROVEN_LOSS
        return 1.0 if won else 0.0

    def _select(self, node: _Node) -> _Node:
        children = node.children
        width = min(len(children), WIDTH + int(self.widening * math.sqrt(node.visits)))
        log_visits = math.log(node.visits)
        c = self.exploration
        best, best_value = None, -math.inf
        for index in range(len(children)):
            child = children[index]
            proven = child.proven
            if proven == PROVEN_WIN:
                return child
            if proven == PROVEN_LOSS:
                continue
            if index >= width and best is not None:
                break
            visits = child.visits
            value = child.value / visits + c * math.sqrt(log_visits / visits)
            if value > best_value:
                best, best_value = child, value
        return best or children[0]


def _mean(node: _Node) -> float:
    return node.value / node.visits


def _prove(parent: _Node, child: _Node) -> None:
    """Carry a proven child result up to its parent (MCTS-solver)."""
    if child.proven == PROVEN_WIN:
        parent.proven = PROVEN_LOSS
    elif parent.complete and all(c.proven == PROVEN_LOSS for c in parent.children):
        parent.proven = PROVEN_WIN
