"""Games on a Dask cluster: the executor behind ``match --cluster ADDRESS``.

The driver (the referee process) submits each game task to Dask's scheduler, which hands it to
a worker thread; the worker runs :func:`referee.run.runner.play_task` there, engines and clocks
included, and sends back the finished games as plain data for the driver to record. Dask does
the rest: it places tasks on free threads (so a worker plays at most as many games at once as
it has threads), runs a task again elsewhere when its worker dies, and lets workers join and
leave during a run.

``connect("tcp://host:8786")`` joins a running scheduler (``dask scheduler``);
``connect("local:N")`` starts an embedded ``LocalCluster`` of N worker processes with one
thread each (``local`` alone: one per core). Both print the dashboard's address.

:class:`DaskExecutor` hands out ordinary :class:`concurrent.futures.Future` objects, settled by
:meth:`DaskExecutor.wait` from the Dask futures behind them, so the runner sees the same futures
as from local threads, and Dask's own failures reach it as one :class:`ClusterError`:

* the scheduler gone (or the connection to it) stops the run; finished games are already
  written, so the same command resumes once a scheduler is back;
* a game whose workers died ``allowed-failures + 1`` times in a row (Dask's ``KilledWorker``)
  stops the run too: something in that game (an engine eating all memory?) kills workers.

This is the only module that imports Dask: a run without ``--cluster`` never loads it.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import threading
import time
from contextlib import suppress
from typing import Any, Callable, Iterable

import dask
import distributed
from distributed.comm import get_address_host_port

from .executor import Executor, ExecutorError, local_workers
from ..play.seats import POOL

# Seconds to reach a scheduler before giving up (and to reconnect before calling it gone).
CONNECT_TIMEOUT = 10.0
# Where a local cluster listens (scheduler, workers, dashboard): this machine only.
LOOPBACK = "127.0.0.1"
# Workers that may die under one game before Dask gives up on it (its default, made explicit
# for the embedded cluster; a remote scheduler keeps its own setting, see docs/cluster.md).
ALLOWED_FAILURES = 3
# Tasks kept in flight per worker thread (see DaskExecutor.slots).
TASKS_PER_THREAD = 2
# Seconds between two questions to the scheduler about the cluster's size.
SIZE_SECONDS = 1.0
# How often (seconds) a worker looks for the engines of cancelled games to kill.
STOP_POLL_SECONDS = 0.1
# Run in every local worker process as it starts: Ctrl-C is the driver's business.
_IGNORE_CTRL_C = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"


class ClusterError(ExecutorError):
    """The cluster cannot be reached or cannot go on; the message is one line saying why."""


def connect(address: str) -> DaskExecutor:
    """An executor on the Dask cluster at ``address``: ``tcp://host:port`` or ``local[:N]``.

    Prints the cluster's size and dashboard address; raises :class:`ClusterError` when the
    address is malformed or no scheduler answers there.
    """
    try:
        workers = local_workers(address, os.cpu_count() or 1)
    except ValueError as error:
        raise ClusterError(str(error)) from None
    executor = (DaskExecutor.local(workers) if workers is not None
                else DaskExecutor.remote(address.strip()))
    threads, workers = executor.size()
    waiting = "" if workers else "; no workers yet: games wait for the first to join"
    print(f"Dask cluster {executor.address}: {workers} workers, {threads} threads"
          f"{waiting}; dashboard {executor.client.dashboard_link}", flush=True)
    return executor


class _TaskFuture(concurrent.futures.Future):
    """The runner's handle on one Dask task; cancelling it cancels the task."""

    def __init__(self, task: distributed.Future) -> None:
        super().__init__()
        self.task = task

    def cancel(self) -> bool:
        if super().cancel():
            with suppress(Exception):  # a lost scheduler has dropped the task anyway
                self.task.cancel()
            return True
        return False


class DaskExecutor(Executor):
    """Runs game tasks on a Dask cluster through ``client`` (and owns ``cluster``, if local)."""

    def __init__(self, client: distributed.Client, address: str,
                 cluster: distributed.LocalCluster | None = None) -> None:
        self.client = client
        self.address = address
        self.cluster = cluster
        self._pending: set[_TaskFuture] = set()
        self._size = (0, 0)
        self._sized_at = -SIZE_SECONDS
        client_log = logging.getLogger("distributed.client")
        if not any(isinstance(known, _LossReportedByUs) for known in client_log.filters):
            client_log.addFilter(_LossReportedByUs())
        # Dask's news of its own comings and goings (INFO: a closed connection logged with
        # its traceback as the scheduler goes) is not the referee's output; warnings are.
        # An embedded cluster does the same by default (LocalCluster's silence_logs).
        dask_log = logging.getLogger("distributed")
        dask_log.setLevel(max(dask_log.getEffectiveLevel(), logging.WARNING))

    @classmethod
    def remote(cls, address: str) -> DaskExecutor:
        """Join the scheduler at ``address``."""
        try:
            get_address_host_port(address)
        except ValueError as error:  # not an address Dask can read
            raise ClusterError(f"--cluster {address}: {_first_line(error)}") from None
        try:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"no Dask scheduler answers at {address} "
                               f"({_first_line(error)})") from None
        return cls(client, address)

    @classmethod
    def local(cls, workers: int) -> DaskExecutor:
        """Start a cluster of ``workers`` processes of one thread each, inside this process.

        Its scheduler, workers and dashboard listen on the loopback address only: the
        dashboard shows logs and live call stacks, which are nobody else's business.

        The worker processes ignore Ctrl-C, which the terminal sends to the whole process
        group (restarted ones too: it is a preload): the driver alone decides what an
        interruption means (drain, then stop).
        """
        settings = {"distributed.scheduler.allowed-failures": ALLOWED_FAILURES}
        with dask.config.set(settings):
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                               processes=True, host=LOOPBACK,
                                               dashboard_address=f"{LOOPBACK}:0",
                                               preload=[_IGNORE_CTRL_C])
        client = distributed.Client(cluster, set_as_default=False)
        return cls(client, f"local:{workers}", cluster)

    def size(self) -> tuple[int, int]:
        """Worker threads and workers in the cluster, asked at most once a second (the runner
        asks often); the last figures known while the scheduler does not answer."""
        now = time.monotonic()
        if self.client.status == "running" and now - self._sized_at >= SIZE_SECONDS:
            with suppress(OSError):  # a broken connection: wait() reports the loss
                info = self.client.scheduler_info(n_workers=0)
                self._size = info.get("total_threads", 0), info.get("n_workers", 0)
            self._sized_at = now
        return self._size

    @property
    def slots(self) -> int:
        """Two tasks per worker thread: one playing, one waiting on the worker or the
        scheduler, so that a thread starts its next game as soon as one ends, however busy
        the driver is writing (Dask still runs one task per thread at a time). One while there
        are no workers, so that the run waits for them rather than thinking it is done."""
        return max(1, TASKS_PER_THREAD * self.size()[0])

    def submit(self, fn: Callable[..., Any], *args: Any) -> concurrent.futures.Future:
        # pure=False: every call is a new task, even with the same arguments (a replayed game).
        future = _TaskFuture(self.client.submit(fn, *args, pure=False))
        self._pending.add(future)
        return future

    def wait(self, futures: Iterable[concurrent.futures.Future],
             timeout: float | None) -> set[concurrent.futures.Future]:
        """The given futures that are done, waiting up to ``timeout`` seconds for the first.

        Raises :class:`ClusterError` when the scheduler is lost or Dask gave up on a task.
        """
        futures = set(futures)
        done = {future for future in futures if future.done()}
        waiting = {future.task: future for future in futures - done
                   if isinstance(future, _TaskFuture)}
        if done or not waiting:
            return done
        try:
            if not any(task.done() for task in waiting):
                with self.client.as_current():
                    distributed.wait(list(waiting), timeout=timeout,
                                     return_when="FIRST_COMPLETED")
            self._settle([(task, future) for task, future in waiting.items() if task.done()])
        except TimeoutError:
            return set()
        except ClusterError:
            raise
        except OSError:  # the connection broke (CommClosedError) mid-call: when the client
            raise self._lost() from None  # notices, it cancels every task anyway
        except Exception:  # cancelled by the client, or a closed connection: the scheduler?
            if self.client.status == "running" and self.client.scheduler_comm is not None:
                raise
            raise self._lost() from None
        return {future for future in futures if future.done()}

    def _settle(self, ready: list[tuple[distributed.Future, _TaskFuture]]) -> None:
        """Copy each finished task's result (or error) into its future, releasing the task."""
        if any(task.status == "cancelled" for task, _ in ready):  # not by us: the client has
            raise self._lost()                                    # lost the scheduler
        finished = [(task, future) for task, future in ready if task.status == "finished"]
        if finished:
            results = self.client.gather([task for task, _ in finished])
            for (task, future), result in zip(finished, results):
                future.set_result(result)
        for task, future in ready:
            if task.status == "error":
                error = task.exception()
                if isinstance(error, distributed.KilledWorker):
                    raise ClusterError(
                        f"{error.allowed_failures + 1} workers died while playing the same game "
                        f"task ({task.key}), so Dask gave up on it; see the workers' logs, then "
                        f"run the same command to resume") from None
                future.set_exception(error.with_traceback(task.traceback()))
            self._pending.discard(future)
            task.release()

    def _lost(self) -> ClusterError:
        _quiet_dask()
        return ClusterError(f"lost the Dask scheduler at {self.address}; finished games are "
                            f"saved: run the same command to resume")

    def shutdown(self, cancel: bool) -> None:
        """Let go of the cluster: ``cancel`` drops the tasks not done (games in progress end
        at once), else they are waited for. Either way the workers close the engines they
        kept for this run, since a worker outlives the run; then the connection (and the
        embedded cluster) is closed."""
        tasks = [future.task for future in self._pending]
        if self.client.status != "running":
            _quiet_dask()  # closing a client that lost its scheduler logs tracebacks
        else:
            with suppress(Exception):
                if tasks and cancel:
                    self.client.run(_stop_tasks, [task.key for task in tasks])
                    self.client.cancel(tasks, force=True)
                elif tasks:
                    with self.client.as_current():
                        distributed.wait(tasks)
                self.client.run(_close_idle_engines)
        for future in self._pending:
            future.cancel()
        self._pending.clear()
        with suppress(Exception):
            self.client.close(timeout=CONNECT_TIMEOUT)
        if self.cluster is not None:
            with suppress(Exception):
                self.cluster.close(timeout=CONNECT_TIMEOUT)


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


class _LossReportedByUs(logging.Filter):
    """Drops the client's log of giving up on a lost scheduler: when the client gives up
    (after its reconnection timeout) the driver ends the run with its own one line saying so,
    which that log would otherwise precede on standard error."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Failed to reconnect to scheduler")


def _quiet_dask() -> None:
    """Silence Dask's own logging in the driver, once the run is ending with our one line."""
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).disabled = True


def _stop_tasks(keys: list[str], dask_worker: distributed.Worker) -> None:
    """On each worker: end the games of these cancelled tasks now (Dask cannot stop a running
    task). A thread kills their engines, and again those a task starts next (the second game
    of a pair), until the tasks have returned; their games end as crashes nobody records."""
    threading.Thread(target=_kill_until_done, args=(set(keys), dask_worker), daemon=True,
                     name="referee: stop cancelled games").start()


def _kill_until_done(keys: set[str], worker: distributed.Worker) -> None:
    seen: set[int] = set()
    while True:
        with worker.active_threads_lock:
            active = dict(worker.active_threads)  # thread ident -> task key
        ours = {ident for ident, key in active.items() if key in keys}
        seen |= ours
        # the threads playing our tasks, and those that did and are idle now
        POOL.release(lambda ident: ident in ours or (ident in seen and ident not in active),
                     kill=True)
        if not ours:
            return
        time.sleep(STOP_POLL_SECONDS)


def _close_idle_engines(dask_worker: distributed.Worker) -> None:
    """On each worker: close the engines its idle threads keep, as the run is over (tasks of
    other runs sharing the worker keep theirs)."""
    with dask_worker.active_threads_lock:
        busy = set(dask_worker.active_threads)
    threading.Thread(target=POOL.release, args=(lambda ident: ident not in busy, False),
                     daemon=True, name="referee: close idle engines").start()
