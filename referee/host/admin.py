"""What the operator does to a ladder's accounts from the command line, while the server runs:
invitations, disabling and enabling, renaming, merging, new passwords, rotating the resume
tickets' secret.

Each is one transaction on the database file the server has open too (SQLite lets another
process write beside it; WAL readers never wait), and :meth:`.Accounts.login` reads the
account afresh at every login, so a change reaches the server without a restart: a disabled
account's next login is refused, a renamed one logs in by its new name, a merged one's name
logs in to the survivor.

Accounts are named exactly as they are now: a name merged into another is refused with the
survivor's name rather than silently standing for it, so that the operator never acts on an
account other than the one meant. A merge waits until neither account is playing, so that no
game in progress ends up rated for an account that no longer exists; disabling the account
first keeps it from starting another.

Every refusal is an :class:`AdminRefused` of one line.
"""

from __future__ import annotations

from ..records.database import Account, LadderDatabase, RecordError
from .accounts import Accounts, LoginRefused

# The most invitations one command makes (a typo of a count should not fill the database).
MAX_INVITATIONS = 1000


class AdminRefused(ValueError):
    """The operator's command cannot be done; one line saying why."""


class Admin:
    """The operator's commands on ``records``, under the rules of ``accounts``."""

    def __init__(self, records: LadderDatabase, accounts: Accounts) -> None:
        self.records = records
        self.accounts = accounts

    def account(self, name: str) -> Account:
        """The account called ``name`` now; refused if there is none, or if ``name`` was merged
        into another (that one is named)."""
        account = self.records.account_by_name(name)
        if account is None:
            raise AdminRefused(f"no account is called {name}")
        if account.name != name:
            raise AdminRefused(f"{name} was merged into {account.name}: name {account.name} "
                               f"instead")
        return account

    def invite(self, count: int = 1) -> list[str]:
        """``count`` new invitation tokens, each for one new account (only their hashes are
        kept: these are the only copies)."""
        if count not in range(1, MAX_INVITATIONS + 1):
            raise AdminRefused(f"invitations are made 1 to {MAX_INVITATIONS} at a time, "
                               f"not {count}")
        return [self.accounts.invite() for _ in range(count)]

    def disable(self, name: str) -> Account:
        """Refuse ``name``'s logins from now on (its games and ratings stay)."""
        return self._set_disabled(name, True)

    def enable(self, name: str) -> Account:
        """Let a disabled account log in again."""
        return self._set_disabled(name, False)

    def _set_disabled(self, name: str, disabled: bool) -> Account:
        account = self.account(name)
        self.records.set_disabled(account.id, disabled)
        return account

    def rename(self, name: str, new_name: str) -> Account:
        """Call ``name``'s account ``new_name`` (the old name is free again), under the rules
        of names."""
        account = self.account(name)
        try:
            self.accounts.rename(account, new_name)
        except LoginRefused as error:
            raise AdminRefused(str(error)) from None
        return account

    def merge(self, name: str, survivor_name: str) -> Account:
        """Merge ``name`` into ``survivor_name``: its games and rating history become the
        survivor's, and its name logs in to the survivor from now on. Refused while either
        is playing."""
        account, survivor = self.account(name), self.account(survivor_name)
        if account.id == survivor.id:
            raise AdminRefused(f"cannot merge {name} into itself")
        playing = [game.id for game in self.records.games_in_progress()
                   if {game.black, game.white} & {account.name, survivor.name}]
        if playing:
            raise AdminRefused(f"game {playing[0]} of {name} or {survivor_name} is in "
                               f"progress: merge them when neither is playing (disable "
                               f"{name} first to keep it from starting another)")
        try:
            self.records.merge(account.id, survivor.id)
        except RecordError as error:
            raise AdminRefused(str(error)) from None
        return survivor

    def rotate_tickets(self) -> None:
        """End every resume ticket (a new secret signs them from now on): each client logs in
        with its password at its next connection."""
        self.accounts.rotate_tickets()

    def set_password(self, name: str, password: str) -> Account:
        """Give ``name``'s account a new password (for an owner who lost theirs)."""
        account = self.account(name)
        try:
            self.accounts.change_password(account, password)
        except LoginRefused as error:
            raise AdminRefused(str(error)) from None
        return account
