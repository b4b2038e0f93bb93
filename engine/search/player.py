"""The engine's player: picks a search for the game and gives it a budget for each move."""

from __future__ import annotations

from ..core import Position
from .alphabeta import AlphaBeta
from .analysis import Analysis
from .baselines import Greedy, RandomMover
from .budget import Budget, TimeKeeper
from .mcts import Mcts

# The searches, and the fixed baselines used to measure them (random, greedy, plain uct).
SEARCHES = {
    "alphabeta": AlphaBeta,
    "mcts": Mcts,
    "uct": lambda seed: Mcts(seed, solver=False),
    "greedy": Greedy,
    "random": RandomMover,
}
ALGORITHMS = ("auto", *SEARCHES)
# What each search counts a fixed effort in; the baselines (greedy, random) are fixed already.
EFFORT_UNITS = {"alphabeta": "depth", "mcts": "playouts", "uct": "playouts"}


class Player:
    """Chooses moves for any game.

    ``algorithm`` ``auto`` uses alpha-beta where the game has an evaluation and MCTS
    otherwise; the other names of :data:`SEARCHES` force one. A fixed ``depth`` (alpha-beta) or
    ``playouts`` (MCTS) replaces the clock's planning, which with ``seed`` makes play
    reproducible; the clock, when one is set, only cuts a move that would take longer than it
    can spare (:meth:`TimeKeeper.limit`). Without them each move gets a share of the time the
    :class:`TimeKeeper` knows of.
    """

    def __init__(self, *, depth: int | None = None, playouts: int | None = None,
                 seed: int | None = None, move_time: float = 1.0,
                 algorithm: str = "auto") -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r} (expected {'|'.join(ALGORITHMS)})")
        _check_effort(algorithm, depth, playouts)
        self.depth = depth
        self.playouts = playouts
        self.seed = seed
        self.algorithm = algorithm
        self.clock = TimeKeeper(move_time=move_time)
        self._searchers: dict[str, object] = {}

    def new_game(self) -> None:
        """Forget what was learnt in the previous game (transposition tables, generators)."""
        self._searchers.clear()

    def searcher_for(self, position: Position):
        """The search this player uses in ``position``'s game."""
        kind = self.algorithm
        if kind == "auto":
            if self.depth is not None:
                kind = "alphabeta"
            elif self.playouts is not None:
                kind = "mcts"
            else:
                kind = "alphabeta" if position.has_evaluation else "mcts"
        if kind not in self._searchers:
            self._searchers[kind] = SEARCHES[kind](self.seed)
        return self._searchers[kind]

    def budget(self, position: Position) -> Budget:
        """What the next move may spend: the fixed effort within the clock's hard limit, or a
        share of the clock."""
        if self.depth is not None or self.playouts is not None:
            return Budget(depth=self.depth, playouts=self.playouts,
                          hard=self.clock.limit(position.to_move))
        soft, hard = self.clock.allowance(position.to_move, position.moves_to_go())
        return Budget(soft=soft, hard=hard)

    def choose(self, position: Position):
        """A legal move for the side to move (the game must not be over)."""
        return self.choose_with_analysis(position, analyse=False)[0]

    def choose_with_analysis(self, position: Position, analyse: bool = True):
        """A legal move for the side to move and what the search thought of it (an empty
        :class:`Analysis` for the baselines, which search nothing; ``None`` unless
        ``analyse``). The analysis, principal variation included, is taken before the clock's
        note of the time spent, so it is charged to the move like the search itself."""
        budget = self.budget(position)
        searcher = self.searcher_for(position)
        move = searcher.choose(position, budget)
        analysis = None
        if analyse:
            analysis = (searcher.analysis(position, move) if hasattr(searcher, "analysis")
                        else Analysis())
        self.clock.record_spent(position.to_move, budget.elapsed())
        return move, analysis


def _check_effort(algorithm: str, depth: int | None, playouts: int | None) -> None:
    """Refuse a fixed effort the search would not count: it would have no end but the clock
    (MCTS given a depth ran until a proof, alpha-beta given playouts to depth 64)."""
    if depth is not None and playouts is not None:
        raise ValueError("a fixed effort is a depth or a number of playouts, not both")
    unit = EFFORT_UNITS.get(algorithm)
    given = "depth" if depth is not None else "playouts" if playouts is not None else None
    if unit is not None and given is not None and given != unit:
        raise ValueError(f"the {algorithm} search counts its effort in {unit}, not {given}")
