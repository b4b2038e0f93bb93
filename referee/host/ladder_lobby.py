"""Who may sit in the ladder's pools: the ladder's :class:`~.gatekeeper.Gatekeeper`.

A client's ``hello`` names the pool it joins, its account's name and password (and an
invitation when registration is closed), or in place of the password a resume ticket the ladder
gave it at an earlier login. The account's rules (:mod:`.accounts`: a first login makes the
account, later logins need its password or a good ticket) decide the login; the pool then gives
the account's channel, made when the account first joins it. A ``hello`` with a ``ticket``
field (``""`` from a client that holds none yet) is answered with a new ticket in the welcome,
and is sent a new one every :data:`~.tickets.TICKET_RENEWAL` seconds while it stays (of the
same login: a change to the account since ends them too); a ticket that does not let its holder
in is refused with ``retry = "password"``, and the client logs in again with its password. A
hello without the field is a password login as before tickets. One account may sit in several
pools at once, with one connection each; a second connection to the same pool replaces the
first, as at an event. House anchors' accounts are the server's own: nobody logs in as one.
"""

from __future__ import annotations

import functools
from typing import Any, Iterable, Mapping

from ..play.remote import RemoteChannel
from ..records.database import Account
from .accounts import Accounts, LoginRefused, WrongSecret
from .gatekeeper import Admission, Gatekeeper, Refusal
from .ladder_pool import LadderPool


class Lobby(Gatekeeper):
    """The ladder's logins over ``accounts`` into ``pools`` (by name); ``ladder`` names the
    service in the welcome."""

    def __init__(self, accounts: Accounts, pools: Mapping[str, LadderPool], ladder: str,
                 house: frozenset[int] = frozenset()) -> None:
        self.accounts = accounts
        self.pools = dict(pools)
        self.ladder = ladder
        self.house = house

    def admit(self, hello: dict[str, Any]) -> Admission:
        pool_name, name, ticket = (hello.get(key) for key in ("pool", "name", "ticket"))
        if pool_name is None or name is None or not ticket and hello.get("password") is None:
            raise Refusal("this ladder logs in with a pool, a name and a password "
                          "(connect --pool POOL --name NAME, the password in "
                          "OLYMPIAD_PASSWORD)")
        pool = self.pools.get(pool_name)
        if pool is None:
            raise Refusal(f"no pool {pool_name[:40]!r} here; the pools are "
                          f"{', '.join(sorted(self.pools))}")
        account = self._account(hello)
        if account.id in self.house:
            raise Refusal(f"{account.name} is one of the house's own engines")
        return Admission(account.name, f"{account.name}@{pool_name}", pool.join(account),
                         f"{self.ladder}, pool {pool_name}",
                         None if ticket is None else functools.partial(self.accounts.ticket,
                                                                       account))

    def _account(self, hello: dict[str, Any]) -> Account:
        """The account the hello's resume ticket, else its password, proves it is. A ticket
        refused, forged or not, asks for the password (so that no client ever ends on a
        ticket); only a forged one counts as a guess."""
        ticket = hello.get("ticket")
        try:
            if ticket:
                return self.accounts.resume(hello["name"], ticket)
            return self.accounts.login(hello["name"], hello["password"], hello.get("invitation"))
        except LoginRefused as refusal:
            raise Refusal(str(refusal), wrong_secret=isinstance(refusal, WrongSecret),
                          retry="password" if ticket else None) from None

    def all_channels(self) -> Iterable[RemoteChannel]:
        for pool in self.pools.values():
            yield from pool.channels()
