"""The list of playable games, found by name or alias.

Every module of :mod:`engine.games` that defines a concrete :class:`~engine.core.Game` subclass
(one with a ``name``) is a game: on first use the registry imports the package's modules with
:mod:`pkgutil` and collects those classes, so adding a game means adding its module and nothing
else. Game modules never import this one (no import circle). The games are listed in the order
of their ``spec_section`` (SPEC.md's section that defines them), then by name.

>>> game_names()[:3]
['loa', 'breakthrough', 'knightthrough']
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
from functools import cache
from types import ModuleType

from . import games
from .core import Game, UnknownGameError


def discover(package: ModuleType = games) -> list[type[Game]]:
    """The game classes defined in the modules of ``package``, in SPEC's order."""
    found = []
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        found += [value for value in vars(module).values()
                  if isinstance(value, type) and issubclass(value, Game)
                  and value.__module__ == module.__name__ and not inspect.isabstract(value)
                  and getattr(value, "name", None)]
    return sorted(found, key=spec_order)


def spec_order(game: type[Game]) -> tuple:
    """The sort key of a game: its SPEC section as numbers (``2.10`` after ``2.9``), a game
    without one last, then its name."""
    if not game.spec_section:
        return (math.inf,), game.name
    return tuple(int(part) for part in game.spec_section.split(".")), game.name


@cache
def _tables() -> tuple[dict[str, type[Game]], dict[str, str]]:
    """The games by name, and every name and alias mapped to its game's name."""
    by_name: dict[str, type[Game]] = {}
    aliases: dict[str, str] = {}
    for game in discover():
        for word in (game.name, *game.aliases):
            if word in aliases:
                raise ValueError(f"game name {word!r} is used by {game.__module__} and by "
                                 f"{by_name[aliases[word]].__module__}")
            aliases[word] = game.name
        by_name[game.name] = game
    return by_name, aliases


def find_game(name: str) -> type[Game]:
    """The game class called ``name`` or one of its aliases, in any case."""
    by_name, aliases = _tables()
    try:
        return by_name[aliases[name.lower()]]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r} (games: {', '.join(game_names())})") from None


def game_names() -> list[str]:
    """The names of every game, in SPEC's order."""
    return list(_tables()[0])
