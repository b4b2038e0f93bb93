"""Who may log in to a server of remote seats, and as whom: the one question the event
server (:mod:`.event_server`) asks of the event's roster (:mod:`.roster`, a token each) and of
the ladder's lobby (:mod:`.ladder_lobby`, accounts and pools).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..play.remote import RemoteChannel


class Refusal(Exception):
    """A login refused; the message is the one line the client is told. ``wrong_secret``: the
    client gave a wrong token, password or resume ticket (the door slows and then bans such
    addresses). ``retry``: what the client may log in with instead (``"password"``: its
    resume ticket was good once, but no more), or ``None``."""

    def __init__(self, reason: str, wrong_secret: bool = False,
                 retry: str | None = None) -> None:
        super().__init__(reason)
        self.wrong_secret = wrong_secret
        self.retry = retry


@dataclass(frozen=True)
class Admission:
    """A login let in: the name the welcome tells the client, the name the server's log gives
    it, the channel its connection carries, what the welcome calls the event (``None``: the
    server's own name), and where the resume tickets handed to the client come from (a new one
    at each call, for this same login; ``None``: none are). A ticket is made on a worker thread
    (it reads the database)."""

    name: str
    label: str
    channel: RemoteChannel
    event: str | None = None
    tickets: Callable[[], str] | None = field(default=None, repr=False)


class Gatekeeper(ABC):
    """Decides logins for a server; see the module docstring."""

    @abstractmethod
    def admit(self, hello: dict[str, Any]) -> Admission:
        """Who the (checked) ``hello`` message proves the client is; raises :class:`Refusal`.
        Called on a worker thread: it may take its time (a slow password hash)."""

    @abstractmethod
    def all_channels(self) -> Iterable[RemoteChannel]:
        """Every channel a connection may carry now (told goodbye when the server ends)."""
