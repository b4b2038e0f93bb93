"""Ratings of several engines by maximum likelihood over all games (Bradley-Terry), as Ordo
and BayesElo compute them, with error bars from the Fisher information.

Model (Bradley and Terry 1952, in Elo units): engine ``i`` scores against ``j`` with
expectation ``P_ij = 1 / (1 + 10^((r_j - r_i) / 400))``. A draw counts as half a win and half
a loss (Ordo's default; BayesElo instead fits a separate draw parameter), so the
log-likelihood is ``sum over games of s ln P_ij + (1 - s) ln(1 - P_ij)`` with ``s`` the score
of ``i``. It is concave; Newton's method finds its maximum, where every engine's expected
score equals its actual score (``sum_j n_ij P_ij = S_i``). Only differences are determined: the
ratings are shifted so that their mean is 0, or so that the anchor (``--anchor NAME=ELO``)
has its given rating.

The maximum exists when the engines cannot be split into two groups one of which scored
nothing against the other (Zermelo 1929; e.g. an engine that won every game). Otherwise,
as BayesElo does with its prior, one virtual draw is added between every two engines that
met, and the result says so (``virtual_draws``).

Error bars: the covariance of the ratings is the inverse of the Fisher information, the
negative Hessian ``H = sum over games of P_ij (1 - P_ij) (e_i - e_j)(e_i - e_j)^T`` (natural
units, ``(400 / ln 10)^2`` to Elo^2). Relative to the mean it is the pseudo-inverse of ``H``;
relative to an anchor, the inverse of ``H`` without the anchor's row and column (the anchor's
own error is then 0). The printed ``+/-`` is 1.96 standard deviations. Counting a draw as a
Bernoulli half point overstates the variance of drawish games, so these bars err on the
wide side.

Worked example (Elo differences of 400 log10 2 = 120.41 make the expected scores 2/3, 2/3 and
4/5 equal to the actual ones):

>>> from engine import Termination
>>> games = [(1, 2, 1.0), (1, 2, 1.0), (1, 2, 0.0), (2, 3, 1.0), (2, 3, 1.0), (2, 3, 0.0),
...          (1, 3, 1.0), (1, 3, 1.0), (1, 3, 1.0), (1, 3, 1.0), (1, 3, 0.0)]
>>> table = fit_ratings(games, 3)
>>> [round(rating.elo, 2) for rating in table.ratings]
[120.41, 0.0, -120.41]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from .elo import Z_95

ELO_PER_NATURAL = 400 / math.log(10)


@dataclass(frozen=True)
class Rating:
    """One engine's rating (Elo) and the half-width of its 95 % interval."""

    engine: int
    elo: float
    error: float


@dataclass(frozen=True)
class RatingTable:
    """The ratings of engines 1..n, and how many virtual draws per pairing were added."""

    ratings: list[Rating]
    virtual_draws: int
    anchor: int | None


def fit_ratings(games: Sequence[tuple[int, int, float]], count: int,
                anchor: tuple[int, float] | None = None) -> RatingTable | None:
    """Ratings of engines ``1..count`` from ``(i, j, score of i)`` games; ``anchor`` is
    ``(engine, elo)``. ``None`` when some engines are not connected by games at all."""
    cells = [[[0, 0.0] for _ in range(count)] for _ in range(count)]
    for i, j, score in games:
        for me, other, points in ((i, j, score), (j, i, 1 - score)):
            cell = cells[me - 1][other - 1]
            cell[0] += 1
            cell[1] += points
    return fit_pairings(cells, anchor)


def fit_pairings(cells: Sequence[Sequence[Sequence[float]]],
                 anchor: tuple[int, float] | None = None) -> RatingTable | None:
    """:func:`fit_ratings` from the games and points of each pairing: ``cells[i][j]`` is
    ``(games, points of i)`` of engine ``i + 1`` against engine ``j + 1`` (all a fit needs,
    so that a running tally of them serves any number of games)."""
    count = len(cells)
    totals = [[float(cells[i][j][0]), float(cells[i][j][1])]
              for i in range(count) for j in range(count)]
    met = [[totals[i * count + j][0] > 0 for j in range(count)] for i in range(count)]
    if not _connected(met, lambda i, j: met[i][j]):
        return None
    virtual = 0
    if not _connected(met, lambda i, j: totals[i * count + j][1] > 0):
        virtual = 1
        for i in range(count):
            for j in range(count):
                if met[i][j]:
                    totals[i * count + j][0] += 1
                    totals[i * count + j][1] += 0.5
    strength = _maximize(totals, count)
    information = _information(totals, strength, count)
    if anchor is None:
        centre, base = sum(strength) / count, 0.0
        variance = _diagonal_of_pseudo_inverse(information)
    else:  # the anchor's rating is exactly the one given, not the one given give or take
        index, base = anchor[0] - 1, anchor[1]
        centre = strength[index]
        variance = _diagonal_without(information, index)
    ratings = [Rating(engine + 1, (strength[engine] - centre) * ELO_PER_NATURAL + base,
                      Z_95 * math.sqrt(max(0.0, variance[engine])) * ELO_PER_NATURAL)
               for engine in range(count)]
    return RatingTable(ratings, virtual, None if anchor is None else anchor[0])


def _connected(met: list[list[bool]], edge) -> bool:
    """Whether every engine reaches every other along ``edge(i, j)`` (i scored against j)."""
    count = len(met)
    for start in range(count):
        seen, stack = {start}, [start]
        while stack:
            i = stack.pop()
            for j in range(count):
                if j not in seen and edge(i, j):
                    seen.add(j)
                    stack.append(j)
        if len(seen) < count:
            return False
    return True


def _expected(strength: Sequence[float], i: int, j: int) -> float:
    return 1.0 / (1.0 + math.exp(strength[j] - strength[i]))


def _maximize(totals: list[list[float]], count: int) -> list[float]:
    """Newton's method on the log-likelihood in natural units, ratings kept at mean 0."""
    strength = [0.0] * count
    for _ in range(100):
        gradient = [0.0] * count
        for i in range(count):
            for j in range(count):
                games, score = totals[i * count + j]
                if games:
                    gradient[i] += score - games * _expected(strength, i, j)
        hessian = _information(totals, strength, count)
        # H has the constant vector in its kernel; adding 1/n J fixes the mean at 0.
        step = solve_linear([[value + 1.0 / count for value in row] for row in hessian], gradient)
        largest = max(abs(delta) for delta in step)
        if largest > 1.0:   # far from the maximum: damp the step (1 natural unit, 174 Elo)
            step = [delta / largest for delta in step]
        strength = [value + delta for value, delta in zip(strength, step)]
        if max(abs(delta) for delta in step) < 1e-12:
            break
    return strength


def _information(totals: list[list[float]], strength: Sequence[float], count: int
                 ) -> list[list[float]]:
    """The Fisher information (negative Hessian of the log-likelihood)."""
    matrix = [[0.0] * count for _ in range(count)]
    for i in range(count):
        for j in range(count):
            games = totals[i * count + j][0]
            if games and i != j:
                p = _expected(strength, i, j)
                matrix[i][j] -= games * p * (1 - p)
                matrix[i][i] += games * p * (1 - p)
    return matrix


def solve_linear(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with ``matrix`` x = ``vector`` (small dense, non-singular systems;
    ``scripts/fit_laocoon.py`` uses it too)."""
    rows = [list(row) + [value] for row, value in zip(matrix, vector)]
    _gauss_jordan(rows)
    return [row[-1] for row in rows]


def _gauss_jordan(rows: list[list[float]]) -> None:
    """Reduce the augmented rows ``[A | B]`` (``A`` square) in place to ``[I | A^-1 B]``, by
    Gauss-Jordan elimination with partial pivoting. Each step works on whole rows at once
    (list comprehensions), so that a fit of 300 accounts takes seconds, not minutes."""
    size = len(rows)
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column]
        scale = lead[column]
        lead[column:] = tail = [value / scale for value in lead[column:]]
        for r in range(size):
            factor = rows[r][column]
            if r != column and factor:
                row = rows[r]
                row[column:] = [value - factor * other for value, other in zip(row[column:], tail)]


def _inverse_diagonal(matrix: list[list[float]]) -> list[float]:
    """The diagonal of ``matrix``'s inverse, from one elimination of ``[matrix | I]``."""
    size = len(matrix)
    rows = [list(row) + [float(r == c) for c in range(size)] for r, row in enumerate(matrix)]
    _gauss_jordan(rows)
    return [rows[r][size + r] for r in range(size)]


def _diagonal_of_pseudo_inverse(matrix: list[list[float]]) -> list[float]:
    """For a Laplacian-like ``H`` (rows summing to 0): ``H^+ = (H + J/n)^-1 - J/n``."""
    size = len(matrix)
    shifted = [[value + 1.0 / size for value in row] for row in matrix]
    return [value - 1.0 / size for value in _inverse_diagonal(shifted)]


def _diagonal_without(matrix: list[list[float]], index: int) -> list[float]:
    """The diagonal of the inverse of ``matrix`` without row and column ``index`` (0 there)."""
    keep = [i for i in range(len(matrix)) if i != index]
    reduced = _inverse_diagonal([[matrix[i][j] for j in keep] for i in keep])
    diagonal = [0.0] * len(matrix)
    for position, i in enumerate(keep):
        diagonal[i] = reduced[position]
    return diagonal

