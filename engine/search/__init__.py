"""Players that choose moves: alpha-beta (or, in laoCoon, MCTS with evaluated leaves) for games
with an evaluation, MCTS for the rest."""

from .alphabeta import AlphaBeta
from .analysis import Analysis
from .budget import Budget, TimeKeeper
from .mcts import Mcts
from .mcts_eval import EvalMcts
from .player import Player

__all__ = ["AlphaBeta", "Analysis", "Budget", "EvalMcts", "Mcts", "Player", "TimeKeeper"]
