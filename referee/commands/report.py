"""``olympiad-referee report DIR`` and ``olympiad-referee serve DIR``."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import click

from .. import wakeful
from ..records.folder import RESULTS_NAME, SETTINGS_NAME
from ..report.folder import write_report
from ..report.observers import LiveView
from ..host.report_server import DEFAULT_HOST, DEFAULT_PORT, LiveGames, ReportServer
from ..run.observer import RunObserver
from .arguments import WholeRange

FOLDER = click.Path(exists=True, file_okay=False, path_type=Path)


def check_folder(out: Path) -> None:
    """Refuse, with one line, a folder that no run has written to."""
    if not (out / SETTINGS_NAME).exists() and not (out / RESULTS_NAME).exists():
        raise click.UsageError(f"{out} is not an output folder of olympiad-referee match "
                               f"(no {SETTINGS_NAME} or {RESULTS_NAME})")


def start_server(out: Path, host: str, port: int, live: LiveGames | None = None) -> ReportServer:
    """The report server, or a one-line usage error when the address cannot be bound."""
    try:
        return ReportServer(out, live, host, port)
    except OSError as error:
        raise click.UsageError(f"cannot serve on {host}:{port}: {error.strerror or error} "
                               "(choose another port; 0 picks a free one)") from None


@contextmanager
def serving(out: Path, port: int | None, host: str) -> Iterator[list[RunObserver]]:
    """For ``match --serve``: the live report served while the block runs (the observers to
    give the run); nothing without a port."""
    if port is None:
        yield []
        return
    live = LiveGames()
    server = start_server(out, host, port, live)
    click.echo(f"olympiad-referee: live report at {server.url}", err=True)
    try:
        yield [LiveView(live)]
    finally:
        server.stop()


@click.command()
@click.argument("folder", type=FOLDER)
@click.option("--all-replays", is_flag=True,
              help="Write every game's replay again, not only those missing or written by a "
                   "version whose replays differ.")
def report(folder: Path, all_replays: bool) -> None:
    """Rebuild FOLDER/report.html, its list of games and the replays it lacks, from the
    folder's records."""
    check_folder(folder)
    click.echo(write_report(folder, games="all" if all_replays else "missing"))


@click.command()
@click.argument("folder", type=FOLDER)
@click.option("--port", type=WholeRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Address to listen on (IPv4 or IPv6); 0.0.0.0 or :: exposes the report to "
                   "the network, without a password.")
def serve(folder: Path, port: int, host: str) -> None:
    """Serve FOLDER's report over HTTP until Ctrl-C; the page reloads when a game ends."""
    check_folder(folder)
    write_report(folder)
    server = start_server(folder, host, port)
    click.echo(f"serving {server.url} (Ctrl-C to stop)")
    try:
        wakeful.forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
