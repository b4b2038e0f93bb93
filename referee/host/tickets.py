"""Resume tickets: what lets a ladder client that logged in with its password log in again
without it, checked with one HMAC instead of a slow password hash.

A restarted server meets every participant's client at once; checking a thousand passwords with
scrypt costs tens of seconds of CPU. So a password login is answered with a ticket, which the
client keeps in memory and presents in place of its password when it connects again. A ticket
says which account it is for, the account's *generation* (a count the database bumps whenever
a change must end the account's tickets: a new password, disabled, renamed, merged) and when it
expires, signed with HMAC-SHA256 under the ladder's secret (kept in its database; a new secret,
``ladder admin ... rotate-tickets``, ends every ticket). Its text is
``KEY.ACCOUNT.GENERATION.EXPIRES.MAC``: ``KEY`` names the secret (so that a ticket signed under
an earlier one is told from a forged one), ``EXPIRES`` is Unix time, ``MAC`` the signature of
the rest in unpadded base64url. This module writes and reads tickets; whether a good ticket
still lets its account in is :class:`~.accounts.Accounts`' rule.

>>> secret = bytes(32)
>>> text = sign(Ticket(7, 2, 1_800_000_000), secret)
>>> text.split(".")[:4], len(text)
(['0b074175', '7', '2', '1800000000'], 67)
>>> verify(text, secret)
Ticket(account=7, generation=2, expires=1800000000)
>>> verify(text.replace(".2.", ".3."), secret)
Traceback (most recent call last):
...
referee.host.tickets.ForgedTicket: wrong resume ticket
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

# How long a ticket lets its account in (a client connected longer logs in with its password
# once at its next connection, and gets a new ticket).
TICKET_LIFETIME = 7 * 24 * 3600
# How often a client that stays connected is sent a new ticket (so that it holds a good one
# whenever the server restarts, however long it has been connected).
TICKET_RENEWAL = 24 * 3600
# The longest ticket text a client may send (a real one is about 70 characters).
MAX_TICKET_CHARS = 200


@dataclass(frozen=True)
class Ticket:
    """What a ticket says: the account's id, its generation when the ticket was given, and
    when the ticket expires (Unix time, whole seconds)."""

    account: int
    generation: int
    expires: int


class TicketError(ValueError):
    """A ticket that lets nobody in; one line."""


class ForgedTicket(TicketError):
    """A ticket this ladder did not sign: a guess, which the server slows and then bans."""


class EarlierSecret(TicketError):
    """A ticket signed under a secret the ladder has replaced since."""


def key_of(secret: bytes) -> str:
    """The name of ``secret`` in its tickets: enough of a hash to tell secrets apart, nothing
    that helps to find it."""
    return hashlib.sha256(b"olympiad resume ticket key " + secret).hexdigest()[:8]


def _mac(body: str, secret: bytes) -> str:
    digest = hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def sign(ticket: Ticket, secret: bytes) -> str:
    """The text of ``ticket`` signed with ``secret``."""
    body = f"{key_of(secret)}.{ticket.account}.{ticket.generation}.{ticket.expires}"
    return f"{body}.{_mac(body, secret)}"


def verify(text: str, secret: bytes) -> Ticket:
    """What ``text`` says, once it is a ticket signed with ``secret`` (compared in constant
    time); raises :class:`EarlierSecret` or :class:`ForgedTicket`. Whether it expired is the
    caller's to check."""
    parts = text.split(".")
    if len(parts) != 5:
        raise ForgedTicket("wrong resume ticket")
    key, *numbers, mac = parts
    if key != key_of(secret):
        raise EarlierSecret("resume ticket signed before the ladder's secret was rotated")
    body = text.rpartition(".")[0]
    if not hmac.compare_digest(mac.encode("ascii", "replace"), _mac(body, secret).encode()):
        raise ForgedTicket("wrong resume ticket")
    return Ticket(*map(int, numbers))  # signed here, so whole numbers
