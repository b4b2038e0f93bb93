"""How much time the referee itself spends per move.

Two instant engines (tests/referee/bad_engine.py without a fault: the first legal move, at once)
play a few games under the referee, in this process. Printed per move (ply):

* wall time: everything, both engines' work and the pipes included (an upper bound);
* referee CPU time: what this process spent (the rules check, the clocks, GTP framing): the
  referee's own overhead.

Setting up a game (set_game, clear_board, time_settings to both engines) is timed apart, by
playing the same games with no move allowed, and left out of the per-move figures.

    python3 scripts/bench_referee.py [--game loa] [--games 20] [--max-moves 400]
"""

from __future__ import annotations

import random
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import click  # noqa: E402

from referee.plan.setup import Setup  # noqa: E402
from referee.plan.time_control import TimeControl  # noqa: E402
from referee.play.channel import EngineChannel  # noqa: E402
from referee.play.game import play_game  # noqa: E402

INSTANT_ENGINE = " ".join(shlex.quote(word) for word in
                          (sys.executable, str(REPO / "tests" / "referee" / "bad_engine.py")))


HOUR = TimeControl(3600)  # a clock no game here comes near


def timed_games(setup: Setup, engines: list, games: int) -> tuple[float, float, int]:
    """Wall and CPU seconds for ``games`` games (colours alternating), and their plies."""
    plies = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for number in range(games):
        record = play_game(setup, engines if number % 2 == 0 else engines[::-1],
                           random.Random(number), controls=(HOUR, HOUR))
        plies += len(record.moves)
    return time.perf_counter() - wall, time.process_time() - cpu, plies


@click.command()
@click.option("--game", default="loa", show_default=True)
@click.option("--games", type=click.IntRange(1), default=20, show_default=True)
@click.option("--max-moves", type=click.IntRange(1), default=400, show_default=True)
def main(game: str, games: int, max_moves: int) -> None:
    """Print the referee's own time per move between two instant engines."""
    engines = [EngineChannel(INSTANT_ENGINE), EngineChannel(INSTANT_ENGINE)]
    for engine in engines:  # wait until both have started, which is not the referee's time
        engine.send("set_game " + game, time.monotonic() + 60)
    setup = Setup(game, max_moves=max_moves)
    setup.make_game()  # loads every game module once: start-up, not overhead
    setup_wall, setup_cpu, _ = timed_games(replace(setup, max_moves=0), engines, games)
    wall, cpu, plies = timed_games(setup, engines, games)
    for engine in engines:
        engine.close()
    click.echo(f"{game}: {games} games, {plies} plies")
    click.echo(f"set-up       {1000 * setup_wall / games:.3f} ms wall, "
          f"{1000 * setup_cpu / games:.3f} ms referee CPU per game")
    click.echo(f"wall time    {1000 * (wall - setup_wall) / plies:.3f} ms per move "
          f"(engines and pipes included)")
    click.echo(f"referee CPU  {1000 * (cpu - setup_cpu) / plies:.3f} ms per move "
          f"(the referee's own overhead)")


if __name__ == "__main__":
    main()
