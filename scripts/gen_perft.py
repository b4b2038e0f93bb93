#!/usr/bin/env python3
"""Regenerate the golden perft counts in tests/data/perft/, one JSON file per configuration.

    python scripts/gen_perft.py                 # every registered game, default settings
    python scripts/gen_perft.py breakthrough --depth 4 --size 5x6 --suffix 5x6
    python scripts/gen_perft.py laocoon --option variant=quick --suffix quick
    python scripts/gen_perft.py kolem --moves "c3 c4 ..." --suffix phase2

Each file holds the game, its options and size, the opening moves played before counting (to
reach a later phase), and the counts for depths 1..N; the test ``tests/test_perft.py`` replays
every file. Run it after a deliberate change to a move generator, and explain the change of
counts in the commit.
"""

from __future__ import annotations

import json
import pathlib
import sys
import time

import click

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine import find_game, game_names  # noqa: E402
from engine.perft import perft  # noqa: E402

DATA = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "perft"


@click.command()
@click.argument("games", nargs=-1)
@click.option("--depth", type=int, default=3, show_default=True, help="Deepest count to store.")
@click.option("--option", "options", multiple=True, help="Game option KEY=VALUE.")
@click.option("--size", default=None, help="Board size COLSxROWS.")
@click.option("--suffix", default="", help="File name suffix for a non-default configuration.")
@click.option("--moves", default="", help="Space-separated moves played before counting.")
def main(games, depth, options, size, suffix, moves):
    """Write tests/data/perft/<game>[-<suffix>].json for GAMES (default: all)."""
    DATA.mkdir(parents=True, exist_ok=True)
    settings = dict(option.split("=", 1) for option in options)
    board = tuple(int(n) for n in size.lower().split("x")) if size else None
    for name in games or game_names():
        game = find_game(name)(settings, board)
        opening = moves.split()
        counts = []
        for d in range(1, depth + 1):
            started = time.perf_counter()
            counts.append(perft(game.position_after(opening), d))
            click.echo(f"{game.name} depth {d}: {counts[-1]} "
                       f"({time.perf_counter() - started:.1f} s)")
        record = {"game": game.name, "options": settings,
                  "size": list(board) if board else None, "counts": counts}
        if opening:
            record["moves"] = opening
        path = DATA / f"{game.name}{'-' + suffix if suffix else ''}.json"
        path.write_text(json.dumps(record, indent=1) + "\n")
        click.echo(f"wrote {path}")


if __name__ == "__main__":
    main()
