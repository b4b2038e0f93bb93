"""The exact rule's solver process (``referee/play/solver.py``): it proves what the solver
proves in the referee's own process, the game never waits for it, a search stops when told or
when its game ends, and the process never outlives its referee."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from engine import find_game
from referee.plan.adjudication import Adjudication
from referee.plan.setup import Setup
from referee.play import adjudication
from referee.play.exact import prove
from referee.play.game import play_game
from referee.play.solver import Pool, SolverProcess

from .test_adjudication import depth_one_engine

# A bound on waits for the solver's process (a verdict, an exit), never reached when it works.
PATIENCE = 60


def ended(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie no one has collected yet)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_ended(pid: int) -> bool:
    """Whether process ``pid`` ends within :data:`PATIENCE` seconds."""
    deadline = time.monotonic() + PATIENCE
    while not ended(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return ended(pid)


def endgame(name: str, size: tuple[int, int], plies: int, seed: int):
    """A position of ``name`` on ``size`` after ``plies`` random moves (``seed``)."""
    rng = random.Random(seed)
    position = find_game(name)(size=size).initial_position()
    for _ in range(plies):
        if position.outcome is None:
            position.play(rng.choice(position.legal_moves()))
    return position


@pytest.fixture
def solver():
    process = SolverProcess()
    yield process
    process.close()
    assert ended(process.pid)


@pytest.mark.parametrize("name, size, plies", [
    ("clobber", (5, 4), 5), ("domineering", (6, 4), 6), ("breakthrough", (4, 5), 12)])
def test_the_process_proves_what_the_solver_proves_here(solver, name, size, plies):
    for seed in range(3):
        position = endgame(name, size, plies, seed)
        if position.outcome is not None:
            continue
        number = solver.search(position, None, PATIENCE)
        assert solver.verdict(number, PATIENCE) == prove(position, PATIENCE)


def test_a_stopped_search_gives_way_to_the_next(solver):
    # Breakthrough 8x8 from the start is far beyond the solver: with 60 s it would search for
    # 60 s. Stopped, the worker takes up the next position (a draw by the move limit on 5x5)
    # and proves it; the stopped search's verdict is nothing.
    first = solver.search(find_game("breakthrough")().initial_position(), None, PATIENCE)
    solver.stop(first)
    second = solver.search(find_game("breakthrough")(size=(5, 5)).initial_position(), 3,
                           PATIENCE)
    assert solver.verdict(second, PATIENCE) == 0
    assert solver.verdict(first) is None


def test_the_game_never_waits_for_the_solver_and_stops_it(monkeypatch):
    # The solver's process is frozen (SIGSTOP) from its start: the game is played to its move
    # limit all the same, the game thread only ever looked for verdicts without waiting, and
    # the process is back in the referee's pool when the game is over.
    started, timeouts = [], []

    class Frozen(SolverProcess):
        def __init__(self) -> None:
            super().__init__()
            os.kill(self.pid, signal.SIGSTOP)
            started.append(self.pid)

        def verdict(self, number: int, timeout: float = 0.0):
            timeouts.append(timeout)
            return super().verdict(number, timeout)
    pool = Pool(Frozen)
    monkeypatch.setattr(adjudication, "POOL", pool)
    setup = Setup("loa", max_moves=5,
                  adjudication=Adjudication(exact="all", exact_time=PATIENCE))
    try:
        record = play_game(setup, [depth_one_engine(), depth_one_engine()], random.Random(1))
        assert (record.termination.value, len(record.moves)) == ("move_limit", 5)
        assert len(started) == 1 and timeouts and set(timeouts) == {0.0}
    finally:
        pool.close()
    assert ended(started[0])


def test_a_worker_given_back_has_stopped_and_serves_the_next_game():
    # A game's worker searching Breakthrough 8x8 for 60 s is given back at the game's end;
    # the next game borrows the same process, whose first verdict (a small draw) comes
    # before that minute: the old search was stopped. Closing the pool ends the process.
    pool = Pool()
    solver = pool.borrow()
    try:
        solver.search(find_game("breakthrough")().initial_position(), None, PATIENCE)
        pool.give_back(solver)
        assert pool.borrow() is solver
        number = solver.search(find_game("breakthrough")(size=(5, 5)).initial_position(), 3,
                               PATIENCE)
        assert solver.verdict(number, PATIENCE / 2) == 0
        pool.give_back(solver)
    finally:
        pool.close()
    assert ended(solver.pid)


REFEREE = """
from engine import find_game
from referee.play.solver import Pool, SolverProcess
solver = SolverProcess()
solver.search(find_game("breakthrough")().initial_position(), None, 600)
print(solver.pid, flush=True)
input()
"""


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_the_process_ends_with_its_referee_killed_or_interrupted(how):
    # A referee (a process with a solver searching for 10 minutes) killed, or interrupted
    # (Ctrl-C: the signal goes to its whole process group, the worker included, which leaves
    # it to the referee): the worker sees its input close, stops its search and ends.
    referee = subprocess.Popen([sys.executable, "-c", REFEREE], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               start_new_session=True, text=True)
    try:
        worker = int(referee.stdout.readline())
        assert not ended(worker)
        if how == signal.SIGINT:
            os.killpg(referee.pid, how)
        else:
            referee.send_signal(how)
        referee.wait(PATIENCE)
        assert wait_ended(worker)
    finally:
        referee.kill()
        referee.wait()
        referee.stdin.close()
        referee.stdout.close()
