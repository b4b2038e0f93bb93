"""The terminal text of a summary: fastchess-like lines, then the tables. Printing never
computes: everything shown comes from the :func:`~referee.stats.summary.summarize` dict, so
the text a run prints and the one ``olympiad-referee stats`` prints cannot disagree.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .figures import UNDEFINED, estimate_text, interval_text, text


def format_summary(summary: Mapping[str, Any]) -> str:
    """The summary as text: headline figures of the first engine, standings (with time use
    and terminations), then ratings and the crosstable when there are more than two engines.
    Every count on a line is of the games that line names: the first engine's own games and
    pairs in the headline, the whole run's on the ``Run:`` line of a round robin."""
    names = summary["engines"]
    wins, losses, draws = summary["wdl"]
    games = wins + draws + losses
    against = (f"{names[0]} vs {names[1]} ({games} games" if len(names) == 2 else
               f"{names[0]} vs the field ({games} of the run's {summary['games']} games")
    lines = [f"Results of {against}, {summary['model']} model):",
             f"Elo: {estimate_text(summary['elo'], summary['elo_error'], summary['elo_95'])}, "
             f"nElo: {estimate_text(summary['nelo'], summary['nelo_error'], None)}"]
    whole_run = (f"DrawRatio: {_percent(summary['draw_ratio'])}, "
                 f"First player: {_percent(summary['first_player']['score'])}")
    lines.append(f"LOS: {_percent(summary['los'])}" +
                 (f", {whole_run}" if len(names) == 2 else ""))
    lines.append(f"Games: {games}, Wins: {wins}, Losses: {losses}, Draws: {draws}, "
                 f"Points: {wins + draws / 2:.1f} ({_percent(summary['score'])})")
    if summary["model"] == "pentanomial":
        lines.append(f"Ptnml(0-2): [{', '.join(map(str, summary['pentanomial']))}], "
                     f"Pairs: {sum(summary['pentanomial'])}")
    if "sprt" in summary:
        sprt = summary["sprt"]
        verdict = f", {sprt['verdict']} accepted" if sprt["verdict"] else ""
        lines.append(f"LLR: {text(sprt['llr'], 2)} ({sprt['lower']:.2f}, {sprt['upper']:.2f}) "
                     f"[{sprt['elo0']:.2f}, {sprt['elo1']:.2f}] {sprt['model']}{verdict}")
    if len(names) > 2:
        lines.append(f"Run: {summary['games']} games, {summary['pairs']} complete pairs, "
                     f"{whole_run}")
    lines += ["", format_standings(summary["standings"])]
    if summary.get("ratings"):
        lines += ["", format_ratings(summary["ratings"])]
    if len(names) > 2:
        lines += ["", format_crosstable(summary)]
    return "\n".join(lines)


def verdict_text(sprt: Mapping[str, Any]) -> str:
    """What the SPRT's verdict says, and no more than that.

    >>> verdict_text({"verdict": "H1", "elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05})
    'H1 accepted: the results favour elo1 (+5.0) over elo0 (+0.0), at error rates 0.05 and 0.05'
    """
    if sprt.get("verdict") is None:
        return "no verdict yet"
    favoured, other = (("elo1", "elo0") if sprt["verdict"] == "H1" else ("elo0", "elo1"))
    return (f"{sprt['verdict']} accepted: the results favour {favoured} "
            f"({sprt[favoured]:+.1f}) over {other} ({sprt[other]:+.1f}), at error rates "
            f"{sprt['alpha']:g} and {sprt['beta']:g}")


def standing_order(summary: Mapping[str, Any]) -> list[int]:
    """The engines' 0-based indices in the standings' order: the one order of every table."""
    return [row["index"] - 1 for row in summary["standings"]]


def format_standings(table: Sequence[Mapping[str, Any]]) -> str:
    """Two tables of one line per engine, each within 100 columns for names of up to 24
    characters: score against the field with its Elo (trinomial model: each engine's games
    against the field), interval and LOS; then score as first and as second player and time
    use; then each engine's losses by termination."""
    width = max([len("engine")] + [len(row["name"]) for row in table])
    lines = [f"{'#':>2}  {'engine':<{width}}  {'games':>5} {'wins':>5} {'draws':>5} "
             f"{'losses':>6} {'score':>7}  {'elo':>7} {'95% interval':>17} {'los':>7}"]
    for row in table:
        lines.append(
            f"{row['rank']:>2}  {row['name']:<{width}}  {row['games']:>5} {row['wins']:>5} "
            f"{row['draws']:>5} {row['losses']:>6} {_percent(row['score'], 1):>7}  "
            f"{text(row['elo'], 1, signed=True):>7} {interval_text(row['elo_95']):>17} "
            f"{_percent(row['los'], 1):>7}")
    lines += ["", f"{'#':>2}  {'engine':<{width}}  {'as first':>8} {'as second':>9}  "
                  f"{'s/move':>6} {'min left':>8}"]
    for row in table:
        lines.append(f"{row['rank']:>2}  {row['name']:<{width}}  "
                     f"{_percent(row['as_first']['score'], 1):>8} "
                     f"{_percent(row['as_second']['score'], 1):>9}  "
                     f"{_seconds(row['time']['per_move']):>6} "
                     f"{_seconds(row['time']['min_left']):>8}")
    for row in table:
        ends = ", ".join(f"{kind} {count}" for kind, count in row["terminations"]["losses"].items())
        if ends:
            lines.append(f"{row['name']} lost by: {ends}")
    return "\n".join(line.rstrip() for line in lines)


def format_ratings(ratings: Mapping[str, Any]) -> str:
    """The Bradley-Terry ratings, best first, with the anchor (or mean 0) they refer to."""
    width = max([len("engine")] + [len(row["name"]) for row in ratings["engines"]])
    anchor = ratings["anchor"]
    basis = (f"anchor {anchor['name']} = {anchor['elo']:g}" if anchor else "mean 0")
    if ratings["virtual_draws"]:
        basis += f", {ratings['virtual_draws']} virtual draw per pairing"
    lines = [f"Ratings (Bradley-Terry, {basis}):",
             f"{'#':>2}  {'engine':<{width}}  {'elo':>8}  {'+/-':>6}"]
    for rank, row in enumerate(ratings["engines"], 1):
        lines.append(f"{rank:>2}  {row['name']:<{width}}  {text(row['elo'], 1, True):>8}  "
                     f"{text(row['error'], 1):>6}")
    return "\n".join(lines)


def format_crosstable(summary: Mapping[str, Any]) -> str:
    """Each engine's points against each other engine (``points/games``), in the standings'
    order, engines numbered by their rank."""
    names, cells = summary["engines"], summary["crosstable"]
    order = standing_order(summary)
    text = [["-" if other == me else (f"{cells[me][other]['points']:g}/"
                                      f"{cells[me][other]['games']}" if cells[me][other] else "")
             for other in order] for me in order]
    cell_width = max(len(cell) for line in text + [[str(len(order))]] for cell in line)
    width = max([len("engine")] + [len(name) for name in names])
    header = [str(rank) for rank in range(1, len(order) + 1)]
    lines = [f"{'#':>2}  {'engine':<{width}}  " + "  ".join(f"{c:<{cell_width}}" for c in header)]
    for rank, me in enumerate(order, 1):
        lines.append(f"{rank:>2}  {names[me]:<{width}}  "
                     + "  ".join(f"{cell:<{cell_width}}" for cell in text[rank - 1]))
    return "\n".join(line.rstrip() for line in lines)


def format_score_line(summary: Mapping[str, Any]) -> str:
    """cutechess's line for a run of two engines, which scripts parse: the first engine's wins,
    losses and draws against the second, its score as a fraction, and the games
    (cutechess-cli's ``Score of %s vs %s: %d - %d - %d  [%.3f] %d``, two spaces included).

    >>> format_score_line({"engines": ["new", "base"], "wdl": [5, 2, 3], "score": 0.65,
    ...                    "games": 10})
    'Score of new vs base: 5 - 2 - 3  [0.650] 10'
    """
    first, second = summary["engines"]
    wins, losses, draws = summary["wdl"]
    return (f"Score of {first} vs {second}: {wins} - {losses} - {draws}  "
            f"[{summary['score']:.3f}] {summary['games']}")


def _percent(value: float | None, places: int = 2) -> str:
    return UNDEFINED if value is None else f"{100 * value:.{places}f} %"


def _seconds(value: float | None) -> str:
    return UNDEFINED if value is None else f"{value:.3f}"
