"""One refereed game between two engines (SPEC 3.2).

The referee keeps its own position, built with the project's rules (:mod:`engine`), and never
trusts an engine: each ``genmove`` answer is read with ``position.parse_move`` before it counts,
and only its canonical text is passed on to the other engine with ``play``. Clocks are the
referee's (:mod:`.clock`): a move costs the wall time from writing ``genmove`` to the end of the
answer. Each side may have its own time control (time odds). No thinking is free: the time an
engine takes to answer any other command of the game (the set-up, ``time_left``, ``play``, the
opening's moves) beyond :data:`ANSWER_ALLOWANCE` is charged to its clock as well, and an answer
that comes after its clock ran out loses on time like a late move. A channel may say that part
of an answer's time was its transport's, not the engine's (a remote engine's network lag,
within the event's allowance: :meth:`~.channel.Channel.lag_allowance`); that part is not
charged.

An opening (from a book) is played on the referee's board and sent to both engines with
``play`` after the set-up; its moves cost no time but the engines' answers to them.

An engine that announces ``kata-time_settings`` (KataGo's extension) is told the increment
with it after ``time_settings``, so that it can plan its first move with it.

An engine that announces ``genmove_analyze`` (``docs/protocol.md``) is asked for its moves
with it, any other with ``genmove``; the move line is judged alike, and what the engine said
of its move is kept (:mod:`referee.records.analysis`; a malformed analysis is none). Before
each move the adjudication rules in force (:mod:`.adjudication`, ``docs/adjudication.md``) may
end the game; the exact rule's solver also works while the engine thinks, and a proof it finds
meanwhile ends the game before the answer is read.

Every way a game can end is one :class:`~engine.core.Termination` with a one-line reason; when
an engine is at fault (illegal move, timeout, crash, protocol error, resignation) it loses.

>>> from engine.search import Player
>>> from protocol.cli import build_engine
>>> from referee.play.channel import InProcessChannel
>>> engines = [InProcessChannel(build_engine(Player(depth=1, seed=1)).respond) for _ in "bw"]
>>> record = play_game(Setup("loa", max_moves=6), engines, random.Random(1))
>>> record.result, record.termination.value, len(record.moves)
('0', 'move_limit', 6)
"""

from __future__ import annotations

import random
import time
from typing import Callable, Sequence

from engine import COLOUR_NAMES, GameError, Outcome, Termination
from engine.search import Analysis

from ..plan.setup import Opening, Setup
from ..plan.time_control import INCREMENT_COMMAND, TimeControl, seconds_text
from ..records.analysis import COMMAND as ANALYSE, split_answer
from ..records.results import GameRecord
from ..text import one_line
from .adjudication import Adjudicator
from .channel import (
    Channel,
    ChannelClosed,
    ChannelError,
    ChannelTimeout,
    Disconnected,
    GtpFailure,
    IllFormedAnswer,
    StartTimeout,
)
from .clock import Clock
from .human import TakeBack

# Seconds an engine may take to answer a command other than genmove before the rest is charged to
# its clock: a round trip through a pipe and a busy scheduler, with room to spare, but too short
# to think in.
ANSWER_ALLOWANCE = 0.05
_TRANSPORT_TERMINATION = ((ChannelTimeout, Termination.TIMEOUT),
                          (Disconnected, Termination.DISCONNECT),
                          (ChannelClosed, Termination.CRASH),
                          (IllFormedAnswer, Termination.PROTOCOL_ERROR))

# Called after every move, opening moves included: (ply, 1-based; move text; both clocks' time
# left). The runner turns it into RunObserver.move_played.
MoveObserver = Callable[[int, str, "tuple[float, float]"], None]
# Called after a move the engine analysed (``genmove_analyze``): (ply, 1-based; the analysis).
AnalysisObserver = Callable[[int, Analysis], None]


class Forfeit(Exception):
    """An engine broke the rules or the protocol; it loses the game."""

    def __init__(self, colour: int, termination: Termination, reason: str) -> None:
        super().__init__(reason)
        self.colour = colour
        self.termination = termination
        self.reason = reason


def _transport_termination(error: ChannelError) -> Termination:
    for kind, termination in _TRANSPORT_TERMINATION:
        if isinstance(error, kind):
            return termination
    return Termination.PROTOCOL_ERROR


class _Referee:
    """The state of one game in progress: the position, the clocks, the moves."""

    def __init__(self, setup: Setup, engines: Sequence[Channel], rng: random.Random,
                 opening: Opening | None, observer: MoveObserver | None,
                 controls: Sequence[TimeControl],
                 analysis_observer: AnalysisObserver | None = None) -> None:
        self.setup = setup
        self.engines = engines
        self.opening = opening
        self.observer = observer
        self.analysis_observer = analysis_observer
        self.analysing = [False, False]  # whether each side announced genmove_analyze
        self.analyses: list[Analysis | None] = []  # each ply's, None where there is none
        self.adjudicator = (Adjudicator(setup.adjudication, setup.max_moves)
                            if setup.adjudication.active else None)
        self.start_options, self.game = setup.start(opening, rng)
        self.position = self.game.initial_position()
        self.clocks = [Clock(control, setup.time_margin) for control in controls]
        self.used = [0.0, 0.0]
        self.timed_moves = [0, 0]
        self.moves: list[str] = []
        self.clock_after_move: list[float | None] = []
        self.answer_seconds: list[float | None] = [None, None]  # each side's last answer took
        self.move_seconds: list[float | None] = []  # charged for each move; None: opening's
        self._elapsed = 0.0  # charged for the move being asked

    def ask(self, colour: int, command: str, deadline: float | None = None) -> str:
        """Send ``command`` to ``colour``'s engine; a transport failure forfeits the game.

        Without a ``deadline`` (any command but ``genmove``, whose time the caller books), the
        answer must come within the command timeout and before the engine's clock runs out,
        and the time it took beyond :data:`ANSWER_ALLOWANCE` is charged to that clock."""
        if deadline is not None:
            return self._send(colour, command, deadline)
        clock = self.clocks[colour]
        name, start = COLOUR_NAMES[colour], time.monotonic()
        limit = ANSWER_ALLOWANCE + clock.budget()
        late = f"{name} ran out of time answering {command.split()[0]}"
        try:
            answer = self._send(colour, command,
                                start + min(self.setup.command_timeout, limit),
                                late if limit < self.setup.command_timeout else None)
        finally:
            extra = max(0.0, time.monotonic() - start - ANSWER_ALLOWANCE
                        - self.engines[colour].lag_allowance())
            self.used[colour] += extra
            in_time = clock.charge_between(extra) if extra else True
        if not in_time:
            raise Forfeit(colour, Termination.TIMEOUT, late)
        return answer

    def _send(self, colour: int, command: str, deadline: float, late: str | None = None) -> str:
        """``command``'s answer from ``colour``'s engine by ``deadline``; a transport failure
        forfeits the game (a timeout with the reason ``late``, when given)."""
        try:
            return self.engines[colour].send(command, deadline)
        except ChannelError as error:
            # An engine that never came up did not run out of time: its own reason stands.
            clock_ran_out = (isinstance(error, ChannelTimeout)
                             and not isinstance(error, StartTimeout))
            if late is not None and clock_ran_out:
                raise Forfeit(colour, Termination.TIMEOUT, late) from None
            raise Forfeit(colour, _transport_termination(error),
                          f"{COLOUR_NAMES[colour]}: {one_line(str(error))} "
                          f"(answering {command.split()[0]})") from None

    def ask_or_refuse(self, colour: int, command: str, deadline: float | None = None) -> None:
        """Send a command the engine must accept: a ``?`` answer forfeits the game."""
        try:
            self.ask(colour, command, deadline)
        except GtpFailure as failure:
            raise Forfeit(colour, Termination.PROTOCOL_ERROR,
                          f"{COLOUR_NAMES[colour]} refused {command!r}: {one_line(str(failure))}"
                          ) from None

    def tell(self, colour: int, command: str) -> None:
        """Send a command the engine may refuse (clock information): ``?`` is ignored."""
        try:
            self.ask(colour, command)
        except GtpFailure:
            pass

    def set_up(self, colour: int) -> None:
        """Select the game, its options and size, the initial position and the clock."""
        settings = {key: self.game.settings[key]
                    for key in [*map(str.lower, self.setup.options), *self.start_options]}
        words = ["set_game", self.game.name, *(f"{key}={value}" for key, value in settings.items())]
        self.ask_or_refuse(colour, " ".join(words))
        if self.setup.size is not None:
            cols, rows = self.setup.size
            size = f"{cols}" if cols == rows else f"{cols} {rows}"
            self.ask_or_refuse(colour, f"boardsize {size}")
        self.ask_or_refuse(colour, "clear_board")
        control = self.clocks[colour].control
        self.tell(colour, control.settings())
        increment = control.increment_settings()
        if increment is not None and self.announces(colour, INCREMENT_COMMAND):
            self.tell(colour, increment)
        self.analysing[colour] = self.announces(colour, ANALYSE)

    def announces(self, colour: int, command: str) -> bool:
        """Whether ``colour``'s engine answers ``known_command`` with ``true`` for
        ``command`` (a ``?`` answer is a no)."""
        try:
            return self.ask(colour, f"known_command {command}").strip().lower() == "true"
        except GtpFailure:
            return False

    def play_opening(self) -> None:
        """Play the opening's moves on the board and send each to both engines."""
        for text in self.opening.moves if self.opening else ():
            colour = self.position.to_move
            try:
                move = self.position.parse_move(text)
            except GameError as error:  # the book was checked for this setup: a referee bug
                raise ValueError(f"opening {self.opening.source}: {text}: {error}") from None
            self.position.play(move)
            self.moves.append(text)
            self.analyses.append(None)
            self.clock_after_move.append(None)
            self.move_seconds.append(None)
            for engine in (self.game.first_player, 1 - self.game.first_player):
                self.ask_or_refuse(engine, f"play {COLOUR_NAMES[colour]} {text}")
            self.notify()
            if self.position.outcome is not None:
                return

    def next_move(self) -> Outcome | None:
        """Ask the side to move for its move, check it, play it, pass it on; or, when the
        exact rule's solver proved the position while the engine thought, its verdict (the
        answer is then not read)."""
        position = self.position
        colour = position.to_move
        name = COLOUR_NAMES[colour]
        clock = self.clocks[colour]
        seconds, stones = clock.time_left()
        self.tell(colour, f"time_left {name} {seconds_text(seconds)} {stones}")
        command = ANALYSE if self.analysing[colour] else "genmove"
        proof = (self.adjudicator.start_proof(self.answer_seconds[colour])
                 if self.adjudicator is not None else None)
        start = time.monotonic()
        taking_back = answered = False
        try:
            answer = self.ask(colour, f"{command} {name}", start + clock.budget())
            answered = True
        except GtpFailure as failure:
            raise Forfeit(colour, Termination.PROTOCOL_ERROR, f"{name} answered {command} "
                          f"with a failure: {one_line(str(failure))}") from None
        except TakeBack:
            taking_back = True
        finally:
            elapsed = max(0.0, time.monotonic() - start - self.engines[colour].lag_allowance())
            self.used[colour] += elapsed
            self._elapsed = self.answer_seconds[colour] = elapsed
            in_time = clock.charge(elapsed)
            verdict = proof.finish(answered) if proof is not None else None
        if verdict is not None:
            return verdict
        if not in_time:
            raise Forfeit(colour, Termination.TIMEOUT, f"{name} ran out of time")
        if taking_back:
            self.take_back()
            return None
        analysis = None
        if self.analysing[colour]:
            answer, analysis = split_answer(answer)
        if answer.lower() == "resign":
            raise Forfeit(colour, Termination.RESIGN, f"{name} resigned")
        try:
            move = position.parse_move(answer)
        except GameError as error:
            raise Forfeit(colour, Termination.ILLEGAL_MOVE, f"{name} played "
                          f"{one_line(answer, 40)!r}: {one_line(str(error))}") from None
        text = position.move_text(move)
        position.play(move)
        self.moves.append(text)
        self.analyses.append(analysis)
        self.timed_moves[colour] += 1
        self.clock_after_move.append(clock.time_left()[0])
        self.move_seconds.append(round(self._elapsed, 3))
        if position.outcome is None:
            self.ask_or_refuse(1 - colour, f"play {name} {text}")
        self.notify()
        if analysis is not None and self.analysis_observer is not None:
            self.analysis_observer(len(self.moves), analysis)
        return None

    def adjudicate(self) -> Outcome | None:
        """The adjudication rules' verdict in the position now, if any rule is on and ends
        the game here (:mod:`.adjudication`)."""
        if self.adjudicator is None:
            return None
        scores = [None if analysis is None else analysis.mover_score()
                  for analysis in self.analyses]
        return self.adjudicator.judge(self.position, len(self.moves), scores)

    def take_back(self) -> None:
        """Take back the last two moves (a person's and the reply to it, at the person's
        request: :class:`~.human.TakeBack`) on the board and in both engines; an engine that
        cannot ``undo`` is set up again and sent the moves left. The time spent stays spent;
        an opening's moves are never taken back."""
        if len(self.moves) - (len(self.opening.moves) if self.opening else 0) < 2:
            return
        for _ in range(2):
            self.position.undo()
            self.moves.pop()
            self.analyses.pop()
            self.clock_after_move.pop()
            self.move_seconds.pop()
            self.timed_moves[self.position.to_move] -= 1
        for colour in (0, 1):
            try:
                for _ in range(2):
                    self.ask(colour, "undo")
            except GtpFailure:
                self.ask_or_refuse(colour, "clear_board")
                for ply, text in enumerate(self.moves):
                    mover = COLOUR_NAMES[(self.game.first_player + ply) % 2]
                    self.ask_or_refuse(colour, f"play {mover} {text}")

    def notify(self) -> None:
        """Tell the observer (if any) of the move just played, with both clocks after it."""
        if self.observer is not None:
            clocks = (self.clocks[0].time_left()[0], self.clocks[1].time_left()[0])
            self.observer(len(self.moves), self.moves[-1], clocks)

    def run(self) -> GameRecord:
        """Play the game to its end and say how it ended; the adjudicator's solver ends with
        it."""
        try:
            return self.play()
        finally:
            if self.adjudicator is not None:
                self.adjudicator.close()

    def play(self) -> GameRecord:
        """Play the game to its end and say how it ended."""
        try:
            for colour in (self.game.first_player, 1 - self.game.first_player):
                self.set_up(colour)
            self.play_opening()
            while self.position.outcome is None and len(self.moves) < self.setup.max_moves:
                verdict = self.adjudicate() or self.next_move()
                if verdict is not None:
                    return self.record(verdict)
        except Forfeit as forfeit:
            return self.record(Outcome(1 - forfeit.colour, forfeit.termination, forfeit.reason),
                               forfeit.colour)
        outcome = self.position.outcome
        if outcome is None:
            return self.record(Outcome(None, Termination.MOVE_LIMIT,
                                       f"no result after {self.setup.max_moves} plies"))
        return self.record(Outcome(outcome.winner, outcome.termination, one_line(outcome.reason)))

    def record(self, outcome: Outcome, at_fault: int | None = None) -> GameRecord:
        """The finished game's record: the moves, clocks and engines' stderr tails with this
        outcome and the colour at fault (``None`` if neither)."""
        stderr = [engine.take_stderr() for engine in self.engines]
        opening_plies = len(self.opening.moves) if self.opening else 0
        return GameRecord(self.game, self.start_options, self.moves, self.clock_after_move,
                          [round(seconds, 3) for seconds in self.used], outcome, at_fault,
                          stderr, min(opening_plies, len(self.moves)), list(self.timed_moves),
                          [clock.lowest for clock in self.clocks], list(self.analyses),
                          list(self.move_seconds))


def play_game(setup: Setup, engines: Sequence[Channel], rng: random.Random,
              opening: Opening | None = None, observer: MoveObserver | None = None,
              controls: Sequence[TimeControl] = (TimeControl(), TimeControl()),
              analysis_observer: AnalysisObserver | None = None) -> GameRecord:
    """Referee one game: ``engines[0]`` plays black, ``engines[1]`` white; ``rng`` draws the
    random start, if the game has one and the opening does not fix it. ``controls`` are the
    time controls of black and white (by default a minute each, sudden death);
    ``analysis_observer`` hears each analysis an engine gave with its move. The channels are
    left open for the caller."""
    return _Referee(setup, engines, rng, opening, observer, controls, analysis_observer).run()
