"""Where game tasks run: the one interface the runner submits to, and its local threads.

The runner does not know what runs its tasks. It keeps :attr:`Executor.slots` tasks in flight,
each a call of a picklable module-level function, and collects the finished ones with
:meth:`Executor.wait`; :class:`ThreadExecutor` runs them on threads of this process, and
:mod:`referee.run.cluster` (imported only for ``--cluster``) on a Dask cluster. This is the
``concurrent.futures`` interface, which Dask's client also speaks.

>>> executor = ThreadExecutor(2)
>>> futures = {executor.submit(pow, 2, exponent) for exponent in (3, 4)}
>>> done = set()
>>> while len(done) < 2:
...     done |= executor.wait(futures - done, timeout=5)
>>> sorted(future.result() for future in done)
[8, 16]
>>> executor.shutdown(cancel=False)
"""

from __future__ import annotations

import concurrent.futures
from abc import ABC, abstractmethod
from concurrent.futures import Future
from typing import Any, Callable, Iterable


class ExecutorError(Exception):
    """The executor cannot go on (a cluster's scheduler is gone): the run stops; the message
    is one line, and the games already finished are written, so the run can be resumed."""


class Executor(ABC):
    """Runs tasks somewhere. ``slots`` is how many tasks are worth keeping in flight now (it
    may change, as a cluster gains or loses workers); ``in_process`` says whether tasks run in
    this process, so that they may call back (a live progress display) while they run."""

    slots: int = 1
    in_process: bool = False

    @abstractmethod
    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """Start ``fn(*args)``; ``fn`` is a module-level function, its arguments picklable."""

    @abstractmethod
    def wait(self, futures: Iterable[Future], timeout: float | None) -> set[Future]:
        """The done ones among ``futures``: at least one, unless ``timeout`` seconds pass.
        Raises :class:`ExecutorError` when it cannot go on."""

    @abstractmethod
    def shutdown(self, cancel: bool) -> None:
        """Let go of the workers; ``cancel``: drop work not yet started and do not wait."""


class ThreadExecutor(Executor):
    """Tasks on ``concurrency`` threads of this process (each keeps its engines between tasks:
    see :class:`referee.play.entrants.EnginePool`)."""

    in_process = True

    def __init__(self, concurrency: int) -> None:
        self.slots = concurrency
        self._pool = concurrent.futures.ThreadPoolExecutor(concurrency, "referee worker")

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        return self._pool.submit(fn, *args)

    def wait(self, futures: Iterable[Future], timeout: float | None) -> set[Future]:
        done, _ = concurrent.futures.wait(list(futures), timeout,
                                          concurrent.futures.FIRST_COMPLETED)
        return done

    def shutdown(self, cancel: bool) -> None:
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)


def local_workers(address: str, cores: int) -> int | None:
    """The number of worker processes ``--cluster local[:N]`` asks for (``local`` alone: one
    per core), or ``None`` for another address; raises ``ValueError`` for a malformed ``local``.

    >>> local_workers("local:3", 8), local_workers("local", 8), local_workers("tcp://h:1", 8)
    (3, 8, None)
    """
    address = address.strip()
    if address != "local" and not address.startswith("local:"):
        return None
    count = address[len("local:"):] or str(cores)
    if not (count.isascii() and count.isdigit()) or int(count) < 1:
        raise ValueError(f"--cluster {address}: expected local or local:N, N worker processes "
                         f"(at least 1)")
    return int(count)
