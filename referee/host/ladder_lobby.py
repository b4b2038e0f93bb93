"""Who may sit in the ladder's pools: the ladder's :class:`~.gatekeeper.Gatekeeper`.

A client's ``hello`` names the pool it joins, its account's name and password (and an
invitation when registration is closed). The account's rules (:mod:`.accounts`: a first login
makes the account, later logins need its password) decide the login; the pool then gives the
account's channel, made when the account first joins it. One account may sit in several pools
at once, with one connection each; a second connection to the same pool replaces the first, as
at an event. House anchors' accounts are the server's own: nobody logs in as one.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..play.remote import RemoteChannel
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
        pool_name, name, password = (hello.get(key) for key in ("pool", "name", "password"))
        if pool_name is None or name is None or password is None:
            raise Refusal("this ladder logs in with a pool, a name and a password "
                          "(connect --pool POOL --name NAME, the password in "
                          "OLYMPIAD_PASSWORD)")
        pool = self.pools.get(pool_name)
        if pool is None:
            raise Refusal(f"no pool {pool_name[:40]!r} here; the pools are "
                          f"{', '.join(sorted(self.pools))}")
        try:
            account = self.accounts.login(name, password, hello.get("invitation"))
        except LoginRefused as refusal:
            raise Refusal(str(refusal), wrong_secret=isinstance(refusal, WrongSecret)) from None
        if account.id in self.house:
            raise Refusal(f"{account.name} is one of the house's own engines")
        return Admission(account.name, f"{account.name}@{pool_name}", pool.join(account),
                         f"{self.ladder}, pool {pool_name}")

    def all_channels(self) -> Iterable[RemoteChannel]:
        for pool in self.pools.values():
            yield from pool.channels()
