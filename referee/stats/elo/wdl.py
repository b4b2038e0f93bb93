"""The trinomial model: each game on its own, scored 0, 1/2 or 1 (fastchess ``EloWDL``).

>>> e = wdl_estimate(wins=136, draws=111, losses=96)   # fastchess's elo_test.cpp, EloWDL 2
>>> round(e.elo, 2), round(e.elo_error, 2), round(e.nelo, 2), round(e.nelo_error, 2)
(40.7, 30.43, 49.77, 36.77)
"""

from __future__ import annotations

from . import Estimate, estimate

GAME_SCORES = (0.0, 0.5, 1.0)


def wdl_estimate(wins: int, draws: int, losses: int) -> Estimate | None:
    """Elo, nElo and LOS from the wins, draws and losses of one side; ``None`` without games."""
    return estimate(GAME_SCORES, (losses, draws, wins), games_per_unit=1)
