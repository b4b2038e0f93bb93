"""Where a run's finished games go: the policy the runner is given for keeping them.

The runner (:mod:`.runner`) hands each finished game to its :class:`Records` on the recorder
thread, one at a time, and asks it only whether a game is kept already and what the summary of
the kept games is (the SPRT's verdict is in it). :class:`FolderRecords` keeps a match's or an
event's games in its run folder (SGF, ``results.jsonl``, ``summary.json``: :mod:`referee.records`)
and counts them in the run's :class:`~referee.stats.Tally`; the ladder service keeps its pools'
games in its database (:mod:`referee.host.ladder`).
"""

from __future__ import annotations

import dataclasses
import time
from abc import ABC, abstractmethod

from ..records.folder import ResultsFile, save_game, write_summary
from ..records.results import FinishedGame, GameResult
from ..stats import Tally, summary_of
from ..stats.summary import Ratings, Summary, ratings
from .observer import Run

# The least seconds between two fits of a field's ratings (the rest of the summary is of every
# game): fitting a large field takes a while (a tenth of a second at 50 entrants).
RATINGS_SECONDS = 1.0


class Records(ABC):
    """A run's finished games as kept; see the module docstring. ``summary`` covers every game
    kept so far (what the observers are told, and where an SPRT's verdict is read)."""

    summary: Summary

    @abstractmethod
    def kept(self, game_no: int) -> bool:
        """Whether game ``game_no`` is kept already (it is then never written twice)."""

    @abstractmethod
    def keep(self, game: FinishedGame) -> None:
        """Keep a finished game, and bring :attr:`summary` up to date. An error stops the run."""

    def finish(self) -> None:
        """The run is over: bring anything deferred up to date."""


class FolderRecords(Records):
    """A run folder's games: ``results`` (its ``results.jsonl``, read back so that finished
    games are kept once) and a game's SGF and the summary written beside it; the run's tally
    counts every game kept. A field's ratings, the slow part of a summary, are fitted at most
    every :data:`RATINGS_SECONDS` and once more at the end, so that a game's cost does not grow
    with the run."""

    def __init__(self, run: Run, results: ResultsFile) -> None:
        self.run = run
        self.results = results
        self._rated_at = -float("inf")
        self._ratings: Ratings | None = None
        run.tally = Tally.of((GameResult.from_row(row) for row in results.rows()),
                             len(run.engines))
        self.summary = self._summarize()

    def kept(self, game_no: int) -> bool:
        return game_no in self.results.finished

    def keep(self, game: FinishedGame) -> None:
        save_game(self.run.out, self.results, game.row, list(game.clocks), game.first_player)
        self.run.tally.add(game.result)
        self.summary = self._summarize()
        write_summary(self.run.out, self.summary.as_json())

    def finish(self) -> None:
        """The summary of every game with ratings of every game."""
        self._rated_at = -float("inf")
        self.summary = self._summarize()
        write_summary(self.run.out, self.summary.as_json())

    def _summarize(self) -> Summary:
        run = self.run
        now = time.monotonic()
        if len(run.engines) > 2 and now - self._rated_at >= RATINGS_SECONDS:
            self._rated_at = now
            self._ratings = ratings(run.tally, run.names, run.anchor)
        summary = summary_of(run.tally, run.names, sprt=run.sprt, anchor=run.anchor, rated=False)
        return dataclasses.replace(summary, ratings=self._ratings)
