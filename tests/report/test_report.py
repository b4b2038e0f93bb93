"""The report without a browser: replays against the rules, the page's sections, the commands,
the live server and the observers that keep the report up to date during a run."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine import find_game
from engine.drawing import svg
from referee.commands import cli
from referee.plan.schedule import ScheduledGame
from referee.plan.setup import Setup
from referee.plan.time_control import TimeControl
from referee.play.entrants import EngineSpec
from referee.records.results import FinishedGame, GameResult
from referee.records.folder import REPORT_NAME
from referee.report.folder import report_data, write_report
from referee.report.observers import LiveView, ReportWriter
from referee.report.page import GAMES_FILE, REPLAYS_FORMAT_FILE, ReportData, game_file, render
from referee.report.replay import REPLAY_FORMAT, replay, sgf_clocks, unpack
from referee.host.report_server import ReportServer
from referee.report.live import LiveGame, LiveGames
from referee.run.settings import RunSettings
from referee.stats import SprtSettings, Tally, history, summarize

from ..processes import another_thread, interruptible
from ..results import rows_written
from .conftest import run_match


def loaded(script: str) -> dict:
    """The data a ``report-assets/game-NNNN.js`` file hands to the page."""
    prefix, suffix = "OlympiadReport.loaded(", ");\n"
    assert script.startswith(prefix) and script.endswith(suffix)
    return json.loads(script[len(prefix):-len(suffix)])


# --- replays -----------------------------------------------------------------------------

def test_every_ply_of_a_replay_is_the_rules_position(breakthrough_match):
    for row in rows_written(breakthrough_match):
        game = find_game(row["game"])()
        data = replay(row)
        assert len(data["boards"]["frames"]) == row["plies"] + 1
        for ply in range(row["plies"] + 1):
            position = game.position_after(row["moves"][:ply])
            last = row["moves"][ply - 1] if ply else None
            assert unpack(data["boards"], ply) == svg(position, last), f"ply {ply}"


def test_replay_clocks_are_those_of_the_sgf_record(breakthrough_match):
    row = rows_written(breakthrough_match)[0]
    sgf = (breakthrough_match / "games" / "game-0001.sgf").read_text()
    left = [float(value) for value in re.findall(r"[BW]L\[([0-9.]+)\]", sgf)]
    data = replay(row, sgf_clocks(sgf), start=(20.0, 20.0))
    assert data["clocks"][0] == [20.0, 20.0]
    first = find_game(row["game"]).first_player
    for ply, seconds in enumerate(left, 1):
        mover = first if ply % 2 else 1 - first
        assert data["clocks"][ply][mover] == seconds
        assert data["clocks"][ply][1 - mover] == data["clocks"][ply - 1][1 - mover]


def test_a_move_the_rules_refuse_ends_the_replay_with_the_reason():
    row = {"game_no": 1, "game": "breakthrough", "moves": ["a2-a3", "a3-a5"], "black": "b",
           "white": "w", "result": "0", "termination": "move_limit", "reason": "limit"}
    data = replay(row)
    assert len(data["boards"]["frames"]) == 2
    assert "a3-a5" in data["error"]


# --- the page ----------------------------------------------------------------------------

def test_report_command_writes_the_page_and_a_replay_per_game(breakthrough_match, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["report", str(breakthrough_match)])
    assert exit_info.value.code == 0
    listed = (breakthrough_match / GAMES_FILE).read_text()
    rows = rows_written(breakthrough_match)
    for row in rows:
        assert f'"game_no": {row["game_no"]},' in listed
        data = loaded((breakthrough_match / game_file(row["game_no"])).read_text())
        assert data["moves"] == row["moves"] and data["reason"] == row["reason"]
    assert capsys.readouterr().out.strip() == str(breakthrough_match / REPORT_NAME)


def test_the_page_asks_for_nothing_from_the_network(breakthrough_match):
    write_report(breakthrough_match)
    page = (breakthrough_match / REPORT_NAME).read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert not re.search(r"url\(|@import", page)
    assert re.findall(r"<link[^>]*>", page) == ['<link rel="icon" href="data:,">']
    assert "<script src" not in page


def results(rows: list[dict]) -> list[GameResult]:
    return [GameResult.from_row(row) for row in rows]


def finished(row: dict) -> FinishedGame:
    """A finished game as the runner hands it to observers, from its results row."""
    return FinishedGame(row, GameResult.from_row(row), (), "black")


def made_up_rows(engines: int, games: int, seed: int = 1, paired: bool = False) -> list[dict]:
    """Results rows without moves (the page's figures need none): seeded random outcomes."""
    rng = random.Random(seed)
    rows = []
    for number in range(1, games + 1):
        black, white = rng.sample(range(1, engines + 1), 2)
        rows.append({"game_no": number, "game": "loa", "black_index": black,
                     "white_index": white, "black": f"e{black}", "white": f"e{white}",
                     "result": rng.choice(["B+", "W+", "0"]), "termination": "normal",
                     "reason": "ended", "plies": 10, "pair": (number + 1) // 2 if paired else None,
                     "black_time": 1.0, "white_time": 1.5, "black_moves": 5, "white_moves": 5,
                     "black_min_left": 9.0, "white_min_left": 8.5})
    return rows


def page_for(rows: list[dict], names: list[str], sprt: SprtSettings | None = None) -> str:
    found = results(rows)
    return render(ReportData(None, names, summarize(found, names, sprt=sprt),
                             list(history(found, names, sprt=sprt))))


def test_report_writes_the_replays_it_lacks_and_all_of_them_in_a_new_format(
        breakthrough_match, tmp_path):
    breakthrough_match = shutil.copytree(breakthrough_match, tmp_path / "copy")
    first = breakthrough_match / game_file(1)
    first.write_text("stale")
    (breakthrough_match / game_file(2)).unlink()
    write_report(breakthrough_match)
    assert first.read_text() == "stale" and (breakthrough_match / game_file(2)).exists()
    (breakthrough_match / REPLAYS_FORMAT_FILE).write_text(f"{REPLAY_FORMAT - 1}\n")
    write_report(breakthrough_match)
    assert first.read_text().startswith("OlympiadReport.loaded(")
    assert (breakthrough_match / REPLAYS_FORMAT_FILE).read_text() == f"{REPLAY_FORMAT}\n"
    first.write_text("stale")
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["report", "--all-replays", str(breakthrough_match)])
    assert exit_info.value.code == 0
    assert first.read_text().startswith("OlympiadReport.loaded(")


def test_a_replay_written_as_its_game_ends_is_the_one_the_records_rebuild(
        breakthrough_match, tmp_path):
    """The live run writes each replay from the game's own clocks, without reading back the
    SGF it has just written; ``report --all-replays`` rebuilds them from the SGF records: the
    same files, byte for byte."""
    live = {number: (breakthrough_match / game_file(number)).read_text() for number in (1, 2)}
    copy = shutil.copytree(breakthrough_match, tmp_path / "copy")
    (copy / REPLAYS_FORMAT_FILE).write_text(f"{REPLAY_FORMAT - 1}\n")
    write_report(copy)
    assert {number: (copy / game_file(number)).read_text() for number in (1, 2)} == live
    assert "clocks" in live[1]


def test_an_sprt_run_shows_the_llr_over_games_between_its_bounds():
    rows = made_up_rows(2, 12, paired=True)
    sprt = SprtSettings(elo0=0, elo1=10)
    page = page_for(rows, ["e1", "e2"], sprt)
    section = page[page.index('<section id="sprt">'):]
    section = section[:section.index("</section>")]
    lower, upper = sprt.bounds
    assert f"lower bound {lower:.2f}" in section and f"upper bound {upper:.2f}" in section
    assert section.count("<polyline") == 1 and section.count('class="level"') == 2
    llr = summarize(results(rows), ["e1", "e2"], sprt=sprt).headline.sprt.llr
    assert f"LLR {llr:.2f}" in section
    assert '<section id="elo">' in page and "pentanomial" in page


def section_of(page: str, name: str) -> str:
    section = page[page.index(f'<section id="{name}">'):]
    return section[:section.index("</section>")]


def test_an_infinite_elo_is_drawn_beyond_the_scale_and_said_once():
    # Game 1 lost: Elo -inf, interval [-inf, +233.8]; game 2 won: 0 and a finite interval.
    rows = made_up_rows(2, 2)
    rows[0].update(black_index=1, white_index=2, result="W+")
    rows[1].update(black_index=2, white_index=1, result="W+")
    page = page_for(rows[:1], ["e1", "e2"])
    chart = section_of(page, "elo")
    zero = re.search(r'class="level" x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"', chart).group(1)
    bottom = max(float(y) for y in re.findall(r'class="grid" x1="[\d.]+" x2="[\d.]+" '
                                              r'y1="([\d.]+)"', chart))
    arrow = re.search(r'<path class="beyond" d="M[\d.]+,([\d.]+) ', chart)
    assert arrow and float(arrow.group(1)) > bottom >= float(zero) and "<title>-inf" in chart
    assert "<polyline" not in chart and "<circle" not in chart  # no point at a number
    headline = section_of(page, "standings")
    assert "<th class=\"name\">Elo</th><td>-inf</td>" in headline
    assert headline.count("[-inf, +233.8]") == 2  # the interval row, and the standings' e1
    chart = section_of(page_for(rows, ["e1", "e2"]), "elo")
    assert chart.count('class="beyond"') == 1 and chart.count("<polyline") == 1
    assert chart.count("<circle") == 1  # the last point, game 2's finite Elo


def test_without_sprt_there_is_no_sprt_section():
    page = page_for(made_up_rows(2, 6), ["e1", "e2"])
    assert '<section id="sprt">' not in page and '<section id="elo">' in page


def test_a_round_robin_shows_ratings_and_the_crosstable():
    rows = made_up_rows(3, 18)
    page = page_for(rows, ["e1", "e2", "e3"])
    assert "Bradley–Terry" in page and '<section id="crosstable">' in page
    cross = summarize(results(rows), ["e1", "e2", "e3"]).crosstable
    cell = cross[0][1]
    assert f"<td>{cell.points:g}/{cell.games}</td>" in page


def test_time_use_and_terminations_per_engine_come_from_the_summary():
    rows = made_up_rows(2, 4)
    page = page_for(rows, ["e1", "e2"])
    summary = summarize(results(rows), ["e1", "e2"])
    for standing in summary.standings:
        time = standing.time
        assert f"<td>{time.moves}</td><td>{time.seconds:.1f}</td>" in page
    assert f"All games: normal {len(rows)}" in page


def test_names_and_reasons_are_escaped():
    rows = made_up_rows(2, 2)
    rows[0]["reason"] = "<script>alert(1)</script>"
    page = page_for(rows, ["<b>e1</b>", "e2"])
    assert "<script>alert" not in page and "&lt;b&gt;e1&lt;/b&gt;" in page


def test_an_empty_folder_makes_a_page_saying_so(tmp_path):
    (tmp_path / "match.json").write_text(json.dumps({"game": "loa", "engines": ["a", "b"]}))
    write_report(tmp_path)
    assert "no game finished yet" in (tmp_path / REPORT_NAME).read_text()


def test_report_and_serve_refuse_a_folder_that_is_not_a_run(tmp_path, capsys):
    for command in (["report", str(tmp_path)], ["serve", str(tmp_path), "--port", "0"]):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(command)
        assert exit_info.value.code == 2
        error = capsys.readouterr().err
        assert "not an output folder" in error and error.count("\n") == 1


# --- live --------------------------------------------------------------------------------

def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def test_the_server_gives_the_report_and_the_games_in_progress_only(breakthrough_match):
    write_report(breakthrough_match)
    live = LiveGames()
    live.start(LiveGame(7, "b", "w", find_game("breakthrough")(), (20.0, 20.0)))
    live.move(7, "a2-a3", (20.0, 19.5))
    server = ReportServer(breakthrough_match, live, port=0)
    try:
        base = server.url.rsplit("/", 1)[0]
        assert server.url.startswith("http://127.0.0.1:")
        status, page = get(server.url)
        assert status == 200 and page == (breakthrough_match / REPORT_NAME).read_bytes()
        assert get(f"{base}/{game_file(1)}")[0] == 200
        status, body = get(f"{base}/live.json")
        state = json.loads(body)
        [game] = state["games"]
        position = find_game("breakthrough")().position_after(["a2-a3"])
        assert (game["game_no"], game["ply"], game["clocks"]) == (7, 1, [20.0, 19.5])
        assert game["board"] == svg(position, "a2-a3")
        assert state["version"] == (breakthrough_match / REPORT_NAME).stat().st_mtime_ns
        for private in ("results.jsonl", "match.json", "games/game-0001.sgf",
                        "report-assets/../match.json"):
            assert get(f"{base}/{private}")[0] == 404, private
    finally:
        server.stop()


def has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not has_ipv6_loopback(), reason="this machine has no IPv6 loopback (::1)")
@pytest.mark.parametrize("host", ["::1", "::"])
def test_the_server_listens_on_an_ipv6_address(breakthrough_match, host):
    write_report(breakthrough_match)
    server = ReportServer(breakthrough_match, host=host, port=0)
    try:
        assert server.url.startswith("http://[::1]:")
        status, page = get(server.url)
        assert status == 200 and page == (breakthrough_match / REPORT_NAME).read_bytes()
    finally:
        server.stop()


@pytest.mark.parametrize("to_a_thread", [False, True])
def test_serve_ends_at_ctrl_c_whichever_thread_it_reaches(breakthrough_match, to_a_thread):
    """``serve`` answers until Ctrl-C, then ends (status 0) within moments, even when the
    kernel delivers the signal to one of its other threads (``kill`` on a thread's id does)."""
    serve = subprocess.Popen([sys.executable, "-m", "referee", "serve", str(breakthrough_match),
                              "--port", "0"], stdout=subprocess.PIPE, text=True,
                             preexec_fn=interruptible)
    try:
        url = re.search(r"serving (\S+)", serve.stdout.readline()).group(1)
        assert get(url)[0] == 200
        os.kill(another_thread(serve.pid) if to_a_thread else serve.pid, signal.SIGINT)
        assert serve.wait(10) == 0
    finally:
        serve.kill()
        serve.communicate()
    with pytest.raises(urllib.error.URLError):
        get(url)


def fake_run(out: Path, rows: list[dict], sprt=None) -> SimpleNamespace:
    engines = (EngineSpec("a", "ours"), EngineSpec("b", "random", control=TimeControl(5.0)))
    return SimpleNamespace(out=out, names=["ours", "random"], sprt=sprt, anchor=None,
                           planned=[None] * 6, setup=Setup("breakthrough"), engines=engines,
                           tally=Tally.of(results(rows), 2))


def test_the_writer_rewrites_the_page_at_most_once_a_second_and_at_the_end(
        breakthrough_match, tmp_path):
    rows = rows_written(breakthrough_match)
    for name in ("match.json", "results.jsonl", "games"):
        source = breakthrough_match / name
        if source.is_dir():
            (tmp_path / name).mkdir()
            for sgf in source.iterdir():
                (tmp_path / name / sgf.name).write_bytes(sgf.read_bytes())
        else:
            (tmp_path / name).write_bytes(source.read_bytes())
    first, *_ = source_lines = (tmp_path / "results.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "results.jsonl").write_text(first)  # the run starts with one game finished
    now = [100.0]
    writer = ReportWriter(min_interval=1.0, clock=lambda: now[0])
    run = fake_run(tmp_path, rows[:1])
    writer.run_started(run)
    assert "1 of 6 games" in (tmp_path / REPORT_NAME).read_text()
    names = ["ours", "random"]
    for row in rows[1:3]:
        found = results(rows[:row["game_no"]])
        writer.game_finished(finished(row), summarize(found, names))
        assert (tmp_path / game_file(row["game_no"])).exists()
    page = (tmp_path / REPORT_NAME).read_text()
    assert "1 of 6 games" in page  # games 2 and 3 came within the second
    assert (tmp_path / GAMES_FILE).read_text().count("OlympiadReport.listed(") == 3
    now[0] += 1.5
    writer.game_finished(finished(rows[3]), summarize(results(rows), names))
    (tmp_path / "results.jsonl").write_text("".join(source_lines))
    assert "4 of 6 games" in (tmp_path / REPORT_NAME).read_text()
    assert [point["games"] for point in writer.history] == [1, 2, 3, 4]
    assert writer.history == list(history(results(rows), names))
    assert report_data(tmp_path).history == writer.history


def test_a_report_that_cannot_be_written_does_not_stop_the_run(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("")
    writer = ReportWriter()
    writer.run_started(fake_run(blocked, []))
    writer.run_finished(summarize([], ["a", "b"]), None)
    assert capsys.readouterr().err.count("warning: the report could not be written") == 1


def test_the_live_view_follows_the_moves_of_a_game_in_progress(tmp_path):
    live = LiveGames()
    view = LiveView(live)
    view.run_started(fake_run(tmp_path, []))
    view.game_started(ScheduledGame(game_no=3, pair=None, black=0, white=1, seed=1,
                                    opening=None))
    moves = ["a2-a3", "h7-h6", "a3-a4"]
    for ply, move in enumerate(moves, 1):
        view.move_played(3, ply, move, (60.0 - ply, 5.0))
    [game] = live.snapshot()
    position = find_game("breakthrough")().position_after(moves)
    assert (game["black"], game["white"], game["ply"]) == ("ours", "random", 3)
    assert game["board"] == svg(position, "a3-a4")
    row = {"game_no": 3, "black_index": 1, "white_index": 2, "result": "B+",
           "termination": "normal"}
    view.game_finished(finished(row), summarize([], ["ours", "random"]))
    assert live.snapshot() == []


def test_match_serves_its_report_while_it_runs_and_stops_after(tmp_path, capsys):
    out = run_match(tmp_path / "served", "breakthrough", 1, 8, "--serve", "0",
                    "--sprt", "elo0=0 elo1=300")
    error = capsys.readouterr().err
    [url] = re.findall(r"live report at (http://127\.0\.0\.1:\d+/report\.html)", error)
    assert '<section id="sprt">' in (out / REPORT_NAME).read_text()
    assert (out / game_file(1)).exists()
    write_report(out)   # rebuilt from the records alone: the SPRT is still there
    assert '<section id="sprt">' in (out / REPORT_NAME).read_text()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=5)


def test_the_page_says_whose_clock_is_which(breakthrough_match):
    write_report(breakthrough_match)
    page = (breakthrough_match / REPORT_NAME).read_text()
    assert re.search(r'<p class="meta">\d+ games finished · time 20 each \(seconds\)</p>', page)
    settings = RunSettings.read(breakthrough_match)
    second = dataclasses.replace(settings.engines[1], control=TimeControl(5))
    settings = dataclasses.replace(settings, engines=(settings.engines[0], second))
    names = settings.names
    assert render(ReportData(settings, names)).count(f"time {names[0]} 20, {names[1]} 5") == 1
