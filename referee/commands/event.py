"""``olympiad-referee event EVENT.toml`` (the organiser's server) and ``olympiad-referee
connect URL --token T --engine CMD`` (a participant's client); see ``docs/event.md``.

Exit statuses as for ``match``: 0 when the event is over, 130 after Ctrl-C (the first lets the
games in flight finish, the second stops at once; the same command resumes), 2 for a bad event
file, folder, certificate or address, for a refused login, and for a server certificate the
client does not accept (untrusted, expired, or for another name). SIGHUP (``kill -HUP``) makes
the server load its certificate and key again: a renewed certificate without a restart.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import click

from ..host.client import Client, ClientError
from ..host.event import Event, EventError
from ..host.event_file import EventFileError, read_event
from ..host.hangup import Hangups
from ..records.files import WriteFailed
from ..run.observer import Run
from ..text import one_line
from .match import PROGRAM, interruptible
from .progress import Progress


class EventProgress(Progress):
    """The progress lines, counting a ladder's games against its limit (``games``)."""

    def __init__(self, report_every: int, games: int | None) -> None:
        super().__init__(report_every)
        self.games = games

    def run_started(self, run: Run) -> None:
        super().run_started(run)
        if self.games is not None:
            self.total = self.games


def log_line(text: str) -> None:
    """One line of the server's or the client's log on standard error, with the time."""
    click.echo(f"{datetime.datetime.now():%H:%M:%S} {text}", err=True)


@click.command("event")
@click.argument("event_file", metavar="EVENT.toml",
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--report-every", type=click.IntRange(0), default=0, show_default=True,
              help="Print the summary every N games (0: only at the end).")
def event_command(event_file: Path, report_every: int) -> int:
    """Host an event: referee remote participants' engines, serve the spectators' page."""
    try:
        settings = read_event(event_file)
    except EventFileError as error:
        raise click.UsageError(str(error)) from None
    try:
        ladder_games = settings.games if settings.format == "ladder" else None
        with Event(settings, log_line, [EventProgress(report_every, ladder_games)]) as event, \
                Hangups(event.reload_certificate, log_line):
            click.echo(f"{PROGRAM}: event {settings.name!r}: {settings.setup.game}, "
                       f"{settings.format}, {len(settings.entrants)} participants; "
                       f"participants connect to {event.url}; results in {settings.out}")
            if event.spectators is not None:
                click.echo(f"{PROGRAM}: spectators: {event.spectators.url}")
            with interruptible(event.runner):
                stopped = event.run()
    except EventError as error:
        raise click.UsageError(one_line(str(error), 300)) from None
    except WriteFailed as error:
        click.echo(f"{PROGRAM}: error: {error}", err=True)
        return 1
    if stopped in ("interrupted", "aborted"):
        click.echo(f"{PROGRAM}: event stopped; run the same command to resume", err=True)
        return 130
    return 0


def login_fields(token: str | None, pool: str | None, name: str | None, password: str | None,
                 invitation: str | None) -> dict[str, str]:
    """The ``hello``'s login: a token (an event), or a pool, a name and a password (the
    ladder); raises :class:`click.UsageError` for anything else."""
    ladder = {"pool": pool, "name": name, "password": password}
    if token is not None and pool is None and name is None:
        return {"token": token}
    if token is None and all(value is not None for value in ladder.values()):
        return {**ladder, **({"invitation": invitation} if invitation else {})}
    raise click.UsageError("give --token (an event), or --pool, --name and a password in "
                           "OLYMPIAD_PASSWORD (the ladder)")


@click.command("connect")
@click.argument("url")
@click.option("--token", envvar="OLYMPIAD_EVENT_TOKEN",
              help="At an event: your secret token (or the environment variable "
                   "OLYMPIAD_EVENT_TOKEN).")
@click.option("--pool", help="At the ladder: the pool to join.")
@click.option("--name", help="At the ladder: your account's name (a new name makes the "
                             "account).")
@click.option("--password", envvar="OLYMPIAD_PASSWORD", metavar="TEXT",
              help="At the ladder: your account's password; give it in the environment "
                   "variable OLYMPIAD_PASSWORD rather than here (a command line is seen by "
                   "every user of the machine).")
@click.option("--invitation", envvar="OLYMPIAD_INVITATION",
              help="At the ladder, when registration is closed: the invitation for a new "
                   "account (or OLYMPIAD_INVITATION).")
@click.option("--engine", "engine", required=True, metavar="CMD",
              help="Shell-style command line starting your engine.")
@click.option("--ca", "ca_file", type=click.Path(dir_okay=False, exists=True), default=None,
              help="The organiser's certificate, when it is self-signed.")
@click.option("--plain", is_flag=True,
              help="Allow ws:// to another machine (secrets travel in clear text).")
def connect_command(url: str, token: str | None, pool: str | None, name: str | None,
                    password: str | None, invitation: str | None, engine: str,
                    ca_file: str | None, plain: bool) -> int:
    """Play in an event or at the ladder: run your engine here and relay it to the server."""
    try:
        client = Client(url, login_fields(token, pool, name, password, invitation), engine,
                        ca_file, plain, log_line)
        return client.run()
    except ClientError as error:
        raise click.UsageError(str(error)) from None
    except KeyboardInterrupt:
        return 130
