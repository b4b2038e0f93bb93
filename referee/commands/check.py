"""``olympiad-referee check``: the compliance check (:mod:`referee.play.compliance`) of one
engine, one line per check; status 0 only when every check passes."""

from __future__ import annotations

import click

from engine import GameError, find_game

from ..play.compliance import ANSWER_SECONDS, Checker, skipped_lines
from .arguments import WHOLE, DecimalRange


@click.command(context_settings={"max_content_width": 100})
@click.option("--engine", "command", required=True, metavar="CMD",
              help="Shell-style command line starting the engine to check.")
@click.option("--game", "games", multiple=True, metavar="NAME",
              help="Check only these games (repeatable); default: every game the engine lists.")
@click.option("--seed", type=WHOLE, default=1, show_default=True,
              help="Seed for the random moves of the checks.")
@click.option("--command-timeout", type=DecimalRange(0, min_open=True), default=ANSWER_SECONDS,
              show_default=True, metavar="SECONDS",
              help="Seconds the engine may take to answer a command other than genmove.")
def check(command: str, games: tuple[str, ...], seed: int, command_timeout: float) -> int:
    """Check that an engine follows the protocol and the rules; one line per check."""
    for name in games:
        try:
            find_game(name)
        except GameError as error:
            raise click.BadParameter(str(error), param_hint="--game") from None
    failed = total = 0
    checker = Checker(command, games, seed, command_timeout)
    for result in checker.run():
        total += 1
        failed += not result.passed
        click.echo(str(result))
    for line in skipped_lines(checker.skipped):
        click.echo(line)
    stopped = ", stopped at a fatal failure" if checker.fatal else ""
    click.echo(f"{total} checks, {failed} failed{stopped}")
    return 1 if failed else 0
