"""Glicko-2 ratings (Mark Glickman, *Example of the Glicko-2 system*, 2013: glicko.net), as
lichess rates its players and bots: a rating, a deviation (how unsure the rating is) and a
volatility (how erratic the player's results are), updated after every game.

The ladder service uses it for the rating that moves after each game: a newcomer's deviation
starts high, so its first games move it far, and shrinks with every game; an account that stops
playing sees its deviation grow again with the idle time (:func:`idle`), so that its next
games count for more. Elo with a fixed K would move a newcomer as slowly as a veteran, and
CGOS's K shrinking with games never grows again for an engine that changed while away.

Steps 1 to 8 of Glickman's paper, the volatility by the Illinois algorithm of its step 5.
The paper's worked example: on its internal scale mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999
(which it shows as a rating of 1464.06 and a deviation of 151.52, from the rounded mu'):

>>> new = update(Glicko(1500, 200, 0.06),
...              [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)])
>>> round((new.rating - 1500) / SCALE, 4), round(new.deviation / SCALE, 4), new.volatility
(-0.2069, 0.8722, 0.05999598428664987)
>>> round(new.rating, 2), round(new.deviation, 2)
(1464.05, 151.52)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

# Glicko-2's internal scale: a rating's distance from 1500 divided by this.
SCALE = 400 / math.log(10)
# The system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2).
TAU = 0.5
EPSILON = 1e-6
# A newcomer's rating, deviation and volatility (Glickman's suggestion, as lichess starts).
NEW_RATING, NEW_DEVIATION, NEW_VOLATILITY = 1500.0, 350.0, 0.06


@dataclass(frozen=True)
class Glicko:
    """A rating on the Elo-like scale, its deviation, and its volatility."""

    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY

    @property
    def interval(self) -> tuple[float, float]:
        """Where the rating lies with 95 % confidence (two deviations either side)."""
        return self.rating - 2 * self.deviation, self.rating + 2 * self.deviation


def update(player: Glicko, games: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """``player`` after one rating period of ``games``, each ``(opponent before the period,
    player's score)``: 1 a win, 0.5 a draw, 0 a loss. No games: only the deviation grows."""
    mu, phi, sigma = _internal(player)
    if not games:
        return _external(mu, math.sqrt(phi ** 2 + sigma ** 2), sigma)
    gs, es = [], []
    for opponent, _ in games:
        mu_j, phi_j, _ = _internal(opponent)
        g = 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
        gs.append(g)
        es.append(1 / (1 + math.exp(-g * (mu - mu_j))))
    v = 1 / sum(g ** 2 * e * (1 - e) for g, e in zip(gs, es))
    gained = sum(g * (score - e) for g, e, (_, score) in zip(gs, es, games))
    sigma = _volatility(phi, sigma, v * gained, v, tau)
    phi = 1 / math.sqrt(1 / (phi ** 2 + sigma ** 2) + 1 / v)
    return _external(mu + phi ** 2 * gained, phi, sigma)


def idle(player: Glicko, periods: float) -> Glicko:
    """``player`` after ``periods`` rating periods without a game (a fraction allowed, as
    lichess counts the days since the last game): the deviation grows, at most back to a
    newcomer's."""
    mu, phi, sigma = _internal(player)
    phi = min(math.sqrt(phi ** 2 + periods * sigma ** 2), NEW_DEVIATION / SCALE)
    return _external(mu, phi, sigma)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """The new volatility: the root of Glickman's f by the Illinois algorithm (step 5)."""
    a = math.log(sigma ** 2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
                - (x - a) / tau ** 2)

    low = a
    if delta ** 2 > phi ** 2 + v:
        high = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)


def _internal(player: Glicko) -> tuple[float, float, float]:
    return ((player.rating - NEW_RATING) / SCALE, player.deviation / SCALE, player.volatility)


def _external(mu: float, phi: float, sigma: float) -> Glicko:
    return Glicko(NEW_RATING + SCALE * mu, SCALE * phi, sigma)
