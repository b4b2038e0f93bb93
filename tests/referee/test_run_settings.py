"""``match.json`` as one typed value (:class:`referee.run.settings.RunSettings`): what a match
writes reads back whole, and the forms earlier versions wrote still read, resume and report."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from referee.commands import cli
from referee.plan.adjudication import Adjudication
from referee.plan.setup import Setup
from referee.plan.time_control import TimeControl
from referee.play.entrants import EngineSpec
from referee.records.folder import REPORT_NAME
from referee.run.settings import Book, EventName, RunSettings
from referee.stats import SprtSettings

from ..results import rows_written

BAD_ENGINE = Path(__file__).with_name("bad_engine.py")
ENGINE = f"{shlex.quote(sys.executable)} {shlex.quote(str(BAD_ENGINE))}"

# match.json as the first version wrote it: engines as command lines, one clock for all.
FIRST_VERSION = {"game": "breakthrough", "options": {}, "size": None,
                 "engines": [ENGINE, ENGINE], "time": 60.0, "increment": 0.0,
                 "max_moves": 12, "seed": 3}
# An event's, before each participant held its own clock, with the SPRT and anchor as the
# words of the command line.
OLD_EVENT = {"game": "loa", "options": {}, "size": [8, 8],
             "engines": [{"command": "remote", "name": "a", "dir": None, "init": [],
                          "control": None},
                         {"command": "remote", "name": "b", "dir": None, "init": [],
                          "control": None}],
             "control": {"main": 30.0, "increment": 0.5, "byoyomi": 0.0, "stones": 0},
             "time_margin": 1.0, "max_moves": 300, "gauntlet": 0, "pairs": True, "book": None,
             "sprt": "elo0=0 elo1=5 model=logistic", "anchor": "a=1500", "seed": 7,
             "event": {"name": "cup", "format": "round-robin"}}


def run_cli(*arguments: str) -> int:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(list(arguments))
    return exit_info.value.code


def quick_match(out: Path, games: int, *more: str) -> list[str]:
    return ["match", "--game", "breakthrough", "--engine", ENGINE, "--engine", ENGINE,
            "--games", str(games), "--max-moves", "12", "--seed", "3", "--out", str(out), *more]


def test_settings_read_back_whole():
    settings = RunSettings(
        Setup("loa", {"variant": "scrambled"}, (7, 7), 0.5, 200,
              adjudication=Adjudication(draw_plies=8)),
        (EngineSpec("e1", "one", "/tmp", ("name",), TimeControl(10, 0.1), memory=1 << 30),
         EngineSpec("e2", "two", control=TimeControl.per_move(2), cpus="0")),
        gauntlet=1, pairs=True, book=Book("0123456789abcdef", 4, 6, "random", 2),
        sprt=SprtSettings(0, 5), anchor=("one", 1500.0), seed=11,
        event=EventName("cup", "gauntlet"))
    again = RunSettings.from_json(json.loads(json.dumps(settings.as_json())))
    assert again == settings


def test_the_first_versions_settings_read_as_todays():
    settings = RunSettings.from_json(FIRST_VERSION)
    assert settings.names == [f"{ENGINE} #1", f"{ENGINE} #2"]
    assert [spec.control for spec in settings.engines] == [TimeControl(60.0)] * 2
    assert (settings.setup.max_moves, settings.setup.time_margin, settings.seed) == (12, 0.0, 3)


def test_an_older_events_settings_read_as_todays():
    settings = RunSettings.from_json(OLD_EVENT)
    assert [spec.control for spec in settings.engines] == [TimeControl(30.0, 0.5)] * 2
    assert settings.sprt == SprtSettings(0.0, 5.0, model="logistic")
    assert settings.anchor == ("a", 1500.0)
    assert settings.setup.size == (8, 8) and settings.pairs
    assert settings.event == EventName("cup", "round-robin")


def test_a_folder_of_the_first_version_resumes_and_reports(tmp_path, capsys):
    out = tmp_path / "out"
    assert run_cli(*quick_match(out, 2)) == 0
    (out / "match.json").write_text(json.dumps(FIRST_VERSION))
    assert run_cli(*quick_match(out, 4)) == 0
    rows = rows_written(out)
    assert [row["game_no"] for row in rows] == [1, 2, 3, 4]
    assert {rows[3]["black"], rows[3]["white"]} == {f"{ENGINE} #1", f"{ENGINE} #2"}
    assert run_cli("report", str(out)) == 0
    assert "time 60 each" in (out / REPORT_NAME).read_text()
    capsys.readouterr()
    assert run_cli(*quick_match(out, 6, "--time", "5")) == 2
    error = capsys.readouterr().err
    assert len(error.splitlines()) == 1
    assert "engine 1 time 60 (now 5), engine 2 time 60 (now 5)" in error


def test_a_folder_naming_the_clocks_main_time_resumes(tmp_path):
    """Every version before the time control's one name wrote an engine's ``time`` as
    ``main``."""
    out = tmp_path / "out"
    assert run_cli(*quick_match(out, 2, "--time", "30")) == 0
    saved = json.loads((out / "match.json").read_text())
    for engine in saved["engines"]:
        engine["control"]["main"] = engine["control"].pop("time")
    (out / "match.json").write_text(json.dumps(saved))
    assert run_cli(*quick_match(out, 4, "--time", "30")) == 0
    assert len(rows_written(out)) == 4
