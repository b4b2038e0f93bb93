"""The live progress bar: drawn on a terminal, absent otherwise; the per-game lines are
another observer's (referee.commands.progress.Progress) and stay on standard output either way."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from engine import Outcome, Termination
from referee.commands.progress import ProgressBar
from referee.plan.schedule import ScheduledGame
from referee.plan.setup import Setup
from referee.records.results import FinishedGame, GameResult
from referee.stats import SprtSettings, summarize
from referee.stats.summary import Summary


def run(done: int = 1) -> SimpleNamespace:
    return SimpleNamespace(setup=Setup("loa"), names=["a", "b"], planned=[None] * 10,
                           tally=SimpleNamespace(games=done))


def summary(wins: int, draws: int, losses: int, elo1: float | None = None) -> Summary:
    """The summary of engine a's ``wins``, ``draws`` and ``losses`` against b, with an SPRT
    of elo0=0 and ``elo1`` if given."""
    outcomes = [0] * wins + [None] * draws + [1] * losses
    games = [GameResult(number, 1, 2, Outcome(winner, Termination.NORMAL, ""))
             for number, winner in enumerate(outcomes, 1)]
    return summarize(games, ["a", "b"], None if elo1 is None else SprtSettings(0, elo1))


def finished(game_no: int) -> FinishedGame:
    result = GameResult(game_no, 1, 2, Outcome(0, Termination.NORMAL, ""))
    return FinishedGame({"game_no": game_no}, result, (), "black")


def test_the_bar_counts_games_playing_and_done_with_the_score_and_llr():
    console = Console(file=io.StringIO(), force_terminal=True, width=160, record=True)
    bar = ProgressBar(console)
    bar.run_started(run(done=1))
    for number in (2, 3):
        bar.game_started(ScheduledGame(number, None, 0, 1, seed=number))
    bar.bar.refresh()
    assert "1/10 games, 2 playing" in console.export_text()
    figures = summary(1, 1, 0, elo1=50)
    llr = figures.headline.sprt.llr
    bar.game_finished(finished(2), figures)
    bar.bar.refresh()
    text = console.export_text()
    assert "2/10 games, 1 playing" in text
    assert f"score 1.5-0.5, llr {llr:.2f} (-2.94, 2.94)" in text
    bar.run_finished(figures, None)
    assert bar.bar is None


def test_no_bar_when_standard_error_is_not_a_terminal(capsys):
    bar = ProgressBar()
    bar.run_started(run())
    bar.game_finished(finished(1), summary(1, 0, 0))
    bar.run_finished(summary(1, 0, 0), None)
    assert bar.bar is None
    assert capsys.readouterr() == ("", "")
