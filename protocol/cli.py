"""``olympiad-engine``: the engine process, serving GTP on standard input and output."""

from __future__ import annotations

import io
import sys

import click

from engine import GameError, find_game
from engine.search import Player
from engine.search.player import ALGORITHMS

from . import __version__
from .gtp import GtpEngine
from .session import GameSession


def build_engine(player: Player, game: str = "loa") -> GtpEngine:
    """A GTP engine serving every registered game with ``player``."""
    engine = GtpEngine()
    GameSession(player, game, __version__).register(engine)
    return engine


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="olympiad-engine", message="%(prog)s %(version)s")
@click.option("--game", default="loa", show_default=True,
              help="Game selected at start-up (set_game changes it).")
@click.option("--seed", type=int, default=None, help="Random seed: with --depth or --playouts, "
              "play is reproducible.")
@click.option("--depth", type=click.IntRange(1, 64), default=None,
              help="Fixed alpha-beta depth per move instead of the clock.")
@click.option("--playouts", type=click.IntRange(1), default=None,
              help="Fixed MCTS playouts per move instead of the clock.")
@click.option("--move-time", type=click.FloatRange(0.01), default=1.0, show_default=True,
              help="Seconds per move when no time limit is set.")
@click.option("--algorithm", type=click.Choice(ALGORITHMS), default="auto", show_default=True,
              help="Search: auto is alpha-beta where the game has an evaluation, else MCTS; "
              "random, greedy and uct are the fixed baselines.")
def main(game: str, seed: int | None, depth: int | None, playouts: int | None,
         move_time: float, algorithm: str) -> None:
    """Play Computer Olympiad games over GTP on standard input and output."""
    try:
        game = find_game(game).name
    except GameError as error:
        raise click.BadParameter(str(error), param_hint="--game") from None
    player = Player(depth=depth, playouts=playouts, seed=seed, move_time=move_time,
                    algorithm=algorithm)
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="\n")
    build_engine(player, game).serve(stdin, sys.stdout)


if __name__ == "__main__":
    main()
