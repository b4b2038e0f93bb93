"""A person's seat (``referee/play/human.py``) and its page's server
(``referee/host/play_page.py``), over real HTTP on 127.0.0.1, with the referee's own game loop
and an in-process random engine on the other side (no browser: ``tests/report/test_play.py``
clicks through real games).

What the page sends that the referee must not take is refused, logged and never applied: a
forged or illegal move, a move for a stale ply or out of turn, a tab that no longer holds the
seat, a request for another host or from another site, a body that is not JSON. A takeback goes
through ``undo`` on both sides, and the record holds the game as it was finally played.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import subprocess
import sys
import threading
import time

import pytest

from engine import find_game
from engine.search import Player
from protocol.cli import build_engine
from referee.plan.setup import Setup
from referee.plan.time_control import TimeControl
from referee.play.channel import GtpFailure, InProcessChannel
from referee.play.game import play_game
from referee.play.human import HumanChannel, Seat
from referee.host.play_page import SeatServer, choices, why_not

from ..processes import wait_for


class Page:
    """Requests as the page makes them (or as a forger would), to one server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.token = ""

    def call(self, method: str, path: str, body: dict | None = None,
             headers: dict[str, str] | None = None, raw: bytes | None = None) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        connection.request(method, path, data, {"Content-Type": "application/json",
                                                **(headers or {})})
        response = connection.getresponse()
        answer = json.loads(response.read() or b"{}")
        connection.close()
        return response.status, answer

    def claim(self) -> None:
        status, answer = self.call("POST", "/claim", {})
        assert status == 200, answer
        self.token = answer["token"]

    def state(self) -> dict:
        return self.call("GET", f"/state?token={self.token}")[1]

    def my_turn(self, after: int = -1) -> dict:
        """The state once the person is to move at a ply past ``after`` (or the game ended)."""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            state = self.state()
            if state["ply"] > after and (state["your_turn"] or state["to_move"] is None):
                return state
            time.sleep(0.01)
        raise AssertionError(f"not the person's turn: {state}")

    def move(self, text: str, ply: int, token: str | None = None) -> tuple[int, dict]:
        return self.call("POST", "/move", {"token": self.token if token is None else token,
                                           "ply": ply, "move": text})


@pytest.fixture
def table():
    """A game of 4x4 Domineering under way: the person (black, at the seat) against the random
    engine; yields the seat, the page and a list that receives the game's record."""
    seat = Seat()
    server = SeatServer(seat)
    engine = InProcessChannel(build_engine(Player(algorithm="random", seed=3)).respond)
    records: list = []
    setup = Setup("domineering", size=(4, 4))
    thread = threading.Thread(target=lambda: records.append(
        play_game(setup, [HumanChannel(seat), engine], random.Random(1), observer=seat.moved,
                  controls=(TimeControl(60), TimeControl(60)))),
        daemon=True)
    thread.start()
    page = Page(server.httpd.server_address[1])
    page.claim()
    yield seat, page, records
    seat.close()
    thread.join(10)
    server.stop()


def test_bad_input_from_the_page_is_refused_logged_and_never_applied(table, caplog):
    seat, page, records = table
    state = page.my_turn()
    assert state["ply"] == 0 and state["choices"]["next"]
    refusals = [
        page.move("a1-b1", 0),                      # white's domino on black's turn: illegal
        page.move("a1-a3", 0),                      # forged: not a domino at all
        page.move("z9", 0),                         # not a square
        page.move("a1-a2", 5),                      # a stale (or future) ply
        page.move("a1-a2", 0, token="forged"),      # not the tab holding the seat
        page.call("POST", "/move", raw=b"{not json"),
        page.call("POST", "/move", raw=b"x" * 5000),
        page.call("POST", "/move", {"token": page.token, "ply": 0, "move": "a1-a2"},
                  headers={"Host": "evil.example:80"}),
        page.call("POST", "/move", {"token": page.token, "ply": 0, "move": "a1-a2"},
                  headers={"Origin": "http://evil.example"}),
        page.call("POST", "/takeback", {"token": page.token, "ply": 0}),  # nothing to take back
    ]
    assert [status for status, _ in refusals] == [409] * 5 + [400, 413, 400, 400, 409]
    assert "a1-b1: " in refusals[0][1]["error"]   # the rules' own reason
    assert all(answer["error"] for _, answer in refusals)
    # Each logged, but the gate's second and third 400 from this address only counted, for the
    # line of their sum (tests/report/test_refusal_log.py).
    assert len([record for record in caplog.records if record.name == "referee.seat"]) \
        == len(refusals) - 2
    assert page.state()["ply"] == 0 and seat.moves == []
    # The real move goes through; then, while the engine's reply is the last move, the old
    # ply is stale.
    assert page.move("a1-a2", 0) == (200, {"move": "a1-a2"})
    state = page.my_turn(0)
    assert state["ply"] == 2
    assert page.move("c1-c2", 0)[0] == 409
    assert page.state()["ply"] == 2


def test_takeback_undoes_both_moves_everywhere_and_the_record_holds_the_game(table):
    seat, page, records = table
    page.my_turn()
    assert page.move("a1-a2", 0)[0] == 200
    page.my_turn(0)
    assert page.call("POST", "/takeback", {"token": page.token, "ply": 2}) == (200, {})
    wait_for(lambda: (state := page.state())["ply"] == 0 and state["your_turn"], 10,
             what="the game back at its start")
    assert seat.moves == []
    # Played on to the end: the record holds the moves after the takeback only.
    ply = 0
    while (state := page.my_turn(ply - 1 if ply else -1))["to_move"] is not None:
        ply = state["ply"]
        position = find_game("domineering")({}, (4, 4)).position_after(state["moves"])
        text = position.legal_move_texts()[-1]
        assert page.move(text, ply)[0] == 200
        ply += 1
    wait_for(lambda: records, 10, what="the game's record")
    record = records[0]
    assert record.moves == state["moves"]
    assert record.timed_moves == [(len(record.moves) + 1) // 2, len(record.moves) // 2]
    final = find_game("domineering")({}, (4, 4)).position_after(record.moves)
    assert record.result == final.outcome.result


def test_resigning_and_leaving(table):
    seat, page, records = table
    page.my_turn()
    assert page.call("POST", "/resign", {"token": page.token, "ply": 0}) == (200, {})
    wait_for(lambda: records, 10, what="the game's record")
    assert (records[0].result, records[0].termination.value) == ("W+", "resign")


def test_the_page_opened_last_takes_the_seat_and_the_game_goes_on(table):
    """A tab that lost the seat (another was opened: a reload, a browser restarted after a
    crash) watches and may not move; the new one plays on, with the clock as it stands."""
    seat, page, records = table
    page.my_turn()
    old = Page(page.port)
    old.token = page.token
    page.claim()
    assert old.state()["holder"] is False and page.state()["your_turn"]
    assert old.move("a1-a2", 0)[0] == 409
    assert page.move("a1-a2", 0) == (200, {"move": "a1-a2"})
    assert page.my_turn(0)["ply"] == 2 and records == []


def test_a_person_away_longer_than_allowed_resigns(table):
    """The last page closes: the person is away; a page opened in time takes the seat back,
    and once no page has been open for ``away`` seconds, the person resigns."""
    seat, page, records = table
    seat.away = 0.5
    page.my_turn()
    assert page.call("POST", "/leave", {"token": page.token}) == (200, {})
    page.claim()  # back in time: the game goes on
    time.sleep(0.8)
    assert records == [] and page.state()["your_turn"]
    assert page.call("POST", "/leave", {"token": page.token}) == (200, {})
    wait_for(lambda: records, 10, what="the game's record")
    assert records[0].termination.value == "resign"


def test_the_seat_answers_the_protocol_with_the_rules():
    channel = HumanChannel(Seat())
    assert channel.send("protocol_version") == "2"
    assert channel.send("known_command genmove") == "true"
    channel.send("set_game domineering")
    channel.send("boardsize 3")
    assert channel.send("legal_moves").split()[:2] == ["a1-a2", "a2-a3"]
    channel.send("play black b1-b2")
    with pytest.raises(GtpFailure, match="b1-c1: b1 is already covered"):
        channel.send("play white b1-c1")
    channel.send("undo")
    assert channel.send("side_to_move") == "black"
    with pytest.raises(GtpFailure):
        channel.send("undo")
    with pytest.raises(GtpFailure, match="unknown command"):
        channel.send("frobnicate")


def test_clicks_are_explained_by_the_rules():
    position = find_game("breakthrough")({}, (4, 5)).initial_position()  # white moves first
    assert sorted(choices(position, [])["next"]) == ["a2", "b2", "c2", "d2"]
    assert sorted(choices(position, ["a2"])["next"]) == ["a3", "b3"]
    assert choices(position, ["a2", "b3"])["next"] == {}
    assert choices(position, ["a2", "b3"])["complete"] == ["a2-b3"]
    assert [choices(position, cells)["prompt"] for cells in ([], ["a2"])] == [
        "choose a piece to move", "choose where it goes"]
    assert why_not(position, ["a2", "a4"]).startswith("a2-a4: ")
    assert why_not(position, ["a5"]) == "a5: no legal move starts there"


def test_a_compound_move_is_its_cells_in_order():
    """laoCoon after the placements: a ring, the space it steps to, the space the received
    disc goes to; the first two make no move by themselves."""
    laocoon = find_game("laocoon")()
    position = laocoon.initial_position()
    for _ in range(5):
        position.play(position.legal_moves()[0])
    text = next(text for text in position.legal_move_texts() if "+" in text)
    ring, step, disc = text.replace("+", "-").split("-")
    assert ring in choices(position, [])["next"]
    assert step in choices(position, [ring])["next"]
    after_step = choices(position, [ring, step])
    assert disc in after_step["next"] and after_step["complete"] == []
    assert after_step["made"] == f"{ring}-{step}"
    assert after_step["prompt"].startswith("place the ") and "disc you receive" in \
        after_step["prompt"]
    made = choices(position, [ring, step, disc])
    assert made["next"] == {} and made["complete"] == [text]


def test_a_move_may_name_a_cell_twice():
    """laoCoon's black swap on the space just placed on (``b5+b5=a6``), and a disc put back on
    the space the ring just left (``d3-e3+d3``): each cell offered again after itself."""
    position = laocoon_until(r"([a-h]\d)\+\1=[a-h]\d", variant="random")
    space = next(iter(choices(position, [])["next"]))
    place = choices(position, [space])
    assert space in place["next"] and place["complete"] == [space]
    assert place["prompt"] == "you may swap two discs: choose the first space"
    swap = choices(position, [space, space])
    assert swap["made"] == f"{space}+{space}"
    assert swap["prompt"].startswith("choose the space to swap it with")
    other = next(iter(swap["next"]))
    assert choices(position, [space, space, other])["complete"] == [f"{space}+{space}={other}"]
    position = laocoon_until(r"([a-h]\d)-[a-h]\d\+\1")
    back = next(text for text in position.legal_move_texts()
                if re.fullmatch(r"([a-h]\d)-[a-h]\d\+\1", text))
    ring, step = back[:2], back[3:5]
    assert ring in choices(position, [ring, step])["next"]
    assert choices(position, [ring, step, ring])["complete"] == [back]


def laocoon_until(pattern: str, **options: str):
    """A laoCoon game played at random until some legal move's text matches ``pattern``."""
    position = find_game("laocoon")(options).initial_position()
    rng = random.Random(3)
    while not any(re.fullmatch(pattern, text) for text in position.legal_move_texts()):
        position.play(position.parse_move(rng.choice(position.legal_move_texts())))
    return position


def test_a_person_takes_a_seat_in_a_match(tmp_path):
    """``match --engine human``: two games against the random engine, colours alternating,
    the person's moves coming over HTTP; the usual records."""
    engine = f"{sys.executable} -m protocol.cli --algorithm random --seed 5"
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "match", "--game", "domineering", "--boardsize", "3",
         "--engine", "human", "--engine", engine, "--games", "2", "--time", "60",
         "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "DISPLAY": "", "WAYLAND_DISPLAY": ""})
    try:
        port = int(re.search(r"play at http://127\.0\.0\.1:(\d+)/",
                             process.stderr.readline()).group(1))
        page = Page(port)
        page.claim()
        deadline = time.monotonic() + 30
        while process.poll() is None and time.monotonic() < deadline:
            try:
                state = page.state()
                if state["your_turn"]:
                    position = find_game("domineering")({}, (3, 3)).position_after(
                        state["moves"])
                    page.move(position.legal_move_texts()[0], state["ply"])
            except (OSError, http.client.HTTPException):  # the run ended, and its page with it
                pass
            time.sleep(0.01)
        _, errors = process.communicate(timeout=10)
    finally:
        process.kill()
    assert process.returncode == 0, errors
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text()
            .splitlines()]
    named = "olympiad-random"  # the engine's own name answer (--algorithm random)
    assert [(row["black"], row["white"]) for row in rows] == [("human", named),
                                                              (named, "human")]
    for row in rows:
        final = find_game("domineering")({}, (3, 3)).position_after(row["moves"])
        assert (row["result"], row["termination"]) == (final.outcome.result, "normal")


def test_the_engines_view_is_shown_until_the_next_move(table):
    """The hook for an engine's evaluation and PV: shown in the state, cleared by a move."""
    seat, page, records = table
    page.my_turn()
    seat.set_analysis({"score": 35, "pv": ["a1-a2", "b1-c1"]})
    assert page.state()["analysis"] == {"score": 35, "pv": ["a1-a2", "b1-c1"]}
    assert page.move("a1-a2", 0)[0] == 200
    assert page.my_turn(0)["analysis"] is None


@pytest.mark.parametrize("words, expected", [
    (["--engine", "nosuchprog"], "engine 2 (nosuchprog) cannot start: 'nosuchprog' not found"),
    (["--engine", f"{sys.executable} -m protocol.cli --algorithm greedy",
      "--name", "olympiad-greedy 0.1.0"],
     "--name 'olympiad-greedy 0.1.0' is the engine's name too"),
    (["--engine", "cat", "--boardsize", "9"], "loa is played on a fixed board"),
])
def test_play_refuses_a_bad_command_line_in_one_line_before_anything_starts(
        tmp_path, capsys, words, expected):
    from referee.commands import cli
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", "--game", "loa", "--no-browser", "--out", str(tmp_path / "out"),
                  *words])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert expected in error and error.count("\n") == 1 and "play at" not in error
    assert not (tmp_path / "out").exists()
