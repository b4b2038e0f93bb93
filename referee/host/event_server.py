"""The WebSocket server of remote seats (an event's, the ladder's): participants' clients
connect, prove who they are (to a :class:`~.gatekeeper.Gatekeeper`), and carry their engines'
answers.

Built on the ``websockets`` library's asyncio server, in one thread of its own: a connection
costs a coroutine and a few buffers, not a thread, so a thousand connections that never log in
cost the server no more threads than none (measured in docs/event.md). Each message from a
logged-in client is handed to the participant's :class:`~.remote.RemoteChannel`, while the game
threads send commands through a :class:`~.remote.Link` that hands them to the loop.

Everything a client sends passes the gate of :func:`.wire.decode` before anything else sees
it, and these limits keep any one client from hurting the others:

* before login, the :class:`~.door.Door`: connections not yet logged in capped in all and per
  address, wrong tokens slowed and then banned for a while, every refusal logged;
* the WebSocket handshake and then the ``hello`` must each come within :data:`HELLO_SECONDS`,
  and a WebSocket ping (every :data:`PING_SECONDS`, and once at login: it measures the round trip
  for the lag allowance) must be answered within :data:`PONG_SECONDS`, else the connection is
  closed;
* a message is at most :data:`~.wire.MAX_MESSAGE_BYTES` (a larger one closes the connection,
  code 1009), at most :data:`QUEUED_MESSAGES` wait unread, compression is off (no inflating
  bombs): what one client makes the server hold is bounded by about
  ``(QUEUED_MESSAGES + 1) * MAX_MESSAGE_BYTES``; a client that stops reading is dropped once a
  message to it has waited :data:`SEND_SECONDS`;
* a message that is not the protocol's, or a flood of answers nobody asked for, closes the
  connection (code 1008) and loses the game it is playing by a protocol error.

No input ends the server or reaches the log as a traceback: an error in one connection's
handling is one log line and that connection's end.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import threading
import time
from typing import Any, Callable, Coroutine

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from ..play.remote import Link, LinkLost, Violation
from ..text import one_line
from . import wire
from .door import Door, DoorPolicy
from .gatekeeper import Admission, Gatekeeper, Refusal
from .summed_log import peer_address
from .tickets import TICKET_RENEWAL

HELLO_SECONDS = 10.0
# Keep-alive pings every PING_SECONDS, each measuring the round trip the lag allowance believes
# (:mod:`.lag`); a connection that leaves one unanswered for PONG_SECONDS is closed.
PING_SECONDS = 5.0
PONG_SECONDS = 20.0
QUEUED_MESSAGES = 4
# How long a message to a client may wait for the client to read it before the connection is
# dropped as dead (a client that stopped reading).
SEND_SECONDS = 20.0
# How long a closing connection is given to answer the close (a misbehaving client that
# stopped reading keeps its participant away for this long).
CLOSE_SECONDS = 1.0
# How often the door writes its sums of repeated refusals and forgets what expired.
TIDY_SECONDS = 5.0
POLICY_VIOLATION = 1008
TOO_BIG = 1009


class _Gone(Exception):
    """The client closed its connection before its login was decided."""


class _Connection(ServerConnection):
    """A connection that knocks at the server's door the moment TCP accepts it, and leaves
    through it when it logs in or closes (whichever comes first)."""

    def __init__(self, door: Door, handshake_seconds: float, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.door = door
        self.handshake_seconds = handshake_seconds
        self.address = "?"
        self.waiting = False
        self.accounted = False  # whether the refusal or login was already logged
        self.handled = False  # whether the server's handler took the connection over
        self.accepted_at = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.accepted_at = time.monotonic()
        self.address = peer_address(transport.get_extra_info("peername"))
        refusal = self.door.knock(self.address)
        if refusal is None:
            self.waiting = True
        else:
            self.settle(refusal)
            transport.abort()

    def settle(self, refusal: str | None = None) -> None:
        """The connection has logged in (``refusal`` ``None``) or been refused: leave the
        door's count, and log the refusal."""
        if self.waiting:
            self.waiting = False
            self.door.left(self.address)
        if not self.accounted and refusal is not None:
            self.door.refuse(self.address, refusal)
        self.accounted = True

    def connection_lost(self, exc: Exception | None) -> None:
        """Settle a connection that ends before the handler took it over (the handler settles
        the others itself, with the reason it knows)."""
        super().connection_lost(exc)
        if self.handled:
            return
        waited = time.monotonic() - self.accepted_at
        if self.request is not None:
            self.settle("closed during the WebSocket handshake")
        elif waited >= self.handshake_seconds:
            self.settle(f"no WebSocket handshake within {self.handshake_seconds:g} s")
        else:
            self.settle("closed before the WebSocket handshake")


class EventServer:
    """Serves the participants ``gate`` admits on ``host:port`` (port 0: any free port), with
    TLS when ``tls`` is given; ``event`` names the event in the welcome; ``log`` takes one line
    per event (connections, refusals)."""

    def __init__(self, gate: Gatekeeper, event: str, host: str, port: int,
                 tls: ssl.SSLContext | None, log: Callable[[str], None],
                 hello_seconds: float = HELLO_SECONDS, door: DoorPolicy = DoorPolicy()) -> None:
        self.gate = gate
        self.event = event
        self.log = log
        self.hello_seconds = hello_seconds
        self.door = Door(door, log)
        self.closing = False
        self._loop = asyncio.new_event_loop()
        self._loop.set_exception_handler(self._loop_failed)
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="event server")
        self._thread.start()
        try:
            self._server: Server = self._run(self._start(host, port, tls))
        except BaseException:
            self._end_loop()
            raise

    @property
    def port(self) -> int:
        return self._server.sockets[0].getsockname()[1]

    async def _start(self, host: str, port: int, tls: ssl.SSLContext | None) -> Server:
        server = await serve(
            self._handle, host, port, ssl=tls, compression=None,
            max_size=wire.MAX_MESSAGE_BYTES, max_queue=QUEUED_MESSAGES,
            open_timeout=self.hello_seconds, ping_interval=PING_SECONDS,
            ping_timeout=PONG_SECONDS, close_timeout=CLOSE_SECONDS,
            create_connection=lambda *args, **kwargs: _Connection(
                self.door, self.hello_seconds, *args, **kwargs),
            logger=_one_line_logger(self.log))
        self._tidying = self._loop.create_task(self._tidy())
        return server

    async def _tidy(self) -> None:
        while True:
            await asyncio.sleep(TIDY_SECONDS)
            self.door.tidy()

    async def _handle(self, connection: _Connection) -> None:
        connection.handled = True
        try:
            await self._serve(connection)
        except Exception as error:  # a fault of this connection only  # noqa: BLE001
            self.log(f"{connection.address}: connection failed: {type(error).__name__}: "
                     f"{one_line(str(error))}")
        finally:
            connection.settle()

    async def _serve(self, connection: _Connection) -> None:
        address = connection.address
        admission = await self._login(connection)
        if admission is None:
            return
        name, channel = admission.label, admission.channel
        link = Link(self._sender(connection), self._closer(connection), address,
                    lambda: connection.latency)
        try:  # welcome first: once attached, commands may follow at once
            ticket = {} if admission.tickets is None else {"ticket": await self._ticket(
                admission.tickets)}
            await connection.send(wire.encode("welcome", name=admission.name,
                                              event=admission.event or self.event, **ticket))
            await connection.ping()  # the round trip, measured at once (then at every ping)
        except ConnectionClosed:
            return
        connection.settle()
        renewing = None if admission.tickets is None else asyncio.create_task(
            self._renew_tickets(connection, admission.tickets))
        previous = channel.attach(link)
        if previous is not None:
            previous.close(POLICY_VIOLATION, "replaced by a newer connection logged in as you")
            self.log(f"{name}: a newer connection from {address} replaces the one from "
                     f"{previous.address}")
        else:
            self.log(f"{name} connected from {address}")
        try:
            async for text in connection:
                try:
                    channel.deliver(link, wire.decode(text))
                except (wire.WireError, Violation) as error:
                    self.log(f"{name} ({address}) broke the protocol, disconnected: {error}")
                    channel.violated(link, f"{name}'s client broke the protocol: {error}")
                    await connection.close(POLICY_VIOLATION, one_line(str(error), 120))
                    break
        except ConnectionClosed as closed:
            if closed.rcvd is None and closed.sent is not None and closed.sent.code == TOO_BIG:
                channel.violated(link, f"{name}'s client sent a message over "
                                       f"{wire.MAX_MESSAGE_BYTES} bytes")
                self.log(f"{name} ({address}) sent a message over {wire.MAX_MESSAGE_BYTES} "
                         f"bytes, disconnected")
        finally:
            if renewing is not None:
                renewing.cancel()
            channel.detach(link)
            if not self.closing and channel.link is None:
                self.log(f"{name} disconnected")

    @staticmethod
    async def _ticket(tickets: Callable[[], str]) -> str:
        """A new resume ticket from ``tickets``, made on a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(None, tickets)

    async def _renew_tickets(self, connection: _Connection, tickets: Callable[[], str]) -> None:
        """Send the client a new resume ticket every :data:`TICKET_RENEWAL` seconds while it
        is connected, so that one connected for weeks still holds a good ticket when the
        server restarts."""
        while True:
            await asyncio.sleep(TICKET_RENEWAL)
            try:
                await connection.send(wire.encode("ticket", ticket=await self._ticket(tickets)))
            except ConnectionClosed:
                return
            except Exception as error:  # noqa: BLE001 - the database; tried again next time
                self.log(f"{connection.address}: cannot renew its resume ticket: "
                         f"{type(error).__name__}: {one_line(str(error))}")

    async def _login(self, connection: _Connection) -> Admission | None:
        """The participant the connection's ``hello`` proves it is, or ``None`` once refused."""
        try:
            hello = wire.decode(await asyncio.wait_for(connection.recv(), self.hello_seconds))
            if hello["type"] != "hello":
                raise wire.WireError(f"expected hello, got {hello['type']}")
        except TimeoutError:
            return await self._refuse(connection, f"no hello within {self.hello_seconds:g} s")
        except wire.WireError as error:
            return await self._refuse(connection, str(error))
        except ConnectionClosed as closed:
            too_big = closed.sent is not None and closed.sent.code == TOO_BIG
            connection.settle(f"a hello over {wire.MAX_MESSAGE_BYTES} bytes" if too_big
                              else "closed before its hello")
            return None
        if hello["protocol"] != wire.PROTOCOL:
            return await self._refuse(connection, f"this event speaks protocol "
                                      f"{wire.PROTOCOL}, the client {hello['protocol']}: "
                                      f"update it")
        try:
            return await asyncio.get_running_loop().run_in_executor(None, self._admit,
                                                                    connection, hello)
        except _Gone:
            connection.settle("closed while its login waited its turn")
            return None
        except Refusal as refusal:
            if refusal.wrong_secret:
                await asyncio.sleep(self.door.failed(connection.address))
            return await self._refuse(connection, str(refusal), refusal.retry)

    def _admit(self, connection: _Connection, hello: dict[str, Any]) -> Admission:
        """The gate's admission of ``hello`` (on a worker thread), unless its client has gone
        while the login waited for a worker: when a restarted server meets every client at
        once, a client that gave up waiting comes again with a new hello, and the slow
        password hash of its first is not computed for nobody (else the logins fall further
        behind than the clients wait, and never catch up)."""
        if connection.state is not State.OPEN:
            raise _Gone
        return self.gate.admit(hello)

    async def _refuse(self, connection: _Connection, reason: str,
                      retry: str | None = None) -> None:
        """Tell the client why it is refused (and what it may ``retry`` with), and close."""
        connection.settle(reason)
        try:
            fields = {} if retry is None else {"retry": retry}
            await connection.send(wire.encode("refused", reason=reason, **fields))
            await connection.close(POLICY_VIOLATION, one_line(reason, 120))
        except ConnectionClosed:
            pass
        return None

    def _sender(self, connection: ServerConnection) -> Callable[..., None]:
        """A game thread's way to send a message on ``connection``: encodes it, hands it to
        the loop and waits until it is written, dropping a connection whose client stopped
        reading."""
        def send(kind: str, **fields: Any) -> None:
            if threading.current_thread() is self._thread:
                raise RuntimeError("a blocking send from the event loop's own thread")
            text = wire.encode(kind, **fields)
            future = asyncio.run_coroutine_threadsafe(connection.send(text), self._loop)
            try:
                future.result(SEND_SECONDS)
            except TimeoutError:
                future.cancel()
                self._loop.call_soon_threadsafe(connection.transport.abort)
                raise
        return send

    def _closer(self, connection: ServerConnection) -> Callable[[int, str], None]:
        """A way for any thread to close ``connection`` without waiting for it."""
        def close(code: int, reason: str) -> None:
            asyncio.run_coroutine_threadsafe(connection.close(code, reason), self._loop)
        return close

    def say_goodbye(self, reason: str) -> None:
        """Tell every connected client the event is over."""
        self.closing = True
        for channel in self.gate.all_channels():
            link = channel.link
            if link is not None:
                try:
                    link.send("bye", reason=reason)
                except LinkLost:
                    pass
                link.close(1000, reason[:120])

    def stop(self) -> None:
        """Stop listening and close every connection (code 1001: the clients try again)."""
        self.closing = True
        try:
            self._run(self._close(), timeout=5)
        except Exception:  # noqa: BLE001 - stopping anyway
            pass
        self._end_loop()

    async def _close(self) -> None:
        """Close the server and its connections, then end whatever is still running on the
        loop (a connection that does not answer the close), so that nothing is left behind,
        and write the door's counts of refusals not yet written."""
        self._tidying.cancel()
        self._server.close()
        try:
            await asyncio.wait_for(self._server.wait_closed(), 2 * CLOSE_SECONDS)
        except TimeoutError:
            pass
        running = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        self.door.flush()

    def _run(self, coroutine: Coroutine, timeout: float | None = None) -> Any:
        """Run ``coroutine`` on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout)

    def _end_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        if not self._thread.is_alive():
            self._loop.close()

    def _loop_failed(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """What asyncio would print with a traceback (a failed TLS handshake, say), as one
        line."""
        error = context.get("exception")
        detail = f"{type(error).__name__}: {error}" if error else context.get("message", "")
        self.log(f"server: {one_line(str(detail), 200)}")


def _one_line_logger(log: Callable[[str], None]) -> logging.Logger:
    """A logger for the ``websockets`` library that writes its warnings and errors to ``log``
    as one line each, never a traceback."""
    class OneLine(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            error = record.exc_info[1] if record.exc_info else None
            detail = f": {type(error).__name__}: {error}" if error else ""
            log(f"server: {one_line(record.getMessage() + detail, 200)}")

    logger = logging.Logger("referee.host.event_server", logging.WARNING)  # this server's own,
    logger.addHandler(OneLine())  # not kept in logging's registry after the server is gone
    return logger
