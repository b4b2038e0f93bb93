"""The registry finds every game module by itself, in SPEC's order, with no import circle."""

import importlib
import inspect
import pkgutil
import subprocess
import sys

import engine.games
from engine import Game, game_names
from engine.registry import discover


def game_modules() -> dict[str, list[str]]:
    """Every module of engine/games and the names of the games it defines, read apart from the
    registry's own code."""
    found = {}
    for info in pkgutil.iter_modules(engine.games.__path__):
        module = importlib.import_module(f"engine.games.{info.name}")
        found[info.name] = [value.name for value in vars(module).values()
                            if inspect.isclass(value) and issubclass(value, Game)
                            and value.__module__ == module.__name__
                            and not inspect.isabstract(value)]
    return found


def test_every_game_module_is_found_and_nothing_else():
    modules = game_modules()
    assert sorted(game_names()) == sorted(name for names in modules.values() for name in names)
    # A module without a game is a helper that games share (racing holds Breakthrough's and
    # Knightthrough's common race).
    assert [module for module, names in modules.items() if not names] == ["racing"]


def test_the_games_come_in_specs_order():
    sections = [tuple(int(part) for part in game.spec_section.split(".")) for game in discover()]
    assert sections == sorted(sections)
    assert game_names()[:3] == ["loa", "breakthrough", "knightthrough"]
    assert game_names()[-1] == "cookiedisco"  # 2.10 comes after 2.9, not after 2.1


def test_no_game_module_imports_the_registry():
    # Importing a game module alone must not pull the registry's discovery in: run it in a
    # fresh interpreter and look at what got imported.
    code = ("import sys, engine.games.loa, engine.registry as r; "
            "print(r._tables.cache_info().currsize)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "0", done.stderr
    for path in engine.games.__path__:
        for info in pkgutil.iter_modules([path]):
            source = open(f"{path}/{info.name}.py", encoding="utf-8").read()
            assert "registry" not in source, info.name
