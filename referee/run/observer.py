"""What a run tells those who watch it (the progress line, the live report).

Every method is an optional no-op here; an observer overrides those it needs. The runner calls
them from its driver thread, one call at a time, except :meth:`RunObserver.move_played`, which
comes from the threads playing the games (and only when they run in this process).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from engine.search import Analysis

from ..plan.schedule import ScheduledGame
from ..plan.setup import Setup
from ..play.entrants import EngineSpec
from ..records.results import FinishedGame
from ..stats.sprt import SprtSettings
from ..stats.summary import Summary
from ..stats.tally import Tally


class RunObserver:
    """Watches a run; see the module docstring."""

    def run_started(self, run: Run) -> None:
        """The run is about to start its first game (``run.tally``: the games already done)."""

    def game_started(self, game: ScheduledGame) -> None:
        """``game`` was handed out to be played (a pair's two games are handed out together)."""

    def move_played(self, game_no: int, ply: int, move: str,
                    clocks: tuple[float, float]) -> None:
        """Ply ``ply`` (1-based, opening moves included) of game ``game_no`` was ``move``;
        ``clocks`` are black's and white's time left."""

    def move_analysed(self, game_no: int, ply: int, analysis: Analysis) -> None:
        """The engine that made ply ``ply`` of game ``game_no`` said ``analysis`` of it
        (called after :meth:`move_played`, from the same thread, only for analysed moves)."""

    def game_finished(self, game: FinishedGame, summary: Summary) -> None:
        """``game`` was written; ``summary`` covers every finished game so far."""

    def run_finished(self, summary: Summary, stopped: str | None) -> None:
        """The run is over: ``stopped`` is ``None`` when every game was played, else
        ``"sprt"``, ``"interrupted"`` (first Ctrl-C) or ``"aborted"`` (second Ctrl-C)."""


class Observers(RunObserver):
    """Several observers as one: each call goes to each, in order."""

    def __init__(self, observers: Sequence[RunObserver]) -> None:
        self.observers = list(observers)

    def run_started(self, run: Run) -> None:
        for observer in self.observers:
            observer.run_started(run)

    def game_started(self, game: ScheduledGame) -> None:
        for observer in self.observers:
            observer.game_started(game)

    def move_played(self, game_no: int, ply: int, move: str,
                    clocks: tuple[float, float]) -> None:
        for observer in self.observers:
            observer.move_played(game_no, ply, move, clocks)

    def move_analysed(self, game_no: int, ply: int, analysis: Analysis) -> None:
        for observer in self.observers:
            observer.move_analysed(game_no, ply, analysis)

    def game_finished(self, game: FinishedGame, summary: Summary) -> None:
        for observer in self.observers:
            observer.game_finished(game, summary)

    def run_finished(self, summary: Summary, stopped: str | None) -> None:
        for observer in self.observers:
            observer.run_finished(summary, stopped)


@dataclass
class Run:
    """A run as its observers see it: what is played, by whom, where, the SPRT, the ratings'
    anchor (name, Elo) and ``gauntlet``, how many engines play the field in a gauntlet (0: not
    a gauntlet); ``tally`` counts every finished game of the folder (those of earlier
    runs first, and of a longer run's plan when a resume asks for fewer games), kept up to
    date by the runner."""

    setup: Setup
    engines: tuple[EngineSpec, ...]
    planned: list[ScheduledGame]
    out: Path
    seed: int
    sprt: SprtSettings | None = None
    anchor: tuple[str, float] | None = None
    gauntlet: int = 0
    tally: Tally = field(default_factory=lambda: Tally(0))

    @property
    def names(self) -> list[str]:
        """The engines' display names, in command-line order (index 0 is engine 1)."""
        return [spec.name for spec in self.engines]
