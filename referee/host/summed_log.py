"""A log a flood cannot flood: the same line repeated by one sender is written once, then summed.

A server open to strangers logs what it refuses, and a stranger can be refused thousands of
times a second. :class:`SummedLog` writes the first line of each *kind* (a refusal's reason or
status) from each *key* (a sender: :func:`address_key`), then only counts its repeats for
:data:`LOG_INTERVAL` seconds; the count is written as one line when the interval is over (by
:meth:`~SummedLog.tidy`, which the server calls every few seconds, or on the next line of that
kind and key: "(and N more like it)"), or when the server closes (:meth:`~SummedLog.flush`).

Its memory is bounded whatever the number of senders: at most ``most`` kinds and keys are
counted at once; past that the oldest count is written out early and forgotten, and a line says
so once an interval. It takes a lock, so a threading server's handlers may share one.

>>> clock, lines = [0.0], []
>>> log = SummedLog(lines.append, "refused {count} more from {key}: {kind}", 10.0, 2,
...                 lambda: clock[0])
>>> for port in range(5000, 5100):
...     log.write(address_key(f"10.0.0.1:{port}"), "wrong token",
...               f"refused 10.0.0.1:{port}: wrong token")
>>> clock[0] = 10.0; log.tidy(); lines
['refused 10.0.0.1:5000: wrong token', 'refused 99 more from 10.0.0.1: wrong token']
"""

from __future__ import annotations

import ipaddress
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

# Repeats of one kind of line from one sender within this many seconds share one log line.
LOG_INTERVAL = 10.0
# The most kinds and senders counted at once (a few hundred bytes each).
MOST_COUNTED = 4096


@dataclass
class _Repeats:
    """One kind of line from one sender: when it was last written, and how many like it came
    since."""

    logged_at: float
    since: int = 0


class SummedLog:
    """Writes lines to ``log``, summing repeats (see the module docstring); ``summary`` is the
    line of a sum, a format taking ``count``, ``key`` and ``kind``."""

    def __init__(self, log: Callable[[str], None], summary: str,
                 interval: float = LOG_INTERVAL, most: int = MOST_COUNTED,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self.summary = summary
        self.interval = interval
        self.clock = clock
        self._lock = threading.Lock()
        # Oldest written first: an entry is put back at the end whenever its line is written.
        self._counted: dict[tuple[str, str], _Repeats] = {}
        self._room = Room(most, log, f"counting the repeats of over {most} lines at once: the "
                                     f"oldest counts are written early", interval)

    def __len__(self) -> int:
        """How many kinds and senders are counted now."""
        return len(self._counted)

    def write(self, key: str, kind: str, line: str) -> None:
        """Write ``line``, the ``kind`` of line ``key`` caused, unless one like it was written
        within the interval: then only count it."""
        with self._lock:
            now = self.clock()
            repeats = self._counted.get((key, kind))
            if repeats is not None and now - repeats.logged_at < self.interval:
                repeats.since += 1  # left in its place: the order is that of logged_at
                return
            self._counted.pop((key, kind), None)
            more = f" (and {repeats.since} more like it)" if repeats and repeats.since else ""
            self.log(line + more)
            # Room made by writing the oldest counts out early.
            self._room.make(self._counted, now, lambda oldest: self._forget(*oldest))
            self._counted[(key, kind)] = _Repeats(now)

    def tidy(self) -> None:
        """Write the sums whose interval is over and forget them (called every few seconds)."""
        with self._lock:
            now = self.clock()
            while self._counted:
                (key, kind), repeats = next(iter(self._counted.items()))
                if now - repeats.logged_at < self.interval:
                    break  # the rest were written later still
                self._forget(key, kind)

    def flush(self) -> None:
        """Write every sum now (the server is closing) and forget them."""
        with self._lock:
            for key, kind in list(self._counted):
                self._forget(key, kind)

    def _forget(self, key: str, kind: str) -> None:
        """Write the sum of ``key``'s repeats of ``kind``, if any, and forget them."""
        repeats = self._counted.pop((key, kind))
        if repeats.since:
            self.log(self.summary.format(count=repeats.since, key=key, kind=kind))


class Room:
    """Keeps a dict (ordered oldest first) to at most ``most`` keys: :meth:`make` forgets the
    oldest to make room for one more, and ``log`` takes ``line`` when it does, at most once an
    ``interval``, so that a memory filled by strangers stays bounded and says so quietly."""

    def __init__(self, most: int, log: Callable[[str], None], line: str,
                 interval: float = LOG_INTERVAL) -> None:
        self.most = most
        self.log = log
        self.line = line
        self.interval = interval
        self._said_at: float | None = None

    def make(self, memory: dict, now: float,
             forget: Callable[[Any], None] | None = None) -> None:
        """Make room in ``memory`` for one more key, forgetting its oldest with ``forget(key)``
        (by default, deleting it)."""
        if len(memory) < self.most:
            return
        if self._said_at is None or now - self._said_at >= self.interval:
            self._said_at = now
            self.log(self.line)
        while len(memory) >= self.most:
            oldest = next(iter(memory))
            if forget is None:
                del memory[oldest]
            else:
                forget(oldest)


def address_key(address: str) -> str:
    """What counts as one sender: the host without its port; an IPv6 host by its /64, the
    block one subscriber usually holds.

    >>> address_key("203.0.113.7:5000"), address_key("[2001:db8::1:2:3:4]:5000")
    ('203.0.113.7', '2001:db8::/64')
    >>> address_key("[::ffff:203.0.113.7]:5000"), address_key("[::1]:5000")
    ('203.0.113.7', '::/64')
    """
    host = address[1:address.index("]")] if address.startswith("[") else \
        address.rpartition(":")[0] or address
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


def peer_address(peer: Any) -> str:
    """A socket's peer name as ``host:port`` (``[host]:port`` for IPv6), or ``?``.

    >>> peer_address(("::1", 5000, 0, 0)), peer_address(("127.0.0.1", 5000)), peer_address(None)
    ('[::1]:5000', '127.0.0.1:5000', '?')
    """
    try:
        host, port = peer[:2]
    except (TypeError, ValueError):
        return "?"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
