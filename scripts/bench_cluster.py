"""Games per hour and the driver's cost per game, on local threads and on local Dask clusters.

Two instant engines (tests/referee/bad_engine.py without a fault: the first legal move, at
once) play a short match through ``olympiad-referee match``'s own code (run_match: plan, run,
results, SGF, summary.json, report.html), once on ``--concurrency N`` threads and once on
``--cluster local:N`` for each N. With instant engines a game costs almost nothing on the
worker, so what is measured is the rest: the referee's per-move work on the worker, and per
game the driver's work and Dask's round trip. Printed per run:

* games/hour: steady state, from the first finished game to the last (start-up left out);
* driver ms/game: CPU time of the driver's thread per game (writing the records, the summary
  and the report, submitting and collecting tasks): what bounds a run on many workers;
* process ms/game: CPU time of the whole referee process per game; for a local cluster it
  includes Dask's scheduler and the nannies, which live in that process.

Then Dask's own cost per task: empty tasks kept ``slots`` in flight through the same executor.

    python3 scripts/bench_cluster.py [--games 60] [--workers 1,2,4] [--game breakthrough]
"""

from __future__ import annotations

import contextlib
import io
import shlex
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import click  # noqa: E402

from referee.commands.match import MatchSettings, run_match  # noqa: E402
from referee.plan.setup import Setup  # noqa: E402
from referee.plan.time_control import TimeControl  # noqa: E402
from referee.play.entrants import EngineSpec  # noqa: E402
from referee.records.results import FinishedGame  # noqa: E402
from referee.run.observer import RunObserver  # noqa: E402
from referee.stats.summary import Summary  # noqa: E402

INSTANT_ENGINE = " ".join(shlex.quote(word) for word in
                          (sys.executable, str(REPO / "tests" / "referee" / "bad_engine.py")))


class Timer(RunObserver):
    """Wall clock, driver-thread CPU and process CPU at each finished game."""

    def __init__(self) -> None:
        self.marks: list[tuple[float, float, float]] = []
        self.plies = 0

    def game_finished(self, game: FinishedGame, summary: Summary) -> None:
        self.marks.append((time.perf_counter(), time.thread_time(), time.process_time()))
        self.plies += game.result.plies

    def figures(self) -> tuple[float, float, float]:
        """Games per hour, driver-thread and process CPU milliseconds per game (steady state)."""
        (wall0, thread0, process0), (wall1, thread1, process1) = self.marks[0], self.marks[-1]
        games = len(self.marks) - 1
        return (3600 * games / (wall1 - wall0), 1000 * (thread1 - thread0) / games,
                1000 * (process1 - process0) / games)


def timed_run(game: str, games: int, out: Path, concurrency: int = 1,
              cluster: str | None = None) -> Timer:
    """One match of ``games`` games between the instant engines, timed."""
    setup = Setup(game)
    hour = TimeControl(time=3600)
    engines = (EngineSpec(INSTANT_ENGINE, "first", control=hour),
               EngineSpec(INSTANT_ENGINE, "second", control=hour))
    settings = MatchSettings(setup, engines, games, out, seed=1, concurrency=concurrency,
                             cluster=cluster)
    timer = Timer()
    with contextlib.redirect_stdout(io.StringIO()):  # the progress lines
        status = run_match(settings, [timer])
    if status != 0 or len(timer.marks) != games:
        raise click.ClickException(f"the run in {out} did not play every game")
    return timer


def _nothing() -> None:
    """An empty task."""


def task_cost(workers: int, tasks: int) -> tuple[float, int]:
    """Milliseconds of wall time per empty task through a local cluster's executor, and the
    tasks it kept in flight."""
    from referee.run.cluster import connect

    with contextlib.redirect_stdout(io.StringIO()):
        executor = connect(f"local:{workers}")
    try:
        pending: set = set()
        started = time.perf_counter()
        submitted = 0
        while submitted < tasks or pending:
            while submitted < tasks and len(pending) < executor.slots:
                pending.add(executor.submit(_nothing))
                submitted += 1
            pending -= executor.wait(pending, None)
        return 1000 * (time.perf_counter() - started) / tasks, executor.slots
    finally:
        executor.shutdown(cancel=False)


@click.command()
@click.option("--game", default="breakthrough", show_default=True)
@click.option("--games", type=click.IntRange(3), default=60, show_default=True,
              help="Games per run.")
@click.option("--workers", default="1,2,4", show_default=True,
              help="Comma-separated counts of threads / local worker processes.")
@click.option("--tasks", type=click.IntRange(1), default=500, show_default=True,
              help="Empty tasks for Dask's cost per task.")
def main(game: str, games: int, workers: str, tasks: int) -> None:
    """Print games per hour and the driver's CPU per game, threads against local clusters."""
    counts = [int(word) for word in workers.split(",")]
    click.echo(f"{game}, instant engines, {games} games per run")
    click.echo(f"{'executor':<18}{'games/hour':>12}{'driver ms/game':>16}"
               f"{'process ms/game':>17}{'plies/game':>12}")
    with tempfile.TemporaryDirectory() as folder:
        for count in counts:
            for label, options in ((f"threads {count}", {"concurrency": count}),
                                   (f"local:{count}", {"cluster": f"local:{count}"})):
                timer = timed_run(game, games, Path(folder) / label.replace(" ", "-"),
                                  **options)
                rate, driver, process = timer.figures()
                click.echo(f"{label:<18}{rate:>12,.0f}{driver:>16.1f}{process:>17.1f}"
                           f"{timer.plies / len(timer.marks):>12.0f}")
    for count in counts:
        cost, in_flight = task_cost(count, tasks)
        click.echo(f"Dask, empty tasks on local:{count}: {cost:.2f} ms per task "
                   f"({tasks} tasks, {in_flight} in flight)")


if __name__ == "__main__":
    main()
