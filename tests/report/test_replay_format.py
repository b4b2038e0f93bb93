"""``REPLAY_FORMAT`` is raised whenever the text of a replay changes: each game's golden replay
in tests/data/replays/ (written by scripts/gen_replays.py) holds the digest of its text at each
format, and the text at the current format must match. A game's file is its own, so a new game
adds one and changes no other."""

import importlib.util
import json
from pathlib import Path

import pytest

from engine import game_names
from referee.report.replay import REPLAY_FORMAT

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "replays"
FILES = sorted(DATA.glob("*.json"))


def script():
    """scripts/gen_replays.py as a module: the test computes the digest as the script does."""
    path = ROOT / "scripts" / "gen_replays.py"
    spec = importlib.util.spec_from_file_location("gen_replays", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_replays = script()


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_replay_s_text_changes_only_with_the_replay_format(path):
    record = json.loads(path.read_text())
    digest = record["digests"].get(str(REPLAY_FORMAT))
    assert digest, (f"{path.name} has no digest at replay format {REPLAY_FORMAT}: run "
                    f"scripts/gen_replays.py {record['game']}")
    assert gen_replays.replay_digest(record["game"], record["moves"]) == digest, (
        f"{record['game']}'s replay text changed: raise REPLAY_FORMAT in referee/report/replay.py, "
        f"so that older folders' replays are written again, and run scripts/gen_replays.py")


@pytest.mark.parametrize("name", game_names())
def test_every_game_has_a_golden_replay(name):
    assert (DATA / f"{name}.json").exists(), (
        f"no golden replay for {name}: run scripts/gen_replays.py {name}")
