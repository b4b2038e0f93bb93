"""A finished game as the statistics see it, parsed once from its ``results.jsonl`` row.

The row (SPEC 3.3 plus the fields of the tournament manager) stores the result as ``B+``,
``W+`` or ``0`` and the termination as text; :meth:`GameResult.from_row` turns them back into
the rules' :class:`~engine.core.Outcome` (winner colour, termination, reason), the value a
result carries from the referee's game to every reader, so that nothing re-parses strings.
Rows written before pairs, openings and per-side clocks existed lack those fields: they read
as ``None`` (no pair, no opening, unknown move count or least time left), never as zero.

>>> result = GameResult.from_row({"game_no": 3, "black_index": 2, "white_index": 1,
...                               "result": "W+", "termination": "timeout", "plies": 41,
...                               "black_time": 9.5, "white_time": 7.25, "pair": 2,
...                               "at_fault": "black"})
>>> result.winner, result.pair, result.opening, result.termination.value, result.at_fault
(1, 2, None, 'timeout', 0)
>>> result.score_of(1), result.score_of(2), result.score_of(3)
(1.0, 0.0, None)
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from engine import BLACK, COLOUR_NAMES, Game, GameError, Outcome, Termination, find_game

from .analysis import to_row

WINNERS = {"B+": BLACK, "W+": 1 - BLACK, "0": None}


class ResultError(ValueError):
    """A results row that cannot be read; the message is one line naming the game."""


@dataclass(frozen=True)
class GameResult:
    """One finished game: who played which colour, how it ended, and the clocks.

    ``black`` and ``white`` are 1-based engine indices (the order of the command line);
    ``outcome`` is the rules' (or the referee's) end of the game, and ``winner`` and
    ``termination`` are its parts; ``at_fault`` is a colour (0 black, 1 white) or ``None``;
    ``first`` is the colour that moves first by the game's rules. ``moves``, ``used`` and
    ``min_left`` are (black, white) pairs: timed moves made, seconds used, least clock left after a
    move.
    """

    game_no: int
    black: int
    white: int
    outcome: Outcome
    plies: int = 0
    pair: int | None = None
    opening: int | None = None
    at_fault: int | None = None
    first: int = BLACK
    moves: tuple[int | None, int | None] = (None, None)
    used: tuple[float | None, float | None] = (None, None)
    min_left: tuple[float | None, float | None] = (None, None)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> GameResult:
        """The result of a ``results.jsonl`` row; raises :class:`ResultError`."""
        number = row.get("game_no")
        try:
            return cls(
                game_no=int(number), black=int(row["black_index"]),
                white=int(row["white_index"]),
                outcome=Outcome(WINNERS[row["result"]], Termination(row["termination"]),
                                str(row.get("reason") or "")),
                plies=int(row.get("plies") or 0),
                pair=_optional(row.get("pair"), int), opening=_optional(row.get("opening"), int),
                at_fault=_colour(row.get("at_fault")), first=_first_player(row),
                moves=(_optional(row.get("black_moves"), int),
                       _optional(row.get("white_moves"), int)),
                used=(_optional(row.get("black_time"), float),
                      _optional(row.get("white_time"), float)),
                min_left=(_optional(row.get("black_min_left"), float),
                          _optional(row.get("white_min_left"), float)))
        except (KeyError, TypeError, ValueError) as error:
            raise ResultError(f"game {number}: unreadable results row ({error!r})") from None

    @property
    def winner(self) -> int | None:
        return self.outcome.winner

    @property
    def termination(self) -> Termination:
        return self.outcome.termination

    def colour_of(self, engine: int) -> int | None:
        """The colour ``engine`` (1-based) played in this game, ``None`` if it did not play."""
        if engine == self.black:
            return BLACK
        if engine == self.white:
            return 1 - BLACK
        return None

    def score_of(self, engine: int) -> float | None:
        """Points ``engine`` earned: 1 for a win, 1/2 for a draw, 0 for a loss; ``None`` if
        it did not play."""
        colour = self.colour_of(engine)
        if colour is None:
            return None
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == colour else 0.0

    def opponent_of(self, engine: int) -> int:
        """The other engine of this game."""
        return self.white if engine == self.black else self.black


def _optional(value: Any, kind: type) -> Any:
    return None if value is None else kind(value)


def _colour(name: str | None) -> int | None:
    return None if name is None else COLOUR_NAMES.index(name)


def _first_player(row: Mapping[str, Any]) -> int:
    """The colour that moves first: the row's ``first_player`` if it has one, else the rule
    of its game, else black (rows of hand-made tests)."""
    if row.get("first_player") is not None:
        return COLOUR_NAMES.index(row["first_player"])
    if row.get("game"):
        try:
            return find_game(row["game"]).first_player
        except GameError:
            pass
    return BLACK


@dataclass
class GameRecord:
    """How one game went: what the results file and the SGF record are written from.

    ``moves`` are canonical move texts, the opening's first; ``clocks`` the mover's time left
    after each move (refills included; ``None`` for an opening move); ``used`` the seconds each
    colour spent, ``timed_moves`` the moves each made on its clock and ``lowest`` the least
    time each had left at the end of one (``None`` before any); ``at_fault`` the colour that
    forfeited; ``stderr`` what each engine wrote to standard error (the tail); ``analyses``
    what the mover's engine said of each move (``genmove_analyze``; ``None`` where nothing);
    ``times`` the seconds each move was charged (``None`` for an opening move).
    ``outcome`` is how it ended (winner, termination, reason), the rules' own value.
    """

    game: Game
    start_options: dict[str, str]
    moves: list[str]
    clocks: list[float | None]
    used: list[float]
    outcome: Outcome
    at_fault: int | None = None
    stderr: list[str] = field(default_factory=lambda: ["", ""])
    opening_plies: int = 0
    timed_moves: list[int] = field(default_factory=lambda: [0, 0])
    lowest: list[float | None] = field(default_factory=lambda: [None, None])
    analyses: list = field(default_factory=list)
    times: list[float | None] = field(default_factory=list)

    @property
    def result(self) -> str:
        """The result as SPEC 3.3 writes it: ``B+``, ``W+`` or ``0``."""
        return self.outcome.result

    @property
    def termination(self) -> Termination:
        return self.outcome.termination

    @property
    def reason(self) -> str:
        return self.outcome.reason

    def result_of(self, game_no: int, black: int, white: int, pair: int | None,
                  opening: int | None) -> GameResult:
        """This game as the statistics see it, ``black`` and ``white`` being the engines'
        1-based indices: built from the values, not parsed back from its results row."""
        return GameResult(
            game_no, black, white, self.outcome, plies=len(self.moves), pair=pair,
            opening=opening, at_fault=self.at_fault,
            first=self.game.first_player, moves=tuple(self.timed_moves),  # type: ignore[arg-type]
            used=tuple(self.used), min_left=tuple(  # type: ignore[arg-type]
                None if left is None else round(left, 3) for left in self.lowest))


# The most of each engine's standard error a results row keeps (the SGF keeps none).
STDERR_IN_ROW = 2000


@dataclass(frozen=True)
class Pairing:
    """Who played a game, by entrant index (0-based) and display name, and under which numbers
    of the run's plan: the game, its pair and opening (``None``: none), its seed."""

    game_no: int
    black: int
    white: int
    names: tuple[str, str]
    pair: int | None = None
    opening: int | None = None
    seed: int = 0


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as the runner hands it on, plain data that crosses processes: its
    results row (what the folder keeps), the game as the statistics and observers see it
    (:class:`GameResult`, built from the game's values, never parsed back from the row), the
    mover's clock after each move (``None`` for opening moves) and the colour that moved
    first, for its SGF record; the seconds each move was charged (``None`` for opening moves)
    and what each side's engine said its ``name`` and ``version`` were, where its seat asked
    (the ladder's records keep them)."""

    row: dict[str, Any]
    result: GameResult
    clocks: tuple[float | None, ...]
    first_player: str
    times: tuple[float | None, ...] = ()
    engines: tuple[tuple[str, str] | None, tuple[str, str] | None] = (None, None)

    @classmethod
    def of(cls, record: GameRecord, pairing: Pairing,
           lags: Sequence[list[list[float]] | None] = (None, None),
           engines: tuple[tuple[str, str] | None, tuple[str, str] | None] = (None, None),
           ) -> FinishedGame:
        """The finished game of ``record`` played as ``pairing`` says, with each side's
        measured time and lag allowance per move where it played across a network (``lags``)
        and what each engine said its name and version were (``engines``): its results row
        and its statistics' value, each made from the record, never one from the other."""
        row = results_row(record, pairing)
        if any(lag is not None for lag in lags):
            row["black_lag"], row["white_lag"] = lags
        result = record.result_of(pairing.game_no, pairing.black + 1, pairing.white + 1,
                                  pairing.pair, pairing.opening)
        return cls(row, result, tuple(record.clocks), COLOUR_NAMES[record.game.first_player],
                   tuple(record.times), engines)


def results_row(record: GameRecord, pairing: Pairing) -> dict[str, Any]:
    """The ``results.jsonl`` row of a finished game. A game in which an engine analysed its
    moves has ``analysis``: one entry a ply, ``None`` or the analysis's known fields
    (:func:`~referee.records.analysis.to_row`)."""
    lowest = [None if left is None else round(left, 3) for left in record.lowest]
    analysis = ({"analysis": [None if entry is None else to_row(entry)
                              for entry in record.analyses]}
                if any(record.analyses) else {})
    return {
        "game_no": pairing.game_no, "game": record.game.name,
        "black": pairing.names[0], "white": pairing.names[1],
        "black_index": pairing.black + 1, "white_index": pairing.white + 1,
        "result": record.result, "termination": record.termination.value,
        "reason": record.reason, "moves": record.moves, "plies": len(record.moves),
        "black_time": record.used[0], "white_time": record.used[1],
        "pair": pairing.pair, "opening": pairing.opening,
        "opening_plies": record.opening_plies,
        "black_moves": record.timed_moves[0], "white_moves": record.timed_moves[1],
        "black_min_left": lowest[0], "white_min_left": lowest[1],
        "options": dict(record.game.settings), "start_options": record.start_options,
        "size": list(record.game.size) if record.game.size else None,
        "at_fault": None if record.at_fault is None else COLOUR_NAMES[record.at_fault],
        "seed": pairing.seed,
        "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "black_stderr": record.stderr[0][-STDERR_IN_ROW:],
        "white_stderr": record.stderr[1][-STDERR_IN_ROW:],
        **analysis,
    }


def game_of_row(row: Mapping[str, Any]) -> Game:
    """The game of a results row: its options, random start included, and its board size
    (given to the rules only for a game whose size can be set; the row names it always).

    >>> game_of_row({"game": "loa", "options": {}, "size": [8, 8]}).size
    (8, 8)
    """
    options = {**(row.get("options") or {}), **(row.get("start_options") or {})}
    kind = find_game(row["game"])
    size = tuple(row["size"]) if row.get("size") and kind.size_limits else None
    return kind(options, size)
