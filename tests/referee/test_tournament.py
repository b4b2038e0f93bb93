"""The tournament runner in process: clocks, plans (pairs, gauntlets, openings), openings sent
to both engines, per-engine time controls, the runner's resume mid-pair and its SPRT stop.
Engines are in-process (our engine at depth 1, or scripted fakes), so these tests are fast."""

from __future__ import annotations

import json
import random
import time

import pytest

from engine import Termination
from engine.search import Player
from protocol.cli import build_engine
from referee.plan.schedule import pairings, plan, units
from referee.plan.setup import Opening, Setup
from referee.plan.time_control import TimeControl
from referee.play.channel import Channel, InProcessChannel
from referee.play.clock import Clock
from referee.play.entrants import EngineSpec
from referee.play.game import play_game
from referee.records.folder import FolderBusy, ResultsFile, lock_folder
from referee.records.game_sgf import sgf_text
from referee.records.results import FinishedGame, GameResult
from referee.run.executor import ThreadExecutor
from referee.run.observer import Run, RunObserver
from referee.run.records import FolderRecords
from referee.play.seats import LocalSeating
from referee.run.runner import Runner
from referee.stats import SprtSettings, summarize

from ..results import rows_written


class Recording(Channel):
    """Our engine at depth 1, keeping every command it was sent; ``delay`` seconds per genmove,
    and ``resign`` answers every genmove with ``resign``."""

    def __init__(self, delay: float = 0.0, resign: bool = False, seed: int = 1) -> None:
        self.inner = InProcessChannel(build_engine(Player(depth=1, seed=seed)).respond)
        self.delay = delay
        self.resign = resign
        self.sent: list[str] = []

    def send(self, command: str, deadline: float | None = None) -> str:
        self.sent.append(command)
        if command.startswith("genmove"):
            if self.delay:
                time.sleep(self.delay)
            if self.resign:
                return "resign"
        return self.inner.send(command, deadline)


# --- clocks --------------------------------------------------------------------------------

def test_sudden_death_with_increment_and_the_least_time_left():
    clock = Clock(TimeControl(10, 2))
    assert clock.time_left() == (10, 0) and clock.budget() == 10
    assert clock.charge(4) and clock.time_left() == (8, 0)      # 10 - 4 + 2
    assert clock.charge(7.5) and clock.time_left() == (2.5, 0)  # 8 - 7.5 + 2
    assert clock.lowest == 0.5                                  # before the increment
    assert not clock.charge(3)


def test_byo_yomi_periods_restart_after_their_stones_and_a_late_one_loses():
    clock = Clock(TimeControl(time=5, byoyomi=10, stones=3))
    assert clock.budget() == 15                  # main time, then the first period
    assert clock.charge(7) and clock.time_left() == (8, 2)  # 2 s into the period, 1st stone
    assert clock.charge(4) and clock.time_left() == (4, 1)
    assert clock.charge(3) and clock.time_left() == (10, 3)  # third stone: a fresh period
    assert clock.lowest == 1
    assert clock.charge(9.5) and not clock.charge(0.6)


def test_fixed_time_per_move_is_byo_yomi_of_one_stone_and_the_margin_forgives():
    control = TimeControl.per_move(2)
    assert (control.settings(), control.describe()) == ("time_settings 0 2 1", "2/move")
    clock = Clock(control, margin=0.5)
    assert clock.time_left() == (2, 1) and clock.budget() == 2.5
    assert clock.charge(2.4) and clock.time_left() == (2, 1)  # late, but within the margin
    assert not clock.charge(2.6)


def test_the_margin_in_sudden_death_is_one_sum_for_the_game():
    clock = Clock(TimeControl(1), margin=1)
    assert clock.charge(1.6) and clock.time_left()[0] == pytest.approx(-0.6)
    assert clock.budget() == pytest.approx(0.4)
    assert not clock.charge(0.5)


@pytest.mark.parametrize("kwargs", [dict(time=0), dict(byoyomi=5), dict(stones=2),
                                    dict(time=-1), dict(increment=-1)])
def test_impossible_time_controls_are_refused(kwargs):
    with pytest.raises(ValueError):
        TimeControl(**kwargs)


# --- plans ---------------------------------------------------------------------------------

def test_a_pair_is_the_same_start_played_twice_with_colours_swapped():
    book = [Opening(number, (f"m{number}",), source=f"b:{number}") for number in (1, 2, 3)]
    games = plan(2, 6, seed=4, openings=book, start=2)
    assert [(game.game_no, game.pair) for game in games] == [
        (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)]
    for first, second in zip(games[::2], games[1::2]):
        assert (first.black, first.white) == (second.white, second.black) == (0, 1)
        assert first.seed == second.seed and first.opening == second.opening
    assert [game.opening.number for game in games[::2]] == [2, 3, 1]
    assert len({game.seed for game in games}) == 3
    assert [len(unit) for unit in units(games)] == [2, 2, 2]


def test_pairs_without_openings_and_their_refusal_of_an_odd_count():
    games = plan(3, 4, seed=1, paired=True)
    assert len(games) == 12 and {game.opening for game in games} == {None}
    assert plan(3, 2, seed=1, paired=True) == games[:6]  # more games only append
    with pytest.raises(ValueError, match="even"):
        plan(2, 3, seed=1, paired=True)


def test_every_pairing_of_a_round_plays_the_same_opening():
    book = [Opening(number, (f"m{number}",)) for number in (1, 2)]
    games = plan(3, 4, seed=1, openings=book)
    rounds = [games[:6], games[6:]]
    assert [{game.opening.number for game in one} for one in rounds] == [{1}, {2}]


def test_a_gauntlet_has_its_first_engines_meet_everyone_and_the_others_no_one():
    assert pairings(5, gauntlet=2) == [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4)]
    games = plan(5, 2, seed=1, gauntlet=2)
    met = {frozenset((game.black, game.white)) for game in games}
    assert len(games) == 14 and len(met) == 7
    assert all(min(pair) < 2 for pair in met)
    for first, second in pairings(5, gauntlet=2):
        both = [(game.black, game.white) for game in games if {game.black, game.white} == {
            first, second}]
        assert both == [(first, second), (second, first)]
    with pytest.raises(ValueError, match="gauntlet"):
        plan(3, 2, seed=1, gauntlet=3)


# --- one game ------------------------------------------------------------------------------

def test_both_engines_receive_the_opening_before_the_clocks_start():
    engines = [Recording(), Recording()]
    opening = Opening(7, ("a2-a3", "a7-a6", "b2-b3"), source="book.txt:7")
    record = play_game(Setup("breakthrough", max_moves=5), engines, random.Random(1), opening)
    first, second = ("black", "white") if record.game.first_player == 0 else ("white", "black")
    plays = [f"play {first} a2-a3", f"play {second} a7-a6", f"play {first} b2-b3"]
    for engine in engines:
        first_genmove = next(i for i, c in enumerate(engine.sent) if c.startswith("genmove"))
        before = engine.sent[:first_genmove]
        assert [command for command in before if command.startswith("play")][:3] == plays
        assert before.index(plays[-1]) < before.index(
            next(c for c in before if c.startswith("time_left")))
    mover = engines[1 - record.game.first_player]
    # our engine announces genmove_analyze, so the referee asks with it
    assert mover.sent[mover.sent.index(plays[-1]) + 2] == f"genmove_analyze {second}"
    assert record.moves[:3] == ["a2-a3", "a7-a6", "b2-b3"] and record.opening_plies == 3
    assert record.clocks[:3] == [None, None, None] and None not in record.clocks[3:]
    assert record.timed_moves == [1, 1] and record.termination == Termination.MOVE_LIMIT


def test_the_sgf_marks_where_the_opening_ends():
    row = {"game": "breakthrough", "game_no": 1, "black": "a", "white": "b", "result": "0",
           "termination": "move_limit", "reason": "r", "moves": ["a2-a3", "a7-a6", "b2-b3"],
           "first_player": "black", "opening": 4, "opening_plies": 2}
    nodes = sgf_text(row, [None, None, 9.5]).split("\n;")[1:]
    assert nodes[1] == "W[a7-a6]C[end of opening 4]"
    assert nodes[2].startswith("B[b2-b3]BL[9.500]C[move_limit")
    row["opening_plies"] = 3
    assert "C[end of opening 4; move_limit: r]" in sgf_text(row)


def test_each_engine_plays_under_its_own_time_control():
    engines = [Recording(), Recording()]
    controls = [TimeControl(30, 1), TimeControl.per_move(2)]
    play_game(Setup("loa", max_moves=4), engines, random.Random(1), controls=controls)
    assert "time_settings 30 0 0" in engines[0].sent and "time_settings 0 2 1" in engines[1].sent
    assert engines[0].sent[engines[0].sent.index("genmove_analyze black") - 1] \
        == "time_left black 30 0"
    assert engines[1].sent[engines[1].sent.index("genmove_analyze white") - 1] \
        == "time_left white 2 1"
    byo = [Recording(delay=0.02), Recording(delay=0.02)]  # each move outlasts main time
    play_game(Setup("loa", max_moves=4), byo, random.Random(1),
              controls=(TimeControl(0.01, 0, 5, 3), TimeControl(0.01, 0, 5, 3)))
    lefts = [command for command in byo[0].sent if command.startswith("time_left")]
    assert lefts[0] == "time_left black 0.01 0" and lefts[1].endswith(" 2")  # in a period


def test_a_late_move_within_the_margin_is_not_lost_on_time():
    slow = [Recording(delay=0.15), Recording()]
    per_move = (TimeControl.per_move(0.05), TimeControl.per_move(0.05))
    setup = Setup("loa", max_moves=2)
    assert play_game(setup, slow, random.Random(1), controls=per_move).termination \
        == Termination.TIMEOUT
    forgiven = Setup("loa", time_margin=5, max_moves=2)
    record = play_game(forgiven, [Recording(delay=0.15), Recording()], random.Random(1),
                       controls=per_move)
    assert record.termination == Termination.MOVE_LIMIT
    assert record.lowest[0] is not None and record.lowest[0] < 0


# --- the runner ----------------------------------------------------------------------------

SPECS = (EngineSpec("strong", "strong"), EngineSpec("weak", "weak"))


def start_in_process(spec: EngineSpec) -> Channel:
    return Recording(resign=spec.command == "weak")


class Watcher(RunObserver):
    def __init__(self) -> None:
        self.moves: set[int] = set()
        self.started: list[int] = []
        self.finished: list[int] = []
        self.stopped = "unset"

    def move_played(self, game_no, ply, move, clocks):
        self.moves.add(game_no)

    def game_started(self, game):
        self.started.append(game.game_no)

    def game_finished(self, game, summary):
        self.finished.append(game.result.game_no)

    def run_finished(self, summary, stopped):
        self.stopped = stopped


def run_in_process(out, planned, sprt=None, concurrency=2, observer=None):
    results = ResultsFile(out / "results.jsonl")
    run = Run(Setup("breakthrough", max_moves=60), SPECS, planned, out, 1, sprt)
    runner = Runner(run, ThreadExecutor(concurrency), FolderRecords(run, results), observer,
                    LocalSeating(SPECS, start_in_process))
    stopped = runner.execute()
    results.close()
    return stopped, runner


def test_a_run_resumed_in_the_middle_of_a_pair_plays_only_what_is_missing(tmp_path):
    planned = plan(2, 4, seed=3, paired=True)
    stopped, _ = run_in_process(tmp_path, planned[:1], concurrency=1)
    assert stopped is None and [row["game_no"] for row in rows_written(tmp_path)] == [1]
    watcher = Watcher()
    stopped, runner = run_in_process(tmp_path, planned, observer=watcher)
    rows = rows_written(tmp_path)
    assert stopped is None and sorted(row["game_no"] for row in rows) == [1, 2, 3, 4]
    assert sorted(watcher.started) == [2, 3, 4] and sorted(watcher.finished) == [2, 3, 4]
    assert [row["pair"] for row in sorted(rows, key=lambda row: row["game_no"])] == [1, 1, 2, 2]
    played = {row["game_no"] for row in rows if row["plies"] and row["game_no"] > 1}
    assert played and watcher.moves == played  # threads run in process: moves are reported
    assert runner.records.summary.pairs == 2 and runner.records.summary.headline.pentanomial == (0, 0, 0, 0, 2)


def test_the_run_stops_by_itself_on_an_sprt_verdict(tmp_path):
    sprt = SprtSettings(elo0=0, elo1=100)
    planned = plan(2, 200, seed=3, paired=True)
    watcher = Watcher()
    stopped, runner = run_in_process(tmp_path, planned, sprt, observer=watcher)
    rows = rows_written(tmp_path)
    assert stopped == "sprt" == watcher.stopped and runner.verdict == "H1"
    assert 0 < len(rows) < len(planned) and len({row["game_no"] for row in rows}) == len(rows)
    saved = json.loads((tmp_path / "summary.json").read_text())
    again = summarize([GameResult.from_row(row) for row in rows], ["strong", "weak"], sprt)
    assert saved == json.loads(json.dumps(again.as_json())) and saved["sprt"]["verdict"] == "H1"
    assert saved["sprt"]["llr"] >= saved["sprt"]["upper"]
    stopped, _ = run_in_process(tmp_path, planned, sprt)  # decided: nothing more to play
    assert stopped == "sprt" and rows_written(tmp_path) == rows


def test_a_finished_game_is_written_once(tmp_path):
    stopped, runner = run_in_process(tmp_path, plan(2, 2, seed=1))
    rows = rows_written(tmp_path)
    results = ResultsFile(tmp_path / "results.jsonl")
    again = Runner(runner.run, ThreadExecutor(1), FolderRecords(runner.run, results),
                   seating=LocalSeating(runner.run.engines, start_in_process))
    again._write(FinishedGame(dict(rows[0]), GameResult.from_row(rows[0]), (), "black"))
    results.close()
    assert rows_written(tmp_path) == rows and runner.records.summary.games == 2


def test_a_folder_is_locked_while_a_referee_holds_it(tmp_path):
    lock = lock_folder(tmp_path / "out")
    with pytest.raises(FolderBusy, match="in use by another referee"):
        lock_folder(tmp_path / "out")
    lock.close()
    lock_folder(tmp_path / "out").close()
