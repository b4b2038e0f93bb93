"""The raw rows of a run folder's ``results.jsonl``, for the tests that check what was written.

The referee's own reader (:func:`referee.records.folder.read_rows`) keeps one row a game and
leaves out a line a kill cut short: right for a report, but it would hide exactly what the
resume and trust tests look for, a game recorded twice or a torn row in the middle. This one
returns every complete line as written.
"""

from __future__ import annotations

import json
from pathlib import Path


def rows_written(out: Path) -> list[dict]:
    """Every row of ``out/results.jsonl`` in the order written, a game as often as it appears.

    ``[]`` while the file does not exist yet, so that a test can wait for the first row; a
    last line without its newline (a write under way, or cut short by a kill) is left out,
    while a broken line before it fails the test.
    """
    path = out / "results.jsonl"
    if not path.exists():
        return []
    *complete, _unfinished = path.read_text().split("\n")
    return [json.loads(line) for line in complete]
