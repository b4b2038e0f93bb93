"""Playing a planned run: game tasks handed to an executor, each finished game written once.

:func:`play_task` is the one function that plays games. It takes a :class:`Task` of plain,
picklable values (the setup, the engines, one game or both games of a pair) and returns the
finished games as plain data, so it runs alike on a local thread and on a cluster's worker.
Engine processes are kept per thread between tasks (:data:`POOL`); one that crashed, timed out
or broke the protocol is killed and started afresh for its next game.

:class:`Runner` drives a run from the driver thread: it keeps ``executor.slots`` tasks in
flight, writes each finished game (SGF, then its results row; a game already in the results is
never written twice), counts it in the run's :class:`~referee.stats.Tally` (the summary covers
every game of the folder, whatever ``--games`` a resume names), rewrites ``summary.json``
after every game and tells the observers: each at a cost that does not grow with the run.
It stops by itself when an SPRT reaches a verdict (games in flight are dropped, so the results
hold exactly the games the verdict was reached on); :meth:`Runner.interrupt` drains on the
first call (no new game, games in flight finish) and aborts on the second (engines killed now;
those games are played again on resume).
"""

from __future__ import annotations

import datetime
import functools
import random
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engine import COLOUR_NAMES, Termination

from ..plan.schedule import ScheduledGame, units
from ..plan.setup import Setup
from ..play.channel import Channel
from ..play.entrants import DeadChannel, EnginePool, EngineSpec, start_engine
from ..play.game import play_game
from ..records.analysis import to_row
from ..records.folder import ResultsFile, save_game, write_summary
from ..records.results import FinishedGame, GameRecord, GameResult
from ..stats import Tally, summary_of
from ..stats.summary import Summary
from .executor import Executor
from .observer import Run, RunObserver

# After these, the engine at fault is in an unknown state: it is replaced for the next game.
RESTART_AFTER = {Termination.TIMEOUT, Termination.CRASH, Termination.PROTOCOL_ERROR}
# How often (seconds) the driver looks up from waiting, to notice a Ctrl-C.
POLL_SECONDS = 0.2
# The most of each engine's standard error a results row keeps (the SGF keeps none).
STDERR_IN_ROW = 2000

POOL = EnginePool()


@dataclass(frozen=True)
class Task:
    """Games to play in a row with the same engine processes: one game, or a pair's games.

    ``observer`` (only for tasks run in this process) hears every move; ``starter`` replaces
    :func:`~referee.play.entrants.start_engine` (tests start in-process engines).
    """

    setup: Setup
    engines: tuple[EngineSpec, ...]
    games: tuple[ScheduledGame, ...]
    observer: RunObserver | None = None
    starter: Callable[[EngineSpec], Channel] | None = None


@dataclass(frozen=True)
class TaskResult:
    """The games of a task that were played to their end (fewer if the run stopped)."""

    games: tuple[FinishedGame, ...]


def play_task(task: Task) -> TaskResult:
    """Play the task's games one after the other; see the module docstring."""
    starter = task.starter or functools.partial(start_engine,
                                                timeout=task.setup.command_timeout)
    names = [spec.name for spec in task.engines]
    finished = []
    for game in task.games:
        specs = (task.engines[game.black], task.engines[game.white])
        channels = [POOL.get(spec, starter) for spec in specs]
        if POOL.stopping:
            break
        observer = (functools.partial(task.observer.move_played, game.game_no)
                    if task.observer else None)
        controls = [spec.control for spec in specs]
        analysed = (functools.partial(task.observer.move_analysed, game.game_no)
                    if task.observer else None)
        record = play_game(task.setup, channels, random.Random(game.seed), game.opening,
                           observer, controls, analysed)
        if POOL.stopping:  # its engines were killed under it: not a result
            break
        for colour, (spec, channel) in enumerate(zip(specs, channels)):
            faulty = record.at_fault == colour and record.termination in RESTART_AFTER
            if faulty or isinstance(channel, DeadChannel):
                POOL.retire(spec)
        finished.append(FinishedGame(result_row(game, record, names), game_result(game, record),
                                     tuple(record.clocks),
                                     COLOUR_NAMES[record.game.first_player]))
    return TaskResult(tuple(finished))


class Runner:
    """Plays what is left of ``run.planned`` on ``executor``; see the module docstring."""

    def __init__(self, run: Run, executor: Executor, results: ResultsFile,
                 observer: RunObserver | None = None,
                 starter: Callable[[EngineSpec], Channel] | None = None) -> None:
        self.run = run
        self.executor = executor
        self.results = results
        self.observer = observer or RunObserver()
        self.starter = starter
        run.tally = Tally.of((GameResult.from_row(row) for row in results.rows()),
                             len(run.engines))
        self.summary = self._summarize()
        self._interrupts = 0

    def interrupt(self) -> None:
        """First call: drain (no new game); second: abort (stop now). Safe in a signal handler."""
        self._interrupts += 1

    @property
    def interrupts(self) -> int:
        """How many times :meth:`interrupt` was called."""
        return self._interrupts

    @property
    def verdict(self) -> str | None:
        """The SPRT's verdict so far, ``"H0"``, ``"H1"`` or ``None``."""
        sprt = self.summary.headline.sprt
        return sprt.verdict if sprt else None

    def execute(self) -> str | None:
        """Play until done or stopped; ``None`` when every planned game was played, else why
        it stopped: ``"sprt"``, ``"interrupted"`` or ``"aborted"``."""
        POOL.reopen()
        todo = deque(unit for unit in self._units() if unit)
        in_flight: dict[Future, tuple[ScheduledGame, ...]] = {}
        stopped = "sprt" if self.verdict else None
        clean = False
        self.observer.run_started(self.run)
        try:
            while stopped is None:
                if self._interrupts >= 2:
                    stopped = "aborted"
                    break
                while self._interrupts == 0 and todo and len(in_flight) < self.executor.slots:
                    unit = todo.popleft()
                    in_flight[self._submit(unit)] = unit
                if not in_flight:
                    stopped = "interrupted" if self._interrupts else None
                    break
                for future in self.executor.wait(list(in_flight), POLL_SECONDS):
                    del in_flight[future]
                    for game in future.result().games:
                        self._write(game)
                    if self.verdict:
                        stopped = "sprt"
                        break
            clean = stopped in (None, "interrupted")
        finally:
            self.executor.shutdown(cancel=not clean)
            if clean:
                POOL.close_all()
            else:
                POOL.stop()
        self.observer.run_finished(self.summary, stopped)
        return stopped

    def _units(self) -> list[tuple[ScheduledGame, ...]]:
        return [tuple(game for game in unit if game.game_no not in self.results.finished)
                for unit in units(self.run.planned)]

    def _submit(self, unit: tuple[ScheduledGame, ...]) -> Future:
        observer = self.observer if self.executor.in_process else None
        task = Task(self.run.setup, self.run.engines, unit, observer, self.starter)
        future = self.executor.submit(play_task, task)
        for game in unit:
            self.observer.game_started(game)
        return future

    def _write(self, game: FinishedGame) -> None:
        """Write a finished game unless it is already written, and update the summary."""
        row = game.row
        if row["game_no"] in self.results.finished:
            return
        save_game(self.run.out, self.results, row, list(game.clocks), game.first_player)
        self.run.tally.add(game.result)
        self.summary = self._summarize()
        write_summary(self.run.out, self.summary.as_json())
        self.observer.game_finished(game, self.summary)

    def _summarize(self) -> Summary:
        return summary_of(self.run.tally, self.run.names, sprt=self.run.sprt,
                          anchor=self.run.anchor)


def game_result(game: ScheduledGame, record: GameRecord) -> GameResult:
    """The statistics' value of a finished game, from the plan's game and the record."""
    return record.result_of(game.game_no, game.black + 1, game.white + 1, game.pair,
                            game.opening.number if game.opening else None)


def result_row(game: ScheduledGame, record: GameRecord, names: Sequence[str]) -> dict[str, Any]:
    """The ``results.jsonl`` row of a finished game; ``names`` are the engines' display names.
    A game in which an engine analysed its moves has ``analysis``: one entry a ply, ``None``
    or the analysis's known fields (:func:`~referee.records.analysis.to_row`)."""
    lowest = [None if left is None else round(left, 3) for left in record.lowest]
    analysis = ({"analysis": [None if entry is None else to_row(entry)
                              for entry in record.analyses]}
                if any(record.analyses) else {})
    return {
        "game_no": game.game_no, "game": record.game.name,
        "black": names[game.black], "white": names[game.white],
        "black_index": game.black + 1, "white_index": game.white + 1,
        "result": record.result, "termination": record.termination.value,
        "reason": record.reason, "moves": record.moves, "plies": len(record.moves),
        "black_time": record.used[0], "white_time": record.used[1],
        "pair": game.pair, "opening": game.opening.number if game.opening else None,
        "opening_plies": record.opening_plies,
        "black_moves": record.timed_moves[0], "white_moves": record.timed_moves[1],
        "black_min_left": lowest[0], "white_min_left": lowest[1],
        "options": dict(record.game.settings), "start_options": record.start_options,
        "size": list(record.game.size) if record.game.size else None,
        "at_fault": None if record.at_fault is None else COLOUR_NAMES[record.at_fault],
        "seed": game.seed,
        "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "black_stderr": record.stderr[0][-STDERR_IN_ROW:],
        "white_stderr": record.stderr[1][-STDERR_IN_ROW:],
        **analysis,
    }
