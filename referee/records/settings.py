"""``match.json``: the settings the plan and the results of a run depend on, saved with its
first game, so that a resumed run (or event) cannot silently mix in games played under other
settings: :func:`check_settings` compares, and names each difference in the words the user
wrote.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from .differences import EVENT_LABELS, LABELS, describe_differences
from .files import as_recorded, json_record, write_atomic
from .folder import SETTINGS_NAME


class SettingsMismatch(ValueError):
    """The output folder holds a match played with other settings."""


def saved_json(out: Path) -> dict[str, Any] | None:
    """The JSON object saved in ``out`` (``match.json``), ``None`` when there is none; raises
    :class:`SettingsMismatch` when the file is not a JSON object. What it means is
    :class:`referee.run.settings.RunSettings`'s to say."""
    path = out / SETTINGS_NAME
    if not path.exists():
        return None
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        saved = None
    if not isinstance(saved, dict):
        raise SettingsMismatch(f"{path} is not the JSON settings of a match")
    return saved


def check_settings(out: Path, given: Mapping[str, Any], saved: Mapping[str, Any] | None,
                   setting: str = "--out") -> Mapping[str, Any]:
    """The settings a run in ``out`` goes on with: ``given`` in a new folder (``saved`` is
    ``None``), written to ``match.json``; else ``saved``, after refusing
    (:class:`SettingsMismatch`) when they lack a seed or when ``given`` differs from them,
    naming each difference, old and new, in the words of what the user wrote: the command
    line's, or the event file's for an event's settings (those with an ``event`` key);
    ``setting`` is what chose the folder, as in :func:`~referee.records.folder.refuse_links`.
    Both are in the same form (the JSON this version writes); a key whose value is ``None``
    in ``given`` is not compared (the saved value is kept).

    ``given`` is compared and written as the file holds it
    (:func:`~referee.records.files.as_recorded`), so that a name the file could not hold as
    given still resumes.
    """
    path = out / SETTINGS_NAME
    given = as_recorded(given)
    if saved is None:
        write_atomic(path, json_record(given, indent=2) + "\n", durable=True)
        return given
    if saved.get("seed") is None:
        raise SettingsMismatch(f"{path} is not the settings of a match (no seed); "
                               f"use another {setting}")
    event = given.get("event") is not None
    differ = describe_differences(saved, given, EVENT_LABELS if event else LABELS)
    if differ:
        raise SettingsMismatch(f"{out} holds {'an event' if event else 'a match'} with other "
                               f"settings: {differ}; use another {setting}, or the same "
                               f"settings to resume")
    return saved
