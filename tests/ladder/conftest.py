"""A small ladder in a real SQLite file, for the pages' tests: two pools, five accounts (one
with a name that is also HTML), games with real Breakthrough moves on two UTC days (analysis
on one), a game in progress and an aborted one. :class:`Ladder` keeps what was written, for
the tests to check the pages against."""

from __future__ import annotations

import datetime
import json
import random
import urllib.error
import urllib.request
from dataclasses import dataclass, field

import pytest

from engine import Outcome, Termination, find_game
from referee.host.ladder_alltime import AllTimeRatings
from referee.host.ladder_pages import LadderPages
from referee.records.database import (
    Account,
    Ending,
    Engine,
    LadderDatabase,
    Pool,
    Rating,
    Seating,
)

DAY = datetime.date(2026, 3, 1)
NOON = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)
HOSTILE = "<script>x</script>"  # an engine's name answer
NAMES = ("alpha", "beta", "gamma", "_under", "delta")
NAME = "The <Test> Ladder"  # the ladder's name, as a service file gives it


@dataclass
class Ladder:
    """What the fixture wrote: accounts by name, pools by name, finished games by id with
    (pool, black, white, winner, finished), and the games in progress and aborted."""

    records: LadderDatabase
    accounts: dict[str, Account] = field(default_factory=dict)
    pools: dict[str, Pool] = field(default_factory=dict)
    finished: dict[int, tuple[str, str, str, int | None, datetime.datetime]] = \
        field(default_factory=dict)
    playing: int = 0
    aborted: int = 0


def random_moves(rng: random.Random, plies: int) -> tuple[str, ...]:
    """``plies`` legal Breakthrough moves (fewer if the game ends first)."""
    position = find_game("breakthrough")().initial_position()
    moves = []
    for _ in range(plies):
        texts = position.legal_move_texts()
        if not texts:
            break
        move = rng.choice(texts)
        moves.append(move)
        position.play(position.parse_move(move))
    return tuple(moves)


def write_game(ladder: Ladder, pool: str, black: str, white: str, winner: int | None,
               finished: datetime.datetime, rng: random.Random, analysis: bool = False) -> int:
    records = ladder.records
    moves = random_moves(rng, 12)
    seat = Seating(ladder.pools[pool].id, ladder.accounts[black].id, ladder.accounts[white].id,
                   Engine(HOSTILE if black == "beta" else f"{black}-bot", "1.0"),
                   Engine(f"{white}-bot", "2.0"), finished - datetime.timedelta(minutes=5))
    notes = tuple({"score": 0.1 * (ply % 5) - 0.2, "depth": 3, "pv": [move]}
                  for ply, move in enumerate(moves)) if analysis else ()
    end = Ending(moves, (0.5,) * len(moves), (0.01,) * len(moves),
                 Outcome(winner, Termination.NORMAL, "no moves left"), finished,
                 analysis=notes)
    ratings = [Rating(ladder.accounts[black].id, 1500.0 + rng.uniform(-100, 100), 80.0, 0.06),
               Rating(ladder.accounts[white].id, 1500.0 + rng.uniform(-100, 100), 80.0, 0.06)]
    number = records.add_game(seat, end, ratings)
    ladder.finished[number] = (pool, black, white, winner, finished)
    return number


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    rng = random.Random(7)
    path = tmp_path_factory.mktemp("ladder") / "ladder.db"
    with LadderDatabase(path) as records:
        made = Ladder(records)
        for name in NAMES:
            made.accounts[name] = records.add_account(name, name.lower(), "x", NOON)
        made.pools["bt"] = records.add_pool("bt", "breakthrough", {}, None, "60+1")
        made.pools["bt-small"] = records.add_pool("bt-small", "breakthrough", {}, (6, 6),
                                                  "30")
        players = NAMES[:4]
        for number in range(24):  # every pair of the first four meets, on two days
            black, white = rng.sample(players, 2)
            finished = NOON + datetime.timedelta(hours=number)  # noon to 11:00 next day
            write_game(made, "bt", black, white, rng.choice((0, 1, None)), finished, rng,
                       analysis=number == 0)
        write_game(made, "bt-small", "alpha", "delta", 0, NOON, rng)
        seat = Seating(made.pools["bt"].id, made.accounts["alpha"].id, made.accounts["beta"].id,
                       Engine("a", "1"), Engine("b", "1"), NOON)
        made.aborted = records.start_game(seat)
        records.abort_unfinished()
        made.playing = records.start_game(seat)
        yield made


@pytest.fixture(scope="module")
def pages(ladder):
    """The pages of the ladder :data:`NAME` on 127.0.0.1, ``alpha`` connected to ``bt``,
    ``alpha`` anchoring ``bt`` at 2000, the all-time tables fitted once before any request."""
    alpha = ladder.accounts["alpha"].id
    anchors = {ladder.pools["bt"].id: (alpha, 2000.0)}
    ratings = AllTimeRatings(ladder.records, anchors, look=0.05)
    for pool in ladder.pools.values():
        ratings.refresh(pool.id)
    server = LadderPages(ladder.records, presence=lambda pool: frozenset(
        {alpha} if pool == ladder.pools["bt"].id else ()), port=0, ratings=ratings, name=NAME)
    yield server
    server.stop()


def get(url: str) -> tuple[int, str, dict[str, str]]:
    """The status, body text and headers of a GET of ``url``; an error status is no error."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


def get_json(url: str):
    status, body, _ = get(url)
    assert status == 200, body
    return json.loads(body)
