"""The exact rule's solver in a process of its own: ``python -m referee.play.solver``.

The referee's game thread hands each position to be searched to a worker process
(:class:`SolverProcess`, one a game in play at a time, kept by the referee between games:
:class:`Pool`) and never waits for it: sending a position, telling the worker to stop and
looking for its verdict cost the game thread a pipe write or a poll. A search in a thread of the
referee would share the interpreter with the game thread; every time the game thread woke for an
engine's answer it had to win the interpreter back from the search, and a search thread at low
CPU priority, preempted while holding it, held up the game thread until it ran again (measured
in ``docs/adjudication.md``). In a process of its own the search has its own interpreter, and it
runs at the lowest CPU priority there is (Linux's ``SCHED_IDLE``, else nice 19), so that it
takes only time no engine and no referee wants.

The worker keeps what it proved through the game (the exhaustive solver's table) and through
its life (the game's own solvers' tables), and searches the positions in the order they came,
each until its budget is spent or it is told to stop. It ends when the referee closes it, and on
its own when the referee's end of its input closes (the referee ended, was killed or
interrupted); it ignores Ctrl-C, which is the referee's to handle.

Messages are pickled tuples on the worker's standard input and output: ``("search", number,
position, plies_left, seconds)``, ``("stop", number)`` (this search and those before it) and
``("game",)`` (a new game: forget the last one's table) in, ``(number, value)`` out, where
``value`` is 1, 0 or -1 (proven, for the side to move), ``None`` (not proven: out of reach, or
stopped).
"""

from __future__ import annotations

import atexit
import math
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Callable

from engine import OutOfBudget, Position

from .exact import TABLE_LIMIT, attempt


# The worker's interpreter switch interval (seconds): how long its search may keep the
# interpreter from the thread that reads the referee's messages, so that a stop takes effect
# at once and the search does not run on into the next engine's thinking (Python's default
# is 5 ms, half a fixed-depth engine's move).
STOP_LATENCY = 0.0002


class SolverProcess:
    """The referee's handle on one worker process: positions go in, verdicts come out, and
    nothing here waits unless asked to (:meth:`verdict` with a timeout)."""

    def __init__(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-m", "referee.play.solver"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._requests = Connection(os.dup(self._process.stdin.fileno()), readable=False)
        self._verdicts = Connection(os.dup(self._process.stdout.fileno()), writable=False)
        self._process.stdin.close()
        self._process.stdout.close()
        self._sent = 0
        self._alive = True

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self._process.pid

    @property
    def alive(self) -> bool:
        """Whether the worker is still there to search."""
        return self._alive and self._process.poll() is None

    def new_game(self) -> None:
        """Stop every search asked for so far and start the worker on another game (the
        exhaustive solver's table is one game's)."""
        self.stop(self._sent)
        self._send(("game",))

    def search(self, position: Position, plies_left: int | None, seconds: float) -> int | None:
        """Ask for ``position`` to be searched for up to ``seconds`` (from when the worker
        takes it up); the search's number, ``None`` when the worker is gone."""
        self._sent += 1
        return self._sent if self._send(("search", self._sent, position, plies_left,
                                         seconds)) else None

    def stop(self, number: int) -> None:
        """Tell the worker to stop search ``number`` (or skip it, not yet begun)."""
        self._send(("stop", number))

    def verdict(self, number: int, timeout: float = 0.0) -> int | None:
        """Search ``number``'s proven value (1, 0, -1 for the side to move), looking for it
        for up to ``timeout`` seconds (0: only what has come already); ``None`` when none came
        (not proven, not yet, or the worker is gone). Verdicts of earlier searches are passed
        over."""
        deadline = time.monotonic() + timeout
        while self._alive:
            try:
                if not self._verdicts.poll(max(0.0, deadline - time.monotonic())):
                    return None
                answered, value = self._verdicts.recv()
            except (EOFError, OSError):
                self._alive = False
                return None
            if answered == number:
                return value
        return None

    def close(self) -> None:
        """End the worker (at once: it holds nothing that needs saving) and collect it."""
        self._alive = False
        for connection in (self._requests, self._verdicts):
            connection.close()
        self._process.kill()
        self._process.wait()

    def _send(self, message: tuple) -> bool:
        if self._alive:
            try:
                self._requests.send(message)
            except OSError:
                self._alive = False
        return self._alive


class Pool:
    """The idle workers of one referee: a game borrows one for its searches (a new one when
    none is idle) and gives it back at its end, so that a run starts a worker only for as many
    games as it plays at once, not one a game (starting one costs the game's thread some
    15 ms, as much as a game between fixed-depth engines on a small board gains). Idle workers
    end with the referee: at its exit, or when their input closes."""

    def __init__(self, start: Callable[[], SolverProcess] = SolverProcess) -> None:
        self._start = start
        self._idle: list[SolverProcess] = []
        self._lock = threading.Lock()

    def borrow(self) -> SolverProcess:
        """A worker for a game's searches, started on a new game."""
        with self._lock:
            while self._idle:
                solver = self._idle.pop()
                if solver.alive:
                    solver.new_game()
                    return solver
        return self._start()

    def give_back(self, solver: SolverProcess) -> None:
        """Take back a worker at the end of its game; its searches stop when it is borrowed
        again, or at once if it is gone."""
        if solver.alive:
            solver.new_game()
            with self._lock:
                self._idle.append(solver)
        else:
            solver.close()

    def close(self) -> None:
        """End every idle worker."""
        with self._lock:
            idle, self._idle = self._idle, []
        for solver in idle:
            solver.close()


# This referee's workers.
POOL = Pool()
atexit.register(POOL.close)


class Searcher:
    """The worker's searches: what it proved is kept from one to the next (the exhaustive
    solver's table, up to :data:`~.exact.TABLE_LIMIT` results, then it starts afresh; the
    game's own solvers keep theirs)."""

    def __init__(self) -> None:
        self.table: dict = {}

    def value(self, position: Position, plies_left: int | None, stop) -> int | None:
        """:func:`~.exact.attempt` with this worker's table: the proven value, ``None`` when
        the position is out of reach; raises :class:`OutOfBudget` when ``stop()`` says so."""
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        return attempt(position, stop, plies_left, self.table)


def serve(requests: Connection, verdicts: Connection) -> None:
    """Search each position that comes on ``requests`` in turn and send each verdict on
    ``verdicts``; return when ``requests`` closes."""
    waiting: queue.Queue = queue.Queue()
    stopped = [0]  # the highest search number the referee told to stop (all, once it is gone)

    def read() -> None:
        try:
            while True:
                message = requests.recv()
                if message[0] == "stop":
                    stopped[0] = max(stopped[0], message[1])
                else:  # a search, or a new game
                    waiting.put(message)
        except (EOFError, OSError):
            stopped[0] = math.inf
            waiting.put(None)

    threading.Thread(target=read, name="solver requests", daemon=True).start()
    searcher = Searcher()
    while (message := waiting.get()) is not None:
        if message[0] == "game":
            searcher.table.clear()
            continue
        _, number, position, plies_left, seconds = message
        deadline = time.monotonic() + seconds
        value = None
        if stopped[0] < number:
            try:
                value = searcher.value(position, plies_left, lambda: stopped[0] >= number
                                       or time.monotonic() >= deadline)
            except OutOfBudget:
                pass
        verdicts.send((number, value))


def lowest_priority() -> None:
    """Give this process the lowest CPU priority there is: ``SCHED_IDLE`` on Linux (it runs
    only when a core would otherwise idle), else nice 19."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        try:
            os.setpriority(os.PRIO_PROCESS, 0, 19)
        except (AttributeError, OSError):
            pass


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.setswitchinterval(STOP_LATENCY)
    lowest_priority()
    requests = Connection(os.dup(0), writable=False)
    verdicts = Connection(os.dup(1), readable=False)
    null = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1):  # nothing but the verdicts reaches the referee's pipe
        os.dup2(null, descriptor)
    try:
        serve(requests, verdicts)
    except (BrokenPipeError, EOFError):  # the referee went away while a verdict was sent
        pass


if __name__ == "__main__":
    main()
