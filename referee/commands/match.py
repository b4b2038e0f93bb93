"""``olympiad-referee match`` from checked settings to a finished, stopped or refused run.

Everything that can be checked is checked before the output folder is touched: the game and
its options (by the command line), the engines' settings and time controls, that every
engine's program can be started at all, the opening book (each opening played through with
the referee's rules), the plan. Then the folder is locked (a second referee on it is refused,
:func:`referee.records.lock_folder`), its saved settings compared with these (a resume under
other settings is refused), and the runner plays what is left.

Exit statuses: 0 when the run ended (every game played, or an SPRT verdict); 130 when stopped
by Ctrl-C (the first drains, the second stops at once); 1 when the executor cannot go on (a
cluster's scheduler gone: one line, the finished games kept for a resume); usage errors are
raised as :class:`click.UsageError` (status 2, one line).
"""

from __future__ import annotations

import os
import shlex
import signal
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator, Sequence

import click

from ..inbound import printable
from ..plan.schedule import plan
from ..plan.setup import Opening, Setup
from ..plan.time_control import describe_clocks
from ..play.entrants import (
    EngineSetupError,
    EngineSpec,
    Starter,
    cannot_start,
    own_name,
    unique_names,
    versioned_names,
)
from ..play.human import HUMAN
from ..records.files import FolderRefused, WriteFailed
from ..records.folder import RESULTS_NAME, FolderBusy, ResultsFile, lock_folder
from ..records.settings import SettingsMismatch
from ..report.observers import ReportWriter
from ..run.executor import Executor, ExecutorError, ThreadExecutor, local_workers
from ..run.observer import Observers, Run, RunObserver
from ..run.records import FolderRecords
from ..play.seats import LocalSeating
from ..run.runner import Runner
from ..run.settings import Book, RunSettings
from ..stats import SprtSettings
from ..text import one_line
from .progress import Progress, ProgressBar

PROGRAM = "olympiad-referee"


@dataclass
class MatchSettings:
    """A match as the command line (and config file) gave it, every part already checked
    except what :func:`run_match` checks itself (programs, plan, folder)."""

    setup: Setup
    engines: tuple[EngineSpec, ...]
    games: int
    out: Path
    seed: int | None = None
    gauntlet: int = 0
    pairs: bool = False
    book: list[Opening] = field(default_factory=list)
    opening_plies: int | None = None
    opening_order: str = "sequential"
    opening_start: int = 1
    sprt: SprtSettings | None = None
    anchor: tuple[str, float] | None = None
    concurrency: int = 1
    cluster: str | None = None
    report_every: int = 0

    @property
    def paired(self) -> bool:
        """Whether games are played in pairs (``--pairs``, or implied by an opening book)."""
        return self.pairs or bool(self.book)

    def run_settings(self) -> RunSettings:
        """What ``match.json`` keeps of this match."""
        book = (Book.of(self.book, self.opening_plies, self.opening_order, self.opening_start)
                if self.book else None)
        return RunSettings(self.setup, self.engines, self.gauntlet, self.paired, book,
                           self.sprt, self.anchor, self.seed)


def check_programs(engines: Sequence[EngineSpec]) -> None:
    """Refuse the run when an engine's program cannot be started at all."""
    for index, spec in enumerate(engines, 1):
        why = None if spec.command == HUMAN else cannot_start(spec)
        if why:
            raise click.UsageError(f"engine {index} ({spec.name or spec.command}) cannot start: "
                                   f"{why}")


def name_engines(engines: Sequence[EngineSpec], saved: Sequence[EngineSpec],
                 timeout: float) -> tuple[EngineSpec, ...]:
    """The engines, each given a display name: its own ``name`` setting; else, resuming, the
    name the folder's settings (``saved``) gave the same command at the same place; else what
    the engine calls itself (``name``, and ``version`` where it tells two apart:
    :func:`~referee.play.entrants.versioned_names`), else its program's file name; made unique
    (:func:`~referee.play.entrants.unique_names`). The program's path is kept out of names: the
    served report shows them. Names reach the terminal, the records and the page, so they are
    made printable (:func:`~referee.inbound.printable`) whatever the command line held."""
    engines = [replace(spec, name=printable(spec.name)) for spec in engines]

    def asked(index: int, spec: EngineSpec) -> tuple[str, str] | str:
        earlier = saved[index] if index < len(saved) else None
        if earlier is not None and earlier.command == spec.command and earlier.name:
            return earlier.name
        return own_name(spec, timeout) or (program_name(spec.command), "")

    unnamed = [index for index, spec in enumerate(engines) if not spec.name]
    with ThreadPoolExecutor(max(1, min(8, len(unnamed)))) as pool:
        answers = dict(zip(unnamed, pool.map(lambda index: asked(index, engines[index]),
                                             unnamed)))
    fresh = [index for index in unnamed if isinstance(answers[index], tuple)]
    for index, name in zip(fresh, versioned_names([answers[index] for index in fresh])):
        answers[index] = name
    names = [spec.name or answers[index] for index, spec in enumerate(engines)]
    unique = [printable(name) for name in unique_names(names, [spec.command for spec in engines])]
    final = [spec.name or unique[index] for index, spec in enumerate(engines)]
    for index, name in enumerate(final):
        if final.count(name) > 1:  # an asked name met a given one: number the asked one
            final[index] = name if engines[index].name else f"{name} #{index + 1}"
    return tuple(replace(spec, name=name) for spec, name in zip(engines, final))


def program_name(command: str) -> str:
    """The file name of a command's program: ``/home/a/bin/engine --x`` is ``engine``."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    return os.path.basename(words[0]) if words else "engine"


def make_executor(settings: MatchSettings) -> Executor:
    """Local threads, or the Dask cluster of ``--cluster`` (imported only then)."""
    if settings.cluster is None:
        return ThreadExecutor(settings.concurrency)
    try:
        from ..run.cluster import ClusterError, connect
    except ImportError as error:
        raise click.UsageError(f"--cluster needs Dask ({error}); install the cluster extra "
                               f"from this project's checkout: pip install -e '.[cluster]'"
                               ) from None
    try:
        return connect(settings.cluster)
    except ClusterError as error:
        raise click.UsageError(str(error)) from None


@contextmanager
def interruptible(runner: Runner) -> Iterator[None]:
    """Ctrl-C tells ``runner`` to drain, a second one to stop at once (main thread only)."""
    def on_interrupt(signum: int, frame: Any) -> None:
        runner.interrupt()
        message = ("stopping: no new games, those in flight finish (Ctrl-C again to stop now)"
                   if runner.interrupts == 1 else "stopping now")
        os.write(2, f"{PROGRAM}: {message}\n".encode())

    try:
        previous = signal.signal(signal.SIGINT, on_interrupt)
    except ValueError:  # not the main thread: Ctrl-C stays a KeyboardInterrupt
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_match(settings: MatchSettings, observers: Sequence[RunObserver] = (),
              starter: Starter | None = None) -> int:
    """Check, lock, plan and play; return the exit status (see the module docstring).
    ``starter`` starts the engines instead of :func:`~referee.play.entrants.start_engine` (a
    person's seat, :mod:`.play`)."""
    if settings.cluster is None or settings.cluster.startswith("local"):
        check_programs(settings.engines)
    if settings.sprt is not None and len(settings.engines) != 2:
        raise click.UsageError(f"--sprt tests two engines, not {len(settings.engines)}")

    def planned_with(seed: int) -> list:
        try:
            return plan(len(settings.engines), settings.games, seed, gauntlet=settings.gauntlet,
                        paired=settings.pairs, openings=settings.book,
                        order=settings.opening_order, start=settings.opening_start)
        except ValueError as error:
            raise click.UsageError(str(error)) from None

    planned_with(0)  # refuse a bad plan, or a bad cluster address, before the folder is touched
    try:
        local_workers(settings.cluster or "", os.cpu_count() or 1)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    try:
        lock = lock_folder(settings.out)
    except (FolderBusy, FolderRefused) as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"{settings.out}: {error.strerror or error}") from None
    try:
        try:
            earlier = RunSettings.read(settings.out)
            settings = replace(settings, engines=name_engines(
                settings.engines, earlier.engines if earlier else (),
                settings.setup.command_timeout))
            names = [spec.name for spec in settings.engines]
            if settings.anchor is not None and settings.anchor[0] not in names:
                raise click.UsageError(f"--anchor {settings.anchor[0]!r} is not an engine's "
                                       f"name (names: {', '.join(names)})")
            saved = settings.run_settings().checked(settings.out)
        except SettingsMismatch as error:
            raise click.UsageError(one_line(str(error), 600)) from None
        settings = replace(
            settings, setup=replace(settings.setup, adjudication=saved.setup.adjudication),
            sprt=saved.sprt, anchor=saved.anchor)
        return _play(settings, planned_with(saved.seed), saved.seed, observers, starter)
    except WriteFailed as error:
        click.echo(f"{PROGRAM}: error: {error}", err=True)
        return 1
    finally:
        lock.close()


def _play(settings: MatchSettings, planned: list, seed: int,
          observers: Sequence[RunObserver], starter: Starter | None = None) -> int:
    executor = make_executor(settings)
    results = ResultsFile(settings.out / RESULTS_NAME)
    if results.unreadable:
        lines = ", ".join(map(str, results.unreadable))
        click.echo(f"{PROGRAM}: {results.path}: line(s) {lines} hold no game's result; they are "
                   f"kept in the file and their games, if any, are played again", err=True)
    try:
        run = Run(settings.setup, settings.engines, planned, settings.out, seed, settings.sprt,
                  settings.anchor, settings.gauntlet)
        runner = Runner(run, executor, FolderRecords(run, results),
                        Observers([Progress(settings.report_every), ProgressBar(), ReportWriter(),
                                   *observers]),
                        LocalSeating(settings.engines, starter, settings.setup.command_timeout))
        done = run.tally.games
        resumed = f", resuming after {done} finished" if done else ""
        if done > len(planned):
            click.echo(f"{PROGRAM}: note: {settings.out} holds {done} finished games, more than "
                       f"the {len(planned)} asked for: none is played, and the summary covers "
                       f"all {done}", err=True)
        form = " in pairs" if settings.paired else ""
        clocks = describe_clocks([(spec.name, spec.control) for spec in settings.engines])
        click.echo(f"{PROGRAM}: {settings.setup.game}, {len(planned)} games{form}{resumed}, "
                   f"{clocks}, seed {seed}, results in {settings.out}")
        with interruptible(runner):
            try:
                stopped = runner.execute()
            except EngineSetupError as error:
                raise click.UsageError(str(error)) from None
            except ExecutorError as error:
                click.echo(f"{PROGRAM}: error: {one_line(str(error), 300)}", err=True)
                return 1
    finally:
        results.close()
    if stopped in ("interrupted", "aborted"):
        click.echo(f"{PROGRAM}: interrupted after {run.tally.games} games; run the same command "
                   f"to resume", err=True)
        return 130
    return 0
