"""A ladder pool's all-time table: Bradley-Terry over every finished game of the pool, with
error bars (:mod:`.ratings`), from its per-pair results (one aggregate of the database, so that
the millionth game costs what the first did). The ladder service refits it in the background
(:mod:`referee.host.ladder_alltime`) and its pages show it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Sequence

from ..records.database import PairResult, now
from .ratings import fit_pairings


@dataclass(frozen=True)
class AllTimeRating:
    """One account's all-time rating, the half-width of its 95 % interval, its games."""

    account: str
    elo: float
    error: float
    games: int


@dataclass(frozen=True)
class AllTimeTable:
    """A pool's all-time table, best first, as of ``games`` finished games at ``computed``;
    ``anchor`` names the house anchor that fixes the scale (``None``: mean 0). ``ratings``
    is empty when the games do not connect every account (no common scale exists then)."""

    games: int
    computed: datetime.datetime
    ratings: tuple[AllTimeRating, ...]
    anchor: str | None
    virtual_draws: int


def fit_pool(pairs: Sequence[PairResult], anchor: tuple[int, float] | None = None,
             computed: datetime.datetime | None = None) -> AllTimeTable:
    """The all-time table of a pool's per-pair results; ``anchor`` (account id, rating) is
    used when that account played in the pool."""
    names: dict[int, str] = {}
    for pair in pairs:
        names.setdefault(pair.black, pair.black_name)
        names.setdefault(pair.white, pair.white_name)
    index = {account: number for number, account in enumerate(sorted(names))}
    cells = [[[0, 0.0] for _ in index] for _ in index]
    games = [0] * len(index)
    total = 0
    for pair in pairs:
        black, white = index[pair.black], index[pair.white]
        played = pair.wins + pair.draws + pair.losses
        total += played
        if black == white:  # two accounts that met, merged since: no rating in it
            continue
        points = pair.wins + pair.draws / 2
        for me, other, scored in ((black, white, points), (white, black, played - points)):
            cells[me][other][0] += played
            cells[me][other][1] += scored
            games[me] += played
    used = anchor if anchor is not None and anchor[0] in index else None
    table = fit_pairings(cells, None if used is None else (index[used[0]] + 1, used[1])) \
        if len(index) > 1 else None
    ratings = () if table is None else tuple(sorted(
        (AllTimeRating(names[account], table.ratings[number].elo, table.ratings[number].error,
                       games[number]) for account, number in index.items()),
        key=lambda rating: (-rating.elo, rating.account)))
    return AllTimeTable(total, computed or now(), ratings,
                        None if used is None else names[used[0]],
                        0 if table is None else table.virtual_draws)
