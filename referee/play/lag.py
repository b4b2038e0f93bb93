"""The lag allowance: how much of a remote answer's time the server does not charge.

The server measures every answer from sending the command to receiving the answer; over a
network that includes the time the messages spent travelling, which is not the engine's
thinking. The client reports how long its engine took (``think``); the difference is the lag.
Trusting it outright would let a client claim any thinking as lag, so, as lichess's
``LagTracker`` (scalachess) does, the allowance comes from a quota: a side starts a game with
``start`` seconds of it, each answer may take at most ``per_answer`` and never more than is
left, and each move it makes refills ``gain``, up to ``cap``. Whatever a client claims, over a
game of ``n`` moves it is granted at most ``start + n * gain`` seconds in all, besides its
set-up's, and every answer is charged at least its measured time less ``per_answer``.

The set-up of a game (every answer before a side's first move: ``boardsize``, ``clear_board``,
``time_settings``, the opening's ``play``...) draws nothing from the quota: its lag is granted
within the same bounds per answer (``per_answer`` and the round trip's below), so that a slow
link's set-up (five or six round trips) does not spend the start allowance the first move
needs. A set-up has a bounded number of answers, and none of them is a move.

The server also measures the connection's round trip itself (the WebSocket's keep-alive pings)
and believes a claim only up to :data:`RTT_FACTOR` round trips plus :data:`RTT_SLACK`: a
client that reports a fast engine over a fast link cannot turn its thinking into "lag".

>>> quota = LagQuota(LagPolicy(start=1.0, gain=0.5, cap=2.0, per_answer=0.8))
>>> round(quota.grant(measured=0.3, think=0.1), 6)  # 0.2 s of lag, granted in full
0.2
>>> quota.grant(measured=5.0, think=0.0, move=True)  # 5 s claimed: the most one answer may have
0.8
>>> round(quota.left, 3)                          # 1 - 0.2 - 0.8, then the move's refill
0.5
>>> quota.grant(measured=0.3, think=None)         # no think time reported: no allowance
0.0
>>> round(quota.grant(measured=2.0, think=0.0, rtt=0.1), 6)  # 2 s of "lag" on a 0.1 s link
0.22
>>> fresh = LagQuota(LagPolicy(start=1.0))
>>> round(fresh.grant(measured=0.3, think=0.0, setup=True), 6), fresh.left  # quota untouched
(0.3, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

# A claimed lag is believed up to this many measured round trips, plus RTT_SLACK seconds
# (the answer's own framing, a busy scheduler, a link's jitter).
RTT_FACTOR = 2.0
RTT_SLACK = 0.02


@dataclass(frozen=True)
class LagPolicy:
    """The quota's settings, in seconds (the event file's ``[lag]`` table); lichess uses 2, 1,
    5 and 3 for a human's clicks over the Internet."""

    start: float = 2.0
    gain: float = 1.0
    cap: float = 5.0
    per_answer: float = 3.0

    def __post_init__(self) -> None:
        if min(self.start, self.gain, self.cap, self.per_answer) < 0:
            raise ValueError("lag allowance settings cannot be negative")


class LagQuota:
    """One side's allowance through one game; see the module docstring."""

    def __init__(self, policy: LagPolicy) -> None:
        self.policy = policy
        self.left = min(policy.start, policy.cap)

    def available(self) -> float:
        """The most the next answer may be granted: how long past its deadline it is awaited."""
        return min(self.left, self.policy.per_answer)

    def grant(self, measured: float, think: float | None, move: bool = False,
              rtt: float | None = None, setup: bool = False) -> float:
        """The allowance for an answer the server measured at ``measured`` seconds of which the
        client says its engine took ``think``, over a connection whose round trip the server
        measured at ``rtt`` (``None``: not measured yet); ``move``: the answer was a move,
        which refills the quota after the grant; ``setup``: the answer is part of the game's
        set-up, granted without drawing from the quota (see the module docstring)."""
        lag = 0.0 if think is None else max(0.0, measured - max(0.0, think))
        if rtt is not None:
            lag = min(lag, RTT_FACTOR * rtt + RTT_SLACK)
        if setup:
            return min(lag, self.policy.per_answer)
        granted = min(lag, self.available())
        self.left -= granted
        if move:
            self.left = min(self.left + self.policy.gain, self.policy.cap)
        return granted
