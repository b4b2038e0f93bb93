"""How much a search may spend on one move, and the clock arithmetic that decides it.

A :class:`Budget` is either a fixed effort (depth, playouts: reproducible with a seed) or a
time allowance with a soft target (stop starting new work) and a hard limit (stop now).
:class:`TimeKeeper` turns GTP's ``time_settings``/``time_left`` into such budgets. A fixed
effort under a clock gets the clock's hard limit as well, and no soft target: what the effort
costs is not planned, but no move may take longer than the clock can spare
(:meth:`TimeKeeper.limit`), so that a fixed effort never loses on time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

# Seconds kept back from every allowance for process start-up, pipes and the referee's own
# bookkeeping: the clock runs from the moment the referee writes ``genmove``. On a loaded
# machine (two games at once on two cores, and more) a process may wait that long for a core.
LATENCY_MARGIN = 0.1
# At most this share of the time left goes into one move's hard limit, so that a move that
# overruns (a core taken by another process) still leaves time for the next.
CLOCK_SHARE = 0.8
# The increment is spent in full only while this many increments are left on the clock; below
# that a shrinking share of it, so that the clock settles well above zero instead of being
# drained to the margin (a long Kolem game at 3 s + 0.2 s lost on time at move 100 that way).
BANKED_INCREMENTS = 10
# Seconds of main time that no allowance plans to spend (at most this share of the main time):
# the clock settles at the reserve plus what the increments bank, so that a scheduling delay
# beyond every margin above still leaves time. Without it, 424 self-play games at 2 s + 0.05 s,
# two at once on two cores, came down to 4 ms on one clock; with 0.2 s, on a machine loaded
# three times over, one game in 60 was lost on time.
RESERVE = 0.5
RESERVE_SHARE = 0.25


@dataclass
class Budget:
    """What a search may spend on one move.

    ``depth``/``playouts`` cap the effort; ``soft`` and ``hard`` are seconds from ``start``.
    A search stops at whichever limit it reaches first; with neither a cap nor a time it would
    never stop, so :class:`TimeKeeper` always sets a time when no cap is given. Everything a
    search does for its move (the game's own exact solving included) stops at ``hard``.
    """

    depth: int | None = None
    playouts: int | None = None
    soft: float | None = None
    hard: float | None = None
    start: float = field(default_factory=time.perf_counter)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def past_soft(self) -> bool:
        return self.soft is not None and self.elapsed() >= self.soft

    def past_hard(self) -> bool:
        return self.hard is not None and self.elapsed() >= self.hard


@dataclass
class TimeKeeper:
    """The engine's view of the clocks, fed by ``time_settings`` and ``time_left``.

    ``move_time`` is what a move gets when no clock is set (or the clock has no limit).
    GTP's ``time_settings`` cannot announce a Fischer increment, so unless KataGo's extension
    did (``kata-time_settings fischer``), one is inferred: when a ``time_left`` shows more time
    than the previous one minus what the engine spent in between, the difference is the
    increment.
    """

    move_time: float = 1.0
    main: float | None = None
    byo_yomi: float = 0.0
    stones: int = 0
    increment: float = 0.0
    increment_announced: bool = False
    left: dict[int, tuple[float, int]] = field(default_factory=dict)
    _spent: dict[int, float] = field(default_factory=dict)

    def set_controls(self, main: float, byo_yomi: float, stones: int,
                     increment: float | None = None) -> None:
        """GTP ``time_settings``: sudden death when ``byo_yomi`` is 0, no limit when
        ``byo_yomi`` > 0 and ``stones`` is 0, Canadian byo-yomi otherwise. An ``increment``
        announced with it (``kata-time_settings fischer``) is kept, not inferred."""
        self.main, self.byo_yomi, self.stones = main, byo_yomi, stones
        self.increment = increment or 0.0
        self.increment_announced = increment is not None
        self.left.clear()
        self._spent.clear()

    def set_left(self, colour: int, seconds: float, stones: int) -> None:
        """GTP ``time_left``: ``stones`` is 0 in main time, else the stones left in the period."""
        previous, spent = self.left.get(colour), self._spent.pop(colour, None)
        if (not self.increment_announced and previous is not None and spent is not None
                and stones == 0 == previous[1]):
            gained = seconds - (previous[0] - spent)
            self.increment = gained if gained > 0.05 else 0.0
        self.left[colour] = (seconds, stones)

    def record_spent(self, colour: int, seconds: float) -> None:
        """Note how long ``colour``'s last move took, to infer an increment from the next
        ``time_left``."""
        self._spent[colour] = seconds

    @property
    def unlimited(self) -> bool:
        return self.main is None or (self.byo_yomi > 0 and self.stones == 0)

    def allowance(self, colour: int, moves_to_go: int) -> tuple[float, float]:
        """Soft and hard seconds for ``colour``'s next move, expecting ``moves_to_go`` more of
        its own moves in the game."""
        if self.unlimited:
            return self.move_time, self.move_time
        seconds, stones = self.left.get(colour, (self.main, 0))
        most, available = self._most(seconds, stones)
        if stones > 0:  # in a byo-yomi period: share it out over the stones it must cover
            return _bounded(0.6 * seconds / stones, most, available)
        bonus, spare = self._bonus(), self._spare(seconds)
        banked = min(1.0, spare / (BANKED_INCREMENTS * bonus)) if bonus else 1.0
        target = spare / max(moves_to_go, 1) + 0.7 * bonus * banked
        return _bounded(target, min(4 * target, most), available)

    def limit(self, colour: int) -> float | None:
        """The hard seconds for ``colour``'s next move whatever is planned for it (what a fixed
        effort may take at most), ``None`` when the clock has no limit: the ceiling of
        :meth:`allowance`, so that no one move spends the game's clock."""
        if self.unlimited:
            return None
        return _bounded(0.0, *self._most(*self.left.get(colour, (self.main, 0))))[1]

    def _most(self, seconds: float, stones: int) -> tuple[float, float]:
        """The most one move may take with ``seconds`` and ``stones`` left, and the seconds
        available for it: 85 % of a byo-yomi period's share per stone; in main time a quarter
        of the time to spare and most of what each move brings."""
        if stones > 0:
            return 0.85 * seconds / stones, seconds
        spare = self._spare(seconds)
        return 0.25 * spare + 0.9 * self._bonus(), spare + self._reserve()

    def _reserve(self) -> float:
        """A byo-yomi period's share per stone: time that main time may run into."""
        return self.byo_yomi / self.stones if self.byo_yomi and self.stones else 0.0

    def _bonus(self) -> float:
        """What each move adds to the clock or may run into: the increment and the reserve."""
        return self._reserve() + self.increment

    def _spare(self, seconds: float) -> float:
        """The main time left that an allowance may plan for (:data:`RESERVE` kept back)."""
        return max(0.0, seconds - min(RESERVE, RESERVE_SHARE * self.main))


def _bounded(soft: float, hard: float, available: float) -> tuple[float, float]:
    """Soft and hard limits kept safely inside the ``available`` seconds."""
    ceiling = max(0.0, CLOCK_SHARE * available - LATENCY_MARGIN)
    hard = max(0.005, min(hard, ceiling))
    return max(0.002, min(soft, hard)), hard
