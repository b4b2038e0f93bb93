"""Elo with Wilson's interval at any score, kept for ``scripts/strength.py``'s strength table.

The Elo difference of an engine against its opponent comes from its mean score per game ``mu``
(win 1, draw 1/2, loss 0) by the logistic model, ``-400 log10(1/mu - 1)``. The interval is the
Wilson score interval on ``mu`` at 95 %, each end turned into Elo: unlike the plain normal
interval it keeps a width at a perfect or a zero score (10 wins in 10 games: ``mu`` in
[0.72, 1]) and is sound for the few dozen games a strength table plays; with draws it errs on
the wide side. The likelihood of superiority is ``(1 + erf((W - L) / sqrt(2 (W + L)))) / 2``,
draws not counting. A run's figures are :func:`referee.stats.summarize`'s (the variance of the
scores, Wilson's interval only where they have no spread); this module goes once
``scripts/strength.py`` reads those.

>>> estimate = elo_estimate(wins=6, losses=2, draws=2)
>>> round(estimate.elo, 1), round(estimate.los, 3)
(147.2, 0.921)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .elo import score_to_elo, wilson_interval


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference, the ends of its 95 % interval, and the likelihood of superiority."""

    elo: float
    lower: float
    upper: float
    los: float


def elo_estimate(wins: int, losses: int, draws: int) -> EloEstimate | None:
    """The estimate for a score of ``wins``/``losses``/``draws``; ``None`` without games."""
    games = wins + losses + draws
    if games == 0:
        return None
    mu = (wins + draws / 2) / games
    lower, upper = wilson_interval(mu, games)
    decisive = wins + losses
    los = 0.5 if decisive == 0 else 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * decisive)))
    return EloEstimate(score_to_elo(mu), score_to_elo(lower), score_to_elo(upper), los)
