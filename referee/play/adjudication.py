"""Ending a decided game early: the adjudication rules of ``docs/adjudication.md``.

The :class:`Adjudicator` is asked in the position after each ply ``k`` (``k`` counting every
move from the start, the opening's included; ``k = 0`` is the start), before the side to move
is asked for its move; an :class:`~engine.Outcome` ends the game there, after ``k`` plies.
The rules, in the order they are asked:

* **exact**: the referee's own solvers prove the result of the position (the game's exact
  solver where it has one, such as Clobber's and Domineering's combinatorial-game solvers, else
  :func:`~.exact.exhaustive`, a search of every line to the end); mode ``decisive`` leaves a
  proven draw to be played on;
* **resign**: with ``N = resign_plies`` and ``T = resign_score``, a side's last ``N`` moves
  all carried a score ``<= -T`` and (unless one-sided) its opponent's last ``N`` moves all a
  score ``>= T``; that side loses;
* **draw**: with ``N = draw_plies``, ``B = draw_score`` and ``P = draw_after``, the last ``N``
  plies are all numbered above ``P`` and each carried a score within ``[-B, B]``.

The exact rule costs no wall time: :meth:`Adjudicator.judge` gives it only a glance (what the
solver knows without searching); a position in reach but not proven at a glance is then
searched in a process of its own (:class:`Proof`, :mod:`.solver`: one for the game, which keeps
what it proved from ply to ply) while the engine to move thinks, up to the time budget, and the
search stops when the answer comes (unless ``exact_wait``: then the referee waits for the rest
of the budget); after searches that proved nothing, the next ones are spaced out
(:data:`MOST_SKIPPED`), and an engine that answered its last move at once gets no exhaustive
search (:func:`~.exact.least_search_time`). A proof found meanwhile ends the game after ply
``k`` all the same: the answer is not played. A position out of the solver's reach (the game's
solver says so at once: too many open stones or squares) is not searched at all. The game's
thread never waits for the search (it only looks whether its verdict has come), and
:meth:`Adjudicator.close` stops it with the game.

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

from typing import Sequence

from engine import COLOUR_NAMES, OutOfBudget, Outcome, Position, Termination

from ..plan.adjudication import Adjudication
from .exact import attempt, least_search_time
from .solver import POOL, SolverProcess

# After a search that proved nothing before the engine answered, the next ones are spaced out:
# the n-th fruitless search in a row skips the searches of the next 2**(n-1) - 1 plies, at most
# this many (the glance still looks at every ply), so that a game the solver cannot reach costs
# it little while an engine thinks.
MOST_SKIPPED = 7
# With ``exact_wait``, how long beyond the budget the referee waits for a verdict: the solver's
# process may take up a position late (it starts with the first search, and it runs only on
# idle time).
WAIT_GRACE = 10.0


class Adjudicator:
    """Applies the rules of ``settings`` to one game; see the module docstring. The exact
    rule's searches go to a process of their own (:attr:`solver`, from the referee's pool),
    taken with the first search and given back by :meth:`close`."""

    def __init__(self, settings: Adjudication, move_limit: int | None = None) -> None:
        self.settings = settings
        self.move_limit = move_limit
        self.solver: SolverProcess | None = None
        self._pending: tuple[Position, int] | None = None
        self._fruitless = 0  # searches in a row that proved nothing
        self._next_search = 0  # the first ply whose position is searched again

    def judge(self, position: Position, ply: int,
              scores: Sequence[float | None]) -> Outcome | None:
        """The verdict in ``position`` (the game not over) after ``ply`` plies, ``scores``
        being each ply's mover's score (``None`` where unknown); ``None``: play on. The exact
        rule here is a glance; a position that needs more is left to :meth:`start_proof`."""
        return (self._exact(position, ply) or self._resign(position, ply, scores)
                or self._draw(ply, scores))

    def start_proof(self, last_answer: float | None = None) -> Proof | None:
        """The search of the position last judged, handed to the solver's process (call it
        as the engine to move is asked for its move; ``last_answer`` is the seconds it took
        over its previous move, ``None`` before its first); ``None`` when there is nothing to
        search (no exact rule, the position proven at a glance or out of the solver's reach,
        searches spaced out, an engine that answers too quickly for the solver:
        :func:`~.exact.least_search_time`; unless the referee waits for its solver anyway)."""
        if self._pending is None:
            return None
        position, ply = self._pending
        self._pending = None
        if ply < self._next_search:
            return None
        if (last_answer is not None and last_answer < least_search_time(position)
                and not self.settings.exact_wait):
            return None
        if self.solver is None:
            self.solver = POOL.borrow()
        return Proof(self, position, ply)

    def close(self) -> None:
        """Stop the solver's searches and give its process back to the referee's pool (at the
        end of the game)."""
        if self.solver is not None:
            POOL.give_back(self.solver)
            self.solver = None

    def fruitless(self, ply: int) -> None:
        """The search of the position after ``ply`` plies proved nothing before the answer:
        space out the next searches (see :data:`MOST_SKIPPED`), unless the referee waits for
        its solver anyway (``exact_wait``)."""
        if self.settings.exact_wait:
            return
        self._fruitless += 1
        self._next_search = ply + min(2 ** (self._fruitless - 1), MOST_SKIPPED + 1)

    def _exact(self, position: Position, ply: int) -> Outcome | None:
        self._pending = None
        if not self.settings.exact:
            return None
        working = position.copy()
        try:
            value = attempt(working, lambda: True, self.plies_left(ply))
        except OutOfBudget:  # in reach, but not proven at a glance
            self._pending = (working, ply)
            return None
        return None if value is None else self.verdict(position, ply, value)

    def plies_left(self, ply: int) -> int | None:
        """The plies left after ``ply`` before the move limit draws the game (``None``: no
        limit)."""
        return None if self.move_limit is None else self.move_limit - ply

    def verdict(self, position: Position, ply: int, value: int) -> Outcome | None:
        """The exact rule's verdict when the solver proved ``value`` (1, 0, -1 for the side to
        move in ``position``, after ``ply`` plies): ``None`` for a draw in mode ``decisive``."""
        if value == 0 and self.settings.exact == "decisive":
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


class Proof:
    """The exact rule's search of one position (after ``ply`` plies), in the solver's process
    from its start until :meth:`finish`: up to the budget of ``exact_time`` seconds, less when
    :meth:`finish` comes first (without ``exact_wait``)."""

    def __init__(self, adjudicator: Adjudicator, position: Position, ply: int) -> None:
        self.adjudicator = adjudicator
        self.position = position
        self.ply = ply
        self.solver = adjudicator.solver
        self.number = self.solver.search(position, adjudicator.plies_left(ply),
                                         adjudicator.settings.exact_time)
        self.value: int | None = None

    def wait(self, timeout: float) -> int | None:
        """The proven value, waiting for it up to ``timeout`` seconds (0: only if it has come);
        ``None`` when none came."""
        if self.value is None and self.number is not None:
            self.value = self.solver.verdict(self.number, timeout)
        return self.value

    def finish(self, answered: bool) -> Outcome | None:
        """End the search (once the budget is spent, with ``exact_wait`` and an answer to
        wait after) and give the verdict: ``None`` when nothing was proven, or when the engine
        gave no answer (``answered`` false: the game ends otherwise)."""
        settings = self.adjudicator.settings
        waits = answered and settings.exact_wait
        self.wait(settings.exact_time + WAIT_GRACE if waits else 0.0)
        if self.number is not None and self.value is None:
            self.solver.stop(self.number)
        if answered and self.value is None:
            self.adjudicator.fruitless(self.ply)
        if not answered or self.value is None:
            return None
        return self.adjudicator.verdict(self.position, self.ply, self.value)


def _every_other(scores: Sequence[float | None], last: int, count: int) -> list[float] | None:
    """The scores of plies ``last``, ``last - 2``, ... (``count`` of them, 1-based plies);
    ``None`` when one of them is missing or before the start."""
    plies = range(last, last - 2 * count, -2)
    if last - 2 * (count - 1) < 1 or last > len(scores):
        return None
    found = [scores[number - 1] for number in plies]
    return None if any(score is None for score in found) else found
