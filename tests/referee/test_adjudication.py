"""Adjudication (docs/adjudication.md): each rule ends the game at exactly the documented ply,
not one earlier, with real engine processes; the exact rule agrees with playing the position out
by the solver."""

from __future__ import annotations

import json
import random
import shlex
import sys
from pathlib import Path

import pytest

from engine import OutOfBudget, Position, Termination, find_game
from engine.games import clobber, domineering
from engine.search import Player
from protocol.cli import build_engine
from referee.commands import cli
from referee.plan.adjudication import Adjudication, AdjudicationError
from referee.plan.setup import Setup
from referee.play import adjudication
from referee.play.adjudication import Adjudicator
from referee.play.exact import QUICK_ANSWER, prove
from referee.play.channel import EngineChannel, InProcessChannel
from referee.play.game import play_game
from referee.play.solver import Searcher
from referee.run.settings import RunSettings

from ..results import rows_written

PYTHON = shlex.quote(sys.executable)
SCORING = f"{PYTHON} {shlex.quote(str(Path(__file__).with_name('scoring_engine.py')))}"


def scoring(scores) -> str:
    """An engine process whose k-th move carries ``scores[k]`` (``None``: no analysis)."""
    answers = ";".join("!" if score is None else f"score {score}" for score in scores)
    return f"{SCORING} --answers '{answers}'"


def play(black_scores, white_scores, adjudication, game="loa", max_moves=40, size=None):
    engines = [EngineChannel(scoring(black_scores)), EngineChannel(scoring(white_scores))]
    setup = Setup(game, size=size, max_moves=max_moves, adjudication=adjudication)
    try:
        return play_game(setup, engines, random.Random(1))
    finally:
        for engine in engines:
            engine.kill()


RESIGN = Adjudication(resign_plies=3, resign_score=0.9)


def test_resign_after_each_sides_last_three_moves_beyond_the_threshold():
    # Black's moves are plies 1, 3, 5, 7; white's 2, 4, 6. At ply 6 black's last three are
    # plies 1, 3, 5, and ply 1 was level: the rule holds first after ply 7.
    record = play([0, -0.95, -0.9, -1], [0.95] * 20, RESIGN)
    assert record.termination is Termination.ADJUDICATED_RESIGN and record.result == "W+"
    assert len(record.moves) == 7 and record.at_fault is None
    assert record.reason == ("black lost by adjudication: both engines' scores beyond 0.9 for "
                             "3 moves each, to ply 7")


def test_resign_waits_for_the_winners_scores_too_unless_one_sided():
    black, white = [0, -0.95, -0.95, -0.95, -0.95, -0.95], [0.95, 0.5, 0.95, 0.95, 0.95]
    # White's ply 4 was 0.5: its last three are beyond 0.9 first at ply 10 (plies 6, 8, 10).
    record = play(black, white, RESIGN)
    assert (record.termination, len(record.moves)) == (Termination.ADJUDICATED_RESIGN, 10)
    one_sided = Adjudication(resign_plies=3, resign_score=0.9, resign_sides="one")
    record = play(black, white, one_sided)
    assert (record.termination, len(record.moves)) == (Termination.ADJUDICATED_RESIGN, 7)


def test_draw_after_four_plies_within_the_band_all_after_ply_ten():
    level = Adjudication(draw_plies=4, draw_score=0.05, draw_after=10)
    record = play([0.0] * 20, [0.05] * 20, level, "clobber")
    assert record.termination is Termination.ADJUDICATED_DRAW and record.result == "0"
    assert len(record.moves) == 14  # plies 11-14: the first four after ply 10
    # Ply 12 (white's sixth move) out of the band: plies 13-16 are the first four after it.
    record = play([0.0] * 20, [0.05] * 5 + [0.2] + [0.0] * 20, level, "clobber")
    assert (record.termination, len(record.moves)) == (Termination.ADJUDICATED_DRAW, 16)


def test_a_move_without_a_score_breaks_every_run():
    level = Adjudication(draw_plies=4, draw_score=0.05)
    # Black's second move (ply 3) has no score: plies 4-7 are the first four in a row.
    record = play([0.0, None] + [0.0] * 20, [0.0] * 20, level, "clobber")
    assert (record.termination, len(record.moves)) == (Termination.ADJUDICATED_DRAW, 7)


def test_without_scores_nothing_is_adjudicated():
    rules = Adjudication(draw_plies=2, resign_plies=1, draw_score=0.5)
    record = play([], [], rules, max_moves=12)
    assert record.termination is Termination.MOVE_LIMIT


def test_exact_proves_the_first_position_small_enough_for_the_solver():
    # Domineering 23x2: 46 empty squares, beyond the solver's 44 at the start (ply 0 is not
    # proven, at once); after black's first domino, 44. The engines answer at once, so the
    # referee waits for its solver (exact_wait) to prove it before ply 2 is played.
    exact = Adjudication(exact="all", exact_time=60, exact_wait=True)
    record = play([], [], exact, game="domineering", size=(23, 2))
    assert record.termination is Termination.ADJUDICATED_EXACT and len(record.moves) == 1
    position = find_game("domineering")(size=(23, 2)).initial_position()
    position.play(position.parse_move(record.moves[0]))
    assert record.result == ("B+" if position.solve() == (position.to_move == 0) else "W+")
    assert record.reason.endswith("after ply 1")


def test_a_proven_draw_ends_the_game_only_in_mode_all():
    # Breakthrough on 5x5 with a limit of 3 plies: nobody can reach the far rank in time, so
    # the position at ply 0 is a proven draw (by the move limit); its proof takes about 2,000
    # positions, more than a glance, and the engines answer at once: the referee waits for it.
    record = play([], [], Adjudication(exact="all", exact_wait=True), "breakthrough", 3, (5, 5))
    assert (record.termination, record.result, len(record.moves)) == (
        Termination.ADJUDICATED_EXACT, "0", 0)
    record = play([], [], Adjudication(exact="decisive", exact_wait=True), "breakthrough", 3,
                  (5, 5))
    assert record.termination is Termination.MOVE_LIMIT


def solver_playout(position, solve):
    """The winner when both sides play a move the solver proves winning whenever one exists
    (``solve(position)`` is 1, 0, -1 for the side to move)."""
    while position.outcome is None:
        moves = position.legal_moves()
        chosen = moves[0]
        for move in moves:
            position.play(move)
            value = solve(position)
            position.undo()
            if value == -1:
                chosen = move
                break
        position.play(chosen)
    return position.outcome.winner


@pytest.mark.parametrize("name, size, plies", [
    ("clobber", (4, 4), 2), ("clobber", (5, 4), 5), ("domineering", (5, 5), 3),
    ("domineering", (6, 4), 6), ("breakthrough", (4, 5), 12), ("breakthrough", (5, 5), 18)])
def test_exact_adjudication_agrees_with_playing_the_endgame_out(name, size, plies):
    rng = random.Random(plies)
    tried = 0
    for _ in range(3):
        position = find_game(name)(size=size).initial_position()
        for _ in range(plies):
            if position.outcome is None:
                position.play(rng.choice(position.legal_moves()))
        if position.outcome is not None:
            continue
        value = prove(position, 30)
        assert value in (1, -1)  # none of these games has a draw
        mover = position.to_move
        assert solver_playout(position.copy(), lambda state: prove(state, 30)) == (
            mover if value == 1 else 1 - mover)
        tried += 1
    assert tried


# --- the exact rule's solver works while the engine thinks ------------------------------------

def depth_one_engine(on_genmove=lambda: None) -> InProcessChannel:
    """Our engine at depth 1 in this process; ``on_genmove()`` runs as each move is asked."""
    respond = build_engine(Player(depth=1, seed=1)).respond

    def answer(line: str) -> str | None:
        if line.startswith("genmove"):
            on_genmove()
        return respond(line)
    return InProcessChannel(answer)


def recording_proofs(monkeypatch) -> list:
    """Every :class:`adjudication.Proof` the referee starts from now on, in order."""
    proofs = []

    class Recorded(adjudication.Proof):
        def __init__(self, *arguments) -> None:
            super().__init__(*arguments)
            proofs.append(self)
    monkeypatch.setattr(adjudication, "Proof", Recorded)
    return proofs


def test_a_proof_found_while_the_engine_thinks_ends_the_game_after_its_answer(monkeypatch):
    # Breakthrough 5x5 with a limit of 5 plies: a proven draw at ply 0, but only after some
    # 100,000 positions, far more than the glance before the move is asked. The engine answers
    # only once the solver's process has sent its verdict.
    proofs = recording_proofs(monkeypatch)
    genmoves = []

    def think():
        genmoves.append(proofs[-1].value)
        proofs[-1].wait(60)
    engines = [depth_one_engine(think), depth_one_engine(think)]
    setup = Setup("breakthrough", size=(5, 5), max_moves=5,
                  adjudication=Adjudication(exact="all", exact_time=60))
    record = play_game(setup, engines, random.Random(1))
    assert (record.termination, record.result, record.moves) == (
        Termination.ADJUDICATED_EXACT, "0", [])
    assert record.reason == "the referee's solver proved a draw after ply 0"
    # One move asked, its position searched and not yet proven when it was asked.
    assert genmoves == [None] and len(proofs) == 1


def test_the_search_stops_when_the_answer_comes(monkeypatch):
    # Lines of Action with a limit of 5 plies is far beyond the solver (every line to the limit:
    # some 60 million positions): each search is stopped by the engine's answer (the budget,
    # 60 s a position, is never waited for) and the game goes on.
    proofs = recording_proofs(monkeypatch)
    engines = [depth_one_engine(), depth_one_engine()]
    setup = Setup("loa", max_moves=5,
                  adjudication=Adjudication(exact="decisive", exact_time=60))
    record = play_game(setup, engines, random.Random(1))
    assert (record.termination, len(record.moves)) == (Termination.MOVE_LIMIT, 5)
    assert proofs and all(proof.value is None for proof in proofs)


@pytest.mark.parametrize("name, solver", [("clobber", clobber.SOLVER),
                                          ("domineering", domineering.SOLVER)])
def test_a_position_out_of_the_solvers_reach_costs_no_search(name, solver):
    # The start of Clobber 10x10 (100 stones) and Domineering 8x8 (64 empty squares): the
    # game's solver says at once that they are too big; no search (nor process) is started.
    judge = Adjudicator(Adjudication(exact="all", exact_time=60))
    position = find_game(name)().initial_position()
    nodes = solver.nodes
    assert judge.judge(position, 0, []) is None and judge.start_proof() is None
    assert solver.nodes == nodes and judge.solver is None


def test_a_race_that_cannot_end_within_the_exhaustive_reach_costs_no_search(monkeypatch):
    # The start of Breakthrough 8x8 cannot end within 11 plies, beyond the exhaustive search's
    # reach: no search is started; the start of 5x5 can end in 5, and is searched.
    monkeypatch.setattr(adjudication, "Proof", lambda adjudicator, position, ply: ply)
    for size, searched in (((8, 8), False), ((5, 5), True)):
        judge = Adjudicator(Adjudication(exact="all", exact_time=60), move_limit=1000)
        position = find_game("breakthrough")(size=size).initial_position()
        assert judge.judge(position, 0, []) is None
        assert (judge.start_proof() is not None) == searched
        judge.close()


def test_what_the_solver_proved_is_kept_for_the_next_plies():
    # Breakthrough 5x5 with a limit of 5 plies: proving the start (a draw) proves every
    # position after one move too; the same worker's searcher knows them at once, a fresh one
    # needs a search.
    searcher = Searcher()
    position = find_game("breakthrough")(size=(5, 5)).initial_position()
    assert searcher.value(position, 5, lambda: False) == 0
    for move in position.legal_moves():
        position.play(move)
        assert searcher.value(position, 4, lambda: True) is not None
        with pytest.raises(OutOfBudget):
            Searcher().value(position, 4, lambda: True)
        position.undo()


def test_settings_that_cannot_be_used_are_refused():
    for settings in ({"exact": "sometimes"}, {"draw_plies": 1}, {"resign_score": 0},
                     {"resign_sides": "neither"}, {"exact_time": 0}):
        with pytest.raises(AdjudicationError):
            Adjudication(**settings)


# --- the command line and the config file ---------------------------------------------------

def run_cli(*arguments: str) -> int:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["match", *arguments])
    return exit_info.value.code


def test_the_rules_come_from_the_config_file_and_are_counted_in_the_summary(tmp_path, capsys):
    config = tmp_path / "run.toml"
    engine = f"{PYTHON} -m protocol.cli --depth 1"
    config.write_text(f'''
game = "clobber"
boardsize = "3"
games = 2
adjudicate-exact = "decisive"
adjudicate-exact-time = 5
adjudicate-move-limit = 30
engine = [{json.dumps(engine)}, {json.dumps(engine)}]
''')
    out = tmp_path / "out"
    assert run_cli("--config", str(config), "--out", str(out)) == 0
    rows = rows_written(out)
    assert [(row["termination"], row["plies"], row["at_fault"]) for row in rows] == [
        ("adjudicated_exact", 0, None)] * 2
    summary = json.loads((out / "summary.json").read_text())
    assert summary["terminations"] == {"adjudicated_exact": 2}
    saved = json.loads((out / "match.json").read_text())
    assert saved["max_moves"] == 30 and saved["adjudication"]["exact"] == "decisive"
    assert "adjudicated_exact" in capsys.readouterr().out
    assert run_cli("--config", str(config), "--out", str(out),
                   "--adjudicate-exact", "all") == 2
    assert "adjudication exact \"decisive\" (now \"all\")" in capsys.readouterr().err


@pytest.mark.parametrize("arguments, message", [
    (["--adjudicate-draw-plies", "1"], "at least 2 plies"),
    (["--adjudicate-exact", "maybe"], "--adjudicate-exact"),
    (["--adjudicate-resign-score", "1.5"], "--adjudicate-resign-score"),
])
def test_unusable_rules_are_a_usage_error(arguments, message, tmp_path, capsys):
    engine = f"{PYTHON} -m protocol.cli"
    assert run_cli("--game", "loa", "--engine", engine, "--engine", engine, *arguments,
                   "--out", str(tmp_path / "out")) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and message in err
    assert not (tmp_path / "out").exists()


def test_saved_settings_name_exact_wait_only_when_set():
    """A folder written before ``exact_wait`` existed holds settings without it: a resume
    with the default must find the same settings, so the default is not written."""
    def saved(rules: Adjudication) -> dict:
        return RunSettings(Setup("loa", adjudication=rules), ()).as_json()["adjudication"]

    assert "exact_wait" not in saved(Adjudication(exact="all"))
    assert saved(Adjudication(exact="all", exact_wait=True))["exact_wait"] is True
    assert RunSettings.from_json({"adjudication": saved(Adjudication(exact="all"))}) \
        .setup.adjudication == Adjudication(exact="all")


def test_fruitless_searches_are_spaced_out_and_not_when_the_referee_waits(monkeypatch):
    """Each search that proves nothing before the answer doubles the plies until the next
    (1, 2, 4, 8, then every 8th ply); the glance still looks at every ply. With
    ``exact_wait`` every position in reach is searched, as before."""
    monkeypatch.setattr(adjudication, "Proof", lambda adjudicator, position, ply: ply)
    searched = []
    for wait in (False, True):
        adjudicator = Adjudicator(Adjudication(exact="all", exact_wait=wait))
        plies = []
        for ply in range(40):
            adjudicator._pending = (None, ply)  # in reach, not proven at a glance
            if adjudicator.start_proof() is not None:
                plies.append(ply)
                adjudicator.fruitless(ply)
        searched.append(plies)
    assert searched[0] == [0, 1, 3, 7, 15, 23, 31, 39]
    assert searched[1] == list(range(40))


@pytest.mark.parametrize("name, size, searched_when_quick", [
    ("breakthrough", (5, 5), False), ("clobber", (5, 4), True)])
def test_an_engine_that_answers_quickly_gets_no_exhaustive_search(
        name, size, searched_when_quick, monkeypatch):
    """A position in reach, not proven at a glance, is searched while the engine thinks;
    after an engine answered within QUICK_ANSWER the exhaustive search is not started (a
    game's own solver still is), unless the referee waits for its solver anyway."""
    monkeypatch.setattr(adjudication, "Proof", lambda adjudicator, position, ply: ply)
    position = find_game(name)(size=size).initial_position()
    quick = QUICK_ANSWER / 2
    for wait in (False, True):
        adjudicator = Adjudicator(Adjudication(exact="all", exact_wait=wait), move_limit=40)
        starts = []
        for last_answer in (None, QUICK_ANSWER, quick):
            assert adjudicator.judge(position, 0, []) is None
            starts.append(adjudicator.start_proof(last_answer) is not None)
        assert starts == [True, True, searched_when_quick or wait]


def test_a_short_win_is_proven_however_deep_the_other_lines_go():
    """The exhaustive search deepens a ply at a time: a win one move away in the middle of a
    game of Lines of Action (where a line may go on for hundreds of plies) is proven at once,
    not after the first line to the depth limit."""
    rng, found = random.Random(3), 0
    for _ in range(20):  # games, until three such positions were met
        position = find_game("loa")().initial_position()
        while position.outcome is None and found < 3:
            if any(wins_at_once(position, move) for move in position.legal_moves()):
                assert prove(position, 5.0) == 1
                found += 1
            position.play(rng.choice(position.legal_moves()))
    assert found == 3


def wins_at_once(position: Position, move) -> bool:
    position.play(move)
    try:
        return position.outcome is not None and position.outcome.winner != position.to_move
    finally:
        position.undo()

