"""The event's WebSocket server: participants' clients connect, prove who they are, and carry
their engines' answers.

Built on the ``websockets`` library's threaded server: one thread per connection reads it and
hands each message to the participant's :class:`~.remote.RemoteChannel`, while the game
threads send commands on it. Limits, so that no client can hurt the others:

* a message is at most :data:`~.wire.MAX_MESSAGE_BYTES` (a larger one closes the connection,
  code 1009), at most :data:`QUEUED_MESSAGES` wait unread, compression is off (no inflating
  bombs): what one client makes the server hold is bounded by about
  ``(QUEUED_MESSAGES + 1) * MAX_MESSAGE_BYTES``;
* the WebSocket handshake and then the ``hello`` must each come within :data:`HELLO_SECONDS`, and a
  WebSocket ping (every :data:`PING_SECONDS`, and once at login: it measures the round trip for the
  lag allowance) must be answered within :data:`PONG_SECONDS`, else the connection is closed;
* a message that is not the protocol's, or a flood of answers nobody asked for, closes the
  connection (code 1008) and loses the game it is playing by a protocol error.

A refused login gets one ``refused`` message and a close (code 1008); the log says who tried,
from where and why, never with the token.
"""

from __future__ import annotations

import ssl
import threading
from typing import Callable

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection, serve

from . import wire
from .remote import Link, LinkLost
from .roster import Roster

HELLO_SECONDS = 10.0
# Keep-alive pings every PING_SECONDS, each measuring the round trip the lag allowance believes
# (:mod:`.lag`); a connection that leaves one unanswered for PONG_SECONDS is closed.
PING_SECONDS = 5.0
PONG_SECONDS = 20.0
QUEUED_MESSAGES = 4
# How long a closing connection is given to answer the close (a misbehaving client that
# stopped reading keeps its participant away for this long).
CLOSE_SECONDS = 1.0
POLICY_VIOLATION = 1008
GOING_AWAY = 1001


class EventServer:
    """Serves ``roster``'s participants on ``host:port`` (port 0: any free port), with TLS
    when ``tls`` is given; ``log`` takes one line per event (connections, refusals)."""

    def __init__(self, roster: Roster, event: str, host: str, port: int,
                 tls: ssl.SSLContext | None, log: Callable[[str], None],
                 hello_seconds: float = HELLO_SECONDS) -> None:
        self.roster = roster
        self.event = event
        self.log = log
        self.hello_seconds = hello_seconds
        self.closing = False
        self._server = serve(self._handle, host, port, ssl=tls, compression=None,
                             max_size=wire.MAX_MESSAGE_BYTES, max_queue=QUEUED_MESSAGES,
                             open_timeout=hello_seconds, ping_interval=PING_SECONDS,
                             ping_timeout=PONG_SECONDS, close_timeout=CLOSE_SECONDS)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="event server")
        self._thread.start()

    @property
    def port(self) -> int:
        return self._server.socket.getsockname()[1]

    def _handle(self, connection: ServerConnection) -> None:
        address = _address(connection)
        name = self._login(connection, address)
        if name is None:
            return
        link = Link(connection.send, connection.close, address, lambda: connection.latency)
        channel = self.roster.channels[name]
        try:  # welcome first: once attached, commands may follow at once
            link.send(wire.encode("welcome", name=name, event=self.event))
        except LinkLost:
            return
        try:
            connection.ping()  # the round trip, measured at once (then at every keep-alive)
        except ConnectionClosed:
            return
        previous = self.roster.attach(name, link)
        if previous is not None:
            previous.close(POLICY_VIOLATION, "replaced by a newer connection with your token")
            self.log(f"{name}: a newer connection from {address} replaces the one from "
                     f"{previous.address}")
        else:
            self.log(f"{name} connected from {address}")
        try:
            for text in connection:
                try:
                    channel.deliver(link, wire.decode(text))
                except wire.WireError as error:
                    self.log(f"{name} ({address}) broke the protocol, disconnected: {error}")
                    channel.violated(link, f"{name}'s client broke the protocol: {error}")
                    link.close(POLICY_VIOLATION, str(error)[:120])
                    break
        except ConnectionClosed as closed:
            if closed.rcvd is None and closed.sent is not None and closed.sent.code == 1009:
                channel.violated(link, f"{name}'s client sent a message over "
                                       f"{wire.MAX_MESSAGE_BYTES} bytes")
                self.log(f"{name} ({address}) sent a message over {wire.MAX_MESSAGE_BYTES} "
                         f"bytes, disconnected")
        except Exception as error:  # a transport failure of this connection only  # noqa: BLE001
            self.log(f"{name} ({address}): connection failed: {type(error).__name__}: {error}")
        finally:
            self.roster.detach(name, link)
            if not self.closing and channel.link is None:
                self.log(f"{name} disconnected")

    def _login(self, connection: ServerConnection, address: str) -> str | None:
        """The participant the connection's ``hello`` proves it is, or ``None`` once refused."""
        try:
            hello = wire.decode(connection.recv(timeout=self.hello_seconds))
            if hello["type"] != "hello":
                raise wire.WireError(f"expected hello, got {hello['type']}")
        except TimeoutError:
            return self._refuse(connection, address,
                                f"no hello within {self.hello_seconds:g} s")
        except wire.WireError as error:
            return self._refuse(connection, address, str(error))
        except ConnectionClosed:
            return None
        if hello["protocol"] != wire.PROTOCOL:
            return self._refuse(connection, address, f"this event speaks protocol "
                                f"{wire.PROTOCOL}, the client {hello['protocol']}: update it")
        name = self.roster.identify(hello["token"])
        if name is None:
            return self._refuse(connection, address, "wrong token")
        return name

    def _refuse(self, connection: ServerConnection, address: str, reason: str) -> None:
        self.log(f"refused a connection from {address}: {reason}")
        try:
            connection.send(wire.encode("refused", reason=reason))
            connection.close(POLICY_VIOLATION, reason[:120])
        except ConnectionClosed:
            pass
        return None

    def say_goodbye(self, reason: str) -> None:
        """Tell every connected client the event is over."""
        self.closing = True
        for channel in self.roster.channels.values():
            link = channel.link
            if link is not None:
                try:
                    link.send(wire.encode("bye", reason=reason))
                except LinkLost:
                    pass
                link.close(1000, reason[:120])

    def stop(self) -> None:
        self.closing = True
        self._server.shutdown()
        self._thread.join(5)


def _address(connection: ServerConnection) -> str:
    try:
        host, port = connection.remote_address[:2]
    except (TypeError, ValueError):
        return "?"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
