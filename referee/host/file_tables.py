"""Reading the tables that the event file and the ladder's service file share: the game and its
clock, where a server listens, the lag allowance and the door's limits.

Each reader takes a :class:`Table` (typed look-ups in one TOML table; ``-`` and ``_`` are the
same in keys) and raises :class:`ValueError` with one line naming the key; the file's reader
puts the file's name in front.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..plan.setup import DEFAULT_MAX_MOVES, Setup
from ..plan.time_control import TimeControl
from ..play.lag import LagPolicy
from ..text import board_size
from .door import DoorPolicy

DEFAULT_PORT = 8443
# Non-move answers of a remote engine may wait this long past the grace window for a
# reconnection before they time out (the clock still bounds the moves).
COMMAND_TIMEOUT_SPARE = 30.0

_KIND_NAMES = {(int, float): "a number", (int,): "a whole number", (str,): "text",
               (bool,): "true or false", (dict,): "a table", (list,): "a list of tables",
               (str, int): "text or a number"}


class Table:
    """Typed look-ups in one table of a file; ``-`` and ``_`` are the same in keys. It notes
    the keys looked up, and the tables within it handed out, for :meth:`refuse_unused`."""

    def __init__(self, table: Mapping[str, Any], where: str) -> None:
        self.table = {str(key).replace("_", "-"): value for key, value in table.items()}
        self.where = where
        self._asked: set[str] = set()
        self._parts: list[Table] = []

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        self._asked.add(key)
        value = self.table.get(key, default)
        if value is default:
            return value
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            what = _KIND_NAMES.get(kinds, _KIND_NAMES.get(kinds[:1], "something else"))
            raise ValueError(f"{key} must be {what}, not {value!r}")
        return value

    def number(self, key: str, default: float, low: float = 0.0) -> float:
        value = float(self.get(key, (int, float), default))
        if value < low:
            raise ValueError(f"{key} must be at least {low:g}, not {value:g}")
        return value

    def whole(self, key: str, default: int, low: int = 0) -> int:
        value = self.get(key, int, default)
        if value < low:
            raise ValueError(f"{key} must be at least {low}, not {value}")
        return value

    def choice(self, key: str, choices: Sequence[str], default: str) -> str:
        """Text that must be one of ``choices``."""
        value = self.get(key, str, default)
        if value not in choices:
            raise ValueError(f"{key} must be one of {', '.join(choices)}, not {value!r}")
        return value

    def table_of(self, key: str) -> Table:
        part = Table(self.get(key, dict, {}), f"{self.where} [{key}]")
        self._parts.append(part)
        return part

    def tables(self, key: str) -> list[Table]:
        """The tables of an array of tables (``[[key]]``), each named ``key N``."""
        tables = self.get(key, list, [])
        for number, table in enumerate(tables, 1):
            if not isinstance(table, dict):
                raise ValueError(f"{key} {number} must be a table ([[{key}]])")
        parts = [Table(table, f"{key} {number}") for number, table in enumerate(tables, 1)]
        self._parts += parts
        return parts

    def refuse_unused(self) -> None:
        """Raise naming a key that no look-up read, here or in the tables within: a typo
        (``tme = 10`` would leave the clock at its default without a word), or a key that
        the others make void (``time`` beside ``move-time``). Call it once all is read."""
        unused = sorted(set(self.table) - self._asked)
        if unused:
            raise ValueError(f"unused key {unused[0]!r} in {self.where} (the keys read there: "
                             f"{', '.join(sorted(self._asked))})")
        for part in self._parts:
            part.refuse_unused()


def refuse_repeats(names: Sequence[str], what: str) -> None:
    """Raise when a name comes twice: ``two {what} are named ...``."""
    repeated = next((name for name in names if names.count(name) > 1), None)
    if repeated:
        raise ValueError(f"two {what} are named {repeated!r}")


@dataclass(frozen=True)
class Listen:
    """Where a server listens, and its TLS certificate and key (``None``: plain text)."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    certificate: Path | None = None
    key: Path | None = None
    plain: bool = False

    @property
    def loopback(self) -> bool:
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return self.host == "localhost"


def control_of(table: Table) -> TimeControl:
    """The clock: ``time``, ``increment``, ``byoyomi``, ``stones``, or ``move-time``."""
    move_time = table.get("move-time", (int, float))
    if move_time is not None:
        return TimeControl.per_move(float(move_time))
    values = (table.number("time", 60.0), table.number("increment", 0.0),
              table.number("byoyomi", 0.0), table.whole("stones", 0))
    try:
        return TimeControl(*values)
    except ValueError as error:
        raise ValueError(f"time control: {error}") from None


def setup_of(table: Table, grace: float) -> Setup:
    """The game: ``game``, ``options`` (a table), ``boardsize``, ``time-margin``,
    ``max-moves``; checked by making the game once. A remote engine's answers other than moves
    may wait for a reconnection ``grace`` seconds and :data:`COMMAND_TIMEOUT_SPARE` more."""
    game = table.get("game", str)
    if not game:
        raise ValueError("no game (game = \"NAME\")")
    options = {str(key): str(value) for key, value in table.get("options", dict, {}).items()}
    size = table.get("boardsize", (str, int))
    if size is not None:
        try:
            size = board_size(str(size))
        except ValueError as error:
            raise ValueError(f"boardsize: {error}") from None
    setup = Setup(game, options, size, table.number("time-margin", 0.0),
                  table.whole("max-moves", DEFAULT_MAX_MOVES, 1),
                  max(30.0, grace + COMMAND_TIMEOUT_SPARE))
    try:
        setup.make_game()
    except ValueError as error:
        raise ValueError(f"game {game!r}: {error}") from None
    return setup


def listen_of(table: Table, home: Path, port: int = DEFAULT_PORT) -> Listen:
    """The ``[listen]`` table (``host``, ``port``, ``certificate``, ``key``, ``plain``), with
    paths relative to ``home``; TLS is required off this machine unless ``plain`` says not."""
    certificate, key = table.get("certificate", str), table.get("key", str)
    if (certificate is None) != (key is None):
        raise ValueError("[listen] needs both certificate and key, or neither")
    where = Listen(table.get("host", str, "127.0.0.1"), table.whole("port", port),
                   home / certificate if certificate else None, home / key if key else None,
                   table.get("plain", bool, False))
    if where.certificate is None and not (where.loopback or where.plain):
        raise ValueError(f"[listen] host {where.host} is not a loopback address: give a TLS "
                         f"certificate and key (or plain = true to send secrets in clear text)")
    return where


def lag_of(table: Table) -> LagPolicy:
    """The ``[lag]`` table: ``start``, ``gain``, ``cap``, ``per-answer``."""
    return LagPolicy(table.number("start", 2.0), table.number("gain", 1.0),
                     table.number("cap", 5.0), table.number("per-answer", 3.0))


def door_of(table: Table) -> DoorPolicy:
    """The ``[limits]`` table's door: ``pending``, ``pending-per-address``, ``failures``,
    ``window``, ``ban``."""
    default = DoorPolicy()
    return DoorPolicy(table.whole("pending", default.pending, 1),
                      table.whole("pending-per-address", default.pending_per_address, 1),
                      table.whole("failures", default.failures, 1),
                      table.number("window", default.window),
                      table.number("ban", default.ban))
