"""The referee's bookkeeping per game over a long run: does game 100,000 cost what game 1,000 did?

A whole run through the real :class:`~referee.run.runner.Runner`, in this process, between two
in-process random movers (no pipes, no processes) on a small board, so that what is measured
is the referee: its rules check and clocks, the SGF file and results row of every game (each
flushed to the disk), the summary rewritten after every game, the report's replay, games list
and page, and the progress line (sent nowhere). Printed for each window of games: the
referee's wall time per game and CPU time per game (this process's: the referee and the two
in-process movers), the CPU time of the bookkeeping alone (writing each finished game: SGF,
results row, tally, summary, report, progress; the part that could grow with the run) and the
process's resident memory at the window's end; then what a resume of the finished folder costs
before its first game (reading the results for the tally and the report), the time
``olympiad-referee report`` takes to rebuild the folder's page (replays already written) and to
rebuild it all (every replay too), and the peak resident memory after the run and after those.

The output folder goes to ``/dev/shm`` where it exists, so that the disk's own speed does not
hide the referee's (fsync on a RAM disk returns at once); give ``--out`` to measure a disk.

    python3 scripts/bench_run_cost.py [--games 100000] [--game domineering --size 3x3]
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import click  # noqa: E402

from engine.search import Player  # noqa: E402
from protocol.cli import build_engine  # noqa: E402
from referee.commands.progress import Progress  # noqa: E402
from referee.plan.schedule import plan  # noqa: E402
from referee.plan.setup import Setup  # noqa: E402
from referee.plan.time_control import TimeControl  # noqa: E402
from referee.play.channel import InProcessChannel  # noqa: E402
from referee.play.entrants import EngineSpec  # noqa: E402
from referee.play.seats import LocalSeating  # noqa: E402
from referee.records.folder import RESULTS_NAME, ResultsFile  # noqa: E402
from referee.records.results import FinishedGame  # noqa: E402
from referee.report.folder import write_report  # noqa: E402
from referee.report.observers import ReportWriter  # noqa: E402
from referee.run.executor import ThreadExecutor  # noqa: E402
from referee.run.observer import Observers, Run, RunObserver  # noqa: E402
from referee.run.records import FolderRecords  # noqa: E402
from referee.run.runner import Runner  # noqa: E402
from referee.stats.summary import Summary  # noqa: E402


class Windows(RunObserver):
    """Notes the wall time, CPU time, bookkeeping time and resident memory at the end of every
    ``width`` games."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.bookkeeping = 0.0  # CPU seconds spent writing finished games (Runner._write)
        self.marks: list[tuple[int, float, float, float, float]] = []

    def timed(self, write: Callable[[Any], None]) -> Callable[[Any], None]:
        """``write``, adding the thread's CPU time it takes to :attr:`bookkeeping`."""
        def timed_write(game: Any) -> None:
            began = time.thread_time()
            write(game)
            self.bookkeeping += time.thread_time() - began
        return timed_write

    def mark(self, games: int) -> None:
        self.marks.append((games, time.perf_counter(), time.process_time(), self.bookkeeping,
                           resident_mib()))

    def run_started(self, run: Run) -> None:
        self.mark(0)

    def game_finished(self, game: FinishedGame, summary: Summary) -> None:
        if summary.games % self.width == 0:
            self.mark(summary.games)


def resident_mib() -> float:
    """This process's resident memory now (Linux), in MiB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mib() -> float:
    """This process's peak resident memory so far (Linux), in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def random_mover(spec: EngineSpec) -> InProcessChannel:
    return InProcessChannel(build_engine(Player(algorithm="random", seed=1)).respond, spec.command)


@click.command()
@click.option("--games", type=click.IntRange(100), default=100_000, show_default=True)
@click.option("--window", type=click.IntRange(10), default=1000, show_default=True,
              help="Games per line of the table.")
@click.option("--game", default="domineering", show_default=True)
@click.option("--size", default="3x3", show_default=True, help="Board size, COLSxROWS.")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Output folder (default: a new folder in /dev/shm, removed at the end).")
def main(games: int, window: int, game: str, size: str, out: Path | None) -> None:
    """Print the referee's time and memory per window of games over one long run."""
    cols, rows = (int(part) for part in size.lower().split("x"))
    folder = out or Path(tempfile.mkdtemp(prefix="bench-run-",
                                          dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    folder.mkdir(parents=True, exist_ok=True)
    setup = Setup(game, size=(cols, rows))
    engines = (EngineSpec("a", "random-a", control=TimeControl(3600)),
               EngineSpec("b", "random-b", control=TimeControl(3600)))
    run = Run(setup, engines, plan(2, games, seed=1), folder, seed=1)
    windows = Windows(window)
    results = ResultsFile(folder / RESULTS_NAME)
    progress = Progress(echo=lambda line: None)
    runner = Runner(run, ThreadExecutor(1), FolderRecords(run, results),
                    Observers([windows, progress, ReportWriter()]),
                    LocalSeating(engines, random_mover))
    runner._write = windows.timed(runner._write)  # type: ignore[method-assign]
    runner.execute()
    results.close()
    click.echo(f"{game} {cols}x{rows}: {games} games between two in-process random movers, "
               f"folder {folder}")
    click.echo(f"{'games':>15}  {'wall ms/game':>12}  {'CPU ms/game':>11}  "
               f"{'bookkeeping':>11}  {'resident MiB':>12}")
    for (start, wall, cpu, kept, _), (end, wall_end, cpu_end, kept_end, mib) in zip(
            windows.marks, windows.marks[1:]):
        games_in = end - start
        click.echo(f"{start + 1:>7}-{end:<7}  {1000 * (wall_end - wall) / games_in:12.3f}  "
                   f"{1000 * (cpu_end - cpu) / games_in:11.3f}  "
                   f"{1000 * (kept_end - kept) / games_in:11.3f}  {mib:12.1f}")
    click.echo(f"peak resident memory, the run:          {peak_mib():6.1f} MiB")
    began = time.perf_counter()
    again = Run(setup, engines, run.planned, folder, seed=1)
    kept = ResultsFile(folder / RESULTS_NAME)
    resumed = Runner(again, ThreadExecutor(1), FolderRecords(again, kept), ReportWriter(),
                     LocalSeating(engines, random_mover))
    resumed.observer.run_started(resumed.run)
    kept.close()
    click.echo(f"resume (tally, report) before a game:   {time.perf_counter() - began:6.1f} s")
    began = time.perf_counter()
    write_report(folder)
    click.echo(f"report (replays kept):                  {time.perf_counter() - began:6.1f} s")
    began = time.perf_counter()
    write_report(folder, games="all")
    click.echo(f"report (every replay):                  {time.perf_counter() - began:6.1f} s")
    click.echo(f"peak resident memory, then:             {peak_mib():6.1f} MiB")
    if out is None:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
