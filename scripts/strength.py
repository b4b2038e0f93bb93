#!/usr/bin/env python3
"""Playing strength per game: the engine against baselines or any program, through the referee.

    python scripts/strength.py                          # every game, every baseline
    python scripts/strength.py loa clobber --games 20 --move-time 1
    python scripts/strength.py clobber --baselines uct-10x --games 10 --move-time 0.2
    python scripts/strength.py clobber --opponent "./solver --gtp" --time 60 --increment 0
    python scripts/strength.py breakthrough --interpreter pypy3 --opponent \
        "python -m protocol.cli" --time 2 --increment 0.05 --games 300 --out selfplay

For each game and each opponent it runs ``olympiad-referee match`` between
``olympiad-engine`` and the opponent in pairs: each start is played twice with colours
swapped (``--pairs``), the starts taken from a book of short random openings that the
referee's ``openings`` command writes per game (``--opening-plies``, 0 for the game's start).

Opponents: the baselines (``random``: a uniformly random mover; ``greedy``: one ply with the
game's evaluation; ``uct``: plain UCT with random playouts and no solver), each with optional
time odds as a suffix (``uct-10x``: plain UCT with ten times our clock, the stand-in for a
strong external program), and any program that speaks the protocol (``--opponent CMD``, with
``--odds``). Our clock is ``--time`` main time plus ``--increment`` per move (by default
``2 x move-time`` and ``move-time``, so a move takes about ``move-time`` seconds); the
opponent's is the same times its odds, through the referee's per-engine time control.

Results go to ``--out`` (one referee folder per game and opponent, so an interrupted run
resumes). Our engine and the baselines run from a copy of their code made in ``--out`` when the
run starts (``engine-tree``), so that editing the tree during a run, or before resuming it,
changes nothing in the engine measured; delete that folder to measure new code in an old
folder. The table of wins/losses/draws, score with its 95 % interval, the Elo difference, the
games lost on time (ours/theirs) and the least time our engine had left after a move is printed
and written to ``--table`` (by default ``strength.md`` in ``--out``; the project's own table is
``--table docs/strength.md``).
"""

from __future__ import annotations

import json
import math
import pathlib
import shlex
import shutil
import signal
import subprocess
import sys

import click

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import game_names  # noqa: E402
from referee.stats.elo.wdl import wdl_estimate  # noqa: E402

BASELINES = ("random", "greedy", "uct")
ENGINE = f"{shlex.quote(sys.executable)} -m protocol.cli"


def expected_score(elo: float) -> float:
    """The mean score an Elo difference stands for (the inverse of the logistic model)."""
    if math.isinf(elo):
        return 1.0 if elo > 0 else 0.0
    return 1.0 / (1.0 + 10 ** (-elo / 400))


def baseline_opponent(baseline: str) -> tuple[str, float]:
    """The command line and time odds of a baseline name with an optional odds suffix.

    >>> command, odds = baseline_opponent("uct-10x")
    >>> command.endswith("-m protocol.cli --algorithm uct"), odds
    (True, 10.0)
    >>> baseline_opponent("greedy")[1]
    1.0
    """
    name, _, odds = baseline.partition("-")
    if not odds.endswith("x"):
        odds = "1x"
    return f"{ENGINE} --algorithm {name}", float(odds[:-1])


def frozen_tree(out: pathlib.Path) -> pathlib.Path:
    """The folder our engine runs from: a copy of its code (the ``engine`` and ``protocol``
    packages) made when the run in ``out`` starts and reused when it resumes, so that an edit
    to the tree while games are played, or before an interrupted run is resumed, never reaches
    the engine being measured."""
    tree = out / "engine-tree"
    if not tree.exists():
        staging = out / "engine-tree.partial"  # renamed whole: a copy cut short is not used
        shutil.rmtree(staging, ignore_errors=True)
        for package in ("engine", "protocol"):
            shutil.copytree(ROOT / package, staging / package,
                            ignore=shutil.ignore_patterns("__pycache__"))
        staging.rename(tree)
    return tree


def match_command(game: str, opponent: str, odds: float, games: int, clock: tuple[float, float],
                  concurrency: int, out: pathlib.Path, seed: int,
                  book: pathlib.Path | None, max_moves: int | None = None,
                  engine: str = ENGINE, tree: pathlib.Path | None = None,
                  baseline: bool = True) -> list[str]:
    """The referee command of one match: our ``engine`` first, the opponent with ``odds`` times
    our clock (main time, increment), played in pairs with colours swapped. With ``tree``,
    our engine, and the opponent when it is one of our ``baseline`` searches, run from that
    folder (:func:`frozen_tree`)."""
    main, increment = clock
    command = [
        sys.executable, "-m", "referee", "match", "--game", game,
        "--engine", engine, "--engine", opponent, "--pairs", "--games", str(games),
        "--time", f"{main:g}", "--increment", f"{increment:g}",
        "--concurrency", str(concurrency), "--out", str(out), "--seed", str(seed)]
    if tree is not None:
        command += ["--engine-option", f"1:dir={tree}"]
        if baseline:
            command += ["--engine-option", f"2:dir={tree}"]
    if max_moves is not None:
        command += ["--max-moves", str(max_moves)]
    if odds != 1:
        command += ["--engine-option", f"2:time={odds * main:g}",
                    "--engine-option", f"2:increment={odds * increment:g}"]
    if book is not None:
        command += ["--openings", str(book)]
    return command


def opening_book(game: str, plies: int, count: int, out: pathlib.Path, seed: int
                 ) -> pathlib.Path | None:
    """A book of ``count`` short random openings for ``game`` (written once, then reused),
    or ``None`` for no book (``plies`` 0)."""
    if plies == 0:
        return None
    book = out / f"{game}-openings-{plies}.txt"
    if not book.exists():
        out.mkdir(parents=True, exist_ok=True)
        run_referee([sys.executable, "-m", "referee", "openings", "--game", game,
                     "--plies", str(plies), "--count", str(count), "--out", str(book),
                     "--seed", str(seed)])
    return book


def run_referee(command: list[str]) -> None:
    """Run one referee command to its end. A SIGTERM sent to this script goes on to the
    referee, which ends its engines and keeps every finished game (running the same command
    again goes on from there), and the script then stops too: killed alone, it would leave
    the match playing on without it."""
    stopped = []

    def stop(signum, frame) -> None:
        stopped.append(signum)
        referee.terminate()
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL) as referee:
        previous = signal.signal(signal.SIGTERM, stop)
        try:
            status = referee.wait()
        finally:
            signal.signal(signal.SIGTERM, previous)
    if stopped:
        sys.exit(128 + signal.SIGTERM)
    if status:
        raise subprocess.CalledProcessError(status, command)


def run_pairing(command: list[str], out: pathlib.Path) -> list[dict]:
    """Play (or finish) one match; return its result rows."""
    run_referee(command)
    lines = (out / "results.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def time_losses(rows: list[dict]) -> tuple[int, int]:
    """Games engine 1 (ours) and engine 2 lost on time in ``rows``."""
    ours = theirs = 0
    for row in rows:
        if row["termination"] == "timeout":
            ours_lost = (row["result"] == "B+") != (row["black_index"] == 1)
            ours, theirs = ours + ours_lost, theirs + (not ours_lost)
    return ours, theirs


def least_left(rows: list[dict]) -> float | None:
    """The least time our engine had left on its clock after one of its moves, over ``rows``
    (``None`` when the rows do not say)."""
    left = [row[f"{colour}_min_left"] for row in rows
            for colour in ("black", "white")
            if row.get(f"{colour}_index") == 1 and row.get(f"{colour}_min_left") is not None]
    return min(left) if left else None


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
    estimate = wdl_estimate(wins, draws, losses)
    if estimate is None:
        return f"| {game} | {baseline} | 0 | | | | | | | |"
    games = wins + losses + draws
    score = (wins + draws / 2) / games
    low, high = expected_score(estimate.elo_low), expected_score(estimate.elo_high)
    elo = (f"{_elo_text(estimate.elo)} [{_elo_text(estimate.elo_low)}, "
           f"{_elo_text(estimate.elo_high)}]")
    ours, theirs = time_losses(rows)
    least = least_left(rows)
    margin = "" if least is None else f"{least:.2f}"
    return (f"| {game} | {baseline} | {games} | {wins} | {losses} | {draws} | "
            f"{100 * score:.0f} % [{100 * low:.0f}, {100 * high:.0f}] | {elo} | "
            f"{ours}/{theirs} | {margin} |")


def _elo_text(elo: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{elo:+.0f}"


@click.command()
@click.argument("games", nargs=-1)
@click.option("--games", "count", type=int, default=10, show_default=True,
              help="Games per game and opponent (rounded up to whole pairs).")
@click.option("--baselines", default=",".join(BASELINES), show_default=True,
              help="Baselines, each with optional time odds: uct-10x is uct on 10x our clock.")
@click.option("--opponent", default=None, metavar="CMD",
              help="Any engine speaking the protocol, instead of the baselines.")
@click.option("--opponent-name", default=None, help="The opponent's name in the table.")
@click.option("--odds", type=float, default=1.0, show_default=True,
              help="The --opponent's clock as a multiple of ours.")
@click.option("--move-time", type=float, default=1.0, show_default=True,
              help="Our seconds per move: 2 x move-time main time + move-time per move.")
@click.option("--time", "main_time", type=float, default=None,
              help="Our main time per game instead (seconds).")
@click.option("--increment", type=float, default=None, help="Our increment per move instead.")
@click.option("--opening-plies", type=int, default=2, show_default=True,
              help="Random plies of each pair's opening (0: the game's start).")
@click.option("--max-moves", type=int, default=None,
              help="Plies after which a game is a draw (the referee's default: 1000).")
@click.option("--interpreter", default=None, metavar="PROGRAM",
              help="Run our engine under this Python (e.g. pypy3); the baselines stay here.")
@click.option("--concurrency", type=int, default=2, show_default=True)
@click.option("--out", type=click.Path(path_type=pathlib.Path),
              default=ROOT / "strength-results", show_default=True)
@click.option("--table", type=click.Path(path_type=pathlib.Path), default=None,
              help="Where to write the table (default: strength.md in --out).")
@click.option("--seed", type=int, default=1, show_default=True)
def main(games, count, baselines, opponent, opponent_name, odds, move_time, main_time,
         increment, opening_plies, max_moves, interpreter, concurrency, out, table, seed):
    """Measure the engine against the baselines or --opponent in GAMES (default: all) and
    write the table."""
    count += count % 2
    engine = ENGINE if interpreter is None else f"{ENGINE} --interpreter {shlex.quote(interpreter)}"
    clock = (2 * move_time if main_time is None else main_time,
             move_time if increment is None else increment)
    if opponent is None:
        opponents = [(baseline, *baseline_opponent(baseline))
                     for baseline in baselines.split(",")]
    else:
        opponents = [(opponent_name or opponent, opponent, odds)]
    out.mkdir(parents=True, exist_ok=True)
    tree = frozen_tree(out)
    runs_on = "" if interpreter is None else f" under {interpreter}"
    header = [f"Engine (`olympiad-engine`{runs_on}) against each opponent, {count} games per "
              f"row in pairs (each opening of {opening_plies} random plies played twice, colours "
              f"swapped), our clock {clock[0]:g} s + {clock[1]:g} s per move, the opponent's "
              "the same times its odds (`-10x`: ten times ours).", "",
              "| game | opponent | games | wins | losses | draws | score [95 % interval] "
              "| Elo [95 % interval] | lost on time (ours/theirs) | our least clock left (s) |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    click.echo("\n".join(header))
    lines = []
    for game in games or game_names():
        book = opening_book(game, opening_plies, count // 2, out, seed)
        for label, command, factor in opponents:
            folder = out / f"{game}-{label.replace(' ', '_').replace('/', '_')}"
            rows = run_pairing(match_command(game, command, factor, count, clock, concurrency,
                                             folder, seed, book, max_moves, engine, tree,
                                             baseline=opponent is None), folder)
            lines.append(table_row(game, label, rows))
            click.echo(lines[-1])
    table = out / "strength.md" if table is None else table
    table.parent.mkdir(parents=True, exist_ok=True)
    table.write_text("# Playing strength\n\n" + "\n".join(header + lines) + "\n")


if __name__ == "__main__":
    main()
