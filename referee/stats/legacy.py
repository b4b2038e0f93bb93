"""Standings from game results: wins, losses, draws, score, Elo with its 95 % interval, LOS.

The Elo difference of an engine against its opponents (the other engine of a match, the field
of a round robin) comes from its mean score per game ``mu`` (win 1, draw 1/2, loss 0) by the
logistic model, ``-400 log10(1/mu - 1)``. The interval is the Wilson score interval on ``mu``
at 95 %, each end turned into Elo: unlike the plain normal interval it keeps a width at a
perfect or a zero score (10 wins in 10 games: ``mu`` in [0.72, 1]) and is sound for the few
dozen games engine testers often play; with draws it errs on the wide side. The likelihood
of superiority is ``(1 + erf((W - L) / sqrt(2 (W + L)))) / 2``, draws not counting.

>>> estimate = elo_estimate(wins=6, losses=2, draws=2)
>>> round(estimate.elo, 1), round(estimate.los, 3)
(147.2, 0.921)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

Z_95 = 1.959963984540054


def elo_difference(mu: float) -> float:
    """The Elo difference that makes ``mu`` the expected score; infinite at 0 and 1.

    >>> elo_difference(0.5), round(elo_difference(0.75), 2)
    (0.0, 190.85)
    """
    if mu <= 0.0:
        return -math.inf
    if mu >= 1.0:
        return math.inf
    return 400.0 * math.log10(mu / (1.0 - mu))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference, the ends of its 95 % interval, and the likelihood of superiority."""

    elo: float
    lower: float
    upper: float
    los: float

    @property
    def margin(self) -> float:
        """Half the interval's width (infinite when an end is)."""
        return (self.upper - self.lower) / 2


def elo_estimate(wins: int, losses: int, draws: int) -> EloEstimate | None:
    """The estimate for a score of ``wins``/``losses``/``draws``; ``None`` without games."""
    games = wins + losses + draws
    if games == 0:
        return None
    mu = (wins + draws / 2) / games
    lower, upper = wilson_interval(mu, games)
    decisive = wins + losses
    los = 0.5 if decisive == 0 else 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * decisive)))
    return EloEstimate(elo_difference(mu), elo_difference(lower), elo_difference(upper), los)


def wilson_interval(mu: float, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a mean score ``mu`` over ``games`` games.

    >>> [round(end, 3) for end in wilson_interval(1.0, 10)]
    [0.722, 1.0]
    """
    z2 = Z_95 * Z_95
    scale = 1 + z2 / games
    centre = (mu + z2 / (2 * games)) / scale
    half = Z_95 * math.sqrt(mu * (1 - mu) / games + z2 / (4 * games * games)) / scale
    # At a zero or perfect score one end is exactly 0 or 1; keep round-off from moving it.
    lower = 0.0 if mu == 0.0 else max(0.0, centre - half)
    upper = 1.0 if mu == 1.0 else min(1.0, centre + half)
    return lower, upper


@dataclass
class Standing:
    """One engine's games so far."""

    index: int
    name: str
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    @property
    def estimate(self) -> EloEstimate | None:
        return elo_estimate(self.wins, self.losses, self.draws)


def standings(rows: Iterable[Mapping[str, Any]], names: Sequence[str]) -> list[Standing]:
    """Every engine's tally from results rows, best score first (then command-line order);
    ``names[i]`` is the engine with index ``i + 1``."""
    table = [Standing(index + 1, name) for index, name in enumerate(names)]
    for row in rows:
        black, white = table[row["black_index"] - 1], table[row["white_index"] - 1]
        if row["result"] == "0":
            black.draws += 1
            white.draws += 1
        else:
            winner = black if row["result"] == "B+" else white
            loser = white if winner is black else black
            winner.wins += 1
            loser.losses += 1
    return sorted(table, key=lambda standing: (-standing.score, standing.index))


def terminations(rows: Iterable[Mapping[str, Any]]) -> Counter:
    """How many games ended in each way (the ``termination`` field)."""
    return Counter(row["termination"] for row in rows)


def crosstable(rows: Iterable[Mapping[str, Any]], names: Sequence[str]) -> str:
    """Each engine's score against each other engine (``score/games``), in command-line order.

    >>> print(crosstable([{"black_index": 1, "white_index": 3, "result": "0"}], "abc"))
     #  engine  1      2      3
     1  a       -             0.5/1
     2  b              -
     3  c       0.5/1         -
    """
    count = len(names)
    scores = [[[0.0, 0] for _ in range(count)] for _ in range(count)]
    for row in rows:
        black, white = row["black_index"] - 1, row["white_index"] - 1
        black_score = {"B+": 1.0, "W+": 0.0}.get(row["result"], 0.5)
        for me, other, score in ((black, white, black_score), (white, black, 1 - black_score)):
            scores[me][other][0] += score
            scores[me][other][1] += 1
    cells = [["-" if other == me else (f"{score:g}/{games}" if games else "")
              for other, (score, games) in enumerate(scores[me])] for me in range(count)]
    cell_width = max(len(cell) for line in cells + [[str(count)]] for cell in line)
    width = max([len("engine")] + [len(name) for name in names])
    header = [str(index) for index in range(1, count + 1)]
    lines = [f"{'#':>2}  {'engine':<{width}}  "
             + "  ".join(f"{cell:<{cell_width}}" for cell in header)]
    for me, name in enumerate(names):
        lines.append(f"{me + 1:>2}  {name:<{width}}  "
                     + "  ".join(f"{cell:<{cell_width}}" for cell in cells[me]))
    return "\n".join(line.rstrip() for line in lines)


def _signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}"


def format_standings(table: Sequence[Standing], ended: Mapping[str, int]) -> str:
    """The standings as a text table, then the terminations by kind."""
    width = max([len("engine")] + [len(standing.name) for standing in table])
    lines = [f"{'#':>2}  {'engine':<{width}}  {'games':>5} {'wins':>5} {'losses':>6} "
             f"{'draws':>5} {'score':>6} {'%':>6}  {'elo':>7}  {'95% interval':>17}  {'los':>6}"]
    for rank, standing in enumerate(table, 1):
        estimate = standing.estimate
        share = f"{100 * standing.score / standing.games:.1f}" if standing.games else "-"
        if estimate is None:
            elo, interval, los = "-", "-", "-"
        else:
            elo = _signed(estimate.elo)
            interval = f"[{_signed(estimate.lower)}, {_signed(estimate.upper)}]"
            los = f"{100 * estimate.los:.1f}%"
        lines.append(f"{rank:>2}  {standing.name:<{width}}  {standing.games:>5} "
                     f"{standing.wins:>5} {standing.losses:>6} {standing.draws:>5} "
                     f"{standing.score:>6.1f} {share:>6}  {elo:>7}  {interval:>17}  {los:>6}")
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(ended.items()))
    lines.append(f"terminations: {kinds or 'none'}")
    return "\n".join(lines)
