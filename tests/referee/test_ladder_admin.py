"""The operator's commands (``olympiad-referee ladder admin``), run as an operator runs them: as
processes of their own on the database file of a service file, beside a process that writes
games into it all the while, as the server would."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from referee.host.accounts import Accounts, LoginRefused, ScryptCost, StaleTicket
from referee.records.database import Engine, LadderDatabase, Seating, now

from .test_ladder_database import WRITER, consistent, ending
from ..processes import wait_for

SERVICE = """\
name = "Test ladder"
database = "ladder.db"
[[pool]]
name = "breakthrough-5"
game = "breakthrough"
boardsize = "5"
time = 20
"""
CHEAP = ScryptCost(n=2 ** 10)  # real scrypt, at a cost that keeps the tests fast


@pytest.fixture
def service(tmp_path):
    path = tmp_path / "ladder.toml"
    path.write_text(SERVICE)
    return path


@pytest.fixture
def records(service):
    with LadderDatabase(service.with_name("ladder.db")) as opened:
        opened.add_pool("breakthrough-5", "breakthrough", {}, (5, 5), "20")
        yield opened


@pytest.fixture
def accounts(records):
    return Accounts(records, cost=CHEAP)


@pytest.fixture
def writer(accounts, records, service):
    """A process finishing games between ``black`` and ``white`` without end, as the server
    does, until the test ends (then killed, and the file checked whole)."""
    accounts.login("black", "pw"), accounts.login("white", "pw")
    process = subprocess.Popen([sys.executable, str(WRITER), str(service.with_name("ladder.db"))],
                               stdout=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: process.stdout.readline().startswith("finished"), 60, process,
                 "the writer's first game")
        yield process
    finally:
        process.send_signal(signal.SIGKILL)
        process.communicate()
    twice, counted = consistent(service.with_name("ladder.db"))
    assert twice == counted > 0


def admin(service, *words: str) -> subprocess.CompletedProcess:
    """``olympiad-referee ladder admin SERVICE WORDS...``, run to its end."""
    return subprocess.run(
        [sys.executable, "-m", "referee", "ladder", "admin", str(service), *words],
        capture_output=True, text=True, timeout=60)


def refusal(accounts, *login) -> str:
    with pytest.raises(LoginRefused) as refused:
        accounts.login(*login)
    return str(refused.value)


def refused(service, *words: str) -> str:
    """The one line a refused command says (status 2, nothing on standard output)."""
    done = admin(service, *words)
    assert (done.returncode, done.stdout) == (2, ""), done
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("olympiad-referee: error: ")
    return done.stderr.removeprefix("olympiad-referee: error: ").rstrip("\n")


def test_accounts_are_disabled_renamed_and_given_passwords_while_games_are_written(
        service, accounts, writer):
    accounts.login("Alice", "old")
    assert admin(service, "disable", "Alice").stdout == \
        "Alice is disabled: its next login is refused\n"
    assert refusal(accounts, "Alice", "old") == "account disabled"
    assert admin(service, "enable", "Alice").returncode == 0
    assert admin(service, "password", "Alice", "--password", "new").returncode == 0
    assert refusal(accounts, "Alice", "old") == "wrong password"
    assert admin(service, "rename", "Alice", "Alicia").stdout == "Alice is now called Alicia\n"
    assert accounts.login("Alicia", "new").name == "Alicia"
    assert refused(service, "disable", "Alice") == "no account is called Alice"
    assert accounts.login("Alice", "another").name == "Alice"  # the old name is free again
    listed = admin(service, "accounts").stdout.splitlines()
    assert [line.split()[0] for line in listed] == ["Alice", "Alicia", "black", "white"]
    assert listed[1].split()[1:4] == ["0", "games", "last"] and "never" in listed[1]
    assert int(listed[2].split()[1]) > 0 and "never" not in listed[2]


def test_the_password_is_asked_for_twice_when_not_given(service, accounts):
    accounts.login("Alice", "old")
    done = subprocess.run([sys.executable, "-m", "referee", "ladder", "admin", str(service),
                           "password", "Alice"], input="s3cret-pass\ns3cret-pass\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "s3cret" not in done.stdout + done.stderr, done
    assert accounts.login("Alice", "s3cret-pass").name == "Alice"


def test_rotate_tickets_ends_every_resume_ticket_and_a_new_one_is_good(service, accounts):
    alice = accounts.login("Alice", "pw")
    ticket = accounts.ticket(alice)
    assert accounts.resume("Alice", ticket) == alice
    assert admin(service, "rotate-tickets").stdout == (
        "every resume ticket has ended: each client logs in with its password at its next "
        "connection\n")
    with pytest.raises(StaleTicket, match="signed before the ladder's secret was rotated"):
        accounts.resume("Alice", ticket)
    assert accounts.resume("Alice", accounts.ticket(alice)) == alice


def test_invitations_let_new_accounts_in_once_each_when_registration_is_closed(
        service, records):
    done = admin(service, "invite", "--count", "2")
    tokens = done.stdout.split()
    assert done.returncode == 0 and len(tokens) == 2 and len(set(tokens)) == 2
    closed = Accounts(records, registration_open=False, cost=CHEAP)
    assert refusal(closed, "Newcomer", "pw") == (
        "registration is closed: a new account needs an invitation from the operator "
        "(connect --invitation TOKEN, or OLYMPIAD_INVITATION)")
    assert closed.login("Newcomer", "pw", tokens[0]).name == "Newcomer"
    assert refusal(closed, "Another", "pw", tokens[0]) == "unknown or used invitation"
    assert closed.login("Another", "pw", tokens[1]).name == "Another"
    assert refused(service, "invite", "--count", "0").startswith("Invalid value for '--count'")


def test_a_merge_waits_until_neither_account_is_playing(service, records, accounts):
    old, new = accounts.login("Fuego-old", "old"), accounts.login("Fuego", "new")
    other = accounts.login("GnuGo", "pw")
    pool = records.pools()[0]
    game = records.start_game(Seating(pool.id, old.id, other.id, Engine("Fuego", "1.0"),
                                      Engine("GNU Go", "3.8"), now()))
    assert refused(service, "merge", "Fuego-old", "Fuego") == (
        f"game {game} of Fuego-old or Fuego is in progress: merge them when neither is "
        f"playing (disable Fuego-old first to keep it from starting another)")
    records.finish_game(game, ending(0))
    done = admin(service, "merge", "Fuego-old", "Fuego")
    assert done.stdout == "Fuego-old is merged into Fuego\n", done
    assert accounts.login("Fuego-old", "new").id == new.id
    assert [line.games for line in records.standings(pool.id)] == [1, 1]
    assert "merged into Fuego" in admin(service, "accounts").stdout.splitlines()[1]
    assert refused(service, "disable", "Fuego-old") == \
        "Fuego-old was merged into Fuego: name Fuego instead"
    assert refused(service, "merge", "Fuego", "Fuego") == "cannot merge Fuego into itself"


def test_refusals_are_one_line_with_status_2(service, accounts):
    accounts.login("Alice", "pw"), accounts.login("Bob", "pw")
    assert refused(service, "enable", "Nobody") == "no account is called Nobody"
    assert refused(service, "rename", "Bob", "AL1CE") == \
        "the name AL1CE is too like the existing account Alice: choose another"
    assert refused(service, "rename", "Bob", "Bob Two") == \
        'a name has only ASCII letters, digits, "-", "_" and "."'
    assert refused(service, "password", "Bob", "--password", "") == \
        "a password has 1 to 256 characters"
    service.write_text(SERVICE.replace('game = "breakthrough"', 'game = "nosuchgame"'))
    assert "nosuchgame" in refused(service, "accounts")


def test_a_backup_while_games_are_written_is_a_whole_database(service, writer, tmp_path):
    done = admin(service, "backup", str(tmp_path / "copy.db"))
    assert done.stdout == f"backed up to {tmp_path / 'copy.db'}\n", done
    twice, counted = consistent(tmp_path / "copy.db")
    assert twice == counted > 0
    with LadderDatabase(tmp_path / "copy.db") as copy:
        assert len(copy.recent_games(10_000)) == twice // 2


def test_a_backup_that_cannot_be_written_fails_with_status_1(service, records, tmp_path):
    done = admin(service, "backup", str(tmp_path / "no-such-folder" / "copy.db"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done
    assert done.stderr == (f"olympiad-referee: error: cannot back up the ladder database to "
                           f"{tmp_path / 'no-such-folder' / 'copy.db'}: no folder "
                           f"{tmp_path / 'no-such-folder'}\n")
