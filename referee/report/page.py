"""``report.html``: the summary of a run and its replay viewer, as one HTML text.

:func:`render` is a pure function of :class:`ReportData` (what the output folder's records say):
the figures come from :mod:`referee.stats` (the summary, and the figures after each game, a
bounded sample of them for the charts). The style sheet and the script are inlined from
``report.css`` and ``report.js`` beside this module, so the page needs no network. What grows
with the run lives beside the page, so that writing the page costs the same at game 100,000 as
at game 100: the list of games in ``report-assets/games.js`` (a line appended per game,
:func:`games_line`), the boards of each game in ``report-assets/game-NNNN.js``; the page's
script loads both from disk as it needs them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from html import escape
from importlib import resources
from typing import Any, Mapping, Sequence

from ..plan.time_control import describe_clocks
from ..records.folder import ASSETS_DIR
from ..run.settings import RunSettings
from ..stats.figures import UNDEFINED, estimate_text, from_json, interval_text
from ..stats.figures import text as figure_text
from ..stats.output import crosstable_cells, verdict_text
from ..stats.summary import Summary
from .charts import line_chart


@dataclass(frozen=True)
class ReportData:
    """What the report shows: the run's settings (``match.json``), the engines' names, the
    summary and the figures after each game (a sample of them: the charts), and the number of
    games planned when known. The games themselves are listed in ``report-assets/games.js``."""

    settings: RunSettings | None
    names: Sequence[str]
    summary: Summary | None = None
    history: Sequence[Mapping[str, Any]] = ()
    planned: int | None = None


def _static(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def page_head(title: str, generator: str, style: str) -> str:
    """A self-contained page's start, up to its ``<body>``: the character set, the viewport,
    no icon to fetch, ``title`` and the style sheet ``style``, written into the page."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{generator}">
<link rel="icon" href="data:,">
<title>{escape(title)}</title>
<style>
{style}</style></head>
"""


def number(value: Any, digits: int = 1) -> str:
    """A figure as the tables show it (:mod:`referee.stats.figures`: ``n/a`` when undefined,
    ``+inf``/``-inf`` when infinite).

    >>> number(None), number(12.345), number(float("inf")), number("-inf"), number(3)
    ('n/a', '12.3', '+inf', '-inf', '3')
    >>> number([1.25, -20.0])
    '[1.2, -20.0]'
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(number(item, digits) for item in value) + "]"
    if value is None or isinstance(value, (float, str)):
        return figure_text(value, digits)
    return str(value)


def _cell(value: Any, css: str = "") -> str:
    text = value if isinstance(value, str) else number(value)
    return f'<td class="{css}">{escape(text)}</td>' if css else f"<td>{escape(text)}</td>"


def percent(value: float | None) -> str:
    """A share as a percentage, ``n/a`` when undefined.

    >>> percent(0.5), percent(None)
    ('50.0 %', 'n/a')
    """
    return UNDEFINED if value is None else f"{100 * value:.1f} %"


def signed(value: Any) -> str:
    """An Elo figure with its sign.

    >>> signed(12.34), signed("+inf"), signed(None)
    ('+12.3', '+inf', 'n/a')
    """
    return figure_text(value, 1, signed=True)


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


# --- the summary's sections (a referee.stats.Summary; None before the first game) -----------

def headline(summary: Summary) -> str:
    """The first engine's figures against its opponent (issue 11's list): empty without games
    or with more than two engines."""
    names = summary.engines
    if len(names) != 2 or not summary.games:
        return ""
    head = summary.headline
    paired = head.model == "pentanomial"
    figures = [
        ("games", f"{summary.games}" + (f" ({summary.pairs} complete pairs)" if paired else "")),
        ("wins / draws / losses",
         f"{head.wins} / {head.draws} / {head.losses} ({percent(head.score)})"),
        ("Elo", estimate_text(head.elo.elo, head.elo.elo_error, None, 1)),
        ("95 % interval", interval_text(head.elo.interval)),
        ("normalized Elo", estimate_text(head.elo.nelo, head.elo.nelo_error, None, 1)),
        ("likelihood of superiority", percent(head.elo.los)),
        ("draw ratio", percent(summary.draw_ratio)),
        ("first player's score", percent(summary.first_player.score)),
        ("model", head.model),
    ]
    if paired:
        figures.append(("pentanomial [0, ½, 1, 1½, 2]", number(list(head.pentanomial))))
    cells = "".join(f'<tr><th class="name">{escape(label)}</th><td>{escape(text)}</td></tr>'
                    for label, text in figures)
    return (f'<p class="note">{escape(names[0])} against {escape(names[1])}:</p>'
            f'<table class="headline">{cells}</table>')


def standings_section(summary: Summary | None) -> str:
    """Every engine against the field: score, Elo with its interval, LOS, score as first and
    as second player; then the Bradley-Terry ratings when there are more than two engines."""
    if summary is None or not summary.games:
        return _section("standings", "Standings", '<p class="note">no game finished yet</p>')
    rows = [[str(row.rank), row.name, str(row.games), str(row.wins), str(row.draws),
             str(row.losses), f"{row.points:g}", percent(row.score), signed(row.elo.elo),
             interval_text(row.elo.interval), percent(row.elo.los), percent(row.as_first.score),
             percent(row.as_second.score)] for row in summary.standings]
    body = headline(summary) + table(
        ["#", "engine", "games", "wins", "draws", "losses", "points", "score", "Elo",
         "95 % interval", "LOS", "as first", "as second"], rows, names=2)
    ratings = summary.ratings
    if ratings:
        anchor = ratings.anchor
        basis = f"anchored at {anchor[0]} = {anchor[1]:g}" if anchor else "mean 0"
        if ratings.virtual_draws:
            basis += f", {ratings.virtual_draws} virtual draw per pairing"
        body += (f"<h3>Ratings (Bradley–Terry, maximum likelihood; {escape(basis)})</h3>"
                 + table(["#", "engine", "Elo", "±"],
                         [[str(rank), row.name, signed(row.elo), number(row.error)]
                          for rank, row in enumerate(ratings.engines, 1)], names=2))
    return _section("standings", "Standings", body)


def crosstable_section(summary: Summary | None) -> str:
    """Each engine's points against each other engine; only with more than two engines."""
    if summary is None or len(summary.engines) < 3 or not summary.games:
        return ""
    cells = crosstable_cells(summary, diagonal="–")
    rows = [[str(rank), summary.engines[me]] + cells[rank - 1]
            for rank, me in enumerate(summary.order, 1)]
    head = ["#", "engine"] + [str(rank) for rank in range(1, len(summary.engines) + 1)]
    return _section("crosstable", "Crosstable (points/games)", table(head, rows, names=2))


def sprt_section(summary: Summary | None, history: Sequence[Mapping[str, Any]]) -> str:
    """The SPRT's settings, its log-likelihood ratio over games with the two bounds, and the
    verdict; empty when the run has no SPRT."""
    sprt = summary.headline.sprt if summary is not None else None
    if sprt is None:
        return ""
    said = verdict_text(sprt)
    given = sprt.settings
    settings = (f"elo0 {given.elo0:g}, elo1 {given.elo1:g}, alpha {given.alpha:g}, "
                f"beta {given.beta:g}, {given.model} model")
    lower, upper = sprt.bounds
    points = [entry for entry in history if entry.get("llr") is not None]
    chart = line_chart([entry["games"] for entry in points], [entry["llr"] for entry in points],
                       levels=[(lower, f"lower bound {lower:.2f}: H0"),
                               (upper, f"upper bound {upper:.2f}: H1")],
                       title="log-likelihood ratio after each game")
    body = (f'<p><span class="verdict">{escape(said)}</span>; LLR '
            f'{number(sprt.llr, 2)} in ({lower:.2f}, {upper:.2f})</p>'
            f'<p class="note">{escape(settings)}</p>{chart}')
    return _section("sprt", "SPRT", body)


def elo_section(summary: Summary | None, history: Sequence[Mapping[str, Any]]) -> str:
    """The first engine's Elo difference with its 95 % interval after each game (two engines);
    an infinite figure (every game won, or lost) is an arrow at the edge of the chart, and the
    line has a gap there (:func:`~referee.report.charts.line_chart`)."""
    names = summary.engines if summary is not None else ()
    if len(names) != 2 or not history:
        return ""
    elos = [from_json(entry.get("elo")) for entry in history]
    lows = [from_json((entry.get("elo_95") or [None, None])[0]) for entry in history]
    highs = [from_json((entry.get("elo_95") or [None, None])[1]) for entry in history]
    if not any(value is not None and math.isfinite(value) for value in elos + lows + highs):
        body = '<p class="note">no finite Elo yet: every game so far went the same way</p>'
    else:
        body = line_chart([entry["games"] for entry in history], elos, band=(lows, highs),
                          levels=[(0.0, "equal strength")],
                          title="Elo of engine 1 after each game, with its 95 % interval")
    return _section("elo", f"Elo of {names[0]} over games", body)


def terminations_section(summary: Summary | None) -> str:
    """How games ended: overall, then per engine for its wins, draws and losses, and the
    terminations it was at fault for."""
    if summary is None or not summary.games:
        return ""
    rows = [[row.name, _counts(row.terminations["wins"]), _counts(row.terminations["draws"]),
             _counts(row.terminations["losses"]), _counts(row.faults)]
            for row in summary.standings]
    body = (f"<p>All games: {escape(_counts(summary.terminations))}</p>"
            + table(["engine", "its wins by", "its draws by", "its losses by", "at fault"], rows,
                    names=5))
    return _section("terminations", "Terminations", body)


def time_section(summary: Summary | None) -> str:
    """Each engine's timed moves, seconds used, mean per move and least time left."""
    if summary is None or not summary.games:
        return ""
    rows = [[row.name, str(row.time.moves), number(row.time.seconds, 1),
             number(row.time.per_move, 3), number(row.time.min_left, 3)]
            for row in summary.standings]
    return _section("time", "Time use per engine", table(
        ["engine", "timed moves", "seconds used", "seconds per move", "least time left"], rows))


def games_section(finished: int) -> str:
    """The list of finished games, filled in by the page's script from ``games.js``."""
    empty = "" if finished else '<p class="note">no game finished yet</p>'
    return _section("games", "Games", f'<div class="scroll" id="games-list">{empty}</div>')


GAME_FIELDS = ("game_no", "black", "white", "result", "termination", "plies", "pair", "opening",
               "reason")


def games_line(row: Mapping[str, Any]) -> str:
    """The line of ``report-assets/games.js`` that lists one finished game.

    >>> print(games_line({"game_no": 2, "black": "a</script>", "white": "b", "result": "B+",
    ...                   "termination": "normal", "plies": 9, "reason": "x"})[:59])
    OlympiadReport.listed({"game_no": 2, "black": "a<\\/script>"
    """
    return _script_call("listed", {key: row.get(key) for key in GAME_FIELDS})


def _script_call(function: str, value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    # The file is a script of its own, but keep the text safe to inline in a page as well.
    safe = text.replace("</", "<\\/")
    return f"OlympiadReport.{function}({safe});\n"


def describe(settings: RunSettings | None, finished: int, names: Sequence[str],
             planned: int | None) -> tuple[str, str]:
    """The page's title and the line under it (game, engines, clock, games done)."""
    game = settings.setup.game if settings and settings.setup.game else "game"
    title = f"{game}: " + " vs ".join(names) if len(names) == 2 else \
        f"{game}: {len(names)} engines"
    done = f"{finished} of {planned}" if planned else f"{finished}"
    clocks = describe_clocks([(spec.name, spec.control) for spec in settings.engines]) \
        if settings and settings.engines else ""
    return title, f"{done} games finished" + (f" · {clocks} (seconds)" if clocks else "")


def viewer(back_href: str = "#", back_text: str = "summary") -> str:
    """The replay viewer's frame, its link back to ``back_href``; report.js fills it in."""
    return f"""<div id="viewer" hidden>
<div class="viewer-head"><p><a href="{escape(back_href)}" id="close">← {escape(back_text)}</a></p>
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
    summary = data.summary
    finished = summary.games if summary is not None else 0
    title, line = describe(data.settings, finished, data.names, data.planned)
    sections = [
        standings_section(summary),
        crosstable_section(summary),
        sprt_section(summary, data.history),
        elo_section(summary, data.history),
        terminations_section(summary),
        time_section(summary),
        '<section id="live" hidden><h2>Games in progress</h2><div id="live-games"></div>'
        "</section>",
        games_section(finished),
    ]
    engines = "".join(f"<li>{escape(name)}</li>" for name in data.names)
    body = "\n".join(section for section in sections if section)
    return page_head(title, "olympiad-referee", _static("report.css")) + f"""<body data-assets="{ASSETS_DIR}" data-title="{escape(title)}" data-live="live.json">
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
    return _script_call("loaded", game)


GAMES_FILE = f"{ASSETS_DIR}/games.js"
REPLAYS_FORMAT_FILE = f"{ASSETS_DIR}/replays-format"


def game_file(game_no: int) -> str:
    """The path of a game's replay data, relative to the output folder."""
    return f"{ASSETS_DIR}/game-{game_no:04d}.js"
