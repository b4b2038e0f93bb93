"""The participant's side: ``olympiad-referee connect URL --token T --engine CMD`` at an event,
``olympiad-referee connect URL --pool P --name N --engine CMD`` at the ladder.

The client starts the engine on the participant's machine (as the referee starts engines: under
a pseudo-terminal, below a keeper that ends whatever it starts; :mod:`referee.play`), logs in
(with the token, or the pool, name and password) and relays: each ``command`` line goes to the
engine and its answer goes back as the engine wrote it, with the seconds the engine took (the
server's lag allowance is computed from it). The client knows no game: it checks nothing and
decides nothing.

A refused or dropped connection is tried again, with backoff (from :data:`FIRST_BACKOFF`
doubling to :data:`MOST_BACKOFF` seconds, with jitter, so that the clients of a restarted server
do not all knock at once), a line each time saying why and how long it waits; the engine is
kept, and the server brings it back to the position. A refused login, a connection closed as a
policy violation (replaced by a newer login with the same token, or a broken protocol), or a
server certificate this machine does not accept ends the client with one line and status 2
(trying again cannot help); the line says what to do. For a certificate that is expired or for
another name it gives the date or the names, read from a second, unverified look at the
certificate (:func:`.certificate.peer_certificate`). A server that speaks TLS to a ``ws://``
address, or plain HTTP to a ``wss://`` one, ends it the same way, with the address to use: when
a connection fails, a second, short try the other way (a TLS handshake, or a plain HTTP request
read no further than its answer's first bytes; no secret is sent on either) tells which the
server speaks. ``bye`` ends the client with 0. An engine that dies is reported (``lost``) and
started afresh for the next command, as it is when the server asks (``reset``).

At the ladder, a login with the password is answered with a resume ticket (:mod:`.tickets`),
which the client keeps in memory only (a new one comes every day it stays connected) and
presents in place of the password when it connects again (after a drop, or the server's
restart): the server checks it without the slow password hash. A ticket the server no
longer takes (expired, the account changed, the server's secret rotated) is refused with
``retry = "password"``; the client then logs in with its password at once, without a line,
and says something only if that is refused too.
"""

from __future__ import annotations

import ipaddress
import queue
import random
import socket
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
from .certificate import (Certificate, CertificateError, peer_certificate, unverified_context,
                          utc_text)

FIRST_BACKOFF = 0.5
MOST_BACKOFF = 30.0
CONNECT_SECONDS = 10.0
# How long the second try, the other way, may take to tell TLS from plain HTTP (one round trip).
PROBE_SECONDS = 3.0
# The close code of a server that will not have this connection back (another connection with
# the same token replaced it, or the client broke the protocol): trying again cannot help.
POLICY_VIOLATION = 1008
# OpenSSL's verification errors (X509_V_ERR_*) about a certificate's dates and names; any other
# means the certificate is not trusted here.
NOT_YET_VALID = 9
EXPIRED = 10
HOSTNAME_MISMATCH = 62
IP_ADDRESS_MISMATCH = 64


class ClientError(Exception):
    """The client cannot go on (bad address, refused login); one line."""


class _TicketRefused(Exception):
    """The server no longer takes the client's resume ticket: log in with the password."""


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
    if not (is_loopback(parts.hostname or "") or plain):
        raise ClientError(f"{url} is not encrypted and not on this machine: the token would "
                          f"travel in clear text (use wss://, or --plain to accept that)")
    return None


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine (``localhost`` or a loopback address)."""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def endpoint(url: str) -> tuple[str, int]:
    """The host and port ``url`` names (the scheme's port when it names none)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        raise ClientError(f"{url}: expected a port number from 0 to 65535") from None
    return parts.hostname or "", port or (443 if parts.scheme == "wss" else 80)


def _bracketed(host: str) -> str:
    """``host`` as an address writes it (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host


def speaks_tls(host: str, port: int, seconds: float) -> bool:
    """Whether the server at ``host:port`` completes a TLS handshake within ``seconds`` (its
    certificate unverified: nothing is sent over it)."""
    try:
        with socket.create_connection((host, port), seconds) as plain, \
                unverified_context().wrap_socket(plain, server_hostname=host):
            return True
    except OSError:  # ssl.SSLError and socket.timeout among them
        return False


# The shortest request an HTTP/1.1 server answers (with an error, for want of a Host header).
_HTTP_REQUEST = b"GET / HTTP/1.1\r\n\r\n"


def speaks_http(host: str, port: int, seconds: float) -> bool:
    """Whether the server at ``host:port`` answers a plain HTTP request with an HTTP status
    line within ``seconds``."""
    start = b""
    try:
        with socket.create_connection((host, port), seconds) as connection:
            connection.sendall(_HTTP_REQUEST)
            while len(start) < 5 and (chunk := connection.recv(5 - len(start))):
                start += chunk
    except OSError:
        pass
    return start == b"HTTP/"


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
    """Relays between the server at ``url`` and the engine ``engine``; ``login`` gives the
    ``hello`` message's fields (``token``; or ``pool``, ``name``, ``password`` and perhaps
    ``invitation``); ``log`` takes one line per happening (never a secret)."""

    def __init__(self, url: str, login: dict[str, str], engine: str,
                 ca_file: str | None = None, plain: bool = False,
                 log: Callable[[str], None] = print) -> None:
        self.url = url
        self.login = login
        self.tls = client_tls(url, ca_file, plain)
        self.plain = plain
        self.ca_file = ca_file
        self.host, self.port = endpoint(url)
        self.address = f"{_bracketed(self.host)}:{self.port}"
        self.engine = _Engine(engine)
        self.log = log
        self.ticket: str | None = None  # the resume ticket of the last login, if any
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
                        why = f"the server at {self.address} closed the connection"
                except _TicketRefused:
                    continue  # at once, with the password
                except ssl.SSLCertVerificationError as error:
                    raise ClientError(self._distrust(error)) from None
                except ConnectionRefusedError:
                    why = (f"{self.address} refused the connection (the server is not "
                           f"running there, or not yet)")
                except ConnectionClosed as error:
                    why = f"the connection to {self.address} dropped ({error})"
                except (OSError, InvalidHandshake) as error:  # TimeoutError among them
                    self._end_if_other_scheme()
                    why = f"cannot connect to {self.address}: {str(error) or type(error).__name__}"
                except wire.WireError as error:
                    why = f"cannot connect to {self.address}: {error}"
                except InvalidURI as error:
                    raise ClientError(str(error)) from None
                wait = backoff * random.uniform(0.75, 1.25)
                self.log(f"{one_line(why, 240)}; connecting again in {wait:.1f} s")
                wakeful.sleep(wait)
                backoff = min(backoff * 2, MOST_BACKOFF)
        finally:
            self.engine.close()

    def _end_if_other_scheme(self) -> None:
        """Raise :class:`ClientError` with the address to use when the server speaks TLS to a
        ``ws://`` address, or plain HTTP to a ``wss://`` one (trying again cannot help)."""
        if self.tls is None and speaks_tls(self.host, self.port, PROBE_SECONDS):
            raise ClientError(f"the server at {self.address} speaks TLS: connect to "
                              f"{self._with_scheme('wss')}")
        if self.tls is not None and speaks_http(self.host, self.port, PROBE_SECONDS):
            plain = "" if self.plain or is_loopback(self.host) else \
                " with --plain (the token then travels in clear text)"
            raise ClientError(f"the server at {self.address} does not speak TLS: connect to "
                              f"{self._with_scheme('ws')}{plain}")

    def _with_scheme(self, scheme: str) -> str:
        """The address connected to with ``scheme``, its port written out (the other scheme's
        default port is another)."""
        return urlsplit(self.url)._replace(scheme=scheme, netloc=self.address).geturl()

    def _distrust(self, error: ssl.SSLCertVerificationError) -> str:
        """What is wrong with the server's certificate, refused with ``error``, and what to
        do about it; one line."""
        if error.verify_code in (HOSTNAME_MISMATCH, IP_ADDRESS_MISMATCH):
            return self._wrong_name(self._presented())
        if error.verify_code == EXPIRED:
            presented = self._presented()
            date = f" on {utc_text(presented.not_after)}" if presented else ""
            return (f"the server's certificate ({self.address}) expired{date}: tell the "
                    f"organiser (the server needs a new one)")
        if error.verify_code == NOT_YET_VALID:
            presented = self._presented()
            date = f" until {utc_text(presented.not_before)}" if presented else " yet"
            return (f"the server's certificate ({self.address}) is not valid{date}: check this "
                    f"machine's date and time, else tell the organiser")
        why = error.verify_message
        if self.ca_file:
            return (f"the server's certificate ({self.address}) is not the one in {self.ca_file} "
                    f"({why}): ask the organiser for the server's current cert.pem")
        return (f"the server's certificate ({self.address}) is not trusted by this machine "
                f"({why}): ask the organiser for the server's cert.pem and add --ca cert.pem")

    def _wrong_name(self, presented: Certificate | None) -> str:
        """The line for a certificate made for other names than the one connected to."""
        if presented is None or not presented.names:
            return (f"the server's certificate ({self.address}) is not for {self.host}: ask "
                    f"the organiser which address to connect to")
        parts = urlsplit(self.url)
        netloc = _bracketed(presented.names[0])
        if parts.port is not None:
            netloc += f":{self.port}"
        return (f"the server's certificate is for {', '.join(presented.names)}, not "
                f"{self.host}: connect to {parts._replace(netloc=netloc).geturl()} or ask the "
                f"organiser which address to use")

    def _presented(self) -> Certificate | None:
        """The certificate the server presents, unverified; ``None`` if it cannot be had."""
        try:
            return peer_certificate(self.host, self.port, CONNECT_SECONDS)
        except CertificateError:
            return None

    def _session(self, connection: ClientConnection) -> bool:
        """One connection's life; true when the event said goodbye."""
        connection.send(self._hello())
        reply = wire.decode(connection.recv(timeout=CONNECT_SECONDS))
        if reply["type"] == "refused":
            if self.ticket and reply.get("retry") == "password":
                self.ticket = None
                raise _TicketRefused
            raise ClientError(f"refused by the server: {reply['reason']}")
        if reply["type"] != "welcome":
            raise ClientError(f"the server answered {reply['type']!r} to our hello")
        self.ticket = reply.get("ticket")
        self.log(f"connected to {reply['event']} as {reply['name']}")
        try:
            for text in _messages(connection):
                message = wire.decode(text)
                if message["type"] == "command":
                    self._commands.put((connection, message["id"], message["line"]))
                elif message["type"] == "reset":
                    self.engine.reset()
                elif message["type"] == "ticket":
                    self.ticket = message["ticket"]
                elif message["type"] == "bye":
                    self.log(f"the server says: {message['reason']}")
                    return True
        except ConnectionClosed:
            if connection.close_code != POLICY_VIOLATION:
                raise
        if connection.close_code == POLICY_VIOLATION:
            raise ClientError(f"the server closed the connection: {connection.close_reason}")
        return False

    def _hello(self) -> str:
        """The ``hello`` message: at the ladder (a login with a password), the resume ticket in
        place of the password when the client holds one, and asking for a ticket in any case;
        at an event, the token."""
        fields = dict(self.login)
        if "password" in fields:
            if self.ticket:
                del fields["password"]
                fields.pop("invitation", None)
            fields["ticket"] = self.ticket or ""
        return wire.encode("hello", protocol=wire.PROTOCOL, **fields)

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
