"""cutechess-cli and fastchess habits on ``match``'s command line, where they cost nothing.

Their words are rewritten into ours before click reads the command line (:func:`translate`),
so that every value is then checked exactly as our own flags are, and ``--help`` lists one
spelling of each option. ``docs/cutechess.md`` is the table for people; in short:

* a single dash before any long option of ``match``: ``-concurrency 2``, ``-games 10``,
  ``-rounds 50``, ``-seed 7``, ``-sprt elo0=0 elo1=5``; and ``-srand`` (``--seed``),
  ``-maxmoves`` (``--max-moves``), ``-ratinginterval`` (``--report-every``), ``-repeat``
  (``--pairs``);
* ``-engine cmd=CMD [name=N] [dir=D] [arg=A] [initstr=S] [tc=TC] [st=S] [KEY=VALUE]``: one
  engine, its keys becoming ``--engine-option`` words (KEY any of ours);
* ``-each KEY=VALUE ...``: ``tc=TC`` and ``st=S`` for the run's clock, other keys for every
  engine;
* ``-openings file=F [format=...] [order=random|sequential] [plies=N] [start=K]``;
* ``--tc TC`` / ``tc=TC`` time controls, read by :func:`parse_tc`.

>>> words = translate(["-engine", "cmd=./a", "name=A", "tc=10+0.1", "-engine", "cmd=./b",
...                   "-each", "dir=/e", "-concurrency", "2", "-repeat"], {"--concurrency": True})
>>> print(" ".join(words))  # doctest: +NORMALIZE_WHITESPACE
--engine ./a --engine-option 1:name=A --engine-option 1:time=10
--engine-option 1:increment=0.1 --engine ./b --concurrency 2 --pairs
--engine-option 1:dir=/e --engine-option 2:dir=/e
"""

from __future__ import annotations

import re
import shlex
from typing import Iterator, Mapping

import click

from ..records.config import ENGINE_KEYS
from ..text import decimal

# Single-dash words of cutechess and fastchess whose long option has another name here.
RENAMED = {"srand": "--seed", "maxmoves": "--max-moves", "ratinginterval": "--report-every",
           "repeat": "--pairs"}
# ``-openings`` keys and the flags they become (``format`` is read from the file itself).
OPENING_KEYS = {"file": "--openings", "order": "--opening-order", "plies": "--opening-plies",
                "start": "--opening-start", "format": None}
# cutechess's own names of engine keys.
ENGINE_ALIASES = {"initstr": "init"}
_TC = re.compile(r"(?:(?P<moves>[^/]*)/)?(?P<time>[^+]*)(?:\+(?P<increment>.*))?")


def parse_tc(text: str) -> dict[str, float]:
    """A cutechess/fastchess time control as our time keys: ``SECONDS`` or ``M:SS`` of main
    time, with ``+INCREMENT`` seconds after each move. Repeating controls (``40/60``: 60 s for
    every 40 moves, unused time carried over), ``inf`` and hourglass have no equivalent here
    and raise ``ValueError`` saying so.

    >>> parse_tc("10+0.1"), parse_tc("1:30"), parse_tc("0:05+0.05")
    ({'time': 10.0, 'increment': 0.1}, {'time': 90.0, 'increment': 0.0}, \
{'time': 5.0, 'increment': 0.05})
    """
    match = _TC.fullmatch(text.strip())
    if match["moves"] is not None or text.strip() in ("inf", "infinite") or "hg" in text:
        raise ValueError(f"tc={text}: only SECONDS[+INCREMENT] (or M:SS) maps onto the clocks "
                         f"here; for moves per period use --byoyomi SECONDS --stones MOVES "
                         f"(unused time is not carried over)")
    minutes, colon, seconds = match["time"].rpartition(":")
    try:
        main = decimal(seconds) + (60 * decimal(minutes) if colon else 0.0)
        increment = decimal(match["increment"]) if match["increment"] is not None else 0.0
    except ValueError:
        raise ValueError(f"tc={text}: not SECONDS[+INCREMENT] or M:SS[+INCREMENT], such as "
                         f"10+0.1 or 1:30") from None
    return {"time": main, "increment": increment}


def translate(words: list[str], options: Mapping[str, bool] | None = None) -> list[str]:
    """``match``'s words with cutechess/fastchess habits rewritten into ours (see the module
    docstring). ``options`` maps ``match``'s long options (``--games``...), which a single dash
    also names, to whether they take a value: a value is never rewritten. A habit given wrong
    is a :class:`click.UsageError`."""
    options = options or {}
    out: list[str] = []
    each: list[str] = []
    engines = 0
    position = 0
    while position < len(words):
        word = words[position]
        position += 1
        if out and options.get(out[-1]):
            out.append(word)  # the value of the option before it
            continue
        if word in ("-engine", "-each", "-openings"):
            keys = list(_key_words(words, position))
            position += len(keys)
            if word == "-engine":
                engines += 1
                out += _engine(keys, engines)
            elif word == "-each":
                out += _each(keys, each)
            else:
                out += _openings(keys)
            continue
        if word == "--engine" or word.startswith("--engine="):
            engines += 1
        name = word[1:]
        if word.startswith("-") and not word.startswith("--") and name in RENAMED:
            out.append(RENAMED[name])
            if name == "repeat" and position < len(words) and words[position] == "2":
                position += 1  # cutechess's -repeat 2: each opening twice, our pairs
        elif (word.startswith("-") and not word.startswith("--") and len(name) > 1
              and f"-{word}" in options):
            out.append(f"-{word}")
        else:
            out.append(word)
    for place in range(1, engines + 1):
        for setting in each:
            out += ["--engine-option", f"{place}:{setting}"]
    if each and not engines:
        raise click.UsageError(f"-each {each[0]}: give the engines on the command line")
    return out


def _key_words(words: list[str], start: int) -> Iterator[str]:
    """The ``KEY=VALUE`` words from ``start`` up to the next option."""
    for word in words[start:]:
        if word.startswith("-") or "=" not in word:
            return
        yield word


def _split(word: str, option: str) -> tuple[str, str]:
    key, _, value = word.partition("=")
    key = key.strip().lower()
    if not value:
        raise click.UsageError(f"{option} {word!r} is not KEY=VALUE")
    return ENGINE_ALIASES.get(key, key), value


def _time_words(key: str, value: str) -> list[str]:
    """An engine's ``tc=``/``st=`` as our engine time keys."""
    if key == "st":
        return [f"move-time={value}"]
    try:
        return [f"{name}={amount:g}" for name, amount in parse_tc(value).items()]
    except ValueError as error:
        raise click.UsageError(str(error)) from None


def _engine_setting(key: str, value: str, option: str) -> list[str]:
    """One engine key as ``KEY=VALUE`` words of ``--engine-option``."""
    if key in ("tc", "st"):
        return _time_words(key, value)
    if key.replace("-", "_") not in ENGINE_KEYS:
        raise click.UsageError(f"{option} {key}={value}: unknown key {key!r} (known: cmd, arg, "
                               f"tc, st, initstr, {', '.join(ENGINE_KEYS)})")
    return [f"{key}={value}"]


def _engine(keys: list[str], place: int) -> list[str]:
    """``-engine cmd=CMD KEY=VALUE...`` as ``--engine CMD --engine-option N:KEY=VALUE...``."""
    command, arguments, settings = None, [], []
    for word in keys:
        key, value = _split(word, "-engine")
        if key == "cmd":
            command = value
        elif key == "arg":
            arguments.append(shlex.quote(value))
        else:
            settings += _engine_setting(key, value, "-engine")
    if command is None:
        raise click.UsageError("-engine needs cmd=COMMAND (cutechess's way to give an engine)")
    words = ["--engine", " ".join([command, *arguments])]
    for setting in settings:
        words += ["--engine-option", f"{place}:{setting}"]
    return words


def _each(keys: list[str], each: list[str]) -> list[str]:
    """``-each``: the run's clock from ``tc=``/``st=``; other keys kept in ``each`` for every
    engine."""
    words: list[str] = []
    for word in keys:
        key, value = _split(word, "-each")
        if key == "tc":
            words += ["--tc", value]
        elif key == "st":
            words += ["--move-time", value]
        elif key in ("cmd", "name", "arg"):
            raise click.UsageError(f"-each {key}=...: each engine has its own; give it with "
                                   f"-engine")
        else:
            each += _engine_setting(key, value, "-each")
    return words


def _openings(keys: list[str]) -> list[str]:
    """``-openings file=F order=... plies=N start=K`` as our opening flags."""
    words: list[str] = []
    for word in keys:
        key, value = _split(word, "-openings")
        if key not in OPENING_KEYS:
            raise click.UsageError(f"-openings {word}: unknown key {key!r} (known: "
                                   f"{', '.join(OPENING_KEYS)})")
        if OPENING_KEYS[key]:
            words += [OPENING_KEYS[key], value]
    if "--openings" not in words:
        raise click.UsageError("-openings needs file=FILE")
    return words
