"""Whole runs of ``olympiad-referee match`` as a user starts them: stops by Ctrl-C (one and two),
the folder lock against a second referee and after SIGKILL, no engine process left behind, and
the command line of the tournament runner (config file, engine options, gauntlet, openings)."""

from __future__ import annotations

import json
import random
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.commands import cli

from ..processes import command_words, interruptible, processes_where, wait_for
from ..results import rows_written

REPO = Path(__file__).resolve().parents[2]
PYTHON = shlex.quote(sys.executable)
INSTANT = f"{PYTHON} {shlex.quote(str(Path(__file__).with_name('bad_engine.py')))}"


def marked_engine(marker: int, depth: int = 2) -> str:
    """Our engine, with a seed that marks its processes for :func:`engines_alive`."""
    return f"{PYTHON} -m protocol.cli --depth {depth} --seed {marker}"


def engines_alive(marker: int) -> list[int]:
    """The processes whose command line holds ``--seed MARKER``."""
    def marked(entry: Path) -> bool:
        words = command_words(entry)
        return b"--seed" in words and str(marker).encode() in words
    return processes_where(marked)


def match_command(out: Path, marker: int, games: int = 40, *extra: str) -> list[str]:
    return [sys.executable, "-m", "referee", "match", "--game", "loa", "--games", str(games),
            "--time", "20", "--seed", "4", "--out", str(out), "--concurrency", "2",
            "--engine", marked_engine(marker, 1), "--engine", marked_engine(marker), *extra]


def start(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=interruptible)


@pytest.fixture
def marker() -> int:
    return random.randrange(10**8, 10**9)


def test_a_first_ctrl_c_lets_the_games_in_flight_finish(tmp_path, marker):
    out = tmp_path / "run"
    run = start(match_command(out, marker))
    wait_for(lambda: len(rows_written(out)) >= 1 and len(engines_alive(marker)) >= 4, process=run)
    run.send_signal(signal.SIGINT)
    stdout, stderr = run.communicate(timeout=60)
    assert run.returncode == 130, stderr
    assert "stopping: no new games, those in flight finish" in stderr
    assert stderr.splitlines()[-1].startswith("olympiad-referee: interrupted after")
    assert "Traceback" not in stderr and " #  engine" in stdout
    rows = rows_written(out)
    assert 2 <= len(rows) < 80 and len({row["game_no"] for row in rows}) == len(rows)
    assert json.loads((out / "summary.json").read_text())["games"] == len(rows)
    assert engines_alive(marker) == []


def test_a_second_ctrl_c_stops_at_once_and_a_resume_plays_those_games_again(tmp_path, marker):
    out = tmp_path / "run"
    run = start(match_command(out, marker, 8))
    wait_for(lambda: len(rows_written(out)) >= 1 and len(engines_alive(marker)) >= 4, process=run)
    run.send_signal(signal.SIGINT)
    time.sleep(0.05)
    run.send_signal(signal.SIGINT)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 130 and "stopping now" in stderr and "Traceback" not in stderr
    assert engines_alive(marker) == []
    kept = rows_written(out)
    again = subprocess.run(match_command(out, marker, 8), cwd=REPO, capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    rows = rows_written(out)
    assert rows[:len(kept)] == kept
    assert sorted(row["game_no"] for row in rows) == list(range(1, 9))
    assert engines_alive(marker) == []


def folder_state(out: Path) -> dict[str, tuple[int, int]]:
    return {str(path.relative_to(out)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in out.rglob("*")}


def test_a_busy_folder_is_refused_and_a_killed_referee_leaves_no_lock_or_engine(tmp_path,
                                                                                 marker):
    out = tmp_path / "run"
    first = start(match_command(out, marker, 4))
    wait_for(lambda: len(rows_written(out)) >= 1 and len(engines_alive(marker)) >= 4,
             process=first)
    first.send_signal(signal.SIGSTOP)  # frozen, so the folder holds still while we look
    try:
        before = folder_state(out)
        second = subprocess.run(match_command(out, marker, 4), cwd=REPO, capture_output=True,
                                text=True, timeout=60)
        assert second.returncode == 2 and second.stdout == ""
        assert len(second.stderr.splitlines()) == 1
        assert f"in use by another referee (process {first.pid})" in second.stderr
        assert folder_state(out) == before
    finally:
        first.send_signal(signal.SIGKILL)
        first.send_signal(signal.SIGCONT)
        first.communicate()
    wait_for(lambda: engines_alive(marker) == [], seconds=30)  # they see their terminal go
    kept = rows_written(out)
    resumed = subprocess.run(match_command(out, marker, 4), cwd=REPO, capture_output=True,
                             text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    rows = rows_written(out)
    assert rows[:len(kept)] == kept and sorted(row["game_no"] for row in rows) == [1, 2, 3, 4]


# --- the command line ----------------------------------------------------------------------

def run_cli(*arguments: str) -> int:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["match", *arguments])
    return exit_info.value.code


def test_a_config_file_describes_the_run_and_flags_override_it(tmp_path, capsys):
    config = tmp_path / "run.toml"
    config.write_text(f'''
game = "breakthrough"
games = 8
max-moves = 12
time = 30
[[engine]]
cmd = {json.dumps(INSTANT)}
name = "first"
[[engine]]
cmd = {json.dumps(INSTANT)}
name = "second"
time = 10
increment = 0.5
init = ["name", "version"]
''')
    assert run_cli("--config", str(config), "--games", "2", "--out", str(tmp_path / "out"),
                   "--engine-option", "1:move-time=3") == 0
    rows = rows_written(tmp_path / "out")
    assert [(row["black"], row["white"]) for row in rows] == [("first", "second"),
                                                            ("second", "first")]
    saved = json.loads((tmp_path / "out" / "match.json").read_text())
    assert saved["max_moves"] == 12
    assert [engine["init"] for engine in saved["engines"]] == [[], ["name", "version"]]
    assert [engine["control"] for engine in saved["engines"]] == [
        {"time": 0.0, "increment": 0.0, "byoyomi": 3.0, "stones": 1},
        {"time": 10.0, "increment": 0.5, "byoyomi": 0.0, "stones": 0}]
    assert "first" in capsys.readouterr().out


def test_a_config_file_giving_tc_and_another_clock_is_refused_in_one_line(tmp_path, capsys):
    config = tmp_path / "run.toml"
    config.write_text(f'''
game = "breakthrough"
time = 30
tc = "10+0.1"
engine = [{json.dumps(INSTANT)}, {json.dumps(INSTANT)}]
''')
    assert run_cli("--config", str(config), "--out", str(tmp_path / "out")) == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith(f"{config}: tc and time both set the clock; give one")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("arguments, message", [
    (["--engine-option", "3:name=x"], "there is no engine 3"),
    (["--engine-option", "1:colour=red"], "unknown key 'colour'"),
    (["--engine-option", "1name=x"], "N:KEY=VALUE"),
    (["--engine-option", "2:time=١٠"], "not a number"),
    (["--engine-option", "2:stones=1.5", "--engine-option", "2:byoyomi=5"], "not a whole number"),
    (["--engine-option", "1:name=same", "--engine-option", "2:name=same"], "two engines"),
    (["--engine-option", "2:dir=/nonexistent/folder"], "working folder"),
    (["--engine-option", "2:init=frobnicate"], "refused its start-up command 'frobnicate'"),
    (["--move-time", "1", "--increment", "1"], "--move-time cannot be combined"),
    (["--byoyomi", "5"], "byo-yomi needs both"),
    (["--sprt", "elo0=0"], "elo1= is missing"),
    (["--sprt", "elo0=0 elo1=5", "--engine", INSTANT], "tests two engines"),
    (["--pairs", "--games", "3"], "must be even"),
    (["--gauntlet", "2"], "gauntlet of 2"),
    (["--opening-plies", "2"], "--opening-plies needs --openings"),
])
def test_bad_engine_and_run_settings_exit_2_with_one_line(arguments, message, tmp_path, capsys):
    base = ["--game", "breakthrough", "--engine", INSTANT, "--engine", INSTANT,
            "--out", str(tmp_path / "out")]
    assert run_cli(*base, *arguments) == 2
    captured = capsys.readouterr()
    assert message in captured.err and len(captured.err.splitlines()) == 1
    if "init" not in arguments[-1]:  # an engine had to start to refuse its start-up command
        assert not (tmp_path / "out").exists()


def test_sprt_words_may_follow_the_flag_as_fastchess_writes_them(tmp_path, capsys):
    assert run_cli("--game", "breakthrough", "--engine", INSTANT, "--engine", INSTANT,
                   "--sprt", "elo0=0", "elo1=5", "model=logistic", "--games", "2",
                   "--out", str(tmp_path / "out"), "--max-moves", "6") == 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["sprt"]["model"] == "logistic" and summary["sprt"]["elo1"] == 5
    capsys.readouterr()
    with pytest.raises(SystemExit):
        cli.main(["stats", str(tmp_path / "out"), "--json"])
    assert json.loads(capsys.readouterr().out) == summary
    # a resume without --sprt keeps the run's SPRT; one with another SPRT is refused
    assert run_cli("--game", "breakthrough", "--engine", INSTANT, "--engine", INSTANT,
                   "--games", "4", "--out", str(tmp_path / "out"), "--max-moves", "6") == 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["games"] == 4 and summary["sprt"]["elo1"] == 5
    assert run_cli("--game", "breakthrough", "--engine", INSTANT, "--engine", INSTANT,
                   "--sprt", "elo0=0 elo1=10", "--out", str(tmp_path / "out"),
                   "--max-moves", "6") == 2
    assert "holds a match with other settings: sprt elo1 5 (now 10), " in capsys.readouterr().err


def test_a_gauntlet_and_a_book_from_the_command_line(tmp_path, capsys):
    book = tmp_path / "book.txt"
    book.write_text("# two openings\na2-a3 a7-a6\nb2-b3 b7-b6\n")
    engines = [arg for _ in range(3) for arg in ("--engine", INSTANT)]
    assert run_cli("--game", "breakthrough", *engines, "--gauntlet", "1", "--games", "4",
                   "--openings", str(book), "--out", str(tmp_path / "out"),
                   "--max-moves", "10") == 0
    rows = sorted(rows_written(tmp_path / "out"), key=lambda row: row["game_no"])
    assert len(rows) == 8 and all(1 in (row["black_index"], row["white_index"]) for row in rows)
    assert [row["pair"] for row in rows] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert [row["opening"] for row in rows] == [1, 1, 1, 1, 2, 2, 2, 2]
    assert {row["opening_plies"] for row in rows} == {2}
    assert rows[4]["moves"][:2] == ["b2-b3", "b7-b6"]
    sgf = (tmp_path / "out" / "games" / "game-0005.sgf").read_text()
    assert "[b7-b6]C[end of opening 2]" in sgf


def test_a_bad_book_stops_the_run_before_any_engine_starts(tmp_path, capsys):
    book = tmp_path / "book.txt"
    book.write_text("a2-a3 a7-a6\na3-a9\n")
    assert run_cli("--game", "breakthrough", "--engine", "nosuchengine", "--engine", INSTANT,
                   "--openings", str(book), "--out", str(tmp_path / "out")) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"{book}:2: a3-a9: " in err
    assert not (tmp_path / "out").exists()


def test_a_missing_cluster_module_or_address_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "referee.run.cluster", None)  # as if it could not be imported
    assert run_cli("--game", "breakthrough", "--engine", INSTANT, "--engine", INSTANT,
                   "--cluster", "tcp://127.0.0.1:1", "--out", str(tmp_path / "out")) == 2
    assert "--cluster needs Dask" in capsys.readouterr().err


def test_a_resume_with_another_book_is_refused(tmp_path, capsys):
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("a2-a3 a7-a6\n")
    second.write_text("b2-b3 b7-b6\n")
    base = ["--game", "breakthrough", "--engine", INSTANT, "--engine", INSTANT, "--games", "2",
            "--max-moves", "6", "--out", str(tmp_path / "out")]
    assert run_cli(*base, "--openings", str(first)) == 0
    assert run_cli(*base, "--openings", str(first), "--games", "4") == 0
    assert len(rows_written(tmp_path / "out")) == 4
    assert run_cli(*base, "--openings", str(second)) == 2
    assert "holds a match with other settings: book digest " in capsys.readouterr().err
    assert len(rows_written(tmp_path / "out")) == 4
