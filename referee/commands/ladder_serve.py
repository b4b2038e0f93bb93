"""``olympiad-referee ladder serve LADDER.toml``: the ladder service, until stopped; see
``docs/ladder.md``.

It runs until SIGTERM or Ctrl-C (status 0: the games in progress are aborted, unrated, as a
ladder has no end to wait for); SIGHUP loads the TLS certificate again and the service file's
``registration``. Status 2 for a bad service
file, database, certificate or address; 1 when a pool fails.
"""

from __future__ import annotations

import signal
from pathlib import Path

import click

from ..host.hangup import Hangups
from ..host.ladder import LadderError, LadderService
from ..host.ladder_file import LadderFileError, read_ladder
from ..text import one_line
from .event import log_line
from .match import PROGRAM


@click.command("serve")
@click.argument("service_file", metavar="LADDER.toml",
                type=click.Path(dir_okay=False, path_type=Path))
def serve_command(service_file: Path) -> int:
    """Serve the ladder: every pool on one port, its pages, until stopped.

    LADDER.toml is the service file: the ladder's name and database, where participants
    connect (and the TLS certificate), the pages' port, the pools and the house anchors; its
    keys are in docs/ladder.md. SIGHUP reloads the certificate and the registration.
    """
    try:
        settings = read_ladder(service_file)
    except LadderFileError as error:
        raise click.UsageError(str(error)) from None
    try:
        with LadderService(settings, log_line, service_file) as service:
            pools = ", ".join(pool.name for pool in settings.pools)
            click.echo(f"{PROGRAM}: ladder {settings.name!r}: pools {pools}; participants "
                       f"connect to {service.url}; records in {settings.database}")
            if service.pages is not None:
                click.echo(f"{PROGRAM}: pages: {service.pages.url}")
            previous = {number: signal.signal(number, lambda *_: service.stop_soon())
                        for number in (signal.SIGTERM, signal.SIGINT)}
            try:
                with Hangups(service.reload, log_line):
                    failed = service.wait_until_stopped()
            finally:
                for number, handler in previous.items():
                    signal.signal(number, handler)
    except LadderError as error:
        raise click.UsageError(one_line(str(error), 300)) from None
    click.echo(f"{PROGRAM}: ladder stopped", err=True)
    return 1 if failed else 0
