"""``olympiad-referee check``: our engine passes, engines with a broken habit fail the check
that names it, an engine that cannot be talked to stops the check at once with one line saying
what happened and one naming what was skipped, and the exit status says whether everything
passed."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.play.compliance import EACH_LISTED_GAME, Checker

from ..processes import (another_thread, command_words, interruptible, processes_where,
                         wait_for)

HERE = Path(__file__).parent
PYTHON = shlex.quote(sys.executable)
OUR_ENGINE = f"{PYTHON} -m protocol.cli --depth 1"


def failures(command: str, games=("breakthrough",)) -> dict[str, str]:
    """The failed checks of ``command``, by name."""
    return {result.name: result.detail for result in Checker(command, games).run()
            if not result.passed}


def sloppy(habit: str) -> str:
    return f"{PYTHON} {shlex.quote(str(HERE / 'sloppy_engine.py'))} --habit {habit}"


def bad(fault: str) -> str:
    return f"{PYTHON} {shlex.quote(str(HERE / 'bad_engine.py'))} --fault {fault}"


def test_our_engine_passes_every_check_with_status_0():
    completed = subprocess.run(
        [sys.executable, "-m", "referee", "check", "--engine", OUR_ENGINE,
         "--game", "breakthrough", "--game", "domineering"],
        capture_output=True, text=True, timeout=120)
    lines = completed.stdout.splitlines()
    assert completed.returncode == 0, completed.stdout
    assert lines[-1] == f"{len(lines) - 1} checks, 0 failed"
    assert all(line.startswith("pass  ") for line in lines[:-1])
    assert any(line.startswith("pass  domineering: a game to its end") for line in lines)


def check_lines(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", "check", *arguments],
                          capture_output=True, text=True, timeout=60)


def test_a_missing_program_fails_the_first_check_and_stops_with_status_1():
    completed = check_lines("--engine", "no-such-program-here")
    assert completed.returncode == 1
    first, skipped, last = completed.stdout.splitlines()
    assert first.startswith("FAIL  the engine starts: ") and "no-such-program-here" in first
    assert skipped.startswith("skip  protocol_version; ") and EACH_LISTED_GAME in skipped
    assert last == "1 checks, 1 failed, stopped at a fatal failure"


def test_an_engine_that_exits_at_once_does_not_start_and_nothing_else_is_run():
    completed = check_lines("--engine", "sh -c 'exit 3'", "--game", "loa")
    assert completed.returncode == 1
    first, skipped, last = completed.stdout.splitlines()
    assert first == ("FAIL  the engine starts: the engine exited (exit status 3) when asked "
                     "'protocol_version'")
    assert skipped == ("skip  protocol_version; name and version; ids echoed; list_commands; "
                       "known_command; unknown command; comments, blank lines, tabs, CR; komi; "
                       "genmove_analyze; kata-time_settings; "
                       "list_games; loa: 9 checks; quit (the engine starts failed fatally)")
    assert last == "1 checks, 1 failed, stopped at a fatal failure"


def test_an_engine_that_never_answers_costs_one_timeout():
    checker = Checker("sleep 1000", ["loa"], answer_seconds=0.5)
    results = list(checker.run())
    assert [(r.name, r.detail, r.fatal) for r in results] == [
        ("the engine starts", "no answer to 'protocol_version' in 0.5 s", True)]
    assert len(checker.skipped) == 21 and checker.skipped[-1][0] == "quit"


@pytest.mark.parametrize("to_a_thread", [False, True])
def test_ctrl_c_ends_a_check_waiting_for_its_engine_and_leaves_no_engine(to_a_thread):
    """Ctrl-C while the engine keeps the check waiting for an answer (here for up to a
    minute) ends it with status 130 within moments, even when the kernel delivers the signal
    to the thread that drains the engine's standard error, and the engine goes with it."""
    engine = [b"sleep", b"987"]
    check = subprocess.Popen([sys.executable, "-m", "referee", "check", "--engine",
                              b" ".join(engine).decode(), "--command-timeout", "60"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=interruptible)

    def engines() -> list[int]:
        return processes_where(lambda entry: command_words(entry)[:2] == engine)
    try:
        wait_for(lambda: engines() and len(os.listdir(f"/proc/{check.pid}/task")) > 1,
                 seconds=30, process=check)
        time.sleep(0.5)  # the check is now waiting for the answer to protocol_version
        os.kill(another_thread(check.pid) if to_a_thread else check.pid, signal.SIGINT)
        assert check.wait(10) == 130
    finally:
        check.kill()
        check.communicate()
    wait_for(lambda: not engines(), seconds=5)  # the engine goes with the check


def test_an_answer_without_its_empty_line_stops_and_names_the_game_checks_skipped():
    checker = Checker(sloppy("no-blank"), ["breakthrough"], answer_seconds=5)
    failed = [result for result in checker.run() if not result.passed]
    assert [(r.name, r.fatal) for r in failed] == [("list_games", True)]
    assert failed[0].detail.startswith("the answer to 'list_games' was not ended by an empty "
                                       "line: '= ")
    assert [name for name, _ in checker.skipped] == [
        "breakthrough: set_game", "breakthrough: boardsize",
        "breakthrough: clear_board and legal_moves", "breakthrough: final_score before the end",
        "breakthrough: illegal play refused", "breakthrough: play and undo",
        "breakthrough: showboard", "breakthrough: genmove within time_left",
        "breakthrough: genmove_analyze lines", "breakthrough: a game to its end", "quit"]


def test_an_unknown_game_is_a_usage_error():
    completed = subprocess.run(
        [sys.executable, "-m", "referee", "check", "--engine", OUR_ENGINE, "--game", "chess"],
        capture_output=True, text=True, timeout=60)
    assert completed.returncode == 2
    assert "unknown game 'chess'" in completed.stderr


@pytest.mark.parametrize("habit, failed_check, words", [
    ("no-ids", "ids echoed", "expected '=17 2'"),
    ("answers-comments", "comments, blank lines, tabs, CR", "expected '2'"),
    ("unsorted", "breakthrough: clear_board and legal_moves", "not in sorted order"),
    ("stays", "quit", "did not exit"),
    ("banner", "the engine starts", "not a GTP answer: 'Sloppy engine 1.0 ready'"),
])
def test_a_broken_habit_fails_the_check_that_names_it(habit, failed_check, words):
    failed = failures(sloppy(habit))
    assert failed_check in failed, failed
    assert words in failed[failed_check]


def test_an_illegal_genmove_fails_with_the_rules_reason():
    failed = failures(bad("illegal"))
    assert list(failed) == ["breakthrough: genmove within time_left"]
    assert "genmove answered" in failed["breakthrough: genmove within time_left"]


def test_a_crash_is_a_fatal_failure_and_the_checks_after_it_are_skipped():
    checker = Checker(bad("exit") + " --at 2", ["breakthrough", "loa"])
    failed = [result for result in checker.run() if not result.passed]
    assert [result.name for result in failed] == ["breakthrough: a game to its end"]
    assert failed[0].detail == ("the engine exited (exit status 3) when asked "
                                "'genmove white'")
    assert [name for name, _ in checker.skipped][:1] == ["loa: set_game"]
    assert len(checker.skipped) == 10


def test_a_game_the_engine_cannot_select_skips_its_other_checks_and_goes_on():
    checker = Checker(sloppy("no-loa"), ["loa", "domineering"])
    failed = [result for result in checker.run() if not result.passed]
    assert [(r.name, r.fatal) for r in failed] == [("loa: set_game", False)]
    assert len(checker.skipped) == 9  # 8, and the genmove_analyze lines it offers
    assert set(checker.skipped) == {(name, "loa cannot be selected") for name, _ in checker.skipped}
    assert checker.fatal is None  # domineering's checks and quit ran


def scoring(answers: str) -> str:
    return f"{PYTHON} {shlex.quote(str(HERE / 'scoring_engine.py'))} --answers '{answers}'"


def details(command: str) -> dict[str, tuple[bool, str]]:
    return {result.name: (result.passed, result.detail)
            for result in Checker(command, ("breakthrough",)).run()}


def test_the_analysis_lines_are_checked_where_the_engine_offers_them():
    ours = details(OUR_ENGINE)
    assert ours["genmove_analyze"] == (True, "offered: the referee will ask for it")
    assert ours["breakthrough: genmove_analyze lines"] == (
        True, "lines parse: score, depth, nodes, time, pv")
    plain = details(f"{PYTHON} {shlex.quote(str(HERE / 'bad_engine.py'))}")  # plain genmove
    assert plain["genmove_analyze"] == (
        True, "not offered (optional): the referee will send plain genmove")
    assert "breakthrough: genmove_analyze lines" not in plain


def test_kata_time_settings_where_offered_must_accept_an_increment():
    assert details(OUR_ENGINE)["kata-time_settings"] == (
        True, "offered and accepted: the referee will announce increments with it")
    plain = details(f"{PYTHON} {shlex.quote(str(HERE / 'bad_engine.py'))}")
    assert plain["kata-time_settings"] == (
        True, "not offered (optional): the engine learns an increment from time_left")


@pytest.mark.parametrize("answers, words", [
    ("score 3", "the analysis lines do not parse (score '3' is not a number from -1 to 1)"),
    ("pv h8-h1", "pv move 1 ('h8-h1') is not legal"),
])
def test_analysis_lines_that_would_be_lost_fail_their_check(answers, words):
    passed, detail = details(scoring(answers))["breakthrough: genmove_analyze lines"]
    assert not passed and detail.startswith(words)
