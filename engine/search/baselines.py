"""Fixed baseline players for strength measurements: a random mover and a one-ply greedy player.

They are deliberately simple and stable, so that results against them stay comparable as the
real search improves. (The third baseline, plain UCT, is :class:`~engine.search.mcts.Mcts`
with its solver switched off.)
"""

from __future__ import annotations

import random

from ..core import OutOfBudget, Position
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
    play randomly, but never miss a win in one nor walk into an immediate loss by its own move).
    The budget's hard limit, if it strikes first, leaves the choice to the moves weighed by
    then (any move if none was)."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def choose(self, position: Position, budget: Budget):
        me = position.to_move
        moves = position.legal_moves()
        best_score, best_moves = None, []
        with position.bounded_by(budget.past_hard):
            for move in moves:
                if budget.past_hard():
                    break
                try:
                    score = _score_after(position, move, me)
                except OutOfBudget:
                    break
                if best_score is None or score > best_score:
                    best_score, best_moves = score, [move]
                elif score == best_score:
                    best_moves.append(move)
        return self.random.choice(best_moves or moves)


def _score_after(position: Position, move, me: int) -> int:
    """How good ``position`` is for ``me`` after ``move``: the game's evaluation, or a won,
    lost (plus or minus a billion) or drawn (0) game."""
    position.play(move)
    try:
        outcome = position.outcome
        if outcome is None:
            return -position.evaluate()
        if outcome.winner is None:
            return 0
        return 10**9 if outcome.winner == me else -10**9
    finally:
        position.undo()
