"""A match (two engines) or a round robin (more): the schedule, and playing it.

The schedule depends only on the number of engines, ``--games`` and ``--seed``, so a resumed
run numbers and seeds every game as the first run did: round after round, every pairing plays
one game, the first listed engine of a pairing taking black in odd-numbered rounds. Each game's
seed (for a random start such as laoCoon's layout) is drawn from the match seed and its number.

Up to ``concurrency`` games run at once, each worker with its own engine processes, started on
first use and kept for its next games; an engine that crashed, timed out or broke the protocol is
killed and started afresh for the next game.

>>> [(game.game_no, game.black, game.white) for game in schedule(3, 2, seed=7)]
[(1, 0, 1), (2, 0, 2), (3, 1, 2), (4, 1, 0), (5, 2, 0), (6, 2, 1)]
"""

from __future__ import annotations

import queue
import random
import threading
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Sequence

from engine import COLOUR_NAMES, Termination

from .channel import Channel, ChannelClosed, EngineChannel
from .game import Setup, play_game
from .records import Entrant, ResultsFile, result_row, save_game

# After these, the engine at fault is in an unknown state: it is replaced for the next game.
RESTART_AFTER = {Termination.TIMEOUT, Termination.CRASH, Termination.PROTOCOL_ERROR}


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule; ``black`` and ``white`` are 0-based engine positions."""

    game_no: int
    black: int
    white: int
    seed: int


def schedule(engines: int, games: int, seed: int) -> list[ScheduledGame]:
    """Every game of a match of ``games`` games per pairing of ``engines`` engines, in order."""
    pairings = list(combinations(range(engines), 2))
    planned = []
    for round_no in range(1, games + 1):
        for first, second in pairings:
            black, white = (first, second) if round_no % 2 else (second, first)
            game_no = len(planned) + 1
            game_seed = random.Random(f"{seed}:{game_no}").getrandbits(63)
            planned.append(ScheduledGame(game_no, black, white, game_seed))
    return planned


def entrant_names(commands: Sequence[str]) -> list[str]:
    """A name per engine: its command line, numbered when the same command appears twice.

    >>> entrant_names(["a", "b", "a"])
    ['a #1', 'b', 'a #3']
    """
    return [command if commands.count(command) == 1 else f"{command} #{index}"
            for index, command in enumerate(commands, 1)]


class _DeadChannel(Channel):
    """Stands in for an engine that could not be started: every command finds it gone."""

    def __init__(self, command: str, why: str) -> None:
        self.command = command
        self.why = why

    def send(self, command: str, deadline: float | None = None) -> str:
        raise ChannelClosed(self.why)


def start_engine(command: str) -> Channel:
    """The engine started by ``command``, or a dead stand-in saying why it did not start."""
    try:
        return EngineChannel(command)
    except ChannelClosed as error:
        return _DeadChannel(command, str(error))


GameCallback = Callable[[dict[str, Any]], None]


class Match:
    """Plays the games of a schedule not yet in the results file, writing each as it ends.

    ``on_game(row)`` is called, one call at a time, after each game is saved;
    ``on_start(game)`` as a game starts. ``starter`` makes an engine from its command (tests
    pass in-process engines).
    """

    def __init__(self, setup: Setup, commands: Sequence[str], planned: Sequence[ScheduledGame],
                 out: Path, results: ResultsFile, concurrency: int = 1,
                 on_game: GameCallback | None = None,
                 on_start: Callable[[ScheduledGame], None] | None = None,
                 starter: Callable[[str], Channel] = start_engine) -> None:
        self.setup = setup
        self.commands = list(commands)
        self.entrants = [Entrant(index, name)
                         for index, name in enumerate(entrant_names(commands), 1)]
        self.out = out
        self.results = results
        self.concurrency = concurrency
        self.on_game = on_game or (lambda row: None)
        self.on_start = on_start or (lambda game: None)
        self.starter = starter
        self.todo: queue.Queue[ScheduledGame] = queue.Queue()
        for game in planned:
            if game.game_no not in results.rows:
                self.todo.put(game)
        self.stopped = threading.Event()
        self.failure: Exception | None = None
        self._lock = threading.Lock()
        self._live: list[Channel] = []
        self._workers: list[threading.Thread] = []

    @property
    def pending(self) -> int:
        return self.todo.qsize()

    def start(self) -> None:
        """Start the workers; :meth:`wait` for them."""
        for number in range(min(self.concurrency, max(1, self.todo.qsize()))):
            worker = threading.Thread(target=self._work, name=f"referee worker {number + 1}",
                                      daemon=True)
            worker.start()
            self._workers.append(worker)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the workers for up to ``timeout`` seconds; true once all have finished."""
        for worker in self._workers:
            worker.join(timeout)
            if worker.is_alive():
                return False
        return True

    def run(self) -> None:
        """Play every remaining game; a bug in a worker stops the match and is raised here."""
        self.start()
        while not self.wait(0.2):
            pass
        if self.failure is not None:
            raise self.failure

    def abort(self) -> None:
        """Stop now: kill every engine; games in progress are not recorded."""
        self.stopped.set()
        with self._lock:
            live = list(self._live)
        for channel in live:
            channel.kill()

    def _work(self) -> None:
        engines: dict[int, Channel] = {}
        try:
            while not self.stopped.is_set():
                try:
                    game = self.todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    self._play(game, engines)
                except Exception as error:  # after abort, a killed engine may raise: ignore
                    if not self.stopped.is_set():
                        self.failure = error
                        self.abort()
        finally:
            for channel in engines.values():
                self._retire(channel, polite=not self.stopped.is_set())

    def _engine(self, engines: dict[int, Channel], index: int) -> Channel:
        if index not in engines:
            channel = self.starter(self.commands[index])
            with self._lock:
                self._live.append(channel)
            engines[index] = channel
        return engines[index]

    def _retire(self, channel: Channel, polite: bool) -> None:
        if polite:
            channel.close()
        else:
            channel.kill()
        with self._lock:
            if channel in self._live:
                self._live.remove(channel)

    def _play(self, game: ScheduledGame, engines: dict[int, Channel]) -> None:
        self.on_start(game)
        sides = (game.black, game.white)
        channels = [self._engine(engines, index) for index in sides]
        record = play_game(self.setup, channels, random.Random(game.seed))
        if self.stopped.is_set():
            return
        for colour, index in enumerate(sides):
            faulty = record.at_fault == colour and record.termination in RESTART_AFTER
            if index in engines and (faulty or isinstance(engines[index], _DeadChannel)):
                self._retire(engines.pop(index), polite=False)
        row = result_row(game.game_no, record, self.entrants[game.black],
                         self.entrants[game.white], game.seed)
        with self._lock:
            save_game(self.out, self.results, row, record.clocks,
                      COLOUR_NAMES[record.game.first_player])
            self.on_game(row)

