"""What a run leaves on disk: ``results.jsonl``, one SGF file per game, ``match.json``,
``summary.json``, and the lock that keeps a second referee out.

``results.jsonl`` has one JSON object per finished game (SPEC 3.3, plus more fields),
appended and flushed as each game ends; it is the record of which games are finished, so the
SGF file of a game is written first. Running the match again with the same folder resumes it:
:class:`ResultsFile` reads the rows back, tolerating a last line cut short by a kill, and the
run plays only the games without a row. ``match.json`` holds the settings the plan and the
results depend on, so that a resumed run cannot silently mix in games played under other
settings. ``summary.json`` is rewritten (whole, then renamed) after every game.

Nothing the referee does removes a finished game: ``results.jsonl`` is only ever appended to
(flushed to the disk, ``fsync``, with each game's SGF file before it), and every file rewritten
whole is rewritten atomically (:mod:`.files`), so that a full disk or a kill leaves the old file
or the new one; a write that fails raises :class:`~.files.WriteFailed`, which stops the run
with one line, and the same command resumes it. The referee writes only real files in its
folder: a symbolic link in the place of one of them is refused (:func:`refuse_links`), never
followed. ``match.json`` is read and compared by :mod:`.settings`, the SGF records written by
:mod:`.game_sgf`.

:func:`lock_folder` takes an exclusive ``flock`` on ``.lock`` in the folder: the kernel drops
it when the process ends, however it ends, so a killed referee never leaves a stale lock.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Mapping, Sequence

from .files import FolderRefused, WriteFailed, encoded, json_record, write_all, write_atomic
from .game_sgf import sgf_text
from .results import GameResult, ResultError

RESULTS_NAME = "results.jsonl"
SETTINGS_NAME = "match.json"
SUMMARY_NAME = "summary.json"
LOCK_NAME = ".lock"
GAMES_DIR = "games"


REPORT_NAME = "report.html"
ASSETS_DIR = "report-assets"  # what the report loads beside it: replays, the list of games


# The names the referee writes in an output folder, each of which must be a real file or folder.
OWN_NAMES = (RESULTS_NAME, SETTINGS_NAME, SUMMARY_NAME, LOCK_NAME, GAMES_DIR, REPORT_NAME,
             ASSETS_DIR)


class FolderBusy(OSError):
    """Another referee is writing to the output folder."""


def refuse_links(out: Path, setting: str = "--out") -> None:
    """Raise :class:`FolderRefused` when one of the names the referee writes in ``out`` is a
    symbolic link: writing through it would overwrite whatever it points to. ``setting`` is
    what the user chose the folder with, for the message (``--out``; an event file's ``out``).
    """
    for name in OWN_NAMES:
        if (out / name).is_symlink():
            raise FolderRefused(f"{out / name} is a symbolic link; the referee writes only real "
                                f"files in its folder (remove the link or use another "
                                f"{setting})")


def sgf_path(out: Path, game_no: int) -> Path:
    """Where game ``game_no``'s SGF record goes in the output folder ``out``."""
    return out / GAMES_DIR / f"game-{game_no:04d}.sgf"


class ResultsFile:
    """``results.jsonl`` of one output folder: which games it holds, reading them back, and
    appending more.

    Opening it reads the file once (:func:`scan_results`) for the game numbers it holds
    (:attr:`finished`, in file order; a game written twice counts by its last line that holds
    a result), never keeping the rows, so that a folder of 100,000 games costs its numbers in
    memory, not its games; :meth:`rows` reads them again when asked. A last line without its
    newline (the run was killed while writing it) is cut from the file. Any other line that is
    not a game's row is kept in the file, untouched, and its line number listed in
    :attr:`unreadable`, so that the command can say so; a game with no other row is played
    again. Each appended row is on the disk (``fsync``) before :meth:`append` returns.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        scan = scan_results(path) if path.exists() else ResultLines()
        self.finished = scan.finished  # game number -> its line number
        self.unreadable = scan.unreadable
        self._lines = scan.lines
        if scan.torn_at is not None:
            self._cut(scan.torn_at)
        try:
            self._descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT |
                                       os.O_NOFOLLOW, 0o644)
        except OSError as error:
            raise WriteFailed(path, error) from None

    def _cut(self, length: int) -> None:
        """Cut the file to its first ``length`` bytes, on the disk before the run goes on."""
        try:
            with self.path.open("r+b") as handle:
                handle.truncate(length)
                os.fsync(handle.fileno())
        except OSError as error:
            raise WriteFailed(self.path, error) from None

    def rows(self) -> Iterator[dict[str, Any]]:
        """The rows of the games in :attr:`finished`, in file order, read from the disk now."""
        return _rows_at(self.path, set(self.finished.values()))

    def append(self, row: dict[str, Any]) -> None:
        """Add the row of a finished game and put it on the disk at once; raises
        :class:`WriteFailed` (a line cut short by it is cut off by the next run)."""
        line = encoded(json_record(row) + "\n")
        with self._lock:
            try:
                write_all(self._descriptor, line)
                os.fsync(self._descriptor)
            except OSError as error:
                raise WriteFailed(self.path, error) from None
            self._lines += 1
            self.finished[row["game_no"]] = self._lines

    def close(self) -> None:
        os.close(self._descriptor)


def _read_row(line: bytes) -> dict[str, Any] | None:
    try:
        row = json.loads(line)
    except ValueError:
        return None
    if not isinstance(row, dict) or not isinstance(row.get("game_no"), int):
        return None
    try:
        GameResult.from_row(row)
    except ResultError:
        return None
    return row


@dataclass
class ResultLines:
    """Where one reading of a ``results.jsonl`` found its games: the line of each game's last
    row that holds a result (game number -> line number, in file order), the lines that hold
    none, the number of whole lines, and where a last line without its newline starts (bytes;
    the run was killed while writing it)."""

    finished: dict[int, int] = field(default_factory=dict)
    unreadable: list[int] = field(default_factory=list)
    lines: int = 0
    torn_at: int | None = None


def scan_results(path: Path) -> ResultLines:
    """Read ``path`` a line at a time for its :class:`ResultLines`, keeping no row: the one
    rule, for the runner and every reader, of which row is a game's (its last line that is a
    game's result; a line that is not leaves an earlier one standing)."""
    scan = ResultLines()
    whole = 0
    with path.open("rb") as handle:
        for line in handle:
            if not line.endswith(b"\n"):
                scan.torn_at = whole
                break
            scan.lines, whole = scan.lines + 1, whole + len(line)
            row = _read_row(line)
            if row is not None:
                scan.finished.pop(row["game_no"], None)
                scan.finished[row["game_no"]] = scan.lines
            elif line.strip():
                scan.unreadable.append(scan.lines)
    return scan


def _rows_at(path: Path, lines: set[int]) -> Iterator[dict[str, Any]]:
    """The rows on the given line numbers of ``path``, in file order."""
    with path.open("rb") as handle:
        for number, line in enumerate(handle, 1):
            if number in lines:
                yield json.loads(line)


def save_game(out: Path, results: ResultsFile, row: dict[str, Any],
              clocks: Sequence[float | None] | None = None, first_player: str = "black") -> None:
    """Write a finished game: its SGF file first, then its results row (the commit mark)."""
    path = sgf_path(out, row["game_no"])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteFailed(path.parent, error) from None
    write_atomic(path, sgf_text({**row, "first_player": first_player}, clocks), durable=True)
    results.append(row)


def write_summary(out: Path, summary: Mapping[str, Any]) -> None:
    """Rewrite ``summary.json`` whole: a reader never sees half of it."""
    write_atomic(out / SUMMARY_NAME, json_record(summary, indent=2) + "\n")


def lock_folder(out: Path, setting: str = "--out") -> IO[str]:
    """Lock ``out`` for this referee (creating the folder if needed) and return the open lock
    file, which holds the lock until it is closed or the process ends. Raises
    :class:`FolderBusy`, leaving the folder as it was, when another referee holds it
    (``setting`` as in :func:`refuse_links`)."""
    out.mkdir(parents=True, exist_ok=True)
    refuse_links(out, setting)
    descriptor = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    handle = os.fdopen(descriptor, "r+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        by = f" (process {holder})" if holder.isdigit() else ""
        raise FolderBusy(f"{out} is in use by another referee{by}; wait for it to finish "
                         f"or use another {setting}") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def read_rows(path: Path, scan: ResultLines | None = None) -> Iterator[dict[str, Any]]:
    """The finished games' rows of a ``results.jsonl`` in file order, one per game, chosen as
    the runner chooses them (:func:`scan_results`, or the ``scan`` already made): lines that
    hold no game's result and a line cut short by a kill are left out.

    The file is read twice, once for the line that holds each game's row and once for those
    rows, so that a folder of 100,000 games costs a line number per game in memory and one row
    at a time, not every row at once. Rows appended between the two passes (a run still going)
    are left to the next reading.
    """
    kept = set((scan or scan_results(path)).finished.values())
    return _rows_at(path, kept)


class GameRows:
    """The finished games' rows of a ``results.jsonl`` (:func:`read_rows`; none while
    the file does not exist), read from the disk again each time they are walked: the report
    walks a folder several times, one row in memory at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if not self.path.exists():
            return iter(())
        return read_rows(self.path)


def engine_names(named: Sequence[str], rows: Iterable[dict[str, Any]]) -> list[str]:
    """The engines' display names by index: ``named`` (those ``match.json`` gives) when there
    are any, else from the rows (walked only then)."""
    if named:
        return list(named)
    found: dict[int, str] = {}
    for row in rows:
        found[row["black_index"]] = row["black"]
        found[row["white_index"]] = row["white"]
    return [found.get(index, f"engine {index}") for index in range(1, max(found, default=0) + 1)]
