"""The run on the terminal: a line per finished game, the summary now and then and at the end.

Each line names the game, its players (black first, as in the records), the result with the
termination when it is not a normal end, the rules' reason and the game's length; then (three
engines or more) who leads, and the SPRT's log-likelihood ratio with its bounds when one is
running. A run of
two engines follows it with cutechess's line, the running score, which scripts parse
(:func:`referee.stats.output.format_score_line`: ``Score of A vs B: W - L - D  [0.600] N``).
The summary (:func:`referee.stats.format_summary`) is printed every ``report_every`` games (0:
never) and at the end, each time once: when the last game falls on a ``report_every``, the end
does not print it again. The last two lines say where the report and the records are.

When standard error is a terminal, :class:`ProgressBar` adds a live bar below those lines
(games done of planned, games playing, elapsed time, time left, the score or the LLR), drawn
with ``rich``; in a CI log or a file there is no bar, only the lines.
"""

from __future__ import annotations

import atexit
import sys
from typing import Any, Callable

import click

from engine import Termination

from ..records.folder import GAMES_DIR, REPORT_NAME, RESULTS_NAME
from ..records.results import FinishedGame
from ..run.observer import Run, RunObserver
from ..stats import format_summary
from ..stats.output import format_score_line
from ..stats.summary import Summary


class Progress(RunObserver):
    """Prints the run's progress with ``echo``; see the module docstring."""

    def __init__(self, report_every: int = 0, echo: Callable[[str], Any] = click.echo) -> None:
        self.report_every = report_every
        self.echo = echo
        self.total = 0
        self.gauntlet = 0
        self.summary_at: int | None = None  # games counted when the summary was last printed
        self.score_at: int | None = None  # the same, for the "Score of" line

    def run_started(self, run: Run) -> None:
        self.out = run.out
        self.total = max(len(run.planned), run.tally.games)
        self.gauntlet = run.gauntlet

    def game_finished(self, game: FinishedGame, summary: Summary) -> None:
        result, names = game.result, summary.engines
        outcome = result.outcome
        how = "" if outcome.termination is Termination.NORMAL else f" {outcome.termination.value}"
        line = (f"[{summary.games}/{self.total}] game {result.game_no}: {names[result.black - 1]} "
                f"vs {names[result.white - 1]}: {outcome.result}{how} ({outcome.reason}), "
                f"{result.plies} plies")
        if len(names) > 2:  # two engines: the Score of line follows
            leader = summary.standings[0]
            line += f" | leads: {leader.name} {leader.points:g}/{leader.games}"
        sprt = summary.headline.sprt
        if sprt:
            lower, upper = sprt.bounds
            line += f" | llr {sprt.llr:.2f} [{lower:.2f}, {upper:.2f}]"
        self.echo(line)
        self._score(summary)
        if self.report_every and summary.games % self.report_every == 0:
            self._summary(summary)

    def run_finished(self, summary: Summary, stopped: str | None) -> None:
        self._score(summary)
        self._summary(summary)
        sprt = summary.headline.sprt
        if stopped == "sprt" and sprt:
            lower, upper = sprt.bounds
            bound = upper if sprt.verdict == "H1" else lower
            self.echo(f"SPRT: {sprt.verdict} accepted after {summary.games} games "
                      f"(llr {sprt.llr:.2f}, bound {bound:.2f})")
        self.echo(f"Report: {self.out / REPORT_NAME}")
        self.echo(f"Records: {self.out / RESULTS_NAME}, {self.out / GAMES_DIR}/")

    def _score(self, summary: Summary) -> None:
        """cutechess's "Score of" line of a two-engine run, once per game count."""
        if len(summary.engines) == 2 and summary.games and self.score_at != summary.games:
            self.score_at = summary.games
            self.echo(format_score_line(summary))

    def _summary(self, summary: Summary) -> None:
        """The summary, unless it was just printed for the same games."""
        if self.summary_at != summary.games:
            self.summary_at = summary.games
            self.echo(format_summary(summary, self.gauntlet))


class ProgressBar(RunObserver):
    """The live bar on standard error; see the module docstring. ``console`` (a
    ``rich.console.Console``) is where to draw it; by default standard error, and no bar at all
    when that is not a terminal."""

    def __init__(self, console: Any = None) -> None:
        self.console = console
        self.bar: Any = None

    def run_started(self, run: Run) -> None:
        if self.console is None and not sys.stderr.isatty():
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as Bar
        console = self.console or Console(stderr=True)
        # Lines printed on standard output go above the bar when both share the terminal.
        self.bar = Bar(BarColumn(bar_width=16), MofNCompleteColumn(),
                       TextColumn("games, {task.fields[playing]} playing"), TimeElapsedColumn(),
                       TextColumn("eta"), TimeRemainingColumn(), TextColumn("{task.fields[info]}"),
                       console=console, redirect_stdout=sys.stdout.isatty(),
                       redirect_stderr=False, transient=True)
        self.playing: set[int] = set()
        self.task = self.bar.add_task("", total=len(run.planned),
                                      completed=run.tally.games, playing=0, info="")
        self.bar.start()
        atexit.register(self.bar.stop)  # the terminal's cursor comes back however the run ends

    def game_started(self, game: Any) -> None:
        if self.bar is not None:
            self.playing.add(game.game_no)
            self.bar.update(self.task, playing=len(self.playing))

    def game_finished(self, game: FinishedGame, summary: Summary) -> None:
        if self.bar is not None:
            self.playing.discard(game.result.game_no)
            self.bar.update(self.task, advance=1, playing=len(self.playing),
                            info=standing_text(summary))

    def run_finished(self, summary: Summary, stopped: str | None) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def standing_text(summary: Summary) -> str:
    """The bar's short word on the run: the score of a match, the leader of a round robin, and
    the SPRT's log-likelihood ratio with its bounds.

    >>> from engine import Outcome, Termination
    >>> from referee.records.results import GameResult
    >>> from referee.stats import summarize
    >>> games = [GameResult(n, 1 + n % 2, 2 - n % 2, Outcome(0, Termination.NORMAL, ""))
    ...          for n in range(1, 4)]
    >>> standing_text(summarize(games, ["a", "b"])), standing_text(summarize(games, "abc"))
    ('score 1-2', 'leader b 2')
    """
    if len(summary.engines) == 2:
        head = summary.headline
        text = f"score {head.points:g}-{head.games - head.points:g}"
    else:
        leader = summary.standings[0]
        text = f"leader {leader.name[:30]} {leader.points:g}"
    sprt = summary.headline.sprt
    if sprt:
        lower, upper = sprt.bounds
        text += f", llr {sprt.llr:.2f} ({lower:.2f}, {upper:.2f})"
    return text
