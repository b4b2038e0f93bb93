"""Writing files so that nothing is lost: every file rewritten whole goes through a temporary
file and an atomic rename (:func:`write_atomic`), so that a full disk or a kill leaves the old
file or the new one, never half of one; a write that fails raises :class:`WriteFailed`, one
line. No text can make writing fail: every text is encoded by :func:`encoded`, which first
replaces what cannot be written or should not be (a lone surrogate, a control character:
:func:`referee.inbound.printable`), and JSON records are made of values that went through the
same replacement (:func:`json_record`), so that what they hold is printable once read back.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path
from typing import Any, Mapping

from ..inbound import printable


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
            write_all(descriptor, content)
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


def write_all(descriptor: int, content: bytes) -> None:
    """Write all of ``content`` to ``descriptor`` (``os.write`` may write less at a time)."""
    view = memoryview(content)
    while view:
        view = view[os.write(descriptor, view):]


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


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
