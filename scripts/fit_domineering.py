"""Fit Domineering's evaluation weights to positions the exact solver has decided.

Positions come from games between a shallow alpha-beta and random moves, stopped at 34 to 42
open squares (squares in regions not known to be worth 0), where the solver decides most of
them within seconds and where the search's leaves lie in the middle game. For each one the
evaluation's features are taken from the side to move (places, capacity, safe moves and won
regions, each the mover's less the opponent's); a logistic regression on half of the positions
gives the weights, and the other half says how often each set of weights predicts the winner:

    python scripts/fit_domineering.py --positions 400 --cache /tmp/domineering-solved.json

The weights in ``engine/games/domineering.py`` are the fitted ones, in tenths of a move.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the fitting, shared

from engine import BLACK, find_game  # noqa: E402
from engine.core import OutOfBudget  # noqa: E402
from engine.games import domineering  # noqa: E402
from engine.search.alphabeta import AlphaBeta  # noqa: E402
from engine.search.budget import Budget  # noqa: E402
from logistic import fit, measures  # noqa: E402

FEATURES = ("places", "capacity", "safe", "won regions")


def open_squares(position) -> int:
    """The empty squares in regions not known to be worth 0."""
    empty, _ = domineering.open_summary(domineering.open_regions(position._empty(),
                                                                 position.tables))
    return empty.bit_count()


def solved_positions(count: int, seed: int, seconds: float) -> list[dict]:
    """``count`` positions of 34 to 42 open squares with the side to move's exact result."""
    rng = random.Random(seed)
    game = find_game("domineering")()
    found = []
    while len(found) < count:
        position = game.initial_position()
        search = AlphaBeta(rng.randrange(1 << 30))
        stop_at = rng.randint(34, 42)
        noise = rng.choice((0.1, 0.3, 0.6))
        while position.outcome is None and open_squares(position) > stop_at:
            if rng.random() < noise:
                move = rng.choice(position.legal_moves())
            else:
                move = search.choose(position, Budget(depth=2))
            position.play(move)
        if position.outcome is not None:
            continue
        deadline = time.monotonic() + seconds
        try:
            wins = position.solve(lambda deadline=deadline: time.monotonic() > deadline)
        except OutOfBudget:  # not solved within ``seconds``: drawn again
            continue
        if wins is None:
            continue
        black, white = position.covered
        found.append({"black": black, "white": white, "to_move": position.to_move, "wins": wins})
        click.echo(f"\r{len(found)}/{count} solved", nl=False, err=True)
    click.echo(err=True)
    return found


def features(row: dict, game) -> list[int]:
    """The evaluation's features of a stored position of ``game``, from the side to move."""
    position = domineering.DomineeringPosition(game, row["black"], row["white"], row["to_move"])
    empty, won = domineering.open_summary(domineering.open_regions(position._empty(),
                                                                   position.tables))
    places, capacity, safe = domineering.counts(empty, position.tables)
    sign = 1 if position.to_move == BLACK else -1
    return [sign * (places[0] - places[1]), sign * (capacity[0] - capacity[1]),
            sign * (safe[0] - safe[1]), sign * won]


def accuracy(samples: list, weights, intercept) -> float:
    """The share of positions whose winner the sign of the score predicts (ties count half)."""
    return measures(samples, intercept, weights)[1]


@click.command()
@click.option("--positions", default=400, show_default=True)
@click.option("--seed", default=1, show_default=True)
@click.option("--seconds", default=8.0, show_default=True, help="Solver time per position.")
@click.option("--cache", type=click.Path(dir_okay=False, path_type=Path),
              help="JSON file of solved positions: read if it exists, else written.")
def main(positions: int, seed: int, seconds: float, cache: Path | None) -> None:
    """Solve positions, fit the evaluation's weights, and compare them with the engine's."""
    if cache is not None and cache.exists():
        rows = json.loads(cache.read_text())
    else:
        rows = solved_positions(positions, seed, seconds)
        if cache is not None:
            cache.write_text(json.dumps(rows))
    game = find_game("domineering")()
    samples = [(features(row, game), int(row["wins"])) for row in rows]
    random.Random(seed).shuffle(samples)
    train, test = samples[:len(samples) // 2], samples[len(samples) // 2:]
    intercept, weights = fit(train, list(range(len(FEATURES))), len(FEATURES))
    engine = [domineering.WEIGHT_MOVES, domineering.WEIGHT_CAPACITY, domineering.WEIGHT_SAFE,
              domineering.WEIGHT_WON]
    click.echo(f"{len(samples)} solved positions, side to move wins "
               f"{sum(won for _, won in samples) / len(samples):.0%}; "
               f"fitted on {len(train)}, tested on {len(test)}")
    click.echo("fitted, in tenths of a move: " + ", ".join(
        f"{name} {10 * w:.1f}" for name, w in zip(FEATURES, weights))
        + f", turn {10 * intercept:.1f}")
    click.echo(f"held-out accuracy: fitted {accuracy(test, weights, intercept):.1%}, "
               f"engine's {accuracy(test, engine, domineering.TEMPO):.1%}, "
               f"places 1 + safe 3 + turn 1 (before) {accuracy(test, [1, 0, 3, 4], 1):.1%}")


if __name__ == "__main__":
    main()
