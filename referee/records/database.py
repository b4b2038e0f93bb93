"""The ladder service's records in one SQLite file: accounts, invitations, pools, games, ratings
and the standings kept from them.

This module is the database's one owner: nothing else opens the file or writes SQL. Values go
in and come out as small frozen dataclasses (:class:`Account`, :class:`Pool`, :class:`Game`,
:class:`Standing`...), never rows or dicts; a game's end is the rules' own
:class:`~engine.Outcome`.

**Durability.** The file is in WAL mode. With ``flush`` (``synchronous=FULL``, the default)
every write transaction is in the write-ahead log and flushed to the disk (``fsync``) when its
method returns, so a finished game survives a kill of the server and a power cut alike. Without
(``synchronous=NORMAL``, the service file's ``flush = false``) a write is in the log, in the
system's cache, when its method returns: a kill of the server (``kill -9``)
loses nothing, a power cut may lose the last writes before the next checkpoint's flush, and the
file stays whole either way; on the machine the figures of ``docs/ladder.md`` come from, the
flush costs 0.4 to 4 ms per commit (idle to shared disk, p95 up to 9 ms). Every method is one
transaction (a write takes ``BEGIN IMMEDIATE``), so a kill or a failure leaves each change whole
or absent.

**Threads.** One connection writes, behind a lock (SQLite lets one writer in at a time anyway,
and the lock queues writers without SQLite's busy-wait sleeps: two writing threads recorded
4.6 times the games a connection each did). Each read takes an idle connection of its own from
a pool (opening one when none is idle), so that reads on several threads run side by side,
each on a snapshot of the last commit, while the writer goes on (WAL readers never wait for
the writer); the pool holds as many connections as reads ever ran at once, however many
threads come and go. :meth:`LadderDatabase.batch` holds one write transaction across many
calls, for loading many games at once.

**A full disk.** A write that fails for want of space (or with an I/O error) is rolled back
whole and raises :class:`DatabaseWriteFailed`, one line; everything committed before it stays,
and the next write succeeds once there is room. :meth:`LadderDatabase.limit_size` caps the file
(``PRAGMA max_page_count``), so that the ladder can fill its own limit before the disk.

**Schema.** ``PRAGMA user_version`` is the schema's version; opening the file applies each
script of :data:`MIGRATIONS` it has not had yet, in order, each in one transaction (the first
creates the tables). To change the schema, append a script; never edit one already released.

**Standings** are running tallies updated by each finished game (games, wins, draws, losses,
last seen, the latest rating), so that the standings page costs the same at the millionth game
as at the first; :meth:`LadderDatabase.merge` recounts the survivor's from its games.

Times are UTC, stored as ``YYYY-MM-DD HH:MM:SS`` text (readable with the ``sqlite3`` shell,
ordered as text); values carry timezone-aware :class:`~datetime.datetime` objects.
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import json
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, NamedTuple, Sequence

from engine import COLOUR_NAMES, Outcome, Termination

from .results import WINNERS

UTC = datetime.timezone.utc
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
ABORT_REASON = "the server stopped during the game"

# Each script brings the schema from version i to i + 1 (``PRAGMA user_version``); its
# statements are split at every semicolon, so none may hold one in a comment or a string.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        name_key TEXT NOT NULL UNIQUE,          -- one key for names that look alike
        password_hash TEXT NOT NULL,
        created TEXT NOT NULL,
        disabled INTEGER NOT NULL DEFAULT 0,
        merged_into INTEGER REFERENCES accounts (id)
    );
    CREATE TABLE invitations (
        id INTEGER PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,        -- SHA-256 of the token, never the token
        created TEXT NOT NULL,
        used_by INTEGER REFERENCES accounts (id)
    );
    CREATE TABLE pools (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        options TEXT NOT NULL,                  -- JSON object
        columns INTEGER,                        -- the board (NULL: the game's own)
        rows INTEGER,
        time_control TEXT NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        pool INTEGER NOT NULL REFERENCES pools (id),
        black INTEGER NOT NULL REFERENCES accounts (id),
        white INTEGER NOT NULL REFERENCES accounts (id),
        black_engine TEXT NOT NULL,             -- the engines' ``name`` and ``version`` answers
        black_version TEXT NOT NULL,
        white_engine TEXT NOT NULL,
        white_version TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'aborted')),
        started TEXT NOT NULL,
        finished TEXT,                          -- set for finished games only
        moves TEXT,                             -- JSON lists, one entry per move
        times TEXT,                             -- (times and lag in milliseconds)
        lag TEXT,
        analysis TEXT,
        result TEXT CHECK (result IN ('B+', 'W+', '0')),
        termination TEXT,
        at_fault TEXT CHECK (at_fault IN ('black', 'white')),
        reason TEXT
    );
    CREATE INDEX games_playing ON games (id) WHERE status = 'playing';
    CREATE INDEX games_by_finished ON games (finished);
    CREATE INDEX games_by_pool ON games (pool, finished);
    CREATE INDEX games_by_black ON games (black, finished);
    CREATE INDEX games_by_white ON games (white, finished);
    CREATE TABLE ratings (
        id INTEGER PRIMARY KEY,
        game INTEGER NOT NULL REFERENCES games (id),
        account INTEGER NOT NULL REFERENCES accounts (id),
        pool INTEGER NOT NULL REFERENCES pools (id),
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL
    );
    CREATE INDEX ratings_by_account ON ratings (account, pool, game);
    CREATE TABLE standings (
        pool INTEGER NOT NULL REFERENCES pools (id),
        account INTEGER NOT NULL REFERENCES accounts (id),
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        last_seen TEXT NOT NULL,
        rating REAL,                            -- NULL until a game gives one
        deviation REAL,
        volatility REAL,
        PRIMARY KEY (pool, account)
    ) WITHOUT ROWID;
    """,
    # An account's results per opponent read from the index alone, not from each game's row
    # with its moves (an account's page at 1,000,000 games: 75 ms of reading became 10 ms).
    """
    CREATE INDEX games_results_by_black ON games (black, pool, status, result, white);
    CREATE INDEX games_results_by_white ON games (white, pool, status, result, black);
    """,
    # Where a finished game started from, so that its record replays: the number of the
    # opening of the pool's book it was played from, how many of its first moves are that
    # opening's, and the options that fixed its random start (a JSON object, as laoCoon's
    # layout). Games recorded before have none of them.
    """
    ALTER TABLE games ADD COLUMN opening INTEGER;
    ALTER TABLE games ADD COLUMN opening_plies INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN start_options TEXT;
    """,
    # Resume tickets: an account's generation, bumped by every change that ends its tickets
    # (a new password, disabled or enabled, renamed, merged), and the secret they are signed
    # with.
    """
    ALTER TABLE accounts ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value BLOB NOT NULL
    ) WITHOUT ROWID;
    """,
    # The seed a game's start was drawn with: a ladder's first meeting of two accounts has a
    # seed of its own and their return game reuses it, so that a restarted ladder can tell the
    # return games still owed (``LadderDatabase.latest_games``, from this index alone). Games
    # recorded before have none.
    """
    ALTER TABLE games ADD COLUMN seed INTEGER;
    CREATE INDEX games_by_pair ON games (pool, status, black, white, opening, seed);
    """,
)
# The name of the resume tickets' secret in the table ``secrets``.
TICKET_SECRET = "tickets"

GAME_COLUMNS = """
    games.id, games.pool, black_account.name AS black_name, white_account.name AS white_name,
    black_engine, black_version, white_engine, white_version, status, started, finished,
    moves, times, lag, analysis, result, termination, at_fault, reason, opening, opening_plies,
    start_options, seed
"""
GAME_SOURCE = """
    games JOIN accounts AS black_account ON black_account.id = games.black
          JOIN accounts AS white_account ON white_account.id = games.white
"""


class DatabaseError(Exception):
    """The ladder database cannot be used (not a database, or from a newer version); one line."""


class DatabaseWriteFailed(OSError):
    """A write failed (a full disk or database, an I/O error) and was rolled back whole; every
    earlier change is kept, and the same write can be tried again once there is room."""


class RecordError(ValueError):
    """The records refuse a change (an unknown account, a game not in progress); one line."""


class NameTaken(RecordError):
    """Another account has this name, or one that looks like it (the same name key)."""


class InvitationUnusable(RecordError):
    """No unused invitation has this token."""


class GameStatus(str, enum.Enum):
    """Where a game is: being played, finished (rated, on the pages) or aborted (unrated)."""

    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"


@dataclass(frozen=True)
class Account:
    """A ladder account. ``merged_into`` is the account it was merged into, if any (a lookup by
    name answers that account instead)."""

    id: int
    name: str
    created: datetime.datetime
    disabled: bool = False
    merged_into: int | None = None
    password_hash: str = field(default="", repr=False)
    generation: int = 0  # bumped by each change that ends the account's resume tickets


@dataclass(frozen=True)
class Pool:
    """One ladder: a game with its options, board (``None``: the game's own) and time control
    (in the event file's text form, as the server gives it)."""

    id: int
    name: str
    game: str
    options: Mapping[str, str]
    size: tuple[int, int] | None
    time_control: str


@dataclass(frozen=True)
class Engine:
    """What an engine answered to ``name`` and ``version``."""

    name: str
    version: str


@dataclass(frozen=True)
class Seating:
    """A game about to start: the pool, the accounts (ids) at black and white, their engines."""

    pool: int
    black: int
    white: int
    black_engine: Engine
    white_engine: Engine
    started: datetime.datetime


@dataclass(frozen=True)
class Ending:
    """How a game went and ended: the moves (canonical texts), the seconds each took and the lag
    granted for each (one entry per move, kept to the millisecond), the movers' analysis lines
    (JSON values, ``None`` where nothing was said; empty: none at all), the outcome, the colour
    at fault (0 black, 1 white, ``None``) and when it finished; where it started: the number of
    the book's ``opening`` it was played from (``None``: none), how many of the first moves are
    that opening's (``opening_plies``), the ``start_options`` that fixed a random start, and
    the ``seed`` that start was drawn with (a ladder's return game shares its first's)."""

    moves: tuple[str, ...]
    times: tuple[float, ...]
    lag: tuple[float, ...]
    outcome: Outcome
    finished: datetime.datetime
    at_fault: int | None = None
    analysis: tuple[Any, ...] = ()
    opening: int | None = None
    opening_plies: int = 0
    start_options: Mapping[str, str] = field(default_factory=dict, hash=False)
    seed: int | None = None


@dataclass(frozen=True)
class Rating:
    """An account's Glicko-2 rating after a game."""

    account: int
    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True)
class Game:
    """A game as the pages read it: players by their names now, its ending once finished, and
    why it was aborted if it was (``abort_reason``)."""

    id: int
    pool: int
    black: str
    white: str
    black_engine: Engine
    white_engine: Engine
    status: GameStatus
    started: datetime.datetime
    ending: Ending | None
    abort_reason: str = ""


@dataclass(frozen=True)
class Standing:
    """An account's line in a pool's standings (``rating`` ``None``: no rated game yet)."""

    account: str
    games: int
    wins: int
    draws: int
    losses: int
    last_seen: datetime.datetime
    rating: float | None
    deviation: float | None
    volatility: float | None


@dataclass(frozen=True)
class RatingPoint:
    """An account's rating in a pool after one of its games."""

    game: int
    finished: datetime.datetime
    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True)
class OpponentRecord:
    """An account's finished games in a pool against one opponent, from its own side."""

    opponent: str
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class EngineSeen:
    """One engine (name and version) an account played with: how often, first and last time."""

    engine: Engine
    games: int
    first: datetime.datetime
    last: datetime.datetime


@dataclass(frozen=True)
class AccountActivity:
    """An account as the operator lists it: with its finished games in every pool and when it
    last finished one (``None``: never)."""

    account: Account
    games: int
    last_seen: datetime.datetime | None


@dataclass(frozen=True)
class PairResult:
    """The finished games of one pool between one black and one white account (ids and
    names), counted from black's side."""

    black: int
    black_name: str
    white: int
    white_name: str
    wins: int
    draws: int
    losses: int


class LatestGame(NamedTuple):
    """The latest finished game of one pool with one account at black and another at white
    (ids): the game's id, the number of the book opening it started from and the seed of its
    start (``None``: none, or recorded before seeds were)."""

    black: int
    white: int
    game: int
    opening: int | None
    seed: int | None


def now() -> datetime.datetime:
    """The time now, in UTC, to the second (what the database keeps)."""
    return datetime.datetime.now(UTC).replace(microsecond=0)


def _text(moment: datetime.datetime) -> str:
    return moment.astimezone(UTC).strftime(TIME_FORMAT)


def _time(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text).replace(tzinfo=UTC)


def _json(value: Any) -> str:
    """``value`` as compact JSON (a million games make every byte count)."""
    return json.dumps(value, separators=(",", ":"))


def _milliseconds(seconds: Sequence[float]) -> str:
    return _json([round(second * 1000) for second in seconds])


def _seconds(milliseconds: str) -> tuple[float, ...]:
    return tuple(millisecond / 1000 for millisecond in json.loads(milliseconds))


def _is_write_failure(error: sqlite3.Error) -> bool:
    """Whether ``error`` says the disk or the database is full or failed, not that the
    statement was wrong."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)


class LadderDatabase:
    """The ladder's records in the SQLite file at ``path`` (created if missing), each commit
    flushed to the disk unless ``flush`` is false; see the module docstring. Safe to use from
    several threads; :meth:`close` when done."""

    def __init__(self, path: str | os.PathLike[str], flush: bool = True) -> None:
        self.path = Path(path)
        self.flush = flush
        self._lock = threading.RLock()  # the writer's
        self._in_batch = False
        self._readers_lock = threading.Lock()
        self._readers: list[sqlite3.Connection] = []
        self._idle: list[sqlite3.Connection] = []
        self._writer = self._connect()
        try:
            self._prepare()
        except BaseException:
            self._writer.close()
            raise

    def __enter__(self) -> LadderDatabase:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every connection, the readers' too."""
        with self._lock, self._readers_lock:
            for connection in [self._writer, *self._readers]:
                connection.close()
            self._readers.clear()
            self._idle.clear()

    # --- connections and transactions

    def _connect(self) -> sqlite3.Connection:
        try:
            connection = sqlite3.connect(self.path, isolation_level=None, timeout=30,
                                         check_same_thread=False)
        except sqlite3.Error as error:
            raise DatabaseError(f"cannot open the ladder database {self.path}: {error}") from None
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA foreign_keys = ON")
        return connection

    def _prepare(self) -> None:
        """Put the file in WAL mode (flushing every commit, or at checkpoints: ``flush``), and
        bring its schema up to date."""
        try:
            mode = self._writer.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            self._writer.execute(f"PRAGMA synchronous = {'FULL' if self.flush else 'NORMAL'}")
            version = self._writer.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path} is not a ladder database ({error})") from None
        if mode != "wal":
            raise DatabaseError(f"cannot put {self.path} in WAL mode (it stayed in {mode} "
                                f"mode); the ladder database needs a local file system")
        if version > len(MIGRATIONS):
            raise DatabaseError(f"{self.path} has schema version {version}, newer than this "
                                f"program's {len(MIGRATIONS)}: update the program")
        for number in range(version, len(MIGRATIONS)):
            self._migrate(number)

    def _migrate(self, number: int) -> None:
        """Apply migration script ``number`` and set the version, in one transaction."""
        with self._write() as connection:
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number + 1}")

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """The writer connection inside one write transaction (or inside the open batch's),
        committed when the block ends, rolled back whole when it raises (a broken constraint
        raised as :class:`RecordError`, a failed write as :class:`DatabaseWriteFailed`)."""
        with self._lock:
            if self._in_batch:
                yield self._writer
                return
            self._in_batch = True
            try:
                self._writer.execute("BEGIN IMMEDIATE")
                yield self._writer
                self._writer.execute("COMMIT")
            except BaseException as error:
                if self._writer.in_transaction:
                    self._writer.execute("ROLLBACK")
                if isinstance(error, sqlite3.IntegrityError):
                    raise RecordError(f"the ladder database refuses this change: {error}") \
                        from None
                if isinstance(error, sqlite3.Error) and _is_write_failure(error):
                    raise DatabaseWriteFailed(
                        f"cannot write the ladder database {self.path}: {error}; nothing of "
                        f"this change was kept, everything before it is; free some space and "
                        f"try again") from None
                raise
            finally:
                self._in_batch = False

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Make every write inside the block one transaction (for loading many games): faster
        than one each, and all kept or none."""
        with self._write():
            yield

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """An idle reading connection inside one read transaction (what the block reads is one
        snapshot), given back when the block ends."""
        connection = self._reader()
        connection.execute("BEGIN")
        try:
            yield connection
        finally:
            connection.execute("COMMIT")
            with self._readers_lock:
                self._idle.append(connection)

    def _reader(self) -> sqlite3.Connection:
        """An idle reading connection, or a new one: as many are open as reads ever ran at
        once, however many threads come and go."""
        with self._readers_lock:
            if self._idle:
                return self._idle.pop()
        connection = self._connect()
        connection.execute("PRAGMA query_only = ON")
        with self._readers_lock:
            self._readers.append(connection)
        return connection

    def limit_size(self, size: int | None) -> None:
        """Let the file grow to at most ``size`` bytes (rounded down to whole pages; ``None``:
        SQLite's own limit); a write beyond it fails as a full disk's would."""
        with self._lock:
            pages = 0xFFFFFFFE if size is None else max(1, size // self._page_size())
            self._writer.execute(f"PRAGMA max_page_count = {int(pages)}")

    def _page_size(self) -> int:
        return self._writer.execute("PRAGMA page_size").fetchone()[0]

    def backup(self, path: str | os.PathLike[str]) -> None:
        """Copy the database to ``path`` while it is in use (SQLite's online backup API, from a
        snapshot: writers go on meanwhile). The copy is written beside ``path`` and renamed
        into place, so that ``path`` is always a whole database."""
        target = Path(path)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        if not target.parent.is_dir():  # SQLite would say only "unable to open database file"
            raise DatabaseWriteFailed(f"cannot back up the ladder database to {target}: no "
                                      f"folder {target.parent}")
        try:
            copy = sqlite3.connect(temporary)
            try:
                with self._read() as connection:
                    connection.backup(copy)
            finally:
                copy.close()
            os.replace(temporary, target)
        except (OSError, sqlite3.Error) as error:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise DatabaseWriteFailed(f"cannot back up the ladder database to {target}: "
                                      f"{error}") from None

    # --- accounts

    def add_account(self, name: str, name_key: str, password_hash: str,
                    created: datetime.datetime | None = None,
                    invitation_hash: str | None = None) -> Account:
        """A new account; with ``invitation_hash``, that invitation is used up by it in the same
        transaction. Raises :class:`NameTaken`, :class:`InvitationUnusable`."""
        created = created or now()
        with self._write() as connection:
            try:
                cursor = connection.execute(
                    "INSERT INTO accounts (name, name_key, password_hash, created) "
                    "VALUES (?, ?, ?, ?)", (name, name_key, password_hash, _text(created)))
            except sqlite3.IntegrityError:
                raise NameTaken(f"the name {name} or one like it is taken") from None
            account = Account(cursor.lastrowid, name, created, password_hash=password_hash)
            if invitation_hash is not None and not connection.execute(
                    "UPDATE invitations SET used_by = ? WHERE token_hash = ? AND used_by IS NULL",
                    (account.id, invitation_hash)).rowcount:
                raise InvitationUnusable("unknown or used invitation")
        return account

    def account_by_name(self, name: str) -> Account | None:
        """The account called ``name``, or the one it was merged into; ``None`` if none."""
        with self._read() as connection:
            row = connection.execute(
                "SELECT coalesce(survivor.id, account.id) FROM accounts AS account "
                "LEFT JOIN accounts AS survivor ON survivor.id = account.merged_into "
                "WHERE account.name = ?", (name,)).fetchone()
            return None if row is None else self._account(connection, row[0])

    def account_by_key(self, name_key: str) -> Account | None:
        """The account whose name has this name key (looks like it), merged or not."""
        with self._read() as connection:
            row = connection.execute("SELECT id FROM accounts WHERE name_key = ?",
                                     (name_key,)).fetchone()
            return None if row is None else self._account(connection, row[0])

    @staticmethod
    def _account(connection: sqlite3.Connection, account: int) -> Account:
        return _account_of(connection.execute("SELECT * FROM accounts WHERE id = ?",
                                              (account,)).fetchone())

    def set_password_hash(self, account: int, password_hash: str) -> None:
        """Store the hash of a new password for ``account`` (its resume tickets end)."""
        self._update_account(account, "password_hash = ?", (password_hash,))

    def rehash_password(self, account: int, password_hash: str) -> None:
        """Store the same password hashed again (at a higher cost): its resume tickets stay."""
        self._update_account(account, "password_hash = ?", (password_hash,), ending=False)

    def set_disabled(self, account: int, disabled: bool) -> None:
        """Disable ``account`` (its logins are refused) or enable it again."""
        self._update_account(account, "disabled = ?", (int(disabled),))

    def rename(self, account: int, name: str, name_key: str) -> None:
        """Give ``account`` a new name; its old one is free again. Raises :class:`NameTaken`."""
        self._update_account(account, "name = ?, name_key = ?", (name, name_key))

    def _update_account(self, account: int, assignments: str, values: tuple,
                        ending: bool = True) -> None:
        """Change ``account``; ``ending``: the change ends its resume tickets (its generation
        is bumped)."""
        if ending:
            assignments += ", generation = generation + 1"
        with self._write() as connection:
            try:
                changed = connection.execute(f"UPDATE accounts SET {assignments} WHERE id = ?",
                                             (*values, account)).rowcount
            except sqlite3.IntegrityError:  # only names are unique
                raise NameTaken(f"the name {values[0]} or one like it is taken") from None
            if not changed:
                raise RecordError(f"no account {account}")

    def merge(self, account: int, survivor: int) -> None:
        """Merge ``account`` into ``survivor``: its games and rating history become the
        survivor's, its name (and those merged into it before) then names the survivor, and
        the survivor's standings are recounted from its games (the rating shown is the latest
        either had, until the ratings are recomputed)."""
        with self._write() as connection:
            rows = connection.execute("SELECT id, merged_into FROM accounts WHERE id IN (?, ?)",
                                      (account, survivor)).fetchall()
            if account == survivor or len(rows) != 2 or any(row[1] for row in rows):
                raise RecordError(f"cannot merge account {account} into {survivor}: both must "
                                  f"exist, differ and not be merged already")
            connection.execute("UPDATE accounts SET merged_into = ?, generation = generation "
                               "+ 1 WHERE id = ? OR merged_into = ?", (survivor, account, account))
            for colour in COLOUR_NAMES:
                connection.execute(f"UPDATE games SET {colour} = ? WHERE {colour} = ?",
                                   (survivor, account))
            connection.execute("UPDATE ratings SET account = ? WHERE account = ?",
                               (survivor, account))
            pools = [row[0] for row in connection.execute(
                "SELECT pool FROM standings WHERE account IN (?, ?)", (account, survivor))]
            connection.execute("DELETE FROM standings WHERE account IN (?, ?)",
                               (account, survivor))
            for pool in set(pools):
                self._recount_standing(connection, pool, survivor)

    @staticmethod
    def _recount_standing(connection: sqlite3.Connection, pool: int, account: int) -> None:
        """Write ``account``'s standing in ``pool`` afresh from its finished games and its
        latest rating."""
        games, wins, draws, last_seen = connection.execute(
            "SELECT count(*), total((result = 'B+' AND black = :account) "
            "OR (result = 'W+' AND white = :account)), total(result = '0'), max(finished) "
            "FROM games WHERE pool = :pool AND status = 'finished' "
            "AND (black = :account OR white = :account)",
            {"pool": pool, "account": account}).fetchone()
        if not games:
            return
        rating = connection.execute(
            "SELECT rating, deviation, volatility FROM ratings WHERE account = ? AND pool = ? "
            "ORDER BY game DESC LIMIT 1", (account, pool)).fetchone() or (None, None, None)
        connection.execute(
            "INSERT INTO standings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (pool, account, games, int(wins), int(draws), games - int(wins) - int(draws),
             last_seen, *rating))

    def ticket_secret(self, fresh: bytes) -> bytes:
        """The secret the resume tickets are signed with; ``fresh`` is stored as it first if
        the database has none (when two processes do so at once, the first one's is kept)."""
        with self._read() as connection:
            row = connection.execute("SELECT value FROM secrets WHERE name = ?",
                                     (TICKET_SECRET,)).fetchone()
        if row is None:
            with self._write() as connection:
                connection.execute("INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)",
                                   (TICKET_SECRET, fresh))
                row = connection.execute("SELECT value FROM secrets WHERE name = ?",
                                         (TICKET_SECRET,)).fetchone()
        return bytes(row[0])

    def set_ticket_secret(self, secret: bytes) -> None:
        """Sign the resume tickets with ``secret`` from now on: every earlier ticket ends."""
        with self._write() as connection:
            connection.execute("INSERT OR REPLACE INTO secrets (name, value) VALUES (?, ?)",
                               (TICKET_SECRET, secret))

    def add_invitation(self, token_hash: str, created: datetime.datetime | None = None) -> None:
        """Keep an invitation (the SHA-256 of its token) for one new account."""
        with self._write() as connection:
            connection.execute("INSERT INTO invitations (token_hash, created) VALUES (?, ?)",
                               (token_hash, _text(created or now())))

    # --- pools

    def add_pool(self, name: str, game: str, options: Mapping[str, str],
                 size: tuple[int, int] | None, time_control: str) -> Pool:
        """A new pool. Raises :class:`RecordError` when a pool has that name."""
        with self._write() as connection:
            try:
                cursor = connection.execute(
                    "INSERT INTO pools (name, game, options, columns, rows, time_control) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (name, game, json.dumps(dict(options), sort_keys=True),
                     *(size or (None, None)), time_control))
            except sqlite3.IntegrityError:
                raise RecordError(f"a pool is already called {name}") from None
        return Pool(cursor.lastrowid, name, game, dict(options), size, time_control)

    def pools(self) -> tuple[Pool, ...]:
        """Every pool, in the order they were added."""
        with self._read() as connection:
            return tuple(
                Pool(row["id"], row["name"], row["game"], json.loads(row["options"]),
                     None if row["columns"] is None else (row["columns"], row["rows"]),
                     row["time_control"])
                for row in connection.execute("SELECT * FROM pools ORDER BY id"))

    # --- games

    def start_game(self, seating: Seating) -> int:
        """Record a game that starts now (in progress until finished or aborted): its id."""
        with self._write() as connection:
            return self._insert_game(connection, seating)

    @staticmethod
    def _insert_game(connection: sqlite3.Connection, seating: Seating) -> int:
        return connection.execute(
            "INSERT INTO games (pool, black, white, black_engine, black_version, white_engine, "
            "white_version, status, started) VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', ?)",
            (seating.pool, seating.black, seating.white, seating.black_engine.name,
             seating.black_engine.version, seating.white_engine.name,
             seating.white_engine.version, _text(seating.started))).lastrowid

    def finish_game(self, game: int, ending: Ending, ratings: Sequence[Rating] = (),
                    engines: tuple[Engine, Engine] | None = None) -> None:
        """Record how game ``game`` (in progress) ended, the players' standings and the ratings
        it gave them (``ratings``, for the game's players only), in one transaction; with
        ``engines``, black's and white's engines as they answered once the game began (the
        start may have been recorded before they were asked)."""
        with self._write() as connection:
            if engines is not None:
                connection.execute(
                    "UPDATE games SET black_engine = ?, black_version = ?, white_engine = ?, "
                    "white_version = ? WHERE id = ?",
                    (engines[0].name, engines[0].version, engines[1].name, engines[1].version,
                     game))
            self._finish(connection, game, ending, ratings)

    def add_game(self, seating: Seating, ending: Ending, ratings: Sequence[Rating] = ()) -> int:
        """Record a finished game whole (its start and end in one transaction): its id."""
        with self._write() as connection:
            game = self._insert_game(connection, seating)
            self._finish(connection, game, ending, ratings)
        return game

    def _finish(self, connection: sqlite3.Connection, game: int, ending: Ending,
                ratings: Sequence[Rating]) -> None:
        row = connection.execute("SELECT pool, black, white FROM games WHERE id = ? AND "
                                 "status = 'playing'", (game,)).fetchone()
        if row is None:
            raise RecordError(f"game {game} is not in progress")
        pool, *players = row
        if any(rating.account not in players for rating in ratings):
            raise RecordError(f"game {game}: ratings given for an account that did not play it")
        finished = _text(ending.finished)
        connection.execute(
            "UPDATE games SET status = 'finished', finished = ?, moves = ?, times = ?, lag = ?, "
            "analysis = ?, result = ?, termination = ?, at_fault = ?, reason = ?, opening = ?, "
            "opening_plies = ?, start_options = ?, seed = ? WHERE id = ?",
            (finished, _json(ending.moves), _milliseconds(ending.times),
             _milliseconds(ending.lag), _json(ending.analysis) if ending.analysis else None,
             ending.outcome.result, ending.outcome.termination.value,
             None if ending.at_fault is None else COLOUR_NAMES[ending.at_fault],
             ending.outcome.reason, ending.opening, ending.opening_plies,
             _json(dict(ending.start_options)) if ending.start_options else None, ending.seed,
             game))
        for colour, account in enumerate(players):
            self._tally(connection, pool, account, ending.outcome.winner, colour, finished)
        for rating in ratings:
            connection.execute(
                "INSERT INTO ratings (game, account, pool, rating, deviation, volatility) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game, rating.account, pool, rating.rating, rating.deviation, rating.volatility))
            connection.execute(
                "UPDATE standings SET rating = ?, deviation = ?, volatility = ? "
                "WHERE pool = ? AND account = ?",
                (rating.rating, rating.deviation, rating.volatility, pool, rating.account))

    @staticmethod
    def _tally(connection: sqlite3.Connection, pool: int, account: int, winner: int | None,
               colour: int, finished: str) -> None:
        """Count one finished game in ``account``'s standing in ``pool``."""
        won, drawn = winner == colour, winner is None
        connection.execute(
            "INSERT INTO standings (pool, account, games, wins, draws, losses, last_seen) "
            "VALUES (?, ?, 1, ?, ?, ?, ?) ON CONFLICT (pool, account) DO UPDATE SET "
            "games = games + 1, wins = wins + excluded.wins, draws = draws + excluded.draws, "
            "losses = losses + excluded.losses, last_seen = max(last_seen, excluded.last_seen)",
            (pool, account, int(won), int(drawn), int(not won and not drawn), finished))

    def abort_unfinished(self, reason: str = ABORT_REASON) -> int:
        """Mark every game still in progress aborted (unrated, on no page of results), as the
        server does when it starts: how many there were."""
        with self._write() as connection:
            return connection.execute("UPDATE games SET status = 'aborted', reason = ? "
                                      "WHERE status = 'playing'", (reason,)).rowcount

    def game(self, game: int) -> Game | None:
        """Game ``game``, or ``None`` if there is none."""
        return next(iter(self._games("games.id = ?", (game,))), None)

    def games_in_progress(self) -> tuple[Game, ...]:
        """The games being played, oldest first."""
        return self._games("games.status = 'playing'", (), "games.id")

    def recent_games(self, limit: int = 20, account: int | None = None,
                     pool: int | None = None) -> tuple[Game, ...]:
        """The last ``limit`` games finished, newest first: of everyone, of one ``account``
        or in one ``pool``."""
        if account is not None:
            where, values = "(games.black = ? OR games.white = ?)", (account, account)
        elif pool is not None:
            where, values = "games.pool = ?", (pool,)
        else:
            where, values = "1", ()
        return self._games(f"{where} AND games.finished IS NOT NULL", values,
                           f"games.finished DESC, games.id DESC LIMIT {int(limit)}")

    def games_of_day(self, pool: int, day: datetime.date) -> tuple[Game, ...]:
        """The games of ``pool`` finished on UTC day ``day``, in the order they finished (for
        the day's SGF archive)."""
        start = datetime.datetime.combine(day, datetime.time(), UTC)
        return self._games("games.pool = ? AND games.finished >= ? AND games.finished < ?",
                           (pool, _text(start), _text(start + datetime.timedelta(days=1))),
                           "games.finished, games.id")

    def _games(self, where: str, values: tuple, order: str = "games.id") -> tuple[Game, ...]:
        with self._read() as connection:
            return tuple(_game(row) for row in connection.execute(
                f"SELECT {GAME_COLUMNS} FROM {GAME_SOURCE} WHERE {where} ORDER BY {order}",
                values))

    # --- pages

    def standings(self, pool: int) -> tuple[Standing, ...]:
        """A pool's standings: rated accounts by rating, best first, then the unrated; merged
        and disabled accounts left out."""
        with self._read() as connection:
            return tuple(
                Standing(row["name"], row["games"], row["wins"], row["draws"], row["losses"],
                         _time(row["last_seen"]), row["rating"], row["deviation"],
                         row["volatility"])
                for row in connection.execute(
                    "SELECT accounts.name, standings.* FROM standings JOIN accounts "
                    "ON accounts.id = standings.account WHERE pool = ? AND NOT disabled "
                    "AND merged_into IS NULL "
                    "ORDER BY rating IS NULL, rating DESC, accounts.name", (pool,)))

    def rating_history(self, account: int, pool: int) -> tuple[RatingPoint, ...]:
        """``account``'s rating in ``pool`` after each of its rated games, oldest first."""
        with self._read() as connection:
            return tuple(
                RatingPoint(row[0], _time(row[1]), *row[2:])
                for row in connection.execute(
                    "SELECT ratings.game, games.finished, rating, deviation, volatility "
                    "FROM ratings JOIN games ON games.id = ratings.game "
                    "WHERE account = ? AND ratings.pool = ? ORDER BY ratings.game",
                    (account, pool)))

    def results_by_opponent(self, account: int, pool: int) -> tuple[OpponentRecord, ...]:
        """``account``'s finished games in ``pool`` per opponent, most played first."""
        with self._read() as connection:
            rows = connection.execute(
                "SELECT accounts.name, count(*), total(score = 1), total(score = 0.5) FROM ("
                "  SELECT white AS opponent, CASE result WHEN 'B+' THEN 1 WHEN '0' THEN 0.5 "
                "  ELSE 0 END AS score FROM games "
                "  WHERE black = :account AND pool = :pool AND status = 'finished' "
                "  UNION ALL "
                "  SELECT black, CASE result WHEN 'W+' THEN 1 WHEN '0' THEN 0.5 ELSE 0 END "
                "  FROM games WHERE white = :account AND pool = :pool AND status = 'finished'"
                ") JOIN accounts ON accounts.id = opponent "
                "GROUP BY opponent ORDER BY count(*) DESC, accounts.name",
                {"account": account, "pool": pool}).fetchall()
        return tuple(OpponentRecord(name, games, int(wins), int(draws),
                                    games - int(wins) - int(draws))
                     for name, games, wins, draws in rows)

    def engines_seen(self, account: int) -> tuple[EngineSeen, ...]:
        """The engines (name and version) ``account`` played finished games with, the last
        used first."""
        with self._read() as connection:
            rows = connection.execute(
                "SELECT engine, version, count(*), min(finished), max(finished) FROM ("
                "  SELECT black_engine AS engine, black_version AS version, finished FROM games "
                "  WHERE black = :account AND status = 'finished' "
                "  UNION ALL "
                "  SELECT white_engine, white_version, finished FROM games "
                "  WHERE white = :account AND status = 'finished'"
                ") GROUP BY engine, version ORDER BY max(finished) DESC, engine, version",
                {"account": account}).fetchall()
        return tuple(EngineSeen(Engine(name, version), games, _time(first), _time(last))
                     for name, version, games, first, last in rows)

    # --- the operator's

    def accounts(self) -> tuple[AccountActivity, ...]:
        """Every account, merged and disabled ones too, by name, with its games and when it was
        last seen (from the standings: one row per pool it played in)."""
        with self._read() as connection:
            rows = connection.execute(
                "SELECT accounts.*, total(standings.games) AS games, "
                "max(standings.last_seen) AS last_seen "
                "FROM accounts LEFT JOIN standings ON standings.account = accounts.id "
                "GROUP BY accounts.id ORDER BY accounts.name").fetchall()
        return tuple(
            AccountActivity(_account_of(row), int(row["games"]),
                            None if row["last_seen"] is None else _time(row["last_seen"]))
            for row in rows)

    def accounts_now(self) -> tuple[frozenset[int], dict[int, str]]:
        """The ids of the accounts that may not play (disabled, or merged into another) and
        every account's name as it is now, by id, in one read (the running service follows
        the operator's changes with them)."""
        with self._read() as connection:
            rows = connection.execute(
                "SELECT id, name, disabled OR merged_into IS NOT NULL FROM accounts").fetchall()
        return (frozenset(account for account, _, barred in rows if barred),
                {account: name for account, name, _ in rows})

    # --- the pages' own reads (all-time ratings, presence, the list of pools)

    def pair_results(self, pool: int) -> tuple[PairResult, ...]:
        """The finished games of ``pool`` counted per black and white account: wins, draws and
        losses from black's side (one aggregate, what the all-time ratings fit needs)."""
        with self._read() as connection:
            rows = connection.execute(
                "SELECT black, black_account.name, white, white_account.name, wins, draws, "
                "losses FROM ("
                "  SELECT black, white, total(result = 'B+') AS wins, "
                "  total(result = '0') AS draws, total(result = 'W+') AS losses "
                "  FROM games WHERE pool = ? AND status = 'finished' GROUP BY black, white"
                ") JOIN accounts AS black_account ON black_account.id = black "
                "JOIN accounts AS white_account ON white_account.id = white "
                "ORDER BY black, white", (pool,)).fetchall()
        return tuple(PairResult(black, black_name, white, white_name, int(wins), int(draws),
                                int(losses))
                     for black, black_name, white, white_name, wins, draws, losses in rows)

    def latest_games(self, pool: int) -> tuple[LatestGame, ...]:
        """The latest finished game of ``pool`` for each account at black and each at white
        (one per ordered pair), in the order of the pairs; read from the index
        ``games_by_pair`` alone, whose entries take each game's id along (SQLite reads the
        bare columns of a ``MAX`` aggregate from the row holding the maximum)."""
        with self._read() as connection:
            rows = connection.execute(
                "SELECT black, white, MAX(id), opening, seed FROM games INDEXED BY games_by_pair "
                "WHERE pool = ? AND status = 'finished' GROUP BY black, white",
                (pool,)).fetchall()
        return tuple(LatestGame(*row) for row in rows)

    def finished_games(self, pool: int) -> int:
        """How many games of ``pool`` finished, from the standings' tallies (a game counts
        in both players' lines): cheap enough to ask every few seconds."""
        with self._read() as connection:
            total = connection.execute("SELECT total(games) FROM standings WHERE pool = ?",
                                       (pool,)).fetchone()[0]
        return int(total) // 2

    def finished_since(self, moment: datetime.datetime) -> dict[int, int]:
        """How many games each pool finished since ``moment`` (pools with none left out)."""
        with self._read() as connection:
            return dict(connection.execute(
                "SELECT pool, count(*) FROM games WHERE finished >= ? GROUP BY pool",
                (_text(moment),)).fetchall())

    def account_pools(self, account: int) -> tuple[int, ...]:
        """The pools in which ``account`` finished a game, in the order they were added."""
        with self._read() as connection:
            return tuple(row[0] for row in connection.execute(
                "SELECT pool FROM standings WHERE account = ? ORDER BY pool", (account,)))

    def names_of(self, accounts: Iterable[int]) -> dict[int, str]:
        """The names of the accounts ``accounts`` (ids), those that exist."""
        wanted = sorted(set(accounts))
        if not wanted:
            return {}
        with self._read() as connection:
            return dict(connection.execute(
                f"SELECT id, name FROM accounts WHERE id IN ({','.join('?' * len(wanted))})",
                wanted).fetchall())


def _account_of(row: sqlite3.Row) -> Account:
    """An account from its row of ``accounts``."""
    return Account(row["id"], row["name"], _time(row["created"]), bool(row["disabled"]),
                   row["merged_into"], row["password_hash"], row["generation"])


def _game(row: sqlite3.Row) -> Game:
    """A game from its row (:data:`GAME_COLUMNS`)."""
    ending = None
    if row["status"] == GameStatus.FINISHED:
        ending = Ending(
            moves=tuple(json.loads(row["moves"])), times=_seconds(row["times"]),
            lag=_seconds(row["lag"]),
            outcome=Outcome(WINNERS[row["result"]], Termination(row["termination"]),
                            row["reason"]),
            finished=_time(row["finished"]),
            at_fault=None if row["at_fault"] is None else COLOUR_NAMES.index(row["at_fault"]),
            analysis=tuple(json.loads(row["analysis"])) if row["analysis"] else (),
            opening=row["opening"], opening_plies=row["opening_plies"],
            start_options=json.loads(row["start_options"]) if row["start_options"] else {},
            seed=row["seed"])
    return Game(row["id"], row["pool"], row["black_name"], row["white_name"],
                Engine(row["black_engine"], row["black_version"]),
                Engine(row["white_engine"], row["white_version"]), GameStatus(row["status"]),
                _time(row["started"]), ending,
                row["reason"] if row["status"] == GameStatus.ABORTED else "")

