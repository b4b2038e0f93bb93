"""``olympiad-referee check``: our engine passes, engines with a broken habit fail the check
that names it, and the exit status says whether everything passed."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from referee.commands.check import Checker

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


def test_a_missing_program_fails_the_first_check_and_stops_with_status_1():
    completed = subprocess.run(
        [sys.executable, "-m", "referee", "check", "--engine", "no-such-program-here"],
        capture_output=True, text=True, timeout=60)
    assert completed.returncode == 1
    assert completed.stdout.splitlines() == [
        completed.stdout.splitlines()[0], "1 checks, 1 failed"]
    assert completed.stdout.startswith("FAIL  the engine starts: ")
    assert "no-such-program-here" in completed.stdout


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
    ("banner", "protocol_version", "not a GTP answer"),
])
def test_a_broken_habit_fails_the_check_that_names_it(habit, failed_check, words):
    failed = failures(sloppy(habit))
    assert failed_check in failed, failed
    assert words in failed[failed_check]


def test_an_illegal_genmove_fails_with_the_rules_reason():
    failed = failures(bad("illegal"))
    assert list(failed) == ["breakthrough: genmove within time_left"]
    assert "genmove answered" in failed["breakthrough: genmove within time_left"]


def test_a_crash_fails_its_check_and_the_next_checks_run_on_a_fresh_engine():
    results = list(Checker(bad("exit") + " --at 2", ["breakthrough"]).run())
    failed = [result for result in results if not result.passed]
    assert [result.name for result in failed] == ["breakthrough: a game to its end"]
    assert "ChannelClosed" in failed[0].detail
    assert results[-1].name == "quit" and results[-1].passed


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


@pytest.mark.parametrize("answers, words", [
    ("score 3", "the analysis lines do not parse (score '3' is not a number from -1 to 1)"),
    ("pv h8-h1", "pv move 1 ('h8-h1') is not legal"),
])
def test_analysis_lines_that_would_be_lost_fail_their_check(answers, words):
    passed, detail = details(scoring(answers))["breakthrough: genmove_analyze lines"]
    assert not passed and detail.startswith(words)
