"""The summary of a run: every figure of ``summary.json``, as one JSON-ready dict.

Headline figures are those of the first engine (the engine under test in an SPRT, the
gauntlet's first engine) against its opponents: ``wdl``, ``pentanomial``, Elo and its 95 %
interval, nElo, LOS, and the SPRT. They come from the pentanomial model when the run plays
game pairs (every game has a ``pair``; only complete pairs count) and from the trinomial
model otherwise (``model`` says which). Per engine: standings against the field, score as
first and as second player (the colour that moves first by the game's rules), terminations,
time use. With more than two engines: Bradley-Terry ratings.

JSON has no infinity or NaN: a figure that is infinite (the Elo of a perfect score, an
interval end beyond a score of 0 or 1) is written as ``"+inf"`` or ``"-inf"``, one that is
undefined (nElo of a run without spread, anything without games) as ``null``
(:mod:`.figures`).
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Iterator, Sequence

from ..records.results import GameResult
from .elo import Estimate
from .figures import as_json
from .elo.pentanomial import pentanomial_estimate
from .elo.wdl import wdl_estimate
from .ratings import fit_pairings
from .sprt import SprtSettings
from .tally import EngineTally, Tally


def summarize(results: Iterable[GameResult], names: Sequence[str],
              sprt: SprtSettings | None = None, anchor: tuple[str, float] | None = None
              ) -> dict[str, Any]:
    """The summary of ``results`` between engines ``names`` (``names[i]`` has index i + 1);
    ``anchor`` is ``(name, elo)`` for the ratings. Raises ``ValueError`` for an unknown anchor.
    """
    return summary_of(Tally.of(results, len(names)), names, sprt, anchor)


def summary_of(tally: Tally, names: Sequence[str], sprt: SprtSettings | None = None,
               anchor: tuple[str, float] | None = None) -> dict[str, Any]:
    """The summary of the games counted in ``tally``: its cost depends on the number of
    engines, not of games (the runner makes one after every game)."""
    games = tally.games
    summary: dict[str, Any] = {
        "engines": list(names),
        "games": games,
        "pairs": tally.pairs,
        **headline(tally.first_wdl, tally.pentanomial, tally.paired, sprt),
        "draw_ratio": _ratio(tally.draws, games),
        "first_player": {"games": games, "score": _ratio(tally.first_points, games)},
        "terminations": dict(sorted(tally.terminations.items())),
        "standings": standings(tally, names),
        "crosstable": crosstable(tally),
    }
    if len(names) > 2:
        summary["ratings"] = ratings(tally, names, anchor)
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
                           "beta": sprt.beta, "model": sprt.model, "llr": as_json(value),
                           "lower": lower, "upper": upper, "verdict": sprt.verdict(value)}
    return figures


def _estimate_figures(estimate: Estimate | None) -> dict[str, Any]:
    if estimate is None:
        return {"elo": None, "elo_95": [None, None], "elo_error": None, "nelo": None,
                "nelo_error": None, "los": None}
    return {"elo": as_json(estimate.elo),
            "elo_95": [as_json(estimate.elo_low), as_json(estimate.elo_high)],
            "elo_error": as_json(estimate.elo_error), "nelo": as_json(estimate.nelo),
            "nelo_error": as_json(estimate.nelo_error), "los": as_json(estimate.los)}


def standings(tally: Tally, names: Sequence[str]) -> list[dict[str, Any]]:
    """Every engine against the field, best score first (then command-line order)."""
    table = []
    for index, (name, engine) in enumerate(zip(names, tally.engines), 1):
        wins, draws, losses = engine.wdl
        games = wins + draws + losses
        row = {"index": index, "name": name, "games": games, "wins": wins, "draws": draws,
               "losses": losses, "points": wins + draws / 2,
               "score": _ratio(wins + draws / 2, games)}
        estimate = wdl_estimate(wins, draws, losses)
        row.update({key: value for key, value in _estimate_figures(estimate).items()
                    if key in ("elo", "elo_95", "los")})
        row["as_first"], row["as_second"] = ({"games": played, "score": _ratio(points, played)}
                                             for played, points in engine.turns)
        row["terminations"] = {key: dict(sorted(counter.items()))
                               for key, counter in engine.ended.items()}
        row["at_fault"] = dict(sorted(engine.at_fault.items()))
        row["time"] = time_use(engine)
        table.append(row)
    table.sort(key=lambda row: (-row["points"], row["index"]))
    for rank, row in enumerate(table, 1):
        row["rank"] = rank
    return table


def time_use(engine: EngineTally) -> dict[str, Any]:
    """Timed moves, seconds used, mean seconds per move, least clock left after a move.

    The mean counts only games whose rows give both the moves and the time (rows of runs
    before per-side move counts existed give the time alone); ``null`` without such games.
    """
    return {"moves": engine.moves, "seconds": engine.seconds,
            "per_move": engine.timed_seconds / engine.moves if engine.moves else None,
            "min_left": None if engine.least_left == math.inf else engine.least_left}


def crosstable(tally: Tally) -> list[list[Any]]:
    """``table[i][j]``: ``{"points", "games"}`` of engine i + 1 against engine j + 1, ``null``
    on the diagonal and for engines that have not met."""
    return [[{"points": float(points), "games": games} if games else None
             for games, points in row] for row in tally.cells]


def ratings(tally: Tally, names: Sequence[str],
            anchor: tuple[str, float] | None = None) -> dict[str, Any] | None:
    """Bradley-Terry ratings, best first; ``None`` when the games do not connect all
    engines (ratings of separate groups cannot be compared)."""
    anchored = None
    if anchor is not None:
        if anchor[0] not in names:
            raise ValueError(f"--anchor: no engine named {anchor[0]!r} "
                             f"(engines: {', '.join(names)})")
        anchored = (list(names).index(anchor[0]) + 1, anchor[1])
    table = fit_pairings(tally.cells, anchored) if tally.games else None
    if table is None:
        return None
    rows = [{"index": rating.engine, "name": names[rating.engine - 1],
             "elo": as_json(rating.elo), "error": as_json(rating.error)}
            for rating in sorted(table.ratings, key=lambda rating: (-rating.elo, rating.engine))]
    return {"anchor": None if anchor is None else {"name": anchor[0], "elo": anchor[1]},
            "virtual_draws": table.virtual_draws, "engines": rows}


def history_point(tally: Tally, sprt: SprtSettings | None = None,
                  figures: dict[str, Any] | None = None) -> dict[str, Any]:
    """The headline figures after the games of ``tally``: ``games``, ``pairs``, ``elo``,
    ``elo_95``, ``nelo``, ``los``, and ``llr`` with SPRT; ``figures`` are the headline
    already computed for these counts, if at hand."""
    figures = figures or headline(tally.first_wdl, tally.pentanomial, tally.paired, sprt)
    point = {"games": tally.games, "pairs": tally.pairs,
             **{key: figures[key] for key in ("elo", "elo_95", "nelo", "los")}}
    if sprt is not None:
        point["llr"] = figures["sprt"]["llr"]
    return point


def history(results: Iterable[GameResult], names: Sequence[str],
            sprt: SprtSettings | None = None, tally: Tally | None = None
            ) -> Iterator[dict[str, Any]]:
    """The headline figures after each game, in the order of ``results`` (the order games
    finished), as :func:`history_point` gives them, one at a time; ``results`` are counted
    into ``tally`` (a new one when not given), so that a caller can make the summary of the
    same games from it without counting them again. The first half of a pair changes no
    figure here, so its point repeats the last estimate instead of computing it again."""
    tally = tally if tally is not None else Tally(len(names))
    last: tuple[tuple, dict[str, Any]] = ((), {})
    for result in results:
        tally.add(result)
        key = (tuple(tally.pentanomial) if tally.paired else tally.first_wdl, tally.paired)
        if key != last[0]:
            last = (key, headline(tally.first_wdl, tally.pentanomial, tally.paired, sprt))
        yield history_point(tally, sprt, last[1])


def _ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None
