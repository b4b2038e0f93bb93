#!/usr/bin/env python3
"""Write the golden replays in tests/data/replays/, one JSON file per game.

    python scripts/gen_replays.py              # every registered game
    python scripts/gen_replays.py kayles       # one new game

A report's replays are written once and kept, so a change to a replay's text (a game's drawing
included) must raise ``REPLAY_FORMAT`` in referee/report/replay.py, which makes older folders
write theirs again. Each file holds a short seeded game (its moves, kept once chosen) and the
SHA-256 of its replay's text at every replay format it was written at; the test
``tests/report/test_replay_format.py`` recomputes the digest at the current format. This script
adds the current format's digest and refuses to change one already written: when a replay's
text changed on purpose, raise ``REPLAY_FORMAT`` first. A new game adds its own file and touches
no other.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import random
import sys

import click

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine import find_game, game_names  # noqa: E402
from referee.report.page import game_script  # noqa: E402
from referee.report.replay import REPLAY_FORMAT, replay  # noqa: E402

DATA = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "replays"
PLIES = 6


def seeded_moves(name: str) -> list[str]:
    """Up to :data:`PLIES` random moves of ``name`` from its start, seeded by the name."""
    position, moves, rng = find_game(name)().initial_position(), [], random.Random(name)
    while position.outcome is None and len(moves) < PLIES:
        moves.append(rng.choice(position.legal_move_texts()))
        position.play(position.parse_move(moves[-1]))
    return moves


def replay_digest(name: str, moves: list[str]) -> str:
    """The SHA-256 of the text a report writes for the replay of ``moves`` of ``name``."""
    row = {"game_no": 1, "game": name, "moves": moves, "black": "b", "white": "w",
           "result": "0", "termination": "move_limit", "reason": "cut"}
    script = game_script(replay(row, [59.0] * len(moves), (60, 60)))
    return hashlib.sha256(script.encode()).hexdigest()


@click.command()
@click.argument("games", nargs=-1)
def main(games):
    """Add the current replay format's digest to tests/data/replays/<game>.json for GAMES
    (default: all)."""
    DATA.mkdir(parents=True, exist_ok=True)
    for name in games or game_names():
        name = find_game(name).name
        path = DATA / f"{name}.json"
        record = (json.loads(path.read_text()) if path.exists()
                  else {"game": name, "moves": seeded_moves(name), "digests": {}})
        digest = replay_digest(name, record["moves"])
        known = record["digests"].setdefault(str(REPLAY_FORMAT), digest)
        if known != digest:
            raise click.ClickException(
                f"{name}'s replay changed at replay format {REPLAY_FORMAT}: raise REPLAY_FORMAT "
                f"in referee/report/replay.py, then run this again")
        path.write_text(json.dumps(record, indent=1) + "\n")
        click.echo(f"wrote {path}")


if __name__ == "__main__":
    main()
