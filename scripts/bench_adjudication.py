#!/usr/bin/env python3
"""What exact adjudication saves, and whether it ever gets a result wrong.

    python scripts/bench_adjudication.py clobber domineering --games 6 --time 3 --increment 0.2
    python scripts/bench_adjudication.py clobber --engine "--algorithm uct" --exact-time 0.3

For each game our engine plays itself (two processes, seeds differing per game; ``--engine``
adds options to both, to bench another search) at the given clock, once without adjudication and
once with exact adjudication (``decisive``: wins and losses), through the referee's own game loop.
(The two games may differ: the engines search on the clock.) Each game the rule ended is then played
on from the adjudicated position twice:

* by the solver on both sides (each side plays a move the referee's solver proves winning when
  there is one): its result must be the adjudicated one, always;
* by the same two engines, from the same position (its moves sent as an opening; the clocks
  start afresh at the same control): the result the game would have had without the rule.

The table gives per game: games, how many were adjudicated and at which ply on average, the
mean wall time of a game without and with the rule (the solver's own time included), the mean
wall time the engines took to play on from the adjudicated positions, the games where the solver's
play-out disagreed with the verdict (must be 0) and the games where the engines' play-out did (an
engine went wrong in a won position).
"""

from __future__ import annotations

import pathlib
import random
import shlex
import statistics
import sys
import time

import click

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Termination, find_game  # noqa: E402
from referee.plan.adjudication import DEFAULT_EXACT_TIME, Adjudication  # noqa: E402
from referee.plan.setup import Opening, Setup  # noqa: E402
from referee.plan.time_control import TimeControl  # noqa: E402
from referee.play.adjudication import prove  # noqa: E402
from referee.play.channel import EngineChannel  # noqa: E402
from referee.play.game import play_game  # noqa: E402

PYTHON = shlex.quote(sys.executable)


def engines(seed: int, options: str) -> list[EngineChannel]:
    return [EngineChannel(f"{PYTHON} -m protocol.cli --seed {seed + side} {options}",
                          cwd=str(ROOT)) for side in (0, 1)]


def timed_game(setup: Setup, control: TimeControl, seed: int, options: str,
               opening: Opening | None = None):
    """A game between two fresh engine processes, each on ``control``, and its wall time."""
    channels = engines(seed, options)
    started = time.monotonic()
    try:
        record = play_game(setup, channels, random.Random(seed), opening,
                           controls=(control, control))
    finally:
        for channel in channels:
            channel.kill()
    return record, time.monotonic() - started


def solver_winner(position, seconds: float) -> int | None:
    """The winner when both sides play on with the solver (a proven winning move whenever
    there is one; else the first legal move)."""
    while position.outcome is None:
        moves = position.legal_moves()
        chosen = moves[0]
        for move in moves:
            position.play(move)
            lost = prove(position, seconds) == -1
            position.undo()
            if lost:
                chosen = move
                break
        position.play(chosen)
    return position.outcome.winner


def winner_of(result: str) -> int | None:
    return {"B+": 0, "W+": 1}.get(result)


def bench(name: str, games: int, control: TimeControl, exact_time: float, seed: int,
          options: str) -> dict:
    setup = Setup(name, adjudication=Adjudication(exact="decisive", exact_time=exact_time))
    plain = Setup(name)
    found = {"games": games, "adjudicated": 0, "plies": [], "plain": [], "wall": [],
             "saved": [], "solver_differs": 0, "engines_differ": 0}
    for number in range(games):
        found["plain"].append(timed_game(plain, control, seed + 10 * number, options)[1])
        record, wall = timed_game(setup, control, seed + 10 * number, options)
        found["wall"].append(wall)
        if record.termination is not Termination.ADJUDICATED_EXACT:
            continue
        found["adjudicated"] += 1
        found["plies"].append(len(record.moves))
        position = find_game(name)().initial_position()
        for text in record.moves:
            position.play(position.parse_move(text))
        verdict = winner_of(record.result)
        found["solver_differs"] += solver_winner(position, 4 * exact_time) != verdict
        rest, rest_wall = timed_game(plain, control, seed + 10 * number, options,
                                     Opening(1, tuple(record.moves)))
        found["saved"].append(rest_wall)
        found["engines_differ"] += winner_of(rest.result) != verdict
    return found


def mean(values: list[float]) -> str:
    return f"{statistics.mean(values):.1f}" if values else "-"


@click.command()
@click.argument("names", nargs=-1, required=True)
@click.option("--games", type=click.IntRange(1), default=6, show_default=True)
@click.option("--time", "main", type=float, default=3.0, show_default=True)
@click.option("--increment", type=float, default=0.2, show_default=True)
@click.option("--exact-time", type=float, default=DEFAULT_EXACT_TIME, show_default=True,
              help="The solver's seconds in each position.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--engine", "options", default="", help="Options for both engines.")
def main(names: tuple[str, ...], games: int, main: float, increment: float, exact_time: float,
         seed: int, options: str) -> None:
    """Exact adjudication against playing on, per game."""
    control = TimeControl(main, increment)
    click.echo("| game | games | adjudicated | at ply (mean) | wall s/game without | with | "
               "engines' play-on s | solver play-out differs | engines' play-out differs |")
    click.echo("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        found = bench(name, games, control, exact_time, seed, options)
        click.echo(f"| {name} | {found['games']} | {found['adjudicated']} | "
                   f"{mean(found['plies'])} | {mean(found['plain'])} | {mean(found['wall'])} | "
                   f"{mean(found['saved'])} | "
                   f"{found['solver_differs']} | {found['engines_differ']} |")


if __name__ == "__main__":
    main()
