"""The summary of a run: every figure of ``summary.json``, as a :class:`Summary` value.

Headline figures (:class:`Headline`) are those of the first engine (the engine under test in
an SPRT, the gauntlet's first engine) against its opponents: wins, losses and draws, the
pentanomial counts, Elo and its 95 % interval, nElo, LOS, and the SPRT. They come from the
pentanomial model when the run plays game pairs (every game has a ``pair``; only complete pairs
count) and from the trinomial model otherwise (``model`` says which). Per engine
(:class:`Standing`): record against the field, score as first and as second player (the colour
that moves first by the game's rules), terminations, time use. With more than two engines:
Bradley-Terry ratings (:class:`Ratings`).

A figure (:data:`Figure`) is a number, ``math.inf`` or ``-math.inf`` where the counts put it
beyond any number (the Elo of a perfect score, an interval end beyond a score of 0 or 1), or
``None`` where the counts cannot give it (nElo of a run without spread, anything without
games); never NaN. :meth:`Summary.as_json` writes ``summary.json``, where JSON's lack of
infinity makes an infinite figure ``"+inf"`` or ``"-inf"`` and an undefined one ``null``
(:mod:`.figures`, which also writes both as text, the same on the terminal and the page).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Optional, Sequence

from ..records.results import GameResult
from .elo import Estimate
from .elo.pentanomial import pentanomial_estimate
from .elo.wdl import wdl_estimate
from .figures import as_json
from .ratings import fit_pairings
from .sprt import SprtSettings
from .tally import EngineTally, Tally

Figure = Optional[float]  # a number, +/-math.inf (infinite), or None (undefined)


def _figure(value: float | None) -> Figure:
    """``value`` as a figure: NaN, the estimators' "cannot say", becomes ``None``."""
    return None if value is None or math.isnan(value) else value


def _ratio(part: float, whole: float) -> Figure:
    return part / whole if whole else None


@dataclass(frozen=True)
class EloFigures:
    """Elo with its 95 % interval and ``+/-``, nElo with its ``+/-``, and LOS, of one model's
    counts (all ``None`` without games)."""

    elo: Figure = None
    elo_low: Figure = None
    elo_high: Figure = None
    elo_error: Figure = None
    nelo: Figure = None
    nelo_error: Figure = None
    los: Figure = None

    @classmethod
    def of(cls, estimate: Estimate | None) -> EloFigures:
        if estimate is None:
            return cls()
        return cls(*(_figure(value) for value in (
            estimate.elo, estimate.elo_low, estimate.elo_high, estimate.elo_error,
            estimate.nelo, estimate.nelo_error, estimate.los)))

    @property
    def interval(self) -> tuple[Figure, Figure]:
        return self.elo_low, self.elo_high

    def as_json(self) -> dict[str, Any]:
        return {"elo": as_json(self.elo), "elo_95": [as_json(self.elo_low),
                                                     as_json(self.elo_high)],
                "elo_error": as_json(self.elo_error), "nelo": as_json(self.nelo),
                "nelo_error": as_json(self.nelo_error), "los": as_json(self.los)}


@dataclass(frozen=True)
class SprtState:
    """Where the SPRT stands: its settings, the log-likelihood ratio of the counts so far and
    the hypothesis accepted (``"H0"``, ``"H1"``, or ``None`` while it runs)."""

    settings: SprtSettings
    llr: float
    verdict: str | None

    @property
    def bounds(self) -> tuple[float, float]:
        return self.settings.bounds

    def as_json(self) -> dict[str, Any]:
        lower, upper = self.bounds
        settings = self.settings
        return {"elo0": settings.elo0, "elo1": settings.elo1, "alpha": settings.alpha,
                "beta": settings.beta, "model": settings.model, "llr": as_json(self.llr),
                "lower": lower, "upper": upper, "verdict": self.verdict}


class Scored:
    """Games, points and score (points per game) of a record of ``wins``, ``draws`` and
    ``losses``: the figures :class:`Headline` and :class:`Standing` have alike."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def score(self) -> Figure:
        return _ratio(self.points, self.games)


@dataclass(frozen=True)
class Headline(Scored):
    """The first engine's figures against its opponents (see the module docstring)."""

    model: str  # "pentanomial" or "trinomial"
    wins: int
    losses: int
    draws: int
    pentanomial: tuple[int, int, int, int, int]
    elo: EloFigures
    sprt: SprtState | None = None

    def as_json(self) -> dict[str, Any]:
        figures = {"model": self.model,
                   "wld": [self.wins, self.losses, self.draws],  # W-L-D, as cutechess's line
                   "pentanomial": list(self.pentanomial), "score": self.score,
                   **self.elo.as_json()}
        if self.sprt is not None:
            figures["sprt"] = self.sprt.as_json()
        return figures


@dataclass(frozen=True)
class Share:
    """Games and score (points per game) of a group of games: as first player, say."""

    games: int
    score: Figure

    def as_json(self) -> dict[str, Any]:
        return {"games": self.games, "score": self.score}


@dataclass(frozen=True)
class TimeUse:
    """Timed moves, seconds used, mean seconds per move (``None`` without games that give
    their move counts: rows of runs before per-side move counts existed) and the least clock
    left after a move (``None`` without a timed move)."""

    moves: int
    seconds: float
    per_move: Figure
    min_left: Figure

    @classmethod
    def of(cls, engine: EngineTally) -> TimeUse:
        return cls(engine.moves, engine.seconds,
                   engine.timed_seconds / engine.moves if engine.moves else None,
                   None if engine.least_left == math.inf else engine.least_left)

    def as_json(self) -> dict[str, Any]:
        return {"moves": self.moves, "seconds": self.seconds, "per_move": self.per_move,
                "min_left": self.min_left}


@dataclass(frozen=True)
class Standing(Scored):
    """One engine against the field: ``index`` its 1-based place on the command line,
    ``rank`` in the standings; ``elo`` from its own games (trinomial model; no nElo);
    ``terminations`` of its ``"wins"``, ``"draws"`` and ``"losses"``, and ``faults`` the losses
    it caused, each by termination (a game's ``at_fault`` is always the colour at fault)."""

    index: int
    rank: int
    name: str
    wins: int
    draws: int
    losses: int
    elo: EloFigures
    as_first: Share
    as_second: Share
    terminations: dict[str, dict[str, int]]
    faults: dict[str, int]
    time: TimeUse

    def as_json(self) -> dict[str, Any]:
        figures = self.elo.as_json()
        return {"index": self.index, "name": self.name, "games": self.games,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "points": self.points, "score": self.score,
                **{key: figures[key] for key in ("elo", "elo_95", "los")},
                "as_first": self.as_first.as_json(), "as_second": self.as_second.as_json(),
                "terminations": self.terminations, "faults": self.faults,
                "time": self.time.as_json(), "rank": self.rank}


@dataclass(frozen=True)
class Cell:
    """One engine's points and games against another."""

    points: float
    games: int


@dataclass(frozen=True)
class Rating:
    """An engine's Bradley-Terry rating and its ``+/-`` (``index`` as in :class:`Standing`)."""

    index: int
    name: str
    elo: Figure
    error: Figure


@dataclass(frozen=True)
class Ratings:
    """The Bradley-Terry ratings, best first, relative to ``anchor`` (name, Elo) or to a mean
    of 0, with the virtual draws added to each pairing."""

    anchor: tuple[str, float] | None
    virtual_draws: int
    engines: tuple[Rating, ...]

    def as_json(self) -> dict[str, Any]:
        anchor = None if self.anchor is None else {"name": self.anchor[0],
                                                   "elo": self.anchor[1]}
        return {"anchor": anchor, "virtual_draws": self.virtual_draws,
                "engines": [{"index": rating.index, "name": rating.name,
                             "elo": as_json(rating.elo), "error": as_json(rating.error)}
                            for rating in self.engines]}


@dataclass(frozen=True)
class Summary:
    """Every figure of a run (see the module docstring): ``engines`` are the names in
    command-line order; ``standings`` best score first; ``crosstable[i][j]`` engine i + 1's
    record against engine j + 1 (``None`` on the diagonal and where they have not met);
    ``ratings`` with more than two engines whose games connect them all, else ``None``."""

    engines: tuple[str, ...]
    games: int
    pairs: int
    headline: Headline
    draw_ratio: Figure
    first_player: Share
    terminations: dict[str, int]
    standings: tuple[Standing, ...]
    crosstable: tuple[tuple[Optional[Cell], ...], ...]
    ratings: Ratings | None = None

    @property
    def order(self) -> list[int]:
        """The engines' 0-based indices in the standings' order: the one order of every
        table."""
        return [standing.index - 1 for standing in self.standings]

    def as_json(self) -> dict[str, Any]:
        """The summary as ``summary.json`` holds it."""
        summary: dict[str, Any] = {
            "engines": list(self.engines), "games": self.games, "pairs": self.pairs,
            **self.headline.as_json(), "draw_ratio": self.draw_ratio,
            "first_player": self.first_player.as_json(), "terminations": self.terminations,
            "standings": [standing.as_json() for standing in self.standings],
            "crosstable": [[None if cell is None else {"points": cell.points,
                                                       "games": cell.games}
                            for cell in row] for row in self.crosstable]}
        if len(self.engines) > 2:
            summary["ratings"] = None if self.ratings is None else self.ratings.as_json()
        return summary


def summarize(results: Iterable[GameResult], names: Sequence[str],
              sprt: SprtSettings | None = None, anchor: tuple[str, float] | None = None
              ) -> Summary:
    """The summary of ``results`` between engines ``names`` (``names[i]`` has index i + 1);
    ``anchor`` is ``(name, elo)`` for the ratings. Raises ``ValueError`` for an unknown anchor.
    """
    return summary_of(Tally.of(results, len(names)), names, sprt, anchor)


def summary_of(tally: Tally, names: Sequence[str], sprt: SprtSettings | None = None,
               anchor: tuple[str, float] | None = None, rated: bool = True) -> Summary:
    """The summary of the games counted in ``tally``: its cost depends on the number of
    engines, not of games (the runner makes one after every game). ``rated=False`` leaves out
    the ratings, the slow part with many engines (an event refits them now and then)."""
    games = tally.games
    return Summary(
        engines=tuple(names), games=games, pairs=tally.pairs,
        headline=headline(tally.first_wdl, tally.pentanomial, tally.paired, sprt),
        draw_ratio=_ratio(tally.draws, games),
        first_player=Share(games, _ratio(tally.first_points, games)),
        terminations=dict(sorted(tally.terminations.items())),
        standings=standings(tally, names),
        crosstable=tuple(tuple(Cell(float(points), played) if played else None
                               for played, points in row) for row in tally.cells),
        ratings=ratings(tally, names, anchor) if rated and len(names) > 2 else None)


def headline(counts_wdl: Sequence[int], counts_penta: Sequence[int], paired: bool,
             sprt: SprtSettings | None) -> Headline:
    """The first engine's figures from its counts (shared by :func:`summary_of` and
    :func:`history`)."""
    wins, draws, losses = counts_wdl
    estimate = pentanomial_estimate(counts_penta) if paired else wdl_estimate(*counts_wdl)
    state = None
    if sprt is not None:
        counts = counts_penta if paired else counts_wdl
        value = sprt.llr(counts) if sum(counts) else 0.0
        state = SprtState(sprt, value, sprt.verdict(value))
    return Headline("pentanomial" if paired else "trinomial", wins, losses, draws,
                    tuple(counts_penta), EloFigures.of(estimate), state)  # type: ignore[arg-type]


def standings(tally: Tally, names: Sequence[str]) -> tuple[Standing, ...]:
    """Every engine against the field, best score first (then command-line order)."""
    order = sorted(range(len(names)), key=lambda i: (-(tally.engines[i].wdl[0]
                                                       + tally.engines[i].wdl[1] / 2), i))
    table = []
    for rank, i in enumerate(order, 1):
        engine = tally.engines[i]
        wins, draws, losses = engine.wdl
        table.append(Standing(
            index=i + 1, rank=rank, name=names[i], wins=wins, draws=draws, losses=losses,
            elo=EloFigures.of(wdl_estimate(wins, draws, losses)),
            as_first=Share(*_share(engine.turns[0])), as_second=Share(*_share(engine.turns[1])),
            terminations={key: dict(sorted(counter.items()))
                          for key, counter in engine.ended.items()},
            faults=dict(sorted(engine.faults.items())), time=TimeUse.of(engine)))
    return tuple(table)


def _share(turn: Sequence[float]) -> tuple[int, Figure]:
    played, points = turn
    return int(played), _ratio(points, played)


def ratings(tally: Tally, names: Sequence[str],
            anchor: tuple[str, float] | None = None) -> Ratings | None:
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
    rows = tuple(Rating(rating.engine, names[rating.engine - 1], _figure(rating.elo),
                        _figure(rating.error))
                 for rating in sorted(table.ratings, key=lambda rating: (-rating.elo,
                                                                         rating.engine)))
    return Ratings(anchor, table.virtual_draws, rows)


def point_of(figures: Headline, games: int, pairs: int) -> dict[str, Any]:
    """The headline figures after ``games`` games and ``pairs`` complete pairs as the report's
    charts take them (JSON): ``games``, ``pairs``, ``elo``, ``elo_95``, ``nelo``, ``los``, and
    ``llr`` with SPRT."""
    elo = figures.elo.as_json()
    point = {"games": games, "pairs": pairs,
             **{key: elo[key] for key in ("elo", "elo_95", "nelo", "los")}}
    if figures.sprt is not None:
        point["llr"] = as_json(figures.sprt.llr)
    return point


def history(results: Iterable[GameResult], names: Sequence[str],
            sprt: SprtSettings | None = None, tally: Tally | None = None
            ) -> Iterator[dict[str, Any]]:
    """The headline figures after each game, in the order of ``results`` (the order games
    finished), as :func:`point_of` gives them, one at a time; ``results`` are counted
    into ``tally`` (a new one when not given), so that a caller can make the summary of the
    same games from it without counting them again. The first half of a pair changes no
    figure here, so its point repeats the last estimate instead of computing it again."""
    tally = tally if tally is not None else Tally(len(names))
    last: tuple[tuple, Headline | None] = ((), None)
    for result in results:
        tally.add(result)
        key = (tuple(tally.pentanomial) if tally.paired else tally.first_wdl, tally.paired)
        if key != last[0]:
            last = (key, headline(tally.first_wdl, tally.pentanomial, tally.paired, sprt))
        yield point_of(last[1], tally.games, tally.pairs)  # type: ignore[arg-type]
