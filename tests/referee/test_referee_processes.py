"""Referee tests with real engine processes: the GTP channel, every kind of misbehaviour of the
scripted bad engine (each must end in the right recorded termination while the match goes on),
and resuming a match killed in the middle."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from referee.commands import cli
from referee.play.channel import (
    MAX_ANSWER_BYTES,
    ChannelClosed,
    EngineChannel,
    GtpFailure,
    IllFormedAnswer,
)

from ..processes import interruptible, wait_for
from ..results import rows_written

REPO = Path(__file__).resolve().parents[2]
BAD = shlex.quote(str(Path(__file__).with_name("bad_engine.py")))
PYTHON = shlex.quote(sys.executable)
OURS = f"{PYTHON} -m protocol.cli --depth 1 --seed 3"


def bad_engine(*arguments: str) -> str:
    return " ".join([PYTHON, BAD, *arguments])


def run_match(out: Path, *engines: str, games: int = 2, options: tuple[str, ...] = ()) -> None:
    """Run ``olympiad-referee match`` in this process (the engines are processes)."""
    arguments = ["match", "--game", "loa", "--games", str(games), "--time", "1",
                 "--max-moves", "20", "--seed", "1", "--out", str(out), *options]
    for engine in engines:
        arguments += ["--engine", engine]
    with pytest.raises(SystemExit) as exit_info:
        cli.main(arguments)
    assert exit_info.value.code == 0


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


# --- the channel -------------------------------------------------------------------------

def test_channel_talks_to_a_real_engine_and_quits_it():
    channel = EngineChannel(OURS)
    assert channel.send("protocol_version", time.monotonic() + 20) == "2"
    assert channel.send("showboard").startswith("a b c")
    with pytest.raises(GtpFailure, match="illegal move"):
        channel.send("play white a2-a3")
    channel.close()
    assert channel._child.exitstatus == 0


def test_channel_reports_an_engine_that_cannot_start_or_exits():
    with pytest.raises(ChannelClosed, match="cannot start"):
        EngineChannel("/nonexistent/engine --flag")
    channel = EngineChannel(f"{PYTHON} -c \"import sys; sys.stderr.write('bye'); sys.exit(4)\"")
    with pytest.raises(ChannelClosed, match="exit status 4"):
        channel.send("name", time.monotonic() + 20)
    assert channel.take_stderr() == "bye"
    assert channel.take_stderr() == ""


def test_channel_bounds_what_it_buffers():
    channel = EngineChannel(f"{PYTHON} -c \"print('=' + 'x' * 100000, flush=True); input()\"",
                            max_answer=10000)
    with pytest.raises(IllFormedAnswer, match="longer than 10000"):
        channel.send("name", time.monotonic() + 20)
    channel.kill()


def test_a_line_of_ten_megabytes_is_held_once_and_only_up_to_the_answer_limit():
    channel = EngineChannel(f"{PYTHON} -c \"print('= ' + 'x' * (10 << 20), end='', flush=True); "
                            f"input()\"")
    tracemalloc.start()
    try:
        with pytest.raises(IllFormedAnswer, match=f"longer than {MAX_ANSWER_BYTES} bytes"):
            channel.send("name", time.monotonic() + 20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        channel.kill()
    assert peak < 1.5 * MAX_ANSWER_BYTES  # the answer so far, one read and room to grow


# --- misbehaving engines -----------------------------------------------------------------

RESTARTED = {"timeout", "crash", "protocol_error"}


@pytest.mark.parametrize("fault, termination, reason", [
    ("illegal", "illegal_move", "black played 'a1-a1'"),
    ("unparsable", "illegal_move", "'zz99!' is not a move"),
    ("pass", "illegal_move", "black played 'pass'"),
    ("resign", "resign", "black resigned"),
    ("garbage", "protocol_error", "not a GTP answer"),
    ("failure", "protocol_error", "answered genmove with a failure"),
    ("refuse", "protocol_error", "black refused 'play white"),
    ("flood", "protocol_error", "answer longer than"),
    ("hang", "timeout", "no complete answer in time"),
    ("silent", "timeout", "no complete answer in time"),
    ("exit", "crash", "the engine exited (exit status 3)"),
])
def test_a_misbehaving_engine_forfeits_and_the_match_goes_on(fault, termination, reason, tmp_path):
    run_match(tmp_path, bad_engine("--fault", fault, "--at", "2"), OURS)
    first, second = rows_written(tmp_path)
    assert (first["result"], first["at_fault"]) == ("W+", "black")
    assert first["termination"] == termination
    assert reason in first["reason"]
    assert first["plies"] == (4 if fault == "refuse" else 2)
    assert second["game_no"] == 2 and second["white_index"] == 1
    if termination in RESTARTED:  # a fresh engine, which misbehaves again at its second move
        assert (second["result"], second["termination"], second["plies"]) == ("B+", termination, 3)
    else:  # the same engine, past its fault: the game is played out
        assert second["termination"] in ("normal", "repetition", "move_limit")
    assert (tmp_path / "games" / "game-0002.sgf").exists()


def test_a_flood_on_stderr_neither_blocks_nor_fills_the_referee(tmp_path):
    run_match(tmp_path, bad_engine("--fault", "flood-stderr", "--at", "2"), OURS, games=1)
    (row,) = rows_written(tmp_path)
    assert row["termination"] in ("normal", "repetition", "move_limit")
    assert 0 < len(row["black_stderr"]) <= 2000 and set(row["black_stderr"]) <= {"e", "\n"}


@pytest.mark.parametrize("command, why", [
    ("/nonexistent/engine --fast", "'/nonexistent/engine' not found"),
    ("no-such-engine-anywhere", "'no-such-engine-anywhere' not found on PATH"),
    (str(Path(__file__).with_name("__init__.py")), "is not an executable program"),
])
def test_an_engine_that_cannot_start_is_named_before_any_game(command, why, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["match", "--game", "loa", "--out", str(tmp_path / "out"),
                  "--engine", OURS, "--engine", command])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert f"engine 2 ({command}) cannot start: " in captured.err and why in captured.err
    assert not (tmp_path / "out").exists()


def test_an_engine_that_dies_at_start_up_loses_by_crash(tmp_path, capsys):
    run_match(tmp_path, f"{PYTHON} -c 'import sys; sys.exit(3)'", OURS)
    rows = rows_written(tmp_path)
    assert [(row["result"], row["termination"], row["plies"]) for row in rows] == [
        ("W+", "crash", 0), ("B+", "crash", 0)]
    assert "exit status 3" in rows[0]["reason"]
    assert "lost by: crash 2" in capsys.readouterr().out


def test_an_engine_silent_at_start_up_loses_by_timeout_naming_the_command(tmp_path, capsys):
    """Alive but silent past the command timeout (2 s, more than the 1 s game clock: the
    reason is the start-up's, not a clock's); killed, and started afresh for its next game."""
    silent = bad_engine("--stall", "protocol_version=60")
    run_match(tmp_path, silent, OURS, options=("--command-timeout", "2"))
    rows = rows_written(tmp_path)
    assert [(row["result"], row["termination"], row["at_fault"], row["plies"])
            for row in rows] == [("W+", "timeout", "black", 0), ("B+", "timeout", "white", 0)]
    assert rows[0]["reason"].startswith(
        "black: no answer to its start-up command 'protocol_version' within 2 s"), rows[0]
    assert "lost by: timeout 2" in capsys.readouterr().out


def test_an_engine_that_answers_garbage_at_start_up_loses_by_protocol_error(tmp_path):
    script = 'input(); print("hello there", end="\\n\\n", flush=True); input()'
    garbage = f"{PYTHON} -c {shlex.quote(script)}"
    run_match(tmp_path, garbage, OURS, games=1)
    (row,) = rows_written(tmp_path)
    assert (row["result"], row["termination"], row["plies"]) == ("W+", "protocol_error", 0)
    assert "not a GTP answer: 'hello there' (answering 'protocol_version')" in row["reason"]


def test_a_round_robin_with_concurrent_games_plays_every_pairing(tmp_path, capsys):
    engines = [OURS, f"{PYTHON} -m protocol.cli --depth 1 --seed 8", bad_engine()]
    run_match(tmp_path, *engines, options=("--concurrency", "2"))
    rows = rows_written(tmp_path)
    assert sorted(row["game_no"] for row in rows) == [1, 2, 3, 4, 5, 6]
    pairings = sorted((row["black_index"], row["white_index"]) for row in rows)
    assert pairings == [(1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2)]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [standing["games"] for standing in summary["standings"]] == [4, 4, 4]
    assert summary["games"] == 6 and "ratings" in summary
    assert " #  engine" in capsys.readouterr().out


# --- a whole match, killed and resumed ---------------------------------------------------

def test_a_killed_match_resumes_without_losing_or_replaying_games(tmp_path):
    out = tmp_path / "match"
    command = [sys.executable, "-m", "referee", "match", "--game", "loa", "--games", "6",
               "--time", "20", "--seed", "4", "--out", str(out),
               "--engine", OURS, "--engine", f"{PYTHON} -m protocol.cli --depth 2 --seed 5"]
    first_run = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
    wait_for(lambda: rows_written(out), process=first_run, what="a first game")
    os.killpg(first_run.pid, signal.SIGKILL)
    first_run.wait()
    kept = rows_written(out)
    assert 1 <= len(kept) < 6
    # as if the kill had come in the middle of a row
    with (out / "results.jsonl").open("a") as file:
        file.write('{"game_no": 6, "game": "lo')
    second_run = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert second_run.returncode == 0, second_run.stderr
    rows = rows_written(out)
    assert [row["game_no"] for row in rows[:len(kept)]] == [row["game_no"] for row in kept]
    assert rows[:len(kept)] == kept
    assert sorted(row["game_no"] for row in rows) == [1, 2, 3, 4, 5, 6]
    assert sorted(path.name for path in (out / "games").iterdir()) == [
        f"game-{number:04d}.sgf" for number in range(1, 7)]
    assert f"resuming after {len(kept)} finished" in second_run.stdout
    summary = json.loads((out / "summary.json").read_text())
    wins = sum(standing["wins"] for standing in summary["standings"])
    decisive = sum(row["result"] != "0" for row in rows)
    assert summary["games"] == 6 and wins == decisive
    assert " #  engine" in second_run.stdout


def test_channel_rejects_output_nobody_asked_for():
    script = "print('= one\\n\\n= two\\n', flush=True); input(); input()"
    channel = EngineChannel(f"{PYTHON} -c {shlex.quote(script)}")
    assert channel.send("name", time.monotonic() + 20) == "one"
    with pytest.raises(IllFormedAnswer, match="nobody asked for: '= two'"):
        channel.send("version", time.monotonic() + 20)
    channel.kill()


def test_an_interrupted_match_stops_at_once_and_says_how_to_resume(tmp_path):
    out = tmp_path / "match"
    command = [sys.executable, "-m", "referee", "match", "--game", "loa", "--games", "50",
               "--time", "20", "--seed", "4", "--out", str(out), "--engine", OURS,
               "--engine", OURS.replace("--depth 1", "--depth 2")]
    run = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, preexec_fn=interruptible)
    wait_for(lambda: rows_written(out), process=run, what="a first game")
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=20)
    assert run.returncode == 130
    assert err.splitlines()[-1].startswith("olympiad-referee: interrupted after")
    assert "Traceback" not in err
    rows = rows_written(out)
    assert 1 <= len(rows) < 100 and len({row["game_no"] for row in rows}) == len(rows)
