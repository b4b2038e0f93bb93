"""The event's parts one at a time, in this process: the wire format, the lag quota, the event
file, tokens, and a remote channel whose link drops and comes back mid-game.

The remote channel's link here is an in-process stand-in for a WebSocket connection (a thread
playing the client, answering from a real engine object): the transport itself is tested over
real sockets in ``test_event.py``; this isolates the channel's own logic.
"""

from __future__ import annotations

import os
import queue
import random
import socket
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from engine import Termination
from engine.search import Player
from protocol.cli import build_engine
from referee.host import wire
from referee.play.lag import RTT_FACTOR, RTT_SLACK, LagPolicy, LagQuota
from referee.play.remote import Link, RemoteChannel
from referee.host.roster import Entrant, Roster, token_digest
from referee.host.door import Door, DoorPolicy
from referee.host.event_server import EventServer
from referee.host.event import Event, EventError
from referee.host.event_file import EventFileError, read_event
from referee.records.folder import lock_folder
from referee.play.channel import InProcessChannel
from referee.play.game import play_game
from referee.plan.schedule import plan
from referee.plan.setup import Setup
from referee.plan.time_control import TimeControl

from ..processes import wait_for
from .helpers import NAMES, write_event


@pytest.mark.parametrize("text, error", [
    (b"{}", "a binary message"),
    ("[1, 2]", "not a JSON object"),
    ("{nope", "not JSON"),
    ('{"type": "shout"}', "unknown message type 'shout'"),
    ('{"type": "answer", "id": 1, "text": 3}', "answer: 'text' must be text"),
    ('{"type": "answer", "id": true, "text": "="}', "answer: 'id' must be an integer"),
    ('{"type": "answer", "id": 1, "text": "=", "think": "0.1"}', "'think' must be a number"),
])
def test_a_message_that_is_not_the_protocols_is_refused_in_one_line(text, error):
    with pytest.raises(wire.WireError, match=error):
        wire.decode(text)


def test_think_time_is_optional():
    assert wire.decode(wire.encode("answer", id=1, text="= a1"))["text"] == "= a1"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 20), st.one_of(st.none(), st.floats(0, 20)),
                          st.booleans(), st.one_of(st.none(), st.floats(0.001, 1))),
                max_size=60))
def test_no_claim_can_get_more_than_the_quota_gives(answers):
    policy = LagPolicy(start=2, gain=1, cap=5, per_answer=3)
    quota = LagQuota(policy)
    total = moves = 0
    for measured, think, move, rtt in answers:
        granted = quota.grant(measured, think, move, rtt)
        assert 0 <= granted <= min(policy.per_answer, measured) + 1e-9
        if think is not None:
            assert granted <= max(0.0, measured - think) + 1e-9
        if rtt is not None:
            assert granted <= RTT_FACTOR * rtt + RTT_SLACK + 1e-9
        total += granted
        moves += move
        assert total <= policy.start + policy.gain * moves + 1e-6
        assert quota.left <= policy.cap + 1e-9


def test_a_token_is_recognised_in_constant_time_by_its_digest():
    roster = Roster([Entrant("a", token_digest("token-a-xxxxxxxxxx")),
                     Entrant("b", token_digest("token-b-xxxxxxxxxx"))], 60, LagPolicy())
    assert roster.identify("token-b-xxxxxxxxxx") == "b"
    assert roster.identify("token-b-xxxxxxxxxy") is None
    assert roster.identify("") is None


@pytest.mark.parametrize("change, message", [
    ({"format": "swiss"}, "format must be one of round-robin"),
    ({"game": "chess"}, "game 'chess'"),
    ({"time": "long"}, "time must be"),
    ({"grace": -1}, "grace must be at least 0"),
    ({"boardsize": "big"}, "boardsize: 'big' is not N or COLSxROWS"),
    ({"anchor": {"name": "Nobody", "elo": 1}}, "anchor 'Nobody' is not a participant"),
    ({"pairs": True, "games": 3}, r"games must be even with pairs = true \(a pair is two"),
    ({"tme": 5}, r"unused key 'tme' in \S+event.toml \(the keys read there: anchor, boardsize"),
    ({"anchor": {"name": "Alpha", "rating": 1}}, r"unused key 'rating' in \S+ \[anchor\]"),
])
def test_a_bad_event_file_is_one_line_naming_the_key(tmp_path, change, message):
    path = write_event(tmp_path, **change)
    with pytest.raises(EventFileError, match=message) as error:
        read_event(path)
    assert "\n" not in str(error.value)


def test_the_doors_memory_of_wrong_tokens_and_bans_is_bounded_whatever_the_addresses():
    # A flood of wrong tokens from every /64 of a /48 and more (a fake clock: no waiting).
    clock, lines = [0.0], []
    door = Door(DoorPolicy(failures=3, window=600, ban=60), lines.append, lambda: clock[0],
                most=1000)
    blocks = [f"[2001:db8:0:{block:x}::1]:5000" for block in range(3000)]
    for address in blocks:
        for _ in range(3):  # the third bans the block
            door.failed(address)
    assert len(door._failures) == len(door._banned) == 1000
    crowded = [line for line in lines if line.startswith("remembering")]
    assert crowded == ["remembering the wrong tokens or bans of over 1000 addresses at once: "
                       "the oldest are forgotten"]  # once an interval, not once a key
    # The latest addresses are the ones remembered: the last is banned, the first forgotten.
    assert door.knock(blocks[-1]) == "3 wrong tokens within 600 s: banned for 60 s"
    assert door.knock(blocks[0]) is None
    assert door.failed(blocks[0]) == 0.25  # a first wrong token again
    clock[0] += 10.0  # one interval later, the cap reached again is said again
    for address in blocks[:1000]:
        door.failed(address)
    assert len([line for line in lines if line.startswith("remembering")]) == 2


def test_an_address_remembers_no_more_wrong_tokens_than_a_ban_needs():
    door = Door(DoorPolicy(failures=3, first_delay=1, most_delay=100), lambda line: None,
                lambda: 0.0)
    delays = [door.failed("10.0.0.1:5000") for _ in range(50)]
    assert delays[:4] == [1, 2, 4, 4]  # the ban's count is the most the delay grows to
    assert [len(times) for times in door._failures.values()] == [3]


def event_error(event_file) -> str:
    """The one line an event that cannot start (on 127.0.0.1, any free port) says why."""
    with pytest.raises(EventError) as error:
        with Event(read_event(event_file), lambda line: None):
            pass
    return str(error.value)


def test_an_events_folder_messages_name_the_event_files_keys(tmp_path):
    # The event file is what its organiser wrote: its keys, not the command line's options.
    with lock_folder(tmp_path / "out"):
        busy = event_error(write_event(tmp_path))
    assert busy.endswith("in use by another referee (process " + str(os.getpid()) + "); wait "
                         "for it to finish or use another folder (out in the event file)")
    with Event(read_event(write_event(tmp_path, time=20)), lambda line: None):
        pass  # the folder now holds this event's settings
    differ = event_error(write_event(tmp_path, time=30, boardsize="6", name="Other"))
    assert "holds an event with other settings: " in differ
    for words in ("name \"Test event\" (now \"Other\")", "boardsize [5, 5] (now [6, 6])",
                  "participant 1 time 20 (now 30)", "use another folder (out in the event file)"):
        assert words in differ
    assert "--" not in busy + differ and "engine" not in differ


@pytest.mark.parametrize("escape", ["u001b", "u202e", "u0085", "u2029"])
def test_a_participant_name_holding_a_control_or_bidi_character_is_refused(tmp_path, escape):
    path = write_event(tmp_path, names=(f"Al\\{escape}ice", "Beta"))  # a TOML escape
    with pytest.raises(EventFileError, match=r"participant 1: the name 'Al\\(x1b|u202e|x85|u2029)"
                                             r"ice' holds a control, line separator or "
                                             r"bidirectional character"):
        read_event(path)


def test_participants_need_distinct_names_and_long_distinct_tokens(tmp_path):
    path = write_event(tmp_path)
    text = path.read_text()
    path.write_text(text.replace('name = "Beta"', 'name = "Alpha"'))
    with pytest.raises(EventFileError, match="two participants are named 'Alpha'"):
        read_event(path)
    path.write_text(text.replace("secret-token-of-beta-0123456789", "short"))
    with pytest.raises(EventFileError, match="at least 16 characters"):
        read_event(path)
    path.write_text(text.replace("secret-token-of-beta", "secret-token-of-alpha"))
    with pytest.raises(EventFileError, match="the same token"):
        read_event(path)
    digest = token_digest("secret-token-of-beta-0123456789")
    path.write_text(text.replace('token = "secret-token-of-beta-0123456789"',
                                 f'token-sha256 = "{digest}"'))
    event = read_event(path)
    assert event.entrants[1].digest == digest
    assert event.setup.command_timeout == 90  # the grace window and some


def test_tokens_in_clear_text_only_on_loopback(tmp_path):
    path = write_event(tmp_path, listen={"host": "192.0.2.1"})
    with pytest.raises(EventFileError, match="not a loopback address: give a TLS certificate"):
        read_event(path)
    path = write_event(tmp_path, listen={"host": "192.0.2.1", "plain": True})
    assert read_event(path).listen.plain


class LoopbackClient:
    """Plays a participant's client in this process: answers the channel's commands from an
    engine object on a thread of its own, through a :class:`Link`; ``drop_after`` commands it
    drops the link, as a lost connection would."""

    def __init__(self, channel: RemoteChannel, drop_after: int | None = None) -> None:
        self.channel = channel
        self.engine = build_engine(Player(depth=1, seed=1))
        self.inbox: queue.Queue = queue.Queue()
        self.drop_after = drop_after
        self.link = Link(lambda kind, **fields: self.inbox.put({"type": kind, **fields}),
                         lambda code, reason: None, "in-process")
        self.commands: list[str] = []
        threading.Thread(target=self._serve, daemon=True).start()
        channel.attach(self.link)

    def _serve(self) -> None:
        while True:
            message = self.inbox.get()
            if message["type"] != "command":
                continue
            if self.drop_after is not None and len(self.commands) == self.drop_after:
                self.channel.detach(self.link)
                return
            self.commands.append(message["line"])
            answer = self.engine.respond(message["line"] + "\n").rstrip("\n")
            self.channel.deliver(self.link, {"type": "answer", "id": message["id"],
                                             "text": answer, "think": 0.0})


THIRTY_SECONDS = (TimeControl(30), TimeControl(30))


def test_a_remote_engine_dropped_mid_game_is_brought_back_to_the_position():
    setup = Setup("breakthrough", size=(5, 5), max_moves=200)
    channel = RemoteChannel("remote", grace=10)
    channel.new_game()
    first = LoopbackClient(channel, drop_after=12)
    local = InProcessChannel(build_engine(Player(depth=1, seed=2)).respond)
    timer = threading.Timer(0.3, lambda: LoopbackClient(channel))
    timer.start()
    record = play_game(setup, [channel, local], random.Random(1), controls=THIRTY_SECONDS)
    timer.join()
    assert record.termination is Termination.NORMAL, record.reason
    assert len(first.commands) == 12
    assert channel.connected


def test_a_remote_engine_that_stays_away_loses_by_disconnect():
    setup = Setup("breakthrough", size=(5, 5), max_moves=200)
    channel = RemoteChannel("remote", grace=0.3)
    LoopbackClient(channel, drop_after=6)
    local = InProcessChannel(build_engine(Player(depth=1, seed=2)).respond)
    record = play_game(setup, [channel, local], random.Random(1), controls=THIRTY_SECONDS)
    assert record.termination is Termination.DISCONNECT
    assert record.at_fault == 0
    assert "did not come back within the 0.3 s grace window" in record.reason


@pytest.mark.parametrize("settings, games", [
    ({"format": "round-robin", "games": 1}, 6),
    ({"format": "double-round-robin", "games": 1}, 12),
    ({"format": "double-round-robin", "games": 2}, 24),
    ({"format": "gauntlet", "gauntlet": 1, "games": 2}, 6),
])
def test_the_formats_plan_as_a_local_run_would(tmp_path, settings, games):
    event = read_event(write_event(tmp_path, NAMES[:4], **settings))
    planned = plan(4, event.games, 1, gauntlet=event.gauntlet, paired=event.pairs)
    assert len(planned) == games
    if event.format == "double-round-robin":
        colours = {(game.black, game.white) for game in planned}
        assert all((white, black) in colours for black, white in colours)


def test_a_connection_that_never_says_hello_is_closed_and_logged(tmp_path):
    roster = Roster([Entrant("a", token_digest("token-a-xxxxxxxxxx"))], 60, LagPolicy())
    lines: list[str] = []
    server = EventServer(roster, "test", "127.0.0.1", 0, None, lines.append, hello_seconds=0.3)
    try:
        with connect(f"ws://127.0.0.1:{server.port}/") as silent:
            refusal = wire.decode(silent.recv(timeout=5))
            with pytest.raises(ConnectionClosed):
                silent.recv(timeout=5)
        assert refusal == {"type": "refused", "reason": "no hello within 0.3 s"}
        assert silent.close_code == 1008
        with socket.create_connection(("127.0.0.1", server.port)) as raw:  # no handshake
            raw.settimeout(5)
            assert raw.recv(100) == b""  # closed by the server, not left hanging
        assert any("refused a connection from 127.0.0.1" in line for line in lines)
        assert not roster.channels["a"].connected
    finally:
        server.stop()


def test_repeated_refusals_are_one_line_and_their_count_is_written_at_the_stop():
    roster = Roster([Entrant("a", token_digest("token-a-xxxxxxxxxx"))], 60, LagPolicy())
    lines: list[str] = []
    server = EventServer(roster, "test", "127.0.0.1", 0, None, lines.append)
    try:
        knocks = [socket.create_connection(("127.0.0.1", server.port), timeout=5)
                  for _ in range(5)]
        wait_for(lambda: server.door.waiting == 5, 10, what="the door to count 5 connections")
        for knock in knocks:  # each closed before its WebSocket handshake: refused
            knock.close()
        wait_for(lambda: server.door.waiting == 0, 10, what="the door to see them closed")
    finally:
        server.stop()
    assert [line.split(": ", 1)[1] for line in lines] == [
        "closed before the WebSocket handshake",
        "closed before the WebSocket handshake"]  # the first, then the count of the others
    assert lines[1] == "refused 4 more connections from 127.0.0.1: closed before the WebSocket " \
                       "handshake"
