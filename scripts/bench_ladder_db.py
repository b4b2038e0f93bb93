#!/usr/bin/env python3
"""What the ladder's database costs at size: its pages' queries, a game's insertion, opening it.

    python scripts/bench_ladder_db.py                      # 1,000,000 games in ladder-bench.db
    python scripts/bench_ladder_db.py --games 100000 --path /tmp/small.db
    python scripts/bench_ladder_db.py --reuse              # measure again, without generating

Generates a database of ``--games`` finished, rated games (batched, one transaction per
10,000) over ``--pools`` pools and ``--accounts`` accounts (each pool has its own random share
of them, each account a few engine versions over time), with 40 to 80 plies a game, a time and
a lag per move, spread over a year. Then, on that file, through
:class:`referee.records.database.LadderDatabase` only, it measures p50 and p95 over random
picks of: a pool's standings, each query of an account's page and the whole page, one game, a
pool's games of one day, the recent games; recording a finished game (``add_game``, and
``start_game`` then ``finish_game``, each commit flushed to the disk); opening the file and
being ready (``abort_unfinished`` of a few games left in progress included); a backup; and the
file's size per game. The targets: queries under 100 ms, a game under 5 ms, ready under 10 s.
"""

from __future__ import annotations

import datetime
import pathlib
import random
import statistics
import sys
import time

import click

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Outcome, Termination  # noqa: E402
from referee.records.database import (  # noqa: E402
    Ending,
    Engine,
    LadderDatabase,
    Rating,
    Seating,
)

BATCH = 10_000
YEAR = datetime.timedelta(days=365)
START = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
GAMES = ("go", "hex", "amazons", "breakthrough", "clobber", "domineering", "loa", "argon",
         "kolem", "laocoon")
TERMINATIONS = (Termination.NORMAL,) * 6 + (Termination.RESIGN,) * 3 + (Termination.TIMEOUT,)


def move_texts(rng: random.Random, plies: int) -> tuple[str, ...]:
    """``plies`` moves as long as real ones (``c3-e5``)."""
    files, ranks = "abcdefghijk", range(1, 12)
    return tuple(f"{rng.choice(files)}{rng.choice(ranks)}-{rng.choice(files)}{rng.choice(ranks)}"
                 for _ in range(plies))


def move_bank(rng: random.Random, size: int = 500) -> list[tuple[tuple, tuple, tuple]]:
    """Moves, seconds and lags of ``size`` made-up games, for the generated games to share."""
    bank = []
    for _ in range(size):
        plies = rng.randint(40, 80)
        bank.append((move_texts(rng, plies),
                     tuple(round(rng.uniform(0.05, 9.0), 3) for _ in range(plies)),
                     tuple(round(rng.uniform(0.0, 0.08), 3) for _ in range(plies))))
    return bank


def generate(records: LadderDatabase, games: int, pools: int, accounts: int,
             rng: random.Random) -> None:
    """Fill ``records`` with ``games`` finished, rated games (see the module docstring)."""
    bank = move_bank(rng)
    pool_ids = [records.add_pool(f"{GAMES[number % len(GAMES)]}-{number}",
                                 GAMES[number % len(GAMES)], {}, None, "300+5").id
                for number in range(pools)]
    with records.batch():
        account_ids = [records.add_account(f"engine-{number}", f"engine-{number}",
                                           "scrypt$16384$8$1$00$00", START).id
                       for number in range(accounts)]
    members = {pool: rng.sample(account_ids, max(2, accounts * 3 // pools))
               for pool in pool_ids}
    ratings: dict[tuple[int, int], float] = {}
    began = time.perf_counter()
    for first in range(0, games, BATCH):
        with records.batch():
            for number in range(first, min(games, first + BATCH)):
                finished = START + YEAR * (number / games)
                pool = rng.choice(pool_ids)
                black, white = rng.sample(members[pool], 2)
                moves, seconds, lags = rng.choice(bank)
                winner = rng.choice((0, 0, 1, 1, None))
                seat = Seating(pool, black, white, engine_of(black, finished),
                               engine_of(white, finished),
                               finished - datetime.timedelta(seconds=sum(seconds)))
                end = Ending(moves, seconds, lags,
                             Outcome(winner, rng.choice(TERMINATIONS), "made up"), finished)
                records.add_game(seat, end, new_ratings(ratings, pool, black, white, winner))
        done = min(games, first + BATCH)
        if done % 100_000 == 0 or done == games:
            print(f"  {done:,} games in {time.perf_counter() - began:.0f} s", flush=True)


def engine_of(account: int, when: datetime.datetime) -> Engine:
    """The engine ``account`` plays with at ``when``: a new version every few months."""
    return Engine(f"bot{account % 37}", f"1.{(when - START).days // (60 + account % 60)}")


def new_ratings(ratings: dict[tuple[int, int], float], pool: int, black: int, white: int,
                winner: int | None) -> list[Rating]:
    """Ratings after a game, by an Elo step (the figures only need to look like ratings)."""
    now = [ratings.get((pool, black), 1500.0), ratings.get((pool, white), 1500.0)]
    expected = 1 / (1 + 10 ** ((now[1] - now[0]) / 400))
    score = 0.5 if winner is None else 1.0 - winner
    step = 16 * (score - expected)
    ratings[pool, black], ratings[pool, white] = now[0] + step, now[1] - step
    return [Rating(black, ratings[pool, black], 60.0, 0.06),
            Rating(white, ratings[pool, white], 60.0, 0.06)]


def timed(action, picks: int) -> tuple[float, float]:
    """p50 and p95, in milliseconds, of ``action()`` over ``picks`` calls."""
    seconds = []
    for _ in range(picks):
        began = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - began)
    cuts = statistics.quantiles(seconds, n=20)
    return statistics.median(seconds) * 1000, cuts[18] * 1000


def account_page(records: LadderDatabase, account: int, pool: int) -> None:
    """Every query of an account's page."""
    records.rating_history(account, pool)
    records.results_by_opponent(account, pool)
    records.engines_seen(account)
    records.recent_games(20, account=account)


def measure(records: LadderDatabase, rng: random.Random, picks: int) -> None:
    """Print p50 and p95 of every query and write (see the module docstring)."""
    pools = [pool.id for pool in records.pools()]
    last = records.recent_games(1)[0]
    games = last.id
    # (account, pool) pairs that played, drawn from random games
    players = []
    for game in (records.game(rng.randint(1, games)) for _ in range(picks)):
        name = rng.choice((game.black, game.white))
        players.append((records.account_by_name(name).id, game.pool))
    first_day = records.game(1).ending.finished.date()
    days = (last.ending.finished.date() - first_day).days
    rows = [
        ("standings of a pool", lambda: records.standings(rng.choice(pools))),
        ("account: rating history", lambda: records.rating_history(*rng.choice(players))),
        ("account: results by opponent",
         lambda: records.results_by_opponent(*rng.choice(players))),
        ("account: engines seen", lambda: records.engines_seen(rng.choice(players)[0])),
        ("account: recent games",
         lambda: records.recent_games(20, account=rng.choice(players)[0])),
        ("account: the whole page", lambda: account_page(records, *rng.choice(players))),
        ("one game", lambda: records.game(rng.randint(1, games))),
        ("a pool's games of a day", lambda: records.games_of_day(
            rng.choice(pools), first_day + datetime.timedelta(days=rng.randint(0, days)))),
        ("recent games (20)", lambda: records.recent_games(20)),
        ("recent games of a pool (20)", lambda: records.recent_games(20, pool=rng.choice(pools))),
        ("games in progress", records.games_in_progress),
    ]
    for label, action in rows:
        report(label, *timed(action, picks))
    black, white = (records.account_by_name(name).id for name in (last.black, last.white))
    seat = Seating(last.pool, black, white, Engine("a", "1"), Engine("b", "1"),
                   last.ending.finished)
    end = Ending(*move_bank(rng, 1)[0], Outcome(0, Termination.NORMAL, "made up"),
                 last.ending.finished)
    rated = [Rating(black, 1500, 60, 0.06), Rating(white, 1500, 60, 0.06)]
    report("add_game (a finished game)", *timed(lambda: records.add_game(seat, end, rated), picks))
    report("start_game, then finish_game",
           *timed(lambda: records.finish_game(records.start_game(seat), end, rated), picks))
    report("start_game", *timed(lambda: records.start_game(seat), 20))


def report(label: str, p50: float, p95: float) -> None:
    print(f"  {label:<32} p50 {p50:8.2f} ms   p95 {p95:8.2f} ms", flush=True)


@click.command()
@click.option("--games", default=1_000_000, show_default=True, help="Games to generate.")
@click.option("--pools", default=10, show_default=True)
@click.option("--accounts", default=1000, show_default=True)
@click.option("--picks", default=200, show_default=True,
              help="Random picks per measured query.")
@click.option("--path", default="ladder-bench.db", show_default=True,
              type=click.Path(dir_okay=False, path_type=pathlib.Path))
@click.option("--reuse", is_flag=True, help="Measure the database at --path as it is.")
@click.option("--seed", default=1, show_default=True)
@click.option("--flush/--no-flush", default=True, show_default=True,
              help="Flush every commit to the disk, as the service does unless its file says "
                   "flush = false.")
def main(games: int, pools: int, accounts: int, picks: int, path: pathlib.Path, reuse: bool,
         seed: int, flush: bool) -> None:
    rng = random.Random(seed)
    if not reuse:
        for old in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            old.unlink(missing_ok=True)
        print(f"generating {games:,} games over {pools} pools and {accounts} accounts in {path}")
        began = time.perf_counter()
        with LadderDatabase(path) as records:
            generate(records, games, pools, accounts, rng)
        print(f"  generated in {time.perf_counter() - began:.0f} s")
    size = path.stat().st_size
    with LadderDatabase(path, flush) as records:
        total = records.recent_games(1)[0].id
        print(f"{path}: {size / 2 ** 20:,.0f} MiB, {size / total:,.0f} bytes per game; "
              f"{'every commit flushed' if flush else 'commits flushed at checkpoints'}")
        measure(records, rng, picks)
        for _ in range(10):  # left in progress, for the next opening to abort
            records.start_game(Seating(1, 1, 2, Engine("a", "1"), Engine("b", "1"),
                                       records.recent_games(1)[0].started))
    began = time.perf_counter()
    with LadderDatabase(path, flush) as records:
        aborted = records.abort_unfinished()
        ready = time.perf_counter() - began
        print(f"  open and ready ({aborted} aborted)      {ready * 1000:8.1f} ms")
        began = time.perf_counter()
        records.backup(path.with_name(path.name + ".backup"))
        print(f"  backup                           {time.perf_counter() - began:8.1f} s")
    path.with_name(path.name + ".backup").unlink()


if __name__ == "__main__":
    main()
