"""What differs between a folder's saved settings and a resume's: each setting, old and new.

A resume under other settings is refused (:func:`referee.records.settings.check_settings`); the
refusal names every setting that differs, down to the one value, in the words of the command
line: ``engine 2 time 3 (now 5)``, not the two engines' whole dicts; an event's, in those of
its event file (:data:`EVENT_LABELS`: ``participant 2 time 3 (now 5)``).

>>> saved = {"game": "loa", "engines": [{"name": "a", "control": {"time": 3.0}},
...                                     {"name": "b", "control": {"time": 3.0}}]}
>>> given = {"game": "loa", "engines": [{"name": "a", "control": {"time": 3.0}},
...                                     {"name": "b", "control": {"time": 5.0}}]}
>>> describe_differences(saved, given)
'engine 2 time 3 (now 5)'
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Mapping

# How a saved key reads on the command line: as itself, ``_`` read as ``-``.
LABELS: dict[str, str] = {}
# How it reads in an event file: its engines are participants, its options its keys.
# (the event's own table is its top-level keys: ``name``, ``format``).
EVENT_LABELS = {"engines": "participants", "size": "boardsize", "event": ""}
# The most differences one refusal names (the others are counted), and the longest value shown.
MOST_NAMED = 5
LONGEST_VALUE = 40


def differences(old: Any, new: Any, where: str = "",
                labels: Mapping[str, str] = LABELS) -> Iterator[tuple[str, Any, Any]]:
    """Each (setting, old value, new value) that differs, down to single values: dicts key by
    key (named by ``labels`` where the saved key is not the user's word), lists of dicts item
    by item (``engines`` as ``engine 1``...; by their count when it differs), anything else
    whole."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in dict.fromkeys([*old, *new]):
            yield from differences(old.get(key), new.get(key),
                                   _join(where, _label(key, labels)), labels)
    elif (isinstance(old, list) and isinstance(new, list)
          and any(isinstance(item, dict) for item in old + new)):
        if len(old) != len(new):
            yield where, len(old), len(new)
            return
        item = where[:-1] if where.endswith("s") else where
        for number, (before, after) in enumerate(zip(old, new), 1):
            yield from differences(before, after, f"{item} {number}", labels)
    elif old != new:
        yield where, old, new


def describe_differences(saved: Mapping[str, Any], given: Mapping[str, Any],
                         labels: Mapping[str, str] = LABELS) -> str:
    """The differences between ``saved`` and ``given`` on one line, keys named by ``labels``; a
    key whose given value is ``None`` is not compared (the saved value is kept)."""
    found = [f"{setting} {_shown(old)} (now {_shown(new)})"
             for key, value in given.items() if value is not None
             for setting, old, new in differences(saved.get(key), value, _label(key, labels),
                                                  labels)]
    named = ", ".join(found[:MOST_NAMED])
    return named + (f" and {len(found) - MOST_NAMED} more" if len(found) > MOST_NAMED else "")


def _label(key: str, labels: Mapping[str, str]) -> str:
    return labels.get(key, key.replace("_", "-"))


def _join(where: str, key: str) -> str:
    """A nested key under ``where``; an engine's time control's keys read as its own."""
    if key == "control":
        return where
    return f"{where} {key}" if where else key


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= LONGEST_VALUE else text[:LONGEST_VALUE - 3] + "..."
