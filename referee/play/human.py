"""A person's seat at the board: the channel a game loop talks to when a person plays.

A person is one more kind of engine (``--engine human``). :class:`HumanChannel` answers the
referee's commands as an engine would, keeping its position with the project's rules
(``set_game``, ``boardsize``, ``clear_board``, ``play``, ``undo``), and answers ``genmove`` with
the move the person makes on a page: the command waits on the :class:`Seat` until the page
hands in a move, and runs out like any engine's when the clock does. The game loop checks that
move with the same rules code as any engine's (:mod:`.game`); the seat checks it first, so that
an illegal attempt is refused on the page with the rule's own reason and never forfeits.

The :class:`Seat` is the meeting point of the game loop and the page (served by
:mod:`referee.host.play_page`). Everything the page sends is checked here and refused with a
:class:`SeatRefused` naming what was wrong, and logged: a move from a tab that does not hold the
seat, a move for another ply than the current one (a stale page), a move when the person is not
to move, a move the rules refuse. One page (tab) holds the seat at a time: the page opened last
claims it (a reload, a tab opened after a crash or after closing the last one), and a page that
lost it watches until it claims it back. The person is away while no page is open: the last
one said it closed, or no page has asked for anything for :data:`LEASE` seconds (a page asks
at least every redraw, a few seconds). A person away for :attr:`Seat.away` seconds (:data:`AWAY`
by default) has left: they resign the game in progress and the command ends; until then their
clock runs as it would at the board, and a page opened again takes the seat back.

The person may also take back their last move while it is their turn (:class:`TakeBack`, which
the game loop turns into ``undo`` for both sides) and resign.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from typing import Any

from engine import COLOUR_NAMES, Game, GameError, Position, find_game, game_names, parse_colour

from .channel import Channel, ChannelTimeout, GtpFailure

HUMAN = "human"
# Seconds without a request from any page after which no page is open (a page asks at least
# every redraw: referee.host.play_page's redraw interval, at most 20 s).
LEASE = 30.0
# Seconds a person may be away (no page open) before they have left the game: time to restart
# a browser that crashed and open the page again.
AWAY = 120.0
# How often (seconds) a waiting genmove looks up to see whether the page has left.
_LOOK_UP = 0.25
_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "list_games", "set_game", "boardsize", "clear_board", "komi", "play", "genmove",
             "undo", "legal_moves", "side_to_move", "time_settings", "time_left")

log = logging.getLogger("referee.seat")


class SeatRefused(Exception):
    """A request from the page that is not applied; the message says why, in one line."""


class TakeBack(Exception):
    """The person asks to take back their last move (raised by ``genmove`` on a human seat):
    the game loop takes back that move and the reply to it, then asks again."""


class Seat:
    """One person's place at the board; see the module docstring. Thread-safe: the game loop,
    the page's requests and the run's observer all call it."""

    def __init__(self, offers_new_games: bool = False, away: float = AWAY) -> None:
        self.offers_new_games = offers_new_games  # the person may ask for another game
        self.away = away  # seconds with no page open after which the person has left
        self.lock = threading.Condition()
        self.version = 0
        self.game: Game | None = None
        self.position: Position | None = None
        self.moves: list[str] = []
        self.game_no = 0
        self.person: int | None = None  # the colour the person plays, when the run says
        self.players = ["", ""]
        self.clocks: list[float | None] = [None, None]
        self.clock_started = time.monotonic()
        self.waiting: int | None = None  # the colour whose genmove waits for the person
        self.ended: dict[str, str] | None = None  # result, termination, reason of the last game
        self.analysis: dict[str, Any] | None = None  # the engine's evaluation and PV, if offered
        self.next_game = False
        self.run_over = False
        self._answer: str | None = None
        self._holder: str | None = None
        self._page_seen = time.monotonic()  # the last request from an open page
        self._closed_at: float | None = None  # when the last page open said it closed
        self._departed: set[str] = set()  # the tokens of pages that said they closed
        self.closed = False

    # --- changes, each waking whoever waits for one --------------------------------------------

    def _change(self) -> None:
        """Count a change (the page's state is out of date) and wake the waiters; the caller
        holds the lock."""
        self.version += 1
        self.lock.notify_all()

    def wait_for_change(self, version: int, timeout: float) -> None:
        """Return once the state's version differs from ``version``, or after ``timeout``."""
        with self.lock:
            self.lock.wait_for(lambda: self.version != version or self.closed, timeout)

    # --- the game, as the referee's commands and its observer tell it --------------------------

    def set_game(self, game: Game) -> None:
        """A game is set up (``set_game``, ``boardsize``, ``clear_board``): its start."""
        with self.lock:
            self.game, self.position, self.moves = game, game.initial_position(), []
            self.ended, self.analysis, self.waiting = None, None, None
            self.next_game = False
            self._change()

    def game_started(self, game_no: int, players: tuple[str, str],
                     clocks: tuple[float | None, float | None], person: int | None) -> None:
        """A new game of the run, between these players (the person plays ``person``), with
        these clocks (observer)."""
        with self.lock:
            self.game_no, self.players, self.clocks = game_no, list(players), list(clocks)
            self.person = person
            self.ended, self.next_game = None, False
            self.clock_started = time.monotonic()
            self._change()

    def moved(self, ply: int, text: str, clocks: tuple[float | None, float | None] | None = None
              ) -> None:
        """Ply ``ply`` (1-based) was ``text``, as the referee accepted it. The same move may
        come twice (as the referee's ``play`` and from its observer): it is played once.
        Raises :class:`GameError` for a move the rules refuse."""
        with self.lock:
            position = self.position
            if position is None:
                raise GameError("no game set up")
            if ply == len(self.moves) + 1:
                move = position.parse_move(text)
                self.moves.append(position.move_text(move))
                position.play(move)
                self.analysis = None
            elif not (0 < ply <= len(self.moves) and self.moves[ply - 1] == text):
                raise GameError(f"move {ply} {text!r} does not follow the {len(self.moves)} "
                                f"moves played")
            if clocks is not None:
                self.clocks = list(clocks)
            self.clock_started = time.monotonic()
            self._change()

    def undo(self) -> None:
        """Take back the last move; raises ``IndexError`` at the start."""
        with self.lock:
            if self.position is None or not self.moves:
                raise IndexError("no move to undo")
            self.position.undo()
            self.moves.pop()
            self._change()

    def set_clock(self, colour: int, seconds: float) -> None:
        """``colour`` has ``seconds`` left (``time_left``) and its clock is about to run."""
        with self.lock:
            self.clocks[colour] = seconds
            self.clock_started = time.monotonic()
            self._change()

    def set_analysis(self, analysis: dict[str, Any] | None) -> None:
        """The engine's own view of the position (``{"score": ..., "pv": [...]}``), shown
        beside the board until the next move; the hook for an engine that offers one."""
        with self.lock:
            self.analysis = analysis
            self._change()

    def finished(self, game_no: int, result: str, termination: str, reason: str) -> None:
        """The game ended and was recorded (observer)."""
        with self.lock:
            self.ended = {"game_no": game_no, "result": result, "termination": termination,
                          "reason": reason}
            self.waiting = None
            self._change()

    def finish_run(self) -> None:
        """The run this seat plays in has ended: no game follows unless asked for."""
        with self.lock:
            self.run_over = True
            self._change()

    # --- the person's move ----------------------------------------------------------------------

    def await_move(self, colour: int, deadline: float | None) -> str:
        """The person's move for ``colour`` (canonical text, or ``resign``), waiting until they
        make it. Raises :class:`TakeBack` when they ask for one, ``ChannelTimeout`` at the
        ``deadline``; a person who has left resigns."""
        with self.lock:
            if self.position is None or self.position.outcome is not None:
                raise GtpFailure("game is over" if self.position else "no game set up")
            if self.position.to_move != colour:
                raise GtpFailure(f"it is {COLOUR_NAMES[self.position.to_move]}'s turn")
            self.waiting, self._answer = colour, None
            self._change()
            try:
                while self._answer is None:
                    if self.abandoned():
                        log.warning("the person left the page: %s resigns",
                                    COLOUR_NAMES[colour])
                        return "resign"
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        raise ChannelTimeout("no move from the person in time")
                    self.lock.wait(_LOOK_UP if left is None else min(left, _LOOK_UP))
                answer, self._answer = self._answer, None
                if answer == "takeback":
                    raise TakeBack()
                return answer
            finally:
                self.waiting = None
                self._change()

    def submit(self, token: str, ply: int, text: str) -> str:
        """The page hands in a move for ply ``ply + 1`` (``ply`` moves played, as the page
        saw them); returns its canonical text. Raises :class:`SeatRefused`."""
        with self.lock:
            self._check(token, ply, "move")
            try:
                move = self.position.parse_move(text)
            except GameError as error:
                self._refuse(str(error))
            self._answer = self.position.move_text(move)
            self.lock.notify_all()
            return self._answer

    def resign(self, token: str, ply: int) -> None:
        """The person resigns (on their turn)."""
        with self.lock:
            self._check(token, ply, "resignation")
            self._answer = "resign"
            self.lock.notify_all()

    def take_back(self, token: str, ply: int) -> None:
        """The person takes back their last move (on their turn, when they have one)."""
        with self.lock:
            self._check(token, ply, "takeback")
            if len(self.moves) < 2:
                self._refuse("takeback: you have no move to take back")
            self._answer = "takeback"
            self.lock.notify_all()

    def ask_next_game(self, token: str) -> None:
        """The person asks for another game (colours swapped), once this one is over."""
        with self.lock:
            self._check_holder(token)
            if not self.offers_new_games:
                self._refuse("new game: the run decides which games are played")
            if self.ended is None:
                self._refuse("new game: the game in progress is not over")
            self.next_game = True
            self._change()

    def wait_for_next_game(self) -> bool:
        """After a game: whether the person asks for another (``False`` once they have left)."""
        with self.lock:
            while not self.next_game:
                if self.abandoned() or self.closed:
                    return False
                self.lock.wait(_LOOK_UP)
            self.next_game, self.run_over = False, False
            return True

    def _check(self, token: str, ply: int, what: str) -> None:
        self._check_holder(token)
        if self.waiting is None or self.position is None:
            self._refuse(f"{what}: it is not your turn")
        if ply != len(self.moves):
            self._refuse(f"{what} for ply {ply + 1}, but {len(self.moves)} moves have been "
                         f"played (a stale page: reload it)")

    def _check_holder(self, token: str) -> None:
        if not self._holds(token):
            self._refuse("this page does not hold the seat (another tab does, or it was "
                         "closed): play here, or reload it")
        self._page_seen = time.monotonic()

    def _holds(self, token: str | None) -> bool:
        return bool(token and self._holder and secrets.compare_digest(token, self._holder))

    def _refuse(self, reason: str) -> None:
        log.warning("refused from the page: %s", reason)
        raise SeatRefused(reason)

    # --- which page holds the seat ----------------------------------------------------------

    def claim(self) -> str:
        """A token for the page that asks: it holds the seat from now on, and the page that
        held it (if any) watches."""
        with self.lock:
            self._holder, self._page_seen = secrets.token_urlsafe(16), time.monotonic()
            self._closed_at = None
            self._change()
            return self._holder

    def seen(self, token: str | None) -> bool:
        """A page (holding the seat with ``token``, or watching) is open; whether it holds the
        seat."""
        with self.lock:
            if token not in self._departed:
                self._page_seen = time.monotonic()
            return self._holds(token)

    def leave(self, token: str) -> None:
        """A page closed (or reloads): the person is away from now on, unless another page is
        open (it asks for the state within :data:`LEASE` seconds) or opens."""
        with self.lock:
            self._departed.add(token)
            if self._holds(token):
                self._holder = None
            self._closed_at = time.monotonic()
            self._change()

    def away_for(self) -> float:
        """Seconds the person has been away with no page open (0 while one is)."""
        now = time.monotonic()
        if self._closed_at is not None and self._closed_at >= self._page_seen:
            return now - self._closed_at
        return now - self._page_seen if now - self._page_seen >= LEASE else 0.0

    def abandoned(self) -> bool:
        """Whether the person has left: away :attr:`away` seconds, or the seat was closed."""
        return self.closed or self.away_for() >= self.away

    def close(self) -> None:
        """The command is ending: a waiting move resigns, the page is told."""
        with self.lock:
            self.closed = True
            self._change()


class HumanChannel(Channel):
    """The channel to a person at ``seat``: answers the referee's commands as an engine does;
    see the module docstring."""

    command = HUMAN

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self._options: dict[str, str] = {}
        self._kind: type[Game] | None = None
        self._size: tuple[int, int] | None = None

    def send(self, command: str, deadline: float | None = None) -> str:
        name, *args = command.split()
        handler = getattr(self, f"_{name}", None)
        if name not in _COMMANDS or handler is None:
            return self._answer_simple(name, args)
        try:
            return handler(*args, deadline=deadline) if name == "genmove" else handler(*args)
        except (GameError, IndexError, TypeError, ValueError) as error:
            raise GtpFailure(str(error) or "syntax error") from None

    def _answer_simple(self, name: str, args: list[str]) -> str:
        answers = {"protocol_version": "2", "name": "human", "version": "", "quit": "",
                   "komi": "", "time_settings": "", "list_commands": "\n".join(_COMMANDS),
                   "known_command": "true" if args and args[0] in _COMMANDS else "false"}
        if name not in answers:
            raise GtpFailure("unknown command")
        return answers[name]

    def _list_games(self) -> str:
        return "\n".join(game_names())

    def _set_game(self, name: str, *settings: str) -> str:
        self._kind = find_game(name)
        self._options = dict(setting.split("=", 1) for setting in settings)
        self._size = None
        return self._clear_board()

    def _boardsize(self, *numbers: str) -> str:
        cols, rows = (int(numbers[0]),) * 2 if len(numbers) == 1 else map(int, numbers)
        self._size = (cols, rows)
        return self._clear_board()

    def _clear_board(self) -> str:
        if self._kind is None:
            raise GameError("no game selected")
        self.seat.set_game(self._kind(self._options, self._size))
        return ""

    def _play(self, colour: str, text: str) -> str:
        position = self.seat.position
        if position is not None and parse_colour(colour) != position.to_move:
            raise GameError(f"illegal move: it is {COLOUR_NAMES[position.to_move]}'s turn")
        self.seat.moved(len(self.seat.moves) + 1, text)
        return ""

    def _undo(self) -> str:
        self.seat.undo()
        return ""

    def _time_left(self, colour: str, seconds: str, stones: str = "0") -> str:
        self.seat.set_clock(parse_colour(colour), float(seconds))
        return ""

    def _genmove(self, colour: str, deadline: float | None = None) -> str:
        text = self.seat.await_move(parse_colour(colour), deadline)
        if text != "resign":
            self.seat.moved(len(self.seat.moves) + 1, text)
        return text

    def _legal_moves(self) -> str:
        position = self.seat.position
        return " ".join(position.legal_move_texts()) if position else ""

    def _side_to_move(self) -> str:
        position = self.seat.position
        if position is None or position.outcome is not None:
            return "none"
        return COLOUR_NAMES[position.to_move]
