"""The referee's clock for one side: pure bookkeeping, no timing of its own.

A :class:`Clock` follows one side through a game under a
:class:`~referee.plan.time_control.TimeControl`: :meth:`Clock.time_left` is what ``time_left``
sends, :meth:`Clock.budget` the seconds the next move may take before it is late (the
``margin`` of grace included), :meth:`Clock.charge` books a move's time. A move is late when it
overruns what is left by more than the margin (cutechess's and fastchess's rule). In main time an
overrun within the margin stays on the clock as a negative time, so the grace is one sum for the
game; a byo-yomi period starts afresh after its last stone, overrun or not.
:meth:`Clock.charge_between` books time an engine took outside its moves (answering ``play``,
``time_left``...): it runs the clock down like thinking time, but earns no increment and plays
no stone.

>>> clock = Clock(TimeControl(time=10, byoyomi=5, stones=2))
>>> clock.charge(9), clock.time_left()
(True, (1.0, 0))
>>> clock.charge(3), clock.time_left()        # main time gone, 2 s into the period; 1 stone left
(True, (3.0, 1))
>>> clock.charge(1), clock.time_left()        # the period's last stone: a fresh period
(True, (5.0, 2))
>>> clock.charge(6)
False
"""

from __future__ import annotations

from ..plan.time_control import TimeControl


class Clock:
    """One side's clock under ``control``, with ``margin`` seconds of grace for the game."""

    def __init__(self, control: TimeControl, margin: float = 0.0) -> None:
        self.control = control
        self.margin = margin
        self.lowest: float | None = None  # least time left at the end of a move (before refills)
        if control.time > 0:
            self.left, self.stones = float(control.time), 0
        else:
            self.left, self.stones = float(control.byoyomi), control.stones

    def time_left(self) -> tuple[float, int]:
        """What ``time_left`` says: seconds left in main time or in the period, and the stones
        left in the period (0 in main time)."""
        return self.left, self.stones

    def budget(self) -> float:
        """Seconds the next move may take before it is late, grace included."""
        overflow = self.control.byoyomi if self.stones == 0 and self.control.stones else 0.0
        return self.left + overflow + self.margin

    def charge(self, seconds: float) -> bool:
        """Book a move that took ``seconds``; false when it was late (the side loses).

        A move that runs out of main time continues into the first period and is its first
        stone. The increment is added after each move in main time.
        """
        control = self.control
        if self.stones == 0:
            self.left -= seconds
            self._note_lowest()
            if self.left >= 0 or not control.stones:
                self.left += control.increment
                return self.left - control.increment >= -self.margin
            self.left += control.byoyomi  # into the first period, with what overran main time
            self.stones = control.stones
        else:
            self.left -= seconds
        self._note_lowest()
        if self.left < -self.margin:
            return False
        self.stones -= 1
        if self.stones == 0:
            self.left, self.stones = float(control.byoyomi), control.stones
        return True

    def charge_between(self, seconds: float) -> bool:
        """Book ``seconds`` taken between moves; false when they ran the clock out (the side
        loses). Main time that runs out continues into a fresh period, as a move's would.

        >>> clock = Clock(TimeControl(time=1, increment=1))
        >>> clock.charge_between(0.25), clock.time_left()
        (True, (0.75, 0))
        >>> clock.charge_between(1)
        False
        """
        control = self.control
        self.left -= seconds
        if self.stones == 0 and self.left < 0 and control.stones:
            self.left += control.byoyomi
            self.stones = control.stones
        return self.left >= -self.margin

    def _note_lowest(self) -> None:
        if self.stones == 0 and self.left < 0 and self.control.stones:
            return  # overran main time into byo-yomi: noted once the period is charged
        self.lowest = self.left if self.lowest is None else min(self.lowest, self.left)
