"""Events over real sockets on 127.0.0.1: a server process, client processes
(``olympiad-referee connect``) and real engine processes behind them.

Each test is a short event (Breakthrough 5x5, a few seconds); every process is killed at the
end whatever happens.
"""

from __future__ import annotations

import json
import os
import re
import signal
import urllib.request

import pytest

from referee.records.folder import read_rows

from ..processes import another_thread, wait_for
from .helpers import (
    NAMES,
    SLOW_ENGINE,
    connect,
    free_port,
    game_under_way,
    referee,
    rows,
    start_event,
    token_of,
    wait_for_rows,
    write_event,
)


def test_a_round_robin_of_four_over_tls_writes_a_run_folder(tmp_path, processes):
    event_file = write_event(tmp_path, NAMES[:4], tls=True, games=2)
    server, url = start_event(event_file)
    processes.append(server)
    assert url.startswith("wss://127.0.0.1:")
    url = url.replace("127.0.0.1", "localhost")
    clients = [connect(url, name, ca=tmp_path / "cert.pem") for name in NAMES[:4]]
    processes.extend(clients)
    assert server.wait(60) == 0, server.output
    for client in clients:
        assert client.wait(10) == 0, client.output
        assert "the event is over" in client.output
    out = tmp_path / "out"
    finished = rows(out)
    assert sorted(row["game_no"] for row in finished) == list(range(1, 13))
    for row in finished:
        assert row["termination"] == "normal", row["reason"]
        for colour in ("black", "white"):
            lag = row[f"{colour}_lag"]
            assert len(lag) == row[f"{colour}_moves"]
            assert all(0 <= allowance <= measured + 1e-6 for measured, allowance in lag)
    summary = json.loads((out / "summary.json").read_text())
    assert sum(engine["games"] for engine in summary["standings"]) == 24
    assert len(list((out / "games").glob("game-*.sgf"))) == 12
    assert (out / "report.html").exists()
    assert json.loads((out / "match.json").read_text())["event"]["format"] == "round-robin"
    # Each finished game's line counts it, however close together games end, and the leader
    # named last is the standings' first; the closing summary is the field's, as a round robin.
    lines = server.output.splitlines()
    counts = [int(match.group(1)) for line in lines if (match := re.match(r"\[(\d+)/12\]", line))]
    assert counts == list(range(1, 13)), server.output
    leader = summary["standings"][0]
    assert f"| leads: {leader['name']} {leader['points']:g}/{leader['games']}" in \
        next(line for line in lines if line.startswith("[12/12]"))
    assert "Standings of the field (12 games, 0 complete pairs):" in lines
    assert not any(line.startswith("Results of ") for line in lines)
    for name in NAMES[:4]:
        assert f"{name} connected from 127.0.0.1" in server.output
    assert "secret-token" not in server.output


def test_a_wrong_token_is_refused_on_both_sides_and_logged_without_it(tmp_path, processes):
    server, url = start_event(write_event(tmp_path))
    processes.append(server)
    intruder = connect(url, "Alpha", token="not-the-token-of-anyone-at-all")
    processes.append(intruder)
    assert intruder.wait(20) == 2
    assert intruder.lines[-1] == ("olympiad-referee: error: refused by the server: "
                                  "wrong token"), intruder.output
    server.wait_for(r"refused a connection from 127\.0\.0\.1:\d+: wrong token$")
    assert "not-the-token" not in server.output
    assert not rows(tmp_path / "out")


def test_tokens_do_not_travel_in_clear_text_off_this_machine(tmp_path):
    write_event(tmp_path, listen={"host": "0.0.0.0"})
    refused = referee("event", "event.toml", cwd=tmp_path)
    assert refused.wait(20) == 2
    assert "give a TLS certificate and key" in refused.output
    client = referee("connect", "ws://192.0.2.1:8443/", "--token", "x" * 20, "--engine", "e")
    assert client.wait(20) == 2
    assert "not encrypted and not on this machine" in client.output


def test_a_refused_connection_is_tried_again_with_growing_delays_saying_so(processes):
    port = free_port()  # nothing listens there
    client = referee("connect", f"ws://127.0.0.1:{port}/", "--token", token_of("Alpha"),
                     "--engine", "e")
    processes.append(client)
    refused = re.compile(rf"^\S+ 127\.0\.0\.1:{port} refused the connection \(the server "
                         rf"is not running there, or not yet\); connecting again in "
                         rf"([0-9.]+) s$")

    def two_delays() -> list[float]:
        """The first two delays the client announced, once it has announced two."""
        found = [float(match.group(1)) for line in list(client.lines)
                 if (match := refused.match(line))]
        return found[:2] if len(found) >= 2 else []

    first, second = wait_for(two_delays, 10, client.popen, "two tries")
    assert first < second, client.output  # the processes fixture then kills the client


@pytest.mark.parametrize("to_a_thread", [False, True])
def test_ctrl_c_ends_a_waiting_client_at_once(tmp_path, processes, to_a_thread):
    """Ctrl-C ends ``connect`` at once with status 130, even while no message comes (the event
    waits for the other participant) and even when the kernel delivers it to another of the
    client's threads (``kill`` on a thread's id does)."""
    server, url = start_event(write_event(tmp_path))
    processes.append(server)
    alpha = connect(url, "Alpha")
    processes.append(alpha)
    alpha.wait_for("connected to Test event")
    pid = alpha.popen.pid
    os.kill(another_thread(pid) if to_a_thread else pid, signal.SIGINT)
    assert alpha.wait(10) == 130, alpha.output


def test_a_dropped_client_restarted_within_the_grace_window_finishes_its_game(
        tmp_path, processes):
    server, url = game_under_way(tmp_path, processes, games=1, grace=20)
    beta = processes[-1]
    beta.kill()  # its engine goes with it (its keeper sees its parent die)
    server.wait_for("Beta disconnected")
    processes.append(connect(url, "Beta", SLOW_ENGINE))
    assert server.wait(60) == 0, server.output
    (row,) = rows(tmp_path / "out")
    assert row["termination"] == "normal", row["reason"]
    assert server.output.count("Beta connected") == 2


def test_a_client_that_stays_away_forfeits_then_its_next_game_is_a_no_show(
        tmp_path, processes):
    server, _ = game_under_way(tmp_path, processes, games=2, grace=1, no_show=2)
    processes[-1].kill()  # Beta
    assert server.wait(60) == 0, server.output
    first, second = sorted(rows(tmp_path / "out"), key=lambda row: row["game_no"])
    assert first["termination"] == "disconnect"
    assert "Beta disconnected and did not come back within the 1 s grace window" in (
        first["reason"])
    assert first[f"{first['at_fault']}"] == "Beta"
    assert second["termination"] == "no_show"
    assert second["reason"] == "Beta did not come within the 2 s no-show limit"
    assert second[second["at_fault"]] == "Beta"
    assert second["plies"] == 0


def test_spectators_see_the_report_and_the_games_in_progress(tmp_path, processes):
    port = free_port()
    event_file = write_event(tmp_path, games=1, boardsize="6")
    text = event_file.read_text().replace("[spectators]\nport = 0", f"[spectators]\nport = {port}")
    event_file.write_text(text)
    server, url = start_event(event_file)
    processes.append(server)
    page = server.wait_for(r"spectators: (\S+)").group(1)
    processes += [connect(url, "Alpha", SLOW_ENGINE), connect(url, "Beta", SLOW_ENGINE)]

    def live() -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/live.json", timeout=5) as answer:
            return json.load(answer)
    games = wait_for(lambda: live()["games"], 20, what="a game on the live page")
    assert games[0]["black"] in ("Alpha", "Beta")
    with urllib.request.urlopen(page, timeout=5) as answer:
        assert b"Alpha" in answer.read()
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/match.json", timeout=5)
    assert server.wait(60) == 0


def test_a_killed_server_resumes_keeping_every_finished_game_once(tmp_path, processes):
    port = free_port()
    event_file = write_event(tmp_path, NAMES[:4], port=port, games=2)
    server, url = start_event(event_file)
    clients = [connect(url, name, SLOW_ENGINE) for name in NAMES[:4]]
    processes += [server, *clients]
    wait_for_rows(tmp_path / "out", 3)
    server.kill()
    server, _ = start_event(event_file)
    processes.append(server)
    assert server.wait(90) == 0, server.output
    lines = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    numbers = [json.loads(line)["game_no"] for line in lines if line.strip().endswith("}")]
    assert sorted(numbers) == list(range(1, 13))
    assert len(list(read_rows(tmp_path / "out" / "results.jsonl"))) == 12
    for client in clients:
        assert client.wait(10) == 0
        assert re.search(rf"the connection to 127\.0\.0\.1:{port} dropped \(.+\); connecting "
                         rf"again in [0-9.]+ s", client.output), client.output


def test_a_ladder_pairs_whoever_is_free_and_rates_them(tmp_path, processes):
    event_file = write_event(tmp_path, NAMES[:4], format="ladder", games=8,
                             anchor={"name": "Alpha", "elo": 1000})
    server, url = start_event(event_file)
    processes.append(server)
    processes += [connect(url, name) for name in NAMES[:4]]
    assert server.wait(60) == 0, server.output
    finished = rows(tmp_path / "out")
    assert sorted(row["game_no"] for row in finished) == list(range(1, 9))
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    ratings = {rating["name"]: rating["elo"] for rating in summary["ratings"]["engines"]}
    assert ratings["Alpha"] == 1000
    assert set(ratings) == set(NAMES[:4])
    played = {name: sum(name in (row["black"], row["white"]) for row in finished)
              for name in NAMES[:4]}
    assert min(played.values()) >= 1, played  # a client that starts late plays less
    assert token_of("Alpha") not in server.output


def test_a_killed_ladder_resumes_numbering_after_its_finished_games(tmp_path, processes):
    event_file = write_event(tmp_path, NAMES[:4], port=free_port(), format="ladder", games=6)
    server, url = start_event(event_file)
    processes.append(server)
    processes += [connect(url, name, SLOW_ENGINE) for name in NAMES[:4]]
    wait_for_rows(tmp_path / "out", 2)
    server.kill()
    server, _ = start_event(event_file)
    processes.append(server)
    assert server.wait(90) == 0, server.output
    numbers = [row["game_no"] for row in rows(tmp_path / "out")]
    assert sorted(numbers) == list(range(1, 7))
