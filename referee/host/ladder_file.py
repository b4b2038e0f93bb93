"""The ladder's service file (``ladder.toml``): the whole service, read into
:class:`LadderSettings`.

Top-level keys: ``name``, ``database`` (the SQLite file), ``registration`` (``"open"``: a
first login makes an account; ``"invitation"``: a new account needs an invitation token),
``grace`` (seconds a dropped participant has to come back during a game, default 60),
``concurrency`` (most games at once in each pool, default 500), ``flush`` (default ``true``:
every write flushed to the disk before it counts as done, so that neither a kill of the server
nor a power cut loses a finished game; ``false`` saves the flush, a fraction of a millisecond
on an idle disk and several on a busy one, and a power cut may then lose the last games:
:mod:`referee.records.database`).
Tables: ``[listen]`` (``host``, ``port``, ``certificate``, ``key``, ``plain``: where
participants connect), ``[pages]`` (``host``, ``port``; port 0: no pages), ``[lag]`` and
``[limits]`` as in the event file (:mod:`.file_tables`), one ``[[pool]]`` per pool (``name``,
then the game and its clock as the event file gives them: ``game``, ``options``,
``boardsize``, ``time``, ``increment``, ``byoyomi``, ``stones``, ``move-time``,
``time-margin``, ``max-moves``; ``openings``, an opening book as ``match --openings`` takes
it, and ``opening-plies``, its openings cut to that many moves: the service checks the book
when it starts) and one ``[[anchor]]`` per house engine (``pool``, ``name``, ``engine``: its
command line, ``rating``: its fixed Glicko-2 rating).

Paths are relative to the file's folder. Every mistake is a :class:`LadderFileError` of one
line naming the key, a key that nothing reads included (:meth:`.Table.refuse_unused`: a typo
would leave its default in force without a word).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..plan.setup import Setup
from ..plan.time_control import TimeControl
from ..play.lag import LagPolicy
from ..records.config import ConfigError, read_config
from .accounts import name_key, name_problem
from .door import DoorPolicy
from .file_tables import (
    Listen,
    Table,
    control_of,
    door_of,
    lag_of,
    listen_of,
    refuse_repeats,
    setup_of,
)
from .ladder_pages import DEFAULT_PORT as DEFAULT_PAGES_PORT

DEFAULT_PORT = 6860
REGISTRATION = ("open", "invitation")
# A pool's name is part of the pages' addresses: letters, digits, "-", "_" and ".".
POOL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")


class LadderFileError(ValueError):
    """A service file that cannot be used; the message is one line."""


@dataclass(frozen=True)
class PoolSettings:
    """One pool: a game with its options and board, and one clock for every game in it; the
    opening book its games start from (``None``: none), its openings cut to
    ``opening_plies`` moves (``None``: whole)."""

    name: str
    setup: Setup
    control: TimeControl
    openings: Path | None = None
    opening_plies: int | None = None

    @property
    def board(self) -> str:
        """The board as the pages show it (the game's own when none is given)."""
        size = self.setup.size or self.setup.make_game().size
        return f"{size[0]}x{size[1]}" if size else ""


@dataclass(frozen=True)
class AnchorSettings:
    """A house engine: run by the server in ``pool`` as the account ``name``, its rating fixed."""

    pool: str
    name: str
    engine: str
    rating: float


@dataclass(frozen=True)
class LadderSettings:
    """The service, checked; see the module docstring."""

    name: str
    database: Path
    pools: tuple[PoolSettings, ...]
    anchors: tuple[AnchorSettings, ...] = ()
    registration: str = "open"
    grace: float = 60.0
    concurrency: int = 500
    flush: bool = True
    listen: Listen = Listen(port=DEFAULT_PORT)
    pages: tuple[str, int] = ("127.0.0.1", DEFAULT_PAGES_PORT)
    lag: LagPolicy = LagPolicy()
    door: DoorPolicy = DoorPolicy()
    hello: float = 10.0

    def pool(self, name: str) -> PoolSettings | None:
        return next((pool for pool in self.pools if pool.name == name), None)


def read_ladder(path: Path) -> LadderSettings:
    """The service file at ``path``; raises :class:`LadderFileError`."""
    try:
        data = read_config(path)
    except ConfigError as error:
        raise LadderFileError(str(error)) from None
    except ValueError as error:  # TOML syntax
        raise LadderFileError(f"{path}: {error}") from None
    try:
        reader = Table(data, str(path))
        settings = _ladder(reader, path)
        reader.refuse_unused()
        return settings
    except ValueError as error:
        raise LadderFileError(f"{path}: {error}") from None


def _pools(table: Table, grace: float, home: Path) -> tuple[PoolSettings, ...]:
    pools = []
    for item in table.tables("pool"):
        name = item.get("name", str)
        if not name or not POOL_NAME.fullmatch(name):
            raise ValueError(f"{item.where}: name must be 1 to 40 letters, digits, '-', '_' "
                             f"and '.', not {name!r}")
        try:
            pools.append(PoolSettings(name, setup_of(item, grace), control_of(item),
                                      *_book_of(item, home)))
        except ValueError as error:
            raise ValueError(f"pool {name}: {error}") from None
    names = [pool.name for pool in pools]
    if not pools:
        raise ValueError("no pool ([[pool]] with a name and a game)")
    refuse_repeats(names, "pools")
    return tuple(pools)


def _book_of(item: Table, home: Path) -> tuple[Path | None, int | None]:
    """A pool's ``openings`` (a path relative to ``home``) and ``opening-plies``; the book
    itself is read when the service starts."""
    book, plies = item.get("openings", str), item.get("opening-plies", int)
    if book is None and plies is not None:
        raise ValueError('opening-plies needs openings (openings = "FILE")')
    if plies is not None and plies < 0:
        raise ValueError(f"opening-plies must be at least 0, not {plies}")
    if book is not None and not book.strip():
        raise ValueError('openings must name a book (openings = "FILE")')
    return (home / book if book is not None else None), plies


def _anchors(table: Table, pools: tuple[PoolSettings, ...]) -> tuple[AnchorSettings, ...]:
    anchors = []
    for item in table.tables("anchor"):
        pool, name, engine = (item.get(key, str) for key in ("pool", "name", "engine"))
        if pool not in [known.name for known in pools]:
            raise ValueError(f"{item.where}: pool {pool!r} is not a pool of this file")
        problem = name_problem(name or "")
        if problem:
            raise ValueError(f"{item.where}: {problem}")
        if not engine or not engine.strip():
            raise ValueError(f"{item.where}: no engine (engine = \"COMMAND\")")
        anchors.append(AnchorSettings(pool, name, engine,
                                      item.number("rating", 1500.0, -1e6)))
    keys = [(anchor.pool, name_key(anchor.name)) for anchor in anchors]
    if len(set(keys)) != len(keys):
        raise ValueError("two anchors of one pool have the same name")
    return tuple(anchors)


def _ladder(reader: Table, path: Path) -> LadderSettings:
    home = path.resolve().parent
    grace = reader.number("grace", 60.0)
    pools = _pools(reader, grace, home)
    registration = reader.choice("registration", REGISTRATION, "open")
    pages = reader.table_of("pages")
    limits = reader.table_of("limits")
    return LadderSettings(
        name=reader.get("name", str, path.stem),
        database=home / reader.get("database", str, f"{path.stem}.db"),
        pools=pools, anchors=_anchors(reader, pools), registration=registration,
        grace=grace, concurrency=reader.whole("concurrency", 500, 1),
        flush=reader.get("flush", bool, True),
        listen=listen_of(reader.table_of("listen"), home, DEFAULT_PORT),
        pages=(pages.get("host", str, "127.0.0.1"), pages.whole("port", DEFAULT_PAGES_PORT)),
        lag=lag_of(reader.table_of("lag")), door=door_of(limits),
        hello=limits.number("hello", 10.0, 0.1))
