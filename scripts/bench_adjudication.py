#!/usr/bin/env python3
"""What exact adjudication saves, and whether it ever gets a result wrong.

    python scripts/bench_adjudication.py clobber domineering --games 6 --time 3 --increment 0.2
    python scripts/bench_adjudication.py clobber --size 7x6 --engine "--depth 2"
    python scripts/bench_adjudication.py clobber --engine "--algorithm uct" --play-on

For each game our engine plays itself (two processes, seeds differing per game; ``--engine``
adds options to both, to bench another search, such as a fixed depth) at the given clock, once
without adjudication and once with exact adjudication (``--mode``, by default ``decisive``: wins
and losses), through the referee's own game loop, on the game's default board or ``--size``.
(The two games may differ: the engines search on the clock.) With ``--play-on``, each game the
rule ended is then played on from the adjudicated position twice:

* by the solver on both sides (each side plays a move the referee's solver proves winning when
  there is one): its result must be the adjudicated one, always;
* by the same two engines, from the same position (its moves sent as an opening; the clocks
  start afresh at the same control): the result the game would have had without the rule.

Each seed's game is played without the rule and then with it (a pair; with engines on a clock
the two differ all the same, as their moves depend on their timing). The table gives per game:
the board, the engines, games, how many were adjudicated, the mean plies of a game without and
with the rule, the mean wall time of a game without and with it (the solver's own time
included), their ratio with its 95 % range from the pairs (the mean difference, two standard
errors either side), the engines' nodes a second (thousands, as their analyses say them, over
the plies both games of a pair have) without and with the rule (a solver taking CPU from the
engines slows them), the wall time a game that was on no engine's clock (milliseconds: the
referee's, the pipes', the set-up's; a solver holding up the referee's game thread raises it,
fewer plies lower it) and, with ``--play-on``, the mean wall time the engines took to play on
from the adjudicated positions, the games where the solver's play-out disagreed with the verdict
(must be 0) and the games where the engines' play-out did (an engine went wrong in a won
position).
"""

from __future__ import annotations

import pathlib
import random
import shlex
import statistics
import sys
import time
from dataclasses import dataclass

import click

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Termination, find_game  # noqa: E402
from referee.plan.adjudication import (DEFAULT_EXACT_TIME, EXACT_MODES,  # noqa: E402
                                       Adjudication)
from referee.plan.setup import Opening, Setup  # noqa: E402
from referee.plan.time_control import TimeControl  # noqa: E402
from referee.play.exact import prove  # noqa: E402
from referee.play.channel import EngineChannel  # noqa: E402
from referee.play.game import play_game  # noqa: E402

PYTHON = shlex.quote(sys.executable)


def engines(seed: int, options: str) -> list[EngineChannel]:
    return [EngineChannel(f"{PYTHON} -m protocol.cli --seed {seed + side} {options}",
                          cwd=str(ROOT)) for side in (0, 1)]


def timed_game(setup: Setup, control: TimeControl, seed: int, options: str,
               opening: Opening | None = None):
    """A game between two fresh engine processes, each on ``control``, and its wall time
    (from when both are ready)."""
    channels = engines(seed, options)
    for channel in channels:  # started and ready: the interpreter's start-up is not timed
        channel.send("name")
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


def bench(name: str, size: tuple[int, int] | None, games: int, control: TimeControl,
          rules: Adjudication, seed: int, options: str, play_on: bool) -> dict:
    """Each seed's game played without the rule and then with it (a pair), and what they
    cost; with ``play_on``, the adjudicated games played on."""
    setup = Setup(name, size=size, adjudication=rules)
    plain = Setup(name, size=size)
    found = {"games": games, "adjudicated": 0, "without": [], "with": [], "saved": [],
             "solver_differs": 0, "engines_differ": 0}
    for number in range(games):
        record, wall = timed_game(plain, control, seed + 10 * number, options)
        found["without"].append(GameCost.of(record, wall))
        record, wall = timed_game(setup, control, seed + 10 * number, options)
        found["with"].append(GameCost.of(record, wall))
        if record.termination is not Termination.ADJUDICATED_EXACT:
            continue
        found["adjudicated"] += 1
        if play_on:
            play_on_from(record, setup, plain, control, seed + 10 * number, options,
                         rules.exact_time, found)
    return found


@dataclass(frozen=True)
class GameCost:
    """What one game cost: its plies, its wall time, the engines' time on their clocks, and
    each ply's searched nodes and the seconds the engine said it searched them in (its
    analysis; ``None`` for a ply without either)."""

    plies: int
    wall: float
    engines: float
    searches: tuple[tuple[int, float] | None, ...]

    @classmethod
    def of(cls, record, wall: float) -> GameCost:
        searches = tuple((analysis.nodes, analysis.seconds)
                         if analysis is not None and analysis.nodes and analysis.seconds
                         else None for analysis in record.analyses)
        return cls(len(record.moves), wall, sum(record.used), searches)

    @property
    def referee(self) -> float:
        """The wall time that was not on an engine's clock: the referee's own, the pipes' and
        the answers within the allowance."""
        return self.wall - self.engines


def play_on_from(record, setup: Setup, plain: Setup, control: TimeControl, seed: int,
                 options: str, exact_time: float, found: dict) -> None:
    """Play the adjudicated game on by the solver and by the engines; count disagreements."""
    position = find_game(setup.game)(size=setup.size).initial_position()
    for text in record.moves:
        position.play(position.parse_move(text))
    verdict = winner_of(record.result)
    found["solver_differs"] += solver_winner(position, 4 * exact_time) != verdict
    rest, rest_wall = timed_game(plain, control, seed, options, Opening(1, tuple(record.moves)))
    found["saved"].append(rest_wall)
    found["engines_differ"] += winner_of(rest.result) != verdict


def mean(values: list[float]) -> str:
    return f"{statistics.mean(values):.1f}" if values else "-"


def mean_seconds(values: list[float]) -> str:
    return f"{statistics.mean(values):.2f}" if values else "-"


def wall_ratio(without: list[GameCost], with_rule: list[GameCost]) -> str:
    """The mean wall time with the rule over that without, and its 95 % range from the pairs
    (same seeds): 1 + the mean difference (two standard errors either side) over the mean
    without."""
    base = statistics.mean(cost.wall for cost in without)
    differences = [paired.wall - alone.wall for alone, paired in zip(without, with_rule)]
    ratio = 1 + statistics.mean(differences) / base
    if len(differences) < 2:
        return f"{ratio:.2f}"
    spread = 2 * statistics.stdev(differences) / len(differences) ** 0.5 / base
    return f"{ratio:.2f} ({ratio - spread:.2f}-{ratio + spread:.2f})"


def nodes_per_second(costs: list[GameCost], others: list[GameCost]) -> str:
    """The engines' searched nodes a second in ``costs``' games, in thousands, as they said
    them, over the plies each game shares with its pair in ``others`` (the same phase of the
    game both ways: an adjudicated game has no endgame, where the engines search faster or
    slower)."""
    nodes = seconds = 0.0
    for cost, other in zip(costs, others):
        for search in cost.searches[:min(len(cost.searches), len(other.searches))]:
            if search is not None:
                nodes, seconds = nodes + search[0], seconds + search[1]
    return f"{nodes / seconds / 1000:.1f}" if seconds else "-"


def referee_ms(costs: list[GameCost]) -> str:
    """The wall time a game that was on no engine's clock, in milliseconds."""
    return f"{1000 * statistics.mean(cost.referee for cost in costs):.0f}"


def parse_size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    cols, _, rows = text.partition("x")
    return int(cols), int(rows or cols)


@click.command()
@click.argument("names", nargs=-1, required=True)
@click.option("--size", default=None, help="The board, COLSxROWS (default: the game's).")
@click.option("--games", type=click.IntRange(1), default=6, show_default=True)
@click.option("--time", "main", type=float, default=3.0, show_default=True)
@click.option("--increment", type=float, default=0.2, show_default=True)
@click.option("--mode", type=click.Choice(EXACT_MODES), default="decisive", show_default=True)
@click.option("--exact-time", type=float, default=DEFAULT_EXACT_TIME, show_default=True,
              help="The solver's seconds in each position.")
@click.option("--wait", is_flag=True, help="The referee waits for the rest of the solver's "
                                           "time after each answer (--adjudicate-exact-wait).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--engine", "options", default="", help="Options for both engines.")
@click.option("--play-on", is_flag=True, help="Play each adjudicated game on, by the solver "
                                              "and by the engines.")
def main(names: tuple[str, ...], size: str | None, games: int, main: float, increment: float,
         mode: str, exact_time: float, wait: bool, seed: int, options: str,
         play_on: bool) -> None:
    """Exact adjudication against playing on, per game."""
    control = TimeControl(main, increment)
    rules = Adjudication(exact=mode, exact_time=exact_time, exact_wait=wait)
    engines = options or f"clock {main:g}+{increment:g}"
    board = size or "default"
    click.echo("| game | board | engines | games | adjudicated | plies without | with | "
               "wall s/game without | with | ratio (95 %) | knodes/s without | with | "
               "referee ms/game without | with |"
               + (" engines' play-on s | solver play-out differs | engines' play-out "
                  "differs |" if play_on else ""))
    click.echo("| --- | --- | --- |" + " ---: |" * 11
               + (" ---: | ---: | ---: |" if play_on else ""))
    for name in names:
        found = bench(name, parse_size(size), games, control, rules, seed, options, play_on)
        without, with_rule = found["without"], found["with"]
        row = (f"| {name} | {board} | {engines} | {found['games']} | {found['adjudicated']} | "
               f"{mean([cost.plies for cost in without])} | "
               f"{mean([cost.plies for cost in with_rule])} | "
               f"{mean_seconds([cost.wall for cost in without])} | "
               f"{mean_seconds([cost.wall for cost in with_rule])} | "
               f"{wall_ratio(without, with_rule)} | {nodes_per_second(without, with_rule)} | "
               f"{nodes_per_second(with_rule, without)} | {referee_ms(without)} | "
               f"{referee_ms(with_rule)} |")
        if play_on:
            row += (f" {mean(found['saved'])} | {found['solver_differs']} | "
                    f"{found['engines_differ']} |")
        click.echo(row)

if __name__ == "__main__":
    main()
