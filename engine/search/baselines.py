"""Fixed baseline players for strength measurements: a random mover and a one-ply greedy player.

They are deliberately simple and stable, so that results against them stay comparable as the
real search improves. (The third baseline, plain UCT, is :class:`~engine.search.mcts.Mcts`
with its solver switched off.)
"""

from __future__ import annotations

import random

from ..core import Position
from .budget import Budget


class RandomMover:
    """Plays a uniformly random legal move."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def choose(self, position: Position, budget: Budget):
        return self.random.choice(position.legal_moves())


class Greedy:
    """Looks one ply ahead: an immediate win if there is one, else the move after which the
    game's evaluation is best for it (random among equals; games without an evaluation then
    play randomly, but never miss a win in one nor walk into an immediate loss by its own move)."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def choose(self, position: Position, budget: Budget):
        me = position.to_move
        best_score, best_moves = None, []
        for move in position.legal_moves():
            position.play(move)
            outcome = position.outcome
            if outcome is None:
                score = -position.evaluate()
            elif outcome.winner is None:
                score = 0
            else:
                score = 10**9 if outcome.winner == me else -10**9
            position.undo()
            if best_score is None or score > best_score:
                best_score, best_moves = score, [move]
            elif score == best_score:
                best_moves.append(move)
        return self.random.choice(best_moves)
