"""The event server fuzzed: generated and mutated messages sent over real sockets on
127.0.0.1 to the real :class:`EventServer`, at every stage of a connection (before the
WebSocket handshake, as the ``hello``, as the answer to a game's command, and when nothing was
asked), with a real :class:`RemoteChannel` as the game's side.

Whatever arrives, the server stays up and logs no traceback; a game's command gets a valid
answer or a :class:`ChannelError` (a forfeit for the sender), never another error; and an honest
participant still logs in and plays afterwards. ``scripts/fuzz_servers.py --target event`` runs
the same sender for as long as asked.
"""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from referee.host import wire
from referee.host.door import DoorPolicy
from referee.play.lag import LagPolicy
from referee.host.roster import Entrant, Roster, token_digest
from referee.host.event_server import EventServer
from referee.play.channel import ChannelError

from ..processes import wait_for

FUZZ_TOKEN = "token-of-the-fuzzer-0123456789"
HONEST_TOKEN = "token-of-the-honest-0123456789"
# Every character, lone surrogates included: JSON carries them as \ud800 escapes.
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=30)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=12)
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


class Target:
    """A real event server on loopback with two participants, its log, and the fuzzer's
    channel (the game's side of the participant the fuzzer plays)."""

    def __init__(self) -> None:
        self.roster = Roster([Entrant("fuzz", token_digest(FUZZ_TOKEN)),
                              Entrant("honest", token_digest(HONEST_TOKEN))], 0.5, LagPolicy())
        self.lines: list[str] = []
        no_ban = DoorPolicy(failures=1 << 30, first_delay=0, most_delay=0)
        self.server = EventServer(self.roster, "fuzz", "127.0.0.1", 0, None, self.lines.append,
                                  hello_seconds=1.0, door=no_ban)
        self.url = f"ws://127.0.0.1:{self.server.port}/"

    def assert_alive(self, capfd) -> None:
        """The server still runs, and nothing it wrote (its log, stderr) holds a traceback."""
        assert self.server._thread.is_alive()
        written = "\n".join([*self.lines, capfd.readouterr().err])
        assert "Traceback" not in written and "Exception" not in written, written


@pytest.fixture(scope="module")
def target():
    target = Target()
    yield target
    target.server.stop()


def mutated(message: dict, data: st.DataObject) -> str | bytes:
    """``message`` with one field changed, added or dropped, or replaced by anything at all."""
    way = data.draw(st.sampled_from(["value", "extra", "drop", "anything", "bytes", "text"]))
    changed = dict(message)
    if way == "value":
        changed[data.draw(st.sampled_from(sorted(message)))] = data.draw(JSON_VALUES)
    elif way == "extra":
        changed[data.draw(ANY_TEXT)] = data.draw(JSON_VALUES)
    elif way == "drop":
        del changed[data.draw(st.sampled_from(sorted(message)))]
    elif way == "anything":
        return json.dumps(data.draw(JSON_VALUES))
    elif way == "bytes":
        return data.draw(st.binary(max_size=200))
    else:
        return data.draw(ANY_TEXT)
    return json.dumps(changed)


def send_quietly(connection, message: str | bytes) -> None:
    try:
        connection.send(message)
    except (ConnectionClosed, OSError):
        pass


@FUZZ
@given(st.binary(max_size=300))
def test_bytes_before_the_handshake(target, capfd, data):
    with socket.create_connection(("127.0.0.1", target.server.port), timeout=5) as raw:
        try:
            raw.sendall(data)
            raw.shutdown(socket.SHUT_WR)
            while raw.recv(4096):
                pass
        except OSError:
            pass
    target.assert_alive(capfd)


@FUZZ
@given(st.data())
def test_any_hello(target, capfd, data):
    hello = {"type": "hello", "token": FUZZ_TOKEN, "protocol": wire.PROTOCOL}
    with connect(target.url, open_timeout=5) as connection:
        send_quietly(connection, mutated(hello, data))
        try:
            reply = wire.decode(connection.recv(timeout=5))
            assert reply["type"] in ("welcome", "refused")
        except (ConnectionClosed, TimeoutError):
            pass
    target.assert_alive(capfd)


@FUZZ
@given(st.data())
def test_any_answer_to_a_games_command(target, capfd, data):
    channel = target.roster.channels["fuzz"]
    channel.new_game()
    outcome: list = []

    def game() -> None:
        try:
            outcome.append(channel.send("genmove b", deadline=time.monotonic() + 1.5))
        except ChannelError as error:  # a forfeit of the sender
            outcome.append(error)
        except Exception as error:  # noqa: BLE001 - what the test is looking for
            outcome.append(AssertionError(f"{type(error).__name__}: {error}"))

    with connect(target.url, open_timeout=5) as connection:
        connection.send(wire.encode("hello", token=FUZZ_TOKEN, protocol=wire.PROTOCOL))
        assert wire.decode(connection.recv(timeout=5))["type"] == "welcome"
        wait_for(lambda: channel.connected, 5, what="the server to seat the fuzzer")
        player = threading.Thread(target=game)
        player.start()
        try:
            command = wire.decode(connection.recv(timeout=5))
            answer = {"type": "answer", "id": command["id"], "text": "= a1", "think": 0.01}
            send_quietly(connection, mutated(answer, data))
        except (ConnectionClosed, TimeoutError):
            pass
        player.join(10)
    assert not player.is_alive()
    assert not isinstance(outcome[0], AssertionError), outcome[0]
    target.assert_alive(capfd)


@FUZZ
@given(st.data())
def test_anything_when_nothing_was_asked(target, capfd, data):
    with connect(target.url, open_timeout=5) as connection:
        connection.send(wire.encode("hello", token=FUZZ_TOKEN, protocol=wire.PROTOCOL))
        assert wire.decode(connection.recv(timeout=5))["type"] == "welcome"
        for _ in range(data.draw(st.integers(1, 3))):
            send_quietly(connection, mutated({"type": "answer", "id": 1, "text": "= a1"}, data))
    target.assert_alive(capfd)


def test_an_honest_participant_plays_after_the_fuzzing(target, capfd):
    """Run last in this file: the server the fuzzers hit still serves a participant."""
    channel = target.roster.channels["honest"]
    answers: list = []
    with connect(target.url, open_timeout=5) as connection:
        connection.send(wire.encode("hello", token=HONEST_TOKEN, protocol=wire.PROTOCOL))
        assert wire.decode(connection.recv(timeout=5))["type"] == "welcome"
        wait_for(lambda: channel.connected, 5, what="the server to seat the participant")
        player = threading.Thread(
            target=lambda: answers.append(channel.send("name", time.monotonic() + 5)))
        player.start()
        command = wire.decode(connection.recv(timeout=5))
        connection.send(wire.encode("answer", id=command["id"], text="= honest", think=0.0))
        player.join(10)
    assert answers == ["honest"]
    target.assert_alive(capfd)
