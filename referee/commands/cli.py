"""``olympiad-referee``: engine-versus-engine matches, gauntlets and round robins (SPEC 3.1).

Everything on the command line is checked against the game registry before any engine starts;
bad usage ends with status 2 and a one-line error. A match that runs to the end (or to an SPRT
verdict) exits with 0, whoever won; Ctrl-C with 130. Progress goes to standard output: a line
per finished game with the running score, the summary now and then and at the end.
"""

from __future__ import annotations

import datetime
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import click

from engine import COLOUR_NAMES, __version__

from ..plan.openings import ORDERS
from ..plan.setup import DEFAULT_COMMAND_TIMEOUT, DEFAULT_MAX_MOVES, Setup
from ..play.entrants import EngineSpec
from ..play.human import AWAY, HUMAN
from ..records.config import ConfigError, config_words, read_config
from ..host.play_page import MAX_REDRAW, REDRAW
from ..host.report_server import DEFAULT_HOST, DEFAULT_PORT
from ..stats.sprt import SprtError
from ..text import one_line, parse_anchor
from .arguments import (WHOLE, DecimalRange, WholeRange, build_setup, parse_options, parse_size,
                        parse_sprt)
from .adjudication_options import adjudication_from, adjudication_options
from .check import check
from .engine_settings import engine_specs, time_control
from .event import connect_command, event_command
from .ladder import ladder
from .habits import parse_tc, translate
from .match import PROGRAM, MatchSettings, check_programs, run_match
from .openings import openings
from .play import engine_name, play_games, seated
from .render import render
from .report import report, serve, serving
from .stats import stats_command


# The most games one run plays: 10x the largest SPRTs engine testers run, and a plan that
# still fits in memory many times over.
MAX_GAMES = 1_000_000


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


def default_out(game: str) -> Path:
    """A new folder named after the game, the date and the time, e.g. ``loa-20261121-211500``
    (``-2``, ``-3``... when that exists)."""
    stem = f"{game}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    path, number = Path(stem), 1
    while path.exists():
        number += 1
        path = Path(f"{stem}-{number}")
    return path


def clock_options(time: float) -> Callable[[Any], Any]:
    """The clock flags (``--time`` with the default ``time``, ``--increment``,
    ``--byoyomi``, ``--stones``, ``--move-time``), as one decorator for ``match`` and ``play``."""
    options = [
        click.option("--time", type=DecimalRange(0), default=time,
                     show_default=True, help="Each side's main time for a game, in seconds."),
        click.option("--increment", type=DecimalRange(0), default=0.0, show_default=True,
                     help="Seconds added to a side's clock after each of its moves in main "
                          "time."),
        click.option("--byoyomi", type=DecimalRange(0), default=0.0, show_default=True,
                     metavar="SECONDS",
                     help="Canadian byo-yomi after main time: a period's seconds."),
        click.option("--stones", type=WholeRange(0), default=0, show_default=True,
                     help="Moves to play in each byo-yomi period."),
        click.option("--move-time", type=DecimalRange(0, min_open=True), default=None,
                     metavar="SECONDS",
                     help="Fixed time per move, instead of main time and byo-yomi.")]

    def decorate(function: Any) -> Any:
        for option in reversed(options):
            function = option(function)
        return function
    return decorate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name=PROGRAM, message="%(prog)s %(version)s")
def cli() -> None:
    """Referee engine-versus-engine games of the Computer Olympiad games."""


@cli.command(context_settings={"max_content_width": 100})
@click.option("--config", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A TOML file with the run's settings; flags override it.")
@click.option("--game", default=None, help="Game name or alias (see olympiad-engine's list_games).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option, sent to both engines with set_game (repeatable).")
@click.option("--boardsize", metavar="N|COLSxROWS", help="Board size, for games that vary it.")
@click.option("--engine", "engines", multiple=True, metavar="CMD",
              help="Shell-style command line starting an engine (at least two); "
                   "'human' seats a person, who plays in the browser.")
@click.option("--engine-option", "engine_options", multiple=True, metavar="N:KEY=VALUE",
              help="A setting of engine N (1-based): name, dir, init (a command sent after "
                   "start-up), time, increment, byoyomi, stones, move-time (repeatable).")
@click.option("--games", type=WholeRange(1, MAX_GAMES), default=None, metavar="N",
              help="Games per pairing (default 2; with pairs: even); with --sprt the most to "
                   "play. With --rounds: games per round (default 1).")
@click.option("--rounds", type=WholeRange(1, MAX_GAMES), default=None, metavar="N",
              help="As in cutechess and fastchess: each pairing plays N rounds of --games "
                   "games (default 1, with --pairs 2); --games 2 makes each round a pair.")
@click.option("--gauntlet", type=WholeRange(1), default=None, metavar="N",
              help="Each of the first N engines plays every other; the others do not meet.")
@click.option("--pairs", is_flag=True,
              help="Play games in pairs with colours swapped (implied by --openings).")
@click.option("--openings", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="Opening book: a text book, an SGF file or a folder of SGF files.")
@click.option("--opening-plies", type=WholeRange(0), default=None, metavar="N",
              help="Plies taken from each opening (default: all).")
@click.option("--opening-order", type=click.Choice(ORDERS), default="sequential",
              show_default=True, help="Order in which the book's openings are used.")
@click.option("--opening-start", type=WholeRange(1), default=1, show_default=True,
              metavar="K", help="The book's opening (1-based) that the first pair plays.")
@clock_options(time=60.0)
@click.option("--tc", default=None, metavar="SECONDS[+INC]",
              help="The time control as cutechess and fastchess write it (10+0.1, 1:30+1): "
                   "--time and --increment in one.")
@click.option("--time-margin", type=DecimalRange(0), default=0.0, show_default=True,
              metavar="SECONDS", help="Grace before a late move loses on time.")
@click.option("--max-moves", "--adjudicate-move-limit", "max_moves", type=WholeRange(1),
              default=DEFAULT_MAX_MOVES, show_default=True,
              help="Plies after which a game is a draw (termination move_limit).")
@adjudication_options
@click.option("--sprt", default=None, metavar="elo0=A elo1=B [alpha=] [beta=] [model=]",
              help="Stop when the SPRT decides (two engines; model normalized|logistic).")
@click.option("--anchor", default=None, metavar="NAME=ELO",
              help="Rate the engine NAME at ELO in the ratings of three or more engines.")
@click.option("--report-every", type=WholeRange(0), default=0, show_default=True,
              metavar="N", help="Print the summary every N games (0: only at the end).")
@click.option("--concurrency", type=WholeRange(1), default=1, show_default=True,
              help="Games played at once, each with its own engine processes.")
@click.option("--cluster", default=None, metavar="ADDRESS",
              help="Play on a Dask cluster: tcp://HOST:PORT, or local[:N] worker processes.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder; an existing one is resumed. Default: GAME-DATE-TIME, "
                   "e.g. loa-20261121-211500.")
@click.option("--serve", type=WholeRange(0, 65535), is_flag=False, flag_value=DEFAULT_PORT,
              default=None, metavar="[PORT]",
              help=f"Serve the live report on PORT (default {DEFAULT_PORT}) during the run.")
@click.option("--serve-host", default=DEFAULT_HOST, show_default=True, metavar="HOST",
              help="Address --serve listens on (IPv4 or IPv6); 0.0.0.0 or :: exposes it to "
                   "the network.")
@click.option("--seed", type=WHOLE, default=None,
              help="Seed for the schedule and random starts (default: drawn, saved in --out).")
@click.option("--command-timeout", type=DecimalRange(0, min_open=True),
              default=DEFAULT_COMMAND_TIMEOUT, show_default=True,
              help="Seconds an engine may take to answer a command other than genmove "
                   "(beyond 0.05 s, the time is charged to its clock).")
@click.pass_context
def match(ctx: click.Context, config: Path | None, **values: Any) -> int:
    """Play a match (two engines), a round robin or a gauntlet, resuming --out if it exists."""
    if config is not None:
        values = merge_config(ctx, config, values)
    if not values["game"]:
        raise click.UsageError("Missing option '--game'.")
    size = parse_size(values["boardsize"]) if values["boardsize"] else None
    commands = check_engines(values["engines"])
    timing = {"time": values["time"], "increment": values["increment"],
              "byoyomi": values["byoyomi"], "stones": values["stones"],
              "move_time": values["move_time"]}
    if values["tc"] is not None:
        timing.update(_tc(ctx, values["tc"]))
    games, pairs = _games(values["games"], values["rounds"], values["pairs"])
    setup = build_setup(values["game"], parse_options(values["options"]), size,
                        time_margin=values["time_margin"],
                        max_moves=values["max_moves"], command_timeout=values["command_timeout"],
                        adjudication=adjudication_from(values))
    specs = engine_specs(commands, values["engine_options"], timing)
    try:
        sprt = parse_sprt([values["sprt"]]) if values["sprt"] else None
    except SprtError as error:
        raise click.UsageError(str(error)) from None
    settings = MatchSettings(
        setup, specs, games, values["out"] or default_out(setup.game),
        seed=values["seed"], gauntlet=values["gauntlet"] or 0, pairs=pairs,
        book=read_book(values["openings"], setup, values["opening_plies"]),
        opening_plies=values["opening_plies"], opening_order=values["opening_order"],
        opening_start=values["opening_start"], sprt=sprt,
        anchor=_anchor(values["anchor"]),
        concurrency=values["concurrency"],
        cluster=values["cluster"], report_every=values["report_every"])
    if HUMAN in commands:
        if settings.concurrency > 1 or settings.cluster:
            raise click.UsageError("a person (--engine human) plays one game at a time, here: "
                                   "--concurrency 1, no --cluster")
        check_programs(specs)  # before the person is sent to a page
    with serving(settings.out, values["serve"], values["serve_host"]) as observers, \
            seated(specs, 0, True, values["command_timeout"]) as (_, seat_observers, starter):
        return run_match(settings, observers + seat_observers, starter)


@cli.command(context_settings={"max_content_width": 100})
@click.option("--game", required=True, help="Game name or alias.")
@click.option("--engine", required=True, metavar="CMD", help="The engine's command line.")
@click.option("--colour", "--color", "colour", type=click.Choice(COLOUR_NAMES), default="black",
              show_default=True, help="The colour you play in the first game.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option (repeatable).")
@click.option("--boardsize", metavar="N|COLSxROWS", help="Board size, for games that vary it.")
@clock_options(time=600.0)
@click.option("--max-moves", type=WholeRange(1), default=DEFAULT_MAX_MOVES, show_default=True,
              help="Plies after which a game is a draw (termination move_limit).")
@click.option("--name", default=HUMAN, show_default=True, help="Your name in the records.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the records (SGF, results). Default: play-GAME-DATE.")
@click.option("--port", type=WholeRange(0, 65535), default=0, show_default=True,
              help="Port of the page on 127.0.0.1 (0: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the page's address, open no browser.")
@click.option("--away", type=DecimalRange(0), default=AWAY, show_default=True, metavar="SECONDS",
              help="With no page of the game open this long, you resign the game in progress.")
@click.option("--redraw", type=DecimalRange(0.1, MAX_REDRAW), default=REDRAW, show_default=True,
              metavar="SECONDS", help="The page redraws at least this often.")
def play(game: str, engine: str, colour: str, options: tuple[str, ...], boardsize: str | None,
         time: float, increment: float, byoyomi: float, stones: int,
         move_time: float | None, max_moves: int, name: str, out: Path | None, port: int,
         no_browser: bool, away: float, redraw: float) -> int:
    """Play an engine yourself in the browser, refereed and recorded like any game."""
    check_engines((HUMAN, engine))
    control = time_control(time, increment, byoyomi, stones, move_time)
    setup = build_setup(game, parse_options(options), parse_size(boardsize) if boardsize else None,
                        max_moves=max_moves)
    person, machine = EngineSpec(HUMAN, name, control=control), EngineSpec(engine, "",
                                                                          control=control)
    check_programs((person, machine))  # before the person is sent to a page
    machine = replace(machine, name=engine_name(machine, DEFAULT_COMMAND_TIMEOUT))
    if name == machine.name:
        raise click.UsageError(f"--name {name!r} is the engine's name too; choose another")
    engines = (person, machine) if colour == "black" else (machine, person)
    settings = MatchSettings(setup, engines, 1, out or default_out(f"play-{setup.game}"))
    seat = seated(engines, port, not no_browser, offers_new_games=True, away=away, redraw=redraw)
    with seat as (person, observers, starter):
        return play_games(settings, person, observers, starter)


def _games(games: int | None, rounds: int | None, pairs: bool) -> tuple[int, bool]:
    """Games per pairing and whether in pairs: ``--games`` (default 2), or with ``--rounds``
    (cutechess, fastchess) rounds of ``--games`` games (default: 1, or a pair with
    ``--pairs``), a pair when 2."""
    if rounds is None:
        return (2 if games is None else games), pairs
    per_round = games if games is not None else 2 if pairs else 1
    if per_round * rounds > MAX_GAMES:
        raise click.UsageError(f"--rounds {rounds} of {per_round} games: more than {MAX_GAMES} "
                               f"games per pairing")
    return per_round * rounds, pairs or per_round == 2


def _clock_flags(ctx: click.Context) -> list[str]:
    """The clock flags other than ``--tc`` given in ``ctx`` (not left at their defaults)."""
    flags = {"time": "--time", "increment": "--increment", "byoyomi": "--byoyomi",
             "stones": "--stones", "move_time": "--move-time"}
    return [flag for name, flag in flags.items()
            if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT]


def _tc(ctx: click.Context, text: str) -> dict[str, float]:
    """``--tc`` as ``time`` and ``increment``; refused beside another clock flag."""
    clocks = _clock_flags(ctx)
    if clocks:
        raise click.UsageError(f"--tc {text} and {clocks[0]} both set the clock; give one")
    try:
        return parse_tc(text)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--tc") from None


def _anchor(text: str | None) -> tuple[str, float] | None:
    """``--anchor NAME=ELO`` as (name, Elo), or ``None`` when not given."""
    try:
        return parse_anchor(text) if text else None
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--anchor") from None


def read_book(path: Path | None, setup: Setup, plies: int | None) -> list:
    """The openings of ``--openings``, each checked with the run's rules; none without it."""
    if path is None:
        if plies is not None:
            raise click.UsageError("--opening-plies needs --openings")
        return []
    from ..plan.openings import BookError, load_book
    try:
        return load_book(path, setup, plies)
    except BookError as error:
        raise click.UsageError(one_line(str(error), 300)) from None


def merge_config(ctx: click.Context, path: Path, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` from the command line, completed by the config file at ``path`` where a flag
    was not given; engine options add up, unless ``--engine`` replaces the file's engines."""
    try:
        words = config_words(read_config(path))
    except ConfigError as error:
        raise click.UsageError(str(error)) from None
    if "--config" in words:
        raise click.UsageError(f"{path}: a config file cannot name another")
    try:
        file_context = ctx.command.make_context(ctx.info_name, words, parent=ctx.parent)
    except click.UsageError as error:
        raise click.UsageError(f"{path}: {error.format_message()}") from None
    from_file = file_context.params
    if from_file.get("tc") is not None:
        clocks = _clock_flags(file_context)
        if clocks:
            raise click.UsageError(f"{path}: tc and {clocks[0].lstrip('-').replace('-', '_')} "
                                   f"both set the clock; give one")
    given = {name for name in values
             if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT}
    merged = {name: value if name in given else from_file[name] for name, value in values.items()}
    if "engines" not in given and "engine_options" in given:
        merged["engine_options"] = from_file["engine_options"] + values["engine_options"]
    return merged


SPRT_KEYS = ("elo0=", "elo1=", "alpha=", "beta=", "model=")


def join_sprt_words(argv: list[str]) -> list[str]:
    """``--sprt elo0=0 elo1=5`` as fastchess writes it: the words after ``--sprt`` that start
    with an SPRT key become the option's one value.

    >>> join_sprt_words(["--sprt", "elo0=0", "elo1=5", "--games", "8"])
    ['--sprt', 'elo0=0 elo1=5', '--games', '8']
    """
    words: list[str] = []
    for word in argv:
        if (len(words) >= 2 and words[-2] == "--sprt" and word.lower().startswith(SPRT_KEYS)):
            words[-1] += " " + word
        else:
            words.append(word)
    return words


def long_options(command: click.Command) -> dict[str, bool]:
    """The ``--long`` option names of ``command``, each with whether the next word is surely
    its value (not for a flag, nor for an option whose value may be left out: ``--serve``)."""
    return {name: not (param.is_flag or param.count
                       or getattr(param, "_flag_needs_value", False))
            for param in command.params if isinstance(param, click.Option)
            for name in param.opts if name.startswith("--")}


# Subcommands kept in modules of their own.
for command in (check, openings, render, stats_command, report, serve, event_command,
                connect_command, ladder):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """Run the command line; a usage error is one line on standard error and status 2."""
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        if argv[:1] == ["match"]:
            argv[1:] = translate(argv[1:], long_options(match))
        argv = join_sprt_words(argv)
        status = cli.main(args=argv, prog_name=PROGRAM, standalone_mode=False)
    except click.UsageError as error:
        if isinstance(error, getattr(click.exceptions, "NoArgsIsHelpError", ())):
            click.echo(error.format_message(), err=True)  # no command at all: the help
        else:
            click.echo(f"{PROGRAM}: error: {one_line(error.format_message(), 600)}", err=True)
        sys.exit(2)
    except click.Abort:
        sys.exit(130)
    sys.exit(status if isinstance(status, int) else 0)
