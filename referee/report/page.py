"""``report.html``: the summary of a run and its replay viewer, as one HTML text.

:func:`render` is a pure function of :class:`ReportData` (what the output folder's records say):
the figures come from :mod:`referee.stats` (``summarize`` and ``history``), the list of games
from the results rows. The style sheet and the script are inlined from ``report.css`` and
``report.js`` beside this module, so the page needs no network; the boards of each game are
in ``report-assets/game-NNNN.js``, loaded by the viewer only when that game is opened.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from html import escape
from importlib import resources
from typing import Any, Mapping, Sequence

from .charts import line_chart

ASSETS_DIR = "report-assets"


@dataclass(frozen=True)
class ReportData:
    """What the report shows: the run's settings (``match.json``), the results rows in game
    order, the engines' names, the summary and the figures after each game (stats), and the
    number of games planned when known."""

    settings: Mapping[str, Any]
    rows: Sequence[Mapping[str, Any]]
    names: Sequence[str]
    summary: Mapping[str, Any] = field(default_factory=dict)
    history: Sequence[Mapping[str, Any]] = ()
    planned: int | None = None


def _static(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def number(value: Any, digits: int = 1) -> str:
    """A figure as the tables show it: ``–`` when unknown, signs kept for infinities.

    >>> number(None), number(12.345), number(float("inf")), number(3), number([1.25, -20.0])
    ('–', '12.3', '+∞', '3', '[1.2, -20.0]')
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isinf(value):
            return "+∞" if value > 0 else "−∞"
        return f"{value:.{digits}f}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(number(item, digits) for item in value) + "]"
    return str(value)


def _cell(value: Any, css: str = "") -> str:
    text = value if isinstance(value, str) else number(value)
    return f'<td class="{css}">{escape(text)}</td>' if css else f"<td>{escape(text)}</td>"


def percent(value: float | None) -> str:
    """A share as a percentage, ``–`` when unknown.

    >>> percent(0.5), percent(None)
    ('50.0 %', '–')
    """
    return "–" if value is None else f"{100 * value:.1f} %"


def signed(value: float | None, missing: str = "–") -> str:
    """An Elo figure with its sign; ``missing`` for ``None``, which the summary writes for an
    infinite or undefined figure.

    >>> signed(12.34), signed(None, "+∞")
    ('+12.3', '+∞')
    """
    return missing if value is None else f"{value:+.1f}"


def interval(ends: Sequence[float | None] | None, games: int) -> str:
    """A 95 % interval; with games, a missing end is infinite (unless both are: then the
    figures have no spread to make an interval from).

    >>> interval([None, 35.5], 4), interval([None, None], 0), interval([None, None], 2)
    ('[−∞, +35.5]', '–', '–')
    """
    if not games or not ends or ends[0] is ends[1] is None:  # both unknown: no spread
        return "–"
    return f"[{signed(ends[0], '−∞')}, {signed(ends[1], '+∞')}]"


def _plus_minus(value: float | None, error: float | None) -> str:
    if value is None:
        return "–"
    return signed(value) + ("" if error is None else f" ± {error:.1f}")


def _counts(counts: Mapping[str, int] | None) -> str:
    return ", ".join(f"{kind} {count}" for kind, count in (counts or {}).items()) or "–"


def table(head: Sequence[str], rows: Sequence[Sequence[str]], names: int = 1) -> str:
    """An HTML table of text cells; the first ``names`` columns are left-aligned names.

    >>> print(table(["engine", "score"], [["a", "1.5"]]))
    <table><tr><th class="name">engine</th><th>score</th></tr>
    <tr><td class="name">a</td><td>1.5</td></tr></table>
    """
    heads = "".join(f'<th class="name">{escape(text)}</th>' if column < names
                    else f"<th>{escape(text)}</th>" for column, text in enumerate(head))
    lines = [f"<table><tr>{heads}</tr>"]
    for row in rows:
        lines.append("<tr>" + "".join(_cell(text, "name" if column < names else "")
                                      for column, text in enumerate(row)) + "</tr>")
    return "\n".join(lines) + "</table>"


def _section(anchor: str, title: str, body: str) -> str:
    return f'<section id="{anchor}"><h2>{escape(title)}</h2>\n{body}\n</section>'


# --- the summary's sections (keys as referee.stats.summarize writes them) --------------------

def headline(summary: Mapping[str, Any]) -> str:
    """The first engine's figures against its opponent (issue 11's list): empty without games
    or with more than two engines."""
    names = summary.get("engines") or []
    if len(names) != 2 or not summary.get("games"):
        return ""
    games = summary["games"]
    wins, draws, losses = summary["wdl"]
    figures = [
        ("games", f"{games}" + (f" ({summary['pairs']} complete pairs)"
                                if summary.get("model") == "pentanomial" else "")),
        ("wins / draws / losses", f"{wins} / {draws} / {losses} ({percent(summary.get('score'))})"),
        ("Elo", _plus_minus(summary.get("elo"), summary.get("elo_error"))),
        ("95 % interval", interval(summary.get("elo_95"), games)),
        ("normalized Elo", _plus_minus(summary.get("nelo"), summary.get("nelo_error"))),
        ("likelihood of superiority", percent(summary.get("los"))),
        ("draw ratio", percent(summary.get("draw_ratio"))),
        ("first player's score", percent((summary.get("first_player") or {}).get("score"))),
        ("model", str(summary.get("model", "–"))),
    ]
    if summary.get("model") == "pentanomial":
        figures.append(("pentanomial [0, ½, 1, 1½, 2]", number(summary.get("pentanomial"))))
    cells = "".join(f'<tr><th class="name">{escape(label)}</th><td>{escape(text)}</td></tr>'
                    for label, text in figures)
    return (f'<p class="note">{escape(names[0])} against {escape(names[1])}:</p>'
            f'<table class="headline">{cells}</table>')


def standings_section(summary: Mapping[str, Any]) -> str:
    """Every engine against the field: score, Elo with its interval, LOS, score as first and
    as second player; then the Bradley-Terry ratings when there are more than two engines."""
    rows = []
    for row in summary.get("standings") or []:
        rows.append([str(row["rank"]), row["name"], str(row["games"]), str(row["wins"]),
                     str(row["draws"]), str(row["losses"]), f"{row['points']:g}",
                     percent(row.get("score")), signed(row.get("elo")),
                     interval(row.get("elo_95"), row["games"]), percent(row.get("los")),
                     percent(row["as_first"]["score"]), percent(row["as_second"]["score"])])
    if not summary.get("games"):
        return _section("standings", "Standings", '<p class="note">no game finished yet</p>')
    body = headline(summary) + table(
        ["#", "engine", "games", "wins", "draws", "losses", "points", "score", "Elo",
         "95 % interval", "LOS", "as first", "as second"], rows, names=2)
    ratings = summary.get("ratings")
    if ratings:
        anchor = ratings.get("anchor")
        basis = f"anchored at {anchor['name']} = {anchor['elo']:g}" if anchor else "mean 0"
        if ratings.get("virtual_draws"):
            basis += f", {ratings['virtual_draws']} virtual draw per pairing"
        body += (f"<h3>Ratings (Bradley–Terry, maximum likelihood; {escape(basis)})</h3>"
                 + table(["#", "engine", "Elo", "±"],
                         [[str(rank), row["name"], signed(row.get("elo")),
                           number(row.get("error"))]
                          for rank, row in enumerate(ratings["engines"], 1)], names=2))
    return _section("standings", "Standings", body)


def crosstable_section(summary: Mapping[str, Any]) -> str:
    """Each engine's points against each other engine; only with more than two engines."""
    names = summary.get("engines") or []
    cells = summary.get("crosstable")
    if len(names) < 3 or not cells:
        return ""
    rows = [[str(me + 1), name] + ["–" if other == me else
                                   (f"{cell['points']:g}/{cell['games']}" if cell else "")
                                   for other, cell in enumerate(cells[me])]
            for me, name in enumerate(names)]
    head = ["#", "engine"] + [str(index) for index in range(1, len(names) + 1)]
    return _section("crosstable", "Crosstable (points/games)", table(head, rows, names=2))


def sprt_section(summary: Mapping[str, Any], history: Sequence[Mapping[str, Any]]) -> str:
    """The SPRT's settings, its log-likelihood ratio over games with the two bounds, and the
    verdict; empty when the run has no SPRT."""
    sprt = summary.get("sprt")
    if not sprt:
        return ""
    said = {"H1": "H1 accepted: the first engine is stronger by elo1 or more",
            "H0": "H0 accepted: the first engine is not stronger by elo1"}.get(
        sprt.get("verdict"), "no verdict yet")
    settings = (f"elo0 {sprt['elo0']:g}, elo1 {sprt['elo1']:g}, alpha {sprt['alpha']:g}, "
                f"beta {sprt['beta']:g}, {sprt['model']} model")
    points = [entry for entry in history if entry.get("llr") is not None]
    chart = line_chart([entry["games"] for entry in points], [entry["llr"] for entry in points],
                       levels=[(sprt["lower"], f"lower bound {sprt['lower']:.2f}: H0"),
                               (sprt["upper"], f"upper bound {sprt['upper']:.2f}: H1")],
                       title="log-likelihood ratio after each game")
    body = (f'<p><span class="verdict">{escape(said)}</span>; LLR '
            f'{number(sprt.get("llr"), 2)} in ({sprt["lower"]:.2f}, {sprt["upper"]:.2f})</p>'
            f'<p class="note">{escape(settings)}</p>{chart}')
    return _section("sprt", "SPRT", body)


def elo_section(summary: Mapping[str, Any], history: Sequence[Mapping[str, Any]]) -> str:
    """The first engine's Elo difference with its 95 % interval after each game (two engines);
    an infinite figure (a perfect score) is drawn at the edge of the chart."""
    names = summary.get("engines") or []
    if len(names) != 2 or not history:
        return ""
    inf = float("inf")
    elos = [entry.get("elo") for entry in history]
    lows = [(entry.get("elo_95") or [None, None])[0] for entry in history]
    highs = [(entry.get("elo_95") or [None, None])[1] for entry in history]
    # The summary writes an infinite figure as null (referee.stats.summary): with one end of
    # the interval finite, the other end and a null Elo are infinite on that side.
    for at, (elo, low, high) in enumerate(zip(elos, lows, highs)):
        if (low is None) != (high is None):
            lows[at] = -inf if low is None else low
            highs[at] = inf if high is None else high
            elos[at] = (inf if low is not None else -inf) if elo is None else elo
    if not any(value is not None and math.isfinite(value) for value in elos + lows + highs):
        body = '<p class="note">no finite Elo yet: every game so far went the same way</p>'
    else:
        body = line_chart([entry["games"] for entry in history], elos, band=(lows, highs),
                          levels=[(0.0, "equal strength")],
                          title="Elo of engine 1 after each game, with its 95 % interval")
    return _section("elo", f"Elo of {names[0]} over games", body)


def terminations_section(summary: Mapping[str, Any]) -> str:
    """How games ended: overall, then per engine for its wins, draws and losses, and the
    terminations it was at fault for."""
    if not summary.get("games"):
        return ""
    rows = [[row["name"], _counts(row["terminations"]["wins"]),
             _counts(row["terminations"]["draws"]), _counts(row["terminations"]["losses"]),
             _counts(row.get("at_fault"))] for row in summary.get("standings") or []]
    body = (f"<p>All games: {escape(_counts(summary.get('terminations')))}</p>"
            + table(["engine", "its wins by", "its draws by", "its losses by", "at fault"], rows,
                    names=5))
    return _section("terminations", "Terminations", body)


def time_section(summary: Mapping[str, Any]) -> str:
    """Each engine's timed moves, seconds used, mean per move and least time left."""
    if not summary.get("games"):
        return ""
    rows = [[row["name"], str(row["time"]["moves"]), number(row["time"]["seconds"], 1),
             number(row["time"]["per_move"], 3), number(row["time"]["min_left"], 3)]
            for row in summary.get("standings") or []]
    return _section("time", "Time use per engine", table(
        ["engine", "timed moves", "seconds used", "seconds per move", "least time left"], rows))


def games_section(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every finished game, linking to its replay."""
    if not rows:
        return _section("games", "Games", '<p class="note">no game finished yet</p>')
    lines = ['<div class="scroll"><table><tr><th>game</th><th class="name">black</th>'
             '<th class="name">white</th><th>result</th><th class="name">termination</th>'
             '<th>plies</th><th>pair</th><th>opening</th><th class="name">reason</th></tr>']
    for row in sorted(rows, key=lambda row: row["game_no"]):
        number_ = row["game_no"]
        lines.append(
            f'<tr id="row-{number_}"><td><a href="#game-{number_}">{number_}</a></td>'
            f'{_cell(row["black"], "name")}{_cell(row["white"], "name")}'
            f'{_cell(row["result"])}{_cell(row["termination"], "name")}'
            f'{_cell(row.get("plies"))}{_cell(row.get("pair"))}{_cell(row.get("opening"))}'
            f'{_cell(row.get("reason", ""), "text")}</tr>')
    return _section("games", "Games", "\n".join(lines) + "</table></div>")


def describe(settings: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
             names: Sequence[str], planned: int | None) -> tuple[str, str]:
    """The page's title and the line under it (game, engines, clock, games done)."""
    game = settings.get("game") or (rows[0]["game"] if rows else "game")
    title = f"{game}: " + " vs ".join(names) if len(names) == 2 else \
        f"{game}: {len(names)} engines"
    clock = ""
    if settings.get("time") is not None:
        clock = f" · {number(settings['time'], 3).rstrip('0').rstrip('.')} s"
        if settings.get("increment"):
            clock += f" + {number(settings['increment'], 3).rstrip('0').rstrip('.')} s"
    done = f"{len(rows)} of {planned}" if planned else f"{len(rows)}"
    return title, f"{done} games finished{clock}{' per side' if clock else ''}"


def viewer() -> str:
    """The replay viewer's frame; report.js fills it in."""
    return """<div id="viewer" hidden>
<div class="viewer-head"><p><a href="#" id="close">← summary</a></p>
<h2 id="v-title"></h2><p id="v-ending" class="note"></p></div>
<div class="viewer-body">
<div id="board" class="board"></div>
<div class="side">
<div class="clocks"><span id="clock-black" data-side="black"></span>
<span id="clock-white" data-side="white"></span></div>
<div class="controls">
<button type="button" id="first" title="start (Home)">|◀</button>
<button type="button" id="back" title="back (←)">◀</button>
<button type="button" id="forward" title="forward (→)">▶</button>
<button type="button" id="last" title="end (End)">▶|</button>
<button type="button" id="flip" title="flip the board (f)">flip</button>
<button type="button" id="copy" title="copy the moves, separated by spaces">copy moves</button>
<a id="ply-link" href="#">link to this ply</a> <span id="copy-status" class="note"></span>
</div>
<p id="ply-info"></p><p id="analysis-info" class="note"></p><p id="v-final" hidden></p>
<div id="evaluation" hidden></div>
<ol id="moves"></ol>
<p class="note">Keys: <kbd>←</kbd> <kbd>→</kbd> step, <kbd>Home</kbd> <kbd>End</kbd>,
<kbd>f</kbd> flip, <kbd>Esc</kbd> back to the summary.</p>
</div></div></div>"""


def render(data: ReportData) -> str:
    """The whole ``report.html`` text."""
    title, line = describe(data.settings, data.rows, data.names, data.planned)
    summary = data.summary
    sections = [
        standings_section(summary),
        crosstable_section(summary),
        sprt_section(summary, data.history),
        elo_section(summary, data.history),
        terminations_section(summary),
        time_section(summary),
        '<section id="live" hidden><h2>Games in progress</h2><div id="live-games"></div>'
        "</section>",
        games_section(data.rows),
    ]
    engines = "".join(f"<li>{escape(name)}</li>" for name in data.names)
    body = "\n".join(section for section in sections if section)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="olympiad-referee">
<link rel="icon" href="data:,">
<title>{escape(title)}</title>
<style>
{_static("report.css")}</style></head>
<body data-assets="{ASSETS_DIR}" data-title="{escape(title)}">
<header><h1>{escape(title)}</h1><p class="meta">{escape(line)}</p>
<p id="live-status" hidden></p></header>
<main id="summary">
<section id="engines"><h2>Engines</h2><ol>{engines}</ol></section>
{body}
</main>
{viewer()}
<script>
{_static("report.js")}</script>
</body></html>
"""


def game_script(game: Mapping[str, Any]) -> str:
    """The text of ``report-assets/game-NNNN.js`` for one game's replay data
    (:func:`referee.report.replay.replay`).

    >>> game_script({"game_no": 2})
    'OlympiadReport.loaded({"game_no": 2});\\n'
    """
    text = json.dumps(game, ensure_ascii=False, separators=(", ", ": "))
    # The file is a script of its own, but keep the text safe to inline in a page as well.
    safe = text.replace("</", "<\\/")
    return f"OlympiadReport.loaded({safe});\n"


def game_file(game_no: int) -> str:
    """The path of a game's replay data, relative to the output folder."""
    return f"{ASSETS_DIR}/game-{game_no:04d}.js"
