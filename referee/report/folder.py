"""The report of an output folder: reading its records, writing ``report.html`` and the replays.

Everything shown comes from the records a run leaves (``match.json``, ``results.jsonl``, the SGF
files), so ``olympiad-referee report DIR`` rebuilds the same report at any time, during a run or
long after. Files are written whole to a temporary name and then renamed over the old one, so a
browser (or the live server) never reads half a page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from ..records.files import WriteFailed, encoded, write_atomic
from ..records.folder import REPORT_NAME, RESULTS_NAME, GameRows, engine_names, sgf_path
from ..records.game_sgf import recorded_clock
from ..records.results import GameResult
from ..run.settings import RunSettings, read_settings
from ..stats import Tally, history, summary_of
from .charts import Sample
from .page import (GAMES_FILE, REPLAYS_FORMAT_FILE, ReportData, game_file, game_script,
                   games_line, render)
from .replay import REPLAY_FORMAT, replay, sgf_clocks

def write_page_file(path: Path, text: str) -> None:
    """Write one file of the report (its folder made first), atomically."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteFailed(path.parent, error) from None
    write_atomic(path, text)


def report_data(out: Path, rows: Iterable[Mapping[str, Any]] | None = None,
                planned: int | None = None,
                visit: Callable[[Mapping[str, Any]], None] | None = None) -> ReportData:
    """Everything the page shows, read from the folder (``rows``: its results rows, when at
    hand) in one walk over the rows (two for an old folder whose ``match.json`` does not name
    the engines); ``visit`` is called with each row on the way, so that the replays and the
    games list are written in the same walk (:func:`walk_rows`)."""
    settings = read_settings(out)
    if rows is None:
        rows = GameRows(out / RESULTS_NAME)
    names = engine_names(settings.names if settings else (), rows)
    sprt = settings.sprt if settings else None
    tally, sample = Tally(len(names)), Sample()

    def results() -> Iterator[GameResult]:
        for row in rows:
            if visit is not None:
                visit(row)
            yield GameResult.from_row(row)

    sample.extend(history(results(), names, sprt, tally))
    return ReportData(settings, names,
                      summary_of(tally, names, sprt=sprt,
                                 anchor=settings.anchor if settings else None),
                      sample.points(), planned)


def walk_rows(out: Path, rows: Iterable[Mapping[str, Any]], planned: int | None = None,
              replays: str = "missing") -> ReportData:
    """The page's figures from ``rows``, writing on the way the replays of the games (all of
    them with ``replays="all"``, else those not written yet, or written in another
    :data:`~.replay.REPLAY_FORMAT`) and then the games list whole: the folder is read once,
    whatever it holds."""
    settings = read_settings(out)
    every = replays == "all" or replays_format(out) != REPLAY_FORMAT
    lines: list[str] = []

    def visit(row: Mapping[str, Any]) -> None:
        if every or not (out / game_file(row["game_no"])).exists():
            write_game(out, row, settings)
        lines.append(games_line(row))

    data = report_data(out, rows, planned, visit)
    write_page_file(out / GAMES_FILE, "".join(lines))
    write_page_file(out / REPLAYS_FORMAT_FILE, f"{REPLAY_FORMAT}\n")
    return data


def replays_format(out: Path) -> int | None:
    """The :data:`~.replay.REPLAY_FORMAT` of the folder's replays, ``None`` where unknown
    (replays of a version before the format was written down, or none yet)."""
    try:
        return int((out / REPLAYS_FORMAT_FILE).read_text(encoding="ascii"))
    except (OSError, ValueError):
        return None


def append_to_games_list(out: Path, row: Mapping[str, Any]) -> None:
    """Add a finished game's line to ``report-assets/games.js``: the list grows at the cost of
    one line, whatever its length."""
    path = out / GAMES_FILE
    try:
        with open(path, "ab") as handle:
            handle.write(encoded(games_line(row)))
    except OSError as error:
        raise WriteFailed(path, error) from None


def write_game(out: Path, row: Mapping[str, Any], settings: RunSettings | None,
               clocks: Sequence[float | None] | None = None) -> Path:
    """Write the replay data of one finished game; returns its path. ``clocks`` (the mover's
    time left after each move) as the game just played gave them; without them, as its SGF
    record kept them (a folder's replays written anew)."""
    if clocks is not None:
        clocks = [None if left is None else recorded_clock(left) for left in clocks]
    else:
        try:
            clocks = sgf_clocks(sgf_path(out, row["game_no"]).read_text(encoding="utf-8"))
        except OSError:
            clocks = []
    path = out / game_file(row["game_no"])
    start = (starting_time(settings, row["black_index"]),
             starting_time(settings, row["white_index"]))
    write_page_file(path, game_script(replay(row, clocks, start)))
    return path


def starting_time(settings: RunSettings | None, engine: int) -> float | None:
    """The clock engine ``engine`` (1-based) starts a game with: the time of its control
    (``None`` when ``match.json`` does not name it)."""
    engines = settings.engines if settings else ()
    return engines[engine - 1].control.time if engine <= len(engines) else None


def write_page(out: Path, data: ReportData) -> Path:
    """Write ``report.html`` from ``data``; returns its path."""
    path = out / REPORT_NAME
    write_page_file(path, render(data))
    return path


def write_report(out: Path, games: str = "missing") -> Path:
    """Write ``report.html``, the games list and the replays of the finished games: all of
    them (``games="all"``) or only those not written yet in this format (``"missing"``);
    returns the page's path."""
    return write_page(out, walk_rows(out, GameRows(out / RESULTS_NAME), replays=games))
