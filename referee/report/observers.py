"""The report during a run: ``report.html`` kept up to date, and the games in progress.

:class:`ReportWriter` writes each finished game's replay, adds it to the list of games and
rewrites the page after each game (at most once a second when games end faster, and always at
the end of the run). The page's figures come from the summary the runner passes along; the
figures after each game are read once at the start of the run and then grown by one point per
game, of which a bounded sample is drawn (:class:`~referee.report.charts.Sample`): each step
costs the same at game 100,000 as at game 100.

:class:`LiveView` feeds :class:`~referee.report.server.LiveGames` for ``--serve``: the game of
each started game by the rules, and every move as it is played.

A failure to write the report (a full disk, say) is reported once on standard error and does
not stop the run: the games and their records matter more than the page.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any, Callable

from engine.search import Analysis

from ..plan.schedule import ScheduledGame
from ..records.folder import RESULTS_NAME, read_game_rows
from ..run.observer import Run, RunObserver
from .charts import Sample
from .folder import append_to_games_list, report_data, write_game, write_games_list, write_page
from .page import ReportData, game_file
from .server import LiveGame, LiveGames

HISTORY_KEYS = ("games", "pairs", "elo", "elo_95", "nelo", "los")


def history_point(summary: dict[str, Any]) -> dict[str, Any]:
    """The figures after the last game, as :func:`referee.stats.history` lists them, read
    from the summary of all games so far.

    >>> history_point({"games": 2, "pairs": 1, "elo": 5.0, "elo_95": [-1, 11], "nelo": 4.0,
    ...                "los": 0.7, "sprt": {"llr": 0.25}})
    {'games': 2, 'pairs': 1, 'elo': 5.0, 'elo_95': [-1, 11], 'nelo': 4.0, 'los': 0.7, 'llr': 0.25}
    """
    point = {key: summary.get(key) for key in HISTORY_KEYS}
    if summary.get("sprt"):
        point["llr"] = summary["sprt"]["llr"]
    return point


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
        path = run.out / RESULTS_NAME
        try:
            rows = read_game_rows(path) if path.exists() else []
        except OSError:
            rows = []
        self.data = report_data(run.out, rows, max(len(run.planned), len(rows)))
        self.sample.extend(self.data.history)
        self._safely(lambda: self._missing_games(rows))
        self._safely(lambda: write_games_list(self.out, rows))
        self._write()

    def game_finished(self, row: dict[str, Any], summary: dict[str, Any]) -> None:
        if self.data is None:
            return
        self.sample.add(history_point(summary))
        self.data = ReportData(self.data.settings, self.data.names, summary,
                               self.sample.points(), self.data.planned)
        self._safely(lambda: write_game(self.out, row, self.data.settings))
        self._safely(lambda: append_to_games_list(self.out, row))
        if self.clock() - self.written_at >= self.min_interval:
            self._write()

    def run_finished(self, summary: dict[str, Any], stopped: str | None) -> None:
        if self.data is not None:
            self._write()

    def _missing_games(self, rows: list[dict[str, Any]]) -> None:
        """Replays of games finished before this run (a resumed run, an older version)."""
        for row in rows:
            if not (self.out / game_file(row["game_no"])).exists():
                write_game(self.out, row, self.data.settings)

    def _write(self) -> None:
        self._safely(lambda: write_page(self.out, self.data))
        self.written_at = self.clock()

    def _safely(self, action: Callable[[], Any]) -> None:
        try:
            action()
        except Exception as error:  # the run goes on without its report
            if not self.failed:
                self.failed = True
                print(f"olympiad-referee: warning: the report could not be written "
                      f"({type(error).__name__}: {error}); rebuild it later with "
                      f"olympiad-referee report {self.out}", file=sys.stderr, flush=True)


class LiveView(RunObserver):
    """Tells :class:`LiveGames` which games are in progress, every move they make and what
    the engines said of their moves."""

    def __init__(self, live: LiveGames) -> None:
        self.live = live

    def run_started(self, run: Run) -> None:
        self.run = run
        self.live.running = True

    def game_started(self, game: ScheduledGame) -> None:
        setup = self.run.setup
        # The start the referee plays from (the runner draws it with the game's seed).
        _, played = setup.start(game.opening, random.Random(game.seed))
        specs = (self.run.engines[game.black], self.run.engines[game.white])
        clocks = tuple(spec.control.main for spec in specs)
        self.live.start(LiveGame(game.game_no, specs[0].name, specs[1].name, played, clocks))

    def move_played(self, game_no: int, ply: int, move: str,
                    clocks: tuple[float, float]) -> None:
        self.live.move(game_no, move, clocks)

    def move_analysed(self, game_no: int, ply: int, analysis: Analysis) -> None:
        self.live.analyse(game_no, ply, analysis)

    def game_finished(self, row: dict[str, Any], summary: dict[str, Any]) -> None:
        self.live.finish(row["game_no"])

    def run_finished(self, summary: dict[str, Any], stopped: str | None) -> None:
        self.live.running = False
        self.live.clear()
