"""SIGHUP handed to a thread of its own (:class:`referee.host.hangup.Hangups`), with a real
signal sent to this process: the action runs once a signal, a failing one is a log line and
the next signal runs it again, and closing puts the previous handler back."""

from __future__ import annotations

import os
import signal
import threading

from referee.host.hangup import Hangups


def test_each_sighup_runs_the_action_on_another_thread_until_closed():
    ran: list[str] = []
    done = threading.Semaphore(0)
    lines: list[str] = []

    def action() -> None:
        ran.append(threading.current_thread().name)
        done.release()
        if len(ran) == 1:
            raise OSError("the certificate is half-written")

    before = signal.getsignal(signal.SIGHUP)
    with Hangups(action, lines.append):
        for _ in range(2):
            os.kill(os.getpid(), signal.SIGHUP)
            assert done.acquire(timeout=30)
    assert ran == ["SIGHUP", "SIGHUP"]
    assert lines == ["SIGHUP received",
                     "error: the reload after SIGHUP failed: OSError: the certificate is "
                     "half-written",
                     "SIGHUP received"]
    assert signal.getsignal(signal.SIGHUP) == before
