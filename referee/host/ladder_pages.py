"""The ladder's read-only web side: its pages, a JSON API, the daily SGF archives and a health
endpoint, served over HTTP on a port of their own.

=====================================  ==========================================================
``/``                                  the pools: game, board, time control, connected, today's
``/pool/NAME``                         standings, all-time table, games in progress, recent games
``/pool/NAME/YYYY-MM-DD.sgf``          the pool's games finished on that UTC day, one SGF file
``/account/NAME``                      rating over time per pool, results per opponent, recent
                                       games, engines seen
``/game/ID``                           the game in the report's replay viewer
``/live``                              every pool's games in progress, moving
``/api/pools``, ``/api/pool/NAME``,    the same as JSON; ``/api/live?pool=NAME`` one pool's
``/api/pool/NAME/YYYY-MM-DD``,         games in progress (what ``/live`` and the pool pages
``/api/account/NAME``,                 poll every second)
``/api/game/ID``, ``/api/live``
``/health``                            200 and a small JSON while the database reads, else 503
=====================================  ==========================================================

Every request goes through the one gate (:mod:`.http_gate`): a path or query it does not
declare is refused there, names are at most 100 characters of ``A-Z a-z 0-9 . _ -``, a game
is a number; an unknown pool, account, game or a bad day is 404. The database is only read
(:class:`~referee.records.database.LadderDatabase`, each read a snapshot of its own); the HTML
is :mod:`referee.report.ladder_html`'s.

The service hands in what only it knows, each with a harmless default: ``presence`` (pool id to
the account ids connected to it now), ``live`` (pool id to its
:class:`~referee.report.live.LiveGames`, or ``None``) and ``anchors`` (pool id to the house
anchor's account id and fixed rating, for the all-time ratings, :mod:`.ladder_alltime`).
"""

from __future__ import annotations

import datetime
import functools
import logging
import re
import threading
import time
from http import HTTPStatus
from typing import Any, Callable, Mapping

from engine import GameError

from ..records.database import (
    Account,
    EngineSeen,
    Game,
    GameStatus,
    LadderDatabase,
    Pool,
    Standing,
    UTC,
    now,
)
from ..records.game_sgf import sgf_text
from ..records.results import game_of_row
from ..report import ladder_html as html
from ..report.live import LiveGames
from ..report.replay import replay
from ..stats.alltime import AllTimeTable
from .http_gate import Field, Gate, GatedHandler, GatedServer, Limits, Request, Route, plain_text
from .ladder_alltime import AllTimeRatings

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8090
RECENT = 20          # recent games on a pool's and an account's page
REPLAYS_KEPT = 256   # finished games' replay data kept in memory (they never change)
LIMITS = Limits(connections=128)

NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")
NUMBER = re.compile(r"[0-9]{1,12}")
DAY = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(\.sgf)?")
ROUTES = {
    "/": Route("GET"),
    "/live": Route("GET"),
    "/health": Route("GET"),
    "/pool/": Route("GET", folder=True, levels=2, names=NAME),
    "/account/": Route("GET", folder=True, names=NAME),
    "/game/": Route("GET", folder=True, names=NUMBER),
    "/api/pools": Route("GET"),
    "/api/pool/": Route("GET", folder=True, levels=2, names=NAME),
    "/api/account/": Route("GET", folder=True, names=NAME),
    "/api/game/": Route("GET", folder=True, names=NUMBER),
    "/api/live": Route("GET", {"pool": Field(plain_text(100, NAME))}),
}
log = logging.getLogger("referee.ladder.pages")


class NotFound(LookupError):
    """A pool, account, game or day that is not there: answered 404 with this one line."""


def _nobody(pool: int) -> frozenset[int]:
    return frozenset()


def _no_games(pool: int) -> LiveGames | None:
    return None


# --- values as JSON --------------------------------------------------------------------------

def _moment(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def pool_json(pool: Pool) -> dict[str, Any]:
    return {"name": pool.name, "game": pool.game, "options": dict(pool.options),
            "board": None if pool.size is None else list(pool.size),
            "time_control": pool.time_control}


def standing_json(line: Standing, connected: frozenset[str]) -> dict[str, Any]:
    return {"account": line.account, "connected": line.account in connected,
            "rating": line.rating, "deviation": line.deviation, "volatility": line.volatility,
            "games": line.games, "wins": line.wins, "draws": line.draws, "losses": line.losses,
            "last_seen": _moment(line.last_seen)}


def alltime_json(table: AllTimeTable | None) -> dict[str, Any] | None:
    if table is None:
        return None
    return {"games": table.games, "computed": _moment(table.computed), "anchor": table.anchor,
            "virtual_draws": table.virtual_draws,
            "ratings": [{"account": rating.account, "elo": rating.elo, "error": rating.error,
                         "games": rating.games} for rating in table.ratings]}


def game_json(game: Game, whole: bool = False) -> dict[str, Any]:
    """A game's facts; ``whole``: its moves, times, lag and analysis too."""
    ending = game.ending
    facts: dict[str, Any] = {
        "id": game.id, "black": game.black, "white": game.white,
        "black_engine": {"name": game.black_engine.name, "version": game.black_engine.version},
        "white_engine": {"name": game.white_engine.name, "version": game.white_engine.version},
        "status": game.status.value, "started": _moment(game.started),
        "finished": _moment(ending.finished) if ending else None,
        "result": ending.outcome.result if ending else None,
        "termination": ending.outcome.termination.value if ending else None,
        "reason": ending.outcome.reason if ending else game.abort_reason or None,
        "plies": len(ending.moves) if ending else None,
    }
    if whole and ending is not None:
        facts.update(moves=list(ending.moves), times=list(ending.times), lag=list(ending.lag),
                     at_fault=None if ending.at_fault is None else
                     ("black", "white")[ending.at_fault],
                     analysis=list(ending.analysis) or None, opening=ending.opening,
                     opening_plies=ending.opening_plies,
                     start_options=dict(ending.start_options))
    return facts


# --- what the pages read ---------------------------------------------------------------------

def results_row(game: Game, pool: Pool) -> dict[str, Any]:
    """A finished game as a results row, what the replay viewer and the SGF writer read: its
    options are the pool's and those of its random start (as a match's row has them), its
    first ``opening_plies`` moves those of its ``opening``."""
    ending = game.ending
    start = dict(ending.start_options)
    row = {"game_no": game.id, "game": pool.game, "options": {**pool.options, **start},
           "start_options": start, "size": list(pool.size) if pool.size else None,
           "black": game.black, "white": game.white, "moves": list(ending.moves),
           "opening": ending.opening, "opening_plies": ending.opening_plies,
           "result": ending.outcome.result, "termination": ending.outcome.termination.value,
           "reason": ending.outcome.reason, "analysis": list(ending.analysis),
           "finished": ending.finished.strftime("%Y-%m-%d")}
    row["first_player"] = ("black", "white")[game_of_row(row).first_player]
    return row


class LadderReader:
    """The pages' reads of the records, and what the service adds (who is connected, the
    games moving now, the all-time tables); raises :class:`NotFound`."""

    def __init__(self, records: LadderDatabase, presence: Callable[[int], frozenset[int]],
                 live: Callable[[int], LiveGames | None], ratings: AllTimeRatings) -> None:
        self.records = records
        self.presence = presence
        self.live = live
        self.ratings = ratings
        self._replay = functools.lru_cache(maxsize=REPLAYS_KEPT)(self._replay)

    def pool(self, name: str) -> Pool:
        for pool in self.records.pools():
            if pool.name == name:
                return pool
        raise NotFound(f"no pool called {name}")

    def connected(self, pool: Pool) -> frozenset[str]:
        """The names of the accounts connected to ``pool`` now."""
        return frozenset(self.records.names_of(self.presence(pool.id)).values())

    def pool_lines(self) -> list[html.PoolLine]:
        midnight = datetime.datetime.combine(now().date(), datetime.time(), UTC)
        today = self.records.finished_since(midnight)
        return [html.PoolLine(pool, len(self.presence(pool.id)), today.get(pool.id, 0))
                for pool in self.records.pools()]

    def account(self, name: str) -> tuple[Account, list[html.AccountInPool], tuple[Game, ...],
                                          tuple[EngineSeen, ...]]:
        account = self.records.account_by_name(name)
        if account is None:
            raise NotFound(f"no account called {name}")
        pools = {pool.id: pool for pool in self.records.pools()}
        parts = [html.AccountInPool(pools[pool], self.records.rating_history(account.id, pool),
                                    self.records.results_by_opponent(account.id, pool))
                 for pool in self.records.account_pools(account.id)]
        return (account, parts, self.records.recent_games(RECENT, account=account.id),
                self.records.engines_seen(account.id))

    def game(self, number: str) -> tuple[Game, Pool]:
        game = self.records.game(int(number))
        if game is None:
            raise NotFound(f"no game {number}")
        pool = next(pool for pool in self.records.pools() if pool.id == game.pool)
        return game, pool

    def replay_of(self, game: Game, pool: Pool) -> dict[str, Any] | None:
        """The viewer's data for a finished game (``None`` for another), kept for the next
        visitor: a finished game never changes."""
        return self._replay(game.id) if game.status is GameStatus.FINISHED else None

    def _replay(self, number: int) -> dict[str, Any] | None:
        """The viewer's data for finished game ``number``, ``None`` when its pool's game or
        options are unknown to the rules now."""
        game, pool = self.game(str(number))
        try:
            return replay(results_row(game, pool))
        except GameError:
            return None

    def day(self, pool: Pool, text: str) -> tuple[datetime.date, tuple[Game, ...]]:
        """The games of ``pool`` finished on the UTC day ``text`` (``YYYY-MM-DD``)."""
        try:
            day = datetime.date.fromisoformat(text)
        except ValueError:
            raise NotFound(f"no day {text} (expected YYYY-MM-DD)") from None
        return day, self.records.games_of_day(pool.id, day)

    def live_games(self, pool: Pool) -> list[dict[str, Any]]:
        games = self.live(pool.id)
        return [{**state, "pool": pool.name} for state in games.snapshot()] if games else []


# --- the server ------------------------------------------------------------------------------

def _handler(reader: LadderReader, name: str, started: float,
             limits: Limits) -> type[GatedHandler]:
    """The request handler class over one reader, for the ladder called ``name``."""

    class Handler(GatedHandler):
        gate = Gate(ROUTES, limits)
        logger = log

        def answer(self, request: Request) -> None:
            folder = request.path[:len(request.path) - len(request.name)]
            try:
                if request.name:
                    self._named(folder, request.name)
                else:
                    self._fixed(request)
            except NotFound as missing:
                self.refuse(HTTPStatus.NOT_FOUND, str(missing))

        def _fixed(self, request: Request) -> None:
            if request.path == "/":
                self._page(html.index_page(name, reader.pool_lines()))
            elif request.path == "/live":
                self._page(html.live_page())
            elif request.path == "/health":
                self._health()
            elif request.path == "/api/pools":
                self.send_json({"pools": [
                    {**pool_json(line.pool), "connected": line.connected,
                     "games_today": line.today} for line in reader.pool_lines()]})
            else:
                self._live(request.query["pool"])

        def _named(self, folder: str, name: str) -> None:
            first, _, day = name.partition("/")
            if folder in ("/pool/", "/api/pool/") and day:
                self._day(reader.pool(first), day, folder == "/pool/")
            elif folder == "/pool/":
                self._page(self._pool_page(reader.pool(name)))
            elif folder == "/api/pool/":
                self.send_json(self._pool_json(reader.pool(name)))
            elif folder in ("/account/", "/api/account/"):
                self._account(name, folder == "/account/")
            else:
                game, pool = reader.game(name)
                if folder == "/game/":
                    self._page(html.game_page(game, pool, reader.replay_of(game, pool)))
                else:
                    self.send_json({**game_json(game, whole=True), "pool": pool.name})

        def _page(self, text: str) -> None:
            self.send(HTTPStatus.OK, text.encode(), "text/html; charset=utf-8")

        def _pool_page(self, pool: Pool) -> str:
            return html.pool_page(pool, reader.records.standings(pool.id),
                                  reader.connected(pool), reader.ratings.table(pool.id),
                                  reader.records.recent_games(RECENT, pool=pool.id),
                                  f"/api/live?pool={pool.name}")

        def _pool_json(self, pool: Pool) -> dict[str, Any]:
            connected = reader.connected(pool)
            return {"pool": pool_json(pool),
                    "standings": [standing_json(line, connected)
                                  for line in reader.records.standings(pool.id)],
                    "alltime": alltime_json(reader.ratings.table(pool.id)),
                    "in_progress": [game_json(game) for game in
                                    reader.records.games_in_progress() if game.pool == pool.id],
                    "recent": [game_json(game) for game in
                               reader.records.recent_games(RECENT, pool=pool.id)]}

        def _account(self, name: str, page: bool) -> None:
            account, parts, recent, engines = reader.account(name)
            if page:
                self._page(html.account_page(account, parts, recent, engines))
                return
            self.send_json({
                "account": {"name": account.name, "created": _moment(account.created),
                            "disabled": account.disabled},
                "pools": [{"pool": part.pool.name, "ratings": [
                    {"game": point.game, "finished": _moment(point.finished),
                     "rating": point.rating, "deviation": point.deviation,
                     "volatility": point.volatility} for point in part.history],
                    "opponents": [{"opponent": record.opponent, "games": record.games,
                                   "wins": record.wins, "draws": record.draws,
                                   "losses": record.losses} for record in part.opponents]}
                    for part in parts],
                "recent": [game_json(game) for game in recent],
                "engines": [{"name": seen.engine.name, "version": seen.engine.version,
                             "games": seen.games, "first": _moment(seen.first),
                             "last": _moment(seen.last)} for seen in engines]})

        def _day(self, pool: Pool, text: str, sgf: bool) -> None:
            match = DAY.fullmatch(text)
            if match is None or bool(match.group(2)) != sgf:
                raise NotFound(f"no such archive: {text} (expected YYYY-MM-DD"
                               f"{'.sgf' if sgf else ''})")
            day, games = reader.day(pool, match.group(1))
            if not sgf:
                self.send_json({"pool": pool.name, "day": day.isoformat(),
                                "games": [game_json(game, whole=True) for game in games]})
                return
            if not games:  # an empty file would be no SGF at all
                raise NotFound(f"no game of {pool.name} finished on {day.isoformat()}")
            body = "".join(sgf_text(results_row(game, pool)) for game in games)
            self.send(HTTPStatus.OK, body.encode(), "application/x-go-sgf; charset=utf-8",
                      {"Content-Disposition":
                       f'attachment; filename="{pool.name}-{day.isoformat()}.sgf"'})

        def _live(self, name: str | None) -> None:
            pools = [reader.pool(name)] if name is not None else reader.records.pools()
            self.send_json({"version": started, "running": True, "status": "live",
                            "games": [state for pool in pools
                                      for state in reader.live_games(pool)]})

        def _health(self) -> None:
            try:
                playing = len(reader.records.games_in_progress())
            except Exception as error:  # the file gone, locked, corrupt: say so, do not fail
                self.send_json({"status": "failing", "database": f"{type(error).__name__}: "
                                f"{error}"[:200]}, HTTPStatus.SERVICE_UNAVAILABLE)
                return
            self.send_json({"status": "ok", "database": "readable",
                            "uptime": round(time.monotonic() - started, 1),
                            "games_in_progress": playing})

    return Handler


class LadderPages:
    """The ladder's pages of ``records`` served on ``host:port`` from a daemon thread (port
    0: any free port), with the all-time ratings refreshed by a thread of their own; raises
    ``OSError`` when the address cannot be bound. :meth:`stop` ends both. ``name`` is the
    ladder's, the first page's title."""

    def __init__(self, records: LadderDatabase,
                 presence: Callable[[int], frozenset[int]] = _nobody,
                 live: Callable[[int], LiveGames | None] = _no_games,
                 anchors: Mapping[int, tuple[int, float]] | None = None,
                 host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, limits: Limits = LIMITS,
                 ratings: AllTimeRatings | None = None, name: str = "Ladder") -> None:
        self.ratings = ratings or AllTimeRatings(records, anchors)
        reader = LadderReader(records, presence, live, self.ratings)
        self.httpd = GatedServer((host, port),
                                 _handler(reader, name, time.monotonic(), limits))
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="ladder pages",
                                        daemon=True)
        self._thread.start()
        self.ratings.start()

    @property
    def url(self) -> str:
        """The pages' address, ``http://host:port`` (no slash at the end)."""
        return self.httpd.origin

    def stop(self) -> None:
        self.ratings.stop()
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join()
