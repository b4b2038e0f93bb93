"""An in-process engine for fast protocol tests."""

import pytest

from engine.search import Player
from protocol.cli import build_engine


@pytest.fixture
def engine():
    """An engine at depth 1 with a fixed seed; ``engine.ask(line)`` returns the answer."""
    gtp = build_engine(Player(depth=1, seed=7))
    gtp.ask = gtp.respond
    return gtp
