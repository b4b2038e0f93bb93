"""The seats of a ladder pool (:mod:`referee.host.ladder`): accounts that come and go for
months, and the house's own engines.

A pool's entrants grow while it runs: each account that joins the pool for the first time
gets the next entrant index and keeps it (:meth:`PoolSeating.add`). Each entrant plays one
game at a time. An engine that lost a game by a crash, a timeout or a protocol error rests
before its next game (:data:`REST_SECONDS`, doubling with each such loss in a row up to
:data:`MOST_REST_SECONDS`): an engine that dies at once would otherwise lose hundreds of
games a minute, each a rated game for its opponents. Before each game a pool's seat asks its engine for its ``name`` and
``version`` (:meth:`~.seats.Seat.engine`), so that the records tell one account's versions
apart.

* :class:`AccountSeat`: a participant's engine across the network (its
  :class:`~.remote.RemoteChannel`), ready while connected.
* :class:`AnchorSeat`: a house anchor, an engine process the server runs itself, started for
  each game and ended after it (so that no process idles between games), always ready.
"""

from __future__ import annotations

import threading
import time

from .channel import Channel, ChannelError
from .entrants import EngineSpec, identity, start_engine
from .remote import RemoteChannel, RemoteSeat
from .seats import Seat, Seating

# The seconds an engine has to answer ``name`` and then ``version`` before a game.
IDENTITY_SECONDS = 10.0
# The rest after a game lost by misbehaving, doubling with each in a row, and its most.
REST_SECONDS = 5.0
MOST_REST_SECONDS = 300.0


class _Rest:
    """When a seat may play again after misbehaving, and how long its next rest is."""

    def __init__(self) -> None:
        self.until = 0.0
        self.next = REST_SECONDS

    def begin(self) -> None:
        self.until = time.monotonic() + self.next
        self.next = min(2 * self.next, MOST_REST_SECONDS)

    def end(self) -> None:
        self.next = REST_SECONDS

    @property
    def over(self) -> bool:
        return time.monotonic() >= self.until


class AccountSeat(RemoteSeat):
    """A participant's seat in a pool; see the module docstring."""

    def __init__(self, channel: RemoteChannel) -> None:
        super().__init__(channel)
        self._engine: tuple[str, str] | None = None
        self.rest = _Rest()
        self.barred = False  # its account was disabled, or merged into another

    @property
    def present(self) -> bool:
        return self.channel.connected and not self.barred

    def take(self) -> RemoteChannel:
        channel = super().take()
        self._engine = _asked(channel)
        return channel

    def leave(self, channel: RemoteChannel, misbehaved: bool) -> None:
        super().leave(channel, misbehaved)
        if misbehaved:
            self.rest.begin()
        else:
            self.rest.end()

    def engine(self) -> tuple[str, str] | None:
        return self._engine

    def stop(self) -> None:
        self.channel.stop()


class AnchorSeat(Seat):
    """A house anchor's seat: ``spec`` started for each game (within ``timeout`` seconds for
    each start-up command); see the module docstring."""

    present = True

    def __init__(self, spec: EngineSpec, timeout: float) -> None:
        self.spec = spec
        self.timeout = timeout
        self._lock = threading.Lock()
        self._channel: Channel | None = None
        self._stopping = False
        self._engine: tuple[str, str] | None = None
        self.rest = _Rest()

    def take(self) -> Channel:
        channel = start_engine(self.spec, self.timeout)
        with self._lock:
            self._channel = channel
            stopping = self._stopping
        if stopping:
            channel.kill()
        self._engine = _asked(channel)
        return channel

    def leave(self, channel: Channel, misbehaved: bool) -> None:
        with self._lock:
            self._channel = None
        if misbehaved:
            channel.kill()
            self.rest.begin()
        else:
            channel.close()
            self.rest.end()

    def engine(self) -> tuple[str, str] | None:
        return self._engine

    @property
    def stopping(self) -> bool:
        return self._stopping

    def stop(self) -> None:
        """The pool stops now: the engine playing, if any, is ended."""
        with self._lock:
            self._stopping = True
            channel, self._channel = self._channel, None
        if channel is not None:
            channel.kill()


def _asked(channel: Channel) -> tuple[str, str]:
    """The engine's name and version, or empty texts when it cannot say (the game that
    follows finds out why)."""
    try:
        return identity(channel, IDENTITY_SECONDS)
    except ChannelError:
        return "", ""


class PoolSeating(Seating):
    """A pool's entrants, by index, growing as accounts join; see the module docstring. An
    aborted run stops every seat (the command awaited fails at once)."""

    exclusive = True

    def __init__(self) -> None:
        self._seats: list[AccountSeat | AnchorSeat] = []
        self._lock = threading.Lock()

    def add(self, seat: AccountSeat | AnchorSeat) -> int:
        """Seat a new entrant: its index."""
        with self._lock:
            self._seats.append(seat)
            return len(self._seats) - 1

    def seats(self) -> tuple[Seat, ...]:
        return tuple(self._seats)

    def ready(self, index: int) -> bool:
        seat = self._seats[index]
        return seat.present and seat.rest.over

    def away_for(self, index: int, now: float) -> float:
        seat = self._seats[index]
        return seat.channel.absent_for(now) if isinstance(seat, AccountSeat) else 0.0

    def close(self, clean: bool) -> None:
        if not clean:
            for seat in self.seats():
                seat.stop()
