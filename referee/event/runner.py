"""Playing an event: the games of the plan (or of the ladder) handed out as participants are
free, each refereed by the same game loop as a local run, each finished game written once.

:class:`EventRunner` is the local :class:`~referee.run.runner.Runner` (its writing of games,
summary and observers, its drain and abort) with another way of choosing what to play next,
since a participant has one engine and plays one game at a time:

* **A fixed plan** (round robin, double round robin, gauntlet): the first games of the plan
  whose two participants are connected and idle start, up to ``executor.slots`` at once; a
  game waits for a participant who is away, until the participant has been away longer than
  the event's ``no-show`` limit: then its games are recorded as lost by ``no_show`` (both away:
  a draw, no one at fault) as they come up, until it is back.
* **A ladder** has no plan: whenever two participants are connected and idle they are paired
  (:func:`ladder_pairings`) and play, for as long as the event runs or up to ``games`` games.

Finished games are written (SGF, results row, summary, report; the observers told) by a
recorder thread, one at a time in the order they finished, so that writing never holds up
pairing and starting games. The games in progress when the server is killed, and those
finished but not yet written, have no results row; a resumed event plays them again from the
start (a ladder just pairs anew).
"""

from __future__ import annotations

import dataclasses
import functools
import queue
import random
import threading
import time
from collections import Counter
from concurrent.futures import Future
from typing import Any, Callable, Sequence

from engine import COLOUR_NAMES, Outcome, Termination

from ..plan.schedule import ScheduledGame, game_seed
from ..plan.setup import Setup
from ..play.entrants import EngineSpec
from ..play.game import play_game
from ..records.folder import write_summary
from ..records.results import FinishedGame, GameRecord
from ..run.runner import (POLL_SECONDS, RESTART_AFTER, Runner, TaskResult,
                          game_result, result_row)
from ..run.observer import RunObserver
from ..stats.summary import Ratings, Summary, ratings, summary_of
from .remote import RemoteChannel

# The least seconds between two fits of an event's ratings (the rest of the summary is of
# every game).
RATINGS_SECONDS = 1.0


def play_remote(setup: Setup, engines: Sequence[EngineSpec], channels: Sequence[RemoteChannel],
                unit: tuple[ScheduledGame, ...], observer: RunObserver | None) -> TaskResult:
    """Play ``unit``'s games one after the other between remote engines (``channels`` by
    participant index, ``engines`` their names and time controls); each results row also keeps every
    move's measured time and lag allowance (``black_lag``, ``white_lag``: ``[seconds, allowance]``
    per timed move)."""
    finished = []
    for game in unit:
        pair = (channels[game.black], channels[game.white])
        for channel in pair:
            channel.new_game()
        moved = functools.partial(observer.move_played, game.game_no) if observer else None
        controls = (engines[game.black].control, engines[game.white].control)
        record = play_game(setup, pair, random.Random(game.seed), game.opening, moved, controls)
        for colour, channel in enumerate(pair):
            if record.at_fault == colour and record.termination in RESTART_AFTER:
                channel.kill()
        row = result_row(game, record, [spec.name for spec in engines])
        row["black_lag"], row["white_lag"] = ([list(move) for move in channel.moves]
                                              for channel in pair)
        finished.append(FinishedGame(row, game_result(game, record), tuple(record.clocks),
                                     COLOUR_NAMES[record.game.first_player]))
    return TaskResult(tuple(finished))


def ladder_pairings(idle: Sequence[int], met: Counter, played: Counter, blacks: Counter,
                    rng: random.Random, avoid: frozenset = frozenset()) -> list[tuple[int, int]]:
    """Pair the ``idle`` participants of a ladder, as (black, white): the one with the fewest
    games first, with the idle partner it has met least (then the one with the fewest games);
    the one who had black less often takes black. ``met`` counts games by
    ``frozenset({a, b})``; a pair in ``avoid`` is not made (one left without a partner waits);
    ties are broken by ``rng``.

    >>> ladder_pairings([0, 1, 2, 3], Counter({frozenset({0, 1}): 2}), Counter({0: 2, 1: 2}),
    ...                 Counter({0: 1, 1: 1}), random.Random(1))  # 2 and 3 have not played
    [(3, 2), (0, 1)]
    >>> ladder_pairings([0, 1], Counter(), Counter(), Counter(), random.Random(1),
    ...                 avoid=frozenset({frozenset({0, 1})}))
    []
    """
    waiting = list(idle)
    rng.shuffle(waiting)
    waiting.sort(key=lambda who: played[who])
    pairs = []
    while len(waiting) >= 2:
        first = waiting.pop(0)
        partners = [who for who in waiting if frozenset({first, who}) not in avoid]
        if not partners:
            continue
        partner = min(partners, key=lambda who: (met[frozenset({first, who})], played[who]))
        waiting.remove(partner)
        black, white = sorted((first, partner), key=lambda who: blacks[who])
        pairs.append((black, white))
    return pairs


class _Recorder:
    """Writes finished games on a thread of its own, in the order they finished, so that the
    driver goes on pairing and starting games while the disk, the summary and the report catch
    up (writing a game takes tens of milliseconds; a busy event finishes several a second). A
    failed write stops the run: :meth:`check` raises it in the driver."""

    def __init__(self, write: Callable[[FinishedGame], None]) -> None:
        self._write = write
        self._queue: queue.Queue = queue.Queue()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="event recorder")
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


class EventRunner(Runner):
    """Plays an event; see the module docstring. ``channels`` are the participants' engines
    by index; ``ladder``: pair whoever is free instead of following ``run.planned``, up to
    ``limit`` games (0: until stopped)."""

    def __init__(self, *args: Any, channels: Sequence[RemoteChannel], no_show: float,
                 ladder: bool = False, limit: int = 0, **kwargs: Any) -> None:
        self._rated_at = -float("inf")
        self._ratings: Ratings | None = None
        super().__init__(*args, **kwargs)
        self.channels = list(channels)
        self.no_show = no_show
        self.ladder = ladder
        self.limit = limit
        self._busy: set[int] = set()
        self._finished = self.run.tally.games  # written or being written
        self._next_game = max(self.results.finished, default=0) + 1
        # What the ladder pairs by, counted from the games written so far and kept up to date.
        self.met: Counter = Counter()
        self.played: Counter = Counter()
        self.blacks: Counter = Counter()
        self.last: dict[int, frozenset] = {}
        for row in self.results.rows():
            self._count_pairing(row["black_index"] - 1, row["white_index"] - 1)

    def execute(self) -> str | None:
        todo = [] if self.ladder else [unit for unit in self._units() if unit]
        in_flight: dict[Future, tuple[ScheduledGame, ...]] = {}
        stopped = None
        self.observer.run_started(self.run)
        self._recorder = _Recorder(self._write)
        try:
            while True:
                self._recorder.check()
                if self._interrupts >= 2:
                    stopped = "aborted"
                    break
                if self._interrupts == 0:
                    todo = self._forfeit_absent(todo)
                    if self.ladder:
                        todo += self._ladder_games(len(in_flight))
                    self._start_ready(todo, in_flight)
                if not in_flight:
                    if self._interrupts or self._done(todo):
                        stopped = "interrupted" if self._interrupts else None
                        break
                    time.sleep(POLL_SECONDS)
                    continue
                for future in self.executor.wait(list(in_flight), POLL_SECONDS):
                    unit = in_flight.pop(future)
                    self._busy -= {index for game in unit for index in (game.black, game.white)}
                    for game in future.result().games:
                        self._record(game)
        finally:
            if stopped == "aborted":
                for channel in self.channels:
                    channel.stop()
            self.executor.shutdown(cancel=stopped == "aborted")
            self._recorder.close()
        self._final_summary()
        self.observer.run_finished(self.summary, stopped)
        return stopped

    def _summarize(self) -> Summary:
        """The summary of every finished game (counts, standings, headline: the progress line
        and the report count each game), with ratings fitted at most every
        :data:`RATINGS_SECONDS`: fitting a large field takes a while (a tenth of a second at
        50 participants) and a busy event finishes several games a second."""
        run = self.run
        now = time.monotonic()
        if len(run.engines) > 2 and now - self._rated_at >= RATINGS_SECONDS:
            self._rated_at = now
            self._ratings = ratings(run.tally, run.names, run.anchor)
        summary = summary_of(run.tally, run.names, sprt=run.sprt, anchor=run.anchor, rated=False)
        return dataclasses.replace(summary, ratings=self._ratings)

    def _final_summary(self) -> None:
        """The summary of every game with ratings of every game, at the end of the run."""
        self._rated_at = -float("inf")
        self.summary = self._summarize()
        write_summary(self.run.out, self.summary.as_json())

    def _count_pairing(self, black: int, white: int) -> None:
        self.met[frozenset({black, white})] += 1
        self.played.update((black, white))
        self.blacks[black] += 1
        self.last[black] = self.last[white] = frozenset({black, white})

    def _write(self, game: FinishedGame) -> None:
        """Write the game (the runner's way) and count its pairing for the ladder."""
        written = game.row["game_no"] in self.results.finished
        super()._write(game)
        if not written:
            self._count_pairing(game.row["black_index"] - 1, game.row["white_index"] - 1)

    def _record(self, game: FinishedGame) -> None:
        """Hand a finished game to the recorder."""
        self._finished += 1
        self._recorder.put(game)

    def _done(self, todo: list) -> bool:
        if self.ladder:
            return bool(self.limit) and self._finished >= self.limit
        return not todo

    def _start_ready(self, todo: list, in_flight: dict) -> None:
        """Start the first units of ``todo`` whose participants are connected and idle."""
        for unit in list(todo):
            if len(in_flight) >= self.executor.slots:
                return
            players = {index for game in unit for index in (game.black, game.white)}
            if players & self._busy or not all(self.channels[i].connected for i in players):
                continue
            todo.remove(unit)
            self._busy |= players
            observer = self.observer if self.executor.in_process else None
            future = self.executor.submit(play_remote, self.run.setup, self.run.engines,
                                          self.channels, unit, observer)
            in_flight[future] = unit
            for game in unit:
                self.observer.game_started(game)

    def _forfeit_absent(self, todo: list) -> list:
        """Record the games of ``todo`` that a participant away past the no-show limit would
        play next (those whose participants are idle); the rest of ``todo``."""
        now = time.monotonic()
        absent = {index for index, channel in enumerate(self.channels)
                  if channel.absent_for(now) > self.no_show}
        if not absent:
            return todo
        left = []
        for unit in todo:
            players = {index for game in unit for index in (game.black, game.white)}
            if players & absent and not players & self._busy:
                for game in unit:
                    self._record(self._no_show(game, absent))
            else:
                left.append(unit)
        return left

    def _no_show(self, game: ScheduledGame, absent: set[int]) -> FinishedGame:
        """The record of ``game`` lost by whoever of its players is ``absent``."""
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
        row = result_row(game, record, names)
        return FinishedGame(row, game_result(game, record), (),
                            COLOUR_NAMES[played.first_player])

    def _ladder_games(self, playing: int) -> list[tuple[ScheduledGame, ...]]:
        """New games between the idle, connected participants of a ladder."""
        room = self.executor.slots - playing
        if self.limit:
            room = min(room, self.limit - self._finished - playing)
        idle = [index for index, channel in enumerate(self.channels)
                if channel.connected and index not in self._busy]
        if room <= 0 or len(idle) < 2:
            return []
        met, played, blacks, last = self.met, self.played, self.blacks, self.last
        # No rematch straight away while someone else is connected, only busy: wait for them.
        present = sum(channel.connected for channel in self.channels)
        avoid = frozenset(pair for pair in last.values()
                          if present > 2 and all(last[who] == pair for who in pair))
        seed = game_seed(self.run.seed, self._next_game)
        pairs = ladder_pairings(idle, met, played, blacks, random.Random(seed), avoid)
        units = []
        for black, white in pairs[:room]:
            number = self._next_game
            self._next_game += 1
            game = ScheduledGame(number, None, black, white, game_seed(self.run.seed, number))
            self.run.planned.append(game)
            units.append((game,))
        return units
