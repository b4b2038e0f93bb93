"""``olympiad-referee``: engine-versus-engine matches and round robins (SPEC 3.1).

Everything on the command line is checked against the game registry before any engine starts;
bad usage ends with status 2 and a one-line error. A match that runs to the end exits with 0,
whoever won. Progress goes to standard output (a line per finished game, with the running
score) and, on a terminal, a progress bar on standard error.
"""

from __future__ import annotations

import datetime
import random
import shlex
import sys
import threading
from pathlib import Path
from typing import Any

import click

from engine import GameError, find_game
from protocol import __version__

from .game import DEFAULT_COMMAND_TIMEOUT, DEFAULT_MAX_MOVES, Setup, one_line
from .match import Match, ScheduledGame, entrant_names, schedule
from .records import RESULTS_NAME, ResultsFile, SettingsMismatch, check_settings
from .stats import crosstable, format_standings, standings, terminations

PROGRAM = "olympiad-referee"


def parse_size(text: str) -> tuple[int, int]:
    """``N`` or ``COLSxROWS`` as (columns, rows).

    >>> parse_size("7x9"), parse_size("10")
    ((7, 9), (10, 10))
    """
    parts = text.lower().split("x")
    if len(parts) not in (1, 2) or not all(part.isdigit() for part in parts):
        raise click.BadParameter(f"{text!r} is not N or COLSxROWS", param_hint="--boardsize")
    return int(parts[0]), int(parts[-1])


def parse_options(words: tuple[str, ...]) -> dict[str, str]:
    """``KEY=VALUE`` words as a dict (keys in lower case, a later key wins)."""
    options = {}
    for word in words:
        key, equals, value = word.partition("=")
        if not equals or not key or not value:
            raise click.BadParameter(f"{word!r} is not KEY=VALUE", param_hint="--option")
        options[key.lower()] = value
    return options


def check_engines(commands: tuple[str, ...]) -> list[str]:
    """The engine command lines, once each is known to be a non-empty shell-style line."""
    if len(commands) < 2:
        raise click.UsageError(f"at least two --engine options are needed, got {len(commands)}")
    for command in commands:
        try:
            words = shlex.split(command)
        except ValueError as error:
            raise click.BadParameter(f"{command!r}: {error}", param_hint="--engine") from None
        if not words:
            raise click.BadParameter("an empty command", param_hint="--engine")
    return list(commands)


def build_setup(game: str, options: dict[str, str], size: tuple[int, int] | None,
                **limits: Any) -> Setup:
    """The match's :class:`Setup`, after the registry has accepted the game, options and size."""
    try:
        setup = Setup(find_game(game).name, options, size, **limits)
        setup.make_game()
    except GameError as error:
        raise click.UsageError(str(error)) from None
    return setup


def default_out(game: str) -> Path:
    """A new folder named after the game and the date, e.g. ``loa-20261121-2115``."""
    stem = f"{game}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    path, number = Path(stem), 1
    while path.exists():
        number += 1
        path = Path(f"{stem}-{number}")
    return path


class Progress:
    """Live progress: a line per finished game with the running score, and a bar on a terminal."""

    def __init__(self, names: list[str], total: int, rows: list[dict[str, Any]]) -> None:
        self.names = names
        self.total = total
        self.rows = rows
        self.playing = 0
        self.bar = sys.stderr.isatty()
        self._lock = threading.Lock()

    def started(self, game: ScheduledGame) -> None:
        with self._lock:
            self.playing += 1
            self._draw()

    def finished(self, row: dict[str, Any]) -> None:
        with self._lock:
            self.playing -= 1
            self.rows.append(row)
            score = ", ".join(f"{standing.name} {standing.score:g}"
                              for standing in sorted(standings(self.rows, self.names),
                                                     key=lambda standing: standing.index))
            self._clear()
            click.echo(f"[{len(self.rows)}/{self.total}] game {row['game_no']}: "
                       f"{row['black']} (black) vs {row['white']} (white): {row['result']} "
                       f"{row['termination']}, {row['plies']} plies ({row['reason']}) "
                       f"| {score}")
            self._draw()

    def _clear(self) -> None:
        if self.bar:
            click.echo("\r\033[K", nl=False, err=True)

    def _draw(self) -> None:
        if self.bar:
            width = 30
            filled = width * len(self.rows) // max(1, self.total)
            click.echo(f"\r[{'#' * filled}{'.' * (width - filled)}] {len(self.rows)}/{self.total}"
                       f" games, {self.playing} playing", nl=False, err=True)

    def close(self) -> None:
        self._clear()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name=PROGRAM, message="%(prog)s %(version)s")
def cli() -> None:
    """Referee engine-versus-engine games of the Computer Olympiad games."""


@cli.command(context_settings={"max_content_width": 100})
@click.option("--game", required=True,
              help="Game name or alias (see olympiad-engine's list_games).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option, sent to both engines with set_game (repeatable).")
@click.option("--boardsize", metavar="N|COLSxROWS", help="Board size, for games that vary it.")
@click.option("--engine", "engines", multiple=True, metavar="CMD",
              help="Shell-style command line starting an engine (at least two; more: round robin).")
@click.option("--games", type=click.IntRange(1), default=2, show_default=True,
              help="Games per pairing; colours alternate.")
@click.option("--time", "main_time", type=click.FloatRange(0, min_open=True), default=60.0,
              show_default=True, help="Each side's sudden-death clock for a game, in seconds.")
@click.option("--increment", type=click.FloatRange(0), default=0.0, show_default=True,
              help="Seconds added to a side's clock after each of its moves.")
@click.option("--max-moves", type=click.IntRange(1), default=DEFAULT_MAX_MOVES, show_default=True,
              help="Plies after which a game is a draw (termination move_limit).")
@click.option("--concurrency", type=click.IntRange(1), default=1, show_default=True,
              help="Games played at once, each with its own engine processes.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder; an existing one is resumed. Default: GAME-DATE.")
@click.option("--seed", type=int, default=None,
              help="Seed for the schedule and random starts (default: drawn, saved in --out).")
@click.option("--command-timeout", type=click.FloatRange(0, min_open=True),
              default=DEFAULT_COMMAND_TIMEOUT, show_default=True,
              help="Seconds an engine may take to answer a command other than genmove.")
def match(game: str, options: tuple[str, ...], boardsize: str | None, engines: tuple[str, ...],
          games: int, main_time: float, increment: float, max_moves: int, concurrency: int,
          out: Path | None, seed: int | None, command_timeout: float) -> None:
    """Play a match (two engines) or a round robin (more), resuming --out if it exists."""
    size = parse_size(boardsize) if boardsize else None
    commands = check_engines(engines)
    setup = build_setup(game, parse_options(options), size, time=main_time, increment=increment,
                        max_moves=max_moves, command_timeout=command_timeout)
    out = out or default_out(setup.game)
    settings = {"game": setup.game, "options": dict(setup.options),
                "size": list(size) if size else None, "engines": commands, "time": main_time,
                "increment": increment, "max_moves": max_moves, "seed": seed}
    try:
        saved = check_settings(out, settings, {"seed": random.SystemRandom().randrange(1 << 31)})
    except (SettingsMismatch, OSError) as error:
        raise click.UsageError(one_line(str(error), 300)) from None
    planned = schedule(len(commands), games, saved["seed"])
    run_match(setup, commands, planned, out, concurrency, saved["seed"])


def run_match(setup: Setup, commands: list[str], planned: list[ScheduledGame], out: Path,
              concurrency: int, seed: int) -> None:
    """Play what is left of the schedule with progress, then print the standings."""
    results = ResultsFile(out / RESULTS_NAME)
    numbers = {game.game_no for game in planned}
    done = [row for number, row in sorted(results.rows.items()) if number in numbers]
    names = entrant_names(commands)
    progress = Progress(names, len(planned), done)
    runner = Match(setup, commands, planned, out, results, concurrency,
                   on_game=progress.finished, on_start=progress.started)
    resumed = f", resuming after {len(done)} finished" if done else ""
    click.echo(f"{PROGRAM}: {setup.game}, {len(planned)} games{resumed}, seed {seed}, "
               f"results in {out}")
    try:
        runner.run()
    except KeyboardInterrupt:
        runner.abort()
        progress.close()
        click.echo(f"{PROGRAM}: interrupted after {len(progress.rows)} games; "
                   f"run the same command to resume", err=True)
        sys.exit(130)
    finally:
        results.close()
    progress.close()
    click.echo(format_standings(standings(progress.rows, names), terminations(progress.rows)))
    if len(names) > 2:
        click.echo(crosstable(progress.rows, names))


# Subcommands kept in modules of their own, one line each.
from .check import check  # noqa: E402
cli.add_command(check)
from .openings_command import openings  # noqa: E402
cli.add_command(openings)
from .render import render  # noqa: E402
cli.add_command(render)
from .stats.command import stats_command  # noqa: E402
cli.add_command(stats_command)
from .report.commands import report, serve  # noqa: E402
cli.add_command(report)
cli.add_command(serve)


def main(argv: list[str] | None = None) -> None:
    """Run the command line; a usage error is one line on standard error and status 2."""
    try:
        status = cli.main(args=argv, prog_name=PROGRAM, standalone_mode=False)
    except click.UsageError as error:
        if isinstance(error, getattr(click.exceptions, "NoArgsIsHelpError", ())):
            click.echo(error.format_message(), err=True)  # no command at all: the help
        else:
            click.echo(f"{PROGRAM}: error: {one_line(error.format_message(), 300)}", err=True)
        sys.exit(2)
    except click.Abort:
        sys.exit(130)
    sys.exit(status if isinstance(status, int) else 0)


if __name__ == "__main__":
    main()
