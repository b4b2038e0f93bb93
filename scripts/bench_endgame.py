#!/usr/bin/env python3
"""How far the exact endgame solver of Clobber and Domineering reaches (engine.cgt).

    python scripts/bench_endgame.py clobber --sizes 12,16,20,24 --positions 10 --limit 10
    python scripts/bench_endgame.py domineering --sizes 16,20,24,28 --positions 10

Positions come from games between two greedy players that play a random move one time in
three (so that positions vary as in play), taken the first time the regions not yet known to
be worth 0 hold at most SIZE stones (Clobber) or empty squares (Domineering). Each position is
solved by ``Position.solve`` from empty tables (a cold start: in play the tables fill from
earlier moves) within ``--limit`` seconds. The table gives per size the positions solved, the
mean and the longest time, and the largest size at which every position was solved.
"""

from __future__ import annotations

import pathlib
import random
import sys
import time

import click

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import find_game  # noqa: E402
from engine import OutOfBudget  # noqa: E402
from engine.search import Budget  # noqa: E402
from engine.search.baselines import Greedy  # noqa: E402


def open_size(position) -> int:
    """Stones or empty squares in the regions not known to be worth 0."""
    module = sys.modules[type(position).__module__]
    if hasattr(position, "pieces"):
        regions = module.open_regions(*position.pieces, position.tables)
    else:
        regions = module.open_regions(position._empty(), position.tables)
    return sum(region.bit_count() for region, _ in regions)


def sample(game: str, size: int, rng: random.Random):
    """A position of ``game`` from a greedy-and-random game, the first with at most ``size``
    open stones or squares, or ``None`` if the game ended first."""
    position = find_game(game)().initial_position()
    greedy = Greedy(rng.randrange(1 << 30))
    while position.outcome is None:
        if open_size(position) <= size:
            return position
        moves = position.legal_moves()
        move = rng.choice(moves) if rng.random() < 1 / 3 else greedy.choose(position, Budget())
        position.play(move)
    return None


def solve_cold(position, limit: float) -> float | None:
    """Seconds to solve ``position`` from empty tables, or ``None`` past ``limit`` (or past
    the game's own size limit for the solver)."""
    solver = sys.modules[type(position).__module__].SOLVER
    solver.outcomes.clear()
    solver.sums.clear()
    start = time.perf_counter()
    try:
        result = position.solve(lambda: time.perf_counter() - start > limit)
    except OutOfBudget:
        return None
    return None if result is None else time.perf_counter() - start


@click.command()
@click.argument("game", type=click.Choice(["clobber", "domineering"]))
@click.option("--sizes", default="12,16,20,24", show_default=True,
              help="Open stones (Clobber) or empty squares (Domineering) to try.")
@click.option("--positions", type=int, default=10, show_default=True)
@click.option("--limit", type=float, default=10.0, show_default=True,
              help="Seconds allowed per position.")
@click.option("--seed", type=int, default=1, show_default=True)
def main(game, sizes, positions, limit, seed):
    """Solve endgame positions of GAME of growing size and print the table."""
    rng = random.Random(seed)
    click.echo(f"{game}: {positions} positions per size, {limit:g} s each, cold tables\n")
    click.echo("| open cells | solved | mean s | longest s |")
    click.echo("| --- | --- | --- | --- |")
    exact = previous = None
    for size in (int(word) for word in sizes.split(",")):
        times, tried = [], 0
        while tried < positions:
            position = sample(game, size, rng)
            if position is None:
                continue
            tried += 1
            seconds = solve_cold(position, limit)
            if seconds is not None:
                times.append(seconds)
        mean = sum(times) / len(times) if times else float("nan")
        longest = max(times) if times else float("nan")
        click.echo(f"| {size} | {len(times)}/{tried} | {mean:.2f} | {longest:.2f} |")
        if len(times) == tried and exact == previous:
            exact = size
        previous = size
    click.echo(f"\nEvery position of every size up to {exact} open cells solved within "
               f"{limit:g} s.")


if __name__ == "__main__":
    main()
