"""The event protocol: what a client and the server say to each other, one JSON object per
WebSocket text message.

The client opens with ``hello``: its token at an event; at the ladder, the pool it joins, its
account's name and password (and an invitation when registration is closed), or in place of
the password the resume ticket of an earlier login (:mod:`.tickets`; ``ticket = ""``: none
yet, but the client takes one). The server answers ``welcome`` (the participant's name, and a
new ticket when the hello had the ``ticket`` field) or ``refused`` (one line saying why, and
``retry = "password"`` when the ticket lets nobody in any more) and closes. A client given a
ticket is sent a new one (``ticket``) every day it stays connected. A hello without ``ticket``
is answered as before tickets, so older clients go on working. Then the server sends
``command`` (one protocol line for the engine, with a number) and the client answers with
``answer`` (the engine's answer as it wrote it, and the seconds the engine took by the client's
own watch) or ``lost`` (the engine died or cannot be reached; the client starts a fresh one).
``reset`` asks the client to replace its engine by a fresh one; ``bye`` says the event is
over.

The client knows no game: it relays lines. The server trusts nothing it says: answers are read
as GTP answers, moves checked by the rules, and ``think`` is used only within the lag
allowance (:mod:`.lag`).

>>> decode(encode("command", id=3, line="genmove b"))
{'type': 'command', 'id': 3, 'line': 'genmove b'}
>>> decode('{"type": "answer", "id": "3"}')
Traceback (most recent call last):
...
referee.host.wire.WireError: answer: 'id' must be an integer
>>> decode('{"type": "lost", "id": 3, "reason": "boom \\\\udc80"}')
Traceback (most recent call last):
...
referee.host.wire.WireError: text holds a lone surrogate (not Unicode text)
>>> decode('{"type": "hello", "protocol": 1, "ticket": "ticket\\u00e9"}')
Traceback (most recent call last):
...
referee.host.wire.WireError: hello: 'ticket' must be at most 200 printable ASCII characters
"""

from __future__ import annotations

import json
from typing import Any

from .. import inbound
from ..text import one_line
from .tickets import MAX_TICKET_CHARS

# The version of this protocol; a client speaking another is refused.
PROTOCOL = 1
# The largest message either side accepts: an engine's answer to the referee's commands is a
# move or a word, so this leaves ample room and bounds what a client can make the server hold.
MAX_MESSAGE_BYTES = 1 << 16

_NUMBER = (int, float)
# Every message kind, with the type of each of its fields (all required except those in
# _OPTIONAL).
KINDS: dict[str, dict[str, Any]] = {
    "hello": {"protocol": int, "token": str, "pool": str, "name": str, "password": str,
              "invitation": str, "ticket": str},
    "welcome": {"name": str, "event": str, "ticket": str},
    "refused": {"reason": str, "retry": str},
    "command": {"id": int, "line": str},
    "answer": {"id": int, "text": str, "think": _NUMBER},
    "lost": {"id": int, "reason": str},
    "reset": {},
    "ticket": {"ticket": str},
    "bye": {"reason": str},
}
_OPTIONAL = {("answer", "think"), ("welcome", "ticket"), ("refused", "retry"),
             *(("hello", name) for name in ("token", "pool", "name", "password", "invitation",
                                            "ticket"))}
# The text fields held to a few printable ASCII characters, with their longest.
_SHORT = {"ticket": MAX_TICKET_CHARS, "retry": 20}
# The largest value of each number field: ids count a game's commands, ``think`` is seconds.
_LARGEST = {"id": 2 ** 53, "protocol": 2 ** 31, "think": 1e6}
# Messages are flat objects: one level, with room to spare.
MAX_DEPTH = 2


class WireError(ValueError):
    """A message that is not one of the protocol's; the text says what was wrong, in one line."""


def encode(kind: str, **fields: Any) -> str:
    """One message as the text sent over the WebSocket."""
    return json.dumps({"type": kind, **fields}, ensure_ascii=False)


def decode(text: str | bytes) -> dict[str, Any]:
    """The message ``text`` holds, through the input gate (:mod:`referee.inbound`: UTF-8 text,
    no lone surrogate, shallow, bounded numbers) and checked against :data:`KINDS`: no field
    missing, none unknown, each of its type, numbers in range. Raises :class:`WireError`."""
    if not isinstance(text, str):
        raise WireError("a binary message (messages are JSON text)")
    try:
        message = inbound.load_json(text, MAX_MESSAGE_BYTES, MAX_DEPTH, what="the message")
    except inbound.Refused as error:
        raise WireError(str(error)) from None
    if not isinstance(message, dict):
        raise WireError("not a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        raise WireError(f"unknown message type {one_line(str(kind), 40)!r}")
    fields = KINDS[kind]
    unknown = sorted(set(message) - set(fields) - {"type"})
    if unknown:
        raise WireError(f"{kind}: unknown field {one_line(unknown[0], 40)!r}")
    for name, expected in fields.items():
        value = message.get(name)
        if value is None and (kind, name) in _OPTIONAL:
            continue
        if not isinstance(value, expected) or isinstance(value, bool):
            what = "an integer" if expected is int else "a number" if expected is _NUMBER \
                else "text"
            raise WireError(f"{kind}: {name!r} must be {what}")
        if expected is not str and not 0 <= value <= _LARGEST[name]:
            raise WireError(f"{kind}: {name!r} must be from 0 to {_LARGEST[name]:g}")
        if name in _SHORT and not (len(value) <= _SHORT[name] and value.isascii()
                                   and value.isprintable()):
            raise WireError(f"{kind}: {name!r} must be at most {_SHORT[name]} printable ASCII "
                            f"characters")
    return message
