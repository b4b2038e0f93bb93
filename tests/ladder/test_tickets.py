"""Resume tickets: a participant's client comes back after the ladder's restart (and its kill
-9) without a password hash; every ticket that should no longer let its account in is refused
and the password is asked for instead; hostile tickets stop at the wire's gate. And the
password logins of a restart's storm: one whose client left while it waited is not computed.

The password hashes are counted through ``accounts._scrypt``, the one function that computes
them, in a service run in the test's own process.
"""

from __future__ import annotations

import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from websockets.sync.client import connect

from referee.host import accounts as accounts_module
from referee.host import event_server, tickets, wire
from referee.host.accounts import Accounts
from referee.host.admin import Admin
from referee.host.gatekeeper import Refusal
from referee.host.ladder import LadderService
from referee.host.ladder_file import read_ladder
from referee.host.tickets import TICKET_LIFETIME

from ..event.helpers import RANDOM_ENGINE, free_port, make_certificate
from .service import join, password_of, serve, wait_until, write_ladder


@pytest.fixture
def hashes(monkeypatch) -> list[int]:
    """A list that gets an entry for every password hash computed in this process."""
    counted: list[int] = []
    scrypt = accounts_module._scrypt

    def counting(*args, **kwargs):
        counted.append(1)
        return scrypt(*args, **kwargs)

    monkeypatch.setattr(accounts_module, "_scrypt", counting)
    return counted


def hello(url: str, context: ssl.SSLContext | None = None, **fields) -> dict:
    """The server's answer to a ``hello`` with ``fields``."""
    with connect(url, ssl=context, open_timeout=10) as connection:
        connection.send(wire.encode("hello", protocol=wire.PROTOCOL, **fields))
        return wire.decode(connection.recv(timeout=10))


def connected(service: LadderService, pool: str, name: str) -> bool:
    account = service.records.account_by_name(name)
    return account is not None and account.id in service.pools[pool].connected()


def test_a_client_comes_back_after_a_kill_9_and_a_restart_without_a_password_hash(
        tmp_path, processes, hashes):
    make_certificate(tmp_path)
    context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
    service_file = write_ladder(tmp_path, port=free_port(), tls=True)
    server, url = serve(service_file)  # a process of its own: killed with SIGKILL below
    processes.append(server)
    client = join(url, "clobber", "Ada", RANDOM_ENGINE, ca=tmp_path / "cert.pem")
    processes.append(client)
    client.wait_for(r"connected to Test ladder, pool clobber as Ada")
    server.kill()
    lines: list[str] = []
    settings = read_ladder(service_file)
    with LadderService(settings, lines.append) as service:  # the restart, counting hashes
        wait_until(lambda: connected(service, "clobber", "Ada"), 30)
        assert hashes == []
    with LadderService(settings, lines.append) as service:  # a stop and a start, the same
        wait_until(lambda: connected(service, "clobber", "Ada"), 30)
        assert hashes == []
        Admin(service.records, service.accounts).rotate_tickets()
        welcome = hello(url, context, pool="domineering", name="Bo", password="pw", ticket="")
    assert welcome["type"] == "welcome" and len(hashes) == 1  # Bo's account made
    with LadderService(settings, lines.append) as service:  # the ticket ended: the password
        wait_until(lambda: connected(service, "clobber", "Ada"), 30)
        assert len(hashes) == 2
        assert hello(url, context, pool="domineering", name="Bo",
                     ticket=welcome["ticket"])["type"] == "welcome"
        assert len(hashes) == 2
    assert client.output.count("connected to Test ladder, pool clobber as Ada") == 4
    assert "refused by the server" not in client.output
    assert welcome["ticket"] not in "\n".join(lines) + server.output
    assert "Traceback" not in "\n".join(lines) + client.output


def test_a_login_whose_client_left_while_it_waited_for_a_worker_is_not_computed(
        tmp_path, hashes):
    with LadderService(read_ladder(write_ladder(tmp_path)), lambda line: None) as service:
        service.server._loop.set_default_executor(ThreadPoolExecutor(1))  # one login at a time
        release, login = threading.Event(), service.accounts.login

        def blocking_login(name, *rest):  # holds the one worker until released
            if name == "Blocker":
                release.wait(10)
            return login(name, *rest)

        service.accounts.login = blocking_login
        with connect(service.url, open_timeout=10) as blocker:
            blocker.send(wire.encode("hello", protocol=wire.PROTOCOL, pool="clobber",
                                     name="Blocker", password="pw"))
            with connect(service.url, open_timeout=10) as leaver:  # waits behind it, then goes
                leaver.send(wire.encode("hello", protocol=wire.PROTOCOL, pool="clobber",
                                        name="Leaver", password="pw"))
            release.set()
            assert wire.decode(blocker.recv(timeout=10))["type"] == "welcome"
        assert hello(service.url, pool="clobber", name="Stayer", password="pw")["type"] == \
            "welcome"
        assert service.records.account_by_name("Leaver") is None and len(hashes) == 2


@pytest.fixture
def ladder(tmp_path):
    """A ladder service in this process, on 127.0.0.1 without TLS."""
    with LadderService(read_ladder(write_ladder(tmp_path)), lambda line: None) as service:
        yield service


def ticket_of(url: str, name: str, password: str | None = None) -> str:
    """A new ticket of ``name`` (its account made if new), from a login with its password
    (:func:`password_of` unless given)."""
    welcome = hello(url, pool="clobber", name=name, password=password or password_of(name),
                    ticket="")
    assert welcome["type"] == "welcome", welcome
    return welcome["ticket"]


def refusal(url: str, name: str, ticket: str) -> dict:
    return hello(url, pool="clobber", name=name, ticket=ticket)


def test_a_good_ticket_logs_in_without_a_password_hash_and_gets_a_new_one(ladder, hashes):
    first = ticket_of(ladder.url, "Ada")
    assert len(hashes) == 1 and len(first) < tickets.MAX_TICKET_CHARS
    welcome = hello(ladder.url, pool="domineering", name="Ada", ticket=first)
    assert welcome["type"] == "welcome" and welcome["name"] == "Ada"
    assert tickets.verify(welcome["ticket"], ladder.records.ticket_secret(b"")).account == \
        ladder.records.account_by_name("Ada").id
    assert len(hashes) == 1
    plain = hello(ladder.url, pool="clobber", name="Ada", password=password_of("Ada"))
    assert plain == {"type": "welcome", "name": "Ada", "event": "Test ladder, pool clobber"}


def test_a_connected_client_that_asked_for_tickets_is_sent_new_ones(tmp_path, monkeypatch):
    monkeypatch.setattr(event_server, "TICKET_RENEWAL", 0.2)
    with LadderService(read_ladder(write_ladder(tmp_path)), lambda line: None) as service:
        with connect(service.url, open_timeout=10) as old, \
                connect(service.url, open_timeout=10) as new:
            old.send(wire.encode("hello", protocol=wire.PROTOCOL, pool="clobber", name="Old",
                                 password="pw"))
            new.send(wire.encode("hello", protocol=wire.PROTOCOL, pool="domineering",
                                 name="New", password="pw", ticket=""))
            assert "ticket" not in wire.decode(old.recv(timeout=10))
            first = wire.decode(new.recv(timeout=10))["ticket"]
            renewed = [wire.decode(new.recv(timeout=10)) for _ in range(2)]
            with pytest.raises(TimeoutError):  # an older client is sent none
                old.recv(timeout=1)
        secret = service.records.ticket_secret(b"")
        assert [message["type"] for message in renewed] == ["ticket", "ticket"]
        assert tickets.verify(renewed[1]["ticket"], secret).account == \
            tickets.verify(first, secret).account
        assert hello(service.url, pool="clobber", name="New",
                     ticket=renewed[1]["ticket"])["type"] == "welcome"


def test_tickets_that_should_no_longer_let_in_are_refused_and_the_password_asked_for(ladder):
    url, records, accounts = ladder.url, ladder.records, ladder.accounts
    ada = ticket_of(url, "Ada")
    bo = ticket_of(url, "Bo")
    account = records.account_by_name("Ada")
    past = Accounts(records, clock=lambda: time.time() - TICKET_LIFETIME - 1)
    forged = ada[:-1] + ("A" if ada[-1] != "A" else "B")
    other_key = "00000000" + ada[8:]
    refused = [
        (past.ticket(account), "Ada", "resume ticket expired"),
        (forged, "Ada", "wrong resume ticket"),
        (bo, "Ada", "resume ticket of another account"),
        (ada, "Ada\n" * 5000, "resume ticket of another account"),  # no name said back
        (other_key, "Ada", "resume ticket signed before the ladder's secret was rotated"),
    ]
    for ticket, name, reason in refused:
        assert refusal(url, name, ticket) == {"type": "refused", "reason": reason,
                                              "retry": "password"}
        assert ticket_of(url, "Ada")  # the password path lets it in
    accounts.change_password(records.account_by_name("Bo"), "a new one")
    assert refusal(url, "Bo", bo)["reason"] == "resume ticket ended by a change to the account"
    assert hello(url, pool="clobber", name="Bo", password="a new one")["type"] == "welcome"
    ada = ticket_of(url, "Ada")
    records.set_disabled(account.id, True)  # as `ladder admin disable` does
    assert refusal(url, "Ada", ada) == {
        "type": "refused", "reason": "resume ticket ended by a change to the account",
        "retry": "password"}
    assert hello(url, pool="clobber", name="Ada", password=password_of("Ada")) == {
        "type": "refused", "reason": "account disabled"}


def test_renames_merges_and_a_new_secret_end_tickets_and_only_forgeries_count_as_guesses(
        ladder):
    url, records = ladder.url, ladder.records
    cy, di = ticket_of(url, "Cy"), ticket_of(url, "Di")
    records.rename(records.account_by_name("Cy").id, "Cyril", "cyril")
    assert refusal(url, "Cyril", cy)["reason"] == \
        "resume ticket ended by a change to the account"
    cyril = ticket_of(url, "Cyril", password_of("Cy"))
    records.merge(records.account_by_name("Di").id, records.account_by_name("Cyril").id)
    assert refusal(url, "Di", di)["reason"] == "resume ticket of another account"
    assert hello(url, pool="clobber", name="Di", ticket=cyril)["name"] == "Cyril"
    ladder.accounts.rotate_tickets()
    assert refusal(url, "Cyril", cyril)["reason"] == \
        "resume ticket signed before the ladder's secret was rotated"
    forged = ticket_of(url, "Cyril", password_of("Cy"))[:-1] + "!"
    guesses = {}
    for ticket in (cyril, forged):
        with pytest.raises(Refusal) as refused:
            ladder.server.gate.admit({"pool": "clobber", "name": "Cyril", "ticket": ticket})
        guesses[ticket] = refused.value.wrong_secret
    assert guesses == {cyril: False, forged: True}  # the door slows and bans only guesses


@pytest.mark.parametrize("ticket, complaint", [
    ("x" * 10_000, "hello: 'ticket' must be at most 200 printable ASCII characters"),
    ("ticket\u00e9", "hello: 'ticket' must be at most 200 printable ASCII characters"),
    ("tick\x00et", "hello: 'ticket' must be at most 200 printable ASCII characters"),
    (12345, "hello: 'ticket' must be text"),
    (["a", "b"], "hello: 'ticket' must be text"),
    ({"a": 1}, "hello: 'ticket' must be text"),
])
def test_hostile_tickets_are_refused_at_the_gate_in_one_line(ladder, ticket, complaint):
    assert refusal(ladder.url, "Ada", ticket) == {"type": "refused", "reason": complaint}
