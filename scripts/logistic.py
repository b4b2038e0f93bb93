"""Logistic regression of a game's result on evaluation terms, for the weight-fitting scripts.

``scripts/fit_laocoon.py`` (terms against the results of played games) and
``scripts/fit_domineering.py`` (terms against the exact solver's verdicts) both ask the same
question: which weights make ``intercept + sum(weight * term)`` the log-odds that the side to
move wins. A sample is ``(values, won)``: the terms of one position and 1 if the side to move
won, else 0. Standard library and the referee's linear solver only, so that it runs under PyPy
(the scripts that import it put the project on the path).
"""

from __future__ import annotations

import math

from referee.stats.ratings import solve_linear


def probability(score: float) -> float:
    """The probability a score in log-odds stands for (clamped, so that exp cannot overflow)."""
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, score))))


def fit(samples, active: list[int], size: int, ridge: float = 1e-3, rounds: int = 25):
    """Intercept and weights (``size`` of them, 0 outside the columns ``active``) of a logistic
    regression by Newton's method, with a small ridge on the weights (not the intercept) for
    terms that barely vary, which also keeps the system each step solves non-singular."""
    k = len(active) + 1
    beta = [0.0] * k
    for _ in range(rounds):
        gradient = [0.0] * k
        hessian = [[0.0] * k for _ in range(k)]
        for values, won in samples:
            x = [1.0] + [values[c] for c in active]
            p = probability(sum(b * v for b, v in zip(beta, x)))
            error, weight = p - won, p * (1 - p)
            for i in range(k):
                gradient[i] += error * x[i]
                row = hessian[i]
                wi = weight * x[i]
                for j in range(i, k):
                    row[j] += wi * x[j]
        for i in range(k):
            for j in range(i):
                hessian[i][j] = hessian[j][i]
            if i:
                hessian[i][i] += ridge * len(samples)
                gradient[i] += ridge * len(samples) * beta[i]
        step = solve_linear(hessian, gradient)
        beta = [b - s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    weights = [0.0] * size
    for c, b in zip(active, beta[1:]):
        weights[c] = b
    return beta[0], weights


def measures(samples, intercept: float, weights) -> tuple[float, float]:
    """Mean log-loss, and the share of winners the sign of the score predicts (a score of 0
    counts half)."""
    loss = right = 0.0
    for values, won in samples:
        score = intercept + sum(w * v for w, v in zip(weights, values))
        p = probability(score)
        loss -= math.log(p if won else 1 - p)
        right += 0.5 if score == 0 else float((score > 0) == bool(won))
    return loss / len(samples), right / len(samples)
