"""Who may knock, and how often: the event server's admission of connections before login.

A server open to the Internet meets scanners, forgotten clients and people guessing tokens.
The :class:`Door` keeps them from costing the participants anything:

* **Connections not yet logged in are capped**, in all and per address, counted from the moment
  the TCP connection is accepted; one over a cap is closed at once, before TLS.
* **Wrong tokens are slowed**: the refusal of the n-th wrong token from an address within
  :attr:`DoorPolicy.window` waits ``first_delay * 2**(n-1)`` seconds (at most ``most_delay``),
  and at :attr:`DoorPolicy.failures` the address is banned for :attr:`DoorPolicy.ban` seconds:
  its connections are closed at once. The ban ends by itself, and the right token then gets in.
  Another address is never slowed by it.
* **Every refusal is logged**, with the address and the reason, never the token; the same
  refusal repeated from one address within :data:`~.summed_log.LOG_INTERVAL` is summed into
  one line (:class:`~.summed_log.SummedLog`), so that a flood cannot flood the log.

An address is its host; an IPv6 address counts by its /64 block, the block one subscriber
usually holds. The door's memory is bounded whatever arrives: it remembers the wrong tokens and
the bans of at most :data:`MOST_REMEMBERED` addresses each; past that it forgets the addresses
it heard from least lately (a ban, those that end soonest), and a line says so once an interval.
The door is used from the server's one event-loop thread only, and keeps no
lock.

>>> clock = [0.0]
>>> lines = []
>>> door = Door(DoorPolicy(failures=2, ban=60), lines.append, lambda: clock[0])
>>> door.failed("10.0.0.1"), door.failed("10.0.0.1")
(0.25, 0.5)
>>> lines
['banned 10.0.0.1 for 60 s after 2 wrong tokens within 600 s']
>>> door.knock("10.0.0.1")
'2 wrong tokens within 600 s: banned for 60 s'
>>> door.knock("10.0.0.2") is None
True
>>> clock[0] = 61.0; door.knock("10.0.0.1") is None
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from .summed_log import Room, SummedLog, address_key

# The most addresses whose wrong tokens, and apart whose bans, the door remembers at once: as
# many as the /64s of one /48 (a site's IPv6 block). Each costs a few hundred bytes.
MOST_REMEMBERED = 65_536


@dataclass(frozen=True)
class DoorPolicy:
    """The door's limits (the event file's ``[limits]`` table; docs/event.md)."""

    pending: int = 1024             # connections not yet logged in, in all
    # ... and from one address: room for many engines behind one address (an author's bots, a
    # lab behind NAT) connecting at once, while one address cannot take the whole of ``pending``
    pending_per_address: int = 64
    failures: int = 10              # wrong tokens from one address within ``window``: a ban
    window: float = 600.0
    ban: float = 60.0
    first_delay: float = 0.25       # the first wrong token's refusal waits this long
    most_delay: float = 4.0         # ... doubling with each, up to this


class Door:
    """Admission before login under ``policy``; ``log`` takes one line per refusal; at most
    ``most`` addresses' wrong tokens (and bans) are remembered."""

    def __init__(self, policy: DoorPolicy, log: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic,
                 most: int = MOST_REMEMBERED) -> None:
        self.policy = policy
        self.log = log
        self.clock = clock
        self.waiting = 0
        # Connections waiting by address: no more keys than connections, which the policy caps.
        self._waiting: dict[str, int] = {}
        # The times of each address's wrong tokens within the window (its latest ``failures``),
        # and when each ban ends; both ordered oldest first (see :meth:`_remember`).
        self._failures: dict[str, list[float]] = {}
        self._banned: dict[str, float] = {}
        self._room = Room(most, log, f"remembering the wrong tokens or bans of over {most} "
                                     f"addresses at once: the oldest are forgotten")
        self._refusals = SummedLog(log, "refused {count} more connections from {key}: {kind}",
                                   clock=clock)

    def knock(self, address: str) -> str | None:
        """A connection from ``address`` was accepted: ``None`` when it may go on to log in
        (it is then counted until :meth:`left`), else why it is refused."""
        key = address_key(address)
        until = self._banned.get(key)
        if until is not None:
            if self.clock() < until:
                return (f"{self.policy.failures} wrong tokens within {self.policy.window:g} s: "
                        f"banned for {self.policy.ban:g} s")
            del self._banned[key]
            self._failures.pop(key, None)
        if self.waiting >= self.policy.pending:
            return f"{self.policy.pending} connections are waiting to log in"
        if self._waiting.get(key, 0) >= self.policy.pending_per_address:
            return f"{self.policy.pending_per_address} connections from this address are " \
                   f"waiting to log in"
        self.waiting += 1
        self._waiting[key] = self._waiting.get(key, 0) + 1
        return None

    def left(self, address: str) -> None:
        """A connection :meth:`knock` admitted has logged in or closed."""
        key = address_key(address)
        self.waiting -= 1
        count = self._waiting[key] - 1
        if count:
            self._waiting[key] = count
        else:
            del self._waiting[key]

    def failed(self, address: str) -> float:
        """``address`` presented a wrong token: the seconds its refusal waits. The address is
        banned once it reaches the policy's count of failures within the window."""
        key, now = address_key(address), self.clock()
        recent = [at for at in self._failures.pop(key, ()) if at > now - self.policy.window]
        # the latest ``failures`` are all a ban needs: an address's memory is bounded too
        recent = recent[max(0, len(recent) + 1 - self.policy.failures):] + [now]
        self._remember(self._failures, key, recent, now)
        if len(recent) >= self.policy.failures and key not in self._banned:
            self._remember(self._banned, key, now + self.policy.ban, now)
            self.log(f"banned {key} for {self.policy.ban:g} s after {len(recent)} wrong tokens "
                     f"within {self.policy.window:g} s")
        return min(self.policy.first_delay * 2 ** (len(recent) - 1), self.policy.most_delay)

    def refuse(self, address: str, reason: str) -> None:
        """Log the refusal of a connection from ``address`` (summed with its repeats)."""
        self._refusals.write(address_key(address), reason,
                             f"refused a connection from {address}: {reason}")

    def tidy(self) -> None:
        """Write the sums of repeated refusals whose interval is over, and forget what has
        expired (called every few seconds)."""
        now = self.clock()
        self._refusals.tidy()
        for key, until in list(self._banned.items()):
            if now >= until:
                del self._banned[key]
        for key, times in list(self._failures.items()):
            if key not in self._banned and times[-1] <= now - self.policy.window:
                del self._failures[key]

    def flush(self) -> None:
        """Write every count of repeated refusals now (the server is stopping)."""
        self._refusals.flush()

    def _remember(self, memory: dict[str, Any], key: str, value: Any, now: float) -> None:
        """Set ``memory[key]`` (absent: the caller took it out) last in its order, first
        forgetting the oldest keys while ``memory`` holds ``most`` (:class:`~.summed_log.Room`,
        which the log says once an interval)."""
        self._room.make(memory, now)
        memory[key] = value
