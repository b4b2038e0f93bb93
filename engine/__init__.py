"""Rules of the Olympiad games and the players that search them.

>>> from engine import find_game
>>> position = find_game("loa")().initial_position()
>>> position.legal_move_texts()[:3]
['b1-b3', 'b1-d3', 'b1-h1']
"""

# The version of the whole distribution (engine, protocol and referee), kept by the package that
# the other two build on; setup.cfg reads it from here.
__version__ = "0.1.0"

from .core import (BLACK, COLOUR_NAMES, WHITE, Game, GameError, IllegalMoveError,
                   MoveSyntaxError, OptionError, OutOfBudget, Outcome, Position, SizeError,
                   Termination, UnknownGameError, parse_colour)
from .registry import find_game, game_names

__all__ = [
    "BLACK", "WHITE", "COLOUR_NAMES", "Game", "Position", "Outcome", "Termination", "GameError",
    "MoveSyntaxError", "IllegalMoveError", "OptionError", "SizeError", "UnknownGameError",
    "parse_colour", "OutOfBudget",
    "find_game", "game_names", "__version__",
]
