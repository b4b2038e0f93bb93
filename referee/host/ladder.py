"""The ladder service: every pool of the service file served on one port, for as long as it
runs, its records in one SQLite file.

Started in this order and stopped in the reverse: the pools' opening books (each read and
checked with its pool's game, or the service does not start), the database (the games a stop
or crash left in progress are marked aborted, unrated), the pools (synchronised with the
database: a pool already there must be the same game and clock, a new one is added), the house
anchors, the pools' runners (a thread each), the participants' server (:mod:`.event_server`
with the :class:`~.ladder_lobby.Lobby` as its gatekeeper) and the pages (:mod:`.ladder_pages`).
A stop abandons the games in progress (aborted, as after a crash): a ladder has no end to wait
for.

A renewed TLS certificate is taken without a restart: :meth:`LadderService.reload_certificate`
(on SIGHUP) loads the files again and offers them to every connection from then on
(:mod:`.server_tls`).
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from pathlib import Path
from typing import Callable

from ..plan.openings import BookError, load_book
from ..plan.setup import Opening
from ..play.entrants import EngineSpec, cannot_start
from ..records.database import (
    DatabaseError,
    DatabaseWriteFailed,
    LadderDatabase,
    Pool,
    RecordError,
)
from .accounts import Accounts, hash_password, name_key
from .event_server import EventServer
from .ladder_file import LadderFileError, LadderSettings, PoolSettings, read_ladder
from .ladder_lobby import Lobby
from .ladder_pages import LadderPages
from .ladder_pool import LadderPool
from .server_tls import ServerTls, TlsError

STOP_REASON = "the ladder server stopped during the game"
# How often the service reads which accounts the operator disabled, merged or renamed meanwhile.
WATCH_SECONDS = 5.0


class LadderError(Exception):
    """The service cannot start (database, pools, certificate, address); one line."""


class LadderService:
    """The service of ``settings`` (read from the file ``source``, if given: read again by
    :meth:`reload`); ``log`` takes one line per server event. ``start`` opens everything,
    ``stop`` closes it; used as a context manager."""

    def __init__(self, settings: LadderSettings, log: Callable[[str], None],
                 source: Path | None = None) -> None:
        self.settings = settings
        self.source = source  # the service file, read again on SIGHUP
        self.log = log
        self.records: LadderDatabase | None = None
        self.accounts: Accounts | None = None
        self.pools: dict[str, LadderPool] = {}
        self.server: EventServer | None = None
        self.pages: LadderPages | None = None
        self.tls: ServerTls | None = None
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()
        self.failure: str | None = None

    def __enter__(self) -> LadderService:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        settings = self.settings
        books = {pool.name: _book(pool) for pool in settings.pools}
        listen = settings.listen
        if listen.certificate is not None:
            try:
                self.tls = ServerTls(listen.certificate, listen.key, self.log)
            except TlsError as error:
                raise LadderError(str(error)) from None
        try:
            self.records = LadderDatabase(settings.database, settings.flush)
            aborted = self.records.abort_unfinished()
        except (DatabaseError, sqlite3.Error, OSError) as error:
            raise LadderError(f"{settings.database}: {error}") from None
        if aborted:
            self.log(f"{aborted} game(s) left in progress by the last run marked aborted")
        accounts = Accounts(self.records, registration_open=settings.registration == "open")
        known = {pool.name: pool for pool in self.records.pools()}
        for pool_settings in settings.pools:
            record = self._pool_record(pool_settings, known.get(pool_settings.name))
            self.pools[pool_settings.name] = LadderPool(
                pool_settings, record, self.records, settings.grace, settings.lag,
                settings.concurrency, self.log, books[pool_settings.name])
        self._seat_anchors()
        house = frozenset(entrant.account.id for pool in self.pools.values()
                          for entrant in pool.anchors())
        self.accounts = accounts
        for pool in self.pools.values():
            self._thread(self._serve, pool, name=f"pool {pool.pool.name}")
        self._thread(self._watch, name="account watch")
        try:
            self.server = EventServer(Lobby(accounts, self.pools, settings.name, house),
                                      settings.name, listen.host, listen.port,
                                      self.tls.context if self.tls else None,
                                      self.log, hello_seconds=settings.hello,
                                      door=settings.door)
        except OSError as error:
            raise LadderError(f"cannot listen: {error.strerror or error}") from None
        self._serve_pages()

    def _serve_pages(self) -> None:
        """The read-only pages, if the service file gives them a port: who is connected and the
        games in progress from the pools, the rest from the database."""
        host, port = self.settings.pages
        if not port:
            return
        by_id = {pool.pool.id: pool for pool in self.pools.values()}
        anchors = {pool.pool.id: (first.account.id, first.anchor)  # fixes the all-time scale
                   for pool in self.pools.values() for first in pool.anchors()[:1]}
        try:
            self.pages = LadderPages(
                self.records, lambda pool: by_id[pool].connected() if pool in by_id
                else frozenset(), lambda pool: by_id[pool].live if pool in by_id else None,
                anchors, host, port, name=self.settings.name)
        except OSError as error:
            raise LadderError(f"cannot serve the pages on {host}:{port}: "
                              f"{error.strerror or error}") from None

    def _pool_record(self, settings: PoolSettings, known: Pool | None) -> Pool:
        """The database's pool for ``settings``: added if new, checked if not (a pool's games
        are comparable only under one game, board and clock)."""
        setup = settings.setup
        wanted = (setup.game, dict(setup.options), setup.size, settings.control.describe())
        if known is None:
            return self.records.add_pool(settings.name, *wanted)
        found = (known.game, dict(known.options), known.size, known.time_control)
        if found != wanted:
            raise LadderError(f"pool {settings.name}: the database has it as {_pool_text(found)}, "
                              f"the service file as {_pool_text(wanted)}; a changed pool "
                              f"needs a new name")
        return known

    def _seat_anchors(self) -> None:
        """Seat every house anchor in its pool (its account made on first start, with a
        password nobody knows)."""
        for anchor in self.settings.anchors:
            problem = cannot_start(EngineSpec(anchor.engine, anchor.name))
            if problem:
                raise LadderError(f"anchor {anchor.name}: its engine cannot start: {problem}")
            account = self.records.account_by_name(anchor.name)
            if account is None:
                try:
                    account = self.records.add_account(
                        anchor.name, name_key(anchor.name),
                        hash_password(secrets.token_urlsafe(32)))
                except RecordError as error:
                    raise LadderError(f"anchor {anchor.name}: {error}") from None
            self.pools[anchor.pool].add_anchor(account, anchor.engine, anchor.rating)

    def _thread(self, target: Callable[..., None], *args: object, name: str) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True, name=name)
        thread.start()
        self._threads.append(thread)

    def _watch(self) -> None:
        """Every :data:`WATCH_SECONDS`, bar from play the accounts the operator disabled or
        merged, and call the renamed ones by their new names (``ladder admin``, another
        process on the same file)."""
        while not self._stopping.wait(WATCH_SECONDS):
            try:
                barred, names = self.records.accounts_now()
            except Exception as error:  # noqa: BLE001 - read again at the next look
                self.log(f"cannot read the accounts: {type(error).__name__}: {error}")
                continue
            for pool in self.pools.values():
                pool.bar(barred)
                pool.rename(names)

    def _serve(self, pool: LadderPool) -> None:
        try:
            pool.serve()
        except Exception as error:  # a pool that fails stops the service, said in one line
            self.failure = f"pool {pool.pool.name} failed: {type(error).__name__}: {error}"
            self.log(self.failure)
            self._stopping.set()

    @property
    def url(self) -> str:
        """The address participants connect to, as this machine sees it."""
        scheme = "wss" if self.tls is not None else "ws"
        host = self.settings.listen.host
        host = f"[{host}]" if ":" in host else host
        return f"{scheme}://{host}:{self.server.port}/"

    def stop_soon(self) -> None:
        """Ask the service to stop (from a signal handler: nothing here waits)."""
        self._stopping.set()

    def wait_until_stopped(self) -> bool:
        """Serve until :meth:`stop_soon` or a pool's failure: whether a pool failed. Wakes
        often, so that the main thread runs signal handlers at once."""
        while not self._stopping.wait(0.5):
            pass
        return self.failure is not None

    def reload(self) -> None:
        """On SIGHUP: load the certificate and key files again (renewed) for the connections
        to come, and take the service file's ``registration`` again (the operator opens or
        closes registration while the service runs). A certificate that does not load, or a
        service file that does not read, leaves things as they were, said in one line."""
        if self.tls is not None:
            self.tls.reload()
        try:
            registration = read_ladder(self.source).registration if self.source else None
        except LadderFileError as error:
            self.log(f"error: {error}; registration left as it was")
            return
        if registration is not None:
            self.accounts.registration_open = registration == "open"
            self.log("registration is open: a first login makes an account"
                     if registration == "open" else "registration is by invitation: a new "
                     "account needs one (ladder admin ... invite)")

    def stop(self) -> None:
        """Stop serving: the server closes every connection, the pools abandon their games
        (marked aborted), the database is closed."""
        self._stopping.set()
        if self.pages is not None:
            self.pages.stop()
            self.pages = None
        if self.server is not None:
            self.server.stop()
            self.server = None
        for pool in self.pools.values():
            pool.stop()
        for thread in self._threads:
            thread.join(10)
        self._threads = []
        if self.records is not None:
            try:
                self.records.abort_unfinished(STOP_REASON)
            except DatabaseWriteFailed as error:
                self.log(f"error: {error}; the games in progress are marked aborted at the "
                         f"next start")
            self.records.close()
            self.records = None


def _book(settings: PoolSettings) -> list[Opening]:
    """The openings of the pool's book, each checked with the pool's game, options and board
    (none without a book); raises :class:`LadderError` naming the pool, the key and the place
    in the book."""
    if settings.openings is None:
        return []
    try:
        return load_book(settings.openings, settings.setup, settings.opening_plies)
    except BookError as error:
        raise LadderError(f"pool {settings.name}: openings: {error}") from None


def _pool_text(pool: tuple) -> str:
    game, options, size, clock = pool
    board = f" {size[0]}x{size[1]}" if size else ""
    settings = "".join(f" {key}={value}" for key, value in sorted(options.items()))
    return f"{game}{board}{settings} at {clock}"
