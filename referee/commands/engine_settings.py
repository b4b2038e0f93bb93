"""The engines' settings from the command line: their commands, ``--engine-option N:KEY=VALUE``
words and the time-control flags, checked and turned into :class:`EngineSpec` values.

Every mistake is a :class:`click.UsageError` (one line, status 2), found before any engine
starts or any file is written.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

import click

from ..plan.time_control import TimeControl
from ..play.entrants import EngineSpec
from ..play.reaper import parse_cpus
from ..records.config import TIME_KEYS, ConfigError, parse_engine_option
from ..text import decimal, whole


def time_control(time: float, increment: float = 0.0, byoyomi: float = 0.0, stones: int = 0,
                 move_time: float | None = None) -> TimeControl:
    """The time control the flags describe; raises :class:`click.UsageError`.

    >>> time_control(60, 0.5).describe(), time_control(60, move_time=2).describe()
    ('60+0.5', '2/move')
    """
    if move_time is not None:
        if increment or byoyomi or stones:
            raise click.UsageError("--move-time cannot be combined with --increment, "
                                   "--byoyomi or --stones")
        return TimeControl.per_move(move_time)
    try:
        return TimeControl(time, increment, byoyomi, stones)
    except ValueError as error:
        raise click.UsageError(f"time control: {error}") from None


def _time_value(key: str, text: str) -> float:
    """The value of an engine's own time key: seconds, or a whole number of ``stones``."""
    try:
        return whole(text) if key == "stones" else decimal(text)
    except ValueError as error:
        raise click.UsageError(f"--engine-option {key}={text}: {error}") from None


_MEMORY_UNITS = {"K": 2**10, "M": 2**20, "G": 2**30}


def memory_bytes(text: str) -> int:
    """An engine's ``memory`` limit in bytes: a whole number of MiB, or with a unit K, M or G.

    >>> memory_bytes("512"), memory_bytes("2G"), memory_bytes("64m")
    (536870912, 2147483648, 67108864)
    """
    number, unit = text.strip(), "M"
    if number[-1:].upper() in _MEMORY_UNITS:
        number, unit = number[:-1], number[-1].upper()
    try:
        amount = whole(number)
    except ValueError:
        amount = 0
    if amount <= 0:
        raise click.UsageError(f"--engine-option memory={text}: not a memory size such as 512M "
                               f"or 2G")
    return amount * _MEMORY_UNITS[unit]


def _cpu_list(text: str) -> str:
    """An engine's ``cpus``, checked: the cores it may run on, such as ``0`` or ``0,2-3``."""
    try:
        cpus = parse_cpus(text)
    except ValueError as error:
        raise click.UsageError(f"--engine-option cpus={text}: {error}") from None
    available = os.sched_getaffinity(0)
    if not cpus <= available:
        raise click.UsageError(f"--engine-option cpus={text}: this machine has cores "
                               f"{', '.join(map(str, sorted(available)))}")
    return text.strip()


def engine_specs(commands: Sequence[str], option_words: Sequence[str],
                 timing: dict[str, Any]) -> tuple[EngineSpec, ...]:
    """The engines from their commands and ``--engine-option N:KEY=VALUE`` words; ``timing``
    holds the run's time-control flags (``time``, ``increment``, ``byoyomi``, ``stones``,
    ``move_time``), which an engine's own keys override. An engine given no ``name`` has the
    empty name here: :func:`referee.commands.match.name_engines` asks the engine for one.

    >>> specs = engine_specs(["a", "b"], ["2:name=B", "2:time=30", "1:init=x 1"],
    ...                      {"time": 60.0, "increment": 1.0, "byoyomi": 0.0, "stones": 0,
    ...                       "move_time": None})
    >>> [(spec.name, spec.init, spec.control.describe()) for spec in specs]
    [('', ('x 1',), '60+1'), ('B', (), '30+1')]
    """
    own: list[dict[str, Any]] = [{} for _ in commands]
    inits: list[list[str]] = [[] for _ in commands]
    for word in option_words:
        try:
            place, key, value = parse_engine_option(word)
        except ConfigError as error:
            raise click.UsageError(str(error)) from None
        if not 1 <= place <= len(commands):
            raise click.UsageError(f"--engine-option {word!r}: there is no engine {place} "
                                   f"(engines 1-{len(commands)})")
        if key == "init":
            inits[place - 1].append(value)
        elif key in TIME_KEYS:
            own[place - 1][key] = _time_value(key, value)
        elif key == "memory":
            own[place - 1][key] = memory_bytes(value)
        elif key == "cpus":
            own[place - 1][key] = _cpu_list(value)
        else:
            own[place - 1][key] = value
    specs = []
    for index, command in enumerate(commands):
        settings = own[index]
        timed = {key: settings[key] for key in TIME_KEYS if key in settings}
        if timed and "move_time" not in timed:
            timed["move_time"] = None  # its own clock replaces the run's time per move
        control = time_control(**{**timing, **timed})
        specs.append(EngineSpec(command, settings.get("name", ""), settings.get("dir"),
                                tuple(inits[index]), control, settings.get("memory"),
                                settings.get("cpus")))
    taken = [spec.name for spec in specs if spec.name]
    for name in taken:
        if taken.count(name) > 1:
            raise click.UsageError(f"two engines are named {name!r}; give each its own name")
    return tuple(specs)
