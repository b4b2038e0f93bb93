"""The run on the terminal: a line per finished game, the summary now and then and at the end.

Each line names the game, its players, result and termination, then the running score of
every engine, and the SPRT's log-likelihood ratio with its bounds when one is running. The
summary (:func:`referee.stats.format_summary`) is printed every ``report_every`` games (0:
never) and once at the end, with the SPRT's verdict when it stopped the run.
"""

from __future__ import annotations

from typing import Any, Callable

import click

from .observer import RunObserver
from .runner import Run
from .stats import format_summary

SCORES = {"B+": (1.0, 0.0), "W+": (0.0, 1.0), "0": (0.5, 0.5)}


class Progress(RunObserver):
    """Prints the run's progress with ``echo``; see the module docstring."""

    def __init__(self, report_every: int = 0, echo: Callable[[str], Any] = click.echo) -> None:
        self.report_every = report_every
        self.echo = echo
        self.names: list[str] = []
        self.scores: list[float] = []
        self.total = self.done = 0

    def run_started(self, run: Run) -> None:
        self.names = run.names
        self.scores = [0.0] * len(self.names)
        self.total = len(run.planned)
        self.done = 0
        for row in run.rows:
            self._count(row)

    def _count(self, row: dict[str, Any]) -> None:
        self.done += 1
        black, white = SCORES[row["result"]]
        self.scores[row["black_index"] - 1] += black
        self.scores[row["white_index"] - 1] += white

    def game_finished(self, row: dict[str, Any], summary: dict[str, Any]) -> None:
        self._count(row)
        score = ", ".join(f"{name} {points:g}" for name, points in zip(self.names, self.scores))
        line = (f"[{self.done}/{self.total}] game {row['game_no']}: {row['black']} (black) vs "
                f"{row['white']} (white): {row['result']} {row['termination']}, "
                f"{row['plies']} plies ({row['reason']}) | {score}")
        sprt = summary.get("sprt")
        if sprt:
            line += f" | llr {sprt['llr']:.2f} [{sprt['lower']:.2f}, {sprt['upper']:.2f}]"
        self.echo(line)
        if self.report_every and self.done % self.report_every == 0:
            self.echo(format_summary(summary))

    def run_finished(self, summary: dict[str, Any], stopped: str | None) -> None:
        self.echo(format_summary(summary))
        if stopped == "sprt":
            sprt = summary["sprt"]
            bound = sprt["upper"] if sprt["verdict"] == "H1" else sprt["lower"]
            self.echo(f"SPRT: {sprt['verdict']} accepted after {summary['games']} games "
                      f"(llr {sprt['llr']:.2f}, bound {bound:.2f})")
