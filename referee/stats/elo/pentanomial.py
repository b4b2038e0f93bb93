"""The pentanomial model: game pairs with colours swapped, scored 0, 1/2, 1, 3/2 or 2 points
(fastchess ``EloPentanomial``; Van den Bergh's ``pentanomial``). Both games of a pair start
from the same opening, so their results are correlated; the variance of the pair score is
then smaller than twice a game's, and the interval narrower than the trinomial one.

>>> e = pentanomial_estimate([34, 54, 63, 64, 75])   # fastchess's elo_test.cpp, EloPentanomial 1
>>> round(e.elo, 2), round(e.elo_error, 2), round(e.nelo, 2), round(e.nelo_error, 2)
(55.58, 27.65, 57.94, 28.28)
"""

from __future__ import annotations

from typing import Sequence

from . import Estimate, estimate

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)   # points per game of a pair scoring 0 .. 2


def pentanomial_estimate(counts: Sequence[int]) -> Estimate | None:
    """Elo, nElo and LOS from ``[n0, n1, n2, n3, n4]``: the pairs in which the side scored
    0, 1/2, 1, 3/2 and 2 points; ``None`` without pairs."""
    if len(counts) != 5:
        raise ValueError(f"a pentanomial has 5 counts, not {len(counts)}")
    return estimate(PAIR_SCORES, counts, games_per_unit=2)
