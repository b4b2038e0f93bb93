"""Fast in-process tests of the referee: answers, one game, schedule, records, standings, CLI
usage errors. Engines here are in-process (our engine at depth 1, or scripted fakes)."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import sys
import time

import pytest

from engine import Termination, find_game, game_names
from engine.search import Player
from protocol.cli import build_engine
from referee.commands import cli
from referee.plan.schedule import plan
from referee.plan.setup import Setup
from referee.plan.time_control import TimeControl
from referee.play.channel import (
    Channel,
    ChannelClosed,
    ChannelTimeout,
    GtpFailure,
    IllFormedAnswer,
    InProcessChannel,
    parse_answer,
)
from referee.play.entrants import EngineSpec, unique_names
from referee.play.game import play_game
from referee.records.folder import GameRows, ResultsFile, read_rows
from referee.records.game_sgf import sgf_text
from referee.records.settings import SettingsMismatch
from referee.records.results import GameResult, Pairing, results_row
from referee.run.executor import ThreadExecutor
from referee.run.observer import Run
from referee.run.records import FolderRecords
from referee.play.seats import LocalSeating
from referee.run.runner import Runner
from referee.run.settings import RunSettings
from referee.stats import format_summary, summarize
from referee.stats.elo import score_to_elo, wilson_interval
from referee.stats.elo.wdl import wdl_estimate

from ..results import rows_written

SPEC_FIELDS = {"game_no", "game", "black", "white", "black_index", "white_index", "result",
               "termination", "reason", "moves", "plies", "black_time", "white_time"}


def our_engine(seed: int = 1) -> InProcessChannel:
    return InProcessChannel(build_engine(Player(depth=1, seed=seed)).respond, "ours")


class Scripted(Channel):
    """Our engine, except that the answers to chosen genmoves are replaced: a value is returned
    as the answer, an exception raised, a number slept before answering."""

    def __init__(self, faults: dict[int, object]) -> None:
        self.inner = our_engine()
        self.faults = faults
        self.genmoves = 0
        self.sent: list[str] = []

    def send(self, command: str, deadline: float | None = None) -> str:
        self.sent.append(command)
        if command.startswith("genmove"):
            self.genmoves += 1
            fault = self.faults.get(self.genmoves)
            if isinstance(fault, Exception):
                raise fault
            if isinstance(fault, float):
                time.sleep(fault)
                if deadline is not None and time.monotonic() > deadline:
                    raise ChannelTimeout("no complete answer in time")
            elif isinstance(fault, str):
                return fault
        return self.inner.send(command, deadline)


# --- answers -----------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    (b"=", (True, "")), (b"= b1-b3", (True, "b1-b3")), (b"=12 b1-b3", (True, "b1-b3")),
    (b"? illegal move", (False, "illegal move")), (b"?3 x", (False, "x")),
    (b"=\na b\n1 2", (True, "a b\n1 2")),
    # bytes that are no text, and control characters, each read as U+FFFD (a surrogate
    # encoded as UTF-8, modified UTF-8's NUL, a byte that is never UTF-8, NUL, escape)
    (b"= b1\xed\xa0\x80\xc0\x80\xff\x00\x1b[2J",
     (True, "b1" + "\ufffd" * 8 + "[2J")),
])
def test_parse_answer(raw, expected):
    assert parse_answer(raw) == expected


@pytest.mark.parametrize("raw", [b"", b"b1-b3", b"=x", b"hello = world", b"!"])
def test_parse_answer_rejects_what_is_not_gtp(raw):
    with pytest.raises(IllFormedAnswer):
        parse_answer(raw)


def test_in_process_channel_separates_failures_from_answers():
    channel = our_engine()
    assert channel.send("protocol_version") == "2"
    with pytest.raises(GtpFailure, match="unknown command"):
        channel.send("frobnicate")
    assert channel.send("quit") == ""
    with pytest.raises(ChannelClosed):
        channel.send("name")


# --- one game ----------------------------------------------------------------------------

def test_a_full_game_is_legal_and_judged_by_the_referee():
    record = play_game(Setup("loa"), [our_engine(1), our_engine(2)], random.Random(1),
                       controls=(TimeControl(60), TimeControl(60)))
    assert record.termination == Termination.NORMAL
    position = find_game("loa")().initial_position()
    for text in record.moves:
        position.play(position.parse_move(text))
    assert position.outcome is not None and position.outcome.result == record.result
    assert len(record.clocks) == len(record.moves)
    assert all(0 <= used < 60 for used in record.used)


@pytest.mark.parametrize("fault, termination, reason", [
    ("a1-a2", Termination.ILLEGAL_MOVE, "black played 'a1-a2'"),
    ("zz", Termination.ILLEGAL_MOVE, "is not a move"),
    ("pass", Termination.ILLEGAL_MOVE, "pass"),
    ("", Termination.ILLEGAL_MOVE, "black played ''"),
    ("RESIGN", Termination.RESIGN, "black resigned"),
    (GtpFailure("no"), Termination.PROTOCOL_ERROR, "failure: no"),
    (IllFormedAnswer("not a GTP answer"), Termination.PROTOCOL_ERROR, "not a GTP answer"),
    (ChannelClosed("the engine exited"), Termination.CRASH, "exited"),
    (ChannelTimeout("no complete answer"), Termination.TIMEOUT, "no complete answer"),
    (0.3, Termination.TIMEOUT, "no complete answer"),
])
def test_a_misbehaving_side_loses_with_the_right_termination(fault, termination, reason):
    bad = Scripted({2: fault})
    record = play_game(Setup("loa"), [bad, our_engine()], random.Random(1),
                       controls=(TimeControl(0.2), TimeControl(0.2)))
    assert (record.result, record.termination, record.at_fault) == ("W+", termination, 0)
    assert reason in record.reason and "\n" not in record.reason
    assert len(record.moves) == 2


def test_refusing_a_legal_play_forfeits():
    class Refuser(Scripted):
        def send(self, command, deadline=None):
            if command.startswith("play"):
                raise GtpFailure("illegal move: no")
            return super().send(command, deadline)

    record = play_game(Setup("loa"), [our_engine(), Refuser({})], random.Random(1))
    assert (record.result, record.at_fault) == ("B+", 1)
    assert record.termination == Termination.PROTOCOL_ERROR
    assert record.moves and "refused 'play black" in record.reason


def test_refusing_set_game_forfeits_before_any_move():
    record = play_game(Setup("loa"), [our_engine(), Scripted({})], random.Random(1))
    assert record.termination == Termination.NORMAL
    refuser = InProcessChannel(lambda line: "? unknown command\n\n")
    record = play_game(Setup("loa"), [our_engine(), refuser], random.Random(1))
    assert (record.result, record.moves) == ("B+", [])
    assert record.termination == Termination.PROTOCOL_ERROR


def test_move_limit_is_a_draw_and_the_clock_is_refilled_by_the_increment():
    record = play_game(Setup("loa", max_moves=4), [our_engine(), our_engine()],
                       random.Random(1), controls=(TimeControl(5, 2), TimeControl(5, 2)))
    assert (record.result, record.termination) == ("0", Termination.MOVE_LIMIT)
    assert len(record.moves) == 4
    assert all(6 < clock <= 7 for clock in record.clocks[:2])
    assert all(8 < clock <= 9 for clock in record.clocks[2:])


def test_engines_are_set_up_with_the_same_commands():
    engines = [Scripted({}), Scripted({})]
    play_game(Setup("loa", max_moves=2), engines, random.Random(1),
              controls=(TimeControl(12.5), TimeControl(12.5)))
    in_game = ("genmove", "play", "time_left")
    setups = [[command for command in engine.sent if not command.startswith(in_game)]
              for engine in engines]
    assert setups[0] == setups[1] == ["set_game loa", "clear_board", "time_settings 12.5 0 0",
                                      "known_command genmove_analyze"]
    assert engines[0].sent[4].startswith("time_left black 12.5 0")


def test_an_engine_that_knows_kata_time_settings_is_told_the_increment_before_its_first_move():
    class Unaware(Scripted):
        def send(self, command: str, deadline: float | None = None) -> str:
            if command == "known_command kata-time_settings":
                self.sent.append(command)
                return "false"
            return super().send(command, deadline)

    aware, unaware = Scripted({}), Unaware({})
    play_game(Setup("loa", max_moves=2), [aware, unaware], random.Random(1),
              controls=(TimeControl(5, 0.25), TimeControl(5, 0.25)))
    announced = ["time_settings 5 0 0", "known_command kata-time_settings",
                 "kata-time_settings fischer 5 0.25"]
    assert aware.sent[2:5] == announced and unaware.sent[2:4] == announced[:2]
    assert not any(command.startswith("kata-time_settings") for command in unaware.sent)
    clock = aware.inner.respond.__self__.handlers["time_left"].__self__.player.clock
    assert clock.increment == 0.25


@pytest.mark.skipif("laocoon" not in game_names(), reason="laoCoon is not registered")
def test_a_random_start_is_drawn_by_the_referee_and_sent_to_both_engines():
    engines = [Scripted({}), Scripted({})]
    setup = Setup("laocoon", {"variant": "random"}, max_moves=2)
    record = play_game(setup, engines, random.Random(5))
    assert "layout" in record.start_options
    assert engines[0].sent[0] == engines[1].sent[0]
    assert f"layout={record.start_options['layout']}" in engines[0].sent[0]
    again = play_game(setup, [Scripted({}), Scripted({})], random.Random(5))
    assert again.start_options == record.start_options


# --- schedule and match ------------------------------------------------------------------

def schedule(engines, games, seed):
    return plan(engines, games, seed)


def test_colours_alternate_in_a_match():
    games = schedule(2, 5, seed=1)
    assert [(game.black, game.white) for game in games] == [(0, 1), (1, 0)] * 2 + [(0, 1)]
    assert [game.game_no for game in games] == [1, 2, 3, 4, 5]
    assert {game.pair for game in games} == {None}


def test_round_robin_plays_every_pairing_with_balanced_colours():
    games = schedule(4, 2, seed=1)
    assert len(games) == 6 * 2
    for first in range(4):
        for second in range(first + 1, 4):
            pair = [(game.black, game.white) for game in games
                    if {game.black, game.white} == {first, second}]
            assert pair == [(first, second), (second, first)]


def test_schedule_seeds_are_reproducible_and_a_longer_match_extends_a_shorter():
    assert schedule(3, 2, seed=9) == schedule(3, 2, seed=9)
    assert schedule(3, 4, seed=9)[:6] == schedule(3, 2, seed=9)
    assert schedule(2, 2, seed=9) != schedule(2, 2, seed=10)
    assert len({game.seed for game in schedule(3, 4, seed=9)}) == 12


def test_unique_names_tell_engines_with_one_name_apart():
    assert unique_names(["x", "y"], ["a", "a"]) == ["x", "y"]
    assert unique_names(["x", "x"], ["a", "a"]) == ["x #1", "x #2"]
    assert unique_names(["x", "x", "x"], ["a", "a -d 2", "a -d 2"]) == \
        ["x", "x (-d 2) #2", "x (-d 2) #3"]


def in_process_starter(spec):
    return our_engine(ord(spec.command))


def test_runner_in_process_writes_rows_and_sgf(tmp_path):
    results = ResultsFile(tmp_path / "results.jsonl")
    specs = tuple(EngineSpec(command, command) for command in "abc")
    run = Run(Setup("loa", max_moves=30), specs, schedule(3, 2, seed=3), tmp_path, 3)
    assert Runner(run, ThreadExecutor(3), FolderRecords(run, results),
                  seating=LocalSeating(run.engines, in_process_starter)).execute() is None
    results.close()
    rows = rows_written(tmp_path)
    assert sorted(row["game_no"] for row in rows) == list(range(1, 7)) == sorted(
        results.finished)
    assert run.tally.games == 6
    for row in rows:
        assert SPEC_FIELDS <= set(row)
        assert (tmp_path / "games" / f"game-{row['game_no']:04d}.sgf").exists()
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 6


# --- records -----------------------------------------------------------------------------

def test_result_row_and_sgf_hold_what_spec_asks(tmp_path):
    record = play_game(Setup("loa", max_moves=5), [our_engine(), Scripted({2: "resign"})],
                       random.Random(1))
    row = results_row(record, Pairing(4, 0, 1, ("one", "two]"), seed=7))
    assert SPEC_FIELDS <= set(row)
    assert (row["game_no"], row["result"], row["plies"]) == (4, "B+", 3)
    assert row["termination"] == "resign"
    assert json.loads(json.dumps(row)) == row
    sgf = sgf_text({**row, "first_player": "black"}, record.clocks)
    assert sgf.startswith("(;FF[4]CA[UTF-8]GM[9]") and sgf.endswith(")\n")
    assert "PB[one]" in sgf and "PW[two\\]]" in sgf and "RE[B+]" in sgf
    nodes = sgf.split("\n;")[1:]
    assert [node[:2] for node in nodes] == ["B[", "W[", "B["]
    assert nodes[0].startswith(f"B[{row['moves'][0]}]BL[")
    assert "C[resign: white resigned]" in nodes[-1]
    # The statistics' value of the game, made from the record, is the one its row reads back.
    assert record.result_of(4, 1, 2, None, None) == GameResult.from_row(row)


def test_sgf_names_other_games_and_rectangular_boards():
    row = {"game": "breakthrough", "game_no": 2, "black": "a", "white": "b", "result": "0",
           "termination": "move_limit", "reason": "r", "moves": ["a2-a3"], "size": [6, 5],
           "first_player": "white"}
    sgf = sgf_text(row)
    assert "GM[breakthrough]" in sgf and "SZ[6:5]" in sgf and "RE[0]" in sgf and ";W[a2-a3]" in sgf


def test_results_file_tolerates_a_truncated_last_line(tmp_path):
    path = tmp_path / "results.jsonl"
    row = {"black_index": 1, "white_index": 2, "result": "B+", "termination": "normal"}
    path.write_text(json.dumps({"game_no": 1, **row}) + '\n{"game_no": 2, "res')
    results = ResultsFile(path)
    assert list(results.finished) == [1]
    results.append({"game_no": 3, **row, "result": "0"})
    results.close()
    assert [json.loads(line)["game_no"] for line in path.read_text().splitlines()] == [1, 3]


def test_the_runner_and_the_readers_take_the_same_row_for_each_game(tmp_path):
    # Game 1's second line holds no result (a hand edit): its first row still stands, for the
    # runner (which keeps the line and names it) and for the statistics and the report alike.
    path = tmp_path / "results.jsonl"
    row = {"black_index": 1, "white_index": 2, "result": "B+", "termination": "normal"}
    lines = [{"game_no": 1, **row}, {"game_no": 2, **row, "result": "W+"},
             {"game_no": 1, "result": "?"}, {"game_no": 2, **row, "result": "0"}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + "not json\n")
    results = ResultsFile(path)
    results.close()
    assert results.finished == {1: 1, 2: 4} and results.unreadable == [3, 5]
    expected = [lines[0], lines[3]]
    assert list(results.rows()) == list(read_rows(path)) == list(GameRows(path)) == expected


def test_settings_are_saved_and_a_different_match_is_refused(tmp_path):
    settings = RunSettings(Setup("loa"), (EngineSpec("a", "a"), EngineSpec("b", "b")))
    saved = settings.checked(tmp_path)
    assert saved.seed is not None and saved == dataclasses.replace(settings, seed=saved.seed)
    assert settings.checked(tmp_path).seed == saved.seed
    other = (EngineSpec("a", "a"), EngineSpec("c", "b"))
    with pytest.raises(SettingsMismatch, match="engine 2 command"):
        dataclasses.replace(settings, engines=other).checked(tmp_path)
    with pytest.raises(SettingsMismatch, match="seed"):
        dataclasses.replace(settings, seed=saved.seed + 1).checked(tmp_path)


# --- standings ---------------------------------------------------------------------------

def test_elo_of_known_scores():
    assert score_to_elo(0.5) == 0.0
    assert score_to_elo(0.75) == pytest.approx(190.848, abs=1e-3)   # 400 log10 3
    assert score_to_elo(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf


def test_wilson_interval_of_a_known_score():
    # mu = 0.7 over 10 games; Wilson with z^2 = 3.841459: centre (0.7 + 0.192073) / 1.384146
    # = 0.644493, half-width 1.959964 * sqrt(0.021 + 0.009604) / 1.384146 = 0.247715.
    lower, upper = wilson_interval(0.7, 10)
    assert (lower, upper) == pytest.approx((0.396778, 0.892208), abs=1e-6)
    assert (score_to_elo(lower), score_to_elo(upper)) == pytest.approx((-72.77, 367.15), abs=0.01)


def test_a_perfect_score_keeps_a_finite_lower_end():
    estimate = wdl_estimate(10, 0, 0)
    assert estimate.elo == math.inf and estimate.elo_high == math.inf
    assert estimate.elo_low == pytest.approx(score_to_elo(0.722460), abs=0.01)
    assert wdl_estimate(0, 0, 10).elo_low == -math.inf


def results_of(rows) -> list[GameResult]:
    """GameResults of rows that give only the engines, the result and the termination."""
    return [GameResult.from_row({"game_no": number, "termination": "normal", **row})
            for number, row in enumerate(rows, 1)]


def test_standings_count_each_engine_from_both_colours():
    rows = [{"black_index": 1, "white_index": 2, "result": "B+", "termination": "normal"},
            {"black_index": 2, "white_index": 1, "result": "B+", "termination": "timeout"},
            {"black_index": 1, "white_index": 3, "result": "0", "termination": "move_limit"},
            {"black_index": 3, "white_index": 2, "result": "W+", "termination": "normal"}]
    summary = summarize(results_of(rows), ["a", "b", "c"])
    assert [(s.name, s.wins, s.losses, s.draws, s.points)
            for s in summary.standings] == [
        ("b", 2, 1, 0, 2.0), ("a", 1, 1, 1, 1.5), ("c", 0, 1, 1, 0.5)]
    assert summary.terminations == {"move_limit": 1, "normal": 2, "timeout": 1}
    lines = format_summary(summary).splitlines()
    table = lines.index(next(line for line in lines if line.split()[:2] == ["#", "engine"]))
    assert [line.split()[1] for line in lines[table + 1:table + 4]] == ["b", "a", "c"]
    assert "a lost by: timeout 1" in lines


# --- command line ------------------------------------------------------------------------

TWO = ["--engine", "a", "--engine", "b"]


@pytest.mark.parametrize("arguments, message", [
    (["--game", "nosuchgame", *TWO], "unknown game"),
    (["--game", "loa", "--engine", "a"], "at least two --engine"),
    (["--game", "loa", "--option", "colour=red", *TWO], "unknown option"),
    (["--game", "loa", "--option", "novalue", *TWO], "KEY=VALUE"),
    (["--game", "loa", "--boardsize", "9", *TWO], "fixed board"),
    (["--game", "loa", "--boardsize", "9y9", *TWO], "COLSxROWS"),
    # Numbers are ASCII decimal: a superscript, other scripts' digits, exponents, underscores.
    (["--game", "breakthrough", "--boardsize", "\u00b2", *TWO], "COLSxROWS"),
    (["--game", "breakthrough", "--boardsize", "\u0661\u0660", *TWO], "COLSxROWS"),
    (["--game", "loa", *TWO, "--games", "\u00b2"], "--games"),
    (["--game", "loa", *TWO, "--games", "\u0664"], "--games"),
    (["--game", "loa", *TWO, "--time", "1e3"], "--time"),
    (["--game", "loa", *TWO, "--seed", "1_0"], "--seed"),
    (["--game", "loa", *TWO, "--sprt", "elo0=\u0660 elo1=5"], "--sprt"),
    (["--game", "loa", *TWO, "--engine", "c", "--anchor", "a=\u00b9"], "--anchor"),
    (["--game", "loa", "--engine", "a 'b", "--engine", "b"], "quotation"),
    (["--game", "loa", *TWO, "--games", "0"], "--games"),
    (["--game", "loa", *TWO, "--time", "-1"], "--time"),
    ([*TWO], "--game"),
    (["--game", "loa", *TWO, "--bogus"], "--bogus"),
])
def test_usage_errors_exit_2_with_one_line(arguments, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["match", *arguments, "--out", str(tmp_path / "out")])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1 and message in captured.err
    assert not (tmp_path / "out").exists()


def test_resuming_with_other_settings_is_a_usage_error(capsys, tmp_path):
    (tmp_path / "match.json").write_text(json.dumps(
        {"game": "loa", "options": {}, "size": None, "max_moves": 1000, "seed": 1}))
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["match", "--game", "loa", "--engine", sys.executable,
                  "--engine", sys.executable, "--max-moves", "99", "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "holds a match with other settings: " in err and "max-moves 1000 (now 99)" in err
    assert len(err.splitlines()) == 1


def test_crosstable_scores_each_pairing_from_both_sides():
    rows = [{"black_index": 1, "white_index": 2, "result": "B+"},
            {"black_index": 2, "white_index": 1, "result": "0"},
            {"black_index": 3, "white_index": 1, "result": "W+"}]
    cells = summarize(results_of(rows), ["a", "b", "c"]).crosstable
    assert [[cell and (cell.points, cell.games) for cell in line] for line in cells] == [
        [None, (1.5, 2), (1.0, 1)], [(0.5, 2), None, None], [(0.0, 1), None, None]]
    lines = format_summary(summarize(results_of(rows), ["a", "b", "c"])).splitlines()
    assert [line.split()[2:] for line in lines[-3:]] == [
        ["-", "1.5/2", "1/1"], ["0.5/2", "-"], ["0/1", "-"]]
