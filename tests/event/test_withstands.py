"""What no participant and no stranger can do to the event server, tried as an attacker would,
over real sockets on loopback against a real server process: each test is one way that stopped
the server, printed a traceback, went unlogged or cost a thread per connection before.

Connections that must come from another address than the participants' are made from
127.0.0.2 and up (every 127.x.y.z address is this machine's loopback).
"""

from __future__ import annotations

import base64
import json
import os
import resource
import socket

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect as websocket

from ..processes import wait_for
from .helpers import (NAMES, Process, connect, event_with_misbehaving_clients, rows, start_event,
                      token_of, write_event)



def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].strip("/"))


def open_websocket(url: str, source: str = "127.0.0.1", max_size: int | None = None):
    return websocket(url, source_address=(source, 0), max_size=max_size, open_timeout=10)


def refused_reason(url: str, hello: str, source: str = "127.0.0.1") -> str:
    """Send ``hello`` as the first message; the server's ``refused`` reason."""
    with open_websocket(url, source) as connection:
        connection.send(hello)
        return json.loads(connection.recv(timeout=20))["reason"]


def assert_no_traceback(server: Process) -> None:
    assert "Traceback" not in server.output and "Error:" not in server.output.replace(
        "WireError", ""), server.output


def test_lone_surrogates_in_a_game_lose_the_game_and_stop_nothing(tmp_path, processes):
    """An answer holding a lone surrogate (valid JSON) stopped the server with status 1, and a
    ``lost`` whose reason held one made writing the record fail; now each is a protocol error
    of its sender, recorded, and the event plays on to its end."""
    modes = {"Gamma": "surrogate", "Delta": "lost-surrogate"}
    server, finished = event_with_misbehaving_clients(tmp_path, processes, modes, games=1,
                                                      time=5, concurrency=2)
    assert len(finished) == 6
    for row in finished:
        offenders = {row["black"], row["white"]} & set(modes)
        if not offenders:
            assert row["termination"] == "normal", row
            continue
        assert row[row["at_fault"]] in modes and row["termination"] == "protocol_error", row
    for path in (tmp_path / "out").rglob("*"):
        if path.is_file():
            path.read_bytes().decode("utf-8")
    assert "lone surrogate" in server.output
    assert_no_traceback(server)


def test_every_refusal_before_login_is_logged_and_harms_nothing(tmp_path, processes):
    """Hellos that printed tracebacks (a lone surrogate in the token, 20,000 nested arrays) or
    were closed without a word (a 10 MB hello, an idle connection, a connection that never
    makes the WebSocket handshake) are each refused with one log line; the event then plays."""
    server, url = start_event(write_event(tmp_path, games=1, time=5, limits={"hello": 1.0}))
    processes.append(server)
    surrogate = '{"type": "hello", "token": "\\udc80", "protocol": 1}'
    assert "lone surrogate" in refused_reason(url, surrogate)
    assert "nested deeper" in refused_reason(url, "[" * 20_000 + "]" * 20_000)
    assert "unknown field" in refused_reason(
        url, '{"type": "hello", "token": "t", "protocol": 1, "extra": 1}')
    with open_websocket(url) as connection:
        with pytest.raises(ConnectionClosed):
            connection.send("x" * 10_000_000)
            connection.recv(timeout=20)
    with open_websocket(url) as connection:  # says nothing
        assert "no hello within 1 s" in json.loads(connection.recv(timeout=20))["reason"]
    with socket.create_connection(("127.0.0.1", port_of(url))) as raw:  # not even a handshake
        raw.settimeout(20)
        assert raw.recv(100) == b""
    for reason in ("lone surrogate", "nested deeper than", "unknown field",
                   "a hello over 65536 bytes", "no hello within 1 s",
                   "no WebSocket handshake within 1 s"):
        server.wait_for(rf"refused a connection from 127\.0\.0\.1:\d+: .*{reason}")
    processes += [connect(url, name) for name in NAMES[:2]]
    assert server.wait(60) == 0, server.output
    assert len(rows(tmp_path / "out")) == 1
    assert_no_traceback(server)


def test_wrong_tokens_are_slowed_then_banned_for_their_address_only(tmp_path, processes):
    """About 190 wrong tokens a second were answered from one address, each with a log line;
    now each wrong token's refusal waits longer, a third one bans the address for a while, the
    ban refuses even the right token until it ends, and then the right token gets in. The
    participants on another address never notice."""
    server, url = start_event(write_event(tmp_path, games=1, time=5,
                                          limits={"failures": 3, "ban": 3, "window": 60}))
    processes.append(server)
    attacker = "127.0.0.2"
    wrong = json.dumps({"type": "hello", "token": "guess", "protocol": 1})
    for _ in range(3):
        assert refused_reason(url, wrong, attacker) == "wrong token"
    server.wait_for(r"banned 127\.0\.0\.2 for 3 s after 3 wrong tokens")
    right = json.dumps({"type": "hello", "token": token_of("Beta"), "protocol": 1})
    with pytest.raises((ConnectionClosed, InvalidHandshake, OSError)):
        refused_reason(url, right, attacker)
    server.wait_for(r"refused a connection from 127\.0\.0\.2:\d+: 3 wrong tokens within 60 s: "
                    r"banned for 3 s")
    clients = [connect(url, name) for name in NAMES[:2]]  # 127.0.0.1: not slowed, not banned
    processes += clients
    for name, client in zip(NAMES[:2], clients):
        server.wait_for(rf"{name} connected from 127\.0\.0\.1")
    assert server.wait(60) == 0, server.output
    assert rows(tmp_path / "out")[0]["termination"] == "normal"
    assert_no_traceback(server)


def test_the_ban_ends_and_the_right_token_then_gets_in(tmp_path, processes):
    server, url = start_event(write_event(tmp_path, games=1, time=5,
                                          limits={"failures": 2, "ban": 1, "window": 60}))
    processes.append(server)
    wrong = json.dumps({"type": "hello", "token": "guess", "protocol": 1})
    for _ in range(2):
        assert refused_reason(url, wrong, "127.0.0.2") == "wrong token"
    server.wait_for(r"banned 127\.0\.0\.2 for 1 s")
    right = json.dumps({"type": "hello", "token": token_of("Beta"), "protocol": 1})
    welcome = wait_for(lambda: welcome_of(url, right, "127.0.0.2"), 10, what="the ban to end")
    assert welcome["name"] == "Beta"
    assert_no_traceback(server)


def welcome_of(url: str, hello: str, source: str) -> dict | None:
    """The server's ``welcome`` to ``hello`` from ``source``, or ``None`` when refused."""
    try:
        with open_websocket(url, source) as connection:
            connection.send(hello)
            answer = json.loads(connection.recv(timeout=20))
    except (ConnectionClosed, InvalidHandshake, OSError):
        return None
    return answer if answer["type"] == "welcome" else None


def upgrade_request(port: int) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n\r\n").encode()


def closed_by_the_server(raw: socket.socket) -> bool:
    """Whether the server closed ``raw`` at once (else it is waiting for the handshake)."""
    raw.settimeout(1)
    try:
        return raw.recv(1) == b""
    except TimeoutError:
        return False


def threads_of(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def test_a_thousand_silent_connections_cost_no_threads_and_block_no_one(tmp_path, processes):
    """1,000 connections that never said hello cost the server 3,004 threads; now they cost it
    none, and the participants join and play while the 1,000 are open. The caps on connections
    waiting to log in refuse the excess at once: from one address past 64, from all past
    1,024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2500:
        pytest.skip(f"needs 2,500 open files, the limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    server, url = start_event(write_event(tmp_path, games=1, time=5, limits={"hello": 60}))
    processes.append(server)
    port = port_of(url)
    before = threads_of(server.popen.pid)
    opened = []

    def silent(source: str) -> socket.socket:
        raw = socket.create_connection(("127.0.0.1", port), timeout=20,
                                       source_address=(source, 0))
        opened.append(raw)
        return raw

    try:
        crowd = [silent("127.0.0.2") for _ in range(70)]  # one address: 64 wait, 6 refused
        assert sum(raw.recv(1) == b"" for raw in crowd[64:]) == 6
        server.wait_for(r"refused a connection from 127\.0\.0\.2:\d+: 64 connections from "
                        r"this address are waiting to log in")
        for raw in crowd:
            raw.close()
        idle = [silent(f"127.0.1.{number // 10 + 1}") for number in range(1000)]
        for raw in idle:  # ten from each of 100 addresses, each under the cap of 64
            raw.sendall(upgrade_request(port))
        for raw in idle:
            assert raw.recv(12) == b"HTTP/1.1 101"
        over = [silent("127.0.0.3") for _ in range(30)]  # past 1,024 in all: refused
        assert sum(map(closed_by_the_server, over)) >= 6  # at most 24 more may wait
        server.wait_for(r"refused a connection from 127\.0\.0\.3:\d+: 1024 connections are "
                        r"waiting to log in")
        for raw in over:
            raw.close()
        assert threads_of(server.popen.pid) <= before + 2
        processes += [connect(url, name) for name in NAMES[:2]]
        assert server.wait(60) == 0, server.output
        assert rows(tmp_path / "out")[0]["termination"] == "normal"
    finally:
        for raw in opened:
            raw.close()
    assert_no_traceback(server)
