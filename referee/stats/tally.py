"""A run's counts kept as games finish: every figure of the summary from counts, never from
the list of games, so that a run's bookkeeping costs the same at game 100,000 as at game 100.

:meth:`Tally.add` takes one finished game and updates, in time independent of how many games
came before: the first engine's trinomial and pentanomial counts (a pair counts when its second
game arrives; its first waits in :attr:`Tally.waiting`), every engine's record against the
field, as first and as second player, by termination and in time use, and the crosstable,
whose cells (games and points of each pairing) are all that the Bradley-Terry fit needs.
:mod:`.summary` turns a tally into the summary; a summary of a list of games is the summary of
the tally of that list, so the live run and a recomputation from the results file agree.

>>> from engine import Outcome, Termination
>>> def game(no, pair, black, white, winner):
...     return GameResult(no, black, white, Outcome(winner, Termination.NORMAL, ""), pair=pair)
>>> tally = Tally(2)
>>> for result in [game(1, 1, 1, 2, 0), game(2, 1, 2, 1, None), game(3, 2, 1, 2, 1)]:
...     tally.add(result)
>>> tally.engines[0].wdl, tally.pentanomial, tally.pairs, sorted(tally.waiting)
([1, 1, 1], [0, 0, 0, 1, 0], 1, [2])
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from ..records.results import GameResult


@dataclass
class EngineTally:
    """One engine's counts against the field: ``wdl`` (wins, draws, losses); games and points
    as first and as second player; terminations of its wins, draws and losses, and those it
    was at fault for; timed moves, seconds used (all, and of games that give their move
    counts) and the least clock left after one of its moves."""

    wdl: list[int] = field(default_factory=lambda: [0, 0, 0])
    turns: list[list[float]] = field(default_factory=lambda: [[0, 0.0], [0, 0.0]])
    ended: dict[str, Counter] = field(default_factory=lambda: {
        "wins": Counter(), "draws": Counter(), "losses": Counter()})
    faults: Counter = field(default_factory=Counter)
    moves: int = 0
    seconds: float = 0.0
    timed_seconds: float = 0.0
    least_left: float = math.inf

    def add(self, result: GameResult, colour: int, score: float) -> None:
        """Count one game this engine played as ``colour`` and scored ``score`` in."""
        kind = 0 if score == 1 else 1 if score == 0.5 else 2
        self.wdl[kind] += 1
        turn = self.turns[0 if colour == result.first else 1]
        turn[0] += 1
        turn[1] += score
        self.ended[("wins", "draws", "losses")[kind]][result.termination.value] += 1
        if result.at_fault is not None and result.at_fault == colour:
            self.faults[result.termination.value] += 1
        used, made, left = result.used[colour], result.moves[colour], result.min_left[colour]
        self.seconds += used or 0.0
        if made is not None and used is not None:
            self.moves += made
            self.timed_seconds += used
        if left is not None:
            self.least_left = min(self.least_left, left)


class Tally:
    """The counts of a run among ``count`` engines (1-based indices); see the module docstring."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.games = 0
        self.unpaired = 0  # games without a pair number: the run is not played in pairs
        self.draws = 0
        self.first_points = 0.0
        self.terminations: Counter = Counter()
        self.engines = [EngineTally() for _ in range(count)]
        self.pentanomial = [0] * 5  # of the first engine, over complete pairs
        self.pairs = 0
        self.waiting: dict[int, GameResult] = {}  # first games of pairs, by pair number
        # cells[i][j]: [games, points of i] of engine i + 1 against engine j + 1
        self.cells = [[[0, 0.0] for _ in range(count)] for _ in range(count)]

    @classmethod
    def of(cls, results: Iterable[GameResult], count: int) -> Tally:
        """The tally of ``results`` among ``count`` engines."""
        tally = cls(count)
        for result in results:
            tally.add(result)
        return tally

    @property
    def paired(self) -> bool:
        """Whether the run plays game pairs: every game carries a pair number (and there is
        one); the headline then uses the pentanomial model."""
        return self.games > 0 and self.unpaired == 0

    @property
    def first_wdl(self) -> tuple[int, int, int]:
        """The first engine's wins, draws and losses against the field."""
        wins, draws, losses = self.engines[0].wdl if self.count else (0, 0, 0)
        return wins, draws, losses

    def add(self, result: GameResult) -> None:
        """Count one finished game (in any order; a pair counts once both its games are in)."""
        self.games += 1
        self.unpaired += result.pair is None
        self.draws += result.winner is None
        self.first_points += (0.5 if result.winner is None
                              else float(result.winner == result.first))
        self.terminations[result.termination.value] += 1
        for engine in (result.black, result.white):
            score = result.score_of(engine)
            self.engines[engine - 1].add(result, result.colour_of(engine), score)
            cell = self.cells[engine - 1][result.opponent_of(engine) - 1]
            cell[0] += 1
            cell[1] += score
        if result.pair is not None:
            partner = self.waiting.pop(result.pair, None)
            if partner is None:
                self.waiting[result.pair] = result
                return
            self.pairs += 1
            scores = (partner.score_of(1), result.score_of(1))
            if None not in scores:
                self.pentanomial[round(2 * (scores[0] + scores[1]))] += 1  # type: ignore[operator]
