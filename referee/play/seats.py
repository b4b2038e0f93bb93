"""Seats: who plays an entrant's games, and how the runner knows whether they are there.

The runner (:mod:`referee.run`) plays every planned game on seats of any kind, and knows only
this interface:

* a :class:`Seat` gives the channel an entrant's next game is played on and hears how the game
  went (an engine that misbehaved is replaced before its next game);
* a :class:`Seating` is a run's seats together, with what the runner's policy needs: whether an
  entrant is ready to start a game now, how long it has been away, whether it plays one game at
  a time, and what happens to the seats when the run ends.

:class:`LocalSeating` seats engine processes started on this machine (or a cluster's workers):
a :class:`LocalSeat` is plain, picklable data, and the processes of each thread are kept
between games in :data:`POOL`. A person at the play page sits in a local seat too: the
``human`` engine spec starts their page's channel. The remote seats of an event's participants
are in :mod:`.remote`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable, Sequence

from engine import Termination

from .channel import Channel
from .entrants import DeadChannel, EnginePool, EngineSpec, start_engine

# After these, the engine at fault is in an unknown state: it is replaced for the next game.
RESTART_AFTER = {Termination.TIMEOUT, Termination.CRASH, Termination.PROTOCOL_ERROR}

# The engine processes of this process's threads, kept between their games.
POOL = EnginePool()


class Seat(ABC):
    """One entrant's place at the games it plays."""

    @abstractmethod
    def take(self) -> Channel:
        """The channel the entrant's next game is played on (started, or kept from its last
        game)."""

    def leave(self, channel: Channel, misbehaved: bool) -> None:
        """The game played on ``channel`` is over; ``misbehaved``: the entrant lost it by a
        timeout, a crash or a protocol error, so its engine is in an unknown state."""

    def lag(self) -> list[list[float]] | None:
        """Each timed move's measured time and lag allowance in the game just played, for a
        seat across a network; ``None`` for a local one."""
        return None

    def engine(self) -> tuple[str, str] | None:
        """What the engine of the game just played said its ``name`` and ``version`` were,
        for a seat that asks (the ladder's); ``None`` for one that does not."""
        return None

    @property
    def stopping(self) -> bool:
        """Whether the run is stopping now (a game then played is not a result)."""
        return False


class Seating(ABC):
    """The seats of a run's entrants, by entrant index, and what the runner's policy asks of
    them. ``exclusive``: an entrant plays one game at a time (it has one engine)."""

    exclusive: bool = False

    @abstractmethod
    def seats(self) -> tuple[Seat, ...]:
        """The seats, by entrant index (picklable where the executor needs it)."""

    def ready(self, index: int) -> bool:
        """Whether entrant ``index`` can start a game now."""
        return True

    def away_for(self, index: int, now: float) -> float:
        """Seconds entrant ``index`` has been away (0: present)."""
        return 0.0

    def open(self) -> None:
        """The run starts."""

    def close(self, clean: bool) -> None:
        """The run is over: ``clean`` when its games ended by themselves, else (an abort, an
        SPRT verdict, a failure) whatever is still playing is stopped now."""


@dataclass(frozen=True)
class LocalSeat(Seat):
    """An engine process started from ``spec`` on the thread that plays the game, kept in
    :data:`POOL` between games; ``starter`` replaces :func:`start_engine` (tests start
    in-process engines)."""

    spec: EngineSpec
    starter: Callable[[EngineSpec], Channel] | None = None
    timeout: float | None = None

    def take(self) -> Channel:
        starter = self.starter or (lambda spec: start_engine(spec, timeout=self.timeout))
        return POOL.get(self.spec, starter)

    def leave(self, channel: Channel, misbehaved: bool) -> None:
        if misbehaved or isinstance(channel, DeadChannel):
            POOL.retire(self.spec)

    @property
    def stopping(self) -> bool:
        return POOL.stopping


class LocalSeating(Seating):
    """Engine processes on this machine or a cluster's workers, one per game being played:
    always ready, never away."""

    def __init__(self, specs: Sequence[EngineSpec],
                 starter: Callable[[EngineSpec], Channel] | None = None,
                 timeout: float | None = None) -> None:
        self._seats = tuple(LocalSeat(spec, starter, timeout) for spec in specs)

    def seats(self) -> tuple[Seat, ...]:
        return self._seats

    def open(self) -> None:
        POOL.reopen()

    def close(self, clean: bool) -> None:
        if clean:
            POOL.close_all()
        else:
            POOL.stop()
