"""The report of an output folder: reading its records, writing ``report.html`` and the replays.

Everything shown comes from the records a run leaves (``match.json``, ``results.jsonl``, the SGF
files), so ``olympiad-referee report DIR`` rebuilds the same report at any time, during a run or
long after. Files are written whole to a temporary name and then renamed over the old one, so a
browser (or the live server) never reads half a page.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..records import RESULTS_NAME, SETTINGS_NAME, sgf_path
from .page import ASSETS_DIR, ReportData, game_file, game_script, render
from .replay import replay, sgf_clocks

REPORT_NAME = "report.html"


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The results rows of a ``results.jsonl``, in game order, without changing the file (a
    referee may be appending to it): a line not yet ended, or not a row, is left out; a game
    number seen twice keeps its last row."""
    rows: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_bytes().split(b"\n")[:-1]:
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and isinstance(row.get("game_no"), int):
                rows[row["game_no"]] = row
    return [rows[number] for number in sorted(rows)]


def read_settings(out: Path) -> dict[str, Any]:
    """``match.json`` of the folder, or an empty dict when it has none (or none readable)."""
    try:
        settings = json.loads((out / SETTINGS_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return settings if isinstance(settings, dict) else {}


def engine_names(settings: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The engines' names in command-line order: those ``match.json`` gives, else those the
    results rows use, else the command lines (a folder written before engines had names).

    >>> engine_names({"engines": [{"command": "e", "name": "new"}, {"command": "e", "name": "old"}]}, [])
    ['new', 'old']
    >>> engine_names({"engines": ["a", "b"]}, [{"black_index": 2, "black": "b #2",
    ...                                          "white_index": 1, "white": "a"}])
    ['a', 'b #2']
    """
    engines = list(settings.get("engines") or [])
    names = [engine.get("name") if isinstance(engine, Mapping) else None for engine in engines]
    for row in rows:
        for colour in ("black", "white"):
            index = row[f"{colour}_index"]
            names += [None] * (index - len(names))
            names[index - 1] = names[index - 1] or row[colour]
    for index, name in enumerate(names):
        if name is None:
            names[index] = _command(engines[index]) if index < len(engines) else f"engine {index + 1}"
    return names


def _command(engine: Any) -> str:
    return engine["command"] if isinstance(engine, Mapping) else str(engine)


def figures(rows: Sequence[Mapping[str, Any]], names: Sequence[str],
            settings: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The summary and the figures after each game, from :mod:`referee.stats`."""
    from .. import stats
    if not hasattr(stats, "summarize"):  # until the statistics of issue 11 land
        return {}, []
    from ..results import GameResult
    results = [GameResult.from_row(row) for row in rows]
    sprt = stats.sprt_from_settings(settings) if hasattr(stats, "sprt_from_settings") else None
    return (stats.summarize(results, list(names), sprt=sprt),
            stats.history(results, list(names), sprt=sprt))


def report_data(out: Path, rows: Sequence[Mapping[str, Any]] | None = None,
                planned: int | None = None) -> ReportData:
    """Everything the page shows, read from the folder (``rows`` when the caller has them)."""
    settings = read_settings(out)
    rows = read_rows(out / RESULTS_NAME) if rows is None else list(rows)
    names = engine_names(settings, rows)
    summary, history = figures(rows, names, settings)
    return ReportData(settings, rows, names, summary, history, planned)


def write_game(out: Path, row: Mapping[str, Any], settings: Mapping[str, Any]) -> Path:
    """Write the replay data of one finished game; returns its path."""
    try:
        clocks = sgf_clocks(sgf_path(out, row["game_no"]).read_text(encoding="utf-8"))
    except OSError:
        clocks = []
    path = out / game_file(row["game_no"])
    write_atomic(path, game_script(replay(row, clocks, settings.get("time"))))
    return path


def write_report(out: Path, rows: Sequence[Mapping[str, Any]] | None = None,
                 planned: int | None = None, games: str = "missing") -> Path:
    """Write ``report.html`` and the replays of the finished games: all of them
    (``games="all"``) or only those not written yet (``"missing"``); returns the page's path."""
    data = report_data(out, rows, planned)
    assets = out / ASSETS_DIR
    for row in data.rows:
        if games == "all" or not (assets / Path(game_file(row["game_no"])).name).exists():
            write_game(out, row, data.settings)
    path = out / REPORT_NAME
    write_atomic(path, render(data))
    return path
