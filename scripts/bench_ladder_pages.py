#!/usr/bin/env python3
"""What the ladder's pages cost at size, over HTTP: a pool's page, an account's page, a game's
page and their JSON, and the all-time fit of a pool.

    python scripts/bench_ladder_db.py --path /tmp/ladder.db     # generate 1,000,000 games
    python scripts/bench_ladder_pages.py --path /tmp/ladder.db  # then measure the pages

On a database made by ``scripts/bench_ladder_db.py`` (it is only read), it first fits every
pool's all-time table once (:mod:`referee.host.ladder_alltime`), timing each, then serves the
pages on 127.0.0.1 (the all-time thread then idle) and times ``--picks`` GETs of each page
with urllib, one at a time, at random pools, accounts (that played in the pool) and games:
p50 and p95 in milliseconds, the target being 100 ms. A game page's first visit builds its
replay (kept for the next ones), so the games picked are distinct.

The generated games' moves are made up, not legal ones: a replay stops at the first move the
rules refuse, so a game's page here costs less than a real game's (see ``docs/ladder.md`` for
a real game's).
"""

from __future__ import annotations

import pathlib
import random
import statistics
import sys
import time
import urllib.request

import click

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.host.ladder_alltime import AllTimeRatings  # noqa: E402
from referee.host.ladder_pages import LadderPages  # noqa: E402
from referee.records.database import LadderDatabase  # noqa: E402


def fetch(url: str) -> float:
    """Seconds to GET ``url`` whole (status 200 required)."""
    began = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as answer:
        answer.read()
        assert answer.status == 200, url
    return time.perf_counter() - began


def report(label: str, seconds: list[float]) -> None:
    cuts = statistics.quantiles(seconds, n=20)
    print(f"  {label:<28} p50 {statistics.median(seconds) * 1000:8.1f} ms   "
          f"p95 {cuts[18] * 1000:8.1f} ms", flush=True)


@click.command()
@click.option("--path", required=True, type=click.Path(exists=True, dir_okay=False,
                                                       path_type=pathlib.Path))
@click.option("--picks", default=100, show_default=True, help="GETs per page.")
@click.option("--seed", default=1, show_default=True)
def main(path: pathlib.Path, picks: int, seed: int) -> None:
    rng = random.Random(seed)
    with LadderDatabase(path) as records:
        pools = records.pools()
        last = records.recent_games(1)[0].id
        ratings = AllTimeRatings(records, games=10 ** 12, seconds=float("inf"), look=3600)
        fits = []
        for pool in pools:
            began = time.perf_counter()
            table = ratings.refresh(pool.id)
            fits.append(time.perf_counter() - began)
        print(f"all-time fit of a pool ({len(table.ratings)} accounts, {table.games:,} games): "
              f"mean {statistics.mean(fits):.1f} s, longest {max(fits):.1f} s", flush=True)
        players = []
        for game in (records.game(rng.randint(1, last)) for _ in range(picks)):
            pool = next(pool for pool in pools if pool.id == game.pool)
            players.append((rng.choice((game.black, game.white)), pool.name))
        pages = LadderPages(records, port=0, ratings=ratings)
        try:
            url = pages.url
            pairs = [
                ("a pool's page", lambda: f"{url}/pool/{rng.choice(pools).name}"),
                ("a pool's JSON", lambda: f"{url}/api/pool/{rng.choice(pools).name}"),
                ("an account's page", lambda: f"{url}/account/{rng.choice(players)[0]}"),
                ("an account's JSON", lambda: f"{url}/api/account/{rng.choice(players)[0]}"),
                ("a game's page (first visit)", lambda: f"{url}/game/{rng.randint(1, last)}"),
                ("a game's JSON", lambda: f"{url}/api/game/{rng.randint(1, last)}"),
                ("the pools", lambda: f"{url}/"),
                ("health", lambda: f"{url}/health"),
            ]
            for label, address in pairs:
                report(label, [fetch(address()) for _ in range(picks)])
        finally:
            pages.stop()


if __name__ == "__main__":
    main()
