"""Every game played to its end by two engines, through the protocol, under the referee."""

import json
import random
import subprocess
import sys

import pytest

from engine import Termination, find_game, game_names
from engine.search import Player
from protocol.cli import build_engine
from referee.plan.setup import Setup
from referee.play.channel import InProcessChannel
from referee.play.game import play_game

CONFIGURATIONS = ([(name, {}) for name in game_names()]
                  + [("laocoon", {"variant": "random"}), ("laocoon", {"variant": "quick"})]
                  + [("cookiedisco", {"layout": str(layout)}) for layout in range(2, 7)])


@pytest.mark.parametrize("name, options", CONFIGURATIONS,
                         ids=[f"{name}-{'-'.join(options.values()) or 'default'}"
                              for name, options in CONFIGURATIONS])
def test_a_refereed_game_between_two_engines_ends_by_the_rules(name, options):
    engines = [InProcessChannel(build_engine(Player(depth=1, seed=seed)).respond)
               for seed in (1, 2)]
    record = play_game(Setup(name, options, max_moves=400), engines, random.Random(3))
    assert record.termination in (Termination.NORMAL, Termination.REPETITION,
                                  Termination.NO_PROGRESS, Termination.MOVE_LIMIT), record.reason
    # The referee's verdict agrees with a replay of the recorded moves.
    replayed = record.game.position_after(record.moves)
    if record.termination == Termination.MOVE_LIMIT:
        assert replayed.outcome is None and len(record.moves) == 400
        assert find_game(name).may_not_end or record.game.may_not_end
    else:
        assert replayed.outcome.result == record.result
        assert replayed.outcome.termination == record.termination


def test_the_engine_does_not_lose_on_time_under_a_short_sudden_death_clock(tmp_path):
    engine = f"{sys.executable} -m protocol.cli"
    subprocess.run([sys.executable, "-m", "referee", "match", "--game", "breakthrough",
                    "--engine", engine, "--engine", engine, "--games", "2", "--time", "5",
                    "--out", str(tmp_path / "out"), "--seed", "1"],
                   check=True, capture_output=True, timeout=120)
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").open()]
    assert len(rows) == 2
    for row in rows:
        assert row["termination"] == "normal", row["reason"]
        assert max(row["black_time"], row["white_time"]) < 5
