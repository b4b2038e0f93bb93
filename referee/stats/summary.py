"""The summary of a run: every figure of ``summary.json``, as one JSON-ready dict.

Headline figures are those of the first engine (the engine under test in an SPRT, the
gauntlet's first engine) against its opponents: ``wdl``, ``pentanomial``, Elo and its 95 %
interval, nElo, LOS, and the SPRT. They come from the pentanomial model when the run plays
game pairs (every game has a ``pair``; only complete pairs count) and from the trinomial
model otherwise (``model`` says which). Per engine: standings against the field, score as
first and as second player (the colour that moves first by the game's rules), terminations,
time use. With more than two engines: Bradley-Terry ratings.

JSON has no infinity or NaN: a figure that is infinite (the Elo of a perfect score, an
interval end beyond a score of 0 or 1) or undefined (nElo of a run without spread, anything
without games) is written as ``null``.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Sequence

from ..records.results import GameResult
from .counts import complete_pairs, is_paired, pentanomial, wdl
from .elo import Estimate
from .elo.pentanomial import pentanomial_estimate
from .elo.wdl import wdl_estimate
from .ratings import fit_ratings, games_of
from .sprt import SprtSettings


def summarize(results: Sequence[GameResult], names: Sequence[str],
              sprt: SprtSettings | None = None, anchor: tuple[str, float] | None = None
              ) -> dict[str, Any]:
    """The summary of ``results`` between engines ``names`` (``names[i]`` has index i + 1);
    ``anchor`` is ``(name, elo)`` for the ratings. Raises ``ValueError`` for an unknown anchor.
    """
    paired = is_paired(results)
    counts_wdl = wdl(results, 1)
    counts_penta = pentanomial(results, 1)
    draws = sum(1 for result in results if result.winner is None)
    first_points = sum(0.5 if result.winner is None else float(result.winner == result.first)
                       for result in results)
    summary: dict[str, Any] = {
        "engines": list(names),
        "games": len(results),
        "pairs": len(complete_pairs(results)),
        **headline(counts_wdl, counts_penta, paired, sprt),
        "draw_ratio": _ratio(draws, len(results)),
        "first_player": {"games": len(results), "score": _ratio(first_points, len(results))},
        "terminations": dict(sorted(Counter(r.termination.value for r in results).items())),
        "standings": standings(results, names),
        "crosstable": crosstable(results, len(names)),
    }
    if len(names) > 2:
        summary["ratings"] = ratings(results, names, anchor)
    return summary


def headline(counts_wdl: Sequence[int], counts_penta: Sequence[int], paired: bool,
             sprt: SprtSettings | None) -> dict[str, Any]:
    """The first engine's figures from its counts (shared by :func:`summarize` and
    :func:`history`)."""
    wins, draws, losses = counts_wdl
    games = wins + draws + losses
    estimate = pentanomial_estimate(counts_penta) if paired else wdl_estimate(*counts_wdl)
    figures: dict[str, Any] = {
        "model": "pentanomial" if paired else "trinomial",
        "wdl": [wins, losses, draws],  # W-L-D, as cutechess's "Score of" line and fastchess
        "pentanomial": list(counts_penta),
        "score": _ratio(wins + draws / 2, games),
        **_estimate_figures(estimate),
    }
    if sprt is not None:
        counts = counts_penta if paired else counts_wdl
        value = sprt.llr(counts) if sum(counts) else 0.0
        lower, upper = sprt.bounds
        figures["sprt"] = {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                           "beta": sprt.beta, "model": sprt.model, "llr": _number(value),
                           "lower": lower, "upper": upper, "verdict": sprt.verdict(value)}
    return figures


def _estimate_figures(estimate: Estimate | None) -> dict[str, Any]:
    if estimate is None:
        return {"elo": None, "elo_95": [None, None], "elo_error": None, "nelo": None,
                "nelo_error": None, "los": None}
    return {"elo": _number(estimate.elo),
            "elo_95": [_number(estimate.elo_low), _number(estimate.elo_high)],
            "elo_error": _number(estimate.elo_error), "nelo": _number(estimate.nelo),
            "nelo_error": _number(estimate.nelo_error), "los": _number(estimate.los)}


def standings(results: Sequence[GameResult], names: Sequence[str]) -> list[dict[str, Any]]:
    """Every engine against the field, best score first (then command-line order)."""
    table = []
    for index, name in enumerate(names, 1):
        wins, draws, losses = wdl(results, index)
        games = wins + draws + losses
        row = {"index": index, "name": name, "games": games, "wins": wins, "draws": draws,
               "losses": losses, "points": wins + draws / 2,
               "score": _ratio(wins + draws / 2, games)}
        estimate = wdl_estimate(wins, draws, losses)
        row.update({key: value for key, value in _estimate_figures(estimate).items()
                    if key in ("elo", "elo_95", "los")})
        row["as_first"], row["as_second"] = _by_turn(results, index)
        row["terminations"] = _terminations(results, index)
        row["at_fault"] = dict(sorted(Counter(
            r.termination.value for r in results
            if r.at_fault is not None and r.at_fault == r.colour_of(index)).items()))
        row["time"] = time_use(results, index)
        table.append(row)
    table.sort(key=lambda row: (-row["points"], row["index"]))
    for rank, row in enumerate(table, 1):
        row["rank"] = rank
    return table


def _by_turn(results: Sequence[GameResult], engine: int) -> tuple[dict, dict]:
    """Games and score of ``engine`` when it moved first, and when it moved second."""
    tallies = [[0, 0.0], [0, 0.0]]
    for result in results:
        score = result.score_of(engine)
        if score is not None:
            tally = tallies[0 if result.colour_of(engine) == result.first else 1]
            tally[0] += 1
            tally[1] += score
    return tuple({"games": games, "score": _ratio(points, games)}   # type: ignore[return-value]
                 for games, points in tallies)


def _terminations(results: Sequence[GameResult], engine: int) -> dict[str, dict[str, int]]:
    """How the games of ``engine`` ended, separately for its wins, draws and losses."""
    kinds: dict[str, Counter] = {"wins": Counter(), "draws": Counter(), "losses": Counter()}
    for result in results:
        score = result.score_of(engine)
        if score is not None:
            key = "wins" if score == 1 else "draws" if score == 0.5 else "losses"
            kinds[key][result.termination.value] += 1
    return {key: dict(sorted(counter.items())) for key, counter in kinds.items()}


def time_use(results: Sequence[GameResult], engine: int) -> dict[str, Any]:
    """Timed moves, seconds used, mean seconds per move, least clock left after a move.

    The mean counts only games whose rows give both the moves and the time (rows of runs
    before per-side move counts existed give the time alone); ``null`` without such games.
    """
    moves, seconds, timed_seconds, least = 0, 0.0, 0.0, math.inf
    for result in results:
        colour = result.colour_of(engine)
        if colour is None:
            continue
        used, made, left = result.used[colour], result.moves[colour], result.min_left[colour]
        seconds += used or 0.0
        if made is not None and used is not None:
            moves += made
            timed_seconds += used
        if left is not None:
            least = min(least, left)
    return {"moves": moves, "seconds": seconds,
            "per_move": timed_seconds / moves if moves else None,
            "min_left": None if least == math.inf else least}


def crosstable(results: Sequence[GameResult], count: int) -> list[list[Any]]:
    """``table[i][j]``: ``{"points", "games"}`` of engine i + 1 against engine j + 1, ``null``
    on the diagonal and for engines that have not met."""
    cells: list[list[Any]] = [[None] * count for _ in range(count)]
    for result in results:
        for me in (result.black, result.white):
            other = result.opponent_of(me)
            cell = cells[me - 1][other - 1]
            if cell is None:
                cell = cells[me - 1][other - 1] = {"points": 0.0, "games": 0}
            cell["points"] += result.score_of(me)
            cell["games"] += 1
    return cells


def ratings(results: Sequence[GameResult], names: Sequence[str],
            anchor: tuple[str, float] | None = None) -> dict[str, Any] | None:
    """Bradley-Terry ratings, best first; ``None`` when the games do not connect all
    engines (ratings of separate groups cannot be compared)."""
    anchored = None
    if anchor is not None:
        if anchor[0] not in names:
            raise ValueError(f"--anchor: no engine named {anchor[0]!r} "
                             f"(engines: {', '.join(names)})")
        anchored = (list(names).index(anchor[0]) + 1, anchor[1])
    table = fit_ratings(games_of(results), len(names), anchored) if results else None
    if table is None:
        return None
    rows = [{"index": rating.engine, "name": names[rating.engine - 1],
             "elo": _number(rating.elo), "error": _number(rating.error)}
            for rating in sorted(table.ratings, key=lambda rating: (-rating.elo, rating.engine))]
    return {"anchor": None if anchor is None else {"name": anchor[0], "elo": anchor[1]},
            "virtual_draws": table.virtual_draws, "engines": rows}


def history(results: Sequence[GameResult], names: Sequence[str],
            sprt: SprtSettings | None = None) -> list[dict[str, Any]]:
    """The headline figures after each game, in the order of ``results`` (the order games
    finished): ``games``, ``pairs``, ``elo``, ``elo_95``, ``nelo``, ``los``, and ``llr`` with SPRT.
    Counts are kept incrementally, so a long run costs one estimate per game."""
    paired = is_paired(results)
    counts_wdl = [0, 0, 0]
    counts_penta = [0] * 5
    waiting: dict[int, GameResult] = {}
    pairs = 0
    points: list[dict[str, Any]] = []
    last: tuple[tuple, dict[str, Any]] = ((), {})
    for number, result in enumerate(results, 1):
        score = result.score_of(1)
        if score is not None:
            counts_wdl[0 if score == 1 else 1 if score == 0.5 else 2] += 1
        if result.pair is not None:
            partner = waiting.pop(result.pair, None)
            if partner is None:
                waiting[result.pair] = result
            else:
                pairs += 1
                scores = (partner.score_of(1), score)
                if None not in scores:
                    counts_penta[round(2 * (scores[0] + scores[1]))] += 1  # type: ignore
        key = tuple(counts_penta if paired else counts_wdl)
        if key != last[0]:   # the first half of a pair changes no figure given here
            last = (key, headline(counts_wdl, counts_penta, paired, sprt))
        figures = last[1]
        point = {"games": number, "pairs": pairs,
                 **{key: figures[key] for key in ("elo", "elo_95", "nelo", "los")}}
        if sprt is not None:
            point["llr"] = figures["sprt"]["llr"]
        points.append(point)
    return points


def _number(value: float | None) -> float | None:
    """``value`` if it is a finite number, else ``None`` (JSON has no inf or NaN)."""
    return value if value is not None and math.isfinite(value) else None


def _ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None
