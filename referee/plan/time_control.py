"""Time controls: what GTP's ``time_settings MAIN BYO STONES`` can say, plus an increment (which
GTP cannot announce; KataGo's ``kata-time_settings fischer`` can, to an engine that knows it):

* sudden death: ``MAIN`` seconds for the game, ``INCREMENT`` added after each move;
* Canadian byo-yomi: after ``MAIN`` runs out, periods of ``BYO`` seconds for ``STONES`` moves
  each; a period whose stones are all played starts afresh, one that runs out loses;
* fixed time per move: byo-yomi without main time and one stone a period (GTP's way of saying
  it: ``time_settings 0 T 1``).

A control is a value the plan holds; :class:`referee.play.clock.Clock` follows one side's time
under it during a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


# KataGo's GTP extension that can announce an increment; the referee sends it to an engine that
# answers ``known_command`` for it with ``true``.
INCREMENT_COMMAND = "kata-time_settings"


def seconds_text(seconds: float) -> str:
    """A number of seconds as GTP commands carry it: at most 3 decimals, no trailing zeros.

    >>> seconds_text(30.0), seconds_text(1.23456), seconds_text(-0.5)
    ('30', '1.235', '0')
    """
    return f"{max(0.0, seconds):.3f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class TimeControl:
    """A side's time control; see the module docstring. All times in seconds."""

    time: float = 60.0
    increment: float = 0.0
    byoyomi: float = 0.0
    stones: int = 0

    def __post_init__(self) -> None:
        if min(self.time, self.increment, self.byoyomi) < 0 or self.stones < 0:
            raise ValueError("times and stones cannot be negative")
        if (self.byoyomi > 0) != (self.stones > 0):
            raise ValueError("byo-yomi needs both its seconds and its stones")
        if self.time == 0 and self.byoyomi == 0:
            raise ValueError("a time control needs main time or byo-yomi")

    @classmethod
    def per_move(cls, seconds: float) -> TimeControl:
        """Fixed time per move.

        >>> TimeControl.per_move(2).settings()
        'time_settings 0 2 1'
        """
        return cls(time=0.0, byoyomi=seconds, stones=1)

    def settings(self) -> str:
        """The ``time_settings`` command announcing this control (without the increment).

        >>> TimeControl(30, 0.5).settings(), TimeControl(60, 0, 10, 5).settings()
        ('time_settings 30 0 0', 'time_settings 60 10 5')
        """
        return (f"time_settings {seconds_text(self.time)} {seconds_text(self.byoyomi)} "
                f"{self.stones}")

    def increment_settings(self) -> str | None:
        """KataGo's ``kata-time_settings`` command announcing the increment too, for an engine
        that knows it (GTP's own cannot say it); ``None`` when there is no increment to
        announce, or byo-yomi beside it, which that command cannot say.

        >>> TimeControl(30, 0.5).increment_settings()
        'kata-time_settings fischer 30 0.5'
        >>> TimeControl(30).increment_settings(), TimeControl(60, 1, 10, 5).increment_settings()
        (None, None)
        """
        if not self.increment or self.byoyomi:
            return None
        return (f"{INCREMENT_COMMAND} fischer {seconds_text(self.time)} "
                f"{seconds_text(self.increment)}")

    def describe(self) -> str:
        """A short text for people: ``30+0.5``, ``60 then 10/5``, ``2/move``.

        >>> TimeControl(30, 0.5).describe(), TimeControl(60, 0, 10, 5).describe()
        ('30+0.5', '60 then 10/5')
        >>> TimeControl.per_move(2).describe(), TimeControl(60).describe()
        ('2/move', '60')
        """
        if self.time == 0 and self.stones == 1:
            return f"{seconds_text(self.byoyomi)}/move"
        text = seconds_text(self.time)
        if self.increment:
            text += f"+{seconds_text(self.increment)}"
        if self.stones:
            text += f" then {seconds_text(self.byoyomi)}/{self.stones}"
        return text


def describe_clocks(named: Sequence[tuple[str, TimeControl]]) -> str:
    """Whose clock is which, for a header: one control for all, or each engine's.

    >>> describe_clocks([("a", TimeControl(60, 0.5)), ("b", TimeControl(60, 0.5))])
    'time 60+0.5 each'
    >>> describe_clocks([("a", TimeControl(1, 0.025)), ("b", TimeControl(2, 0.05))])
    'time a 1+0.025, b 2+0.05'
    """
    texts = [control.describe() for _, control in named]
    if len(set(texts)) == 1:
        return f"time {texts[0]} each"
    return "time " + ", ".join(f"{name} {text}" for (name, _), text in zip(named, texts))
