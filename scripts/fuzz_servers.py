"""Fuzz the project's servers: N generated and mutated messages sent over 127.0.0.1 to real
servers, counting the server deaths, the tracebacks on their standard error and the messages
left without an answer or a clean close (all expected 0).

    nice python3 scripts/fuzz_servers.py [--messages 100000] [--target play --target report]
        [--seed 1]

A target is a function in :data:`TARGETS` that starts its server and yields a :class:`Server`:
where it listens, the normal requests to mutate, its standard error, and the checks that it
still serves a normal request and that the game (or the run) goes on. ``play`` is
``olympiad-referee play`` with the random engine behind it and a game of 8x8 Domineering in
progress, the person to move (their token held here, never sent in a fuzzed message);
``report`` is ``olympiad-referee serve`` on the folder of a real two-game match; ``event`` is
``olympiad-referee event``, a ladder in which two honest participants (real ``connect`` clients)
play on while the fuzzer sends WebSocket messages at every stage of a connection (see
:class:`EventFuzzer`); ``ladder`` is the pages of ``olympiad-referee ladder serve`` over HTTP,
while two honest participants play on. A new target is one more function with
``@target("name")``.

A message is one of: a normal request mutated (bytes flipped, odd bytes inserted, slices cut
or repeated, cut off); a request built from hostile parts (methods, traversing and odd paths,
query fields with huge, negative and foreign digits, many or long or duplicated headers, wrong
``Content-Length``, chunked transfer, JSON nested deep, with lone surrogates, huge numbers or
wrong types); raw bytes. Each goes on a connection of its own, whose sending side is then
closed, so that a cut-off request is answered at once. :func:`message` takes any
``random.Random``: ``tests/report/test_http_gate.py`` drives it from Hypothesis.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ContextManager, Iterator
from urllib.parse import quote

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect as websocket

REPO = Path(__file__).resolve().parents[1]
PYTHON = shlex.quote(sys.executable)
RANDOM_ENGINE = f"{PYTHON} -m protocol.cli --algorithm random --seed 7"
LOOPBACK = "127.0.0.1"
# Seconds to wait for an answer: past the servers' own 10 s (a long poll, a request's deadline).
ANSWER_WAIT = 15.0
# Seconds between two checks that a server still serves a normal request.
CHECK_EVERY = 2.0


@dataclass
class Server:
    """A server under fuzzing, as a target yields it."""
    port: int
    host: str                         # the Host header of a normal request
    process: subprocess.Popen
    normal: list[bytes]               # normal requests, to mutate
    check: Callable[[], str | None]   # a normal request's problem, or None
    goes_on: Callable[[], str | None]  # the game's (or run's) problem, or None
    output: list[str] = field(default_factory=list)  # its standard error and output
    # Sends one fuzzed message and says how it was answered; None: an HTTP request from
    # :func:`message`, answered as :func:`send` says.
    send_one: Callable[[random.Random], str] | None = None

    def tracebacks(self) -> int:
        return sum("Traceback" in line for line in self.output)


TARGETS: dict[str, Callable[[Path], ContextManager[Server]]] = {}


def target(name: str):
    """Register a target: a generator function of a scratch folder that yields a Server."""
    def register(function):
        TARGETS[name] = contextmanager(function)
        return function
    return register


# --- talking to a server ---------------------------------------------------------------------

def send(port: int, message: bytes, wait: float = ANSWER_WAIT) -> str:
    """Send ``message`` on a connection of its own, close the sending side, and say how the
    server answered: its status (``"404"``), ``"closed"`` (no byte, a clean close),
    ``"reset"``, ``"garbled"`` (bytes that are no HTTP answer), ``"silent"`` or ``"refused"``
    (no connection)."""
    try:
        connection = socket.create_connection((LOOPBACK, port), timeout=wait)
    except OSError:
        return "refused"
    with connection:
        answer = b""
        try:
            connection.sendall(message)
            connection.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server may answer and close before it has read everything
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except TimeoutError:
            return "silent"
        except ConnectionResetError:
            if not answer:
                return "reset"
    if not answer:
        return "closed"
    found = re.match(rb"HTTP/1\.[01] ([1-5][0-9][0-9]) [^\r\n]*\r\n", answer)
    return found.group(1).decode() if found else "garbled"


def request(port: int, host: str, method: str, path: str, body: dict | None = None
            ) -> tuple[int, dict | bytes]:
    """A normal request; its status and its JSON (or bytes)."""
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=ANSWER_WAIT)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, data, {"Host": host})
        answer = connection.getresponse()
        content = answer.read()
        if answer.getheader("Content-Type", "").startswith("application/json"):
            return answer.status, json.loads(content)
        return answer.status, content
    finally:
        connection.close()


def normal_request(method: str, path: str, host: str, body: bytes = b"") -> bytes:
    length = f"Content-Length: {len(body)}\r\n" if method == "POST" else ""
    return (f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{length}"
            f"Content-Type: application/json\r\n\r\n").encode() + body


@contextmanager
def started(command: list[str], address_pattern: str, from_stdout: bool = False,
            group: Callable[[re.Match], object] = lambda found: int(found.group(1))
            ) -> Iterator[tuple[subprocess.Popen, object, list[str]]]:
    """Run ``command`` (a server), read where it listens from its first line (matching
    ``address_pattern``; ``group`` makes the match its port, or its address) and collect the
    lines it writes; Ctrl-C ends it, or a kill."""
    process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               errors="replace", start_new_session=True)
    output: list[str] = []
    readers: list[threading.Thread] = []
    try:
        first = (process.stdout if from_stdout else process.stderr).readline()
        found = re.search(address_pattern, first)
        if not found:
            raise RuntimeError(f"{command[3]} did not start: {first}{process.stderr.read()}")
        readers = [threading.Thread(target=output.extend, args=(stream,), daemon=True)
                   for stream in (process.stdout, process.stderr)]
        for reader in readers:
            reader.start()
        yield process, group(found), output
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for reader in readers:
            reader.join(5)  # what it wrote as it ended counts too


# --- the targets -----------------------------------------------------------------------------

@target("play")
def play(folder: Path) -> Iterator[Server]:
    """``olympiad-referee play``: a game of 8x8 Domineering against the random engine, the
    person (black) to move."""
    from engine import find_game
    command = [sys.executable, "-m", "referee", "play", "--game", "domineering", "--boardsize",
               "8", "--engine", RANDOM_ENGINE, "--no-browser", "--out", str(folder / "play"),
               "--time", "86400"]
    with started(command, r"play at http://127\.0\.0\.1:(\d+)/") as (process, port, output):
        host = f"{LOOPBACK}:{port}"
        # The person's token; a fuzzed POST /claim may take the seat (the page opened last
        # holds it), and then the person takes it back, as a reload of their page would.
        seat = {"token": ""}

        def claim() -> None:
            seat["token"] = request(port, host, "POST", "/claim", {})[1]["token"]

        def state() -> dict:
            status, answer = request(port, host, "GET", f"/state?token={seat['token']}")
            if status != 200:
                raise RuntimeError(f"GET /state answered {status}")
            return answer

        def check() -> str | None:
            found = state()
            if not found["holder"]:
                claim()
                found = state()
            return None if found["holder"] and found["ended"] is None else f"state: {found}"

        def goes_on() -> str | None:
            """A legal move is taken and the engine answers it."""
            found = state()
            ply = found["ply"]
            position = find_game("domineering")({}, (8, 8)).position_after(found["moves"])
            move = position.legal_move_texts()[0]
            status, answer = request(port, host, "POST", "/move",
                                     {"token": seat["token"], "ply": ply, "move": move})
            if status != 200:
                return f"the move {move} was refused: {answer}"
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if state()["ply"] >= ply + 2:
                    return None
                time.sleep(0.05)
            return "the engine did not answer the move"

        def keep_the_seat(closing: threading.Event) -> None:
            """Ask for the state now and then, as the open page does (else the seat is
            given up after a while and the person resigns)."""
            while not closing.wait(5):
                _problem(check)

        claim()
        deadline = time.monotonic() + 20
        while not state()["your_turn"] and time.monotonic() < deadline:
            time.sleep(0.05)
        closing = threading.Event()
        threading.Thread(target=keep_the_seat, args=(closing,), daemon=True).start()
        fake = b'{"token": "AAAAAAAAAAAAAAAAAAAAAA", "ply": 0, "move": "a1-a2"}'
        normal = [normal_request("GET", path, host) for path in (
            "/", "/state?since=0&token=x&flipped=1", "/choices?ply=0&cell=a1&cell=a2",
            "/why?ply=0&cell=a1&cell=b1&flipped=0", "/record", "/state")]
        normal += [normal_request("POST", path, host, fake) for path in (
            "/move", "/resign", "/takeback", "/new", "/leave", "/claim")]
        try:
            yield Server(port, host, process, normal, check, goes_on, output)
        finally:
            closing.set()


@target("report")
def report(folder: Path) -> Iterator[Server]:
    """``olympiad-referee serve`` on the folder of a two-game match of 4x4 Clobber."""
    out = folder / "run"
    subprocess.run([sys.executable, "-m", "referee", "match", "--game", "clobber",
                    "--boardsize", "4", "--games", "2", "--time", "20", "--engine",
                    RANDOM_ENGINE, "--engine", RANDOM_ENGINE, "--out", str(out)],
                   cwd=REPO, check=True, capture_output=True)
    asset = sorted((out / "report-assets").iterdir())[0].name
    command = [sys.executable, "-m", "referee", "serve", str(out), "--port", "0"]
    with started(command, r"serving http://127\.0\.0\.1:(\d+)/", from_stdout=True) as (
            process, port, output):
        host = f"{LOOPBACK}:{port}"

        def check() -> str | None:
            status, page = request(port, host, "GET", "/report.html")
            return None if status == 200 and b"<html" in page else f"report.html: {status}"

        def goes_on() -> str | None:
            status, live = request(port, host, "GET", "/live.json")
            return check() or (None if status == 200 and "version" in live
                               else f"live.json: {status}")

        normal = [normal_request("GET", path, host) for path in (
            "/", "/report.html", "/live.json", f"/report-assets/{asset}", "/report-assets/")]
        yield Server(port, host, process, normal, check, goes_on, output)


@target("ladder")
def ladder(folder: Path) -> Iterator[Server]:
    """The pages of ``olympiad-referee ladder serve``: a pool of 5x5 Breakthrough in which Alpha
    and Beta (real ``connect`` clients with the random engine) play on, its pages fuzzed over
    HTTP (the logins are the event target's WebSocket server, fuzzed there)."""
    folder.mkdir(parents=True)
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        pages = probe.getsockname()[1]
    lines = ['name = "fuzz"', 'database = "ladder.db"', "grace = 1",
             "[listen]", 'host = "127.0.0.1"', "port = 0",
             "[pages]", 'host = "127.0.0.1"', f"port = {pages}",
             "[[pool]]", 'name = "bt"', 'game = "breakthrough"', 'boardsize = "5"', "time = 20"]
    (folder / "ladder.toml").write_text("\n".join(lines) + "\n")
    command = [sys.executable, "-m", "referee", "ladder", "serve", str(folder / "ladder.toml")]
    with started(command, r"participants connect to (ws://127\.0\.0\.1:\d+/)",
                 from_stdout=True, group=lambda found: found.group(1)) as (process, url, output):
        host = f"{LOOPBACK}:{pages}"
        honest = [subprocess.Popen(
            [sys.executable, "-m", "referee", "connect", url, "--pool", "bt", "--name", name,
             "--engine", RANDOM_ENGINE], cwd=REPO, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True,
            env={**os.environ, "OLYMPIAD_PASSWORD": f"password of {name}"})
            for name in ("Alpha", "Beta")]

        def games() -> int:
            status, table = request(pages, host, "GET", "/api/pool/bt")
            return sum(entry["games"] for entry in table["standings"]) // 2 \
                if status == 200 else -1

        def check() -> str | None:
            status, health = request(pages, host, "GET", "/health")
            return None if status == 200 and health["status"] == "ok" else f"health: {status}"

        def goes_on() -> str | None:
            """Alpha and Beta still finish games, and the pages count them."""
            before = games()
            deadline = time.monotonic() + 60
            while games() <= before and time.monotonic() < deadline:
                time.sleep(0.2)
            return check() or (None if games() > before else "no game finished in 60 s")

        try:
            deadline = time.monotonic() + 30
            while games() < 1 and time.monotonic() < deadline:
                time.sleep(0.2)
            today = time.strftime("%Y-%m-%d", time.gmtime())
            normal = [normal_request("GET", path, host) for path in (
                "/", "/pool/bt", "/account/Alpha", "/game/1", f"/pool/bt/{today}.sgf", "/live",
                "/api/pools", "/api/pool/bt", f"/api/pool/bt/{today}", "/api/account/Beta",
                "/api/game/1", "/api/live?pool=bt", "/health")]
            yield Server(pages, host, process, normal, check, goes_on, output)
        finally:
            for client in honest:
                client.kill()
                client.wait()


# --- the messages ----------------------------------------------------------------------------

@target("event")
def event(folder: Path) -> Iterator[Server]:
    """``olympiad-referee event``: a ladder of 5x5 Breakthrough in which Alpha and Beta (real
    ``connect`` clients with the random engine) play on; the fuzzer holds Fuzz's token, and a
    check logs in as Probe now and then. Wrong tokens never ban here (``failures`` is huge),
    so that the fuzzer, on loopback like the honest clients, keeps every stage within reach."""
    folder.mkdir(parents=True)
    tokens = {name: f"token-of-{name.lower()}-0123456789" for name in EVENT_NAMES}
    lines = ['name = "fuzz"', 'game = "breakthrough"', 'boardsize = "5"', 'format = "ladder"',
             "games = 0", "time = 20", "grace = 1", "no-show = 1", 'out = "out"',
             "[listen]", 'host = "127.0.0.1"', "port = 0", "[spectators]", "port = 0",
             "[limits]", "failures = 1000000000"]
    for name, token in tokens.items():
        lines += ["[[participant]]", f'name = "{name}"', f'token = "{token}"']
    (folder / "event.toml").write_text("\n".join(lines) + "\n")
    command = [sys.executable, "-m", "referee", "event", str(folder / "event.toml")]
    with started(command, r"participants connect to ws://127\.0\.0\.1:(\d+)/",
                 from_stdout=True) as (
            process, port, output):
        url = f"ws://{LOOPBACK}:{port}/"
        honest = [subprocess.Popen(
            [sys.executable, "-m", "referee", "connect", url, "--token", tokens[name],
             "--engine", RANDOM_ENGINE], cwd=REPO, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True) for name in ("Alpha", "Beta")]
        fuzzer = EventFuzzer(url, port, tokens["Fuzz"])
        results = folder / "out" / "results.jsonl"

        def honest_games() -> list[dict]:
            rows = [json.loads(line) for line in results.read_text().splitlines()
                    if line.strip()] if results.exists() else []
            return [row for row in rows if {row["black"], row["white"]} == {"Alpha", "Beta"}]

        def check() -> str | None:
            return EventFuzzer.logs_in(url, tokens["Probe"])

        def goes_on() -> str | None:
            """Alpha and Beta still finish games, each played out by the rules."""
            before = len(honest_games())
            deadline = time.monotonic() + 60
            while len(honest_games()) == before and time.monotonic() < deadline:
                time.sleep(0.2)
            games = honest_games()
            if len(games) == before:
                return "Alpha and Beta finished no game in 60 s"
            odd = [row for row in games if row["termination"] != "normal"]
            return f"games between the honest clients ended otherwise: {odd[:2]}" if odd \
                else None

        try:
            deadline = time.monotonic() + 30
            while not honest_games() and time.monotonic() < deadline:
                time.sleep(0.1)
            yield Server(port, f"{LOOPBACK}:{port}", process, [], check, goes_on, output,
                         fuzzer.send)
        finally:
            fuzzer.close()
            for client in honest:
                client.kill()
                client.wait()


EVENT_NAMES = ("Alpha", "Beta", "Fuzz", "Probe")


class EventFuzzer:
    """Sends one fuzzed message to the event server at a time, at one of its stages: raw bytes
    before (or instead of) the WebSocket handshake, a ``hello`` generated or mutated on a fresh
    connection, or, logged in as Fuzz, an answer to the command the server sent (mutated) or a
    message nobody asked for. Says how it went: ``closed`` (the server closed, as it should
    after a refusal), ``login refused``, ``welcome``, ``sent``, an HTTP status, or a failure
    (``silent``: no close within :data:`ANSWER_WAIT`; ``refused``: no connection)."""

    def __init__(self, url: str, port: int, token: str) -> None:
        self.url = url
        self.port = port
        self.token = token
        self.session = None
        self._open = ExitStack()  # the session's connection, while there is one

    def send(self, rng: random.Random) -> str:
        kind = rng.random()
        if kind < 0.15:
            return send(self.port, rng.randbytes(rng.randrange(0, 2000)) if rng.random() < 0.5
                        else mutated(rng, self.upgrade()))
        if kind < 0.5:
            return self.hello(rng)
        return self.in_session(rng)

    def upgrade(self) -> bytes:
        return (f"GET / HTTP/1.1\r\nHost: {LOOPBACK}:{self.port}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n").encode()

    def hello(self, rng: random.Random) -> str:
        hello = {"type": "hello", "token": self.token, "protocol": 1}
        try:
            with websocket(self.url, open_timeout=ANSWER_WAIT) as connection:
                connection.send(json_message(rng, hello))
                reply = json.loads(connection.recv(timeout=1.0))
                return "welcome" if reply.get("type") == "welcome" else "login refused"
        except TimeoutError:
            return "slow"  # a wrong token's refusal waits: not waited for here
        except (ConnectionClosed, InvalidHandshake):
            return "closed"
        except OSError:
            return "refused"

    def in_session(self, rng: random.Random) -> str:
        try:
            if self.session is None:
                self.session = self._open.enter_context(
                    websocket(self.url, open_timeout=ANSWER_WAIT))
                self.session.send(json.dumps({"type": "hello", "token": self.token,
                                              "protocol": 1}))
                if json.loads(self.session.recv(timeout=ANSWER_WAIT))["type"] != "welcome":
                    return "login refused"
            try:
                command = json.loads(self.session.recv(timeout=0.01))
            except TimeoutError:
                command = None
            answer = {"type": "answer", "id": command.get("id", 1) if command else 1,
                      "text": "= a1", "think": 0.01}
            self.session.send(json_message(rng, answer))
            return "sent"
        except (ConnectionClosed, InvalidHandshake, TimeoutError, ValueError):
            self.close()
            return "closed"
        except OSError:
            self.close()
            return "refused"

    def close(self) -> None:
        try:
            self._open.close()
        except (OSError, ConnectionClosed):
            pass
        self.session = None

    @staticmethod
    def logs_in(url: str, token: str) -> str | None:
        """None when ``token`` is welcomed, else what happened."""
        with websocket(url, open_timeout=ANSWER_WAIT) as connection:
            connection.send(json.dumps({"type": "hello", "token": token, "protocol": 1}))
            reply = json.loads(connection.recv(timeout=ANSWER_WAIT))
        return None if reply["type"] == "welcome" else f"the probe's login: {reply}"


def json_message(rng: random.Random, message: dict) -> str | bytes:
    """``message`` (a protocol message) with hostile values in some of its fields, a field
    added or dropped, its bytes mutated, or a hostile value in its place."""
    way = rng.random()
    if way < 0.1:
        return rng.choice(JSON_VALUES)
    if way < 0.35:
        data = mutated(rng, json.dumps(message).encode())
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data  # a binary message
    fields = {name: json.dumps(value) for name, value in message.items()}
    for name in rng.sample(sorted(fields), rng.randrange(0, len(fields) + 1)):
        fields[name] = rng.choice(JSON_VALUES)
    if rng.random() < 0.2:
        fields[rng.choice(["x", "id", "type", "\\ud800"])] = rng.choice(JSON_VALUES)
    if rng.random() < 0.2:
        del fields[rng.choice(sorted(fields))]
    return "{" + ", ".join(f'"{name}": {value}' for name, value in fields.items()) + "}"


ODD = [b"\x00", b"\r\n", b"\n", b"\r", b" ", b"%", b"%ff", b"%00", b"%2e%2e/", b"../", b"/..",
       b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"?", b"&", b"=", b"#", b"[", b"{", b'"',
       b"\\", b":", b"9" * 5000, b"-1", b"\xd9\xa3", b"\r\n\r\n", b"Content-Length: 99\r\n",
       b"Transfer-Encoding: chunked\r\n", b"Host: evil.example\r\n"]
METHODS = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "get", "CONNECT", "G\x00T",
           "X" * 40, ""]
SEGMENTS = ["", ".", "..", "%2e%2e", "%2E%2E%2F", "report-assets", "report.html", "live.json",
            "state", "move", "choices", "why", "record", "claim", "games", "match.json",
            "results.jsonl", "%00", "%ff", "%c3%28", "%ed%a0%80", "\\", "~", "a" * 300,
            "etc", "passwd", "game-0001.js", "%2F", "?", "é"]
FIELDS = ["since", "ply", "cell", "token", "flipped", "move", "x", ""]
VALUES = ["0", "1", "-1", "2", "9" * 17, "9" * 5000, "-" + "9" * 30, "١٢", "1e3", "inf",
          "nan", "", "a1", "\xff", "\x00", "\ud800", "a" * 2000, "+5", " 5",
          "0x10", "[", "é", "𝟗"]
JSON_VALUES = ["0", "-1", "1e999", "1" * 30, "null", "true", '"a1-a2"', '"\\ud800"',
               '"\\u0000"', "[]", "{}", '"' + "a" * 3000 + '"', "1.5", "NaN", "-Infinity",
               "[" * 30 + "]" * 30, "[" * 2000 + "]" * 2000, '{"a":' * 20 + "1" + "}" * 20]


def message(rng: random.Random, normal: list[bytes], host: str) -> bytes:
    """One fuzzed message: a normal request mutated, a hostile one built, or raw bytes."""
    kind = rng.random()
    if kind < 0.45:
        return mutated(rng, rng.choice(normal))
    if kind < 0.9:
        return built(rng, host)
    return rng.randbytes(rng.randrange(0, 3000))


def mutated(rng: random.Random, message: bytes) -> bytes:
    """``message`` with one to four changes: a byte changed, odd bytes put in, a slice cut
    out or repeated, the end cut off."""
    data = bytearray(message)
    for _ in range(rng.randrange(1, 5)):
        place = rng.randrange(len(data) + 1)
        change = rng.randrange(5)
        if change == 0 and data:
            data[min(place, len(data) - 1)] = rng.randrange(256)
        elif change == 1:
            data[place:place] = rng.choice(ODD)
        elif change == 2:
            del data[place:place + rng.randrange(1, 40)]
        elif change == 3:
            data[place:place] = data[place:place + rng.randrange(1, 200)] * rng.randrange(1, 30)
        else:
            del data[place:]
    return bytes(data)


def built(rng: random.Random, host: str) -> bytes:
    """A request made of hostile parts."""
    path = "/" + "/".join(rng.choice(SEGMENTS) for _ in range(rng.randrange(1, 5)))
    if rng.random() < 0.7:
        raw = rng.random() < 0.1  # else escaped as a browser sends them

        def escape(value: str) -> str:
            return value if raw else quote(value, errors="surrogatepass")
        path += "?" + "&".join(f"{rng.choice(FIELDS)}={escape(rng.choice(VALUES))}"
                               for _ in range(rng.randrange(0, 8)))
    method = rng.choice(["GET", "POST"]) if rng.random() < 0.8 else rng.choice(METHODS)
    version = (rng.choice(["HTTP/1.1", "HTTP/1.0"]) if rng.random() < 0.9
               else rng.choice(["HTTP/2.0", "HTTP/1.1 x", "", "http/1.1"]))
    headers = [f"Host: {rng.choice([host, host, 'evil.example', '', host + host])}"]
    if rng.random() < 0.3:
        headers.append(rng.choice([f"Origin: http://{host}", "Origin: http://evil.example",
                                   "Origin: null"]))
    for _ in range(rng.choice([0] * 6 + [1, 3, 70, 200])):
        headers.append(f"X-{rng.randrange(99)}: " + "v" * rng.choice([1, 100, 20000]))
    body = json_body(rng) if rng.random() < 0.8 else rng.randbytes(rng.randrange(0, 6000))
    length = rng.choice([len(body)] * 4 + [0, len(body) + 10, max(0, len(body) - 5), -1,
                                           10 ** 12, "9" * 40, "0x10", None])
    if length is not None:
        headers.append(f"Content-Length: {length}")
    if rng.random() < 0.05:
        headers.append("Transfer-Encoding: chunked")
    if rng.random() < 0.05:
        headers.append(headers[0])
    head = f"{method} {path} {version}\r\n" + "".join(f"{line}\r\n" for line in headers)
    return head.encode("utf-8", "surrogatepass") + b"\r\n" + body


def json_body(rng: random.Random) -> bytes:
    """A JSON body with hostile values in the fields the page sends, or a hostile value."""
    if rng.random() < 0.2:
        return rng.choice(JSON_VALUES).encode()
    fields = {name: rng.choice(JSON_VALUES) for name in rng.sample(
        ["token", "ply", "move", "x"], rng.randrange(0, 5))}
    return ("{" + ", ".join(f'"{name}": {value}' for name, value in fields.items())
            + "}").encode()


# --- the run ---------------------------------------------------------------------------------

def fuzz(server: Server, count: int, rng: random.Random) -> Counter:
    """Send ``count`` messages to ``server``: how it answered them (statuses and kinds), and
    the ``died`` and ``problem`` counts."""
    tally: Counter = Counter()
    checked = time.monotonic()
    for _ in range(count):
        if server.process.poll() is not None:
            tally["died"] += 1
            break
        if server.send_one is not None:
            tally[server.send_one(rng)] += 1
        else:
            tally[send(server.port, message(rng, server.normal, server.host))] += 1
        if time.monotonic() - checked > CHECK_EVERY:
            checked = time.monotonic()
            tally["problem"] += _problem(server.check)
    if server.process.poll() is None:
        tally["problem"] += _problem(server.goes_on)
    else:
        tally["died"] = 1
    return tally


def _problem(check: Callable[[], str | None]) -> int:
    """1 (printing what is wrong) when ``check`` finds a problem or fails; else 0."""
    try:
        problem = check()
    except (OSError, RuntimeError, ValueError, KeyError) as error:
        problem = f"{type(error).__name__}: {error}"
    if problem:
        print(f"  problem: {problem}", file=sys.stderr)
    return problem is not None


FAILURES = ("died", "traceback", "problem", "garbled", "silent", "refused")


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000,
                        help="messages in all, shared between the targets (default 100000)")
    parser.add_argument("--target", action="append", choices=sorted(TARGETS),
                        help="a target (repeatable; default all)")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(arguments)
    names = options.target or sorted(TARGETS)
    rng = random.Random(options.seed)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="fuzz-servers-") as scratch:
        for name in names:
            started_at = time.monotonic()
            with TARGETS[name](Path(scratch) / name) as server:
                tally = fuzz(server, options.messages // len(names), rng)
            tally["traceback"] = server.tracebacks()  # with what it wrote as it ended
            for line in (line for line in server.output if "Traceback" in line):
                print(f"  {name}: {line.rstrip()}", file=sys.stderr)
            seconds = time.monotonic() - started_at
            failures += sum(tally[kind] for kind in FAILURES)
            answers = ", ".join(f"{kind} {tally[kind]}" for kind in sorted(tally)
                                if kind not in FAILURES)
            print(f"{name}: {options.messages // len(names)} messages in {seconds:.0f} s; "
                  f"deaths {tally['died']}, tracebacks {tally['traceback']}, failed checks "
                  f"{tally['problem']}, garbled {tally['garbled']}, unanswered "
                  f"{tally['silent']}, connections refused {tally['refused']}; answers: "
                  f"{answers}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
