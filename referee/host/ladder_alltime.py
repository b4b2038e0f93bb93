"""The ladder's all-time ratings: Bradley-Terry over every finished game of a pool, with error
bars, as :mod:`referee.stats.ratings` computes them, refreshed by a background thread.

The live rating (Glicko-2, the service's) moves after every game and forgets slowly; the
all-time table weighs every game a pool ever had alike, as CGOS's BayesElo table does. A fit
needs only the games and points of each pairing, so the thread reads one aggregate per pool
(:meth:`~referee.records.database.LadderDatabase.pair_results`: a count per black and white
account) and fits it: the millionth game costs what the first did, and the fit's cost grows
with the accounts, not the games (300 accounts: about 10 s of one core). The fit runs in a
child process at a lower priority (:func:`fit_apart`), so that it takes only time the games
leave, never the server's interpreter: the service's moves are not held up by a fit; a stop
kills a fit under way, and the child dies with the service, even by ``kill -9``.

A pool is fitted again when ``games`` games finished in it since its last fit, or when
``seconds`` passed and at least one did; the thread looks every ``look`` seconds, at the
standings' tallies only. **House anchors** (``anchors``: pool id to (account id, rating)) fix
the scale where present: the anchor has exactly its rating and the others' error bars are
relative to it; elsewhere the ratings have mean 0.
"""

from __future__ import annotations

import ctypes
import datetime
import logging
import multiprocessing
import os
import signal
import threading
from typing import Any, Mapping, Sequence

from ..records.database import LadderDatabase, PairResult, now
from ..stats.alltime import AllTimeTable, fit_pool
from ..text import one_line

log = logging.getLogger("referee.ladder.pages")

# How much lower than the service's the fitting process's priority is (``nice``).
FIT_NICENESS = 10
PR_SET_PDEATHSIG = 1


class FitStopped(Exception):
    """The service stopped during a fit."""


def fit_apart(pairs: Sequence[PairResult], anchor: tuple[int, float] | None,
              computed: datetime.datetime, stopping: threading.Event) -> AllTimeTable:
    """:func:`fit_pool` in a child process at a lower priority; raises :class:`FitStopped`
    (the child killed) when ``stopping`` is set first."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_fit_child, args=(sender, pairs, anchor, computed),
                            name="all-time fit", daemon=True)
    child.start()
    sender.close()
    try:
        while True:
            if stopping.is_set():
                raise FitStopped()
            if receiver.poll(0.2):
                return receiver.recv()
            if not child.is_alive() and not receiver.poll():
                raise RuntimeError(f"the fitting process ended with status {child.exitcode}")
    finally:
        child.kill()
        child.join()
        receiver.close()


def _fit_child(sender: Any, pairs: Sequence[PairResult], anchor: tuple[int, float] | None,
               computed: datetime.datetime) -> None:
    """The fitting process: low priority, killed with its parent, the table sent back."""
    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: it ends at its next send instead
        pass
    os.nice(FIT_NICENESS)
    sender.send(fit_pool(pairs, anchor, computed))
    sender.close()


class AllTimeRatings:
    """The all-time tables of every pool of ``records``, kept in memory and refreshed by a
    thread (:meth:`start`, :meth:`stop`); see the module docstring."""

    def __init__(self, records: LadderDatabase,
                 anchors: Mapping[int, tuple[int, float]] | None = None,
                 seconds: float = 600.0, games: int = 100, look: float = 5.0) -> None:
        self.records = records
        self.anchors = dict(anchors or {})
        self.seconds = seconds
        self.games = games
        self.look = look
        self._tables: dict[int, AllTimeTable] = {}
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def table(self, pool: int) -> AllTimeTable | None:
        """The pool's last table, ``None`` before its first fit."""
        return self._tables.get(pool)

    def refresh(self, pool: int) -> AllTimeTable:
        """Fit ``pool``'s table now (the caller waits, the fitting process works) and keep it;
        raises :class:`FitStopped` when stopped meanwhile."""
        began = now()
        table = fit_apart(self.records.pair_results(pool), self.anchors.get(pool), began,
                          self._stopping)
        self._tables[pool] = table
        return table

    def due(self, pool: int) -> bool:
        """Whether ``pool``'s table is missing or old enough, by games or by time."""
        last = self._tables.get(pool)
        if last is None:
            return True
        new = self.records.finished_games(pool) - last.games
        age = (now() - last.computed).total_seconds()
        return new >= self.games or (new > 0 and age >= self.seconds)

    def refresh_due(self) -> None:
        """Fit every pool that is due (one pass of the thread)."""
        for pool in self.records.pools():
            if self._stopping.is_set():
                return
            if self.due(pool.id):
                self.refresh(pool.id)

    def start(self) -> None:
        """Start the thread: a first fit of every pool, then a look every ``look`` seconds."""
        self._thread = threading.Thread(target=self._run, name="all-time ratings", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread (a fit under way killed) and wait for it."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self.refresh_due()
            except FitStopped:
                return
            except Exception as error:  # a database that went away: say so, try again later
                log.warning("all-time ratings not refreshed: %s: %s", type(error).__name__,
                            one_line(str(error)))
            self._stopping.wait(self.look)
