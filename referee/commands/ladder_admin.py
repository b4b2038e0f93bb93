"""``olympiad-referee ladder admin LADDER.toml COMMAND``: the operator's commands on a ladder's
accounts and database, run beside the server while it serves (see ``docs/ladder.md``).

The service file names the database; each command is one change to it (:mod:`..host.admin`).
Exit statuses: 0 done, 2 for a bad service file or a refused command (one line saying why),
1 when the database cannot be written (a full disk: nothing of the change was kept).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable

import click

from ..host.accounts import Accounts
from ..host.admin import MAX_INVITATIONS, Admin, AdminRefused
from ..host.ladder_file import LadderFileError, read_ladder
from ..records.database import AccountActivity, DatabaseError, DatabaseWriteFailed, LadderDatabase
from .match import PROGRAM


@click.group("admin")
@click.argument("service_file", metavar="LADDER.toml",
                type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.pass_context
def ladder_admin(ctx: click.Context, service_file: Path) -> None:
    """The operator's commands on a ladder's accounts and database, while the server runs."""
    ctx.obj = service_file


def _records() -> LadderDatabase:
    """The database the service file names, open until the command ends."""
    ctx = click.get_current_context()
    try:
        return ctx.with_resource(LadderDatabase(read_ladder(ctx.obj).database))
    except (LadderFileError, DatabaseError) as error:
        raise click.UsageError(str(error)) from None


def _admin() -> Admin:
    records = _records()
    return Admin(records, Accounts(records))


def _refusals(action: Callable[..., None]) -> Callable[..., int]:
    """``action`` with its refusals as one-line usage errors (status 2) and a failed write as
    one line and status 1."""
    @functools.wraps(action)
    def run(*args: Any, **kwargs: Any) -> int:
        try:
            action(*args, **kwargs)
        except AdminRefused as error:
            raise click.UsageError(str(error)) from None
        except DatabaseWriteFailed as error:
            click.echo(f"{PROGRAM}: error: {error}", err=True)
            return 1
        return 0
    return run


@ladder_admin.command()
def accounts() -> None:
    """List every account: games, last seen, created, disabled or merged."""
    listed = _records().accounts()
    names = {each.account.id: each.account.name for each in listed}
    for each in listed:
        click.echo(_account_line(each, names))


def _account_line(each: AccountActivity, names: dict[int, str]) -> str:
    account = each.account
    seen = f"{each.last_seen:%Y-%m-%d %H:%M}" if each.last_seen else "never"
    state = ("merged into " + names[account.merged_into] if account.merged_into
             else "disabled" if account.disabled else "")
    return (f"{account.name:<24} {each.games:>7} games  last seen {seen:<16}  "
            f"created {account.created:%Y-%m-%d}  {state}").rstrip()


@ladder_admin.command()
@click.option("--count", type=click.IntRange(1, MAX_INVITATIONS), default=1, show_default=True,
              help="How many invitations to make.")
@_refusals
def invite(count: int) -> None:
    """Print new invitation tokens, one a line, each for one new account (needed when
    registration is closed; only their hashes are kept)."""
    for token in _admin().invite(count):
        click.echo(token)


@ladder_admin.command()
@click.argument("name")
@_refusals
def disable(name: str) -> None:
    """Refuse an account's logins from now on (its games and ratings stay)."""
    _admin().disable(name)
    click.echo(f"{name} is disabled: its next login is refused")


@ladder_admin.command()
@click.argument("name")
@_refusals
def enable(name: str) -> None:
    """Let a disabled account log in again."""
    _admin().enable(name)
    click.echo(f"{name} is enabled again")


@ladder_admin.command()
@click.argument("name")
@click.argument("new_name", metavar="NEW_NAME")
@_refusals
def rename(name: str, new_name: str) -> None:
    """Give an account a new name (the old one is free again)."""
    _admin().rename(name, new_name)
    click.echo(f"{name} is now called {new_name}")


@ladder_admin.command()
@click.argument("name")
@click.argument("survivor", metavar="INTO")
@_refusals
def merge(name: str, survivor: str) -> None:
    """Merge account NAME into INTO: NAME's games and ratings become INTO's, and NAME logs in
    to INTO, with INTO's password."""
    _admin().merge(name, survivor)
    click.echo(f"{name} is merged into {survivor}")


@ladder_admin.command()
@click.argument("name")
@click.password_option("--password", prompt="New password",
                       help="The new password (asked for when not given).")
@_refusals
def password(name: str, password: str) -> None:
    """Give an account a new password, for an owner who lost theirs."""
    _admin().set_password(name, password)
    click.echo(f"{name} has a new password")


@ladder_admin.command("rotate-tickets")
@_refusals
def rotate_tickets() -> None:
    """End every resume ticket (a new secret signs them): each client logs in with its
    password at its next connection. For a secret that may have leaked (a copy of the
    database)."""
    _admin().rotate_tickets()
    click.echo("every resume ticket has ended: each client logs in with its password at its "
               "next connection")


@ladder_admin.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@_refusals
def backup(path: Path) -> None:
    """Copy the database to PATH while the server runs (SQLite's online backup; PATH is
    replaced only by a whole copy)."""
    _records().backup(path)
    click.echo(f"backed up to {path}")
