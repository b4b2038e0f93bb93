"""Playing a run: games handed to an executor as their entrants are ready, each finished game
written once.

:func:`play_task` is the one function that plays games. It takes a :class:`Task` (the setup,
the entrants' names and time controls, one game or both games of a pair, and the entrants'
seats: :mod:`referee.play.seats`) and returns the finished games as plain data, so that with
local seats it runs alike on a local thread and on a cluster's worker. A seat gives the channel
each game is played on and replaces an engine that misbehaved before its next game.

:class:`Runner` drives a run from the driver thread, and is the only runner: a match's engine
processes, an event's remote participants and a person at the play page are all seats. What
differs is given to it as policy:

* **which games**: the run's plan, in order; or a :class:`~referee.plan.ladder.Ladder`, which
  pairs entrants as they become free, for as long as the run goes or up to its limit;
* **when a game starts**: when its entrants are ready (:meth:`Seating.ready`; a remote
  participant is ready when connected), their last finished game is written, and, for a
  seating whose entrants play one game at a time, idle; at most ``executor.slots`` at once;
* **no-show**: with ``no_show`` seconds, the games that an entrant away longer than that would
  play next are recorded as lost by ``no_show`` (both away: a draw, no one at fault) as they
  come up, until it is back.

* **where finished games go**: the run's :class:`~.records.Records` (a run folder, or the
  ladder service's database).

Finished games are kept (a game already kept is never written twice) and told to the observers
by a recorder thread, one at a time in the order they finished, so that writing never holds up
starting games. A failed write stops the run. It stops by itself when an
SPRT reaches a verdict (games finished after the one that reached it are not written, so the
results hold exactly the games the verdict was reached on); :meth:`Runner.interrupt` drains on
the first call (no new game, games in flight finish) and aborts on the second (engines stopped
now; those games are played again on resume).
"""

from __future__ import annotations

import functools
import queue
import random
import threading
import time
from collections import Counter, deque
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Callable, Sequence

from engine import Outcome, Termination

from ..plan.ladder import Ladder
from ..plan.schedule import ScheduledGame, units
from ..plan.setup import Setup
from ..play.entrants import EngineSpec
from ..play.game import play_game
from ..play.seats import RESTART_AFTER, LocalSeating, Seat, Seating
from ..records.results import FinishedGame, GameRecord, Pairing
from .executor import Executor
from .observer import Run, RunObserver
from .records import Records

# How often (seconds) the driver looks up from waiting, to notice a Ctrl-C or a seat.
POLL_SECONDS = 0.2
# How often it looks up while a finished game is being written, so that the game's entrants
# start their next game as soon as it is written (the recorder wakes a driver with nothing in
# flight at once; one waiting on games in flight looks this often).
WRITE_POLL_SECONDS = 0.005


@dataclass(frozen=True)
class Task:
    """Games to play in a row on the same seats: one game, or a pair's games. ``engines``
    gives each entrant's name and time control, ``seats`` its seat (by entrant index);
    ``observer`` (only for tasks run in this process) hears every move."""

    setup: Setup
    engines: tuple[EngineSpec, ...]
    games: tuple[ScheduledGame, ...]
    seats: tuple[Seat, ...]
    observer: RunObserver | None = None


@dataclass(frozen=True)
class TaskResult:
    """The games of a task that were played to their end (fewer if the run stopped)."""

    games: tuple[FinishedGame, ...]


def play_task(task: Task) -> TaskResult:
    """Play the task's games one after the other; see the module docstring."""
    names = [spec.name for spec in task.engines]
    finished = []
    for game in task.games:
        seats = (task.seats[game.black], task.seats[game.white])
        channels = [seat.take() for seat in seats]
        if any(seat.stopping for seat in seats):
            break
        observer = (functools.partial(task.observer.move_played, game.game_no)
                    if task.observer else None)
        analysed = (functools.partial(task.observer.move_analysed, game.game_no)
                    if task.observer else None)
        controls = [task.engines[game.black].control, task.engines[game.white].control]
        record = play_game(task.setup, channels, random.Random(game.seed), game.opening,
                           observer, controls, analysed)
        if any(seat.stopping for seat in seats):  # its engines were stopped under it
            break
        for colour, (seat, channel) in enumerate(zip(seats, channels)):
            seat.leave(channel, record.at_fault == colour
                       and record.termination in RESTART_AFTER)
        finished.append(FinishedGame.of(record, pairing(game, names),
                                        [seat.lag() for seat in seats],
                                        (seats[0].engine(), seats[1].engine())))
    return TaskResult(tuple(finished))


class _Recorder:
    """Writes finished games on a thread of its own, in the order they finished, so that the
    driver goes on starting games while the disk, the summary and the report catch up (writing
    a game takes tens of milliseconds; a busy event finishes several a second). A failed write
    stops the writing: :meth:`check` raises it in the driver."""

    def __init__(self, write: Callable[[FinishedGame], None]) -> None:
        self._write = write
        self._queue: queue.Queue = queue.Queue()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="recorder")
        self._thread.start()

    def put(self, game: FinishedGame) -> None:
        self._queue.put(game)

    def _run(self) -> None:
        while (game := self._queue.get()) is not None:
            if self._error is None:
                try:
                    self._write(game)
                except BaseException as error:  # handed to the driver by check()
                    self._error = error

    def check(self) -> None:
        """Raise the error a write failed with, if one did."""
        if self._error is not None:
            raise self._error

    def close(self) -> None:
        """Write what is queued, then stop; raises a write's error."""
        self._queue.put(None)
        self._thread.join()
        self.check()


class Runner:
    """Plays ``run`` on ``executor`` with the entrants in ``seating`` (default: engine
    processes started from ``run.engines``), keeping its games in ``records``, under the
    policy given by ``ladder`` and ``no_show``; see the module docstring."""

    def __init__(self, run: Run, executor: Executor, records: Records,
                 observer: RunObserver | None = None, seating: Seating | None = None,
                 ladder: Ladder | None = None, no_show: float | None = None) -> None:
        self.run = run
        self.executor = executor
        self.records = records
        self.observer = observer or RunObserver()
        self.seating = seating or LocalSeating(run.engines,
                                               timeout=run.setup.command_timeout)
        self.ladder = ladder
        self.no_show = no_show
        self._interrupts = 0
        self._busy: set[int] = set()
        self._handed_over = records.summary.games  # games kept or being kept
        # Entrants with a finished game not yet written: their next game waits for it, so
        # that observers hear of a game's end before the next game of the same entrants.
        self._unwritten: Counter = Counter()
        self._unwritten_lock = threading.Lock()
        self._written = threading.Event()  # set by the recorder after each game

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
        sprt = self.records.summary.headline.sprt
        return sprt.verdict if sprt else None

    def execute(self) -> str | None:
        """Play until done or stopped; ``None`` when every planned game was played, else why
        it stopped: ``"sprt"``, ``"interrupted"`` or ``"aborted"``."""
        self.seating.open()
        todo = deque() if self.ladder else deque(unit for unit in self._units() if unit)
        in_flight: dict[Future, tuple[ScheduledGame, ...]] = {}
        stopped = "sprt" if self.verdict else None
        self.observer.run_started(self.run)
        recorder = _Recorder(self._record)
        clean = False
        try:
            while stopped is None:
                recorder.check()
                if self.verdict:
                    stopped = "sprt"
                    break
                if self._interrupts >= 2:
                    stopped = "aborted"
                    break
                self._written.clear()
                if self._interrupts == 0:
                    todo = self._forfeit_absent(todo, recorder)
                    if self.ladder:
                        todo += [(game,) for game in
                                 self._ladder_games(len(in_flight) + len(todo))]
                    self._start_ready(todo, in_flight)
                if not in_flight:
                    if self._interrupts or self._done(todo):
                        stopped = "interrupted" if self._interrupts else None
                        break
                    self._written.wait(POLL_SECONDS)
                    continue
                poll = WRITE_POLL_SECONDS if self._writing() else POLL_SECONDS
                for future in self.executor.wait(list(in_flight), poll):
                    unit = in_flight.pop(future)
                    self._busy -= {index for game in unit for index in (game.black, game.white)}
                    for game in future.result().games:
                        self._hand_over(game, recorder)
            clean = stopped in (None, "interrupted")
        finally:
            self.executor.shutdown(cancel=not clean)
            self.seating.close(clean)
            recorder.close()
        if self.verdict and stopped != "aborted":  # reached by a game the recorder wrote late
            stopped = "sprt"
        self.records.finish()
        self.observer.run_finished(self.records.summary, stopped)
        return stopped

    def _units(self) -> list[tuple[ScheduledGame, ...]]:
        return [tuple(game for game in unit if not self.records.kept(game.game_no))
                for unit in units(self.run.planned)]

    def _done(self, todo: deque) -> bool:
        if self.ladder:
            return bool(self.ladder.limit) and self._handed_over >= self.ladder.limit
        return not todo

    def _start_ready(self, todo: deque, in_flight: dict) -> None:
        """Start the first units of ``todo`` whose entrants are free (see :meth:`_held`), up
        to the executor's slots, keeping the others in order. The look stops once every
        entrant is held up, so that a long plan costs as little at its end as at its start."""
        held: set[int] = set()
        passed = []
        while todo and len(in_flight) < self.executor.slots and len(held) < len(
                self.run.engines):
            unit = todo.popleft()
            players = {index for game in unit for index in (game.black, game.white)}
            held |= {index for index in players - held if self._held(index)}
            if players & held:
                passed.append(unit)
                continue
            if self.seating.exclusive:
                self._busy |= players
                held |= players
            in_flight[self._submit(unit)] = unit
        todo.extendleft(reversed(passed))

    def _held(self, index: int) -> bool:
        """Whether entrant ``index`` cannot start a game now: not ready, its last finished
        game not yet written, or (one game at a time) playing one."""
        if self.seating.exclusive and index in self._busy:
            return True
        with self._unwritten_lock:
            if self._unwritten[index]:
                return True
        return not self.seating.ready(index)

    def _writing(self) -> bool:
        """Whether a finished game is waiting to be written."""
        with self._unwritten_lock:
            return any(self._unwritten.values())

    def _submit(self, unit: tuple[ScheduledGame, ...]) -> Future:
        observer = self.observer if self.executor.in_process else None
        task = Task(self.run.setup, self.run.engines, unit, self.seating.seats(), observer)
        future = self.executor.submit(play_task, task)
        for game in unit:
            self.observer.game_started(game)
        return future

    def _forfeit_absent(self, todo: deque, recorder: _Recorder) -> deque:
        """Record the games of ``todo`` that an entrant away past the no-show limit would play
        next (those whose entrants are idle); the rest of ``todo``."""
        if self.no_show is None:
            return todo
        now = time.monotonic()
        absent = {index for index in range(len(self.run.engines))
                  if self.seating.away_for(index, now) > self.no_show}
        if not absent:
            return todo
        left = []
        for unit in todo:
            players = {index for game in unit for index in (game.black, game.white)}
            if players & absent and not players & self._busy:
                for game in unit:
                    self._hand_over(self._no_show(game, absent), recorder)
            else:
                left.append(unit)
        return deque(left)

    def _no_show(self, game: ScheduledGame, absent: set[int]) -> FinishedGame:
        """The record of ``game`` lost by whoever of its entrants is ``absent``."""
        start_options, played = self.run.setup.start(game.opening, random.Random(game.seed))
        names = self.run.names
        away = [colour for colour, index in enumerate((game.black, game.white))
                if index in absent]
        limit = f"within the {self.no_show:g} s no-show limit"
        if len(away) == 2:
            winner, at_fault = None, None
            reason = f"neither {names[game.black]} nor {names[game.white]} came {limit}"
        else:
            at_fault = away[0]
            winner = 1 - at_fault
            reason = f"{names[(game.black, game.white)[at_fault]]} did not come {limit}"
        record = GameRecord(played, start_options, [], [], [0.0, 0.0],
                            Outcome(winner, Termination.NO_SHOW, reason), at_fault)
        return FinishedGame.of(record, pairing(game, names))

    def _ladder_games(self, playing: int) -> list[ScheduledGame]:
        """New games between the ready, idle entrants of a ladder whose last game is
        written (so that each can start at once), ``playing`` games being under way or
        about to start."""
        room = self.executor.slots - playing
        if self.ladder.limit:
            room = min(room, self.ladder.limit - self._handed_over - playing)
        count = len(self.run.engines)
        present = [index for index in range(count) if self.seating.ready(index)]
        with self._unwritten_lock:
            idle = [index for index in present
                    if index not in self._busy and not self._unwritten[index]]
        games = self.ladder.games(idle, len(present), room)
        self.run.planned.extend(games)
        return games

    def _hand_over(self, game: FinishedGame, recorder: _Recorder) -> None:
        self._handed_over += 1
        with self._unwritten_lock:
            self._unwritten.update(_entrants(game))
        recorder.put(game)

    def _record(self, game: FinishedGame) -> None:
        """The recorder's work: write ``game``, then let its entrants play on."""
        try:
            self._write(game)
        finally:
            with self._unwritten_lock:
                self._unwritten.subtract(_entrants(game))
            self._written.set()

    def _write(self, game: FinishedGame) -> None:
        """Keep a finished game unless it is kept already or an SPRT verdict came first, and
        tell the observers (on the recorder's thread)."""
        row = game.row
        if self.records.kept(row["game_no"]) or self.verdict:
            return
        self.records.keep(game)
        if self.ladder:
            self.ladder.count(row["black_index"] - 1, row["white_index"] - 1)
        self.observer.game_finished(game, self.records.summary)


def _entrants(game: FinishedGame) -> tuple[int, int]:
    return game.row["black_index"] - 1, game.row["white_index"] - 1


def pairing(game: ScheduledGame, names: Sequence[str]) -> Pairing:
    """Who played ``game`` and under which numbers of the plan, as the records keep it."""
    return Pairing(game.game_no, game.black, game.white, (names[game.black], names[game.white]),
                   game.pair, game.opening.number if game.opening else None, game.seed)
