"""The generalized sequential probability ratio test (GSPRT) that fishtest and fastchess run.

H0: the first engine is ``elo0`` stronger; H1: it is ``elo1`` stronger (``elo0 < elo1``). The
results are a multinomial sample: trinomial counts of games, or pentanomial counts of game
pairs. For each hypothesis the distribution is the maximum-likelihood one among those
satisfying it (Van den Bergh, "Comments on Normalized Elo", cantate.be/Fishtest/
normalized_elo_practical.pdf, Prop. 1.1 and Sec. 4.1; fishtest ``stats/LLRcalc.py``; fastchess
``sprt.cpp``); the log-likelihood ratio is

    LLR = N * sum_i p^_i (ln p1_i - ln p0_i)

with ``p^`` the observed frequencies over ``N`` units, a count of zero replaced by 1e-3 (so
that the maximum-likelihood distributions exist; N sums the replaced counts, as both do).

- ``logistic``: the hypothesis fixes the expected score per game ``s = 1/(1+10^(-elo/400))``;
  the closest distribution is ``p_i = p^_i / (1 + theta (a_i - s))`` with ``theta`` solving
  ``sum_i p^_i (a_i - s) / (1 + theta (a_i - s)) = 0`` (``a_i`` the unit's score per game).
- ``normalized``: it fixes ``t = (mu - 1/2) / sigma`` (sigma of the unit's score), with
  ``t = nelo / (800 / ln 10)`` for games and ``sqrt(2)`` times that for pairs; the same form with
  ``a_i - s`` replaced by ``phi_i = a_i - 1/2 - t sigma (1 + ((a_i - mu) / sigma)^2) / 2``,
  ``mu`` and ``sigma`` those of the previous iterate, repeated from the uniform distribution
  until it settles.

The test stops for H1 once ``LLR >= ln((1 - beta) / alpha)`` and for H0 once
``LLR <= ln(beta / (1 - alpha))`` (Wald's bounds).

>>> settings = SprtSettings(elo0=0, elo1=2)
>>> [round(bound, 2) for bound in settings.bounds]
[-2.94, 2.94]
>>> round(settings.llr([365, 16618, 36229, 16974, 390]), 2)   # fastchess sprt_test.cpp
2.25
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from .elo import NELO_SCALE, elo_to_score

MODELS = ("normalized", "logistic")
REGULARIZATION = 1e-3
_SCORES = {3: (0.0, 0.5, 1.0), 5: (0.0, 0.25, 0.5, 0.75, 1.0)}


class SprtError(ValueError):
    """Bad SPRT settings; the message is one line for the user."""


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses (``elo0 < elo1``, in logistic or normalized Elo as ``model`` says) and
    the error rates: ``alpha`` accepting H1 when H0 holds, ``beta`` the reverse."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise SprtError(f"--sprt: elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 1:
                raise SprtError(f"--sprt: {name} must lie between 0 and 1, "
                                f"not {getattr(self, name):g}")
        if self.alpha + self.beta >= 1:
            raise SprtError("--sprt: alpha + beta must be below 1")
        if self.model not in MODELS:
            raise SprtError(f"--sprt: model must be {' or '.join(MODELS)}, not {self.model!r}")

    @property
    def bounds(self) -> tuple[float, float]:
        """``(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))``: H0 below, H1 above."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, counts: Sequence[int]) -> float:
        """The LLR of ``counts``: ``[wins, draws, losses]`` of the first engine (3 counts) or its
        pentanomial ``[n0, n1, n2, n3, n4]`` (5 counts)."""
        if len(counts) == 3:
            wins, draws, losses = counts
            counts = (losses, draws, wins)
        return llr(counts, self.elo0, self.elo1, self.model)

    def verdict(self, value: float) -> str | None:
        """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower, else ``None``."""
        lower, upper = self.bounds
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None


def llr(counts: Sequence[int], elo0: float, elo1: float, model: str = "normalized") -> float:
    """The log-likelihood ratio of H1 against H0 for counts ordered from the worst unit score
    up: ``[losses, draws, wins]`` of games or ``[n0 .. n4]`` of pairs (see the module text).

    >>> round(llr([253, 4282, 17604, 4431, 286], -0.25, 1.25, "logistic"), 2)  # Stockfish PR 3209
    2.94
    """
    scores = _SCORES.get(len(counts))
    if scores is None:
        raise ValueError(f"3 or 5 counts are needed, not {len(counts)}")
    regular = [count if count > 0 else REGULARIZATION for count in counts]
    total = sum(regular)
    observed = [count / total for count in regular]
    if model == "logistic":
        p0 = _mle_expected(scores, observed, elo_to_score(elo0))
        p1 = _mle_expected(scores, observed, elo_to_score(elo1))
    elif model == "normalized":
        scale = NELO_SCALE if len(counts) == 3 else NELO_SCALE / math.sqrt(2)
        p0 = _mle_t_value(scores, observed, elo0 / scale)
        p1 = _mle_t_value(scores, observed, elo1 / scale)
    else:
        raise ValueError(f"unknown SPRT model {model!r}")
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(observed, p0, p1))


def _secular(terms: Sequence[float], weights: Sequence[float]) -> float:
    """The root ``x`` of ``sum_i w_i c_i / (1 + x c_i) = 0`` between ``-1/max c`` and
    ``-1/min c`` (it needs ``min c < 0 < max c``): Newton's method kept inside a shrinking
    bracket (the function decreases), bisecting when a step would leave it."""
    low, high = -1.0 / max(terms), -1.0 / min(terms)
    x = 0.0
    for _ in range(200):
        value = sum(w * c / (1 + x * c) for w, c in zip(weights, terms))
        if value > 0:
            low = x
        else:
            high = x
        slope = -sum(w * c * c / (1 + x * c) ** 2 for w, c in zip(weights, terms))
        step = x - value / slope if slope else (low + high) / 2
        if not low < step < high:
            step = (low + high) / 2
        if abs(step - x) <= 1e-15 * max(1.0, abs(x)):
            return step
        x = step
    return x


def _mle_expected(scores: Sequence[float], observed: Sequence[float], s: float) -> list[float]:
    """The distribution closest to ``observed`` (maximum likelihood) with mean score ``s``."""
    terms = [a - s for a in scores]
    theta = _secular(terms, observed)
    return [p / (1 + theta * c) for p, c in zip(observed, terms)]


def _mle_t_value(scores: Sequence[float], observed: Sequence[float], t: float) -> list[float]:
    """The distribution closest to ``observed`` with ``(mu - 1/2) / sigma = t``.

    Van den Bergh's fixed-point iteration needs a start near the answer: far from it (a
    one-sided match tested against distant bounds) the linearized constraint may have no
    solution. So the target is approached by continuation from the observed distribution
    itself (which has its own t), halving the step in t whenever the iteration fails.
    """
    current = list(observed)
    reached = _t_value(scores, current)
    step = t - reached
    while reached != t:
        target = t if abs(step) >= abs(t - reached) else reached + step
        following = _iterate_t_value(scores, observed, target, current)
        if following is None:
            step /= 2
            if abs(step) < 1e-12:
                raise ArithmeticError(f"no distribution found with t-value {t}")
            continue
        current, reached, step = following, target, 2 * step
    return current


def _t_value(scores: Sequence[float], pdf: Sequence[float]) -> float:
    mu = sum(a * p for a, p in zip(scores, pdf))
    return (mu - 0.5) / math.sqrt(sum(p * (a - mu) ** 2 for a, p in zip(scores, pdf)))


def _iterate_t_value(scores: Sequence[float], observed: Sequence[float], t: float,
                     current: list[float]) -> list[float] | None:
    """Van den Bergh's iteration from ``current`` (Sec. 4.1): freeze mu and sigma, solve the
    linear constraint sum p_i phi_i = 0 like the logistic case, repeat; ``None`` if it fails."""
    for _ in range(100):
        mu = sum(a * p for a, p in zip(scores, current))
        sigma = math.sqrt(sum(p * (a - mu) ** 2 for a, p in zip(scores, current)))
        terms = [a - 0.5 - t * sigma * (1 + ((a - mu) / sigma) ** 2) / 2 for a in scores]
        if not min(terms) < 0 < max(terms):
            return None
        theta = _secular(terms, observed)
        following = [p / (1 + theta * c) for p, c in zip(observed, terms)]
        if not all(p > 0 for p in following):
            return None
        change = max(abs(a - b) for a, b in zip(current, following))
        current = following
        if change < 1e-12:
            return current
    return None

