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
    kind = css or ("text" if isinstance(value, str) else "")
    return f'<td class="{kind}">{escape(text)}</td>' if kind else f"<td>{escape(text)}</td>"


def _heading(key: str) -> str:
    return key.replace("_", " ")


def table(records: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None,
          name_column: str | None = None) -> str:
    """An HTML table of dict records, one row each, columns in ``columns`` order (by default
    the keys of the first record, leaving out nested dicts).

    >>> print(table([{"name": "a", "score": 1.5}], name_column="name"))
    <table><tr><th class="name">name</th><th>score</th></tr>
    <tr><td class="name">a</td><td>1.5</td></tr></table>
    """
    if not records:
        return '<p class="note">none yet</p>'
    if columns is None:
        columns = [key for key, value in records[0].items() if not isinstance(value, dict)]
    head = "".join(f'<th class="name">{escape(_heading(key))}</th>' if key == name_column
                   else f"<th>{escape(_heading(key))}</th>" for key in columns)
    lines = [f"<table><tr>{head}</tr>"]
    for record in records:
        cells = "".join(_cell(record.get(key), "name" if key == name_column else "")
                        for key in columns)
        lines.append(f"<tr>{cells}</tr>")
    return "\n".join(lines) + "</table>"


def _section(anchor: str, title: str, body: str) -> str:
    return f'<section id="{anchor}"><h2>{escape(title)}</h2>\n{body}\n</section>'


# --- the summary's sections ----------------------------------------------------------------

def headline(summary: Mapping[str, Any], names: Sequence[str]) -> str:
    """The two-engine figures of issue 11 (first engine's view): score, Elo with its interval,
    normalized Elo, LOS, draw ratio, pentanomial counts; empty for more engines."""
    if len(names) != 2 or not summary.get("games"):
        return ""
    wins, draws, losses = summary.get("wdl") or (None, None, None)
    figures = [("games", summary.get("games")), ("pairs", summary.get("pairs")),
               ("wins / draws / losses", f"{wins} / {draws} / {losses}"),
               ("Elo", summary.get("elo")), ("95 % interval", summary.get("elo_95")),
               ("normalized Elo", summary.get("nelo")), ("LOS", _percent(summary.get("los"))),
               ("draw ratio", _percent(summary.get("draw_ratio"))),
               ("pentanomial [0, ½, 1, 1½, 2]", summary.get("pentanomial"))]
    cells = "".join(f"<tr><th class=\"name\">{escape(label)}</th>{_cell(value)}</tr>"
                    for label, value in figures if value is not None)
    return (f'<p class="note">{escape(names[0])} against {escape(names[1])}:</p>'
            f"<table>{cells}</table>")


def _percent(value: float | None) -> str | None:
    return None if value is None else f"{100 * value:.1f} %"


def standings_section(summary: Mapping[str, Any], names: Sequence[str]) -> str:
    body = headline(summary, names)
    if summary.get("standings"):
        body += table(summary["standings"], name_column="name")
    if summary.get("ratings"):
        body += "<h3>Ratings (Bradley–Terry, maximum likelihood)</h3>"
        body += table(summary["ratings"], name_column="name")
    return _section("standings", "Standings", body or '<p class="note">no game finished yet</p>')


def crosstable_section(summary: Mapping[str, Any], names: Sequence[str]) -> str:
    """Each engine's score against each other engine; only with more than two engines."""
    cross = summary.get("crosstable")
    if len(names) < 3 or not cross:
        return ""
    head = "".join(f"<th>{index}</th>" for index in range(1, len(names) + 1))
    lines = [f'<table><tr><th>#</th><th class="name">engine</th>{head}</tr>']
    for me, name in enumerate(names):
        cells = []
        for other in range(len(names)):
            if other == me:
                cells.append('<td class="self">–</td>')
            else:
                cells.append(_cell(_cross_cell(cross, me, other)))
        lines.append(f'<tr><td>{me + 1}</td><td class="name">{escape(name)}</td>'
                     f'{"".join(cells)}</tr>')
    return _section("crosstable", "Crosstable", "\n".join(lines) + "</table>")


def _cross_cell(cross: Any, me: int, other: int) -> str:
    """``score/games`` of engine ``me`` against ``other`` (0-based) from the summary's
    crosstable, a matrix of ``[score, games]`` cells."""
    cell = cross[me][other]
    if not cell or not cell[1]:
        return ""
    return f"{cell[0]:g}/{cell[1]}"


def sprt_section(summary: Mapping[str, Any], history: Sequence[Mapping[str, Any]]) -> str:
    """The SPRT's settings, its log-likelihood ratio over games with the two bounds, and the
    verdict; empty when the run has no SPRT."""
    sprt = summary.get("sprt")
    if not sprt:
        return ""
    verdict = sprt.get("verdict")
    said = {"H1": "H1 accepted: the first engine is stronger by elo1 or more",
            "H0": "H0 accepted: the first engine is not stronger by elo1"}.get(
        verdict, "no verdict yet")
    settings = (f"elo0 {number(sprt.get('elo0'))}, elo1 {number(sprt.get('elo1'))}, "
                f"alpha {sprt.get('alpha')}, beta {sprt.get('beta')}, model {sprt.get('model')}")
    points = [entry for entry in history if entry.get("llr") is not None]
    chart = line_chart([entry["games"] for entry in points], [entry["llr"] for entry in points],
                       levels=[(sprt["lower"], f"lower {sprt['lower']:.2f} (H0)"),
                               (sprt["upper"], f"upper {sprt['upper']:.2f} (H1)")],
                       title="log-likelihood ratio after each game")
    body = (f'<p><span class="verdict">{escape(said)}</span>: LLR {number(sprt.get("llr"), 2)} '
            f'in [{number(sprt.get("lower"), 2)}, {number(sprt.get("upper"), 2)}]</p>'
            f'<p class="note">{escape(settings)}</p>{chart}')
    return _section("sprt", "SPRT", body)


def elo_section(history: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """The first engine's Elo difference with its 95 % interval after each game."""
    points = [entry for entry in history if entry.get("elo") is not None]
    if len(names) != 2 or not points:
        return ""
    intervals = [entry.get("elo_95") or (None, None) for entry in points]
    chart = line_chart([entry["games"] for entry in points], [entry["elo"] for entry in points],
                       band=([low for low, _ in intervals], [high for _, high in intervals]),
                       levels=[(0.0, "")], title=f"Elo of {names[0]} after each game, "
                                                 f"with its 95 % interval")
    return _section("elo", "Elo over games", chart)


def per_engine_section(anchor: str, title: str, by_engine: Any) -> str:
    """A per-engine table from the summary: a list of records or a dict name -> record."""
    if not by_engine:
        return ""
    if isinstance(by_engine, Mapping):
        records = [{"name": name, **record} for name, record in by_engine.items()]
    else:
        records = list(by_engine)
    columns = sorted({key for record in records for key in record if key != "name"},
                     key=lambda key: [key for record in records for key in record].index(key))
    return _section(anchor, title, table(records, ["name", *columns], name_column="name"))


def games_section(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every finished game, linking to its replay."""
    if not rows:
        return _section("games", "Games", '<p class="note">no game finished yet</p>')
    lines = ['<div class="scroll"><table><tr><th>game</th><th class="name">black</th>'
             '<th class="name">white</th><th>result</th><th class="name">termination</th>'
             '<th>plies</th><th>pair</th><th>opening</th><th class="name">reason</th></tr>']
    for row in rows:
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
<p id="ply-info"></p><p id="v-final" hidden></p>
<ol id="moves"></ol>
<p class="note">Keys: <kbd>←</kbd> <kbd>→</kbd> step, <kbd>Home</kbd> <kbd>End</kbd>,
<kbd>f</kbd> flip, <kbd>Esc</kbd> back to the summary.</p>
</div></div></div>"""


def render(data: ReportData) -> str:
    """The whole ``report.html`` text."""
    title, line = describe(data.settings, data.rows, data.names, data.planned)
    summary = data.summary
    sections = [
        standings_section(summary, data.names),
        crosstable_section(summary, data.names),
        sprt_section(summary, data.history),
        elo_section(data.history, data.names),
        per_engine_section("terminations", "Terminations per engine", summary.get("terminations")),
        per_engine_section("time", "Time use per engine", summary.get("time")),
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
<title>{escape(title)}</title>
<style>
{_static("report.css")}</style></head>
<body data-finished="{len(data.rows)}" data-assets="{ASSETS_DIR}" data-title="{escape(title)}">
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
