"""The ladder's logins fuzzed: generated and mutated ``hello`` messages (pool, name, password,
resume ticket, invitation, token) sent over real sockets on 127.0.0.1 to a real
:class:`LadderService`.

Whatever arrives, the server stays up and logs no traceback, each hello is welcomed or refused
in one line, and an honest participant still logs in afterwards.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from referee.host import wire
from referee.host.door import DoorPolicy
from referee.host.ladder import LadderService
from referee.host.ladder_file import read_ladder

from ..event.test_fuzz import FUZZ, mutated, send_quietly
from .service import write_ladder

HELLO = {"type": "hello", "protocol": wire.PROTOCOL, "pool": "clobber", "name": "Fuzz",
         "password": "the fuzzer's password", "ticket": ""}


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ladder")
    no_ban = DoorPolicy(failures=1 << 30, first_delay=0, most_delay=0)
    settings = dataclasses.replace(read_ladder(write_ladder(folder)), door=no_ban)
    lines: list[str] = []
    with LadderService(settings, lines.append) as service:
        yield service, lines


@FUZZ
@given(st.data())
def test_any_hello_is_welcomed_or_refused_and_the_server_stays_up(ladder, capfd, data):
    service, lines = ladder
    with connect(service.url, open_timeout=5) as connection:
        send_quietly(connection, mutated(HELLO, data))
        try:
            reply = wire.decode(connection.recv(timeout=5))
            assert reply["type"] in ("welcome", "refused")
            assert "\n" not in reply.get("reason", "")
        except (ConnectionClosed, TimeoutError):
            pass
    assert service.server._thread.is_alive()
    written = "\n".join([*lines, capfd.readouterr().err])
    assert "Traceback" not in written, written


def test_an_honest_participant_logs_in_after_the_fuzzing(ladder):
    service, _ = ladder
    with connect(service.url, open_timeout=5) as connection:
        connection.send(wire.encode("hello", protocol=wire.PROTOCOL, pool="domineering",
                                    name="Honest", password="pw"))
        assert wire.decode(connection.recv(timeout=10))["name"] == "Honest"
