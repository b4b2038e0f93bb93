"""The game commands of SPEC 1.2, for whichever registered game is selected.

:class:`GameSession` owns the current game, its position and the player, and registers its
handlers on a :class:`~protocol.gtp.GtpEngine`. It knows games only through the state protocol
of :mod:`engine.core`, so every registered game is served the same way.
"""

from __future__ import annotations

import re

from engine import (COLOUR_NAMES, Game, GameError, IllegalMoveError, Position, SizeError,
                    UnknownGameError, find_game, game_names)
from engine.search import Player

from .gtp import CommandError, GtpEngine

ENGINE_NAME = "olympiad-engine"


def engine_name(algorithm: str) -> str:
    """What the engine answers to ``name``: its own name, or the forced search's.

    The baselines (``--algorithm greedy``, ``random``, ``uct``, ...) answer with names of their
    own, so that a match between two variants of this engine needs no ``name`` to tell them
    apart in its lines and tables.

    >>> engine_name("auto"), engine_name("greedy")
    ('olympiad-engine', 'olympiad-greedy')
    """
    return ENGINE_NAME if algorithm == "auto" else f"olympiad-{algorithm}"


# Numbers on the protocol are ASCII decimal only. int() and float() alone would also take other
# scripts' digits ("١٠"), underscores, "nan", "inf" and exponents, and raise on superscripts;
# fifteen digits are more than any board, clock or count needs.
_WHOLE = re.compile(r"[0-9]{1,15}")
_DECIMAL = re.compile(r"[0-9]{1,15}(?:\.[0-9]*)?|\.[0-9]+")
_SIGNED = re.compile(r"[+-]?(?:[0-9]{1,15}(?:\.[0-9]*)?|\.[0-9]+)")


def _parse_number(text: str, what: str) -> float:
    if not _DECIMAL.fullmatch(text):
        raise CommandError(f"syntax error: {what} must be a finite number >= 0 "
                           f"(ASCII digits and a point), got {text!r}")
    return float(text)


def _parse_count(text: str, what: str) -> int:
    if not _WHOLE.fullmatch(text):
        raise CommandError(f"syntax error: {what} must be a whole number >= 0, got {text!r}")
    return int(text)


# The time systems of ``kata-time_settings`` the engine's clock follows, with their arguments.
_TIME_SYSTEMS = {"none": (), "absolute": ("MAIN",), "canadian": ("MAIN", "BYO_YOMI", "STONES"),
                 "fischer": ("MAIN", "INCREMENT")}


def _expect(args: list[str], count: int, usage: str) -> None:
    if len(args) != count:
        raise CommandError(f"syntax error: expected {usage}")


class GameSession:
    """The engine's current game and the handlers that play it."""

    def __init__(self, player: Player, game: str = "loa", version: str = "0",
                 name: str = ENGINE_NAME) -> None:
        self.player = player
        self.name = name
        self.version = version
        self.game: Game = find_game(game)()
        self.position: Position = self.game.initial_position()

    def register(self, engine: GtpEngine) -> None:
        """Add this session's commands to ``engine``."""
        for name in ("name", "version", "list_games", "set_game", "boardsize", "clear_board",
                     "komi", "play", "genmove", "genmove_analyze", "undo", "legal_moves",
                     "side_to_move", "final_score", "showboard", "time_settings", "time_left"):
            engine.add_command(name, getattr(self, "cmd_" + name))
        engine.add_command("kata-time_settings", self.cmd_kata_time_settings)
        engine.add_command("kata-list_time_settings", self.cmd_kata_list_time_settings)

    # --- helpers ---------------------------------------------------------------------------

    def _reset(self, game: Game) -> None:
        """Make ``game`` current, from its initial position (time settings are kept)."""
        position = game.initial_position()
        self.game, self.position = game, position
        self.player.new_game()

    def _colour(self, text: str) -> int:
        try:
            return self.game.parse_colour(text)
        except GameError as error:
            raise CommandError(f"syntax error: {error}") from None

    # --- identification --------------------------------------------------------------------

    def cmd_name(self, args: list[str]) -> str:
        return self.name

    def cmd_version(self, args: list[str]) -> str:
        return self.version

    # --- choosing the game -----------------------------------------------------------------

    def cmd_list_games(self, args: list[str]) -> str:
        return "\n".join(game_names())

    def cmd_set_game(self, args: list[str]) -> str:
        if not args:
            raise CommandError("syntax error: expected a game name and KEY=VALUE options")
        options = {}
        for word in args[1:]:
            key, equals, value = word.partition("=")
            if not equals or not key or not value:
                raise CommandError(f"syntax error: option {word!r} is not KEY=VALUE")
            options[key] = value
        try:
            game = find_game(args[0])(options)
        except UnknownGameError as error:
            raise CommandError(str(error)) from None
        except GameError as error:
            raise CommandError(f"syntax error: {error}") from None
        self._reset(game)
        return ""

    def cmd_boardsize(self, args: list[str]) -> str:
        if len(args) not in (1, 2) or not all(_WHOLE.fullmatch(arg) for arg in args):
            raise CommandError("syntax error: expected boardsize N or boardsize COLS ROWS")
        cols, rows = int(args[0]), int(args[-1])
        try:
            game = type(self.game)(self.game.settings, (cols, rows))
        except SizeError as error:
            raise CommandError(f"unacceptable size: {error}") from None
        self._reset(game)
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self._reset(self.game)
        return ""

    def cmd_komi(self, args: list[str]) -> str:
        _expect(args, 1, "komi VALUE")
        if not _SIGNED.fullmatch(args[0]):
            raise CommandError(f"syntax error: komi must be a number (ASCII digits, a sign and a "
                               f"point), got {args[0]!r}")
        return ""

    # --- playing ---------------------------------------------------------------------------

    def _check_turn(self, colour: int) -> None:
        if self.position.outcome is not None:
            raise CommandError("illegal move: the game is over")
        if colour != self.position.to_move:
            raise CommandError(f"illegal move: {COLOUR_NAMES[colour]} is not to move "
                               f"({COLOUR_NAMES[self.position.to_move]} is)")

    def cmd_play(self, args: list[str]) -> str:
        _expect(args, 2, "play COLOUR MOVE")
        colour = self._colour(args[0])
        self._check_turn(colour)
        try:
            move = self.position.parse_move(args[1])
        except IllegalMoveError as error:
            raise CommandError(f"illegal move: {error}") from None
        except GameError as error:
            raise CommandError(f"syntax error: {error}") from None
        self.position.play(move)
        return ""

    def cmd_genmove(self, args: list[str]) -> str:
        return self._generate(args, "genmove", analyse=False)

    def cmd_genmove_analyze(self, args: list[str]) -> str:
        """``genmove`` with the search's view after the move line (``docs/protocol.md``)."""
        return self._generate(args, "genmove_analyze", analyse=True)

    def _generate(self, args: list[str], command: str, analyse: bool) -> str:
        _expect(args, 1, f"{command} COLOUR")
        colour = self._colour(args[0])
        if self.position.outcome is not None:
            raise CommandError("game is over")
        self._check_turn(colour)
        if analyse:
            move, analysis = self.player.choose_with_analysis(self.position)
        else:
            move, analysis = self.player.choose(self.position), None
        text = self.position.move_text(move)
        self.position.play(move)
        return "\n".join([text, *(analysis.lines() if analysis else ())])

    def cmd_undo(self, args: list[str]) -> str:
        if not self.position.history:
            raise CommandError("cannot undo: no move has been played")
        self.position.undo()
        return ""

    # --- asking about the position ---------------------------------------------------------

    def cmd_legal_moves(self, args: list[str]) -> str:
        return " ".join(self.position.legal_move_texts())

    def cmd_side_to_move(self, args: list[str]) -> str:
        if self.position.outcome is not None:
            return "none"
        return COLOUR_NAMES[self.position.to_move]

    def cmd_final_score(self, args: list[str]) -> str:
        if self.position.outcome is None:
            raise CommandError("cannot score: game is not over")
        return self.position.outcome.result

    def cmd_showboard(self, args: list[str]) -> str:
        status = ""
        if self.position.outcome is not None:
            outcome = self.position.outcome
            status = f"\ngame over: {outcome.result} ({outcome.reason})"
        return "\n" + self.position.diagram() + status

    # --- clocks ----------------------------------------------------------------------------

    def cmd_time_settings(self, args: list[str]) -> str:
        _expect(args, 3, "time_settings MAIN BYO_YOMI STONES")
        main = _parse_number(args[0], "main time")
        byo_yomi = _parse_number(args[1], "byo-yomi time")
        stones = _parse_count(args[2], "byo-yomi stones")
        self.player.clock.set_controls(main, byo_yomi, stones)
        return ""

    def cmd_kata_time_settings(self, args: list[str]) -> str:
        """KataGo's extension, which can say what GTP's ``time_settings`` cannot: a Fischer
        increment (``kata-time_settings fischer MAIN INCREMENT``). Without it the engine learns
        the increment only from its second ``time_left``, so its first move is planned without
        it."""
        if not args:
            raise CommandError(f"syntax error: expected kata-time_settings SYSTEM [ARGUMENTS], "
                               f"SYSTEM one of {', '.join(_TIME_SYSTEMS)}")
        system, numbers = args[0], args[1:]
        usage = _TIME_SYSTEMS.get(system)
        if usage is None:
            raise CommandError(f"syntax error: time system {system!r} is not one of "
                               f"{', '.join(_TIME_SYSTEMS)}")
        _expect(numbers, len(usage), f"kata-time_settings {system} {' '.join(usage)}".rstrip())
        clock = self.player.clock
        if system == "none":
            clock.set_controls(0.0, 1.0, 0)  # GTP's own way of saying no limit
        elif system == "absolute":
            clock.set_controls(_parse_number(numbers[0], "main time"), 0.0, 0)
        elif system == "canadian":
            self.cmd_time_settings(numbers)  # GTP's own arguments
        else:
            clock.set_controls(_parse_number(numbers[0], "main time"), 0.0, 0,
                               increment=_parse_number(numbers[1], "increment"))
        return ""

    def cmd_kata_list_time_settings(self, args: list[str]) -> str:
        return "\n".join(_TIME_SYSTEMS)

    def cmd_time_left(self, args: list[str]) -> str:
        _expect(args, 3, "time_left COLOUR SECONDS STONES")
        colour = self._colour(args[0])
        seconds = _parse_number(args[1], "seconds")
        stones = _parse_count(args[2], "stones")
        self.player.clock.set_left(colour, seconds, stones)
        return ""
