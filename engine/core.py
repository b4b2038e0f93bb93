"""The state protocol every game implements, and the values shared by engine and referee.

A game is split in two, as in OpenSpiel:

* :class:`Game` holds the fixed facts of a game (its name, who moves first, its board size and
  options) and is a factory for positions.
* :class:`Position` is one position in play. It keeps its own move stack so that every move can
  be taken back, knows when the game is over (:class:`Outcome`) and converts moves to and from
  their one canonical text.

Games implement only the rule-specific hooks (``_generate``, ``_apply``, ``_revert``,
``_judge``, ``move_text``, ``parse_move``, ``key``, ``diagram``, and ``cell`` for the default
picture); :meth:`Position.play` and :meth:`Position.undo` do the bookkeeping (history, turn,
repetition counts, outcome) once for all.
Moves are whatever small immutable value suits a game's move generator (an ``int`` for most):
outside the game they travel as canonical text.
"""

from __future__ import annotations

import contextlib
import enum
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable, ClassVar, ContextManager, Hashable, Iterable, Iterator, Mapping

BLACK, WHITE = 0, 1
COLOUR_NAMES = ("black", "white")


class Termination(str, enum.Enum):
    """Why a game ended; the referee's ``termination`` field (SPEC 3.2)."""

    NORMAL = "normal"
    RESIGN = "resign"
    REPETITION = "repetition"
    NO_PROGRESS = "no_progress"
    MOVE_LIMIT = "move_limit"
    ILLEGAL_MOVE = "illegal_move"
    TIMEOUT = "timeout"
    CRASH = "crash"
    PROTOCOL_ERROR = "protocol_error"
    DISCONNECT = "disconnect"  # a remote engine stayed away past the grace window
    NO_SHOW = "no_show"  # a remote engine never came to its game
    # The referee's adjudication rules (docs/adjudication.md): no engine is at fault.
    ADJUDICATED_EXACT = "adjudicated_exact"
    ADJUDICATED_RESIGN = "adjudicated_resign"
    ADJUDICATED_DRAW = "adjudicated_draw"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (``None`` for a draw), the kind of end and a one-line reason."""

    winner: int | None
    termination: Termination
    reason: str

    @property
    def result(self) -> str:
        """The result in GTP ``final_score`` form: ``B+``, ``W+`` or ``0``."""
        if self.winner is None:
            return "0"
        return "B+" if self.winner == BLACK else "W+"


@dataclass(frozen=True)
class Advantage:
    """A score that a game's evaluation reads as a clear advantage, in its own units, and what
    that amount means in the evaluation's terms (``Advantage(100, "one piece (100)")``): the
    referee's book maker keeps only random openings its search scores within it of level."""

    score: int
    meaning: str


class OutOfBudget(Exception):
    """A search or solver's stop test said stop (time or nodes spent); nothing it had cached
    is wrong."""


class GameError(ValueError):
    """Base of the errors a game raises for bad input; the message is one line for the user."""


class MoveSyntaxError(GameError):
    """The text is not a move in this game's notation."""


class IllegalMoveError(GameError):
    """The text is a well-formed move, but not legal in this position."""


class UnknownGameError(GameError):
    """No registered game has this name or alias."""


class OptionError(GameError):
    """An unknown game option or a value the option does not take."""


class SizeError(GameError):
    """A board size the game does not accept (GTP: ``unacceptable size``)."""


def parse_colour(text: str, aliases: Mapping[str, int] | None = None) -> int:
    """Read a colour: ``black``/``b``/``white``/``w`` in any case, or one of a game's aliases.

    >>> parse_colour("W")
    1
    """
    word = text.lower()
    if word in ("b", "black"):
        return BLACK
    if word in ("w", "white"):
        return WHITE
    if aliases and word in aliases:
        return aliases[word]
    expected = "black or white" + "".join(f" or {alias}" for alias in (aliases or {}))
    raise GameError(f"unknown colour {text!r} (expected {expected})")


class Game(ABC):
    """The fixed facts of a game with its options and board size; a factory for positions.

    Subclasses set the class-level metadata below and implement :meth:`initial_position`.
    ``spec_section`` names the section of SPEC.md that defines the game (``"2.1"``): the
    registry lists the games in that order.
    ``may_not_end`` marks a game whose rules let it run forever (the referee's move limit
    ends it).
    ``clear_advantage`` is the score its evaluation reads as a clear advantage (:class:`Advantage`),
    which bounds the openings of a book made for it; ``None`` for a game that gives none (a
    book for it then needs an explicit bound).
    ``options`` maps each option name to its allowed values, the default first; an option whose
    values cannot be listed (a layout string, say) maps to an empty tuple and the game checks it
    in :meth:`check_option`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    spec_section: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    colour_aliases: ClassVar[Mapping[str, int]] = {}
    first_player: ClassVar[int] = BLACK
    default_size: ClassVar[tuple[int, int] | None] = None
    size_limits: ClassVar[tuple[int, int, int, int] | None] = None
    options: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    option_defaults: ClassVar[Mapping[str, str]] = {}
    may_not_end: ClassVar[bool] = False
    clear_advantage: ClassVar[Advantage | None] = None

    def __init__(self, options: Mapping[str, str] | None = None,
                 size: tuple[int, int] | None = None) -> None:
        self.settings: dict[str, str] = {
            key: (values[0] if values else self.option_defaults[key])
            for key, values in self.options.items()}
        for key, value in (options or {}).items():
            key = key.lower()
            if key not in self.options:
                known = ", ".join(self.options) or "none"
                raise OptionError(f"unknown option {key!r} for {self.name} (options: {known})")
            self.settings[key] = self.check_option(key, value)
        if size is None:
            size = self.default_size
        elif self.size_limits is None:
            raise SizeError(f"{self.name} is played on a fixed board" if self.default_size
                            else f"{self.name} has no board size to set")
        else:
            min_cols, max_cols, min_rows, max_rows = self.size_limits
            cols, rows = size
            if not (min_cols <= cols <= max_cols and min_rows <= rows <= max_rows):
                raise SizeError(
                    f"{cols}x{rows} is outside {self.name}'s range: "
                    f"{min_cols}-{max_cols} columns by {min_rows}-{max_rows} rows")
        self.cols, self.rows = size if size else (0, 0)

    def check_option(self, key: str, value: str) -> str:
        """Return the normalised value of option ``key``, or raise :class:`OptionError`."""
        allowed = self.options[key]
        if value.lower() in allowed:
            return value.lower()
        raise OptionError(f"bad value {value!r} for option {key!r} (expected {'|'.join(allowed)})")

    @property
    def size(self) -> tuple[int, int] | None:
        """The board's columns and rows, or ``None`` for a game without a rectangular board."""
        return (self.cols, self.rows) if self.default_size else None

    def parse_colour(self, text: str) -> int:
        """Read a colour name for this game, accepting its aliases."""
        return parse_colour(text, self.colour_aliases)

    def draw_start(self, rng: random.Random) -> dict[str, str]:
        """Options that fix a random start (laoCoon's ``layout=``), drawn by the referee and
        sent to both engines; empty when this game's start is fixed."""
        return {}

    @abstractmethod
    def initial_position(self) -> Position:
        """The position the game starts from, with these options and this size."""

    def position_after(self, texts: list[str]) -> Position:
        """The position reached by playing the moves written as ``texts`` from the start;
        raises :class:`GameError` at the first text that is not a legal move."""
        position = self.initial_position()
        for text in texts:
            position.play(position.parse_move(text))
        return position

    def replay(self, texts: Iterable[str]) -> Iterator[tuple[Position, str]]:
        """Play the moves written as ``texts`` from the start, giving after each one the
        position (the same object, moved on) and the move's canonical text: what a record's
        readers (a replay, a picture at some ply) walk through. Raises :class:`GameError`
        naming the move's number at the first text that is not a legal move."""
        position = self.initial_position()
        for number, text in enumerate(texts, 1):
            try:
                move = position.parse_move(text)
            except GameError as error:
                raise type(error)(f"move {number} ({text}): {error}") from None
            canonical = position.move_text(move)
            position.play(move)
            yield position, canonical

    def __repr__(self) -> str:
        settings = "".join(f" {key}={value}" for key, value in self.settings.items())
        size = f" {self.cols}x{self.rows}" if self.size else ""
        return f"<{type(self).__name__}{size}{settings}>"


# What the next cell of a move is, by what joins it to the cells before (Position.step_prompt).
_JOIN_WORDS = {"-": "choose where it goes", "x": "choose the piece it captures",
               ">": "choose where it rolls to", "+": "choose the next cell",
               "=": "choose the cell to swap with"}


class Position(ABC):
    """A position in play, with its move stack.

    The public surface is what the protocol, the referee and the search use: ``to_move``,
    ``outcome``, :meth:`legal_moves`, :meth:`play`, :meth:`undo`, :meth:`move_text`,
    :meth:`parse_move`, :meth:`key`, :meth:`diagram`, :meth:`copy`.

    ``tracks_positions`` makes :meth:`play` count how often each :meth:`key` has occurred, for
    games whose rules end on repetition; ``_judge`` reads the count with :meth:`occurrences`.
    ``has_evaluation`` says that :meth:`evaluate` is worth an alpha-beta search;
    ``repetition_is_a_draw`` tells the search to score a position that recurs (in the game or
    the line searched) as a draw, for games that may not end where going round in circles
    only leads to the move limit;
    ``late_move_reductions`` (N > 0) lets alpha-beta search a node's moves after the first N
    one ply shallower first (see ``engine.search.alphabeta``);
    ``typical_plies`` (the length of a typical game) lets the clock plan ahead, never for
    fewer than ``least_moves_to_go`` more moves of the side to move (:meth:`moves_to_go`).
    """

    tracks_positions: ClassVar[bool] = False
    has_evaluation: ClassVar[bool] = False
    repetition_is_a_draw: ClassVar[bool] = False
    late_move_reductions: ClassVar[int] = 0
    typical_plies: ClassVar[int] = 80
    least_moves_to_go: ClassVar[int] = 10

    def __init__(self, game: Game) -> None:
        self.game = game
        self.to_move = game.first_player
        self.outcome: Outcome | None = None
        self.history: list[tuple[object, object, Outcome | None]] = []
        self._seen: dict[Hashable, int] = {}

    def _start(self) -> None:
        """Finish construction once the board is set: count the start position, judge it."""
        if self.tracks_positions:
            self._seen[self.key()] = 1
        self.outcome = self._judge(None)

    # --- the rule-specific part, implemented by each game ------------------------------------

    @abstractmethod
    def _generate(self) -> list:
        """Every legal move for the side to move, in any order (the game is not over)."""

    @abstractmethod
    def _apply(self, move) -> object:
        """Change the board by ``move`` of ``self.to_move``; return what :meth:`_revert` needs."""

    @abstractmethod
    def _revert(self, move, undo) -> None:
        """Take ``move`` of ``self.to_move`` back, given what :meth:`_apply` returned."""

    @abstractmethod
    def _judge(self, move) -> Outcome | None:
        """The outcome right after ``move`` (``None`` at the start), or ``None`` to go on."""

    @abstractmethod
    def move_text(self, move) -> str:
        """The canonical text of a legal ``move`` in this position (before it is played)."""

    @abstractmethod
    def parse_move(self, text: str):
        """The legal move written as ``text``, read leniently.

        Raises :class:`MoveSyntaxError` for text that is not a move at all, and
        :class:`IllegalMoveError` for a well-formed move that is not legal here.
        """

    @abstractmethod
    def key(self) -> Hashable:
        """A hashable value equal for equal positions (board, side to move, and any state that
        changes which moves are legal)."""

    @abstractmethod
    def diagram(self) -> str:
        """A human-readable picture of the position, rank 1 at the bottom, files labelled."""

    # --- the picture, for engine.drawing ----------------------------------------------------

    def cell(self, square: int) -> str:
        """The one-character picture of ``square`` on the game's rectangular board, read by the
        default :meth:`draw`: ``X`` a black piece, ``O`` a white piece, ``.`` an empty square,
        any other character a mark written on the square (a game's :meth:`diagram` may use it
        too, with :func:`engine.grid.render`). A game that draws itself need not give it."""
        raise NotImplementedError(f"{self.game.name} gives neither cell(square) nor "
                                  f"draw(canvas), so its positions cannot be drawn")

    def draw(self, canvas) -> object:
        """Draw this position on ``canvas`` (:mod:`engine.drawing`). The default draws nothing
        and answers ``NotImplemented``, and :mod:`engine.drawing` then draws the game's board of
        plain squares with each square's :meth:`cell` on it, so that a new game is drawn with
        no drawing code; a game overrides it only to look better (a chessboard, a board of
        points, pieces in hand)."""
        return NotImplemented

    def _legal(self, move, text: str, *details):
        """``move`` (read from ``text``) when it is legal here; otherwise raise
        :class:`IllegalMoveError` with ``text`` and the reason: the game is over, or what the
        game's ``_why_illegal(*details)`` says (``_why_illegal(move)`` without details).
        Every game's :meth:`parse_move` ends here."""
        if move in self.legal_moves():
            return move
        why = ("the game is over" if self.outcome is not None
               else self._why_illegal(*(details or (move,))))
        raise IllegalMoveError(f"{text}: {why}")

    def _why_illegal(self, *details) -> str:
        """One line saying why a well-formed move is not legal in this position (a game still
        going), for :meth:`_legal`'s error message; games override it."""
        return "not a legal move in this position"

    def evaluate(self) -> int:
        """A heuristic score for the side to move: positive when it stands better, well inside
        a million. Games that set ``has_evaluation`` override it."""
        return 0

    def noisy_moves(self) -> list:
        """The legal moves that alpha-beta follows past its depth limit (captures, a step onto
        the goal), so that it never judges a position in the middle of an exchange; games
        where no move is that forcing keep the default, none."""
        return []

    def search_moves(self) -> list:
        """The legal moves worth searching, the most promising first (never empty while the
        game goes on); games that can tell some moves apart without search (a move in a part
        of the board that is already decided) override it, the default is every legal move."""
        return self.legal_moves()

    def deep_moves(self) -> list:
        """The moves worth searching below the root of a search, the most promising first
        (never empty while the game goes on): games whose moves differ in details that rarely
        matter a few plies ahead may narrow :meth:`search_moves` further here, to search
        deeper, while the root still weighs every move it may play (and a node whose
        narrowed moves all lose searches the others before it counts as lost). The default is
        :meth:`search_moves`."""
        return self.search_moves()

    def solve(self, stop=None) -> bool | None:
        """Whether the side to move wins with perfect play, for games that can tell exactly
        (a small enough endgame), else ``None``. ``stop()`` returning true may end the work
        early with :class:`engine.cgt.OutOfBudget`."""
        return None

    def settled(self) -> tuple[int, int] | None:
        """``(result, plies)`` when the result of perfect play is plain at a glance from the
        rules (a race no defence can stop): ``result`` for the side to move (1 wins, 0 draw,
        -1 loses), reached within at most ``plies`` plies whatever is played; ``None`` when it
        is not (the default). Exact solvers take it as proven, searching no further."""
        return None

    def fewest_plies_to_end(self) -> int:
        """A lower bound on the plies still to be played before the rules can end the game
        from here (the move limit aside): 0 when it is over. Exact solvers skip the lines
        that cannot end within their horizon, and give up at once on a position whose end is
        beyond their reach. Games that can bound it cheaply (a race to a far rank) override
        it; the default, 1, bounds nothing."""
        return 0 if self.outcome is not None else 1

    def bounded_by(self, stop: Callable[[], bool]) -> ContextManager:
        """A context within which the game's own exact work (a solver that :meth:`evaluate`,
        :meth:`search_moves` or :meth:`solve` may call) also calls ``stop()`` now and then and
        raises :class:`OutOfBudget` once it returns true: a search's hard limit then bounds
        that work too, not only the search's own nodes. Games with such work override it; the
        default has none to bound."""
        return contextlib.nullcontext()

    def _copy_state(self, other: Position) -> None:
        """Give ``other`` (a shallow copy) its own copies of this position's mutable state."""

    # --- a per-ply cache, for games whose moves are dear to find ------------------------------

    _ply_cache: object = None

    def _per_ply(self, find):
        """What ``find()`` gives in this position, found once and kept until the board changes.

        Games whose moves are dear to find and wanted more than once a ply (``_judge`` to see
        whether the side to move can move, then ``_generate``, then ``evaluate``) keep them here:
        ``find`` returns an immutable value (a tuple of moves, say), and ``_apply`` and
        ``_revert`` call :meth:`_forget_ply` before they change the board.
        """
        cached = self._ply_cache
        if cached is None:
            cached = self._ply_cache = find()
        return cached

    def _forget_ply(self):
        """Drop what :meth:`_per_ply` kept, because the board is about to change; return it, so
        that ``_apply`` may keep it in its undo value and ``_revert`` put it back
        (``self._ply_cache = kept``) instead of finding it again."""
        cached, self._ply_cache = self._ply_cache, None
        return cached

    # --- bookkeeping shared by every game ------------------------------------------------------

    def legal_moves(self) -> list:
        """Every legal move for the side to move; empty once the game is over."""
        if self.outcome is not None:
            return []
        return self._generate()

    def legal_move_texts(self) -> list[str]:
        """The canonical texts of the legal moves, sorted as strings."""
        return sorted(self.move_text(move) for move in self.legal_moves())

    def step_prompt(self, made: str, following: list[str]) -> str:
        """What the next click of a move asks for, in a few words, for a person building the
        move cell by cell on a page (``referee.report.seat``): ``made`` is the move's text as
        far as the cells clicked so far (``""``, ``b1``, ``d4-e5``), ``following`` the legal
        moves' texts that go on from it. This reading of the joins (``-``, ``x``, ``>``, ``+``,
        ``=``) fits a piece that moves or a piece placed; a game whose steps are told better
        in its own words overrides it.

        >>> from engine import find_game
        >>> position = find_game("clobber")({}, (3, 3)).initial_position()
        >>> position.step_prompt("", position.legal_move_texts())
        'choose a piece to move'
        >>> position.step_prompt("a1", ["a1xa2", "a1xb1"])
        'choose the piece it captures'
        """
        if not made:
            moving = any(join in text for text in following for join in _JOIN_WORDS)
            return "choose a piece to move" if moving else "choose where to place a piece"
        joins = sorted({text[len(made)] for text in following if len(text) > len(made)})
        return " or ".join(_JOIN_WORDS.get(join, "choose the next cell") for join in joins)

    def play(self, move) -> None:
        """Play a legal move for the side to move. The move is not checked: see
        :meth:`parse_move`."""
        undo = self._apply(move)
        self.history.append((move, undo, self.outcome))
        self.to_move ^= 1
        if self.tracks_positions:
            key = self.key()
            self._seen[key] = self._seen.get(key, 0) + 1
        self.outcome = self._judge(move)

    def earlier_keys(self) -> set[Hashable]:
        """The :meth:`key` of every position of the game so far, this one included."""
        working = self.copy()
        keys = {working.key()}
        while working.history:
            working.undo()
            keys.add(working.key())
        return keys

    def undo(self) -> None:
        """Take back the last move. Raises ``IndexError`` at the start of the game."""
        if not self.history:
            raise IndexError("no move to undo")
        if self.tracks_positions:
            key = self.key()
            count = self._seen[key] - 1
            if count:
                self._seen[key] = count
            else:
                del self._seen[key]
        move, undo, self.outcome = self.history.pop()
        self.to_move ^= 1
        self._revert(move, undo)

    def occurrences(self) -> int:
        """How often the current position has occurred (needs ``tracks_positions``)."""
        return self._seen.get(self.key(), 0)

    @property
    def moves(self) -> list:
        """The moves played so far, oldest first."""
        return [move for move, _, _ in self.history]

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return len(self.history)

    def moves_to_go(self) -> int:
        """How many more moves of the side to move the clock shares its time out over: what
        is left of a typical game, at least ``least_moves_to_go``."""
        return max(self.least_moves_to_go, (self.typical_plies - self.ply) // 2)

    def copy(self) -> Position:
        """An independent copy, history included, so that undo works on it too."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other._seen = dict(self._seen)
        self._copy_state(other)
        return other

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ply {self.ply}, {COLOUR_NAMES[self.to_move]} to move>"
