"""The list of playable games, found by name or alias.

Each game module registers its :class:`~engine.core.Game` subclass on its last line with
:func:`register`; :mod:`engine.games` imports every game module, so importing it fills the
registry.
"""

from __future__ import annotations

from .core import Game, UnknownGameError

_GAMES: dict[str, type[Game]] = {}
_ALIASES: dict[str, str] = {}


def register(game: type[Game]) -> type[Game]:
    """Add a game class under its name and aliases (usable as a class decorator)."""
    for word in (game.name, *game.aliases):
        if word in _ALIASES:
            raise ValueError(f"game name {word!r} is registered twice")
        _ALIASES[word] = game.name
    _GAMES[game.name] = game
    return game


def find_game(name: str) -> type[Game]:
    """The game class called ``name`` or one of its aliases, in any case."""
    _load_games()
    try:
        return _GAMES[_ALIASES[name.lower()]]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r} (games: {', '.join(game_names())})") from None


def game_names() -> list[str]:
    """The names of every registered game, in registration order."""
    _load_games()
    return list(_GAMES)


def _load_games() -> None:
    from . import games  # noqa: F401  (importing registers every game)
