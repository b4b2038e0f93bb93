"""The log of what the HTTP gate refuses (``referee/host/http_gate.py``, through
``referee/host/summed_log.py``): a flood of bad requests to the play page's server, over real
sockets from 127.0.0.1 and 127.0.0.2, writes a handful of lines whose counts add up to the
requests sent, each address counted apart; the counts are written while the server runs, once
an interval, and when it stops. The bound on what the log keeps in memory is tested on the
class itself, with a clock of its own.
"""

from __future__ import annotations

import re
import socket
from collections import Counter

import pytest

from referee.host.play_page import SeatServer
from referee.host.summed_log import SummedLog
from referee.play.human import Seat

from ..processes import wait_for

FIRST = re.compile(r"refused a request from ([0-9.]+):\d+: .* \((\d{3})\)"
                   r"(?: \(and (\d+) more like it\))?")
SUM = re.compile(r"refused (\d+) more requests from ([0-9.]+): (\d{3}) [A-Za-z ]+")


@pytest.fixture
def seat_server():
    """A play page's server summing its refusals over ``interval`` seconds (no game: the gate
    refuses before the seat is asked); stopped after the test."""
    servers = []

    def start(interval: float) -> SeatServer:
        servers.append(SeatServer(Seat(), log_interval=interval))
        return servers[-1]
    yield start
    for server in servers:
        server.stop()


def bad_request(port: int, source: str, path: str, host: str | None = None) -> bytes:
    """``GET path`` to ``port`` from the address ``source``; the status line of its answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10,
                                  source_address=(source, 0)) as connection:
        connection.sendall(f"GET {path} HTTP/1.0\r\nHost: {host or f'127.0.0.1:{port}'}\r\n"
                           f"\r\n".encode())
        answer = b""
        while chunk := connection.recv(4096):
            answer += chunk
    return answer.split(b"\r\n", 1)[0]


def counted(lines: list[str]) -> Counter:
    """The refusals ``lines`` count, by address and status."""
    counts: Counter = Counter()
    for line in lines:
        if first := FIRST.fullmatch(line):
            counts[first[1], first[2]] += 1 + int(first[3] or 0)
        else:
            total = SUM.fullmatch(line)
            assert total, line
            counts[total[2], total[3]] += int(total[1])
    return counts


def seat_lines(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == "referee.seat"]


def test_a_flood_of_bad_requests_writes_a_handful_of_lines_counted_right(seat_server, caplog):
    server = seat_server(60.0)
    port = server.httpd.server_address[1]
    sent = Counter()
    for number in range(300):  # each a page nobody serves, by a name of its own
        assert bad_request(port, "127.0.0.1", f"/nothing-{number}").endswith(b" 404 Not Found")
        sent["127.0.0.1", "404"] += 1
    for number in range(200):
        assert bad_request(port, "127.0.0.2", f"/nothing-{number}").endswith(b" 404 Not Found")
        assert bad_request(port, "127.0.0.2", "/", f"evil-{number}.example").endswith(
            b" 400 Bad Request")
        sent["127.0.0.2", "404"] += 1
        sent["127.0.0.2", "400"] += 1
    server.stop()  # writes the counts not yet written
    lines = seat_lines(caplog)
    assert counted(lines) == sent
    assert len(lines) <= 2 * len(sent)  # the first of each, and one count (60 s interval)
    assert "refused a request from 127.0.0.1" in lines[0] and "/nothing-0" in lines[0]


def test_the_count_is_written_once_its_interval_is_over(seat_server, caplog):
    port = seat_server(0.2).httpd.server_address[1]
    for number in range(20):
        bad_request(port, "127.0.0.1", f"/nothing-{number}")
    wait_for(lambda: any(SUM.fullmatch(line) for line in seat_lines(caplog)), 10,
             what="the count of refusals, the server running")
    assert counted(seat_lines(caplog)) == {("127.0.0.1", "404"): 20}


def test_the_counts_kept_are_bounded_whatever_the_number_of_senders():
    clock, lines = [0.0], []
    log = SummedLog(lines.append, "{count} more from {key}: {kind}", 10.0, most=8,
                    clock=lambda: clock[0])
    for sender in range(100):
        for _ in range(3):
            log.write(f"10.0.{sender}.1", "404", f"refused 10.0.{sender}.1: 404")
        assert len(log) <= 8
    assert len([line for line in lines if "over 8 lines" in line]) == 1  # once an interval
    clock[0] = 10.0
    log.tidy()
    assert len(log) == 0
    assert len([line for line in lines if line.startswith("refused ")]) == 100
    assert [line for line in lines if " more from " in line] == [
        f"2 more from 10.0.{sender}.1: 404" for sender in range(100)]  # none lost, in order


def test_a_count_is_written_when_its_interval_is_over_whatever_came_after():
    clock, lines = [0.0], []
    log = SummedLog(lines.append, "{count} more from {key}: {kind}", 10.0,
                    clock=lambda: clock[0])
    log.write("a", "404", "a: 404")
    clock[0] = 5.0
    log.write("b", "404", "b: 404")
    clock[0] = 6.0
    log.write("a", "404", "a: 404")  # a repeat of the older line, counted
    clock[0] = 10.0
    log.tidy()
    assert lines == ["a: 404", "b: 404", "1 more from a: 404"]
    assert len(log) == 1  # b's interval goes on
