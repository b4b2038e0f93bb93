"""The participant's side: ``olympiad-referee connect URL --token T --engine CMD``.

The client starts the engine on the participant's machine (as the referee starts engines:
under a pseudo-terminal, below a keeper that ends whatever it starts; :mod:`referee.play`),
logs in with the token and relays: each ``command`` line goes to the engine and its answer goes
back as the engine wrote it, with the seconds the engine took (the server's lag allowance is
computed from it). The client knows no game: it checks nothing and decides nothing.

A dropped connection is tried again, with backoff (from :data:`FIRST_BACKOFF` doubling to
:data:`MOST_BACKOFF` seconds, with jitter, so that the clients of a restarted server do not all
knock at once); the engine is kept, and the server brings it back to the position. A refused
login, or a connection closed as a policy violation (replaced by a newer login with the same
token, or a broken protocol), ends the client with one line and status 2 (trying again cannot
help); ``bye`` ends it with 0. An engine that dies is reported (``lost``) and started afresh for the
next command, as it is when the server asks (``reset``).
"""

from __future__ import annotations

import ipaddress
import queue
import random
import ssl
import threading
import time
from typing import Callable, Iterator
from urllib.parse import urlsplit

from websockets.exceptions import (ConnectionClosed, ConnectionClosedOK, InvalidHandshake,
                                   InvalidURI)
from websockets.sync.client import ClientConnection, connect

from .. import wakeful
from ..play.channel import ChannelError, EngineChannel
from ..text import one_line
from . import wire

FIRST_BACKOFF = 0.5
MOST_BACKOFF = 30.0
CONNECT_SECONDS = 10.0
# The close code of a server that will not have this connection back (another connection with
# the same token replaced it, or the client broke the protocol): trying again cannot help.
POLICY_VIOLATION = 1008


class ClientError(Exception):
    """The client cannot go on (bad address, refused login); one line."""


def client_tls(url: str, ca_file: str | None, plain: bool) -> ssl.SSLContext | None:
    """The TLS context for ``url`` (``wss://``): the system's authorities, or ``ca_file`` (the
    organiser's own certificate). ``ws://`` only to a loopback address or with ``plain``."""
    parts = urlsplit(url)
    if parts.scheme == "wss":
        try:
            return ssl.create_default_context(cafile=ca_file)
        except (OSError, ssl.SSLError) as error:
            raise ClientError(f"cannot read the certificate {ca_file}: "
                              f"{getattr(error, 'strerror', None) or error}") from None
    if parts.scheme != "ws":
        raise ClientError(f"{url}: expected a wss:// (or ws://) address")
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not (loopback or plain):
        raise ClientError(f"{url} is not encrypted and not on this machine: the token would "
                          f"travel in clear text (use wss://, or --plain to accept that)")
    return None


class _Engine:
    """The participant's engine, started on first use and again after it died or a reset.

    Commands run on the relay thread; a reset or the end of the client comes from the thread
    reading the connection and may find a command in progress: the engine is then killed
    under it (its keeper ends whatever it started), and the command fails as a lost engine."""

    def __init__(self, command: str) -> None:
        self.command = command
        self._channel: EngineChannel | None = None
        self._lock = threading.Lock()

    def answer(self, line: str) -> tuple[str | None, float, str]:
        """``line``'s answer as the engine wrote it (``None`` when the engine failed), the
        seconds it took, and why it failed."""
        with self._lock:
            channel = self._channel
        try:
            if channel is None:
                channel = EngineChannel(self.command)
                with self._lock:
                    self._channel = channel
            start = time.monotonic()
            raw = channel.send_raw(line)
            return raw.decode("utf-8", "replace"), time.monotonic() - start, ""
        except ChannelError as error:
            self.reset()
            return None, 0.0, one_line(str(error), 200)
        except Exception as error:  # killed under the command by a reset  # noqa: BLE001
            self.reset()
            return None, 0.0, f"the engine was stopped ({type(error).__name__})"

    def reset(self) -> None:
        """End the engine now; the next command starts a fresh one."""
        with self._lock:
            channel, self._channel = self._channel, None
        if channel is not None:
            _quietly(channel.kill)

    def close(self) -> None:
        """The client is done: the engine and whatever it started are stopped."""
        with self._lock:
            channel, self._channel = self._channel, None
        if channel is not None:
            _quietly(channel.kill)


def _quietly(action: Callable[[], None]) -> None:
    """Run ``action``, ignoring the errors of a process that another thread also waits for."""
    try:
        action()
    except Exception:  # noqa: BLE001 - the engine is gone either way
        pass


class Client:
    """Relays between the event at ``url`` and the engine ``engine``; ``log`` takes one line
    per happening (never the token)."""

    def __init__(self, url: str, token: str, engine: str, ca_file: str | None = None,
                 plain: bool = False, log: Callable[[str], None] = print) -> None:
        self.url = url
        self.token = token
        self.tls = client_tls(url, ca_file, plain)
        self.engine = _Engine(engine)
        self.log = log
        self._commands: queue.Queue = queue.Queue()
        self._worker = threading.Thread(target=self._work, daemon=True, name="engine relay")
        self._worker.start()

    def run(self) -> int:
        """Serve the event until it says goodbye (0) or refuses us (raises ClientError)."""
        backoff = FIRST_BACKOFF
        try:
            while True:
                try:
                    with connect(self.url, ssl=self.tls, compression=None,
                                 max_size=wire.MAX_MESSAGE_BYTES,
                                 open_timeout=CONNECT_SECONDS) as connection:
                        backoff = FIRST_BACKOFF
                        if self._session(connection):
                            return 0
                        why = "the connection closed"
                except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError,
                        wire.WireError) as error:
                    why = one_line(str(error) or type(error).__name__, 200)
                except InvalidURI as error:
                    raise ClientError(str(error)) from None
                wait = backoff * random.uniform(0.75, 1.25)
                self.log(f"{why}; connecting again in {wait:.1f} s")
                wakeful.sleep(wait)
                backoff = min(backoff * 2, MOST_BACKOFF)
        finally:
            self.engine.close()

    def _session(self, connection: ClientConnection) -> bool:
        """One connection's life; true when the event said goodbye."""
        connection.send(wire.encode("hello", token=self.token, protocol=wire.PROTOCOL))
        reply = wire.decode(connection.recv(timeout=CONNECT_SECONDS))
        if reply["type"] == "refused":
            raise ClientError(f"refused by the event: {reply['reason']}")
        if reply["type"] != "welcome":
            raise ClientError(f"the server answered {reply['type']!r} to our hello")
        self.log(f"connected to {reply['event']} as {reply['name']}")
        try:
            for text in _messages(connection):
                message = wire.decode(text)
                if message["type"] == "command":
                    self._commands.put((connection, message["id"], message["line"]))
                elif message["type"] == "reset":
                    self.engine.reset()
                elif message["type"] == "bye":
                    self.log(f"the server says: {message['reason']}")
                    return True
        except ConnectionClosed:
            if connection.close_code != POLICY_VIOLATION:
                raise
        if connection.close_code == POLICY_VIOLATION:
            raise ClientError(f"the event closed the connection: {connection.close_reason}")
        return False

    def _work(self) -> None:
        """Run the commands in order on the engine, sending each answer back."""
        while True:
            connection, number, line = self._commands.get()
            text, seconds, why = self.engine.answer(line)
            reply = (wire.encode("answer", id=number, text=text, think=round(seconds, 6))
                     if text is not None else wire.encode("lost", id=number, reason=why))
            if text is None:
                self.log(f"the engine failed ({why}); it is started afresh")
            try:
                connection.send(reply)
            except ConnectionClosed:
                pass


def _messages(connection: ClientConnection) -> Iterator[str]:
    """The connection's messages until it closes normally, waited for a moment at a time
    (:mod:`referee.wakeful`: Ctrl-C counts even when no message comes)."""
    while True:
        try:
            yield connection.recv(timeout=wakeful.WAKE_SECONDS)
        except TimeoutError:
            continue
        except ConnectionClosedOK:
            return
