"""What a run plans its games from: the :class:`Setup` every game shares and the
:class:`Opening` a game may start from (a line of a book).

Both are values: the plan (:mod:`.schedule`, :mod:`.openings`) makes them, the play stage
(:mod:`referee.play.game`) plays from them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Mapping

from engine import Game, find_game

from .adjudication import Adjudication

DEFAULT_MAX_MOVES = 1000
DEFAULT_COMMAND_TIMEOUT = 30.0


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares: the game, its options and size, the grace before a
    late move loses, the limits, the adjudication rules. Time controls are each engine's
    (:class:`referee.play.entrants.EngineSpec`), held there only.

    ``command_timeout`` bounds the answer to any command other than ``genmove`` (which the
    clock bounds), even when the clock would allow more; the time such an answer takes is
    charged to the clock all the same (see :mod:`referee.play.game`).
    """

    game: str
    options: Mapping[str, str] = field(default_factory=dict)
    size: tuple[int, int] | None = None
    time_margin: float = 0.0
    max_moves: int = DEFAULT_MAX_MOVES
    command_timeout: float = DEFAULT_COMMAND_TIMEOUT
    adjudication: Adjudication = Adjudication()

    def make_game(self, extra: Mapping[str, str] | None = None) -> Game:
        """The game with these options (and ``extra`` ones); raises the game's errors."""
        return find_game(self.game)({**self.options, **(extra or {})}, self.size)

    def start(self, opening: Opening | None, rng: random.Random) -> tuple[dict[str, str], Game]:
        """The start options a game is played from and the game with them: the opening's own
        (a laoCoon layout in a book), else the game's random start drawn with ``rng`` (no
        options for most games)."""
        game = self.make_game()
        if opening is not None and opening.start_options:
            options = dict(opening.start_options)
        else:
            options = game.draw_start(rng)
        return options, self.make_game(options) if options else game


@dataclass(frozen=True)
class Opening:
    """One opening of a book: its 1-based ``number`` in the book, its ``moves`` (canonical
    texts), the ``start_options`` it is played from (``{"layout": ...}``; empty for most games)
    and its ``source`` (``"book.txt:2"``, the file and line it was read from)."""

    number: int
    moves: tuple[str, ...]
    start_options: dict[str, str] = field(default_factory=dict, hash=False)
    source: str = ""

    def text(self) -> str:
        """The opening as a line of a text book.

        >>> Opening(1, ("a2-a3", "h7-h6")).text()
        'a2-a3 h7-h6'
        """
        words = [f"{key}={value}" for key, value in self.start_options.items()]
        return " ".join(words + list(self.moves))
