"""The participants of an event: who they are, how they prove it, and their engines.

Each participant has a secret token. The event file keeps either the token or, better, its
SHA-256 digest (then the file itself gives nothing away); either way the server compares
digests, and :meth:`Roster.identify` compares a presented token with every participant's in
constant time (``hmac.compare_digest``, no early exit), so the time it takes says nothing about
which token was close.

**A second login.** A connection with a participant's token replaces that participant's
connection, if it has one: the newer connection wins, and only with the right token. A
participant whose link went half-dead (a laptop that slept, a NAT that forgot it) can come back
at once without waiting for the server to notice, and nobody without the token can take the
seat. A game in progress goes on with the new connection's engine, brought back to the position.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..play.lag import LagPolicy
from ..play.remote import RemoteChannel
from .gatekeeper import Admission, Gatekeeper, Refusal


def token_digest(token: str) -> str:
    """The hexadecimal SHA-256 of ``token``, as the event file's ``token-sha256`` keeps it.

    >>> token_digest("secret")[:16]
    '2bb80d537b1da3e3'
    """
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Entrant:
    """One participant: display name and the SHA-256 digest of its token (hexadecimal)."""

    name: str
    digest: str


class Roster(Gatekeeper):
    """The participants and their channels (one :class:`RemoteChannel` each, for the event)."""

    def __init__(self, entrants: Sequence[Entrant], grace: float, lag: LagPolicy) -> None:
        self.entrants = list(entrants)
        self.channels = {entrant.name: RemoteChannel(entrant.name, grace, lag)
                         for entrant in entrants}

    def admit(self, hello: dict[str, Any]) -> Admission:
        """The participant whose token the ``hello`` gives; raises :class:`Refusal`."""
        if hello.get("token") is None:
            raise Refusal("this event logs in with a token (connect --token)")
        name = self.identify(hello["token"])
        if name is None:
            raise Refusal("wrong token", wrong_secret=True)
        return Admission(name, name, self.channels[name])

    def all_channels(self) -> Iterable[RemoteChannel]:
        return self.channels.values()

    def identify(self, token: str) -> str | None:
        """The name of the participant whose token this is, or ``None``."""
        presented = bytes.fromhex(token_digest(token))
        found = None
        for entrant in self.entrants:
            if hmac.compare_digest(presented, bytes.fromhex(entrant.digest)):
                found = entrant.name
        return found
