"""cutechess and fastchess habits on ``match``'s command line (docs/cutechess.md): single-dash
options, ``-engine cmd=...``, ``-each tc=...``, ``--tc``, ``--rounds``; what a two-engine run
prints for their scripts (the ``Score of`` line); and the help texts that misled."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import click
import pytest

from referee.commands import cli
from referee.commands.habits import parse_tc, translate

from ..results import rows_written

PYTHON = shlex.quote(sys.executable)
INSTANT = f"{PYTHON} {shlex.quote(str(Path(__file__).with_name('bad_engine.py')))}"
OPTIONS = cli.long_options(cli.match)


def run_cli(capsys, *arguments: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(list(arguments))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


@pytest.mark.parametrize("text, keys", [
    ("10+0.1", {"time": 10.0, "increment": 0.1}),
    ("60", {"time": 60.0, "increment": 0.0}),
    ("1:30+1", {"time": 90.0, "increment": 1.0}),
    ("0:05", {"time": 5.0, "increment": 0.0}),
])
def test_a_time_control_as_they_write_it_is_main_time_and_increment(text, keys):
    assert parse_tc(text) == keys


@pytest.mark.parametrize("text", ["40/60+0.6", "40/60", "inf", "hg60", "10+", "ten", "1e3"])
def test_a_time_control_with_no_equivalent_here_is_refused_saying_why(text):
    with pytest.raises(ValueError, match=r"tc=|not SECONDS"):
        parse_tc(text)


def test_single_dash_options_and_cutechess_words_become_ours():
    assert translate(["-concurrency", "2", "-games", "4", "-rounds", "3", "-srand", "9",
                      "-maxmoves", "80", "-ratinginterval", "10", "-repeat", "2"], OPTIONS) == [
        "--concurrency", "2", "--games", "4", "--rounds", "3", "--seed", "9",
        "--max-moves", "80", "--report-every", "10", "--pairs"]
    # a value is never rewritten, a word we do not know is left for click to refuse
    assert translate(["--engine", "-games", "-pgnout", "x.pgn"], OPTIONS) == [
        "--engine", "-games", "-pgnout", "x.pgn"]
    assert translate(["-openings", "file=b.txt", "format=epd", "order=random", "plies=4"],
                     OPTIONS) == ["--openings", "b.txt", "--opening-order", "random",
                                  "--opening-plies", "4"]


@pytest.mark.parametrize("words, message", [
    (["-engine", "name=a"], "-engine needs cmd=COMMAND"),
    (["-engine", "cmd=a", "proto=uci"], "unknown key 'proto'"),
    (["-each", "name=a", "--engine", "a"], "each engine has its own"),
    (["-each", "dir=/tmp"], "give the engines on the command line"),
    (["-openings", "order=random"], "-openings needs file=FILE"),
    (["-engine", "cmd=a", "tc=40/60"], "--byoyomi SECONDS"),
])
def test_a_habit_given_wrong_is_one_usage_error(words, message):
    with pytest.raises(click.UsageError, match=message):
        translate(words, OPTIONS)


def test_a_fastchess_command_line_plays_rounds_of_pairs_and_prints_the_score_line(tmp_path,
                                                                                 capsys):
    out = tmp_path / "out"
    status, printed, _ = run_cli(
        capsys, "match", "-game", "breakthrough", "-engine", f"cmd={INSTANT}", "name=first",
        "-engine", f"cmd={INSTANT}", "name=second", "tc=3+0.5", "-each", "tc=2+0.25",
        "-rounds", "2", "-games", "2", "-concurrency", "2", "-report-every", "4",
        "-max-moves", "6", "-out", str(out))
    assert status == 0
    saved = json.loads((out / "match.json").read_text())
    assert saved["pairs"] is True
    assert [engine["control"] for engine in saved["engines"]] == [
        {"time": 2.0, "increment": 0.25, "byoyomi": 0.0, "stones": 0},
        {"time": 3.0, "increment": 0.5, "byoyomi": 0.0, "stones": 0}]
    lines = printed.splitlines()
    scores = [line for line in lines if line.startswith("Score of ")]
    summary = json.loads((out / "summary.json").read_text())
    wins, losses, draws = summary["wld"]
    assert scores[-1] == (f"Score of first vs second: {wins} - {losses} - {draws}  "
                          f"[{(wins + draws / 2) / 4:.3f}] 4")
    assert [line.rsplit(" ", 1)[1] for line in scores] == ["1", "2", "3", "4"]
    # --report-every 4 divides the 4 games: the summary once, then where everything is
    assert sum(line.startswith("Results of ") for line in lines) == 1
    assert lines[-2:] == [f"Report: {out / 'report.html'}",
                          f"Records: {out / 'results.jsonl'}, {out / 'games'}/"]
    assert (out / "report.html").exists()


def test_a_run_prints_each_summary_once_the_score_line_and_where_the_report_is(tmp_path,
                                                                               capsys):
    out = tmp_path / "out"
    status, printed, _ = run_cli(capsys, "match", "--game", "breakthrough", "--engine", INSTANT,
                                 "--engine", INSTANT, "--games", "2", "--report-every", "2",
                                 "--engine-option", "1:name=a", "--engine-option", "2:name=b",
                                 "--max-moves", "4", "--out", str(out))
    assert status == 0
    lines = printed.splitlines()
    assert sum(line.startswith("Results of ") for line in lines) == 1
    assert [line for line in lines if line.startswith("Score of ")] == [
        "Score of a vs b: 0 - 0 - 1  [0.500] 1", "Score of a vs b: 0 - 0 - 2  [0.500] 2"]
    assert lines[-2:] == [f"Report: {out / 'report.html'}",
                          f"Records: {out / 'results.jsonl'}, {out / 'games'}/"]


def test_rounds_alone_are_single_games_and_tc_sets_the_clock(tmp_path, capsys):
    out = tmp_path / "out"
    status, printed, _ = run_cli(capsys, "match", "--game", "breakthrough", "--engine", INSTANT,
                                 "--engine", INSTANT, "--rounds", "3", "--tc", "1:00+1",
                                 "--max-moves", "4", "--out", str(out))
    assert status == 0
    assert "3 games, time 60+1 each," in printed.splitlines()[0]
    assert json.loads((out / "match.json").read_text())["pairs"] is False


def test_rounds_with_repeat_are_rounds_of_pairs(tmp_path, capsys):
    status, printed, _ = run_cli(capsys, "match", "--game", "breakthrough", "--engine", INSTANT,
                                 "--engine", INSTANT, "-rounds", "2", "-repeat",
                                 "--max-moves", "4", "--out", str(tmp_path / "out"))
    assert status == 0
    assert "4 games in pairs," in printed.splitlines()[0]


def test_a_resume_under_another_clock_names_each_setting_old_and_new(tmp_path, capsys):
    base = ["match", "--game", "breakthrough", "--engine", INSTANT, "--engine", INSTANT,
            "--games", "2", "--max-moves", "4", "--out", str(tmp_path / "out"),
            "--engine-option", "1:name=a"]
    assert run_cli(capsys, *base, "--time", "3", "--engine-option", "2:name=b")[0] == 0
    status, _, err = run_cli(capsys, *base, "--time", "5", "--engine-option", "2:name=c")
    assert status == 2 and len(err.splitlines()) == 1
    assert err == (
        f"olympiad-referee: error: {tmp_path / 'out'} holds a match with other settings: "
        f"engine 1 time 3 (now 5), engine 2 name \"b\" (now \"c\"), engine 2 time 3 (now 5); "
        f"use another --out, or the same settings to resume\n")


@pytest.mark.parametrize("arguments, message", [
    (["--tc", "10+0.1", "--time", "5"], "--tc 10+0.1 and --time both set the clock"),
    (["--tc", "40/60+0.6"], "--byoyomi SECONDS --stones MOVES"),
    (["--rounds", "1001", "--games", "1000"], "more than 1000000 games per pairing"),
])
def test_their_options_given_wrong_are_one_line(arguments, message, capsys, tmp_path):
    status, _, err = run_cli(capsys, "match", "--game", "loa", "--engine", INSTANT,
                             "--engine", INSTANT, *arguments, "--out", str(tmp_path / "out"))
    assert status == 2 and len(err.splitlines()) == 1 and message in err
    assert not (tmp_path / "out").exists()


def test_the_help_says_what_the_options_do(capsys):
    status, text, _ = run_cli(capsys, "match", "--help")
    assert status == 0
    flat = " ".join(text.split())
    assert "x<=None" not in flat
    assert "Default: GAME-DATE-TIME" in flat
    assert "--rounds N" in flat and "--tc SECONDS[+INC]" in flat


def test_our_engine_against_its_baseline_is_named_shortly_and_reads_at_100_columns(tmp_path,
                                                                                   capsys):
    """The quick start's match: each variant answers ``name`` with a name of its own."""
    out = tmp_path / "out"
    ours = f"{PYTHON} -m protocol.cli"
    status, printed, _ = run_cli(capsys, "match", "--game", "breakthrough", "--boardsize", "5x5",
                                 "--engine", f"{ours} --depth 1", "--engine",
                                 f"{ours} --algorithm greedy", "--games", "2", "--out", str(out))
    assert status == 0
    rows = rows_written(out)
    assert {(row["black"], row["white"]) for row in rows} == {
        ("olympiad-engine", "olympiad-greedy"), ("olympiad-greedy", "olympiad-engine")}
    shown = printed.replace(str(out), "out")  # as the quick start shows its folder: by name
    long_lines = [line for line in shown.splitlines() if len(line) > 100]
    assert long_lines == []
