"""docs/adding-a-game.md is true: its module, saved in engine/games and nothing else changed,
is a game the registry finds, the protocol plays and perft counts as worked by hand."""

import re
import sys
from pathlib import Path

import pytest

import engine.games
from engine import find_game, game_names
from engine.perft import perft
from engine.registry import _tables
from engine.search import Player
from protocol.cli import build_engine

from .playouts import check_playout

DOC = Path(__file__).resolve().parent.parent / "docs" / "adding-a-game.md"


def doc_module() -> str:
    """The page's Python block: the whole game module."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    return blocks[0]


@pytest.fixture
def kayles_installed(tmp_path, monkeypatch):
    """The doc's module as engine/games/kayles.py, by way of a folder added to the package's
    path (the real folder is shared with whoever else runs tests now)."""
    (tmp_path / "kayles.py").write_text(doc_module(), encoding="utf-8")
    monkeypatch.setattr(engine.games, "__path__", [*engine.games.__path__, str(tmp_path)])
    _tables.cache_clear()
    yield
    sys.modules.pop("engine.games.kayles", None)
    monkeypatch.undo()
    _tables.cache_clear()


def test_the_new_module_is_a_game_with_nothing_else_changed(kayles_installed):
    assert game_names()[-1] == "kayles"  # no spec_section: after SPEC's games
    game = find_game("KAYLES")(size=(3, 1))
    position = game.initial_position()
    assert [perft(position, depth) for depth in (1, 2, 3)] == [3, 2, 0]
    assert position.legal_move_texts() == ["a1", "b1", "c1"]
    for seed in range(3):  # the generic contract every game keeps (tests/test_all_games.py)
        check_playout(find_game("kayles")(), seed)


def test_the_protocol_plays_it(kayles_installed):
    gtp = build_engine(Player(depth=2, seed=1), "kayles")
    assert "kayles" in gtp.respond("list_games")
    assert gtp.respond("boardsize 3 1") == "=\n\n"
    assert gtp.respond("play w a1") == "? illegal move: white is not to move (black is)\n\n"
    assert gtp.respond("play b b1") == "=\n\n"
    assert gtp.respond("final_score") == "= B+\n\n"
    assert gtp.respond("undo") == "=\n\n"
    assert gtp.respond("play b a1") == "=\n\n"
    assert gtp.respond("play w b1") == "? illegal move: b1: a stone may not touch another stone\n\n"
    assert gtp.respond("genmove w") == "= c1\n\n"  # the only move, and it wins


def test_without_the_module_there_is_no_such_game():
    assert "kayles" not in game_names()
