"""The event file (``EVENT.toml``): everything an event is, read into :class:`EventSettings`.

Top-level keys: ``name``, ``game``, ``options`` (a table), ``boardsize``, ``format``
(``round-robin``, ``double-round-robin``, ``gauntlet``, ``ladder``), ``games`` (per pairing; in
a ladder the most games in all, 0 for no limit), ``gauntlet`` (its first N participants),
``pairs``, the clock (``time``, ``increment``, ``byoyomi``, ``stones``, ``move-time``,
``time-margin``), ``max-moves``, ``seed``, ``out`` (the run folder), ``grace`` (seconds a
dropped participant has to come back during a game, default 60), ``no-show`` (seconds a
participant may stay away before its games are forfeited, default 600, as the ICGA's online
rules), ``concurrency`` (most games at once; 0: as many as the participants allow), ``anchor``
(``{ name = "...", elo = 1500 }``). Tables: ``[listen]`` (``host``, ``port``, ``certificate``,
``key``, ``plain``), ``[spectators]`` (``host``, ``port``; port 0: no page), ``[lag]``
(:mod:`.lag`: ``start``, ``gain``, ``cap``, ``per-answer``), ``[limits]`` (:mod:`.door`:
``pending``, ``pending-per-address``, ``failures``, ``window``, ``ban``, and ``hello``: the
seconds a connection has for its handshake and then its ``hello``) and one ``[[participant]]``
per participant (``name``, and ``token-sha256`` or ``token``).

Paths are relative to the event file's folder. Every mistake is an :class:`EventFileError`
of one line naming the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..inbound import printable_line
from ..plan.setup import Setup
from ..plan.time_control import TimeControl
from ..play.entrants import EngineSpec
from ..play.lag import LagPolicy
from ..records.config import ConfigError, read_config
from ..run.settings import EventName, RunSettings
from .door import DoorPolicy
from .file_tables import (
    Listen,
    Table,
    control_of,
    door_of,
    lag_of,
    listen_of,
    refuse_repeats,
    setup_of,
)
from .roster import Entrant, token_digest

FORMATS = ("round-robin", "double-round-robin", "gauntlet", "ladder")
DEFAULT_SPECTATOR_PORT = 8080


class EventFileError(ValueError):
    """An event file that cannot be used; the message is one line."""


@dataclass(frozen=True)
class EventSettings:
    """An event, checked; see the module docstring."""

    name: str
    setup: Setup
    entrants: tuple[Entrant, ...]
    out: Path
    control: TimeControl = TimeControl()  # every entrant's
    format: str = "round-robin"
    games: int = 2
    gauntlet: int = 0
    pairs: bool = False
    seed: int | None = None
    grace: float = 60.0
    no_show: float = 600.0
    concurrency: int = 0
    listen: Listen = Listen()
    spectators: tuple[str, int] = ("127.0.0.1", DEFAULT_SPECTATOR_PORT)
    lag: LagPolicy = LagPolicy()
    door: DoorPolicy = DoorPolicy()
    hello: float = 10.0
    anchor: tuple[str, float] | None = None

    @property
    def names(self) -> list[str]:
        return [entrant.name for entrant in self.entrants]

    def run_settings(self) -> RunSettings:
        """What ``match.json`` keeps: what a match keeps (so that ``stats`` and ``report`` read
        an event's folder as any other), its engines the remote participants, and the event's
        name and format."""
        engines = tuple(EngineSpec("remote", name, control=self.control) for name in self.names)
        return RunSettings(self.setup, engines, self.gauntlet, self.pairs, sprt=None,
                           anchor=self.anchor, seed=self.seed,
                           event=EventName(self.name, self.format))


def read_event(path: Path) -> EventSettings:
    """The event file at ``path``; raises :class:`EventFileError`."""
    try:
        data = read_config(path)
    except ConfigError as error:
        raise EventFileError(str(error)) from None
    except ValueError as error:  # TOML syntax
        raise EventFileError(f"{path}: {error}") from None
    reader = Table(data, str(path))
    try:
        settings = _event(reader, path)
        reader.refuse_unused()
        return settings
    except ValueError as error:
        raise EventFileError(f"{path}: {error}") from None


def _entrants(reader: Table) -> tuple[Entrant, ...]:
    entrants: list[Entrant] = []
    for number, item in enumerate(reader.tables("participant"), 1):
        name = item.get("name", str)
        if not name or not name.strip():
            raise ValueError(f"participant {number} has no name")
        if not printable_line(name):
            raise ValueError(f"participant {number}: the name {name!r} holds a control, line "
                             f"separator or bidirectional character")
        digest, token = item.get("token-sha256", str), item.get("token", str)
        if (digest is None) == (token is None):
            raise ValueError(f"participant {name!r} needs token-sha256 (or token), not both")
        if digest is not None:
            digest = digest.strip().lower()
            if len(digest) != 64 or any(char not in "0123456789abcdef" for char in digest):
                raise ValueError(f"participant {name!r}: token-sha256 must be 64 hex digits")
        elif len(token) < 16:
            raise ValueError(f"participant {name!r}: a token must have at least 16 characters")
        entrants.append(Entrant(name, digest or token_digest(token)))
    names = [entrant.name for entrant in entrants]
    if len(entrants) < 2:
        raise ValueError(f"an event needs at least two participants, not {len(entrants)}")
    refuse_repeats(names, "participants")
    digests = [entrant.digest for entrant in entrants]
    if len(set(digests)) != len(digests):
        raise ValueError("two participants have the same token")
    return tuple(entrants)


def _event(reader: Table, path: Path) -> EventSettings:
    home = path.resolve().parent
    grace = reader.number("grace", 60.0)
    setup = setup_of(reader, grace)
    form = reader.choice("format", FORMATS, "round-robin")
    entrants = _entrants(reader)
    gauntlet = reader.whole("gauntlet", 1 if form == "gauntlet" else 0)
    if form != "gauntlet":
        gauntlet = 0
    games = reader.whole("games", 0 if form == "ladder" else 2, 0 if form == "ladder" else 1)
    if form == "double-round-robin":
        games = 2 * games if "games" in reader.table else 2
    pairs = reader.get("pairs", bool, False)
    if pairs and form != "ladder" and games % 2:
        raise ValueError(f"games must be even with pairs = true (a pair is two games), "
                         f"not {games}")
    spectators = reader.table_of("spectators")
    limits = reader.table_of("limits")
    anchor = reader.get("anchor", dict)
    if anchor is not None:
        anchor_reader = reader.table_of("anchor")
        anchor = (anchor_reader.get("name", str), anchor_reader.number("elo", 0.0, -1e9))
        if anchor[0] not in [entrant.name for entrant in entrants]:
            raise ValueError(f"anchor {anchor[0]!r} is not a participant")
    seed = reader.get("seed", int)
    return EventSettings(
        name=reader.get("name", str, path.stem), setup=setup, entrants=entrants,
        out=home / reader.get("out", str, path.stem), control=control_of(reader), format=form,
        games=games,
        gauntlet=gauntlet, pairs=pairs, seed=seed, grace=grace,
        no_show=reader.number("no-show", 600.0), concurrency=reader.whole("concurrency", 0),
        listen=listen_of(reader.table_of("listen"), home),
        spectators=(spectators.get("host", str, "127.0.0.1"),
                    spectators.whole("port", DEFAULT_SPECTATOR_PORT)),
        lag=lag_of(reader.table_of("lag")), door=door_of(limits),
        hello=limits.number("hello", 10.0, 0.1), anchor=anchor)
