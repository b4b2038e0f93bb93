"""Waits in a command's main thread that see Ctrl-C at once.

Python runs signal handlers in the main thread, but the kernel may deliver a signal sent to the
process to any of its threads (``kill`` on a thread's id delivers it to that thread). A blocking
wait without end in the main thread is then not woken, and Ctrl-C counts only when whatever it
waits for happens: a game's end, a message from the server. These waits wake every
:data:`WAKE_SECONDS`, so a Ctrl-C delivered anywhere stops the command within that time.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, TimeoutError
from typing import TypeVar

# How often (seconds) a waiting main thread wakes to see a signal delivered to another thread.
WAKE_SECONDS = 0.25

T = TypeVar("T")


def result(future: Future[T]) -> T:
    """``future.result()``, waited for a moment at a time."""
    while True:
        try:
            return future.result(timeout=WAKE_SECONDS)
        except TimeoutError:
            continue


def sleep(seconds: float) -> None:
    """``time.sleep(seconds)``, a moment at a time."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(left, WAKE_SECONDS))


def forever() -> None:
    """Wait until a signal's handler raises (Ctrl-C: ``KeyboardInterrupt``)."""
    while True:
        time.sleep(WAKE_SECONDS)
