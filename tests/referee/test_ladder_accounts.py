"""The rules of the ladder's accounts, over a real database file: made by a first login,
passwords, look-alike names, closed registration, disabled, renamed and merged accounts."""

from __future__ import annotations

import pytest

from referee.host.accounts import (
    Accounts,
    LoginRefused,
    ScryptCost,
    hash_password,
    name_key,
    password_matches,
)
from referee.records.database import LadderDatabase

CHEAP = ScryptCost(n=2 ** 10)  # real scrypt, at a cost that keeps the tests fast


@pytest.fixture
def records(tmp_path):
    with LadderDatabase(tmp_path / "ladder.db") as opened:
        yield opened


@pytest.fixture
def accounts(records):
    return Accounts(records, cost=CHEAP)


def refusal(accounts, *login) -> str:
    with pytest.raises(LoginRefused) as refused:
        accounts.login(*login)
    return str(refused.value)


def test_a_first_login_makes_the_account_and_later_ones_need_its_password(accounts, records):
    made = accounts.login("GnuGo-3.8", "secret")
    assert records.account_by_name("GnuGo-3.8") == made
    assert made.password_hash.startswith("scrypt$1024$8$1$") and "secret" not in made.password_hash
    assert accounts.login("GnuGo-3.8", "secret").id == made.id
    assert refusal(accounts, "GnuGo-3.8", "Secret") == "wrong password"
    assert refusal(accounts, "GnuGo-3.8", "") == "wrong password"


def test_names_follow_the_rules(accounts):
    assert refusal(accounts, "x", "pw") == "a name has 2 to 24 characters"
    assert refusal(accounts, "x" * 25, "pw") == "a name has 2 to 24 characters"
    for name in ("Leela Zero", "fuego/1", "ålice", "kata\n", "ev\u202eil", "ka\x85ta"):
        assert refusal(accounts, name, "pw") == \
            'a name has only ASCII letters, digits, "-", "_" and "."'
    assert refusal(accounts, "newbie", "") == "a password has 1 to 256 characters"
    assert accounts.login("x" * 24, "pw").name == "x" * 24
    assert accounts.login("a.b_c-9", "pw").name == "a.b_c-9"


@pytest.mark.parametrize("look_alike", ["alice", "ALICE", "Al1ce", "AIice", "A1ICE"])
def test_a_name_that_looks_like_a_taken_one_is_refused(accounts, look_alike):
    accounts.login("Alice", "pw")
    assert refusal(accounts, look_alike, "pw") == \
        f"the name {look_alike} is too like the existing account Alice: choose another"


@pytest.mark.parametrize("first, second", [
    ("b0b", "bob"), ("kata_go", "kata.go"), ("kata-go", "kata_go"), ("cornet", "comet"),
    ("vvolf", "wolf"), ("leela1", "leelai")])
def test_confusables_share_a_name_key(first, second):
    assert name_key(first) == name_key(second)


def test_different_names_have_different_keys():
    assert len({name_key(name) for name in ("bob", "bop", "bobb", "b-ob", "rob")}) == 5


def test_closed_registration_needs_an_unused_invitation(records):
    closed = Accounts(records, registration_open=False, cost=CHEAP)
    assert refusal(closed, "fuego", "pw") == (
        "registration is closed: a new account needs an invitation from the operator "
        "(connect --invitation TOKEN, or OLYMPIAD_INVITATION)")
    assert refusal(closed, "fuego", "pw", "made-up") == "unknown or used invitation"
    token = closed.invite()
    assert closed.login("fuego", "pw", token).name == "fuego"
    assert refusal(closed, "pachi", "pw", token) == "unknown or used invitation"
    assert closed.login("fuego", "pw").name == "fuego"  # an account logs in without one
    assert records.account_by_name("pachi") is None


def test_a_disabled_account_is_refused_only_to_whoever_knows_its_password(accounts, records):
    made = accounts.login("fuego", "pw")
    records.set_disabled(made.id, True)
    assert refusal(accounts, "fuego", "wrong") == "wrong password"
    assert refusal(accounts, "fuego", "pw") == "account disabled"
    records.set_disabled(made.id, False)
    assert accounts.login("fuego", "pw").id == made.id


def test_a_renamed_account_logs_in_with_its_new_name(accounts, records):
    made = accounts.login("fuego", "pw")
    accounts.login("pachi", "other")
    accounts.rename(made, "Fuego")  # a look-alike of its own name
    accounts.rename(made, "fuego-2")
    assert accounts.login("fuego-2", "pw").id == made.id
    with pytest.raises(LoginRefused, match="too like the existing account pachi"):
        accounts.rename(made, "PACHI")
    with pytest.raises(LoginRefused, match="a name has 2 to 24"):
        accounts.rename(made, "f")
    assert accounts.login("fuego", "new").id != made.id  # the old name was free again


def test_a_merged_name_logs_in_to_the_survivor_with_its_password(accounts, records):
    old = accounts.login("fuego-old", "old")
    new = accounts.login("fuego", "new")
    records.merge(old.id, new.id)
    assert accounts.login("fuego-old", "new").id == new.id
    assert refusal(accounts, "fuego-old", "old") == "wrong password"


def test_a_password_stored_at_a_lower_cost_is_stored_again_at_the_new_one(records):
    made = Accounts(records, cost=CHEAP).login("fuego", "pw")
    raised = ScryptCost(n=2 ** 11)
    Accounts(records, cost=raised).login("fuego", "pw")
    stored = records.account_by_name("fuego").password_hash
    assert stored.startswith("scrypt$2048$8$1$") and stored != made.password_hash
    assert Accounts(records, cost=CHEAP).login("fuego", "pw").id == made.id


def test_changing_a_password(accounts):
    made = accounts.login("fuego", "pw")
    accounts.change_password(made, "new")
    assert refusal(accounts, "fuego", "pw") == "wrong password"
    assert accounts.login("fuego", "new").id == made.id


def test_password_hashes_hold_their_parameters_and_a_fresh_salt():
    first, second = hash_password("pw", CHEAP), hash_password("pw", CHEAP)
    assert first != second
    assert password_matches("pw", first) and password_matches("pw", second)
    assert not password_matches("pW", first)
    for broken in ("", "plain", "scrypt$x$8$1$00$00", "scrypt$3$8$1$00$00",
                   first.replace("scrypt", "bcrypt")):
        assert not password_matches("pw", broken)
