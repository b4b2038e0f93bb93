"""What a user types as a value (flags, ``--sprt`` words, SGF sizes), read strictly.

Numbers are ASCII decimal only (issue 15 item 4), as on the protocol: Python's ``int()`` and
``float()`` take any script's digits (``١٠`` is 10), underscores, ``1e3``, ``inf`` and
``nan``, and ``str.isdigit()`` says yes to ``²``, which ``int()`` then refuses with a traceback.
The click types below read numbers with :func:`referee.text.whole` and
:func:`referee.text.decimal`, which refuse all of these, so that a bad value is a one-line usage
error with status 2. The board size and ``KEY=VALUE`` readers live here too, for every command
that takes them, and the game they name as a checked :class:`Setup`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

import click

from engine import GameError, find_game

from ..plan.setup import Setup
from ..stats.sprt import SprtError, SprtSettings
from ..text import board_size, decimal, sprt_values, whole



class _AsciiNumber:
    """Reads text with ``read`` (:func:`whole` or :func:`decimal`) before click's own range
    check, so that click never sees text its ``int()``/``float()`` would take wrongly."""

    read: Callable[[str], float]

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            try:
                value = self.read(value)
            except ValueError as error:
                self.fail(str(error), param, ctx)
        return super().convert(value, param, ctx)


class WholeRange(_AsciiNumber, click.IntRange):
    """``click.IntRange`` that takes ASCII digits only."""

    read = staticmethod(whole)


class DecimalRange(_AsciiNumber, click.FloatRange):
    """``click.FloatRange`` that takes ASCII digits, a sign and a point only."""

    read = staticmethod(decimal)


class Whole(_AsciiNumber, click.types.IntParamType):
    """Any whole number in ASCII digits, for options such as ``--seed`` (not a range: its
    help shows no bounds)."""

    read = staticmethod(whole)


WHOLE = Whole()


def parse_size(text: str) -> tuple[int, int]:
    """``N`` or ``COLSxROWS`` as (columns, rows).

    >>> parse_size("7x9"), parse_size("10")
    ((7, 9), (10, 10))
    """
    try:
        return board_size(text)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--boardsize") from None


def parse_options(words: tuple[str, ...]) -> dict[str, str]:
    """``KEY=VALUE`` words as a dict (keys in lower case, a later key wins)."""
    options = {}
    for word in words:
        key, equals, value = word.partition("=")
        if not equals or not key or not value:
            raise click.BadParameter(f"{word!r} is not KEY=VALUE", param_hint="--option")
        options[key.lower()] = value
    return options


def build_setup(game: str, options: dict[str, str], size: tuple[int, int] | None,
                **limits: Any) -> Setup:
    """The run's :class:`Setup`, after the registry has accepted the game, options and size."""
    try:
        setup = Setup(find_game(game).name, options, size, **limits)
        setup.make_game()
    except GameError as error:
        raise click.UsageError(str(error)) from None
    return setup


FORCE = click.option("--force", is_flag=True, help="Overwrite --out if it exists.")


def refuse_overwrite(path: Path, force: bool) -> None:
    """Refuse to write over an existing ``path`` unless ``--force`` was given."""
    if path.exists() and not force:
        raise click.UsageError(f"{path} exists; give --force to overwrite it")


def parse_sprt(words: Iterable[str]) -> SprtSettings:
    """The SPRT of ``--sprt`` words (:func:`referee.text.sprt_values`); raises
    :class:`SprtError` with a one-line message.

    >>> parse_sprt(["elo0=0", "elo1=5", "model=logistic"])
    SprtSettings(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05, model='logistic')
    >>> parse_sprt(["elo0=5 elo1=0"])
    Traceback (most recent call last):
    ...
    referee.stats.sprt.SprtError: --sprt: elo0 (5) must be below elo1 (0)
    """
    try:
        values = sprt_values(words)
    except ValueError as error:
        raise SprtError(str(error)) from None
    return SprtSettings(**values)  # type: ignore[arg-type]
