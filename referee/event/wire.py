"""The event protocol: what a client and the server say to each other, one JSON object per
WebSocket text message.

The client opens with ``hello`` (its token); the server answers ``welcome`` (the participant's
name) or ``refused`` (one line saying why) and closes. Then the server sends ``command`` (one
protocol line for the engine, with a number) and the client answers with ``answer`` (the
engine's answer as it wrote it, and the seconds the engine took by the client's own watch) or
``lost`` (the engine died or cannot be reached; the client starts a fresh one). ``reset`` asks
the client to replace its engine by a fresh one; ``bye`` says the event is over.

The client knows no game: it relays lines. The server trusts nothing it says: answers are read
as GTP answers, moves checked by the rules, and ``think`` is used only within the lag
allowance (:mod:`.lag`).

>>> decode(encode("command", id=3, line="genmove b"))
{'type': 'command', 'id': 3, 'line': 'genmove b'}
>>> decode('{"type": "answer", "id": "3"}')
Traceback (most recent call last):
...
referee.event.wire.WireError: answer: 'id' must be an integer
"""

from __future__ import annotations

import json
from typing import Any

# The version of this protocol; a client speaking another is refused.
PROTOCOL = 1
# The largest message either side accepts: an engine's answer to the referee's commands is a
# move or a word, so this leaves ample room and bounds what a client can make the server hold.
MAX_MESSAGE_BYTES = 1 << 16

_NUMBER = (int, float)
# Every message kind, with the type of each of its fields (all required except those in
# _OPTIONAL).
KINDS: dict[str, dict[str, Any]] = {
    "hello": {"token": str, "protocol": int},
    "welcome": {"name": str, "event": str},
    "refused": {"reason": str},
    "command": {"id": int, "line": str},
    "answer": {"id": int, "text": str, "think": _NUMBER},
    "lost": {"id": int, "reason": str},
    "reset": {},
    "bye": {"reason": str},
}
_OPTIONAL = {("answer", "think")}


class WireError(ValueError):
    """A message that is not one of the protocol's; the text says what was wrong, in one line."""


def encode(kind: str, **fields: Any) -> str:
    """One message as the text sent over the WebSocket."""
    return json.dumps({"type": kind, **fields}, ensure_ascii=False)


def decode(text: str | bytes) -> dict[str, Any]:
    """The message ``text`` holds, checked against :data:`KINDS`; raises :class:`WireError`."""
    if not isinstance(text, str):
        raise WireError("a binary message (messages are JSON text)")
    try:
        message = json.loads(text)
    except ValueError:
        raise WireError(f"not JSON: {text[:40]!r}") from None
    if not isinstance(message, dict):
        raise WireError("not a JSON object")
    kind = message.get("type")
    if kind not in KINDS:
        raise WireError(f"unknown message type {str(kind)[:40]!r}")
    for name, expected in KINDS[kind].items():
        value = message.get(name)
        if value is None and (kind, name) in _OPTIONAL:
            continue
        if not isinstance(value, expected) or isinstance(value, bool):
            what = "an integer" if expected is int else "a number" if expected is _NUMBER \
                else "text"
            raise WireError(f"{kind}: {name!r} must be {what}")
    return message
