#!/usr/bin/env python3
"""Playing strength per game: the engine against fixed baselines, through the referee.

    python scripts/strength.py                          # every game, every baseline
    python scripts/strength.py loa clobber --games 20 --move-time 1

For each game and each baseline (``random``: a uniformly random mover; ``greedy``: one ply
with the game's evaluation; ``uct``: plain UCT with random playouts and no solver) it runs
``olympiad-referee match`` between ``olympiad-engine`` and ``olympiad-engine --algorithm
BASELINE``, colours alternating. Both sides get the same clock: ``2 x move-time`` of main time
plus ``move-time`` per move, so a move takes about ``move-time`` seconds. Results go to
``--out`` (one referee folder per game and baseline, so an interrupted run resumes), and the
table of wins/losses/draws, score with its 95 % interval and the Elo difference is printed and
written to ``--table`` for the README.
"""

from __future__ import annotations

import json
import math
import pathlib
import shlex
import subprocess
import sys

import click

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import game_names  # noqa: E402
from referee.stats import elo_estimate  # noqa: E402

BASELINES = ("random", "greedy", "uct")


def expected_score(elo: float) -> float:
    """The mean score an Elo difference stands for (the inverse of the logistic model)."""
    if math.isinf(elo):
        return 1.0 if elo > 0 else 0.0
    return 1.0 / (1.0 + 10 ** (-elo / 400))


def run_pairing(game: str, baseline: str, games: int, move_time: float, concurrency: int,
                out: pathlib.Path, seed: int) -> list[dict]:
    """Play (or finish) one engine-vs-baseline match; return its result rows."""
    engine = f"{shlex.quote(sys.executable)} -m protocol.cli"
    command = [
        sys.executable, "-m", "referee.cli", "match", "--game", game,
        "--engine", engine, "--engine", f"{engine} --algorithm {baseline}",
        "--games", str(games), "--time", str(2 * move_time), "--increment", str(move_time),
        "--concurrency", str(concurrency), "--out", str(out), "--seed", str(seed)]
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    lines = (out / "results.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def tally(rows: list[dict]) -> tuple[int, int, int]:
    """Wins, losses and draws of engine 1 (our engine) in ``rows``."""
    wins = losses = draws = 0
    for row in rows:
        if row["result"] == "0":
            draws += 1
        elif (row["result"] == "B+") == (row["black_index"] == 1):
            wins += 1
        else:
            losses += 1
    return wins, losses, draws


def table_row(game: str, baseline: str, rows: list[dict]) -> str:
    wins, losses, draws = tally(rows)
    estimate = elo_estimate(wins, losses, draws)
    if estimate is None:
        return f"| {game} | {baseline} | 0 | | | | | |"
    games = wins + losses + draws
    score = (wins + draws / 2) / games
    low, high = expected_score(estimate.lower), expected_score(estimate.upper)
    elo = (f"{_elo_text(estimate.elo)} [{_elo_text(estimate.lower)}, "
           f"{_elo_text(estimate.upper)}]")
    return (f"| {game} | {baseline} | {games} | {wins} | {losses} | {draws} | "
            f"{100 * score:.0f} % [{100 * low:.0f}, {100 * high:.0f}] | {elo} |")


def _elo_text(elo: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{elo:+.0f}"


@click.command()
@click.argument("games", nargs=-1)
@click.option("--games", "count", type=int, default=10, show_default=True,
              help="Games per game and baseline.")
@click.option("--baselines", default=",".join(BASELINES), show_default=True)
@click.option("--move-time", type=float, default=1.0, show_default=True,
              help="Seconds per move for both sides (via main time plus increment).")
@click.option("--concurrency", type=int, default=2, show_default=True)
@click.option("--out", type=click.Path(path_type=pathlib.Path),
              default=ROOT / "strength-results", show_default=True)
@click.option("--table", type=click.Path(path_type=pathlib.Path),
              default=ROOT / "docs" / "strength.md", show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
def main(games, count, baselines, move_time, concurrency, out, table, seed):
    """Measure the engine against the baselines in GAMES (default: all) and write the table."""
    header = [f"Engine (`olympiad-engine`) against each baseline, {count} games per row, "
              f"colours alternating, about {move_time:g} s per move for both sides "
              f"({2 * move_time:g} s main time + {move_time:g} s per move).", "",
              "Produced by `python scripts/strength.py "
              f"--games {count} --move-time {move_time:g}`.", "",
              "| game | baseline | games | wins | losses | draws | score [95 % interval] "
              "| Elo [95 % interval] |",
              "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    click.echo("\n".join(header))
    lines = []
    for game in games or game_names():
        for baseline in baselines.split(","):
            rows = run_pairing(game, baseline, count, move_time, concurrency,
                               out / f"{game}-{baseline}", seed)
            lines.append(table_row(game, baseline, rows))
            click.echo(lines[-1])
    table.parent.mkdir(parents=True, exist_ok=True)
    table.write_text("# Playing strength\n\n" + "\n".join(header + lines) + "\n")


if __name__ == "__main__":
    main()
