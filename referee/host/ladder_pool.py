"""One pool of the ladder service: a game with its clock, its entrants (accounts and house
anchors), their live ratings, and the runner that pairs and plays them.

A pool is a run of the one :class:`~referee.run.runner.Runner` with this policy:

* **which games**: a rated :class:`~referee.plan.ladder.Ladder`: the ready, idle entrants are
  paired by closeness of rating with some randomness, as soon as they are free, for as long as
  the service runs;
* **starts**: :class:`~referee.plan.ladder.LadderStarts`: a pair of entrants' first meeting
  takes the next opening of the pool's book (if it has one) and a seed of its own (a random
  start is drawn from it), their next meeting replays it with colours swapped, so that
  deterministic engines do not play one game over and over; the return games owed when the
  service stopped are owed again when it starts (found among the pool's finished games);
* **seats**: :class:`~referee.play.pool_seats.PoolSeating`, which grows as accounts join;
* **records**: :class:`PoolRecords`, the service's database: a game is recorded as in progress
  when it starts and finished (with the ratings it gave, and the opening or random start it
  was played from) when it ends, so that a stop or a crash leaves it aborted and unrated,
  never lost or half-written.

**Ratings** are Glicko-2 (:mod:`referee.stats.glicko`), updated after every game with that game
as the rating period, the deviation first grown by the days since the player's last game (so
that an engine that changed while away moves again). A house anchor's rating is fixed: its
opponents are rated against it, it never moves, so the pool's scale does not drift.
"""

from __future__ import annotations

import dataclasses
import datetime
import random
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from ..plan.ladder import Ladder, LadderStarts, owed_returns
from ..plan.schedule import ScheduledGame
from ..plan.setup import Opening
from ..play.entrants import EngineSpec
from ..play.lag import LagPolicy
from ..play.pool_seats import AccountSeat, AnchorSeat, PoolSeating
from ..play.remote import RemoteChannel
from ..records.database import (
    Account,
    Ending,
    Engine,
    LadderDatabase,
    Pool,
    Rating,
    Seating,
    now,
)
from ..records.results import FinishedGame
from ..report.live import LiveGames
from ..report.observers import LiveView
from ..run.executor import ThreadExecutor
from ..run.observer import Observers, Run, RunObserver
from ..run.records import Records
from ..run.runner import Runner
from ..stats import Tally, summary_of
from ..stats.glicko import Glicko, idle, update
from .event_server import POLICY_VIOLATION
from .ladder_file import PoolSettings

# A house anchor's deviation: small, as a rating known for sure.
ANCHOR_DEVIATION = 30.0
# The length of a Glicko-2 rating period when a player is idle (days), as lichess counts.
RATING_PERIOD_DAYS = 1.0
# How many of the last games handed out a pool's run keeps (the database keeps them all).
PLANNED_KEPT = 1000


@dataclass
class Entrant:
    """One of a pool's entrants: its account, and its fixed rating if it is a house anchor."""

    account: Account
    anchor: float | None = None


class LadderPool:
    """A pool being served, its games started from the openings of ``book`` (none: the game's
    own start); see the module docstring. ``log`` takes a line per finished game."""

    def __init__(self, settings: PoolSettings, pool: Pool, records: LadderDatabase,
                 grace: float, lag: LagPolicy, concurrency: int,
                 log: Callable[[str], None], book: Sequence[Opening] = ()) -> None:
        self.settings = settings
        self.pool = pool
        self.records = records
        self.grace = grace
        self.lag = lag
        self.log = log
        self.entrants: list[Entrant] = []
        self.seating = PoolSeating()
        self.live = LiveGames()
        self._index: dict[int, int] = {}  # entrant index by account id
        self._lock = threading.Lock()
        self.ratings: dict[int, tuple[Glicko, datetime.datetime]] = self._saved_ratings()
        seed = random.SystemRandom().randrange(1 << 31)
        # The games handed out, of which a pool that runs for months keeps only the last.
        planned = deque(maxlen=PLANNED_KEPT)
        self.run = Run(settings.setup, [], planned, Path(), seed)  # type: ignore[arg-type]
        self.book = book
        self.starts = LadderStarts(book, seed, lambda index: self.entrants[index].account.id)
        self.ladder = Ladder(seed, 0, [], 0, rating=self.rating_of, starts=self.starts)
        kept = PoolRecords(self)
        self.runner = Runner(self.run, ThreadExecutor(concurrency), kept,
                             Observers([_GameStarts(self, kept),
                                        LiveView(self.live, kept.database_id)]),
                             self.seating, self.ladder)

    def _saved_ratings(self) -> dict[int, tuple[Glicko, datetime.datetime]]:
        """Every rated account's latest rating in this pool, and when it last played."""
        ratings = {}
        for standing in self.records.standings(self.pool.id):
            account = self.records.account_by_name(standing.account)
            if account is not None and standing.rating is not None:
                ratings[account.id] = (Glicko(standing.rating, standing.deviation,
                                              standing.volatility), standing.last_seen)
        return ratings

    # Entrants.

    def join(self, account: Account) -> RemoteChannel:
        """The channel of ``account`` in this pool, made when it first joins."""
        with self._lock:
            index = self._index.get(account.id)
            if index is not None:
                return self.seating.seats()[index].channel  # type: ignore[attr-defined]
            channel = RemoteChannel(f"{account.name}@{self.pool.name}", self.grace, self.lag)
            self._seat(Entrant(account), AccountSeat(channel))
            return channel

    def add_anchor(self, account: Account, engine: str, rating: float) -> None:
        """A house anchor: ``engine`` run by the server as ``account``, its rating fixed."""
        spec = EngineSpec(engine, account.name, control=self.settings.control)
        with self._lock:
            self._seat(Entrant(account, rating),
                       AnchorSeat(spec, self.settings.setup.command_timeout or 30.0))

    def _seat(self, entrant: Entrant, seat: AccountSeat | AnchorSeat) -> None:
        """Seat a new entrant (its seat first: the runner counts entrants by their specs)."""
        self._index[entrant.account.id] = self.seating.add(seat)
        self.entrants.append(entrant)
        self.run.engines.append(EngineSpec("remote", entrant.account.name,  # type: ignore
                                           control=self.settings.control))

    def anchors(self) -> list[Entrant]:
        """The pool's house anchors, in the order they were seated."""
        return [entrant for entrant in self.entrants if entrant.anchor is not None]

    def channels(self) -> list[RemoteChannel]:
        """The channels of the accounts that ever joined this pool (not the house's)."""
        return [seat.channel for seat in self.seating.seats() if isinstance(seat, AccountSeat)]

    def bar(self, barred: frozenset[int]) -> None:
        """Pair none of the ``barred`` accounts (disabled or merged by the operator while the
        service runs) from now on, and close their connections (they are refused at their next
        login); lift the bar of the others."""
        for entrant, seat in zip(self.entrants, self.seating.seats()):
            if not isinstance(seat, AccountSeat):
                continue
            newly = entrant.account.id in barred and not seat.barred
            seat.barred = entrant.account.id in barred
            link = seat.channel.link
            if newly and link is not None:
                link.close(POLICY_VIOLATION, "your account was disabled or merged by the operator")
                self.log(f"{seat.channel.name}: account disabled or merged, disconnected")

    def rename(self, names: Mapping[int, str]) -> None:
        """Call the entrants by their accounts' names in ``names`` (account id to name now,
        for accounts the operator renamed while the service runs): in the log lines, the games
        in progress and those to come."""
        with self._lock:
            for index, entrant in enumerate(self.entrants):
                old, new = entrant.account.name, names.get(entrant.account.id)
                if new is None or new == old:
                    continue
                entrant.account = dataclasses.replace(entrant.account, name=new)
                self.run.engines[index] = dataclasses.replace(self.run.engines[index], name=new)
                seat = self.seating.seats()[index]
                if isinstance(seat, AccountSeat):
                    seat.channel.name = f"{new}@{self.pool.name}"
                self.log(f"{self.pool.name}: {old} is now called {new}")
                self.live.rename(old, new)

    def connected(self) -> frozenset[int]:
        """The accounts connected to this pool now (house anchors always are)."""
        return frozenset(entrant.account.id for index, entrant in enumerate(self.entrants)
                         if self.seating.ready(index))

    # Ratings.

    def glicko(self, index: int, when: datetime.datetime | None = None) -> Glicko:
        """Entrant ``index``'s rating now (a house anchor's fixed one), its deviation grown
        by the time since its last game as of ``when``."""
        entrant = self.entrants[index]
        if entrant.anchor is not None:
            return Glicko(entrant.anchor, ANCHOR_DEVIATION)
        rating, last = self.ratings.get(entrant.account.id, (Glicko(), None))
        if last is None or when is None:
            return rating
        days = max(0.0, (when - last).total_seconds() / 86400)
        return idle(rating, days / RATING_PERIOD_DAYS)

    def rating_of(self, index: int) -> float:
        return self.glicko(index).rating

    def rate(self, black: int, white: int, winner: int | None,
             when: datetime.datetime) -> list[Rating]:
        """The ratings of a finished game's players after it (a house anchor's unchanged),
        kept as the players' ratings from now on."""
        before = [self.glicko(black, when), self.glicko(white, when)]
        after = []
        for colour, index in enumerate((black, white)):
            entrant = self.entrants[index]
            rating = before[colour]
            if entrant.anchor is None:
                score = 0.5 if winner is None else float(winner == colour)
                rating = update(rating, [(before[1 - colour], score)])
                self.ratings[entrant.account.id] = (rating, when)
            after.append(Rating(entrant.account.id, rating.rating, rating.deviation,
                                rating.volatility))
        return after

    # The run.

    def serve(self) -> str | None:
        """Play the pool's games until stopped (on this thread): why it stopped. The return
        games owed from before are found first, here rather than at the service's start,
        which they would delay (0.15 s a pool of 100,000 games and 60,000 pairs)."""
        self.starts.owe(owed_returns(self.records.latest_games(self.pool.id), self.book))
        return self.runner.execute()

    def stop(self) -> None:
        """Stop now: the games in progress are abandoned (the service marks them aborted)."""
        self.runner.interrupt()
        self.runner.interrupt()


class _GameStarts(RunObserver):
    """Records each game as in progress in the database the moment it is handed out."""

    def __init__(self, pool: LadderPool, kept: PoolRecords) -> None:
        self.pool = pool
        self.kept = kept

    def game_started(self, game: ScheduledGame) -> None:
        pool = self.pool
        black, white = (pool.entrants[index].account.id for index in (game.black, game.white))
        unknown = Engine("", "")
        record = pool.records.start_game(Seating(pool.pool.id, black, white, unknown, unknown,
                                                 now()))
        self.kept.started[game.game_no] = record


class PoolRecords(Records):
    """A pool's finished games, in the service's database; see the module docstring."""

    def __init__(self, pool: LadderPool) -> None:
        self.pool = pool
        self.started: dict[int, int] = {}  # database id by the runner's game number
        self.summary = summary_of(Tally(0), [], rated=False)  # a pool keeps no run summary

    def kept(self, game_no: int) -> bool:
        return False  # a pool's games are numbered afresh each time the service starts

    def database_id(self, game: ScheduledGame) -> int:
        """A started game's number in the database (its page's), which the games in progress
        show: the runner's numbers start afresh with each pool and each start."""
        return self.started[game.game_no]

    def keep(self, game: FinishedGame) -> None:
        pool = self.pool
        row = game.row
        black, white = row["black_index"] - 1, row["white_index"] - 1
        finished = now()
        outcome = game.result.outcome
        ratings = pool.rate(black, white, outcome.winner, finished)
        engines = tuple(Engine(*(said or ("", ""))) for said in game.engines)
        pool.records.finish_game(self.started.pop(row["game_no"]),
                                 _ending(game, finished), ratings, engines)  # type: ignore
        names = (pool.entrants[black].account.name, pool.entrants[white].account.name)
        pool.log(f"{pool.pool.name}: {names[0]} - {names[1]} {outcome.result} "
                 f"({outcome.termination.value}, {row['plies']} plies)")


def _ending(game: FinishedGame, finished: datetime.datetime) -> Ending:
    """The database's record of a finished game: each move's charged time and, for a move
    across the network, the lag allowance granted (0 for the others); the opening it started
    from, the options of its random start and the seed they were drawn with."""
    row = game.row
    allowances = [iter([allowance for _, allowance in row.get(f"{colour}_lag") or ()])
                  for colour in ("black", "white")]
    first = 0 if game.first_player == "black" else 1
    lag = [next(allowances[(first + ply) % 2], 0.0) for ply in range(len(row["moves"]))]
    return Ending(tuple(row["moves"]), tuple(seconds or 0.0 for seconds in game.times),
                  tuple(lag), game.result.outcome, finished, game.result.at_fault,
                  tuple(row.get("analysis") or ()), row["opening"], row["opening_plies"],
                  dict(row["start_options"]), row["seed"])
