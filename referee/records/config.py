"""A run written down: ``match --config FILE`` (TOML), and the per-engine settings.

The file's keys are the long names of ``match``'s flags (``max-moves`` or ``max_moves``), with
these shapes where a flag does not map to one value:

* ``option = { variant = "random" }`` for ``--option KEY=VALUE``;
* ``sprt = { elo0 = 0, elo1 = 5 }`` (or the flag's text, ``"elo0=0 elo1=5"``);
* ``[[engine]]`` tables, one per engine in order, with ``cmd`` and any per-engine keys
  (``name``, ``dir``, ``init``, ``time``, ...); a bare string is a command alone.

The file is turned into the words of a command line and read by the same parser as the flags,
so it is checked the same way; a flag given on the command line then wins over the file's
(``--engine`` on the command line replaces the file's engines with their settings).

Per-engine settings are ``--engine-option N:KEY=VALUE`` (N the engine's 1-based place): ``name``
(display name), ``dir`` (working folder), ``init`` (a protocol command sent after start-up,
repeatable) and the time-control keys ``time``, ``increment``, ``byoyomi``, ``stones``,
``move-time`` (time odds).

>>> config_words({"games": 4, "pairs": True, "option": {"variant": "random"},
...               "engine": ["a", {"cmd": "b", "name": "B", "init": ["x 1"]}]})
['--games', '4', '--pairs', '--option', 'variant=random', '--engine', 'a', '--engine', 'b', \
'--engine-option', '2:name=B', '--engine-option', '2:init=x 1']
>>> parse_engine_option("2:move-time=0.5")
(2, 'move_time', '0.5')
"""

from __future__ import annotations

import decimal
import math
import sys
from pathlib import Path
from typing import Any, Mapping

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ENGINE_KEYS = ("name", "dir", "init", "time", "increment", "byoyomi", "stones", "move_time",
               "memory", "cpus")
TIME_KEYS = ("time", "increment", "byoyomi", "stones", "move_time")


class ConfigError(ValueError):
    """A configuration that cannot be used; the message is one line."""


def read_config(path: Path) -> dict[str, Any]:
    """The TOML file at ``path`` as a dict; raises :class:`ConfigError`."""
    try:
        data = path.read_bytes()
        return tomllib.loads(data.decode("utf-8"))
    except OSError as error:
        raise ConfigError(f"{path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 text (byte {data[error.start]:#04x}); "
                          f"TOML files are UTF-8") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: {error}") from None


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isfinite(value):
        # Positional, as the flags read numbers: str() writes 1e-05 for 0.00001.
        return format(decimal.Decimal(repr(value)), "f")
    if isinstance(value, (int, float, str)):
        return str(value)
    raise ConfigError(f"{value!r} is not a number or a text")


def config_words(data: Mapping[str, Any]) -> list[str]:
    """The command-line words that say what ``data`` (a read config file) says."""
    words: list[str] = []
    for key, value in data.items():
        flag = "--" + key.replace("_", "-")
        if key == "engine":
            words += _engine_words(value)
        elif key == "option" and isinstance(value, Mapping):
            for name, setting in value.items():
                words += [flag, f"{name}={_scalar(setting)}"]
        elif key == "sprt" and isinstance(value, Mapping):
            words += [flag, " ".join(f"{name}={_scalar(v)}" for name, v in value.items())]
        elif isinstance(value, bool):
            if value:
                words.append(flag)
        elif isinstance(value, list):
            for item in value:
                words += [flag, _scalar(item)]
        else:
            words += [flag, _scalar(value)]
    return words


def _engine_words(engines: Any) -> list[str]:
    if not isinstance(engines, list):
        raise ConfigError("engine must be a list: [[engine]] tables or command strings")
    words: list[str] = []
    for place, engine in enumerate(engines, 1):
        if isinstance(engine, str):
            engine = {"cmd": engine}
        if not isinstance(engine, Mapping) or "cmd" not in engine:
            raise ConfigError(f"engine {place}: needs cmd = \"COMMAND\"")
        words += ["--engine", _scalar(engine["cmd"])]
        for key, value in engine.items():
            if key == "cmd":
                continue
            for item in value if isinstance(value, list) else [value]:
                words += ["--engine-option", f"{place}:{key}={_scalar(item)}"]
    return words


def parse_engine_option(word: str) -> tuple[int, str, str]:
    """``N:KEY=VALUE`` as (N, key with ``_`` for ``-``, value); raises :class:`ConfigError`."""
    place, colon, setting = word.partition(":")
    key, equals, value = setting.partition("=")
    key = key.strip().lower().replace("-", "_")
    if not colon or not (place.isascii() and place.isdigit()) or not equals:
        raise ConfigError(f"--engine-option {word!r} is not N:KEY=VALUE")
    if key not in ENGINE_KEYS:
        raise ConfigError(f"--engine-option {word!r}: unknown key {key!r} "
                          f"(known: {', '.join(ENGINE_KEYS)})")
    return int(place), key, value
