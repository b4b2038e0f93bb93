"""Counting results: trinomial (wins, draws, losses) and pentanomial (game pairs) counts.

A pair is the two games sharing a ``pair`` number: the same two engines, the same opening,
colours swapped. Only complete pairs count; a pair with one game finished (the other in
flight, or lost to an interrupted run) is left out until its second game ends, as fastchess
and fishtest do, so that its one game does not enter the pentanomial as a half pair.

>>> from engine import Termination
>>> def game(no, pair, black, white, winner):
...     return GameResult(no, black, white, winner, Termination.NORMAL, pair=pair)
>>> results = [game(1, 1, 1, 2, 0), game(2, 1, 2, 1, None),    # engine 1: win, draw -> 3/2
...            game(3, 2, 1, 2, 1), game(4, 2, 2, 1, 0),       # loss, loss -> 0
...            game(5, 3, 1, 2, 0)]                            # pair 3 not complete
>>> wdl(results, 1), pentanomial(results, 1)
((2, 1, 2), [1, 0, 0, 1, 0])
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Sequence

from ..records.results import GameResult


def wdl(results: Iterable[GameResult], engine: int, opponent: int | None = None
        ) -> tuple[int, int, int]:
    """``(wins, draws, losses)`` of ``engine`` (1-based), against ``opponent`` or the field."""
    counts = [0, 0, 0]
    for result in results:
        score = result.score_of(engine)
        if score is None or (opponent is not None and result.opponent_of(engine) != opponent):
            continue
        counts[0 if score == 1 else 1 if score == 0.5 else 2] += 1
    return counts[0], counts[1], counts[2]


def complete_pairs(results: Iterable[GameResult]) -> list[tuple[GameResult, GameResult]]:
    """The pairs whose two games are both in ``results``, in pair order."""
    by_pair: dict[int, list[GameResult]] = defaultdict(list)
    for result in results:
        if result.pair is not None:
            by_pair[result.pair].append(result)
    return [(games[0], games[1]) for _, games in sorted(by_pair.items()) if len(games) == 2]


def pentanomial(results: Iterable[GameResult], engine: int) -> list[int]:
    """``[n0, n1, n2, n3, n4]``: complete pairs in which ``engine`` scored 0, 1/2, 1, 3/2, 2."""
    counts = [0] * 5
    for first, second in complete_pairs(results):
        scores = (first.score_of(engine), second.score_of(engine))
        if None not in scores:
            counts[round(2 * (scores[0] + scores[1]))] += 1  # type: ignore[operator]
    return counts


def is_paired(results: Sequence[GameResult]) -> bool:
    """Whether the run plays game pairs: every game carries a pair number (and there is one)."""
    return bool(results) and all(result.pair is not None for result in results)
