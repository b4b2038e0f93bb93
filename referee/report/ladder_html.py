"""The ladder's pages as HTML text: the pools, a pool (standings, all-time table, games in
progress, recent games), an account, a game (the report's replay viewer), the games in progress.

Pure functions of the records' values (:mod:`referee.records.database`) and of what the pages
server adds to them (who is connected, the all-time table); the server
(:mod:`referee.host.ladder_pages`) reads and serves, this module only writes text. Every text
that came from outside (account names, engine names and versions, pool names, reasons) goes
through :func:`html.escape`; a replay's data is inlined as JSON with ``</`` broken, as the
report's scripts are. The style sheet and the viewer's script are the report's own
(``report.css``, ``report.js``): the page needs no network, and the games in progress move as
in the report, by polling JSON (``data-live``).
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, Mapping, Sequence
from urllib.parse import quote

from ..records.database import Account, EngineSeen, Game, OpponentRecord, Pool, RatingPoint
from ..records.database import Ending, Standing
from .charts import line_chart
from .page import _static, page_head, table, viewer

if TYPE_CHECKING:
    from ..stats.alltime import AllTimeTable

CHART_POINTS = 500  # the most points of a rating chart (a long history is thinned evenly)
LADDER_CSS = """
nav { margin: 12px 0 0; } nav a { margin-right: 14px; }
td.connected { color: #17612f; }
"""


@dataclass(frozen=True)
class PoolLine:
    """A pool as the first page lists it: how many are connected and played today."""

    pool: Pool
    connected: int
    today: int


@dataclass(frozen=True)
class AccountInPool:
    """An account's records in one pool: its rating after each game, its results against each
    opponent."""

    pool: Pool
    history: Sequence[RatingPoint]
    opponents: Sequence[OpponentRecord]


def pool_href(name: str, day: datetime.date | None = None) -> str:
    """The address of a pool's page, or of its games of one UTC day as SGF."""
    base = f"/pool/{quote(name, safe='')}"
    return base if day is None else f"{base}/{day.isoformat()}.sgf"


def account_href(name: str) -> str:
    return f"/account/{quote(name, safe='')}"


def game_href(game: int) -> str:
    return f"/game/{int(game)}"


def _link(href: str, text: str) -> str:
    return f'<a href="{escape(href)}">{escape(text)}</a>'


def board_text(pool: Pool) -> str:
    """A pool's board as the tables show it (``standard``: the game's own)."""
    return "standard" if pool.size is None else f"{pool.size[0]}x{pool.size[1]}"


def moment_text(moment: datetime.datetime | None) -> str:
    return "–" if moment is None else moment.strftime("%Y-%m-%d %H:%M")


def _document(title: str, body: str, live: str = "", game: int | None = None,
              script: str = "") -> str:
    """A whole page: the report's style, the ladder's menu, ``body``; with ``live`` (a JSON
    address) or ``game`` the report's script runs, polling the games in progress or opening
    the viewer on that game."""
    data = f' data-live="{escape(live)}"' if live else ""
    data += f' data-game="{int(game)}"' if game is not None else ""
    scripts = (f"<script>\n{_static('report.js')}</script>\n{script}"
               if live or game is not None else "")
    head = page_head(title, "olympiad-referee ladder", _static("report.css") + LADDER_CSS)
    return head + f"""<body data-assets="" data-title="{escape(title)}"{data}>
<nav><a href="/">pools</a><a href="/live">games in progress</a></nav>
{body}
{scripts}</body></html>
"""


def _live_section(title: str = "Games in progress") -> str:
    """Where report.js draws the games in progress (hidden while there are none)."""
    return (f'<p id="live-status" hidden></p><section id="live" hidden><h2>{escape(title)}'
            f'</h2><div id="live-games"></div></section>')


def index_page(name: str, lines: Sequence[PoolLine]) -> str:
    """The first page, titled with the ladder's ``name``: every pool with its game, board,
    time control, who is connected, and the games finished today (UTC)."""
    rows = "".join(
        f"<tr><td class=\"name\">{_link(pool_href(line.pool.name), line.pool.name)}</td>"
        f"<td class=\"name\">{escape(line.pool.game)}</td><td>{escape(board_text(line.pool))}"
        f"</td><td>{escape(line.pool.time_control)}</td><td>{line.connected}</td>"
        f"<td>{line.today}</td></tr>" for line in lines)
    body = (f'<header><h1>{escape(name)}</h1><p class="meta">Pools, each one game with its '
            'board and time control; ratings after every game and over all games.</p>'
            '</header><main><table><tr><th class="name">pool</th><th class="name">game</th>'
            '<th>board</th><th>time control</th><th>connected</th><th>games today</th></tr>'
            f'{rows}</table></main>')
    return _document(name, body)


def standings_table(standings: Sequence[Standing], connected: frozenset[str]) -> str:
    """A pool's standings: who is connected now, rating ± deviation, games, W-D-L, last seen."""
    if not standings:
        return '<p class="note">no game finished yet</p>'
    rows = []
    for rank, line in enumerate(standings, 1):
        rating = "–" if line.rating is None else f"{line.rating:.0f} ± {line.deviation:.0f}"
        here = '<td class="connected" title="connected now">●</td>' \
            if line.account in connected else "<td></td>"
        rows.append(f"<tr><td>{rank}</td><td class=\"name\">"
                    f"{_link(account_href(line.account), line.account)}</td>{here}"
                    f"<td>{rating}</td><td>{line.games}</td>"
                    f"<td>{line.wins}-{line.draws}-{line.losses}</td>"
                    f"<td>{moment_text(line.last_seen)}</td></tr>")
    return ('<table class="standings"><tr><th>#</th><th class="name">account</th><th></th>'
            '<th>rating</th><th>games</th><th>W-D-L</th><th>last seen (UTC)</th></tr>'
            + "".join(rows) + "</table>")


def alltime_table(alltime: AllTimeTable | None) -> str:
    """The all-time Bradley-Terry table, or a note saying why there is none yet. The table is
    of its last fit, which may be older than the pool's latest games: each note says when."""
    if alltime is None:
        return '<p class="note">not computed yet</p>'
    when = f"when last computed ({moment_text(alltime.computed)} UTC; again as games finish)"
    if not alltime.games:
        return f'<p class="note">no game had finished {when}</p>'
    if not alltime.ratings:
        return (f'<p class="note">the {alltime.games} games finished {when} do not connect '
                f'every account yet: no common scale</p>')
    basis = f"anchored at {alltime.anchor}" if alltime.anchor else "mean 0"
    if alltime.virtual_draws:
        basis += f", {alltime.virtual_draws} virtual draw per pairing"
    rows = [[str(rank), rating.account, f"{rating.elo:.0f}", f"{rating.error:.0f}",
             str(rating.games)] for rank, rating in enumerate(alltime.ratings, 1)]
    return (f'<p class="note">Bradley–Terry over {alltime.games} games ({escape(basis)}; '
            f'± is the 95 % interval), computed {moment_text(alltime.computed)} UTC</p>'
            + table(["#", "account", "Elo", "±", "games"], rows, names=2))


def games_table(games: Sequence[Game]) -> str:
    """Finished games, newest first: number (a link to its page), players, engines, result."""
    if not games:
        return '<p class="note">none yet</p>'
    rows = []
    for game in games:
        ending = game.ending
        result = "–" if ending is None else ending.outcome.result
        how = "" if ending is None else ending.outcome.termination.value
        plies = "" if ending is None else str(len(ending.moves))
        rows.append(
            f"<tr><td>{_link(game_href(game.id), str(game.id))}</td>"
            f"<td class=\"name\">{_link(account_href(game.black), game.black)}</td>"
            f"<td class=\"name\">{_link(account_href(game.white), game.white)}</td>"
            f"<td>{escape(result)}</td><td class=\"name\">{escape(how)}</td><td>{plies}</td>"
            f"<td>{moment_text(ending.finished if ending else None)}</td></tr>")
    return ('<table class="games"><tr><th>game</th><th class="name">black</th>'
            '<th class="name">white</th><th>result</th><th class="name">by</th><th>plies</th>'
            '<th>finished (UTC)</th></tr>' + "".join(rows) + "</table>")


def _archive_line(pool: Pool, recent: Sequence[Game]) -> str:
    """The link to the SGF archive of the latest day in ``recent`` with a finished game."""
    days = [game.ending.finished.date() for game in recent if game.ending is not None]
    if not days:
        return ""
    day = max(days)
    return (f"<p>{_link(pool_href(pool.name, day), f'the games of {day.isoformat()} as SGF')} "
            f"(UTC day; others at {escape(pool_href(pool.name))}/YYYY-MM-DD.sgf)</p>")


def pool_page(pool: Pool, standings: Sequence[Standing], connected: frozenset[str],
              alltime: AllTimeTable | None, recent: Sequence[Game], live: str) -> str:
    """A pool's page; ``live`` is the JSON address of its games in progress. The SGF archive
    linked is that of the latest UTC day with a finished game (none before the first)."""
    facts = (f"{pool.game} · board {board_text(pool)} · time {pool.time_control} · "
             f"{len(connected)} connected now")
    body = (f"<header><h1>{escape(pool.name)}</h1><p class=\"meta\">{escape(facts)}</p>"
            f"</header><main>"
            f"<section id=\"standings\"><h2>Standings</h2>{standings_table(standings, connected)}"
            f"</section><section id=\"alltime\"><h2>All-time ratings</h2>"
            f"{alltime_table(alltime)}</section>{_live_section()}"
            f"<section id=\"recent\"><h2>Recent games</h2>{games_table(recent)}"
            f"{_archive_line(pool, recent)}</section></main>")
    return _document(f"{pool.name} – ladder", body, live=live)


def rating_chart(history: Sequence[RatingPoint]) -> str:
    """An account's rating after each game with its 95 % band (± 1.96 deviations), thinned to
    at most :data:`CHART_POINTS` points."""
    if not history:
        return '<p class="note">no rated game</p>'
    stride = -(-len(history) // CHART_POINTS)
    picks = list(range(0, len(history), stride))
    if picks[-1] != len(history) - 1:
        picks.append(len(history) - 1)
    points = [history[pick] for pick in picks]
    numbers = [pick + 1 for pick in picks]
    ratings = [point.rating for point in points]
    band = ([point.rating - 1.96 * point.deviation for point in points],
            [point.rating + 1.96 * point.deviation for point in points])
    return line_chart(numbers, ratings, band=band,
                      title="rating after each rated game, with its 95 % interval")


def rating_now(history: Sequence[RatingPoint]) -> str:
    """The rating after the last rated game, as the standings show it, and the count of them."""
    if not history:
        return ""
    last = history[-1]
    return (f'<p class="meta">rating {last.rating:.0f} ± {last.deviation:.0f} after '
            f'{len(history)} rated game{"s" if len(history) > 1 else ""}</p>')


def opponents_table(opponents: Sequence[OpponentRecord]) -> str:
    """Results against each opponent, each a link to the opponent's page."""
    if not opponents:
        return '<p class="note">no finished game</p>'
    rows = "".join(
        f"<tr><td class=\"name\">{_link(account_href(record.opponent), record.opponent)}</td>"
        f"<td>{record.games}</td><td>{record.wins}</td><td>{record.draws}</td>"
        f"<td>{record.losses}</td></tr>" for record in opponents)
    return ('<table class="opponents"><tr><th class="name">opponent</th><th>games</th>'
            '<th>wins</th><th>draws</th><th>losses</th></tr>' + rows + "</table>")


def engines_table(engines: Sequence[EngineSeen]) -> str:
    rows = [[seen.engine.name, seen.engine.version, str(seen.games), moment_text(seen.first),
             moment_text(seen.last)] for seen in engines]
    return table(["engine", "version", "games", "first (UTC)", "last (UTC)"], rows, names=2) \
        if rows else '<p class="note">none yet</p>'


def account_page(account: Account, pools: Sequence[AccountInPool], recent: Sequence[Game],
                 engines: Sequence[EngineSeen]) -> str:
    """An account's page: per pool its rating now and over time, and results against each
    opponent; then its recent games and the engines (name and version answers) it played
    with."""
    sections = "".join(
        f"<section class=\"pool\"><h2>{_link(pool_href(part.pool.name), part.pool.name)} "
        f"({escape(part.pool.game)})</h2>{rating_now(part.history)}{rating_chart(part.history)}"
        f"<h3>Results against each opponent</h3>{opponents_table(part.opponents)}</section>"
        for part in pools)
    state = " · disabled" if account.disabled else ""
    sections = sections or '<p class="note">no finished game</p>'
    body = (f"<header><h1>{escape(account.name)}</h1><p class=\"meta\">account since "
            f"{moment_text(account.created)} UTC{state}</p></header><main>"
            f"{sections}"
            f"<section id=\"recent\"><h2>Recent games</h2>{games_table(recent)}</section>"
            f"<section id=\"engines\"><h2>Engines seen</h2>{engines_table(engines)}</section>"
            f"</main>")
    return _document(f"{account.name} – ladder", body)


def _inline_call(function: str, value: Any) -> str:
    """A script calling ``OlympiadReport.function(value)``, safe inside a page."""
    text = json.dumps(value, ensure_ascii=False).replace("</", "<\\/")
    return f"<script>OlympiadReport.{function}({text});</script>\n"


def game_facts(game: Game, pool: Pool) -> str:
    """The line under a game's title: pool, engines with their versions, times, the end, and
    where it started (the book's opening, a random start's options) when not from the game's
    own start."""
    engines = (f"black's engine {game.black_engine.name} {game.black_engine.version}, "
               f"white's {game.white_engine.name} {game.white_engine.version}")
    ending = game.ending
    if ending is not None:
        state = (f"{ending.outcome.result} · {ending.outcome.termination.value}: "
                 f"{ending.outcome.reason} · finished {moment_text(ending.finished)} UTC"
                 f"{_start_text(ending)}")
    else:
        state = game.status.value + (f": {game.abort_reason}" if game.abort_reason else "")
    return (f"{_link(pool_href(pool.name), pool.name)} ({escape(pool.game)}) · "
            f"{escape(engines)} · started {moment_text(game.started)} UTC · {escape(state)}")


def _start_text(ending: Ending) -> str:
    """`` · opening 3 (4 plies) · start layout=...``, the parts that apply; empty for a game
    played from its game's own start."""
    parts = []
    if ending.opening is not None:
        parts.append(f"opening {ending.opening} ({ending.opening_plies} plies)")
    if ending.start_options:
        parts.append("start " + " ".join(f"{key}={value}"
                                          for key, value in ending.start_options.items()))
    return "".join(f" · {part}" for part in parts)


def game_page(game: Game, pool: Pool, replay: Mapping[str, Any] | None) -> str:
    """A game's page: its facts, and the report's replay viewer on it (with the engines'
    analysis and the evaluation chart where they gave any) once it has finished."""
    title = f"Game {game.id}: {game.black} – {game.white}"
    players = (f"Game {game.id}: {_link(account_href(game.black), game.black)} (black) – "
               f"{_link(account_href(game.white), game.white)} (white)")
    head = f"<header><h1>{players}</h1><p class=\"meta\">{game_facts(game, pool)}</p></header>"
    if replay is None:
        note = "in progress: see the pool's page" if game.ending is None and \
            game.status.value == "playing" else "no moves to replay"
        return _document(title, f'{head}<main id="summary"><p class="note">{escape(note)}</p>'
                                f"</main>")
    body = (f'{head}<main id="summary"></main>'
            + viewer(back_href=pool_href(pool.name), back_text=pool.name))
    return _document(title, body, game=game.id, script=_inline_call("loaded", replay))


def live_page() -> str:
    """Every pool's games in progress, moving (polling ``/api/live``)."""
    body = ('<header><h1>Games in progress</h1><p class="meta">every pool\'s, moving as they '
            'are played; none are shown while no game is in progress</p></header><main>'
            + _live_section("Now") + "</main>")
    return _document("Games in progress – ladder", body, live="/api/live")
