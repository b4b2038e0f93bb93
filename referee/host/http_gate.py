"""The gate of the project's HTTP servers, the play page's (:mod:`.play_page`), the report's
(:mod:`.report_server`) and the ladder's pages (:mod:`.ladder_pages`): every byte a browser or
a stranger sends is read here, within limits and before a deadline, and checked against the
server's table of routes before a handler sees it.

A server declares its routes (:class:`Route`: the method, the query's fields, the JSON body's
fields, each with a reader that bounds and checks it) and its :class:`Limits`. For each
connection the gate reads one request (HTTP/1.0 and 1.1, one request per connection: the
answer closes it) and hands the handler a :class:`Request` holding only the declared fields,
already typed; what fails is answered here with a 4xx status and a one-line reason and the
connection closed:

=====  ============================================================================
400    a malformed request line, header, query, body or field; another ``Host`` or
       ``Origin`` than the server's own (the play page's, against DNS rebinding)
404    a path no route names (a folder, a traversal, an odd byte)
405    a method the path does not take
408    a request not whole within :attr:`Limits.seconds` of the connection's start
       (an idle connection is closed without an answer)
411    a body without ``Content-Length`` (no chunked transfer)
413    a body over :attr:`Limits.body` bytes
414    a request line over :attr:`Limits.request_line` bytes
431    over :attr:`Limits.headers` header lines or :attr:`Limits.header_bytes` bytes
503    over :attr:`Limits.connections` connections at once (answered and closed before
       a thread is started for it)
=====  ============================================================================

An exception in a handler becomes a 500 and one log line, never a traceback: the server and
the game go on. A refusal is logged (as a warning where the server says so, else at debug
level) through a :class:`~.summed_log.SummedLog`: the first of each status from one address,
then their count once an interval, so that a flood of bad requests writes a handful of lines.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qsl, unquote

from ..inbound import Refused, load_json, printable, printable_line
from ..text import one_line, whole
from .summed_log import LOG_INTERVAL, SummedLog, address_key, peer_address


@dataclass(frozen=True)
class Limits:
    """What one request may be, and how many connections a server holds at once."""
    request_line: int = 8192      # bytes of the request line
    headers: int = 64             # header lines
    header_bytes: int = 16384     # bytes of all header lines together
    body: int = 4096              # bytes of a body
    seconds: float = 10.0         # from the connection's start until the request is whole
    connections: int = 64         # at once, each served by a thread
    fields: int = 64              # fields in a query string


class HttpRefused(Refused):
    """A request the gate does not let through: the status to answer and a one-line reason."""

    def __init__(self, status: HTTPStatus, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class _Hangup(Exception):
    """The connection ended, or stayed idle, before a request began: nothing to answer."""


# --- the fields of a query or a body ---------------------------------------------------------

Reader = Callable[[Any], Any]

_TOKEN = re.compile(r"[A-Za-z0-9_-]*")
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_FIELD_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")
_HEADER_NAME = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_HEADER_VALUE = re.compile(rb"[\t\x20-\x7e\x80-\xff]*")
_TARGET = re.compile(rb"/[\x21-\x7e]*")
_METHOD = re.compile(rb"[A-Z]{1,16}")


def number(low: int, high: int) -> Reader:
    """A reader of a whole number from ``low`` to ``high``: a JSON integer or ASCII digits (a
    sign allowed), its length checked before it is converted."""
    longest = max(len(str(low)), len(str(high)))

    def read(value: Any) -> int:
        if isinstance(value, str) and len(value) <= longest:
            try:
                value = whole(value)
            except ValueError:
                pass
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise Refused(f"{str(value)[:20]!r} is not a whole number from {low} to {high}")
        return value
    return read


def flag(value: Any) -> bool:
    """A yes-or-no field: ``1`` or ``0`` (``true`` or ``false`` in JSON)."""
    if value in ("0", "1") or isinstance(value, bool):
        return value in ("1", True)
    raise Refused(f"{str(value)[:20]!r} is not 0 or 1")


def plain_text(most: int, pattern: re.Pattern[str] | None = None) -> Reader:
    """A reader of a string of at most ``most`` characters, one printable line
    (:func:`~referee.inbound.printable_line`: no control, separator or bidirectional
    character), matching ``pattern`` when one is given."""
    def read(value: Any) -> str:
        if not isinstance(value, str) or len(value) > most:
            raise Refused(f"not a text of at most {most} characters")
        if not printable_line(value) or (pattern and not pattern.fullmatch(value)):
            raise Refused(f"{value[:20]!r} holds characters it may not")
        return value
    return read


token = plain_text(64, _TOKEN)
"""A reader of a token the server handed out: ASCII letters, digits, ``-`` and ``_``."""


@dataclass(frozen=True)
class Field:
    """One field of a query string or a JSON body: its reader, its value when absent, and
    whether it may be given several times (then a list of at most ``most``)."""
    read: Reader
    default: Any = None
    repeated: bool = False
    most: int = 16


@dataclass(frozen=True)
class Route:
    """What a path takes: its method, the fields of its query string, the fields of its JSON
    object body (``None``: no body), and whether it is a folder of files (the path then names
    a plain file in it: ``Request.name``). A folder's name is one segment matching ``names``
    (a plain file name unless told otherwise), or up to ``levels`` of them joined by ``/``
    (the ladder's ``/pool/NAME/DAY.sgf``); a segment ``.`` or ``..`` never matches."""
    method: str
    query: dict[str, Field] = field(default_factory=dict)
    body: dict[str, Field] | None = None
    folder: bool = False
    levels: int = 1
    names: re.Pattern[str] = _FILE_NAME


@dataclass(frozen=True)
class Request:
    """A request through the gate: only what its route declares, read and checked."""
    method: str
    path: str
    query: dict[str, Any]
    body: dict[str, Any]
    name: str = ""  # the file a folder route names


# --- reading one request ---------------------------------------------------------------------

class _Arrival:
    """The bytes of one connection, read by lines and by counts before one deadline."""

    def __init__(self, connection: socket.socket, seconds: float) -> None:
        self._connection = connection
        self._deadline = time.monotonic() + seconds
        self._buffer = bytearray()
        self.started = False  # whether any byte has come

    def line(self, most: int, too_long: HttpRefused) -> bytes:
        """The next line (without its line end) of at most ``most`` bytes."""
        while True:
            end = self._buffer.find(b"\n", 0, most + 2)
            if end >= 0:
                line = bytes(self._buffer[:end]).removesuffix(b"\r")
                del self._buffer[:end + 1]
                return line
            if len(self._buffer) > most + 1:
                raise too_long
            self._receive()

    def exactly(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._receive()
        data = bytes(self._buffer[:count])
        del self._buffer[:count]
        return data

    def _receive(self) -> None:
        left = self._deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            self._connection.settimeout(left)
            chunk = self._connection.recv(65536)
        except TimeoutError:
            if not self.started:
                raise _Hangup() from None
            raise HttpRefused(HTTPStatus.REQUEST_TIMEOUT, "the request was not whole in time")
        except OSError:
            raise _Hangup() from None
        if not chunk:
            if not self.started:
                raise _Hangup()
            raise HttpRefused(HTTPStatus.BAD_REQUEST, "the request was cut off")
        self.started = True
        self._buffer += chunk


@dataclass(frozen=True)
class Gate:
    """One server's routes (by path; a folder route's path ends with ``/``) and limits, and
    the ``Host`` values it answers to (``None``: any; the ``Origin`` of a request, when it has
    one, must then be one of them too)."""
    routes: dict[str, Route]
    limits: Limits = Limits()
    hosts: Callable[[], set[str]] | None = None

    def read(self, arrival: _Arrival) -> Request:
        """The request arriving, through the gate; raises :class:`HttpRefused`."""
        method, target = self._request_line(arrival)
        headers = self._headers(arrival)
        self._check_host(headers)
        path, _, query = target.partition("?")
        path = _decoded_path(path)
        route, name = self._route(path, method)
        body = self._body(arrival, headers, route)
        return Request(method, path, self._fields(route.query, _query(query, self.limits)),
                       self._fields(route.body or {}, body), name)

    def _request_line(self, arrival: _Arrival) -> tuple[str, str]:
        line = arrival.line(self.limits.request_line, HttpRefused(
            HTTPStatus.REQUEST_URI_TOO_LONG,
            f"a request line over {self.limits.request_line} bytes"))
        parts = line.split(b" ")
        if len(parts) != 3 or not _METHOD.fullmatch(parts[0]) or not _TARGET.fullmatch(parts[1]):
            raise HttpRefused(HTTPStatus.BAD_REQUEST,
                              "a malformed request line (expected METHOD /path HTTP/1.1)")
        if parts[2] not in (b"HTTP/1.0", b"HTTP/1.1"):
            raise HttpRefused(HTTPStatus.HTTP_VERSION_NOT_SUPPORTED,
                              "an HTTP version other than 1.0 or 1.1")
        return parts[0].decode(), parts[1].decode()

    def _headers(self, arrival: _Arrival) -> dict[str, str]:
        limits = self.limits
        too_many = HttpRefused(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                               f"headers over {limits.headers} lines or {limits.header_bytes} "
                               f"bytes")
        headers: dict[str, str] = {}
        size = 0
        while line := arrival.line(limits.header_bytes - size, too_many):
            size += len(line) + 2
            if len(headers) >= limits.headers or size > limits.header_bytes:
                raise too_many
            name, colon, value = line.partition(b":")
            if not colon or not _HEADER_NAME.fullmatch(name) or not _HEADER_VALUE.fullmatch(value):
                raise HttpRefused(HTTPStatus.BAD_REQUEST, "a malformed header line")
            key = name.decode().lower()
            if key in headers:
                raise HttpRefused(HTTPStatus.BAD_REQUEST, f"the header {key} twice")
            headers[key] = value.decode("latin-1").strip(" \t")
        return headers

    def _check_host(self, headers: dict[str, str]) -> None:
        if self.hosts is None:
            return
        hosts = self.hosts()
        host, origin = headers.get("host", ""), headers.get("origin")
        if host not in hosts:
            raise HttpRefused(HTTPStatus.BAD_REQUEST, f"a request for host {host[:80]!r}")
        if origin is not None and origin.removeprefix("http://") not in hosts:
            raise HttpRefused(HTTPStatus.BAD_REQUEST,
                              f"a request from another site ({origin[:80]!r})")

    def _route(self, path: str, method: str) -> tuple[Route, str]:
        route, name = self.routes.get(path), ""
        if route is None:
            route, name = self._folder_route(path)
        if route is None or (route.folder and not name):
            raise HttpRefused(HTTPStatus.NOT_FOUND, f"no such page: {path[:80]!r}")
        if method != route.method:
            raise HttpRefused(HTTPStatus.METHOD_NOT_ALLOWED,
                              f"{path} takes {route.method}, not {method}")
        return route, name

    def _folder_route(self, path: str) -> tuple[Route | None, str]:
        """The folder route whose path begins ``path`` and the name after it (its segments
        each matching the route's ``names``, no more than its ``levels``), or ``None``."""
        folder, segments = path, []
        deepest = max((route.levels for route in self.routes.values() if route.folder), default=0)
        while "/" in folder and len(segments) < deepest:
            folder, _, segment = folder.rpartition("/")
            segments.insert(0, segment)
            route = self.routes.get(folder + "/")
            if route is not None and route.folder and len(segments) <= route.levels and all(
                    route.names.fullmatch(part) and part not in (".", "..")
                    for part in segments):
                return route, "/".join(segments)
        return None, ""

    def _body(self, arrival: _Arrival, headers: dict[str, str], route: Route) -> dict[str, Any]:
        if "transfer-encoding" in headers:
            raise HttpRefused(HTTPStatus.LENGTH_REQUIRED,
                              "a body sent without Content-Length (chunked)")
        length = headers.get("content-length")
        if length is None:
            if route.body is not None:
                raise HttpRefused(HTTPStatus.LENGTH_REQUIRED, "a body without Content-Length")
            return {}
        most = self.limits.body if route.body is not None else 0
        if not re.fullmatch(r"[0-9]{1,10}", length):
            raise HttpRefused(HTTPStatus.BAD_REQUEST, f"Content-Length {length[:20]!r}")
        if int(length) > most:
            raise HttpRefused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                              f"a body of {length} bytes (at most {most} here)")
        data = arrival.exactly(int(length))
        if route.body is None:
            return {}
        try:
            body = load_json(data or b"{}", self.limits.body, what="the body")
        except Refused as refused:
            raise HttpRefused(HTTPStatus.BAD_REQUEST, str(refused)) from None
        if not isinstance(body, dict):
            raise HttpRefused(HTTPStatus.BAD_REQUEST, "a body that is not a JSON object")
        return {key: [value] for key, value in body.items()}

    @staticmethod
    def _fields(fields: dict[str, Field], given: dict[str, list[Any]]) -> dict[str, Any]:
        """The declared ``fields`` read from ``given`` (each name's values); others dropped."""
        read = {}
        for name, spec in fields.items():
            values = given.get(name)
            try:
                if values is None:
                    read[name] = [] if spec.repeated else spec.default
                elif spec.repeated:
                    if len(values) > spec.most:
                        raise Refused(f"given over {spec.most} times")
                    read[name] = [spec.read(value) for value in values]
                elif len(values) > 1:
                    raise Refused("given twice")
                else:
                    read[name] = spec.read(values[0])
            except Refused as refused:
                raise HttpRefused(HTTPStatus.BAD_REQUEST, f"{name}: {refused}") from None
        return read


def _decoded_path(path: str) -> str:
    """The path with its %-escapes decoded (strict UTF-8, nothing unprintable)."""
    try:
        decoded = unquote(path, errors="strict")
    except UnicodeDecodeError:
        raise HttpRefused(HTTPStatus.NOT_FOUND, "a path that is not UTF-8") from None
    if not printable_line(decoded):
        raise HttpRefused(HTTPStatus.NOT_FOUND, "a path holding unprintable characters")
    return decoded


def _query(query: str, limits: Limits) -> dict[str, list[str]]:
    """The query string's fields by name (strict UTF-8, at most ``limits.fields``)."""
    try:
        pairs = parse_qsl(query, keep_blank_values=True, errors="strict",
                          max_num_fields=limits.fields)
    except ValueError as error:  # a bad escape of UTF-8, or too many fields
        raise HttpRefused(HTTPStatus.BAD_REQUEST, f"a malformed query: {one_line(str(error))}"
                          ) from None
    fields: dict[str, list[str]] = {}
    for name, value in pairs:
        if _FIELD_NAME.fullmatch(name):
            fields.setdefault(name, []).append(value)
    return fields


# --- the handler and the server --------------------------------------------------------------

class GatedHandler(BaseHTTPRequestHandler):
    """A request handler behind a :class:`Gate`: subclasses set ``gate`` and ``logger`` and
    answer a :class:`Request` in :meth:`answer` (with :meth:`send` or :meth:`send_json`).
    ``log_refusals``: log refusals as warnings (else at debug level, with handler failures
    warnings still)."""

    server: GatedServer
    gate: Gate
    logger: logging.Logger
    log_refusals = False

    def handle_one_request(self) -> None:
        self.close_connection = True
        self.requestline, self._answered = "", False
        arrival = _Arrival(self.connection, self.gate.limits.seconds)
        try:
            request = self.gate.read(arrival)
        except _Hangup:
            return
        except HttpRefused as refused:
            self.refuse(refused.status, str(refused))
            return
        self.command, self.path, self.request_version = request.method, request.path, "HTTP/1.0"
        self.connection.settimeout(self.gate.limits.seconds)  # for the answer's writing
        try:
            self.answer(request)
        except Exception as error:  # a bug, not the sender's doing: one line, and a 500
            self.logger.warning("%s %s failed: %s: %s", request.method, printable(request.path),
                             type(error).__name__, one_line(str(error)))
            if not self._answered:
                self.send_json({"error": "the server failed (logged)"},
                               HTTPStatus.INTERNAL_SERVER_ERROR)

    def answer(self, request: Request) -> None:
        raise NotImplementedError

    def refuse(self, status: HTTPStatus, reason: str) -> None:
        """Answer ``status`` with ``reason`` (one line), logged summed with the repeats of
        ``status`` from the same address."""
        reason = one_line(printable(reason))
        address = peer_address(self.client_address)
        self.server.refusals.write(address_key(address), f"{status.value} {status.phrase}",
                                   f"refused a request from {address}: {reason} "
                                   f"({status.value})")
        self.send_json({"error": reason}, status)

    def send_json(self, data: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        """Answer ``data`` as JSON, with ``<``, ``>`` and ``&`` escaped (``\\u003c``...): the
        same JSON, but no markup even to a browser that would sniff it as a page."""
        text = json.dumps(data, ensure_ascii=False)
        for char in "<>&":
            text = text.replace(char, f"\\u{ord(char):04x}")
        self.send(status, text.encode(), "application/json; charset=utf-8")

    def send(self, status: HTTPStatus, body: bytes, kind: str,
             headers: dict[str, str] | None = None) -> None:
        """Answer ``status`` with ``body`` of media type ``kind``; a sender that went away
        meanwhile is no error."""
        self._answered = True
        self.request_version = "HTTP/1.0"
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)
        except OSError:  # reset, broken pipe, or a reader too slow (a timeout)
            pass

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        self.logger.debug(format, *args)


class GatedServer(ThreadingHTTPServer):
    """A threading HTTP server that serves at most ``limits.connections`` connections at once
    (more are answered 503 and closed at once, no thread started) and logs a failure as one
    line, never a traceback; its refusals are summed over ``log_interval`` seconds. It listens
    on IPv6 when the address given is an IPv6 one (``::1``; ``::`` is every IPv6 interface and
    no IPv4 one, as for the event's server), else on IPv4 (a name then stands for its IPv4
    address)."""

    daemon_threads = True
    request_queue_size = 128  # connections the kernel holds until they are accepted

    def __init__(self, address: tuple[str, int], handler: type[GatedHandler],
                 log_interval: float = LOG_INTERVAL) -> None:
        self._slots = threading.BoundedSemaphore(handler.gate.limits.connections)
        self._log = handler.logger
        self._crowded = False
        level = logging.WARNING if handler.log_refusals else logging.DEBUG
        self.refusals = SummedLog(lambda line: self._log.log(level, "%s", line),
                                  "refused {count} more requests from {key}: {kind}",
                                  log_interval)
        self.address_family = _family(address[0])  # read when the socket is made, next
        super().__init__(address, handler)

    def server_bind(self) -> None:
        """Bind, ``::`` to IPv6 alone whatever the system's default (as asyncio binds it)."""
        if self.address_family == socket.AF_INET6:
            self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        super().server_bind()

    @property
    def origin(self) -> str:
        """``http://HOST:PORT``, where a browser on this machine finds the server (a wildcard
        address stands for the loopback address of its family)."""
        host, port = self.server_address[:2]
        shown = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
        return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"

    def service_actions(self) -> None:
        """Write the sums of refusals whose interval is over (called by ``serve_forever`` at
        each turn of its loop, at least every poll interval)."""
        super().service_actions()
        self.refusals.tidy()

    def server_close(self) -> None:
        """Close the listening socket, and write the counts of refusals not yet written."""
        super().server_close()
        self.refusals.flush()

    def process_request(self, request: socket.socket, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            self._turn_away(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: socket.socket, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._crowded = False
            self._slots.release()

    def _turn_away(self, connection: socket.socket) -> None:
        """Answer 503 to a connection over the limit, without waiting for it, and close it."""
        if not self._crowded:
            self._crowded = True
            self._log.warning("over %d connections at once: turning new ones away (503)",
                              self.RequestHandlerClass.gate.limits.connections)
        body = b'{"error": "too many connections: try again"}'
        try:
            connection.setblocking(False)
            connection.send(b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json"
                            b"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                            % (len(body), body))
        except OSError:
            pass
        self.shutdown_request(connection)

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        self._log.warning("a connection failed: %s: %s", type(error).__name__,
                          one_line(str(error)))


def _family(host: str) -> socket.AddressFamily:
    """IPv6 for an IPv6 address (``::1``, ``::``), else IPv4."""
    try:
        return socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:  # a name, or "" for every IPv4 interface
        return socket.AF_INET
