"""Elo from the distribution of scores, as fastchess's ``elo/`` computes it: one module per
model (:mod:`.wdl`: games, :mod:`.pentanomial`: game pairs), one estimator shared by both.

Each unit (a game, or a pair of games with colours swapped) gives a score per game ``x_i``
(a game: 0, 1/2, 1; a pair: 0, 1/4, 1/2, 3/4, 1) with observed frequency ``p_i = n_i / N``.
Then, with ``k`` games per unit and ``C = 800 / ln 10`` (Van den Bergh, "Comments on
Normalized Elo"; fastchess ``elo_wdl.cpp``/``elo_pentanomial.cpp``):

- mean score ``mu = sum p_i x_i``, variance per unit ``var = sum p_i (x_i - mu)^2``, standard
  error ``se = sqrt(var / N)``;
- Elo ``-400 log10(1/mu - 1)``; its 95 % interval is ``mu -+ 1.96 se`` turned into Elo, and
  the ``+/-`` printed is half that interval's width;
- normalized Elo ``nElo = C (mu - 1/2) / sigma`` where ``sigma = sqrt(k var)`` is the standard
  deviation of the score per game; its ``+/-`` is ``1.96 C / sqrt(k N)``;
- likelihood of superiority ``LOS = Phi((mu - 1/2) / se)``, the normal approximation.

A score of 0 or 1, or an interval end beyond them, gives an infinite Elo; a distribution with
no spread (every unit scored the same) an infinite or undefined nElo (``nan``). The summary
writes such values as ``null``.

With no spread the normal interval has no width at all (20 wins in 20 games would claim
``[+inf, +inf]``), which no one should trust. There the interval is Wilson's score interval
for a proportion ``mu`` over ``N`` units instead, ``(mu + z^2/2N -+ z sqrt(mu (1 - mu)/N +
z^2/4N^2)) / (1 + z^2/N)``, which keeps a finite end: 10 perfect pairs give a score in
``[0.722, 1]``, at least +166 Elo.

>>> e = estimate([0.0, 0.25, 0.5, 0.75, 1.0], [0, 0, 0, 0, 10], games_per_unit=2)
>>> round(e.elo_low, 1), e.elo_high
(166.2, inf)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

Z_95 = 1.959963984540054
NELO_SCALE = 800 / math.log(10)


def score_to_elo(mu: float) -> float:
    """The logistic Elo difference whose expected score is ``mu``; infinite at 0 and 1.

    >>> score_to_elo(0.5), round(score_to_elo(0.75), 2), score_to_elo(1.0)
    (0.0, 190.85, inf)
    """
    if mu <= 0.0:
        return -math.inf
    if mu >= 1.0:
        return math.inf
    return 400.0 * math.log10(mu / (1.0 - mu))


def elo_to_score(elo: float) -> float:
    """The expected score of a side ``elo`` points stronger: ``1 / (1 + 10^(-elo/400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class Estimate:
    """Figures of one model over ``units`` units (games or pairs) of ``games`` games."""

    units: int
    games: int
    score: float
    variance: float
    elo: float
    elo_low: float
    elo_high: float
    nelo: float
    nelo_error: float
    los: float

    @property
    def elo_error(self) -> float:
        """Half the width of the 95 % interval, fastchess's ``+/-``."""
        return (self.elo_high - self.elo_low) / 2


def estimate(values: Sequence[float], counts: Sequence[int], games_per_unit: int
             ) -> Estimate | None:
    """The estimate from ``counts[i]`` units of score per game ``values[i]``; ``None`` when
    there are no units."""
    units = sum(counts)
    if units == 0:
        return None
    mu = sum(value * count for value, count in zip(values, counts)) / units
    var = sum(count * (value - mu) ** 2 for value, count in zip(values, counts)) / units
    se = math.sqrt(var / units)
    sigma = math.sqrt(games_per_unit * var)
    if sigma > 0:
        nelo = NELO_SCALE * (mu - 0.5) / sigma
    else:
        nelo = math.nan if mu == 0.5 else math.copysign(math.inf, mu - 0.5)
    if se > 0:
        los = 0.5 * (1 + math.erf((mu - 0.5) / (se * math.sqrt(2))))
    else:
        los = 0.5 if mu == 0.5 else float(mu > 0.5)
    low, high = (mu - Z_95 * se, mu + Z_95 * se) if var > 0 else wilson_interval(mu, units)
    return Estimate(units=units, games=units * games_per_unit, score=mu, variance=var,
                    elo=score_to_elo(mu), elo_low=score_to_elo(low),
                    elo_high=score_to_elo(high), nelo=nelo,
                    nelo_error=Z_95 * NELO_SCALE / math.sqrt(games_per_unit * units), los=los)


def wilson_interval(mu: float, units: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``mu`` observed over ``units`` trials.

    >>> [round(end, 3) for end in wilson_interval(1.0, 10)]
    [0.722, 1.0]
    """
    z2 = Z_95 * Z_95
    scale = 1 + z2 / units
    centre = (mu + z2 / (2 * units)) / scale
    half = Z_95 * math.sqrt(mu * (1 - mu) / units + z2 / (4 * units * units)) / scale
    # At a score of exactly 0 or 1 that end is exact; keep round-off from moving it.
    low = 0.0 if mu == 0.0 else max(0.0, centre - half)
    high = 1.0 if mu == 1.0 else min(1.0, centre + half)
    return low, high
