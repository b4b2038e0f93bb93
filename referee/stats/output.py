"""The terminal text of a summary: fastchess-like lines, then the tables. Printing never
computes: everything shown comes from the :class:`~referee.stats.summary.Summary`, so
the text a run prints and the one ``olympiad-referee stats`` prints cannot disagree.
"""

from __future__ import annotations

from typing import Sequence

from .figures import UNDEFINED, estimate_text, interval_text, text
from .summary import Ratings, SprtState, Standing, Summary


def format_summary(summary: Summary, gauntlet: int = 0) -> str:
    """The summary as text: the headline, the standings (with time use and terminations),
    then ratings and the crosstable when there are more than two engines. ``gauntlet`` is how
    many engines play the field in a gauntlet (0: not a gauntlet). The headline is the first
    engine's figures in a match of two, a gauntlet, or a run whose SPRT tests the first engine
    (:func:`first_engine_lines`); in any other run of more than two engines (a round robin, a
    ladder) no engine is the subject, and the headline is the field's (:func:`field_lines`)."""
    names = summary.engines
    if len(names) > 2 and not gauntlet and summary.headline.sprt is None:
        lines = field_lines(summary)
    else:
        lines = first_engine_lines(summary)
    lines += ["", format_standings(summary.standings)]
    if summary.ratings:
        lines += ["", format_ratings(summary.ratings)]
    if len(names) > 2:
        lines += ["", format_crosstable(summary)]
    return "\n".join(lines)


def field_lines(summary: Summary) -> list[str]:
    """The headline of a run in which every engine is as much the subject as any other: its
    games and complete pairs, draw ratio and first player's score; the standings follow."""
    return [f"Standings of the field ({summary.games} games, {summary.pairs} complete pairs):",
            _whole_run(summary)]


def first_engine_lines(summary: Summary) -> list[str]:
    """fastchess's lines of the first engine against its opponent or the field; every count
    on a line is of the games that line names: the first engine's own games and pairs in the
    headline, the whole run's on the ``Run:`` line of more than two engines."""
    names, first = summary.engines, summary.headline
    games = first.games
    against = (f"{names[0]} vs {names[1]} ({games} games" if len(names) == 2 else
               f"{names[0]} vs the field ({games} of the run's {summary.games} games")
    elo = first.elo
    lines = [f"Results of {against}, {first.model} model):",
             f"Elo: {estimate_text(elo.elo, elo.elo_error, elo.interval)}, "
             f"nElo: {estimate_text(elo.nelo, elo.nelo_error, None)}"]
    whole_run = _whole_run(summary)
    lines.append(f"LOS: {_percent(elo.los)}" + (f", {whole_run}" if len(names) == 2 else ""))
    lines.append(f"Games: {games}, Wins: {first.wins}, Losses: {first.losses}, "
                 f"Draws: {first.draws}, Points: {first.points:.1f} ({_percent(first.score)})")
    if first.model == "pentanomial":
        lines.append(f"Ptnml(0-2): [{', '.join(map(str, first.pentanomial))}], "
                     f"Pairs: {sum(first.pentanomial)}")
    if first.sprt is not None:
        sprt, settings = first.sprt, first.sprt.settings
        lower, upper = sprt.bounds
        verdict = f", {sprt.verdict} accepted" if sprt.verdict else ""
        lines.append(f"LLR: {text(sprt.llr, 2)} ({lower:.2f}, {upper:.2f}) "
                     f"[{settings.elo0:.2f}, {settings.elo1:.2f}] {settings.model}{verdict}")
    if len(names) > 2:
        lines.append(f"Run: {summary.games} games, {summary.pairs} complete pairs, "
                     f"{whole_run}")
    return lines


def _whole_run(summary: Summary) -> str:
    return (f"DrawRatio: {_percent(summary.draw_ratio)}, "
            f"First player: {_percent(summary.first_player.score)}")


def verdict_text(sprt: SprtState) -> str:
    """What the SPRT's verdict says, and no more than that.

    >>> from referee.stats.sprt import SprtSettings
    >>> verdict_text(SprtState(SprtSettings(0.0, 5.0), 3.1, "H1"))
    'H1 accepted: the results favour elo1 (+5.0) over elo0 (+0.0), at error rates 0.05 and 0.05'
    """
    if sprt.verdict is None:
        return "no verdict yet"
    settings = sprt.settings
    hypotheses = {"elo0": settings.elo0, "elo1": settings.elo1}
    favoured, other = (("elo1", "elo0") if sprt.verdict == "H1" else ("elo0", "elo1"))
    return (f"{sprt.verdict} accepted: the results favour {favoured} "
            f"({hypotheses[favoured]:+.1f}) over {other} ({hypotheses[other]:+.1f}), at error "
            f"rates {settings.alpha:g} and {settings.beta:g}")


def format_standings(table: Sequence[Standing]) -> str:
    """Two tables of one line per engine, each within 100 columns for names of up to 24
    characters: score against the field with its Elo (trinomial model: each engine's games
    against the field), interval and LOS; then score as first and as second player and time
    use; then each engine's losses by termination."""
    width = max([len("engine")] + [len(row.name) for row in table])
    lines = [f"{'#':>2}  {'engine':<{width}}  {'games':>5} {'wins':>5} {'draws':>5} "
             f"{'losses':>6} {'score':>7}  {'elo':>7} {'95% interval':>17} {'los':>7}"]
    for row in table:
        lines.append(
            f"{row.rank:>2}  {row.name:<{width}}  {row.games:>5} {row.wins:>5} "
            f"{row.draws:>5} {row.losses:>6} {_percent(row.score, 1):>7}  "
            f"{text(row.elo.elo, 1, signed=True):>7} {interval_text(row.elo.interval):>17} "
            f"{_percent(row.elo.los, 1):>7}")
    lines += ["", f"{'#':>2}  {'engine':<{width}}  {'as first':>8} {'as second':>9}  "
                  f"{'s/move':>6} {'min left':>8}"]
    for row in table:
        lines.append(f"{row.rank:>2}  {row.name:<{width}}  "
                     f"{_percent(row.as_first.score, 1):>8} "
                     f"{_percent(row.as_second.score, 1):>9}  "
                     f"{_seconds(row.time.per_move):>6} "
                     f"{_seconds(row.time.min_left):>8}")
    for row in table:
        ends = ", ".join(f"{kind} {count}" for kind, count in row.terminations["losses"].items())
        if ends:
            lines.append(f"{row.name} lost by: {ends}")
    return "\n".join(line.rstrip() for line in lines)


def format_ratings(ratings: Ratings) -> str:
    """The Bradley-Terry ratings, best first, with the anchor (or mean 0) they refer to."""
    width = max([len("engine")] + [len(row.name) for row in ratings.engines])
    basis = (f"anchor {ratings.anchor[0]} = {ratings.anchor[1]:g}" if ratings.anchor
             else "mean 0")
    if ratings.virtual_draws:
        basis += f", {ratings.virtual_draws} virtual draw per pairing"
    lines = [f"Ratings (Bradley-Terry, {basis}):",
             f"{'#':>2}  {'engine':<{width}}  {'elo':>8}  {'+/-':>6}"]
    for rank, row in enumerate(ratings.engines, 1):
        lines.append(f"{rank:>2}  {row.name:<{width}}  {text(row.elo, 1, True):>8}  "
                     f"{text(row.error, 1):>6}")
    return "\n".join(lines)


def crosstable_cells(summary: Summary, diagonal: str = "-") -> list[list[str]]:
    """The crosstable as text, ``points/games`` (empty where two engines have not met), rows
    and columns in the standings' order; shared by the terminal and the report page."""
    cells, order = summary.crosstable, summary.order
    return [[diagonal if other == me else (f"{cells[me][other].points:g}/"
                                           f"{cells[me][other].games}" if cells[me][other]
                                           else "")
             for other in order] for me in order]


def format_crosstable(summary: Summary) -> str:
    """Each engine's points against each other engine (``points/games``), in the standings'
    order, engines numbered by their rank."""
    names, order = summary.engines, summary.order
    text = crosstable_cells(summary)
    cell_width = max(len(cell) for line in text + [[str(len(order))]] for cell in line)
    width = max([len("engine")] + [len(name) for name in names])
    header = [str(rank) for rank in range(1, len(order) + 1)]
    lines = [f"{'#':>2}  {'engine':<{width}}  " + "  ".join(f"{c:<{cell_width}}" for c in header)]
    for rank, me in enumerate(order, 1):
        lines.append(f"{rank:>2}  {names[me]:<{width}}  "
                     + "  ".join(f"{cell:<{cell_width}}" for cell in text[rank - 1]))
    return "\n".join(line.rstrip() for line in lines)


def format_score_line(summary: Summary) -> str:
    """cutechess's line for a run of two engines, which scripts parse: the first engine's wins,
    losses and draws against the second, its score as a fraction, and the games
    (cutechess-cli's ``Score of %s vs %s: %d - %d - %d  [%.3f] %d``, two spaces included)."""
    first, second = summary.engines
    head = summary.headline
    return (f"Score of {first} vs {second}: {head.wins} - {head.losses} - {head.draws}  "
            f"[{head.score:.3f}] {summary.games}")


def _percent(value: float | None, places: int = 2) -> str:
    return UNDEFINED if value is None else f"{100 * value:.{places}f} %"


def _seconds(value: float | None) -> str:
    return UNDEFINED if value is None else f"{value:.3f}"
