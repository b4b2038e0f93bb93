"""Golden move-path counts from tests/data/perft/ (written by scripts/gen_perft.py)."""

import json
import pathlib

import pytest

from engine import find_game, game_names
from engine.perft import perft

DATA = pathlib.Path(__file__).parent / "data" / "perft"
FILES = sorted(DATA.glob("*.json"))
# Counts above this are left to scripts/gen_perft.py, to keep the suite quick.
NODE_LIMIT = 200_000


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_perft_matches_golden_counts(path):
    record = json.loads(path.read_text())
    size = tuple(record["size"]) if record["size"] else None
    game = find_game(record["game"])(record["options"], size)
    opening = record.get("moves", [])
    for depth, expected in enumerate(record["counts"], start=1):
        if expected > NODE_LIMIT:
            break
        assert perft(game.position_after(opening), depth) == expected, f"depth {depth}"


@pytest.mark.parametrize("name", game_names())
def test_every_game_has_golden_counts(name):
    assert (DATA / f"{name}.json").exists(), f"no perft file for {name}: run scripts/gen_perft.py"
