"""A fixed effort (``--depth``, ``--playouts``, the greedy baseline) within the clock: the same
moves as without a clock where the clock is generous, every part of a move (the games' exact
solving included) stopped by the clock's hard limit where it is short, and no game lost on
time through the real referee and engine processes at 0.1 s a move."""

import json
import subprocess
import sys
import threading
from dataclasses import dataclass

import pytest

from engine import BLACK, OutOfBudget, find_game
from engine.cgt import Regions, SumSolver
from engine.games import clobber, domineering
from engine.search import AlphaBeta, Budget, Mcts, Player, TimeKeeper
from engine.search.baselines import Greedy
from engine.search.budget import LATENCY_MARGIN

# Clobber 6x5 after these plies: depth 2 spent 2.5 s here, nearly all of it in the exact
# solving of its evaluations (each capped in positions searched, not in time), and lost on time
# at 0.1 s a move.
SLOW_FOR_DEPTH_2 = ["b4xa4", "b5xc5", "c3xb3", "a2xb2", "a1xb1", "b2xb1", "c1xd1"]
# Clobber 6x5 after these plies: each of greedy's evaluations solves its endgame.
SOLVED_BY_GREEDY = ["e1xf1", "c4xd4", "a1xa2", "f3xf2", "c3xc2", "a4xa5", "e3xe2", "f5xe5",
                    "f4xe4", "d1xc1", "f1xf2", "e5xe4", "b2xb1"]


def clobber_after(moves):
    return find_game("clobber")({}, (6, 5)).position_after(moves)


def slow_position():
    return clobber_after(SLOW_FOR_DEPTH_2)


@dataclass
class DueAfterLooks(Budget):
    """A budget whose hard limit is due once a search has looked at it ``looks`` times: a
    clock that strikes at the same point of the work on any machine."""

    looks: int = 1

    def past_hard(self) -> bool:
        self.looks -= 1
        return self.looks < 0


def fresh_tables(monkeypatch, module):
    """The solver and region tables of ``module`` (Clobber's or Domineering's) empty, as in a
    new engine process, since other tests may have solved the same endgames already; the
    solver's positions searched are counted in its ``nodes``."""
    solver = SumSolver(module.SOLVER.rules, module.REGION_LIMIT)
    monkeypatch.setattr(module, "SOLVER", solver)
    monkeypatch.setattr(module, "REGIONS", Regions(solver, module.DECOMPOSE_LIMIT,
                                                    module.ROOT_SOLVE_LIMIT, module.EVAL_NODES))
    return solver


@pytest.mark.parametrize("searcher, moves", [(AlphaBeta, SLOW_FOR_DEPTH_2),
                                             (Greedy, SOLVED_BY_GREEDY)])
def test_a_due_hard_limit_stops_the_solving_inside_evaluations(monkeypatch, searcher, moves):
    solver = fresh_tables(monkeypatch, clobber)
    position = clobber_after(moves)
    move = searcher(1).choose(position, DueAfterLooks(depth=2))
    assert move in position.legal_moves()
    # A position or two searched, where a limit looked at between evaluations only let
    # hundreds through (alpha-beta: 63 evaluations of up to 400 each, some 16,000 at depth 2
    # unbounded; greedy: every evaluation, about 350).
    assert solver.nodes < 10


def test_a_due_hard_limit_cuts_fixed_playouts():
    position = slow_position()
    search = Mcts(seed=1)
    assert search.choose(position, Budget(playouts=500, hard=0.0)) in position.legal_moves()
    assert search.playouts == 0


@pytest.mark.parametrize("module, size", [(clobber, (3, 3)), (domineering, (4, 4))])
def test_a_game_bounded_by_a_stop_stops_its_solver(monkeypatch, module, size):
    fresh_tables(monkeypatch, module)
    position = find_game(module.__name__.rpartition(".")[2])({}, size).initial_position()
    with position.bounded_by(lambda: True):
        with pytest.raises(OutOfBudget):
            position.solve(lambda: False)
    assert position.solve() in (True, False)  # outside the block the stop is gone


def test_an_outer_stop_overrides_a_capped_solve_giving_up():
    rectangle = [(x, y, 0) for x in range(6) for y in range(4)]
    solver = SumSolver(domineering.DOMINEERING, region_limit=6)
    shape = domineering.DOMINEERING.normal(rectangle)
    with solver.stopping(lambda: True):
        with pytest.raises(OutOfBudget):  # the search's limit, not the cap's None
            solver.wins_within([shape], BLACK, 500)
    assert solver.wins_within([shape], BLACK, 64) is None  # the cap alone: it gives up


def test_each_thread_stops_the_solver_by_its_own_stop():
    # The referee proves positions of several games at once, in threads, on one solver: a
    # game's due clock must not stop another's solving, nor stay behind when it leaves first.
    solver = SumSolver(domineering.DOMINEERING, region_limit=6)
    shape = domineering.DOMINEERING.normal([(x, y, 0) for x in range(6) for y in range(4)])
    entered, leave = threading.Event(), threading.Event()

    def solve_with_a_due_clock():
        with solver.stopping(lambda: True):
            entered.set()
            leave.wait(30)
    other = threading.Thread(target=solve_with_a_due_clock)
    other.start()
    try:
        assert entered.wait(30)
        with solver.stopping(lambda: False):
            assert solver.wins_within([shape], BLACK, 64) is None  # its own cap, no raise
            leave.set()
            other.join(30)
    finally:
        leave.set()
        other.join(30)
    assert solver.stop is None
    assert solver.wins_within([shape], BLACK, 64) is None


def test_a_fixed_effort_takes_the_clocks_hard_limit_and_no_soft_one():
    position = find_game("clobber")({}, (6, 5)).initial_position()
    player = Player(depth=2)
    assert player.budget(position).hard is None  # no clock: the effort alone
    player.clock.set_controls(0, 0.1, 1)  # the referee's --move-time 0.1
    player.clock.set_left(position.to_move, 0.1, 1)
    budget = player.budget(position)
    assert budget.soft is None and budget.hard == player.clock.limit(position.to_move)


@pytest.mark.parametrize("main, increment, byo_yomi, stones, left, stones_left", [
    (0, 0, 0.1, 1, 0.1, 1), (0, 0, 2, 1, 2, 1), (60, 0, 30, 10, 12, 4), (60, 0, 0, 0, 60, 0),
    (60, 0, 0, 0, 0.4, 0), (10, 0.5, 0, 0, 3, 0), (300, 0, 0, 0, 299, 0)])
def test_the_fixed_effort_limit_is_the_ceiling_of_every_allowance(main, increment, byo_yomi,
                                                                   stones, left, stones_left):
    keeper = TimeKeeper()
    keeper.set_controls(main, byo_yomi, stones, increment=increment or None)
    keeper.set_left(0, left, stones_left)
    limit = keeper.limit(0)
    assert all(keeper.allowance(0, moves)[1] <= limit for moves in (1, 5, 30, 200))
    assert limit <= max(0.8 * left - LATENCY_MARGIN, 0.005)


def test_an_unlimited_clock_sets_no_limit():
    keeper = TimeKeeper()
    assert keeper.limit(0) is None
    keeper.set_controls(0, 10, 0)  # byo-yomi without stones: no limit, in GTP
    assert keeper.limit(0) is None


@pytest.mark.parametrize("effort", [{"depth": 2}, {"playouts": 40},
                                    {"algorithm": "greedy", "depth": 1}])
def test_a_generous_clock_changes_no_move_of_a_fixed_effort(monkeypatch, effort):
    def game(clock):
        fresh_tables(monkeypatch, clobber)  # what one game solved would help the other
        position = find_game("clobber")({}, (6, 5)).initial_position()
        players = [Player(seed=seed, **effort) for seed in (5, 6)]
        for player in players:
            if clock:
                player.clock.set_controls(600, 0, 0)
        while position.outcome is None and position.ply < 12:
            position.play(players[position.to_move].choose(position))
        return position.moves
    assert game(clock=True) == game(clock=False)


@pytest.mark.parametrize("options, message", [
    ({"algorithm": "mcts", "depth": 3}, "the mcts search counts its effort in playouts, not depth"),
    ({"algorithm": "uct", "depth": 3}, "the uct search counts its effort in playouts, not depth"),
    ({"algorithm": "alphabeta", "playouts": 50},
     "the alphabeta search counts its effort in depth, not playouts"),
    ({"depth": 2, "playouts": 50}, "a depth or a number of playouts, not both")])
def test_an_effort_the_search_would_not_count_is_refused(options, message):
    # Given one, MCTS ran until it proved a result, alpha-beta deepened to 64 plies.
    with pytest.raises(ValueError, match=message):
        Player(**options)


def test_the_engine_refuses_such_an_effort_in_one_line():
    run = subprocess.run([sys.executable, "-m", "protocol.cli", "--algorithm", "mcts",
                          "--depth", "3"], capture_output=True, text=True, timeout=30)
    assert run.returncode == 2
    assert run.stderr.splitlines() == ["olympiad-engine: the mcts search counts its effort in "
                                       "playouts, not depth (see olympiad-engine --help)"]


# The engines the referee plays at 0.1 s a move: a fixed depth, fixed playouts, the greedy
# baseline; each pairing twice, colours swapped.
FIXED_EFFORTS = ["--depth 2 --seed 1", "--playouts 300 --seed 1", "--algorithm greedy --seed 1"]


@pytest.mark.parametrize("name, size", [("clobber", "6x5"), ("domineering", "6x6")])
def test_fixed_efforts_never_lose_on_time_at_a_tenth_of_a_second_a_move(tmp_path, name, size):
    engine = f"{sys.executable} -m protocol.cli"
    command = [sys.executable, "-m", "referee", "match", "--game", name, "--boardsize", size,
               "--games", "2", "--move-time", "0.1", "--seed", "1", "--out", str(tmp_path / "out")]
    for effort in FIXED_EFFORTS:
        command += ["--engine", f"{engine} {effort}"]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").open()]
    assert len(rows) == 6
    for row in rows:
        assert row["termination"] == "normal", (row["black"], row["white"], row["reason"])
