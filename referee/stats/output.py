"""The terminal text of a summary: fastchess-like lines, then the tables. Printing never
computes: everything shown comes from the :func:`~referee.stats.summary.summarize` dict, so
the text a run prints and the one ``olympiad-referee stats`` prints cannot disagree.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .figures import UNDEFINED, estimate_text, interval_text, text


def format_summary(summary: Mapping[str, Any]) -> str:
    """The summary as text: headline figures of the first engine, standings (with time use
    and terminations), then ratings and the crosstable when there are more than two engines."""
    names = summary["engines"]
    opponent = names[1] if len(names) == 2 else "the field"
    wins, losses, draws = summary["wdl"]
    games = wins + draws + losses
    lines = [f"Results of {names[0]} vs {opponent} ({summary['games']} games, "
             f"{summary['model']} model):",
             f"Elo: {estimate_text(summary['elo'], summary['elo_error'], summary['elo_95'])}, "
             f"nElo: {estimate_text(summary['nelo'], summary['nelo_error'], None)}",
             f"LOS: {_percent(summary['los'])}, DrawRatio: {_percent(summary['draw_ratio'])}, "
             f"First player: {_percent(summary['first_player']['score'])}",
             f"Games: {games}, Wins: {wins}, Losses: {losses}, Draws: {draws}, "
             f"Points: {wins + draws / 2:.1f} ({_percent(summary['score'])})"]
    if summary["model"] == "pentanomial":
        lines.append(f"Ptnml(0-2): [{', '.join(map(str, summary['pentanomial']))}], "
                     f"Pairs: {summary['pairs']}")
    if "sprt" in summary:
        sprt = summary["sprt"]
        verdict = f", {sprt['verdict']} accepted" if sprt["verdict"] else ""
        lines.append(f"LLR: {text(sprt['llr'], 2)} ({sprt['lower']:.2f}, {sprt['upper']:.2f}) "
                     f"[{sprt['elo0']:.2f}, {sprt['elo1']:.2f}] {sprt['model']}{verdict}")
    lines += ["", format_standings(summary["standings"])]
    if summary.get("ratings"):
        lines += ["", format_ratings(summary["ratings"])]
    if len(names) > 2:
        lines += ["", format_crosstable(summary["crosstable"], names)]
    return "\n".join(lines)


def format_standings(table: Sequence[Mapping[str, Any]]) -> str:
    """One line per engine: score against the field, Elo with its interval, LOS, score as first
    and second player, time use; then each engine's losses by termination."""
    width = max([len("engine")] + [len(row["name"]) for row in table])
    lines = [f"{'#':>2}  {'engine':<{width}}  {'games':>5} {'wins':>5} {'draws':>5} "
             f"{'losses':>6} {'score':>7}  {'elo':>7} {'95% interval':>17} {'los':>7}  "
             f"{'1st':>7} {'2nd':>7}  {'s/move':>6} {'min left':>8}"]
    for row in table:
        interval = interval_text(row["elo_95"])
        lines.append(
            f"{row['rank']:>2}  {row['name']:<{width}}  {row['games']:>5} {row['wins']:>5} "
            f"{row['draws']:>5} {row['losses']:>6} {_percent(row['score'], 1):>7}  "
            f"{text(row['elo'], 1, signed=True):>7} {interval:>17} {_percent(row['los'], 1):>7}  "
            f"{_percent(row['as_first']['score'], 1):>7} "
            f"{_percent(row['as_second']['score'], 1):>7}  "
            f"{_seconds(row['time']['per_move']):>6} {_seconds(row['time']['min_left']):>8}")
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


def format_crosstable(cells: Sequence[Sequence[Any]], names: Sequence[str]) -> str:
    """Each engine's points against each other engine (``points/games``), command-line order."""
    count = len(names)
    text = [["-" if other == me else (f"{cell['points']:g}/{cell['games']}" if cell else "")
             for other, cell in enumerate(cells[me])] for me in range(count)]
    cell_width = max(len(cell) for line in text + [[str(count)]] for cell in line)
    width = max([len("engine")] + [len(name) for name in names])
    header = [str(index) for index in range(1, count + 1)]
    lines = [f"{'#':>2}  {'engine':<{width}}  " + "  ".join(f"{c:<{cell_width}}" for c in header)]
    for me, name in enumerate(names):
        lines.append(f"{me + 1:>2}  {name:<{width}}  "
                     + "  ".join(f"{cell:<{cell_width}}" for cell in text[me]))
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
