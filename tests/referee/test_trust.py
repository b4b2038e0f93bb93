"""What the referee promises an organiser (docs/referee.md, "Guarantees"), each tried as an
adversary would: a full disk, engines that think while answering other commands than
``genmove``, engines whose children try to outlive them."""

from __future__ import annotations

import json
import os
import random
import resource
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Termination
from referee.plan.setup import Setup
from referee.plan.time_control import TimeControl
from referee.play.channel import EngineChannel
from referee.play.game import play_game

from ..processes import command_words, processes_where, wait_for
from ..results import rows_written

REPO = Path(__file__).resolve().parents[2]
PYTHON = shlex.quote(sys.executable)
BAD_ENGINE = f"{PYTHON} {shlex.quote(str(Path(__file__).with_name('bad_engine.py')))}"


def referee(*arguments: str, file_limit: int | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess:
    """``olympiad-referee ARGUMENTS`` in a process of its own, with files limited to
    ``file_limit`` bytes (as ``ulimit -f`` would: a write past it fails with EFBIG)."""
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    return subprocess.run([sys.executable, "-m", "referee", *arguments], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout, preexec_fn=limit)


def quick_match(out: Path, games: int) -> list[str]:
    return ["match", "--game", "breakthrough", "--engine", BAD_ENGINE, "--engine", BAD_ENGINE,
            "--games", str(games), "--max-moves", "12", "--seed", "3", "--out", str(out)]


def test_a_rerun_on_a_full_disk_keeps_every_finished_game(tmp_path):
    out = tmp_path / "out"
    assert referee(*quick_match(out, 12)).returncode == 0
    before = (out / "results.jsonl").read_bytes()
    again = referee(*quick_match(out, 12), file_limit=len(before) // 2)
    assert "Traceback" not in again.stderr, again.stderr
    assert (out / "results.jsonl").read_bytes() == before


def test_a_disk_that_fills_mid_run_stops_it_with_one_line_and_the_same_command_resumes(tmp_path):
    out = tmp_path / "out"
    full = referee(*quick_match(out, 30), file_limit=12_000)
    assert full.returncode == 1, full.stderr
    assert "Traceback" not in full.stderr
    error = full.stderr.splitlines()[-1]
    assert error.startswith("olympiad-referee: error: cannot write ") and "results.jsonl" in error
    assert "free some space" in error and "run the same command" in error
    kept = rows_written(out)
    assert 0 < len(kept) < 30
    resumed = referee(*quick_match(out, 30))
    assert resumed.returncode == 0, resumed.stderr
    rows = rows_written(out)
    assert rows[:len(kept)] == kept
    assert sorted(row["game_no"] for row in rows) == list(range(1, 31))


def test_a_corrupt_line_in_the_results_is_reported_and_kept(tmp_path):
    out = tmp_path / "out"
    assert referee(*quick_match(out, 4)).returncode == 0
    lines = (out / "results.jsonl").read_text().splitlines(keepends=True)
    lines[1] = '{"game_no": 2, "result": "X+"}\n'  # an unknown result
    (out / "results.jsonl").write_text("".join(lines))
    again = referee(*quick_match(out, 4))
    assert again.returncode == 0 and "Traceback" not in again.stderr
    assert "results.jsonl: line(s) 2 hold no game's result" in again.stderr
    text = (out / "results.jsonl").read_text()
    assert '{"game_no": 2, "result": "X+"}' in text
    assert sorted({row["game_no"] for row in map(json.loads, text.splitlines())}) == [1, 2, 3, 4]


def test_a_symbolic_link_in_the_output_folder_is_refused_not_followed(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    (out / "results.jsonl").symlink_to(target)
    refused = referee(*quick_match(out, 2))
    assert refused.returncode == 2
    assert "results.jsonl is a symbolic link" in refused.stderr
    assert len(refused.stderr.splitlines()) == 1
    assert target.read_text() == "keep me\n"


def stalling_game(stall: str):
    """A Breakthrough game (on a board size set with ``boardsize``) on the clock, 1 s each,
    between the first-move engine that waits before answering ``stall`` (``COMMAND=SECONDS``)
    as black and one that does not."""
    setup = Setup("breakthrough", size=(6, 6), max_moves=60)
    engines = [EngineChannel(f"{BAD_ENGINE} --stall {stall}"), EngineChannel(BAD_ENGINE)]
    try:
        return play_game(setup, engines, random.Random(1),
                         controls=(TimeControl(time=1), TimeControl(time=1)))
    finally:
        for engine in engines:
            engine.kill()


@pytest.mark.parametrize("command", ["play", "time_left"])
def test_time_taken_to_answer_other_commands_is_charged_to_the_clock(command):
    record = stalling_game(f"{command}=0.3")
    assert record.termination is Termination.TIMEOUT and record.result == "W+"
    assert record.reason == f"black ran out of time answering {command}"
    assert record.used[0] >= 1.0 - 0.05  # all but the allowances of black's answers
    assert record.timed_moves[0] <= 4


def test_an_answer_after_the_clock_ran_out_loses_at_once():
    record = stalling_game("boardsize=30")
    assert record.termination is Termination.TIMEOUT and record.result == "W+"
    assert record.reason == "black ran out of time answering boardsize"
    assert record.moves == [] and 1.0 <= record.used[0] < 5


def processes_marked(mark: int) -> list[int]:
    """The processes whose command line holds ``1000.MARK`` (the bad engine's orphans)."""
    return processes_where(lambda entry: f"1000.{mark}".encode() in command_words(entry))


def wait_until_gone(*marks: int) -> None:
    """Wait, at most 10 s, until no process of any of ``marks`` is left."""
    wait_for(lambda: not any(processes_marked(mark) for mark in marks), 10.0,
             what=f"the processes marked {marks} to end")


@pytest.fixture
def mark() -> int:
    number = random.randrange(10**8, 10**9)
    yield number
    for pid in processes_marked(number):  # never leave one behind, even when a test fails
        os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("how", ["setsid", "nohup"])
def test_nothing_an_engine_starts_outlives_a_match(tmp_path, mark, how):
    orphaning = f"{BAD_ENGINE} --orphan {how}={mark}"
    crashing = f"{BAD_ENGINE} --orphan {how}={mark + 1} --fault exit --at 2"
    done = referee("match", "--game", "breakthrough", "--engine", orphaning, "--engine", crashing,
                   "--games", "2", "--max-moves", "12", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    wait_until_gone(mark, mark + 1)


def test_nothing_an_engine_starts_outlives_a_game_on_a_dask_worker(tmp_path, mark):
    pytest.importorskip("distributed")
    orphaning = f"{BAD_ENGINE} --orphan setsid={mark}"
    crashing = f"{BAD_ENGINE} --orphan nohup={mark + 1} --fault exit --at 2"
    done = referee("match", "--game", "breakthrough", "--engine", orphaning, "--engine", crashing,
                   "--games", "2", "--max-moves", "12", "--cluster", "local:1",
                   "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert len(rows_written(tmp_path / "out")) == 2
    wait_until_gone(mark, mark + 1)


def test_nothing_an_engine_starts_outlives_its_check(mark):
    done = referee("check", "--engine", f"{BAD_ENGINE} --orphan setsid={mark}", "--game",
                   "breakthrough")
    assert "Traceback" not in done.stderr
    wait_until_gone(mark)


def test_nothing_an_engine_starts_outlives_a_referee_killed_outright(tmp_path, mark):
    slow = f"{BAD_ENGINE} --orphan setsid={mark} --stall genmove=0.2"
    run = subprocess.Popen([sys.executable, "-m", "referee", "match", "--game", "breakthrough",
                            "--engine", slow, "--engine", slow, "--games", "4",
                            "--out", str(tmp_path / "out")],
                           cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: len(processes_marked(mark)) >= 2, process=run,
                 what="both engines' orphans")
    finally:
        run.kill()
        run.wait()
    wait_until_gone(mark)


def test_an_engine_past_its_memory_limit_loses_by_a_forfeit_that_says_so(tmp_path):
    hungry = f"{PYTHON} -c \"import sys; print('= 2', flush=True); print(flush=True); " \
             f"sys.stdin.readline(); bytearray(400 << 20)\""
    done = referee("match", "--game", "breakthrough", "--engine", hungry, "--engine", BAD_ENGINE,
                   "--engine-option", "1:memory=200M", "--games", "1", "--out",
                   str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    row = json.loads((tmp_path / "out" / "results.jsonl").read_text())
    assert row["termination"] == "crash" and row["result"] == "W+"
    assert "its memory limit was 200 MiB" in row["reason"]
    assert "MemoryError" in row["black_stderr"]


def test_an_engine_runs_on_the_cores_it_is_given(tmp_path):
    reporter = (f"{PYTHON} -c \"import os, sys; print('= 2', flush=True); print(flush=True); "
                f"sys.stdin.readline(); sys.stderr.write(repr(sorted(os.sched_getaffinity(0)))); "
                f"sys.exit(1)\"")
    done = referee("match", "--game", "breakthrough", "--engine", reporter, "--engine",
                   BAD_ENGINE, "--engine-option", "1:cpus=0", "--games", "1", "--out",
                   str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    row = json.loads((tmp_path / "out" / "results.jsonl").read_text())
    assert row["black_stderr"] == "[0]"
    # The same limit from an event's config file.
    config = tmp_path / "event.toml"
    config.write_text(f"game = 'breakthrough'\ngames = 1\n[[engine]]\ncmd = '''{reporter}'''\n"
                      f"cpus = '0'\n[[engine]]\ncmd = '''{BAD_ENGINE}'''\n")
    done = referee("match", "--config", str(config), "--out", str(tmp_path / "config-out"))
    assert done.returncode == 0, done.stderr
    row = json.loads((tmp_path / "config-out" / "results.jsonl").read_text())
    assert row["black_stderr"] == "[0]"


def test_engine_limits_are_checked_before_anything_starts(tmp_path):
    for option, message in [("1:memory=lots", "not a memory size"),
                            ("1:cpus=9999", "this machine has cores"),
                            ("1:cpus=a-b", "is not a CPU list")]:
        done = referee("match", "--game", "breakthrough", "--engine", BAD_ENGINE, "--engine",
                       BAD_ENGINE, "--engine-option", option, "--out", str(tmp_path / "out"))
        assert done.returncode == 2 and message in done.stderr
        assert len(done.stderr.splitlines()) == 1 and not (tmp_path / "out").exists()


def one_line_error(done: subprocess.CompletedProcess, status: int = 2) -> str:
    """The one line of a refused command, checked to be one line with this status."""
    assert done.returncode == status and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    return done.stderr


def test_a_config_file_that_is_not_utf8_is_one_line_naming_its_line(tmp_path):
    config = tmp_path / "event.toml"
    config.write_bytes(b'game = "loa"\nname = "\xff"\n')
    assert f"{config}:2: not UTF-8 text" in one_line_error(referee("match", "--config",
                                                                   str(config)))


@pytest.mark.parametrize("content", ["[1, 2]", "{\"game\": \"loa\"}", "{not json"])
def test_a_malformed_match_json_is_one_line(tmp_path, content):
    out = tmp_path / "out"
    out.mkdir()
    (out / "match.json").write_text(content)
    assert "match.json" in one_line_error(referee(*quick_match(out, 2)))
    (out / "results.jsonl").write_text("")
    one_line_error(referee("stats", str(out)))


def test_an_absurd_number_of_games_is_refused_before_anything_is_planned(tmp_path):
    error = one_line_error(referee(*quick_match(tmp_path / "out", 99999999999999999)))
    assert "--games" in error and not (tmp_path / "out").exists()


def test_a_bad_cluster_address_writes_nothing_and_the_corrected_command_runs(tmp_path):
    out = tmp_path / "out"
    assert "local:N" in one_line_error(referee(*quick_match(out, 2), "--cluster", "local:0"))
    assert not out.exists()
    assert referee(*quick_match(out, 2)).returncode == 0


@pytest.mark.parametrize("command, name", [
    (["openings", "--game", "breakthrough", "--plies", "2", "--count", "2", "--seed", "1"],
     "mine.txt"),
    (["render", "--game", "breakthrough", "--moves", "a2-a3"], "mine.svg"),
])
def test_an_existing_output_file_is_overwritten_only_with_force(tmp_path, command, name):
    out = tmp_path / name
    out.write_text("precious\n")
    assert "give --force" in one_line_error(referee(*command, "--out", str(out)))
    assert out.read_text() == "precious\n"
    assert referee(*command, "--out", str(out), "--force").returncode == 0
    assert out.read_text() != "precious\n"


def test_engines_are_named_by_their_own_answers_and_their_command_lines_stay_private(tmp_path):
    out = tmp_path / "out"
    arguments = quick_match(out, 2)
    arguments[arguments.index(BAD_ENGINE, arguments.index("--engine") + 2)] = \
        f"{BAD_ENGINE} --at 9"
    assert referee(*arguments).returncode == 0
    names = {row[colour] for row in rows_written(out) for colour in ("black", "white")}
    assert names == {"olympiad-engine", "olympiad-engine (--at 9)"}  # one version: not shown
    page = (out / "report.html").read_text()
    assert "olympiad-engine (--at 9)" in page and "bad_engine.py" not in page
    # A resume keeps the names the folder gave, without asking the engines again.
    settings = json.loads((out / "match.json").read_text())
    settings["engines"][0]["name"] = "renamed on disk"
    (out / "match.json").write_text(json.dumps(settings))
    arguments[arguments.index("--games") + 1] = "4"
    assert referee(*arguments).returncode == 0
    assert {row[colour] for row in rows_written(out)[2:] for colour in ("black", "white")} \
        == {"renamed on disk", "olympiad-engine (--at 9)"}


def test_a_resume_asking_for_fewer_games_still_sums_up_every_game_of_the_folder(tmp_path):
    out = tmp_path / "out"
    assert referee(*quick_match(out, 6)).returncode == 0
    again = referee(*quick_match(out, 2))
    assert again.returncode == 0, again.stderr
    assert "holds 6 finished games, more than the 2 asked for" in again.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 6 and len(rows_written(out)) == 6
    assert "6 of 2 games" not in (out / "report.html").read_text()
    assert (out / "report-assets" / "games.js").read_text().count("OlympiadReport.listed(") == 6
