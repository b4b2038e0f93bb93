"""Clients that misbehave, and links that are slow: the server keeps its promises anyway.

Real server and client processes on 127.0.0.1, with real engines; the misbehaving clients are
scripted (``bad_client.py``), and the slow link is a TCP proxy in this process that holds
every chunk 150 ms each way.
"""

from __future__ import annotations

import queue
import socket
import threading
import time
from pathlib import Path

from .helpers import (
    NAMES,
    SLOW_ENGINE,
    connect,
    event_with_misbehaving_clients,
    game_under_way,
    rows,
    start_event,
    write_event,
)

MODES = {"Gamma": "garbage", "Delta": "oversized", "Epsilon": "flood", "Zeta": "silent"}


def test_misbehaving_clients_lose_their_games_and_hurt_no_other(tmp_path, processes):
    # A silent client's games last its clock (2 s) and the lag allowance it could have had.
    server, finished = event_with_misbehaving_clients(tmp_path, processes, MODES, games=1,
                                                      time=2, concurrency=3, no_show=10,
                                                      lag={"start": 0.2})
    assert len(finished) == 15
    for row in finished:
        players = {row["black"], row["white"]}
        if players == set(NAMES[:2]):
            assert row["termination"] == "normal"
            continue
        loser = row[row["at_fault"]]
        assert loser in MODES, row
        expected = "timeout" if MODES[loser] == "silent" else "protocol_error"
        assert row["termination"] == expected, row
    log = server.output
    assert "Gamma (127.0.0.1" in log and "broke the protocol" in log
    assert "Delta (127.0.0.1" in log and "sent a message over 65536 bytes" in log
    assert "more than 8 answers nobody asked for" in log


def test_a_second_login_with_the_token_replaces_the_first_mid_game(tmp_path, processes):
    server, url = game_under_way(tmp_path, processes, games=1)
    first = processes[1]
    second = connect(url, "Alpha", SLOW_ENGINE)
    processes.append(second)
    assert first.wait(20) == 2
    assert first.lines[-1] == ("olympiad-referee: error: the server closed the connection: "
                               "replaced by a newer connection logged in as you")
    server.wait_for(r"Alpha: a newer connection from 127\.0\.0\.1:\d+ replaces the one from")
    assert server.wait(60) == 0, server.output
    (row,) = rows(tmp_path / "out")
    assert row["termination"] == "normal", row["reason"]
    assert second.wait(10) == 0


class DelayingProxy:
    """A TCP proxy on 127.0.0.1 that delivers every chunk ``delay`` seconds after it came,
    in order, both ways: a link with that much latency each way."""

    def __init__(self, upstream_port: int, delay: float) -> None:
        self.upstream = ("127.0.0.1", upstream_port)
        self.delay = delay
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                downstream, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.upstream)
            for source, target in ((downstream, upstream), (upstream, downstream)):
                pending: queue.Queue = queue.Queue()
                threading.Thread(target=self._read, args=(source, pending), daemon=True).start()
                threading.Thread(target=self._write, args=(target, pending), daemon=True).start()

    def _read(self, source: socket.socket, pending: queue.Queue) -> None:
        while True:
            try:
                chunk = source.recv(65536)
            except OSError:
                chunk = b""
            pending.put((time.monotonic() + self.delay, chunk))
            if not chunk:
                return

    def _write(self, target: socket.socket, pending: queue.Queue) -> None:
        while True:
            due, chunk = pending.get()
            time.sleep(max(0.0, due - time.monotonic()))
            try:
                if not chunk:
                    target.shutdown(socket.SHUT_WR)
                    return
                target.sendall(chunk)
            except OSError:
                return

    def close(self) -> None:
        self.listener.close()


def game_over_a_slow_link(folder: Path, processes: list, lag: dict) -> tuple[dict, str]:
    """Alpha (through a proxy holding every chunk 150 ms each way) against Beta (direct), one
    game: its results row and Alpha's colour."""
    server, url = start_event(write_event(folder, games=1, time=60, lag=lag, boardsize="6"))
    processes.append(server)
    proxy = DelayingProxy(int(url.rsplit(":", 1)[1].strip("/")), 0.150)
    try:
        processes += [connect(f"ws://127.0.0.1:{proxy.port}/", "Alpha"), connect(url, "Beta")]
        assert server.wait(120) == 0, server.output
    finally:
        proxy.close()
    (row,) = rows(folder / "out")
    assert row["termination"] == "normal"
    return row, "black" if row["black"] == "Alpha" else "white"


def test_a_slow_link_is_charged_within_the_lag_allowance(tmp_path, processes):
    # Enough for the round trips (0.3 s each) of the first two moves (time_left, genmove and
    # the opponent's move sent with play), not for the next ones': it runs dry by the third.
    # Everything before a side's first genmove is its set-up and draws nothing from it (without
    # that the set-up's five or six round trips would spend it all before the first move).
    lag = {"start": 1.0, "gain": 0.3, "cap": 1.0, "per-answer": 3.0}
    row, colour = game_over_a_slow_link(tmp_path, processes, lag)
    moves = row[f"{colour}_lag"]
    assert len(moves) >= 3  # on 6x6 the loser moves three times at least
    granted = 0.0
    for number, (measured, allowance) in enumerate(moves, 1):
        assert measured >= 0.29  # two trips through the proxy
        assert 0 <= allowance <= min(measured, lag["per-answer"])
        granted += allowance
        assert granted <= lag["start"] + lag["gain"] * number + 1e-6
    first_measured, first_allowance = moves[0]
    assert first_measured - first_allowance < 0.15  # while the quota lasts: the engine's time
    assert any(measured - allowance > 0.2 for measured, allowance in moves)  # then it ran dry
    # What was not granted was charged: Alpha's clock took the round trips beyond the quota.
    assert row[f"{colour}_time"] >= sum(measured for measured, _ in moves) - granted - 1e-3
    other = "white" if colour == "black" else "black"
    assert all(allowance < 0.05 for _, allowance in row[f"{other}_lag"])
