"""The ladder's accounts: which names may be taken, how passwords are kept, who may log in.

As on CGOS, an account is made by its first login: a new name with a password creates it, and
later logins with that name need the same password. When registration is closed a new name
needs an invitation too (a token the organiser hands out, :meth:`Accounts.invite`; the database
keeps only its SHA-256, and each is used once). A disabled account is refused.

**Names** are 2 to 24 ASCII letters, digits, ``-``, ``_`` and ``.``, and no new name may look
like one taken already: names with the same :func:`name_key` (case folded, ``0`` read as ``o``,
``1`` and ``i`` as ``l``, ``rn`` as ``m``, ``vv`` as ``w``, and ``_`` and ``.`` as ``-``) are
one name to the ladder, so that nobody can pass for ``Fuego`` as ``fueg0`` or ``FUEGO``.

**Passwords** are kept only as a salted scrypt hash (``hashlib.scrypt``, 16 random bytes of
salt) whose string holds its parameters, ``scrypt$n$r$p$salt$hash`` (hexadecimal), so that the
cost can be raised later: a login whose stored hash has a lower cost than :class:`Accounts`'
stores the password again at the new cost. Hashes are compared with ``hmac.compare_digest``.
The default cost (n = 2^14, r = 8, p = 1: 16 MiB and about 0.1 s per hash on the 2-core
machine of ``docs/ladder.md``) is Django's.

**Resume tickets** (:mod:`.tickets`) let a client that logged in with its password log in
again without it, cheaply (one HMAC, no scrypt): :meth:`Accounts.ticket` gives one after a
login, :meth:`Accounts.resume` takes it back while it is good. A ticket ends when it expires
(:data:`~.tickets.TICKET_LIFETIME`), when its account changes (a new password, disabled or
enabled, renamed, merged: the database bumps the account's generation) and when the ladder's
secret is rotated (:meth:`Accounts.rotate_tickets`; a database without a secret makes one at
its first ticket). The secret is read at every ticket, so that a change made beside the server
(``ladder admin``) counts at once.

Every refusal is a :class:`LoginRefused` whose message is one line for the client. For an
existing name the only one that depends on the password is ``wrong password``; whether the
account is disabled is said only to whoever gave its password.

>>> name_key("Fuego.v1"), name_key("fuego_vl") == name_key("FUEG0-V1")
('fuego-vl', True)
>>> name_problem("x"), name_problem("Leela Zero")
('a name has 2 to 24 characters', 'a name has only ASCII letters, digits, "-", "_" and "."')
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import string
import time
from dataclasses import dataclass
from typing import Callable

from ..records.database import (
    Account,
    InvitationUnusable,
    LadderDatabase,
    NameTaken,
)
from .tickets import TICKET_LIFETIME, ForgedTicket, Ticket, TicketError, sign, verify

NAME_LENGTHS = range(2, 25)
NAME_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-_.")
PASSWORD_LENGTHS = range(1, 257)
# What :func:`name_key` reads alike, in order, after folding case.
LOOK_ALIKES = (("rn", "m"), ("vv", "w"), ("0", "o"), ("1", "l"), ("i", "l"), ("_", "-"),
               (".", "-"))
SALT_BYTES = 16
HASH_BYTES = 32
TICKET_SECRET_BYTES = 32


class LoginRefused(ValueError):
    """A login or a new name refused; the message is the one line the client is told."""


class WrongSecret(LoginRefused):
    """A login refused for a wrong password or an unknown invitation: a guess, which a server
    slows and then bans (a forged resume ticket too)."""


class StaleTicket(LoginRefused):
    """A resume ticket the ladder gave but that lets nobody in any more (expired, its account
    changed, the secret rotated): the client logs in with its password instead."""


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as an account name, or ``None`` if nothing is (whether it
    is taken is the database's to say)."""
    if len(name) not in NAME_LENGTHS:
        return f"a name has {NAME_LENGTHS.start} to {NAME_LENGTHS.stop - 1} characters"
    if not set(name) <= NAME_CHARACTERS:
        return 'a name has only ASCII letters, digits, "-", "_" and "."'
    return None


def password_problem(password: str) -> str | None:
    """What is wrong with ``password`` for a new one, or ``None`` if nothing is."""
    if len(password) not in PASSWORD_LENGTHS:
        return (f"a password has {PASSWORD_LENGTHS.start} to {PASSWORD_LENGTHS.stop - 1} "
                f"characters")
    return None


def name_key(name: str) -> str:
    """The form of ``name`` that names looking like it share (see the module docstring)."""
    key = name.lower()
    for alike, same in LOOK_ALIKES:
        key = key.replace(alike, same)
    return key


@dataclass(frozen=True)
class ScryptCost:
    """scrypt's parameters: ``n`` (CPU and memory, a power of 2), ``r`` (block size) and ``p``
    (parallelism); memory is about ``128 * n * r`` bytes."""

    n: int = 2 ** 14
    r: int = 8
    p: int = 1

    def below(self, other: ScryptCost) -> bool:
        """Whether any of this cost's parameters is lower than ``other``'s."""
        return self.n < other.n or self.r < other.r or self.p < other.p


def _scrypt(password: str, salt: bytes, cost: ScryptCost) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=cost.n, r=cost.r, p=cost.p,
                          maxmem=128 * cost.r * (cost.n + cost.p + 2) + 2 ** 20,
                          dklen=HASH_BYTES)


def hash_password(password: str, cost: ScryptCost = ScryptCost()) -> str:
    """``password`` hashed with a fresh salt, as ``scrypt$n$r$p$salt$hash``."""
    salt = os.urandom(SALT_BYTES)
    return f"scrypt${cost.n}${cost.r}${cost.p}${salt.hex()}${_scrypt(password, salt, cost).hex()}"


def _parse_hash(stored: str) -> tuple[ScryptCost, bytes, bytes] | None:
    """The cost, salt and hash of a stored hash string, or ``None`` if it is not one."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return None
    try:
        return ScryptCost(*map(int, parts[1:4])), bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
    except ValueError:
        return None


def password_matches(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` (a :func:`hash_password` string) was made
    from; a stored string that is not such a hash matches nothing."""
    parsed = _parse_hash(stored)
    if parsed is None:
        return False
    cost, salt, digest = parsed
    try:
        return hmac.compare_digest(_scrypt(password, salt, cost), digest)
    except ValueError:  # parameters scrypt refuses
        return False


def _cost_of(stored: str) -> ScryptCost | None:
    parsed = _parse_hash(stored)
    return None if parsed is None else parsed[0]


def invitation_hash(token: str) -> str:
    """What the database keeps of an invitation token: its SHA-256, hexadecimal. (A token is
    random and long, so a fast hash suffices, and lets the database find it.)"""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Accounts:
    """The rules of the ladder's accounts over its database (see the module docstring);
    ``registration_open`` false makes a new name need an invitation."""

    def __init__(self, records: LadderDatabase, registration_open: bool = True,
                 cost: ScryptCost = ScryptCost(),
                 clock: Callable[[], float] = time.time) -> None:
        self.records = records
        self.registration_open = registration_open
        self.cost = cost
        self.clock = clock

    def login(self, name: str, password: str, invitation: str | None = None) -> Account:
        """The account ``name`` names (made now if the name is new), once ``password`` is its
        password; raises :class:`LoginRefused`. A merged account's name logs in to the
        account it was merged into, with that account's password."""
        account = self.records.account_by_name(name)
        if account is None:
            try:
                return self._create(name, password, invitation)
            except NameTaken:  # a look-alike, or the same name made meanwhile by another login
                account = self.records.account_by_name(name)
                if account is None:
                    raise LoginRefused(self._look_alike(name)) from None
        return self._check(account, password)

    def _check(self, account: Account, password: str) -> Account:
        """``account`` if ``password`` is its own and it is not disabled; its hash is made
        again if it was made at a lower cost."""
        if password_problem(password) or not password_matches(password, account.password_hash):
            raise WrongSecret("wrong password")
        if account.disabled:
            raise LoginRefused("account disabled")
        stored_cost = _cost_of(account.password_hash)
        if stored_cost is not None and stored_cost.below(self.cost):
            self.records.rehash_password(account.id, hash_password(password, self.cost))
        return account

    def ticket(self, account: Account) -> str:
        """A resume ticket for ``account`` (just logged in), good for
        :data:`~.tickets.TICKET_LIFETIME` seconds unless the account changes first."""
        expires = int(self.clock()) + TICKET_LIFETIME
        return sign(Ticket(account.id, account.generation, expires), self._ticket_secret())

    def resume(self, name: str, ticket: str) -> Account:
        """The account ``name`` names, once ``ticket`` is a good resume ticket of it; raises
        :class:`WrongSecret` for a ticket the ladder did not sign, :class:`StaleTicket` for one
        it did that lets nobody in any more."""
        try:
            held = verify(ticket, self._ticket_secret())
        except ForgedTicket as error:
            raise WrongSecret(str(error)) from None
        except TicketError as error:
            raise StaleTicket(str(error)) from None
        if held.expires <= self.clock():
            raise StaleTicket("resume ticket expired")
        account = self.records.account_by_name(name)
        if account is None or account.id != held.account:
            raise StaleTicket("resume ticket of another account")
        if account.generation != held.generation:
            raise StaleTicket("resume ticket ended by a change to the account")
        return account

    def rotate_tickets(self) -> None:
        """Sign resume tickets with a new secret from now on: every ticket given before ends
        (each client logs in with its password once more)."""
        self.records.set_ticket_secret(secrets.token_bytes(TICKET_SECRET_BYTES))

    def _ticket_secret(self) -> bytes:
        return self.records.ticket_secret(secrets.token_bytes(TICKET_SECRET_BYTES))

    def _create(self, name: str, password: str, invitation: str | None) -> Account:
        """A new account ``name`` with ``password``, if the rules allow it."""
        problem = name_problem(name) or password_problem(password)
        if problem:
            raise LoginRefused(problem)
        if not self.registration_open and invitation is None:
            raise LoginRefused("registration is closed: a new account needs an invitation from "
                               "the operator (connect --invitation TOKEN, or "
                               "OLYMPIAD_INVITATION)")
        try:
            return self.records.add_account(
                name, name_key(name), hash_password(password, self.cost),
                invitation_hash=None if self.registration_open else invitation_hash(invitation))
        except InvitationUnusable:
            raise WrongSecret("unknown or used invitation") from None

    def _look_alike(self, name: str) -> str:
        taken = self.records.account_by_key(name_key(name))
        other = f" {taken.name}" if taken is not None else ""
        return f"the name {name} is too like the existing account{other}: choose another"

    def invite(self) -> str:
        """A new invitation token for one new account (to hand to its owner; only its hash
        is kept)."""
        token = secrets.token_urlsafe(18)
        self.records.add_invitation(invitation_hash(token))
        return token

    def change_password(self, account: Account, password: str) -> None:
        """Give ``account`` a new password; raises :class:`LoginRefused` if it is too short or
        too long."""
        problem = password_problem(password)
        if problem:
            raise LoginRefused(problem)
        self.records.set_password_hash(account.id, hash_password(password, self.cost))

    def rename(self, account: Account, name: str) -> None:
        """Give ``account`` the name ``name`` under the rules of names (its own look-alikes
        allowed: ``fuego`` may become ``Fuego``); raises :class:`LoginRefused`."""
        problem = name_problem(name)
        if problem:
            raise LoginRefused(problem)
        try:
            self.records.rename(account.id, name, name_key(name))
        except NameTaken:
            raise LoginRefused(self._look_alike(name)) from None
