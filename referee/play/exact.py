"""The referee's exact solving: the result of a position with perfect play, proven by the
game's own solver where it has one (Clobber's and Domineering's combinatorial-game solvers),
else by :func:`exhaustive`, a search of every line to the end of the game.

The exact adjudication rule (:mod:`.adjudication`) glances at positions with it in the game's
thread and searches them with it in the solver's process (:mod:`.solver`).
"""

from __future__ import annotations

import time
from typing import Callable

from engine import OutOfBudget, Position

# The deepest pass of the exhaustive solver; a line still open there is not a proof.
EXHAUSTIVE_DEPTH = 200
# A position whose game cannot end within this many plies (``Position.fewest_plies_to_end``) is
# out of the exhaustive solver's reach: proofs that long are not found in the time it has.
EXHAUSTIVE_REACH = 5
# An engine that answers within this many seconds gives an exhaustive search no time to prove
# what the glance did not (waking the solver's process and taking up the position cost some
# milliseconds, and the first passes of its iterative deepening prove only what the glance
# sees), while the search, on a machine whose cores share caches or a physical core, slows
# the engine: measured in docs/adjudication.md.
QUICK_ANSWER = 0.02
# The exhaustive solver looks at the clock at the first position it searches (one not decided
# at once, nor in its table) and every this many after: well under a millisecond apart, so that
# a search stops as soon as it is told to.
CLOCK_EVERY = 8
# The exhaustive solver's results kept through a game, at most (then it starts afresh).
TABLE_LIMIT = 500_000


def prove(position: Position, seconds: float, plies_left: int | None = None) -> int | None:
    """The result of ``position`` with perfect play for the side to move, 1 (wins), 0 (draw)
    or -1 (loses), proven within ``seconds``; ``None`` when it was not (:func:`attempt`).
    ``plies_left`` is the number of plies before the move limit draws the game (``None``: no
    limit)."""
    deadline = time.monotonic() + seconds
    try:
        return attempt(position.copy(), lambda: time.monotonic() >= deadline, plies_left)
    except OutOfBudget:
        return None


def attempt(position: Position, stop: Callable[[], bool], plies_left: int | None = None,
            table: dict | None = None) -> int | None:
    """The result of ``position`` (1, 0, -1 for the side to move; the position is searched in
    place), or ``None`` when it is out of reach; raises :class:`OutOfBudget` when ``stop()``
    said so first. The game's own solver where it has one (it says at once when a position is
    too big for it: an exhaustive search would not do better there), else :func:`exhaustive`
    with ``table`` (results proven earlier, added to)."""
    if not has_solver(position):
        return exhaustive(position, stop, plies_left, table)
    solved = position.solve(stop)
    return None if solved is None else 1 if solved else -1


def least_search_time(position: Position) -> float:
    """The least time an engine must think for a search of ``position`` to be worth starting
    while it does: none for a game's own solver (which answers from the tables it keeps through
    the run in a millisecond or two), :data:`QUICK_ANSWER` for the exhaustive search."""
    return 0.0 if has_solver(position) else QUICK_ANSWER


def has_solver(position: Position) -> bool:
    """Whether ``position``'s game has an exact solver of its own (``Position.solve``)."""
    return type(position).solve is not Position.solve


def exhaustive(position: Position, stop: Callable[[], bool], plies_left: int | None = None,
               table: dict | None = None) -> int | None:
    """The exact result of ``position`` (1, 0, -1 for the side to move) by searching every
    line to the end of the game, or ``None`` when it is out of reach; raises
    :class:`OutOfBudget` when ``stop()`` said so first.

    The search deepens a ply at a time (to at most :data:`EXHAUSTIVE_DEPTH`), so that a short
    win is proven before long lines are followed. A line that reaches the move limit is a
    draw; a position the game calls settled (``Position.settled``) is taken as proven; a line
    that cannot end (``Position.fewest_plies_to_end``) within the depth of the pass is not
    followed, and a position whose game cannot end within :data:`EXHAUSTIVE_REACH` plies is
    out of reach at once. Results are shared between transpositions (in ``table`` when given:
    results proven earlier, with the plies left to the move limit, added to), except in games
    whose rules look at the history (repetition), where a position's result depends on how it
    was reached. For small endgames of any game; games with their own solver do better."""
    search = _Exhaustive(stop, plies_left, position, table)
    for horizon in range(1, search.limit + 1):
        search.horizon = horizon
        search.cut = False
        found = search.value(position, 0)
        if found is not None or not search.cut:
            return found
        if horizon >= EXHAUSTIVE_REACH and not search.nodes:
            return None  # even this pass cut the position itself: out of reach
    return None


class _Exhaustive:
    """One exhaustive search: its clock, its move limit, the depth of its current pass, its
    table of proven results (``table`` when given, shared with other searches of the same game;
    none in games whose rules look at the history)."""

    def __init__(self, stop: Callable[[], bool], plies_left: int | None, position: Position,
                 table: dict | None = None) -> None:
        self.stop = stop
        self.draw_at = plies_left
        self.limit = EXHAUSTIVE_DEPTH if plies_left is None else min(plies_left,
                                                                     EXHAUSTIVE_DEPTH + 1)
        self.horizon = self.limit  # this pass's deepest line (iterative deepening)
        self.cut = False  # whether a line of this pass was cut at the horizon
        self.table: dict | None = None
        if not position.tracks_positions:
            self.table = {} if table is None else table
        self.nodes = 0

    def value(self, position: Position, depth: int) -> int | None:
        outcome = position.outcome
        if outcome is not None:
            return 0 if outcome.winner is None else 1 if outcome.winner == position.to_move else -1
        if self.draw_at is not None and depth >= self.draw_at:
            return 0
        settled = position.settled()
        if settled is not None and (self.draw_at is None or depth + settled[1] <= self.draw_at):
            return settled[0]
        key = None
        if self.table is not None:
            # With a move limit the plies left are part of what decides the result.
            key = (position.key(), None if self.draw_at is None else self.draw_at - depth)
            if key in self.table:
                return self.table[key]
        soonest = position.fewest_plies_to_end()
        if self.draw_at is not None and depth + soonest > self.draw_at:
            return 0  # the move limit comes before the game can end
        if depth + soonest > self.horizon:
            self.cut = True
            return None
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 1 and self.stop():
            raise OutOfBudget
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
