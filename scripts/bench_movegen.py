#!/usr/bin/env python3
"""Move-generation speed per game: random-playout plies/s and perft nodes/s on one core.

    python scripts/bench_movegen.py              # every game, 3 s each
    python scripts/bench_movegen.py loa --seconds 10

A playout ply is: generate every legal move, pick one at random, play it (with the rule checks
and bookkeeping of a real game). Perft counts leaves from the start position at the deepest
depth that finishes within the time.
"""

from __future__ import annotations

import pathlib
import random
import sys
import time

import click

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine import find_game, game_names  # noqa: E402
from engine.perft import perft  # noqa: E402


def playout_rate(game, seconds: float, seed: int = 1) -> tuple[float, int]:
    """Random-playout plies per second, and how many games were played."""
    rng = random.Random(seed)
    plies = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        position = game.initial_position()
        while position.outcome is None and position.ply < 1000:
            position.play(rng.choice(position.legal_moves()))
        plies += position.ply
        games += 1
    return plies / (time.perf_counter() - started), games


def perft_rate(game, seconds: float) -> tuple[float, int]:
    """Perft leaves per second at the deepest depth that finished within ``seconds``."""
    best_rate, depth = 0.0, 0
    while True:
        started = time.perf_counter()
        nodes = perft(game.initial_position(), depth + 1)
        elapsed = time.perf_counter() - started
        depth += 1
        best_rate = nodes / elapsed if elapsed > 0 else best_rate
        if elapsed > seconds / 4 or depth >= 8:
            return best_rate, depth


@click.command()
@click.argument("games", nargs=-1)
@click.option("--seconds", type=float, default=3.0, show_default=True)
def main(games, seconds):
    """Print playout plies/s and perft nodes/s for GAMES (default: all)."""
    click.echo(f"{'game':<14} {'playout plies/s':>16} {'games':>6} {'perft nodes/s':>14} {'depth':>6}")
    for name in games or game_names():
        game = find_game(name)()
        rate, count = playout_rate(game, seconds)
        nodes, depth = perft_rate(game, seconds)
        click.echo(f"{game.name:<14} {rate:>16,.0f} {count:>6} {nodes:>14,.0f} {depth:>6}")


if __name__ == "__main__":
    main()
