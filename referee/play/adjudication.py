"""Ending a decided game early: the adjudication rules of ``docs/adjudication.md``.

The :class:`Adjudicator` is asked in the position after each ply ``k`` (``k`` counting every
move from the start, the opening's included; ``k = 0`` is the start), before the side to move
is asked for its move; an :class:`~engine.Outcome` ends the game there, after ``k`` plies.
The rules, in the order they are asked:

* **exact**: the referee's own solvers prove the result of the position within the time
  budget (the game's exact solver where it has one, such as Clobber's and Domineering's
  combinatorial-game solvers, else :func:`exhaustive`, a search of every line to the end); mode
  ``decisive`` leaves a proven draw to be played on;
* **resign**: with ``N = resign_plies`` and ``T = resign_score``, a side's last ``N`` moves
  all carried a score ``<= -T`` and (unless one-sided) its opponent's last ``N`` moves all a
  score ``>= T``; that side loses;
* **draw**: with ``N = draw_plies``, ``B = draw_score`` and ``P = draw_after``, the last ``N``
  plies are all numbered above ``P`` and each carried a score within ``[-B, B]``.

A move without a score (no analysis, a malformed one, an opening move) breaks every run of
scores. Scores are the movers' own (``score`` of ``genmove_analyze``; ``proven win`` without a
score counts 1, ``proven loss`` -1, ``proven draw`` 0).

>>> from engine import find_game
>>> judge = Adjudicator(Adjudication(draw_plies=2, draw_after=1))
>>> position = find_game("breakthrough")().initial_position()
>>> judge.judge(position, 2, [0.0, 0.01]) is None  # ply 1 is not after ply P = 1
True
>>> judge.judge(position, 3, [0.0, 0.01, -0.05]).reason
'draw adjudicated: both scores within 0.05 for 2 plies (plies 2-3)'
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

from engine import COLOUR_NAMES, OutOfBudget, Outcome, Position, Termination

from ..plan.adjudication import Adjudication

# The deepest line the exhaustive solver follows; a line still open there is not a proof.
EXHAUSTIVE_DEPTH = 200
# The exhaustive solver looks at the clock every this many positions.
CLOCK_EVERY = 256


class Adjudicator:
    """Applies the rules of ``settings`` to one game; see the module docstring."""

    def __init__(self, settings: Adjudication, move_limit: int | None = None) -> None:
        self.settings = settings
        self.move_limit = move_limit

    def judge(self, position: Position, ply: int,
              scores: Sequence[float | None]) -> Outcome | None:
        """The verdict in ``position`` (the game not over) after ``ply`` plies, ``scores``
        being each ply's mover's score (``None`` where unknown); ``None``: play on."""
        return (self._exact(position, ply) or self._resign(position, ply, scores)
                or self._draw(ply, scores))

    def _exact(self, position: Position, ply: int) -> Outcome | None:
        if not self.settings.exact:
            return None
        plies_left = None if self.move_limit is None else self.move_limit - ply
        value = prove(position, self.settings.exact_time, plies_left)
        if value is None or (value == 0 and self.settings.exact == "decisive"):
            return None
        mover = position.to_move
        winner = None if value == 0 else mover if value > 0 else 1 - mover
        said = "a draw" if winner is None else f"a win for {COLOUR_NAMES[winner]}"
        return Outcome(winner, Termination.ADJUDICATED_EXACT,
                       f"the referee's solver proved {said} after ply {ply}")

    def _resign(self, position: Position, ply: int,
                scores: Sequence[float | None]) -> Outcome | None:
        count, threshold = self.settings.resign_plies, self.settings.resign_score
        if not count:
            return None
        # Ply k was made by the side not to move now; plies alternate, so a side's last
        # ``count`` moves are every other ply going back from its last one.
        for loser in (1 - position.to_move, position.to_move):
            last = ply if loser != position.to_move else ply - 1
            own = _every_other(scores, last, count)
            other = _every_other(scores, last - 1 if loser != position.to_move else ply, count)
            if own is None or any(score > -threshold for score in own):
                continue
            if self.settings.resign_sides == "both" and (
                    other is None or any(score < threshold for score in other)):
                continue
            sides = "its" if self.settings.resign_sides == "one" else "both engines'"
            return Outcome(1 - loser, Termination.ADJUDICATED_RESIGN,
                           f"{COLOUR_NAMES[loser]} lost by adjudication: {sides} scores beyond "
                           f"{threshold:g} for {count} moves each, to ply {ply}")
        return None

    def _draw(self, ply: int, scores: Sequence[float | None]) -> Outcome | None:
        count, band = self.settings.draw_plies, self.settings.draw_score
        if not count or ply - count < self.settings.draw_after:
            return None
        recent = scores[ply - count:ply]
        if len(recent) < count or any(score is None or abs(score) > band for score in recent):
            return None
        return Outcome(None, Termination.ADJUDICATED_DRAW,
                       f"draw adjudicated: both scores within {band:g} for {count} plies "
                       f"(plies {ply - count + 1}-{ply})")


def _every_other(scores: Sequence[float | None], last: int, count: int) -> list[float] | None:
    """The scores of plies ``last``, ``last - 2``, ... (``count`` of them, 1-based plies);
    ``None`` when one of them is missing or before the start."""
    plies = range(last, last - 2 * count, -2)
    if last - 2 * (count - 1) < 1 or last > len(scores):
        return None
    found = [scores[number - 1] for number in plies]
    return None if any(score is None for score in found) else found


def prove(position: Position, seconds: float, plies_left: int | None = None) -> int | None:
    """The result of ``position`` with perfect play for the side to move, 1 (wins), 0 (draw)
    or -1 (loses), proven within ``seconds``; ``None`` when it was not. The game's own solver
    where it has one (a position too big for it is not proven: an exhaustive search would not do
    better there), else :func:`exhaustive`. ``plies_left`` is the number of plies before the move
    limit draws the game (``None``: no limit)."""
    deadline = time.monotonic() + seconds

    def stop() -> bool:
        return time.monotonic() >= deadline
    working = position.copy()
    if not has_solver(working):
        return exhaustive(working, stop, plies_left)
    try:
        solved = working.solve(stop)
    except OutOfBudget:
        return None
    return None if solved is None else 1 if solved else -1


def has_solver(position: Position) -> bool:
    """Whether ``position``'s game has an exact solver of its own (``Position.solve``)."""
    return type(position).solve is not Position.solve


def exhaustive(position: Position, stop: Callable[[], bool],
               plies_left: int | None = None) -> int | None:
    """The exact result of ``position`` (1, 0, -1 for the side to move) by searching every
    line to the end of the game (at most :data:`EXHAUSTIVE_DEPTH` plies; a line that reaches
    the move limit is a draw), or ``None`` when ``stop()`` said so first or a line was too
    deep. Results are shared between transpositions, except in games whose rules look at the
    history (repetition), where a position's result depends on how it was reached. For small
    endgames of any game; games with their own solver do better."""
    search = _Exhaustive(stop, plies_left, not position.tracks_positions)
    try:
        return search.value(position, 0)
    except OutOfBudget:
        return None


class _Exhaustive:
    """One exhaustive search: its clock, its move limit, its table of proven results."""

    def __init__(self, stop: Callable[[], bool], plies_left: int | None, memo: bool) -> None:
        self.stop = stop
        self.draw_at = plies_left
        self.limit = EXHAUSTIVE_DEPTH if plies_left is None else min(plies_left,
                                                                     EXHAUSTIVE_DEPTH + 1)
        self.table: dict | None = {} if memo else None
        self.nodes = 0

    def value(self, position: Position, depth: int) -> int | None:
        self.nodes += 1
        if not self.nodes % CLOCK_EVERY and self.stop():
            raise OutOfBudget
        outcome = position.outcome
        if outcome is not None:
            return 0 if outcome.winner is None else 1 if outcome.winner == position.to_move else -1
        if self.draw_at is not None and depth >= self.draw_at:
            return 0
        if depth >= self.limit:
            return None
        key = None
        if self.table is not None:
            # With a move limit the plies left are part of what decides the result.
            key = (position.key(), None if self.draw_at is None else self.draw_at - depth)
            if key in self.table:
                return self.table[key]
        found = self._children(position, depth)
        if key is not None and found is not None:
            self.table[key] = found
        return found

    def _children(self, position: Position, depth: int) -> int | None:
        best, open_line = -1, False
        for move in position.legal_moves():
            position.play(move)
            try:
                value = self.value(position, depth + 1)
            finally:
                position.undo()
            if value is None:
                open_line = True
            elif -value > best:
                best = -value
                if best == 1:
                    return 1
        return None if open_line else best
