"""What ``match.json`` keeps: the settings a run's plan, games and figures depend on, as one
typed value, :class:`RunSettings`, made by a match (:mod:`referee.commands.match`) and an event
(:mod:`referee.host.event_file`) alike and read back by the resume, ``report`` and ``stats``.

:meth:`RunSettings.as_json` and :meth:`RunSettings.from_json` are the only code turning the
settings into JSON and back; :mod:`referee.records.settings` owns the file (reading, the
atomic write, the comparison that refuses a resume under other settings). ``from_json`` reads
the file of every earlier version: engines given as bare command lines, a run-wide ``time``
and ``increment`` or ``control`` beside engines without their own, a control's ``main`` (now
``time``), an SPRT as ``--sprt`` words and an anchor as ``NAME=ELO``.

It lives in ``run/``, not ``records/``, because its parts are the plan's, the players' and the
statistics' own values (:class:`Setup`, :class:`EngineSpec`, :class:`SprtSettings`), which
sit above ``records/``.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..plan.adjudication import Adjudication
from ..plan.setup import DEFAULT_MAX_MOVES, Opening, Setup
from ..plan.time_control import TimeControl
from ..play.entrants import EngineSpec
from ..records.folder import SETTINGS_NAME
from ..records.settings import SettingsMismatch, check_settings, saved_json
from ..stats.sprt import SprtSettings
from ..text import parse_anchor, sprt_values


@dataclass(frozen=True)
class Book:
    """An opening book as the settings name it: enough to tell it from another book (a digest
    of its lines) and how the run takes its openings."""

    digest: str
    openings: int
    plies: int | None = None
    order: str = "sequential"
    start: int = 1

    @classmethod
    def of(cls, openings: Sequence[Opening], plies: int | None, order: str,
           start: int) -> Book:
        """The book of ``openings``.

        >>> Book.of([Opening(1, ("a2-a3",))], None, "sequential", 1).digest
        'd286f3379dba7def'
        """
        texts = "\n".join(opening.text() for opening in openings)
        return cls(hashlib.sha256(texts.encode()).hexdigest()[:16], len(openings), plies,
                   order, start)


@dataclass(frozen=True)
class EventName:
    """What an event's settings add to a match's: its name and format (event file keys)."""

    name: str
    format: str


@dataclass(frozen=True)
class RunSettings:
    """A run's settings as ``match.json`` keeps them; see the module docstring. ``--games`` is
    left out, so that a run can be extended. ``seed``, ``sprt``, ``anchor`` and an inactive
    ``setup.adjudication`` left unset in a resume are taken from the folder's settings
    (:meth:`checked`)."""

    setup: Setup
    engines: tuple[EngineSpec, ...]
    gauntlet: int = 0
    pairs: bool = False
    book: Book | None = None
    sprt: SprtSettings | None = None
    anchor: tuple[str, float] | None = None
    seed: int | None = None
    event: EventName | None = None

    @property
    def names(self) -> list[str]:
        """The engines' display names, in order."""
        return [spec.name for spec in self.engines]

    def as_json(self) -> dict[str, Any]:
        """The settings as ``match.json`` holds them."""
        setup = self.setup
        saved: dict[str, Any] = {
            "game": setup.game, "options": dict(setup.options),
            "size": list(setup.size) if setup.size else None,
            "engines": [_engine_json(spec) for spec in self.engines],
            "time_margin": setup.time_margin, "max_moves": setup.max_moves,
            "adjudication": _adjudication_json(setup.adjudication),
            "gauntlet": self.gauntlet, "pairs": self.pairs,
            "book": asdict(self.book) if self.book else None,
            "sprt": asdict(self.sprt) if self.sprt else None,
            "anchor": {"name": self.anchor[0], "elo": self.anchor[1]} if self.anchor else None,
            "seed": self.seed}
        if self.event is not None:
            saved["event"] = asdict(self.event)
        return saved

    @classmethod
    def from_json(cls, saved: Mapping[str, Any]) -> RunSettings:
        """The settings ``match.json`` holds, written by this version or an earlier one (see
        the module docstring); a missing key takes its default. Raises ``ValueError`` (or
        ``TypeError``, ``KeyError``) when a value is not what the key holds."""
        size = saved.get("size")
        setup = Setup(str(saved.get("game") or ""), _options(saved.get("options")),
                      (int(size[0]), int(size[1])) if size else None,
                      float(saved.get("time_margin") or 0.0),
                      int(saved.get("max_moves") or DEFAULT_MAX_MOVES),
                      adjudication=Adjudication(**saved.get("adjudication") or {}))
        book, event = saved.get("book"), saved.get("event")
        return cls(setup, _engines(saved), int(saved.get("gauntlet") or 0),
                   bool(saved.get("pairs")), Book(**book) if book else None,
                   _sprt(saved.get("sprt")), _anchor(saved.get("anchor")),
                   None if saved.get("seed") is None else int(saved["seed"]),
                   EventName(str(event["name"]), str(event["format"])) if event else None)

    @classmethod
    def read(cls, out: Path) -> RunSettings | None:
        """The settings saved in ``out``, ``None`` when there are none; raises
        :class:`SettingsMismatch` (one line) when the file holds no run's settings."""
        saved = saved_json(out)
        if saved is None:
            return None
        try:
            return cls.from_json(saved)
        except (ValueError, TypeError, KeyError, IndexError) as error:
            raise SettingsMismatch(f"{out / SETTINGS_NAME} is not the settings of a run "
                                   f"({type(error).__name__}: {error})") from None

    def checked(self, out: Path, setting: str = "--out") -> RunSettings:
        """The settings the run in ``out`` goes on with: these, saved in a new folder (with a
        fresh seed when none is given); in a folder already holding settings, those, after
        refusing (:class:`SettingsMismatch`, naming each difference) when these differ. The
        comparison is between the two as this version writes them, so that a folder of an
        earlier version resumes under the same settings."""
        saved = RunSettings.read(out)
        given = self
        if saved is None and self.seed is None:
            given = replace(self, seed=random.SystemRandom().randrange(1 << 31))
        kept = check_settings(out, given.as_json(), saved.as_json() if saved else None,
                              setting)
        return RunSettings.from_json(kept)


def read_settings(out: Path) -> RunSettings | None:
    """The folder's settings for those who only show them (the report): ``None`` when
    ``match.json`` is missing or unreadable, where :meth:`RunSettings.read` refuses."""
    try:
        return RunSettings.read(out)
    except (OSError, SettingsMismatch):
        return None


def _engine_json(spec: EngineSpec) -> dict[str, Any]:
    limits = {key: value for key, value in (("memory", spec.memory), ("cpus", spec.cpus))
              if value is not None}  # only when set: older folders have no such keys
    return {"command": spec.command, "name": spec.name, "dir": spec.cwd, "init": list(spec.init),
            "control": asdict(spec.control), **limits}


def _adjudication_json(adjudication: Adjudication) -> dict[str, Any] | None:
    """The rules in force (``None`` when none is on); ``exact_wait`` only when set, so that a
    folder written before it existed resumes."""
    if not adjudication.active:
        return None
    saved = asdict(adjudication)
    if not adjudication.exact_wait:
        del saved["exact_wait"]
    return saved


def _options(options: Any) -> dict[str, str]:
    return {str(key): str(value) for key, value in (options or {}).items()}


def _engines(saved: Mapping[str, Any]) -> tuple[EngineSpec, ...]:
    """The engines, each with its time control: its own, else the run's (events of earlier
    versions kept one ``control`` beside engines without one; the first version a ``time``
    and an ``increment``, and bare command lines, named by their command, numbered when one
    repeats)."""
    engines = saved.get("engines") or []
    run_control = saved.get("control") or (
        {"time": saved["time"], "increment": saved.get("increment") or 0.0}
        if saved.get("time") is not None else None)
    commands = [engine if isinstance(engine, str) else engine["command"] for engine in engines]
    specs = []
    for index, engine in enumerate(engines, 1):
        if isinstance(engine, str):
            name = engine if commands.count(engine) == 1 else f"{engine} #{index}"
            engine = {"command": engine, "name": name}
        control = engine.get("control") or run_control
        specs.append(EngineSpec(
            str(engine["command"]), str(engine.get("name") or engine["command"]),
            engine.get("dir"), tuple(map(str, engine.get("init") or ())),
            _control(control) if control else TimeControl(),
            engine.get("memory"), engine.get("cpus")))
    return tuple(specs)


def _control(saved: Mapping[str, Any]) -> TimeControl:
    """A time control; ``main`` is an earlier version's name for ``time``."""
    time = saved.get("time", saved.get("main"))
    return TimeControl(float(60.0 if time is None else time), float(saved.get("increment", 0.0)),
                       float(saved.get("byoyomi", 0.0)), int(saved.get("stones", 0)))


def _sprt(saved: Any) -> SprtSettings | None:
    """The SPRT: an object (elo0, elo1, ...), or an earlier version's ``--sprt`` words."""
    if not saved:
        return None
    if isinstance(saved, (str, list)):
        saved = sprt_values([saved] if isinstance(saved, str) else saved)
    keys = ("elo0", "elo1", "alpha", "beta", "model")
    return SprtSettings(**{key: saved[key] for key in keys if key in saved})


def _anchor(saved: Any) -> tuple[str, float] | None:
    """The anchor: ``{"name", "elo"}``, or an earlier version's ``NAME=ELO``."""
    if not saved:
        return None
    if isinstance(saved, str):
        return parse_anchor(saved)
    return str(saved["name"]), float(saved["elo"])
