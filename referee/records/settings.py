"""``match.json``: the settings the plan and the results of a run depend on, saved with its
first game, so that a resumed run (or event) cannot silently mix in games played under other
settings: :func:`check_settings` compares, and names each difference in the words the user
wrote.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from ..text import parse_anchor, sprt_values
from .differences import EVENT_LABELS, LABELS, describe_differences
from .files import as_recorded, json_record, write_atomic
from .folder import SETTINGS_NAME


class SettingsMismatch(ValueError):
    """The output folder holds a match played with other settings."""


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
    ``event`` key); ``setting`` is what chose the folder, as in :func:`~referee.records.folder.refuse_links`.

    A key whose value is ``None`` in ``settings`` is taken from the saved ones (the seed, when
    the command line gives none); in a new folder, from ``defaults``, and the result is saved.
    The settings are compared and returned as the file holds them (:func:`~referee.records.files.as_recorded`), so
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
