"""Helpers for the tests that start real processes and check that none is left behind.

:func:`interruptible` is the ``preexec_fn`` of a command a test interrupts with SIGINT: a shell
may start the suite with SIGINT ignored (a background job), children inherit that, and the
Ctrl-C would then never count; :func:`another_thread` names a thread to send it to instead of
the process. :func:`processes_where` reads ``/proc`` for the processes a test looks for (by
command line, working folder or parent); :func:`wait_for` waits, bounded, until one is there
or gone.
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path


def interruptible() -> None:
    """Give the child SIGINT's default action, whatever the suite was started with."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def another_thread(pid: int) -> int:
    """The id of one of process ``pid``'s threads other than its main thread (``kill`` on it
    delivers a signal to that thread: the kernel may deliver one sent to the process there)."""
    threads = [int(entry.name) for entry in Path(f"/proc/{pid}/task").iterdir()]
    return max(thread for thread in threads if thread != pid)


def processes_where(matches) -> list[int]:
    """The ids of the living processes whose ``/proc`` folder ``matches`` (a function of it);
    a process that ends while it is read (``OSError``) is left out."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if matches(entry):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def command_words(entry: Path) -> list[bytes]:
    """The command line of the process of ``/proc`` folder ``entry``, word by word."""
    return (entry / "cmdline").read_bytes().split(b"\0")


def wait_for(condition, seconds: float = 60.0, process: subprocess.Popen | None = None,
             what: str = "the condition"):
    """Wait until ``condition()`` holds and return what it returned; fail after ``seconds``,
    or at once when ``process`` (the command under test) has ended meanwhile. ``what`` names
    the wait in the failure."""
    deadline = time.monotonic() + seconds
    while not (held := condition()):
        assert time.monotonic() < deadline, f"waited {seconds:g} s for {what} in vain"
        assert process is None or process.poll() is None, \
            f"the process ended early: {process.communicate()}"
        time.sleep(0.02)
    return held


def interrupt(process: subprocess.Popen) -> str:
    """End ``process`` with Ctrl-C (if it has not ended; a kill after 10 s) and return what it
    wrote to standard error."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        _, errors = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        _, errors = process.communicate()
    return errors
