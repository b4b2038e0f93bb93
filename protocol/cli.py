"""``olympiad-engine``: the engine process, serving GTP on standard input and output.

The engine needs nothing beyond the standard library, so that it runs on any Python 3.9 or
newer, PyPy among them, without installing anything there: ``--interpreter pypy3`` starts the
same engine again under PyPy, found through ``PYTHONPATH`` (see docs/pypy.md).
"""

from __future__ import annotations

import argparse
import io
import os
import pathlib
import shutil
import sys

from engine import GameError, __version__, find_game
from engine.search import Player
from engine.search.player import ALGORITHMS

from .gtp import GtpEngine
from .session import GameSession, engine_name

PROGRAM = "olympiad-engine"
# The folder holding the ``engine`` and ``protocol`` packages: what another interpreter needs
# on its path to run this engine.
SOURCE_ROOT = pathlib.Path(__file__).resolve().parent.parent


def build_engine(player: Player, game: str = "loa") -> GtpEngine:
    """A GTP engine serving every registered game with ``player``."""
    engine = GtpEngine()
    GameSession(player, game, __version__, engine_name(player.algorithm)).register(engine)
    return engine


def _bounded_int(low: int, high: int | None = None):
    """An argparse type: an integer in ``low..high`` (no upper bound when ``high`` is None)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < low or (high is not None and value > high):
            expected = f"{low}..{high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{value} is not in the range {expected}")
        return value
    return parse


def _seconds(text: str) -> float:
    """An argparse type: a number of seconds, at least 0.01."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value >= 0.01:
        raise argparse.ArgumentTypeError(f"{text} is less than 0.01 s")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line usage error (what was wrong, and where to look)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    """The engine's command line."""
    options = _Parser(
        prog=PROGRAM, description="Play Computer Olympiad games over GTP on standard input and "
        "output.", allow_abbrev=False)  # whole option names: --interpreter must be found
    options.add_argument("--version", action="version", version=f"{PROGRAM} {__version__}")
    options.add_argument("--game", default="loa",
                         help="game selected at start-up (set_game changes it; default: loa)")
    options.add_argument("--seed", type=int, default=None,
                         help="random seed: with --depth or --playouts, play is reproducible")
    options.add_argument("--depth", type=_bounded_int(1, 64), default=None,
                         help="fixed alpha-beta depth per move instead of the clock")
    options.add_argument("--playouts", type=_bounded_int(1), default=None,
                         help="fixed MCTS playouts per move instead of the clock")
    options.add_argument("--move-time", type=_seconds, default=1.0,
                         help="seconds per move when no time limit is set (default: 1)")
    options.add_argument("--algorithm", choices=ALGORITHMS, default="auto",
                         help="search: auto (the default) is alpha-beta where the game has an "
                         "evaluation, else MCTS; random, greedy and uct are the fixed baselines")
    options.add_argument("--interpreter", metavar="PROGRAM", default=None,
                         help="run the engine under another Python, e.g. pypy3 (faster; "
                         "nothing needs installing there)")
    return options


def run_under(interpreter: str, arguments: list[str]) -> None:
    """Replace this process by the engine running under ``interpreter`` with ``arguments``.

    Only an error returns: the interpreter was not found or could not be started.
    """
    program = shutil.which(interpreter)
    if program is None:
        raise OSError(f"no interpreter {interpreter!r} on PATH (expected e.g. pypy3 or python3)")
    environment = dict(os.environ)
    path = [str(SOURCE_ROOT), *filter(None, environment.get("PYTHONPATH", "").split(os.pathsep))]
    environment["PYTHONPATH"] = os.pathsep.join(path)
    sys.stdout.flush()
    os.execve(program, [program, "-m", "protocol.cli", *arguments], environment)


def _without_interpreter(arguments: list[str]) -> list[str]:
    """``arguments`` less the ``--interpreter`` option, so that the new process stays put."""
    kept, skip = [], False
    for argument in arguments:
        if skip:
            skip = False
        elif argument == "--interpreter":
            skip = True
        elif not argument.startswith("--interpreter="):
            kept.append(argument)
    return kept


def main(arguments: list[str] | None = None) -> None:
    """Parse the command line and serve GTP until ``quit`` or the end of the input."""
    arguments = sys.argv[1:] if arguments is None else list(arguments)
    options = parser()
    chosen = options.parse_args(arguments)
    try:
        game = find_game(chosen.game).name
    except GameError as error:
        options.error(f"argument --game: {error}")
    if chosen.interpreter is not None:
        try:
            run_under(chosen.interpreter, _without_interpreter(arguments))
        except OSError as error:
            options.error(f"argument --interpreter: {error}")
    try:
        player = Player(depth=chosen.depth, playouts=chosen.playouts, seed=chosen.seed,
                        move_time=chosen.move_time, algorithm=chosen.algorithm)
    except ValueError as error:
        options.error(str(error))
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="\n")
    build_engine(player, game).serve(stdin, sys.stdout)


if __name__ == "__main__":
    main()
