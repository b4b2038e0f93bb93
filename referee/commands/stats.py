"""``olympiad-referee stats DIR [DIR ...] [--json]``: every figure again, from results files alone.

Each folder is an output folder of ``match``: ``results.jsonl`` (one row per finished game)
and ``match.json`` (the settings, for the engines' names and order and the SPRT and anchor
of the run). Several folders are merged by engine name: they must hold the same engines
(in any order); their pairs are kept apart. The figures are those of ``summary.json``:
``--json`` prints the same object, computed by the same :func:`summarize`, so a figure never
depends on how a run went or was interrupted. Nothing in the folders is written.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Sequence

import click

from ..records.folder import RESULTS_NAME, SETTINGS_NAME, engine_names, read_rows, scan_results
from ..records.settings import SettingsMismatch
from ..records.results import GameResult
from ..run.settings import RunSettings
from ..stats.output import format_summary
from ..stats.sprt import SprtError
from ..stats.summary import summarize
from ..text import parse_anchor
from .arguments import parse_sprt
from .match import PROGRAM


@dataclasses.dataclass
class RecordedRun:
    """One folder read back: its engines' names (by index), settings and results."""

    folder: Path
    names: list[str]
    settings: RunSettings | None
    results: list[GameResult]


def read_run(folder: Path) -> RecordedRun:
    """One output folder; raises ``click.UsageError`` when it is not one."""
    results_path = folder / RESULTS_NAME
    if not folder.is_dir():
        raise click.UsageError(f"{folder}: no such folder")
    if not results_path.is_file():
        raise click.UsageError(f"{folder}: no {RESULTS_NAME} (not an output folder of match)")
    try:
        settings = RunSettings.read(folder)
    except SettingsMismatch as error:
        raise click.UsageError(str(error)) from None
    scan = scan_results(results_path)
    if scan.unreadable:
        lines = ", ".join(map(str, scan.unreadable))
        click.echo(f"{PROGRAM}: {results_path}: line(s) {lines} hold no game's result; they are "
                   f"left out", err=True)
    results = [GameResult.from_row(row) for row in read_rows(results_path, scan)]
    names = engine_names(settings.names if settings else (), read_rows(results_path, scan))
    if len(names) < 2:
        raise click.UsageError(f"{folder}: neither {SETTINGS_NAME} nor {RESULTS_NAME} names the "
                               f"engines (no games finished yet?)")
    return RecordedRun(folder, names, settings, results)


def merge(runs: Sequence[RecordedRun]) -> tuple[list[str], list[GameResult]]:
    """The engines of the first run, and every run's results renumbered onto them: game
    numbers follow on, pair numbers are offset so that pairs of different runs stay apart."""
    names = runs[0].names
    merged: list[GameResult] = []
    for run in runs:
        if sorted(run.names) != sorted(names) or len(set(names)) != len(names):
            raise click.UsageError(
                f"{run.folder}: engines {', '.join(run.names)} do not match "
                f"{runs[0].folder}'s ({', '.join(names)}); only runs of the same engines merge")
        index = {old: names.index(name) + 1 for old, name in enumerate(run.names, 1)}
        game_offset = len(merged)
        pair_offset = max((result.pair or 0 for result in merged), default=0)
        for number, result in enumerate(run.results, 1):
            merged.append(dataclasses.replace(
                result, game_no=game_offset + number, black=index[result.black],
                white=index[result.white],
                pair=None if result.pair is None else pair_offset + result.pair))
    return names, merged


@click.command("stats", context_settings={"max_content_width": 100})
@click.argument("folders", nargs=-1, required=True,
                type=click.Path(path_type=Path), metavar="DIR [DIR ...]")
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary object (as in summary.json) instead of text.")
@click.option("--sprt", "sprt_words", default=None, metavar="'elo0=A elo1=B ...'",
              help="SPRT settings to evaluate (default: those of the first run, if any).")
@click.option("--anchor", default=None, metavar="NAME=ELO",
              help="Rating of one engine in the ratings (default: that of the first run, "
                   "else mean 0).")
def stats_command(folders: tuple[Path, ...], as_json: bool, sprt_words: str | None,
                  anchor: str | None) -> None:
    """Recompute the statistics of one or more output folders from their results files."""
    runs = [read_run(folder) for folder in folders]
    names, results = merge(runs)
    try:
        saved = runs[0].settings
        sprt = parse_sprt([sprt_words]) if sprt_words else saved.sprt if saved else None
        anchored = parse_anchor(anchor) if anchor else saved.anchor if saved else None
        summary = summarize(results, names, sprt, anchored)
    except (SprtError, ValueError) as error:
        raise click.UsageError(str(error)) from None
    if as_json:
        click.echo(json.dumps(summary.as_json(), indent=2, allow_nan=False))
    else:
        click.echo(format_summary(summary, saved.gauntlet if saved else 0))
