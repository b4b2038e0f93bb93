"""A remote engine as a :class:`~referee.play.channel.Channel`: the game loop sends it commands
as it would a local engine, and this channel carries them over the participant's connection.

One :class:`RemoteChannel` stands for one participant for the whole event; its connection (a
:class:`Link`) comes and goes. Sending waits for a connection when there is none, until the
command's deadline or the end of the grace window since the connection dropped, whichever
comes first: past the deadline the answer is late (:class:`ChannelTimeout`), past the window
the participant has left the game (:class:`~referee.play.channel.Disconnected`). The clock
runs all the while, as the deadline is the clock's.

A connection that comes back during a game (a reconnect, or a newer login with the same token)
has a fresh engine behind it: before the next command the channel brings it to the game's
position by sending again what the engine had accepted this game (``set_game``, ``boardsize``,
``clear_board``, ``time_settings`` and ``kata-time_settings``, every move with ``play``, its
own moves included, and the last ``time_left``). A command cut off by the drop is then sent again.

The deadline of each answer is stretched by what the lag quota (:mod:`.lag`) could grant, and
:meth:`RemoteChannel.lag_allowance` tells the game loop what it did grant, which it does not
charge; the answers before the first move asked of this engine in a game are its set-up, whose
lag does not draw from the quota. Each move's measured time and allowance are kept for the
game's record.
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any, Callable

from ..text import one_line
from .channel import (
    Channel,
    ChannelClosed,
    ChannelTimeout,
    Disconnected,
    GtpFailure,
    IllFormedAnswer,
    parse_answer,
)
from .lag import LagPolicy, LagQuota
from .seats import Seat, Seating

# Commands whose acceptance is part of the engine's position in a game, sent again to a
# restarted engine.
_POSITION_COMMANDS = ("set_game", "boardsize", "clear_board", "time_settings",
                      "kata-time_settings", "play")
# The commands that ask for a move (and are timed as one).
_MOVE_COMMANDS = ("genmove", "genmove_analyze")
# Answers nobody asked for that a connection may send before it counts as a flood.
MAX_UNASKED = 8


class LinkLost(Exception):
    """The connection went while a message was being sent or awaited."""


class Violation(ValueError):
    """A client sent what it must not (the server then closes its connection); one line."""


class Link:
    """One connection of a participant: sends messages (a kind and its fields, which the
    transport encodes: :mod:`referee.host.wire`), and is closed with a reason."""

    def __init__(self, send: Callable[..., None], close: Callable[[int, str], None],
                 address: str = "", latency: Callable[[], float] = lambda: 0.0) -> None:
        self._send = send
        self._close = close
        self._latency = latency
        self.address = address
        self.open = True

    def round_trip(self) -> float | None:
        """The connection's round trip as the transport last measured it (``None``: not yet)."""
        return self._latency() or None

    def send(self, kind: str, **fields: Any) -> None:
        """Send one message; raises :class:`LinkLost` when the connection is gone."""
        if not self.open:
            raise LinkLost()
        try:
            self._send(kind, **fields)
        except Exception as error:  # the transport's own errors: the connection is gone
            self.open = False
            raise LinkLost() from error

    def close(self, code: int, reason: str) -> None:
        """Close the connection, telling the other side why (a WebSocket close code)."""
        self.open = False
        try:
            self._close(code, reason)
        except Exception:  # already closed  # noqa: BLE001
            pass


class RemoteChannel(Channel):
    """The engine of participant ``name``; see the module docstring. ``grace`` is the window
    (seconds) a dropped connection has to come back during a game."""

    def __init__(self, name: str, grace: float, lag: LagPolicy = LagPolicy()) -> None:
        self.name = name
        self.command = f"remote:{name}"
        self.grace = grace
        self.policy = lag
        self.quota = LagQuota(lag)
        self._ready = threading.Condition()
        self._link: Link | None = None
        self.absent_since: float | None = time.monotonic()
        self._next_id = 0
        self._pending: int | None = None
        self._reply: dict[str, Any] | None = None
        self._replied_at = 0.0
        self._unasked = 0
        self._violation: str | None = None
        self._script: list[str] = []
        self._last_time_left: str | None = None
        self._restore = False
        self._allowance = 0.0
        self._stopped = False
        self.moves: list[tuple[float, float]] = []  # (measured, allowance) of this game's moves

    # The connection side: called from the server's thread reading the connection.

    @property
    def connected(self) -> bool:
        """Whether the participant has a connection now (not one being closed)."""
        link = self._link
        return link is not None and link.open

    @property
    def link(self) -> Link | None:
        """The participant's connection now, if any."""
        return self._link

    def absent_for(self, now: float) -> float:
        """Seconds the participant has been without a connection (0 when connected)."""
        since = self.absent_since
        return 0.0 if since is None else now - since

    @property
    def stopped(self) -> bool:
        """Whether the event is stopping (see :meth:`stop`)."""
        return self._stopped

    def stop(self) -> None:
        """The event stops now: every command from now on, and the one awaited, fails."""
        with self._ready:
            self._stopped = True
            self._ready.notify_all()

    def attach(self, link: Link) -> Link | None:
        """Make ``link`` the participant's connection; returns the one it replaces, if any.
        A game in progress is brought back to its position before the next command."""
        with self._ready:
            previous, self._link = self._link, link
            self.absent_since = None
            self._restore = bool(self._script)
            self._unasked = 0
            self._ready.notify_all()
        return previous

    def detach(self, link: Link) -> None:
        """``link`` has closed; nothing happens if it was already replaced."""
        with self._ready:
            link.open = False
            if self._link is link:
                self._link = None
                self.absent_since = time.monotonic()
            self._ready.notify_all()

    def deliver(self, link: Link, message: dict[str, Any]) -> None:
        """A message from the client on ``link``. Raises :class:`Violation` when the
        client sends what it must not (the server then closes the connection)."""
        if message["type"] not in ("answer", "lost"):
            raise Violation(f"a client does not send {message['type']!r}")
        with self._ready:
            if link is not self._link:
                return
            if message["id"] != self._pending:
                self._unasked += 1
                if self._unasked > MAX_UNASKED:
                    raise Violation(f"more than {MAX_UNASKED} answers nobody asked for")
                return
            self._reply, self._replied_at = message, time.monotonic()
            self._pending = None
            self._ready.notify_all()

    def violated(self, link: Link, why: str) -> None:
        """The client on ``link`` broke the protocol: the game it is playing, if any, is lost
        by a protocol error at its next command."""
        with self._ready:
            if link is self._link and (self._script or self._pending is not None):
                self._violation = why
            self._ready.notify_all()

    # The game side: the Channel interface the game loop uses.

    def lag_allowance(self) -> float:
        return self._allowance

    def send(self, command: str, deadline: float | None = None) -> str:
        self._allowance = 0.0
        verb = command.split()[0] if command.strip() else ""
        while True:
            link = self._wait_for_link(deadline)
            try:
                if self._restore:
                    self._bring_back(link, deadline)
                reply, measured = self._exchange(link, command, deadline)
                break
            except LinkLost:
                continue
        success, text = self._read(reply, command)
        asked_move = verb in _MOVE_COMMANDS
        setup = not asked_move and not self.moves  # no move asked of it yet this game
        self._allowance = self.quota.grant(measured, reply.get("think"), move=asked_move,
                                           rtt=link.round_trip(), setup=setup)
        if asked_move:
            self.moves.append((_microseconds(measured), _microseconds(self._allowance)))
            move = text.split("\n", 1)[0].strip()  # genmove_analyze: analysis lines follow
            if success and move.lower() != "resign":
                self._script.append(f"play {command.split()[1]} {move}")
        elif success and verb in _POSITION_COMMANDS:
            self._script.append(command)
        elif success and verb == "time_left":
            self._last_time_left = command
        if not success:
            raise GtpFailure(text)
        return text

    def new_game(self) -> None:
        """A game begins: nothing of the last one is brought back or recorded from now on,
        and the lag quota starts afresh."""
        with self._ready:
            self._script = []
            self._last_time_left = None
            self._violation = None
            self._restore = False
            self.quota = LagQuota(self.policy)
            self.moves = []

    def _wait_for_link(self, deadline: float | None) -> Link:
        """The connection, once there is one; raises when the deadline or the grace window
        passes first, or when the client broke the protocol during this game."""
        with self._ready:
            while True:
                self._check()
                if self._link is not None and self._link.open:
                    return self._link
                now = time.monotonic()
                away = self.absent_since if self.absent_since is not None else now
                if now >= away + self.grace:
                    raise Disconnected(f"{self.name} disconnected and did not come back within "
                                       f"the {self.grace:g} s grace window")
                if deadline is not None and now >= deadline:
                    raise ChannelTimeout(f"no answer in time ({self.name} disconnected)")
                limit = away + self.grace if deadline is None else min(deadline,
                                                                       away + self.grace)
                self._ready.wait(max(0.0, limit - now))

    def _check(self) -> None:
        """Raise when the event is stopping or the client broke the protocol this game."""
        if self._stopped:
            raise ChannelClosed("the event is stopping")
        if self._violation is not None:
            raise IllFormedAnswer(self._violation)

    def _exchange(self, link: Link, line: str, deadline: float | None) -> tuple[dict, float]:
        """Send ``line`` on ``link`` and wait for its answer; the answer and its measured
        time. The wait lasts to the deadline stretched by the lag the quota could grant."""
        with self._ready:
            self._next_id += 1
            self._pending, self._reply = self._next_id, None
            number = self._next_id
        sent = time.monotonic()
        link.send("command", id=number, line=line)
        limit = None if deadline is None else deadline + self.quota.available()
        with self._ready:
            while self._reply is None:
                self._check()
                if self._link is not link or not link.open:
                    raise LinkLost()
                now = time.monotonic()
                if limit is not None and now >= limit:
                    self._pending = None
                    raise ChannelTimeout("no answer in time")
                self._ready.wait(None if limit is None else limit - now)
            return self._reply, self._replied_at - sent

    def _read(self, reply: dict[str, Any], command: str) -> tuple[bool, str]:
        """Success and text of a reply; raises :class:`IllFormedAnswer` for what is no answer
        (a ``lost`` engine is a crash, as the client reports it)."""
        if reply["type"] == "lost":
            raise ChannelClosed(f"{self.name}'s client lost its engine: "
                                f"{one_line(reply['reason'], 200)}")
        return parse_answer(reply["text"].encode().replace(b"\r", b"").strip(b"\n"))

    def _bring_back(self, link: Link, deadline: float | None) -> None:
        """Replay the game so far to a fresh engine behind ``link``."""
        self._restore = False
        script = [*self._script, *([self._last_time_left] if self._last_time_left else [])]
        for line in script:
            reply, _ = self._exchange(link, line, deadline)
            success, text = self._read(reply, line)
            if not success:
                raise IllFormedAnswer(f"{self.name}'s restarted engine refused {line!r} while "
                                      f"being brought back to the position: {one_line(text)}")

    def kill(self) -> None:
        """The engine misbehaved: the client is told to start a fresh one."""
        link = self._link
        if link is not None:
            try:
                link.send("reset")
            except LinkLost:
                pass
        with self._ready:
            self._script = []
            self._restore = False

    def close(self, grace: float = 1.0) -> None:
        """Nothing to end: the engine stays with its client for the next game."""


def _microseconds(seconds: float) -> float:
    """``seconds`` cut to whole microseconds, for the record (never rounded up, so that a
    recorded allowance is never more than the recorded time it was granted from)."""
    return math.floor(seconds * 1e6) / 1e6


class RemoteSeat(Seat):
    """A participant's seat: its one channel for the whole event, made ready for each game."""

    def __init__(self, channel: RemoteChannel) -> None:
        self.channel = channel

    def take(self) -> RemoteChannel:
        self.channel.new_game()
        return self.channel

    def leave(self, channel: RemoteChannel, misbehaved: bool) -> None:
        if misbehaved:
            channel.kill()

    def lag(self) -> list[list[float]]:
        return [list(move) for move in self.channel.moves]

    @property
    def stopping(self) -> bool:
        return self.channel.stopped


class RemoteSeating(Seating):
    """An event's participants, by index: ready while connected, one game at a time each; an
    aborted run stops every channel (the command awaited fails at once)."""

    exclusive = True

    def __init__(self, channels: list[RemoteChannel]) -> None:
        self.channels = channels
        self._seats = tuple(RemoteSeat(channel) for channel in channels)

    def seats(self) -> tuple[Seat, ...]:
        return self._seats

    def ready(self, index: int) -> bool:
        return self.channels[index].connected

    def away_for(self, index: int, now: float) -> float:
        return self.channels[index].absent_for(now)

    def close(self, clean: bool) -> None:
        if not clean:
            for channel in self.channels:
                channel.stop()
