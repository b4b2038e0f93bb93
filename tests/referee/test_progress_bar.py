"""The live progress bar: drawn on a terminal, absent otherwise; the per-game lines are
another observer's (referee.commands.progress.Progress) and stay on standard output either way."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from referee.commands.progress import ProgressBar
from referee.plan.schedule import ScheduledGame
from referee.plan.setup import Setup


def run(done: int = 1) -> SimpleNamespace:
    return SimpleNamespace(setup=Setup("loa"), names=["a", "b"], planned=[None] * 10,
                           tally=SimpleNamespace(games=done))


def summary(wins: int, draws: int, losses: int, llr: float | None = None) -> dict:
    found = {"engines": ["a", "b"], "wdl": [wins, losses, draws]}
    if llr is not None:
        found["sprt"] = {"llr": llr, "lower": -2.94, "upper": 2.94}
    return found


def test_the_bar_counts_games_playing_and_done_with_the_score_and_llr():
    console = Console(file=io.StringIO(), force_terminal=True, width=160, record=True)
    bar = ProgressBar(console)
    bar.run_started(run(done=1))
    for number in (2, 3):
        bar.game_started(ScheduledGame(number, None, 0, 1, seed=number))
    bar.bar.refresh()
    assert "1/10 games, 2 playing" in console.export_text()
    bar.game_finished({"game_no": 2}, summary(1, 1, 0, llr=0.75))
    bar.bar.refresh()
    text = console.export_text()
    assert "2/10 games, 1 playing" in text and "score 1.5-0.5, llr 0.75 (-2.94, 2.94)" in text
    bar.run_finished({}, None)
    assert bar.bar is None


def test_no_bar_when_standard_error_is_not_a_terminal(capsys):
    bar = ProgressBar()
    bar.run_started(run())
    bar.game_finished({"game_no": 1}, summary(1, 0, 0))
    bar.run_finished({}, None)
    assert bar.bar is None
    assert capsys.readouterr() == ("", "")
