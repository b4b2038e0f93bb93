"""SIGHUP, the signal that tells a service to load its files again (``systemctl reload``,
``kill -HUP``), handed to a thread of its own.

Python runs a signal handler in the main thread between two steps of whatever that thread was
doing, maybe while it held a lock the action needs; so the handler only writes a byte to a
pipe (no lock taken), and a thread that reads the pipe runs the action. Signals that come while
the action runs make it run once more after it. An action that fails is one log line; the
next SIGHUP tries again.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Callable

from ..text import one_line

HANGUP, STOP = b"h", b"s"


class Hangups:
    """Runs ``action`` after each SIGHUP until closed (a context manager); ``log`` takes a line
    per SIGHUP and one for an action that fails. Made in the main thread (Python's rule for
    signal handlers); closing puts the previous handler back."""

    def __init__(self, action: Callable[[], object], log: Callable[[str], None]) -> None:
        self.action = action
        self.log = log
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._thread = threading.Thread(target=self._serve, daemon=True, name="SIGHUP")
        self._thread.start()
        self._previous = signal.signal(signal.SIGHUP, self._handle)

    def __enter__(self) -> Hangups:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _handle(self, _signal: int, _frame: object) -> None:
        try:
            os.write(self._write, HANGUP)
        except BlockingIOError:  # the pipe is full of SIGHUPs not yet acted on: one is enough
            pass

    def _serve(self) -> None:
        while True:
            received = os.read(self._read, 4096)
            if not received or STOP in received:
                return
            self.log("SIGHUP received")
            try:
                self.action()
            except Exception as error:  # noqa: BLE001  (the next SIGHUP tries again)
                self.log(f"error: the reload after SIGHUP failed: {type(error).__name__}: "
                         f"{one_line(str(error))}")

    def close(self) -> None:
        """Stop acting on SIGHUP: the previous handler back, the thread ended."""
        signal.signal(signal.SIGHUP, self._previous)
        os.set_blocking(self._write, True)  # waits, should the pipe be full, for the thread
        os.write(self._write, STOP)
        self._thread.join()
        os.close(self._read)
        os.close(self._write)
