"""A misbehaving event client for the tests: it logs in with a participant's token, then, at
the first command it gets, does one bad thing; it comes back (up to ``--times`` connections)
and does it again, so that every game of its participant meets it.

    python bad_client.py URL TOKEN MODE [--times N]

MODE: ``garbage`` (a message that is not JSON), ``oversized`` (a message of 200 kB),
``flood`` (a thousand answers to commands nobody sent), ``silent`` (never answers),
``surrogate`` (an answer holding a lone surrogate, valid JSON), ``lost-surrogate`` (a ``lost``
whose reason holds one).
"""

from __future__ import annotations

import argparse
import json
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def misbehave(connection, mode: str, command: dict) -> None:
    if mode == "garbage":
        connection.send("this is not the event protocol {")
    elif mode == "oversized":
        connection.send(json.dumps({"type": "answer", "id": command["id"], "text": "=" * 200_000}))
    elif mode == "flood":
        for number in range(1000):
            connection.send(json.dumps({"type": "answer", "id": 1_000_000 + number, "text": "= a1"}))
    elif mode == "silent":
        pass
    elif mode == "surrogate":
        connection.send(json.dumps({"type": "answer", "id": command["id"], "text": "= \ud800",
                                    "think": 0}))
    elif mode == "lost-surrogate":
        connection.send(json.dumps({"type": "lost", "id": command["id"],
                                    "reason": "boom \udc80"}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("mode", choices=("garbage", "oversized", "flood", "silent", "surrogate",
                                             "lost-surrogate"))
    parser.add_argument("--times", type=int, default=20)
    arguments = parser.parse_args()
    for _ in range(arguments.times):
        try:
            with connect(arguments.url, max_size=None) as connection:
                connection.send(json.dumps({"type": "hello", "token": arguments.token,
                                            "protocol": 1}))
                for text in connection:
                    message = json.loads(text)
                    if message["type"] == "bye":
                        return
                    if message["type"] == "command":
                        misbehave(connection, arguments.mode, message)
        except (ConnectionClosed, OSError):
            pass
        time.sleep(0.2)


if __name__ == "__main__":
    main()
