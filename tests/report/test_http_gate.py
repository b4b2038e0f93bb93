"""The gate of the play page's and the report's HTTP servers (``referee/host/http_gate.py``), over
real sockets on 127.0.0.1: whatever a browser or a stranger sends gets an HTTP answer (a 4xx with
one line saying why) or a clean close, never a traceback, and the server and the game go on.

The servers are real processes started by ``scripts/fuzz_servers.py``'s targets: ``olympiad-
referee play`` with the random engine behind it and a game in progress, and ``olympiad-referee
serve`` on a real run's folder. Limits that take time to show (the deadline of a request, the
bound on connections) are tested on a server in this process with small limits. The fuzzer is
Hypothesis driving the script's own message generator (mutated normal requests, requests built
from hostile parts, raw bytes), derandomized, so the suite is reproducible.
"""

from __future__ import annotations

import importlib.util
import json
import random
import socket
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.records.folder import REPORT_NAME
from referee.report.folder import write_report
from referee.host.http_gate import Limits
from referee.host.report_server import ReportServer
from referee.report.live import LiveGames

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("fuzz_servers", ROOT / "scripts" / "fuzz_servers.py")
fuzz_servers = sys.modules["fuzz_servers"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fuzz_servers)
send = fuzz_servers.send


@pytest.fixture(scope="module")
def play(tmp_path_factory):
    """``olympiad-referee play``: 8x8 Domineering against the random engine, the person to
    move (the token held by the fixture)."""
    with fuzz_servers.TARGETS["play"](tmp_path_factory.mktemp("play")) as server:
        yield server
    assert server.tracebacks() == 0, "".join(server.output)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """``olympiad-referee serve`` on the folder of a two-game match."""
    with fuzz_servers.TARGETS["report"](tmp_path_factory.mktemp("report")) as server:
        yield server
    assert server.tracebacks() == 0, "".join(server.output)


def request(server, method: str, target: str, body: bytes = b"",
            headers: tuple[str, ...] = ()) -> bytes:
    """A request to ``server`` with its own Host header, ``Content-Length`` for a POST."""
    lines = [f"{method} {target} HTTP/1.1", f"Host: {server.host}", *headers]
    if method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def still_well(server) -> None:
    """The server is up, answers a normal request, and nothing it wrote is a traceback."""
    assert server.process.poll() is None
    assert server.check() is None
    assert server.tracebacks() == 0, "".join(server.output)


# --- what main did wrong -----------------------------------------------------------------------

def test_a_body_of_nested_brackets_is_refused_not_a_traceback(play):
    """On main: a RecursionError traceback in the JSON parser, and no answer."""
    body = b"[" * 2000 + b"]" * 2000
    assert send(play.port, request(play, "POST", "/move", body)) == "400"
    still_well(play)


def test_a_number_of_5000_digits_is_refused_not_a_traceback(play):
    """On main: Python's integer-digits limit raised a ValueError traceback, and no answer."""
    assert send(play.port, request(play, "GET", "/state?since=" + "9" * 5000)) == "400"
    assert send(play.port, request(play, "GET", "/choices?ply=" + "9" * 5000)) == "400"
    still_well(play)


def test_a_token_that_is_not_ascii_is_refused_not_a_traceback(play):
    """On main (with the seat held): ``compare_digest`` raised a TypeError traceback."""
    assert send(play.port, request(play, "GET", "/state?token=%C3%A9")) == "400"
    body = json.dumps({"token": "é", "ply": 0, "move": "a1-a2"}).encode()
    assert send(play.port, request(play, "POST", "/move", body)) == "400"
    still_well(play)


@pytest.mark.parametrize("move", ["a1\x1b", "a1\u202e", "a1\x85", "a1\u2028", "a1\u2066"])
def test_a_field_holding_a_control_separator_or_bidi_character_is_refused(play, move):
    body = json.dumps({"token": "x", "ply": 0, "move": move}).encode()
    assert send(play.port, request(play, "POST", "/move", body)) == "400"


def test_a_folder_of_the_report_is_404_not_a_listing(report):
    """On main: ``GET /report-assets/`` answered a listing of the folder."""
    for folder in ("/report-assets/", "/report-assets", "/report-assets/%2e%2e/",
                   "/report-assets/../games/"):
        assert send(report.port, request(report, "GET", folder)) == "404", folder
    still_well(report)


@pytest.fixture
def small_report(tmp_path):
    """A report server in this process over a run folder with no game yet, within the limits
    given; its port."""
    (tmp_path / "match.json").write_text(json.dumps({"game": "loa", "engines": ["a", "b"]}))
    write_report(tmp_path)
    servers = []

    def start(limits: Limits) -> int:
        servers.append(ReportServer(tmp_path, port=0, limits=limits))
        return servers[-1].httpd.server_address[1]
    yield start
    for server in servers:
        server.stop()


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def test_a_half_sent_request_is_answered_408_and_an_idle_connection_closed(small_report):
    """On main neither was ever timed out: a slow-loris held a thread for good."""
    port = small_report(Limits(seconds=0.5))
    with connect(port) as half, connect(port) as idle:
        half.sendall(b"GET /report.html HTTP/1.1\r\nHost: x\r\n")
        assert half.recv(100).startswith(b"HTTP/1.0 408 ")
        assert idle.recv(100) == b""


def test_connections_past_the_bound_are_turned_away_without_a_thread(small_report):
    """On main each of these idle connections held a thread of its own until it closed."""
    port = small_report(Limits(connections=8))
    before = threading.active_count()
    connections = [connect(port) for _ in range(200)]
    try:
        assert connections[-1].recv(100).startswith(b"HTTP/1.0 503 ")
        assert threading.active_count() <= before + 8
    finally:
        for connection in connections:
            connection.close()
    with connect(port) as connection:  # the slots come back
        connection.sendall(f"GET /{REPORT_NAME} HTTP/1.0\r\n\r\n".encode())
        assert connection.recv(100).startswith(b"HTTP/1.0 200 ")


@pytest.mark.parametrize("escaped", ["%1B", "%E2%80%AE", "%C2%85", "%E2%80%A8", "%E2%81%A6"])
def test_a_path_holding_a_control_separator_or_bidi_character_is_refused_as_such(small_report,
                                                                                  escaped):
    port = small_report(Limits())
    with connect(port) as connection:
        connection.sendall(f"GET /report-assets/a{escaped}.js HTTP/1.0\r\n\r\n".encode())
        answer = b""
        while chunk := connection.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.0 404 ")
    assert answer.endswith(b'{"error": "a path holding unprintable characters"}')


def test_a_failing_handler_answers_500_with_one_log_line(tmp_path, caplog, capfd):
    class Broken(LiveGames):
        def snapshot(self):
            raise RuntimeError("a bug")

    (tmp_path / "match.json").write_text(json.dumps({"game": "loa", "engines": ["a", "b"]}))
    write_report(tmp_path)
    server = ReportServer(tmp_path, Broken(), port=0)
    try:
        port = server.httpd.server_address[1]
        with connect(port) as connection:
            connection.sendall(b"GET /live.json HTTP/1.1\r\nHost: x\r\n\r\n")
            assert connection.recv(100).startswith(b"HTTP/1.0 500 ")
    finally:
        server.stop()
    assert [record.getMessage() for record in caplog.records] == [
        "GET /live.json failed: RuntimeError: a bug"]
    assert "Traceback" not in capfd.readouterr().err


# --- each limit, and what is refused -------------------------------------------------------------

@pytest.mark.parametrize("message, status", [
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n", "414"),
    (b"GET / HTTP/1.1\r\nHost: H\r\n" + b"".join(b"X-%d: b\r\n" % n for n in range(64))
     + b"\r\n", "431"),
    (b"GET / HTTP/1.1\r\nHost: H\r\nX-A: " + b"b" * 17000 + b"\r\n\r\n", "431"),
    (b"POST /move HTTP/1.1\r\nHost: H\r\n\r\n{}", "411"),
    (b"POST /move HTTP/1.1\r\nHost: H\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
     "411"),
    (b"POST /move HTTP/1.1\r\nHost: H\r\nContent-Length: 5000\r\n\r\n", "413"),
    (b"POST /move HTTP/1.1\r\nHost: H\r\nContent-Length: 10\r\n\r\n{}", "400"),  # cut off
    (b"POST /move HTTP/1.1\r\nHost: H\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
     "400"),
    (b"GET /state HTTP/1.1\r\nHost: evil.example\r\n\r\n", "400"),
    (b"GET /state HTTP/1.1\r\nHost: H\r\nOrigin: http://evil.example\r\n\r\n", "400"),
    (b"GET /state?since=%d9%a3 HTTP/1.1\r\nHost: H\r\n\r\n", "400"),  # Arabic digits
    (b"GET /state?token=%ff HTTP/1.1\r\nHost: H\r\n\r\n", "400"),  # not UTF-8
    (b"GET /choices?ply=0" + b"&cell=a1" * 17 + b" HTTP/1.1\r\nHost: H\r\n\r\n", "400"),
    (b"GET /move HTTP/1.1\r\nHost: H\r\n\r\n", "405"),
    (b"HEAD / HTTP/1.1\r\nHost: H\r\n\r\n", "405"),
    (b"GET /../../etc/passwd HTTP/1.1\r\nHost: H\r\n\r\n", "404"),
    (b"GET /%00 HTTP/1.1\r\nHost: H\r\n\r\n", "404"),
    (b"GET / HTTP/2.0\r\nHost: H\r\n\r\n", "505"),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", "400"),  # a TLS hello
    (b"GET / HTTP/1.1\r\nHost: H\r\n", "400"),  # cut off in the headers
    (b"", "closed"),
])
def test_the_play_page_refuses_with_the_status_that_says_why(play, message, status):
    message = message.replace(b"Host: H", f"Host: {play.host}".encode())
    assert send(play.port, message) == status


def test_the_report_serves_its_files_and_refuses_the_rest(report):
    assert send(report.port, request(report, "GET", "/report.html")) == "200"
    assert send(report.port, request(report, "GET", "/report-assets/games.js")) == "200"
    for private in ("/results.jsonl", "/match.json", "/games/game-0001.sgf",
                    "/report-assets/../match.json", "/report-assets/%2e%2e%2fmatch.json",
                    "/report-assets/.hidden", "/report-assets/nothing.js"):
        assert send(report.port, request(report, "GET", private)) == "404", private
    assert send(report.port, request(report, "POST", "/live.json", b"{}")) == "405"
    still_well(report)


# --- the fuzzer ----------------------------------------------------------------------------------

FUZZ = settings(max_examples=300, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
ANSWERS = {"closed"} | {str(status) for status in range(200, 600)}


def fuzz(server, rng, count: int) -> None:
    for _ in range(count):
        message = fuzz_servers.message(rng, server.normal, server.host)
        assert send(server.port, message) in ANSWERS, message[:200]
    assert server.process.poll() is None


@FUZZ
@given(rng=st.randoms(use_true_random=False), count=st.integers(1, 4))
def test_fuzzed_requests_to_the_play_page(play, rng, count):
    fuzz(play, rng, count)


def test_after_a_burst_of_fuzz_the_play_page_serves_and_the_game_goes_on(play):
    """A normal move is still taken, and the engine answers it."""
    fuzz(play, random.Random(7), 300)
    still_well(play)
    assert play.goes_on() is None


@FUZZ
@given(rng=st.randoms(use_true_random=False), count=st.integers(1, 4))
def test_fuzzed_requests_to_the_report(report, rng, count):
    fuzz(report, rng, count)


def test_after_a_burst_of_fuzz_the_report_serves(report):
    fuzz(report, random.Random(7), 300)
    still_well(report)
    assert report.goes_on() is None
