"""Engines' analysis lines (``genmove_analyze``): the parser, the referee's use of them with
real engine processes, and their place in the results row and the SGF record."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

from engine import Termination
from referee.plan.setup import Setup
from referee.play.channel import EngineChannel, InProcessChannel
from referee.play.game import play_game
from engine.search import Analysis, Player
from protocol.cli import build_engine
from referee.records.analysis import (analyses_in, from_row, read_text, sgf_value,
                                     split_answer, to_row)
from referee.records.game_sgf import sgf_text
from referee.records.sgf import read_sgf
from referee.records.results import Pairing, results_row

PYTHON = shlex.quote(sys.executable)
HERE = Path(__file__).parent
SCORING = f"{PYTHON} {shlex.quote(str(HERE / 'scoring_engine.py'))}"
BAD = f"{PYTHON} {shlex.quote(str(HERE / 'bad_engine.py'))}"
OURS = f"{PYTHON} -m protocol.cli --depth 2 --seed 1"
GAME = Pairing(1, 0, 1, ("a", "b"), seed=5)


# --- the parser ---------------------------------------------------------------------------

def test_a_full_answer_is_read_field_by_field():
    move, analysis = split_answer("b1-b3\nscore -0.125\nproven loss 12 plies\ndepth 7\n"
                                  "nodes 123456\ntime 0.75\npv b1-b3 a2-c2 g1-e3")
    assert move == "b1-b3"
    assert analysis == Analysis(-0.125, "loss", 12, 7, 123456, 0.75,
                                    ("b1-b3", "a2-c2", "g1-e3"))


@pytest.mark.parametrize("lines, expected", [
    ("score 1", Analysis(score=1.0)),
    ("proven draw", Analysis(proven="draw")),
    ("proven WIN 3", Analysis(proven="win", proven_plies=3)),
    ("pv a1\nseldepth 9\ninfo whatever it is", Analysis(pv=("a1",))),
    ("  depth 3  ", Analysis(depth=3)),
])
def test_partial_answers_keep_what_they_give_and_skip_unknown_lines(lines, expected):
    assert split_answer("a1\n" + lines) == ("a1", expected)


@pytest.mark.parametrize("lines", [
    "score 1.5", "score -2", "score nan", "score 1e-3", "score ٠", "score", "score 0.1 0.2",
    "proven maybe", "proven win soon", "proven win 3 moves", "depth -1", "depth 2.5",
    "nodes many", "time -1", "time inf", "pv", "score 0.1\nscore 0.2",
])
def test_a_malformed_known_line_voids_the_whole_analysis(lines):
    assert split_answer("a1\nscore 0.5\n" + lines) == ("a1", None)


@pytest.mark.parametrize("answer", ["a1", "a1\n", "a1\nbogus line\n\x00\x01", "resign"])
def test_no_known_line_is_no_analysis(answer):
    assert split_answer(answer) == (answer.split("\n")[0], None)


def test_the_text_form_and_the_row_form_read_back_the_same():
    analysis = Analysis(0.333333, "win", 5, 9, 10, 0.00001, ("a1", "b2"))
    assert read_text(sgf_value(analysis)) == analysis
    assert from_row(to_row(analysis)) == analysis
    assert from_row({"score": "high"}) is None
    assert from_row({"colour": 3}) is None


# --- the referee with real engine processes -------------------------------------------------

def play(commands, setup=Setup("loa", max_moves=6)):
    engines = [EngineChannel(command) for command in commands]
    try:
        return play_game(setup, engines, random.Random(1))
    finally:
        for engine in engines:
            engine.kill()


def test_our_engine_analyses_every_move_and_the_row_and_sgf_keep_it():
    record = play([OURS, OURS])
    assert record.termination is Termination.MOVE_LIMIT and len(record.analyses) == 6
    assert all(entry.depth == 2 and entry.pv[0] == move
               for entry, move in zip(record.analyses, record.moves))
    row = results_row(record, GAME)
    assert [from_row(entry) for entry in row["analysis"]] == record.analyses
    text = sgf_text({**row, "first_player": "black"})
    assert analyses_in(read_sgf(text)) == record.analyses


def test_an_engine_without_the_command_is_asked_for_plain_genmove():
    record = play([BAD, OURS])
    assert record.termination is Termination.MOVE_LIMIT
    assert [entry is None for entry in record.analyses] == [True, False] * 3
    row = results_row(record, GAME)
    assert row["analysis"][0] is None and row["analysis"][1]["depth"] == 2
    assert "analysis" not in results_row(play([BAD, BAD]), GAME)


def test_a_malformed_analysis_is_no_analysis_and_never_a_forfeit():
    script = "score 2;depth x|pv a;score 0.5|bogus;!;proven win"
    record = play([f"{SCORING} --answers '{script}'", BAD], Setup("loa", max_moves=10))
    assert record.termination is Termination.MOVE_LIMIT
    assert record.analyses[0::2] == [None, None, Analysis(score=0.5), None,
                                     Analysis(proven="win")]


@pytest.mark.parametrize("line", ["b1-b3 c1-c3", "zz99", "", "score 0.5"])
def test_the_move_line_is_checked_as_a_genmove_answer(line):
    record = play([f"{SCORING} --answers 'score 0.1;@{line}|score 0.5|pv b1-b3'", BAD])
    assert record.termination is Termination.ILLEGAL_MOVE and record.result == "W+"
    assert len(record.moves) == 2 and record.analyses == [Analysis(score=0.1), None]


class Recording(InProcessChannel):
    """Our engine in this process, less ``genmove_analyze`` when told, noting every command."""

    def __init__(self, analyse: bool) -> None:
        engine = build_engine(Player(depth=1, seed=1))
        if not analyse:
            del engine.handlers["genmove_analyze"]
        super().__init__(engine.respond)
        self.sent: list[str] = []

    def send(self, command: str, deadline: float | None = None) -> str:
        self.sent.append(command)
        return super().send(command, deadline)


def test_each_engine_is_asked_with_the_command_it_announced():
    engines = [Recording(analyse=False), Recording(analyse=True)]
    record = play_game(Setup("loa", max_moves=4), engines, random.Random(1))
    asked = [[command.split()[0] for command in engine.sent if command.startswith("genmove")]
             for engine in engines]
    assert asked == [["genmove", "genmove"], ["genmove_analyze", "genmove_analyze"]]
    assert [entry is None for entry in record.analyses] == [True, False, True, False]
