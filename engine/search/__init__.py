"""Players that choose moves: alpha-beta for games with an evaluation, MCTS for the rest."""

from .alphabeta import AlphaBeta
from .analysis import Analysis
from .budget import Budget, TimeKeeper
from .mcts import Mcts
from .player import Player

__all__ = ["AlphaBeta", "Analysis", "Budget", "Mcts", "Player", "TimeKeeper"]
