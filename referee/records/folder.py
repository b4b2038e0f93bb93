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
whole goes through a temporary file and an atomic rename (:func:`write_atomic`), so that a
full disk or a kill leaves the old file or the new one, never half of one. A write that fails
raises :class:`WriteFailed`, which stops the run with one line; the same command resumes it.
The referee writes only real files in its folder: a symbolic link in the place of one of them
is refused (:class:`FolderRefused`), never followed.

No text can make writing a record fail: every text written in the folder is encoded by
:func:`encoded`, which first replaces what cannot be written or should not be (a lone surrogate,
a control character: :func:`referee.inbound.printable`), wherever the text came from (an
engine's name or error, a participant's reason, a person's name, a command line); JSON records
are made of values that went through the same replacement first (:func:`json_record`), so that
what they hold is printable too once read back.

:func:`lock_folder` takes an exclusive ``flock`` on ``.lock`` in the folder: the kernel drops
it when the process ends, however it ends, so a killed referee never leaves a stale lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Mapping, Sequence

from ..inbound import printable
from ..text import parse_anchor, sprt_values
from .analysis import SGF_PROPERTY as ANALYSIS_PROPERTY
from .analysis import from_row, sgf_value
from .differences import EVENT_LABELS, LABELS, describe_differences
from .results import GameResult, ResultError
from .sgf import GAME_NUMBERS

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


class SettingsMismatch(ValueError):
    """The output folder holds a match played with other settings."""


class FolderBusy(OSError):
    """Another referee is writing to the output folder."""


class FolderRefused(ValueError):
    """The output folder holds something the referee will not write through (a symbolic link)."""


class WriteFailed(OSError):
    """A file of the output folder could not be written (a full disk, a file-size limit); the
    message is one line saying which file and what to do."""

    def __init__(self, path: Path, error: OSError) -> None:
        why = error.strerror or str(error)
        super().__init__(f"cannot write {path}: {why}; free some space (or raise the file-size "
                         f"limit) and run the same command again: every finished game is kept")
        self.path = path


def encoded(text: str) -> bytes:
    """``text`` as the UTF-8 of a record, each lone surrogate and control character (but tab
    and newline) replaced by U+FFFD: this never fails, whatever ``text`` holds.

    >>> encoded("boom \\udc80\\x1b[2J")
    b'boom \\xef\\xbf\\xbd\\xef\\xbf\\xbd[2J'
    """
    return printable(text).encode("utf-8")


def write_atomic(path: Path, data: str | bytes, durable: bool = False) -> None:
    """Replace ``path`` with ``data`` whole (text :func:`encoded`): written to a temporary file
    beside it, then renamed over it, so that a reader or a crash sees the old file or the new
    one. ``durable`` also flushes the file and its folder to the disk (``fsync``), for files
    holding finished results. Raises :class:`WriteFailed`, leaving ``path`` as it was."""
    content = encoded(data) if isinstance(data, str) else data
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW,
                             0o644)
        try:
            _write_all(descriptor, content)
            if durable:
                os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
        if durable:
            _sync_folder(path.parent)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise WriteFailed(path, error) from None


def _write_all(descriptor: int, content: bytes) -> None:
    view = memoryview(content)
    while view:
        view = view[os.write(descriptor, view):]


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


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


def _sgf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def recorded_clock(seconds: float) -> float:
    """A clock's time left as the records keep it: never below 0, to the millisecond.

    >>> recorded_clock(-0.2), recorded_clock(12.34567)
    (0.0, 12.346)
    """
    return round(max(0.0, seconds), 3)


def sgf_text(row: Mapping[str, Any], clocks: Sequence[float | None] | None = None) -> str:
    """The SGF record of a game from its results row: a root node with the players, result
    and rules, then one node per move holding our move text (``B[b1-b3]``), with the time left
    (``BL``/``WL``) when ``clocks`` gives it (opening moves have none) and the mover's analysis
    (``EA``, in the lines of ``genmove_analyze``, see ``docs/analysis.md``) when the row's
    ``analysis`` has one for the move. The last opening move's
    comment says where the opening ends (``C[end of opening 3]``); the termination and its
    reason are the last node's comment.

    >>> row = {"game": "loa", "game_no": 1, "black": "a", "white": "b", "result": "B+",
    ...        "termination": "resign", "reason": "white resigned", "moves": ["b1-b3"],
    ...        "size": [8, 8], "options": {}, "first_player": "black"}
    >>> print(sgf_text(row), end="")
    (;FF[4]CA[UTF-8]GM[9]AP[olympiad-referee]SZ[8]GN[loa game 1]PB[a]PW[b]RE[B+]
    ;B[b1-b3]C[resign: white resigned])
    """
    root = ["FF[4]", "CA[UTF-8]", f"GM[{GAME_NUMBERS.get(row['game'], row['game'])}]",
            "AP[olympiad-referee]"]
    if row.get("size"):
        cols, rows = row["size"]
        root.append(f"SZ[{cols}]" if cols == rows else f"SZ[{cols}:{rows}]")
    root.append(f"GN[{_sgf_escape(row['game'])} game {row['game_no']}]")
    if row.get("finished"):
        root.append(f"DT[{row['finished'][:10]}]")
    root += [f"PB[{_sgf_escape(row['black'])}]", f"PW[{_sgf_escape(row['white'])}]",
             f"RE[{row['result']}]"]
    settings = " ".join(f"{key}={value}" for key, value in row.get("options", {}).items())
    if settings:
        root.append(f"GC[{_sgf_escape('options: ' + settings)}]")
    nodes = [";" + "".join(root)]
    analyses = [from_row(entry) for entry in row.get("analysis") or ()]
    colour = 0 if row["first_player"] == "black" else 1
    comments = {len(nodes) - 1 + len(row["moves"]): row["termination"] + ": " + row["reason"]}
    if row.get("opening_plies"):
        opening = f"end of opening {row['opening']}" if row.get("opening") else "end of opening"
        ply = len(nodes) - 1 + row["opening_plies"]
        comments[ply] = opening + ("; " + comments[ply] if ply in comments else "")
    for ply, move in enumerate(row["moves"]):
        letter = "BW"[colour]
        node = f";{letter}[{_sgf_escape(move)}]"
        if clocks and clocks[ply] is not None:
            node += f"{letter}L[{recorded_clock(clocks[ply]):.3f}]"
        if ply < len(analyses) and analyses[ply] is not None:
            node += f"{ANALYSIS_PROPERTY}[{_sgf_escape(sgf_value(analyses[ply]))}]"
        nodes.append(node)
        colour ^= 1
    for place, comment in comments.items():
        nodes[place] += f"C[{_sgf_escape(comment)}]"
    return "(" + "\n".join(nodes) + ")\n"


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
                _write_all(self._descriptor, line)
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


def read_settings(out: Path) -> dict[str, Any]:
    """The folder's settings for those who only show them (the report): an empty dict when
    ``match.json`` is missing or unreadable, where :func:`saved_settings` refuses."""
    try:
        return saved_settings(out) or {}
    except (OSError, SettingsMismatch):
        return {}


def saved_settings(out: Path) -> dict[str, Any] | None:
    """The settings saved in ``out`` (``match.json``), ``None`` when there are none; raises
    :class:`SettingsMismatch` when the file is not a JSON object."""
    path = out / SETTINGS_NAME
    if not path.exists():
        return None
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        saved = None
    if not isinstance(saved, dict):
        raise SettingsMismatch(f"{path} is not the JSON settings of a match")
    try:
        return _as_values(saved)
    except ValueError as error:
        raise SettingsMismatch(f"{path}: {error}") from None


def _as_values(saved: dict[str, Any]) -> dict[str, Any]:
    """Settings of older folders in today's form: their SPRT as ``--sprt`` words and their
    anchor as ``NAME=ELO`` become the objects written now, so that readers take values.

    >>> _as_values({"sprt": "elo0=0 elo1=5", "anchor": "base=1000"})
    {'sprt': {'elo0': 0.0, 'elo1': 5.0}, 'anchor': {'name': 'base', 'elo': 1000.0}}
    """
    sprt, anchor = saved.get("sprt"), saved.get("anchor")
    if isinstance(sprt, (str, list)):
        saved["sprt"] = sprt_values([sprt] if isinstance(sprt, str) else sprt) if sprt else None
    if isinstance(anchor, str):
        saved["anchor"] = dict(zip(("name", "elo"), parse_anchor(anchor))) if anchor else None
    return saved


def check_settings(out: Path, settings: Mapping[str, Any], defaults: Mapping[str, Any],
                   setting: str = "--out") -> dict[str, Any]:
    """Compare ``settings`` with the ones saved in ``out`` and return the saved ones; raises
    :class:`SettingsMismatch` naming each difference, old and new, in the words of what the
    user wrote: the command line's, or the event file's for an event's settings (those with an
    ``event`` key); ``setting`` is what chose the folder, as in :func:`refuse_links`.

    A key whose value is ``None`` in ``settings`` is taken from the saved ones (the seed, when
    the command line gives none); in a new folder, from ``defaults``, and the result is saved.
    The settings are compared and returned as the file holds them (:func:`as_recorded`), so
    that a name the file could not hold as given still resumes.
    """
    path = out / SETTINGS_NAME
    saved = saved_settings(out)
    settings = as_recorded(settings)
    if saved is None:
        fresh = {key: defaults.get(key) if value is None else value
                 for key, value in settings.items()}
        write_atomic(path, json_record(fresh, indent=2) + "\n", durable=True)
        return fresh
    missing = [key for key in defaults if key not in saved]
    if missing:
        raise SettingsMismatch(f"{path} is not the settings of a match (no {missing[0]}); "
                               f"use another {setting}")
    event = "event" in settings
    differ = describe_differences(saved, settings, EVENT_LABELS if event else LABELS)
    if differ:
        raise SettingsMismatch(f"{out} holds {'an event' if event else 'a match'} with other "
                               f"settings: {differ}; use another {setting}, or the same "
                               f"settings to resume")
    return saved


def as_recorded(value: Any) -> Any:
    """``value`` (JSON data) as a record holds it: every text in it printable
    (:func:`referee.inbound.printable`), tuples as lists. JSON records are written from this,
    since JSON would escape a control character out of :func:`encoded`'s sight.

    >>> as_recorded({"name": "Ev\\udcffil\\x1b[2J", "size": (3, 5)})
    {'name': 'Ev\ufffdil\ufffd[2J', 'size': [3, 5]}
    """
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, Mapping):
        return {as_recorded(key): as_recorded(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_recorded(item) for item in value]
    return value


def json_record(value: Any, indent: int | None = None) -> str:
    """``value`` as the JSON text of a record (:func:`as_recorded`; every script as itself, not
    as ASCII escapes)."""
    return json.dumps(as_recorded(value), ensure_ascii=False, indent=indent)


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


def engine_names(settings: dict[str, Any], rows: Iterable[dict[str, Any]]) -> list[str]:
    """The engines' display names by index: from ``match.json`` (a list of engine objects
    with ``name``, or of command lines, numbered when one repeats), else from the rows (walked
    only then)."""
    engines = settings.get("engines")
    if isinstance(engines, list) and engines:
        if all(isinstance(engine, dict) for engine in engines):
            return [str(engine.get("name") or engine.get("command")) for engine in engines]
        commands = [str(engine) for engine in engines]
        return [command if commands.count(command) == 1 else f"{command} #{index}"
                for index, command in enumerate(commands, 1)]
    named: dict[int, str] = {}
    for row in rows:
        named[row["black_index"]] = row["black"]
        named[row["white_index"]] = row["white"]
    return [named.get(index, f"engine {index}") for index in range(1, max(named, default=0) + 1)]
