"""The report during a run: ``report.html`` kept up to date, and the games in progress.

:class:`ReportWriter` writes each finished game's replay, adds it to the list of games and
rewrites the page after each game (at most once a second when games end faster, and always at
the end of the run). The page's figures come from the summary the runner passes along; the
figures after each game are read once at the start of the run and then grown by one point per
game, of which a bounded sample is drawn (:class:`~referee.report.charts.Sample`): each step
costs the same at game 100,000 as at game 100.

:class:`LiveView` feeds :class:`~referee.host.report_server.LiveGames` for ``--serve``: the game of
each started game by the rules, and every move as it is played.

A failure to write the report (a full disk, say) is reported once on standard error and does
not stop the run: the games and their records matter more than the page.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any, Callable, TypeVar

from engine.search import Analysis

from ..plan.schedule import ScheduledGame
from ..records.folder import RESULTS_NAME, GameRows
from ..records.results import FinishedGame
from ..run.observer import Run, RunObserver
from ..run.settings import read_settings
from ..stats.summary import Summary, point_of
from .charts import Sample
from .folder import append_to_games_list, report_data, walk_rows, write_game, write_page
from .page import ReportData
from .live import LiveGame, LiveGames

T = TypeVar("T")


class ReportWriter(RunObserver):
    """Keeps the run's ``report.html`` and replays up to date; see the module docstring."""

    def __init__(self, min_interval: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.min_interval = min_interval
        self.clock = clock
        self.data: ReportData | None = None
        self.sample = Sample()
        self.written_at = -float("inf")
        self.failed = False

    @property
    def history(self) -> list[dict[str, Any]]:
        """The figures after each game that the page's charts draw (a sample of a long run)."""
        return list(self.sample.points())

    def run_started(self, run: Run) -> None:
        self.out = run.out
        planned = max(len(run.planned), run.tally.games)
        rows = GameRows(run.out / RESULTS_NAME)
        # One walk: the figures so far, the replays of games finished before this run (a
        # resumed run, an older version) and the games list; the figures alone if that fails.
        self.data = (self._safely(lambda: walk_rows(run.out, rows, planned))
                     or self._safely(lambda: report_data(run.out, rows, planned))
                     or ReportData(read_settings(run.out), run.names, None, (), planned))
        self.sample.extend(self.data.history)
        self._write()

    def game_finished(self, game: FinishedGame, summary: Summary) -> None:
        if self.data is None:
            return
        self.sample.add(point_of(summary.headline, summary.games, summary.pairs))
        self.data = ReportData(self.data.settings, self.data.names, summary,
                               self.sample.points(), self.data.planned)
        self._safely(lambda: write_game(self.out, game.row, self.data.settings, game.clocks))
        self._safely(lambda: append_to_games_list(self.out, game.row))
        if self.clock() - self.written_at >= self.min_interval:
            self._write()

    def run_finished(self, summary: Summary, stopped: str | None) -> None:
        if self.data is not None:
            self._write()

    def _write(self) -> None:
        self._safely(lambda: write_page(self.out, self.data))
        self.written_at = self.clock()

    def _safely(self, action: Callable[[], T]) -> T | None:
        """``action``'s value, or ``None`` when it failed (said once on standard error)."""
        try:
            return action()
        except Exception as error:  # the run goes on without its report
            if not self.failed:
                self.failed = True
                print(f"olympiad-referee: warning: the report could not be written "
                      f"({type(error).__name__}: {error}); rebuild it later with "
                      f"olympiad-referee report {self.out}", file=sys.stderr, flush=True)


class LiveView(RunObserver):
    """Tells :class:`LiveGames` which games are in progress, every move they make and what
    the engines said of their moves; ``number`` gives the number a started game shows (by
    default the runner's)."""

    def __init__(self, live: LiveGames,
                 number: Callable[[ScheduledGame], int] | None = None) -> None:
        self.live = live
        self.number = number or (lambda game: game.game_no)

    def run_started(self, run: Run) -> None:
        self.run = run
        self.live.running = True

    def game_started(self, game: ScheduledGame) -> None:
        setup = self.run.setup
        # The start the referee plays from (the runner draws it with the game's seed).
        _, played = setup.start(game.opening, random.Random(game.seed))
        specs = (self.run.engines[game.black], self.run.engines[game.white])
        clocks = tuple(spec.control.time for spec in specs)
        self.live.start(LiveGame(self.number(game), specs[0].name, specs[1].name, played,
                                 clocks), key=game.game_no)

    def move_played(self, game_no: int, ply: int, move: str,
                    clocks: tuple[float, float]) -> None:
        self.live.move(game_no, move, clocks)

    def move_analysed(self, game_no: int, ply: int, analysis: Analysis) -> None:
        self.live.analyse(game_no, ply, analysis)

    def game_finished(self, game: FinishedGame, summary: Summary) -> None:
        self.live.finish(game.result.game_no)

    def run_finished(self, summary: Summary, stopped: str | None) -> None:
        self.live.running = False
        self.live.clear()
