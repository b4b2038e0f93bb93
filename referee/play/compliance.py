"""The compliance check an engine author runs before an event (``olympiad-referee check``).

It starts the engine as the referee does (a pseudo-terminal, standard error kept apart) and
goes through SPEC section 1 command by command: the framing (answers ``=``/``?``, ids echoed,
the empty line that ends an answer, comment and blank lines ignored, nothing written unasked),
every command of SPEC 1.2 (and whether the engine offers the optional ``genmove_analyze``, and
KataGo's ``kata-time_settings``, which must then accept an increment),
and then, for each game the engine lists (or those named with
``--game``), the position commands against the referee's own rules: ``legal_moves`` as the
rules give them, legal and illegal ``play``, ``undo``, ``genmove`` within ``time_left``, and a
short game played to its end with ``final_score``; where the engine offers ``genmove_analyze``,
one analysed move, whose lines must parse and whose principal variation must be legal.

Each check gives one :class:`CheckResult` (the command prints one line per check and exits with
status 0 only when all pass). "The engine starts" passes only when the engine answers its first
command. A check that breaks the connection (the engine exits, gives no answer in time, does
not end an answer with an empty line, or writes what is not a GTP answer) is a fatal failure:
the engine can no longer be talked to, and starting it again would only repeat the failure
for every check after it. The check stops there with one line saying what happened, and one
line naming the checks it skipped.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from engine import COLOUR_NAMES, Game, GameError, find_game, game_names

from ..plan.time_control import INCREMENT_COMMAND, TimeControl
from ..records.analysis import COMMAND as ANALYSE
from ..records.analysis import MalformedAnalysis, read_lines
from ..text import one_line
from .channel import ChannelClosed, ChannelError, ChannelTimeout, EngineChannel, parse_answer

# Every command SPEC 1.2 asks an engine to answer.
SPEC_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
                 "list_games", "set_game", "boardsize", "clear_board", "komi", "play", "genmove",
                 "undo", "legal_moves", "side_to_move", "final_score", "showboard",
                 "time_settings", "time_left")
NO_SUCH_COMMAND = "no_such_command_xyzzy"
# Seconds an engine may take for a command other than genmove (default of --command-timeout),
# and over its genmove budget.
ANSWER_SECONDS = 10.0
GENMOVE_SECONDS = 2.0
GENMOVE_GRACE = 0.5
# How many moves the engine chooses itself in the game played to its end; random moves finish it.
GENMOVE_PLIES = 6
MAX_PLIES = 5000


class CheckFailed(Exception):
    """The engine answered, but not as SPEC asks; the message says what was expected."""


class EngineBroken(Exception):
    """A fatal failure: the engine can no longer be talked to; the message says what happened
    (it exited, gave no answer in time, did not end an answer, wrote what is not an answer)."""


def broken(error: ChannelError, command: str, seconds: float) -> EngineBroken:
    """The channel's ``error`` on ``command`` as one line in an engine author's words."""
    asked = repr(one_line(command, 40))
    if isinstance(error, ChannelTimeout):
        if error.partial:
            return EngineBroken(f"the answer to {asked} was not ended by an empty line: "
                                f"{error.partial!r}, then nothing more in {seconds:g} s")
        return EngineBroken(f"no answer to {asked} in {seconds:g} s")
    if isinstance(error, ChannelClosed):
        return EngineBroken(f"{one_line(str(error), 100)} when asked {asked}")
    return EngineBroken(f"{one_line(str(error), 100)} (asked {asked})")


@dataclass(frozen=True)
class CheckResult:
    """One line of the report: what was checked, whether it passed, and why not; ``fatal``
    when the failure ended the check of this engine."""

    name: str
    passed: bool
    detail: str = ""
    fatal: bool = False

    def __str__(self) -> str:
        verdict = "pass" if self.passed else "FAIL"
        return f"{verdict}  {self.name}" + (f": {self.detail}" if self.detail else "")


class _Engine:
    """The engine under test; any channel error is raised as :class:`EngineBroken`."""

    def __init__(self, command: str, answer_seconds: float = ANSWER_SECONDS) -> None:
        self.command = command
        self.answer_seconds = answer_seconds
        self.channel: EngineChannel | None = None

    def start(self) -> None:
        try:
            self.channel = EngineChannel(self.command)
        except ChannelError as error:
            raise EngineBroken(one_line(str(error), 160)) from None

    def raw(self, command: str, seconds: float | None = None) -> tuple[bool, str, str]:
        """Send ``command``; return (success, text, the answer's first word as written).
        ``seconds`` bounds the wait (default: the command timeout)."""
        seconds = self.answer_seconds if seconds is None else seconds
        try:
            answer = self.channel.send_raw(command, time.monotonic() + seconds)
            success, text = parse_answer(answer)
        except ChannelError as error:
            raise broken(error, command, seconds) from None
        return success, text, answer.split(b" ", 1)[0].split(b"\n", 1)[0].decode("utf-8",
                                                                                  "replace")

    def ok(self, command: str, seconds: float | None = None) -> str:
        """The text of a success answer; a failure answer fails the check."""
        success, text, _ = self.raw(command, seconds)
        if not success:
            raise CheckFailed(f"{command!r} answered '? {one_line(text, 80)}', expected success")
        return text

    def refused(self, command: str, words: Sequence[str]) -> None:
        """``command`` must fail with a message starting with one of ``words``."""
        success, text, _ = self.raw(command)
        expected = " or ".join(f"'? {word}'" for word in words)
        if success:
            raise CheckFailed(f"{command!r} answered '= {one_line(text, 60)}', expected {expected}")
        if not text.lower().startswith(tuple(words)):
            raise CheckFailed(f"{command!r} answered '? {one_line(text, 60)}', expected {expected}")

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()
        self.channel = None


def _named_only() -> None:
    """The body of a step that is only ever named among the skipped checks."""


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


# A check to run: its name and its body (which raises CheckFailed or EngineBroken).
Step = tuple[str, Callable[[], 'str | None']]
EACH_LISTED_GAME = "each listed game's checks"


class Checker:
    """Runs the checks against one engine command line; :meth:`run` yields the results.

    After a fatal failure the checks still to come are not run: :attr:`skipped` names them,
    each with the reason, as (check, reason) pairs; so are the other checks of a game that the
    engine refuses to select.
    """

    def __init__(self, command: str, games: Sequence[str] = (), seed: int = 1,
                 answer_seconds: float = ANSWER_SECONDS) -> None:
        self.engine = _Engine(command, answer_seconds)
        self.games = list(games)
        self.rng = random.Random(seed)
        self.listed: list[str] = []
        self.fatal: CheckResult | None = None
        self.skipped: list[tuple[str, str]] = []
        self._last: CheckResult | None = None
        self.analysing = False

    def run(self) -> Iterator[CheckResult]:
        try:
            for name, body in self._steps():
                if self.fatal is not None:
                    self.skipped.append((name, f"{self.fatal.name} failed fatally"))
                    continue
                self._last = self._check(name, body)
                yield self._last
                if self._last.fatal:
                    self.fatal = self._last
        finally:
            self.engine.close()

    def _steps(self) -> Iterator[Step]:
        """Every check in order; the games' checks are planned once ``list_games`` answered
        (or, when a fatal failure came first, named as :data:`EACH_LISTED_GAME`)."""
        yield "the engine starts", self._start
        yield from self._general()
        yield "list_games", self._list_games
        if self.fatal is not None and not self.games:
            yield EACH_LISTED_GAME, _named_only
        for name in self._games_to_check():
            yield from self._game(name)
        yield "quit", self._quit

    def _start(self) -> None:
        """The engine is running and answers a first command, well-formed, in time."""
        self.engine.start()
        self.engine.raw("protocol_version")

    def _check(self, name: str, body: Callable[[], str | None]) -> CheckResult:
        """Run one check; ``body`` fails it by raising, and may return a detail to show."""
        try:
            detail = body()
        except CheckFailed as failure:
            return CheckResult(name, False, str(failure))
        except EngineBroken as error:
            return CheckResult(name, False, str(error), fatal=True)
        return CheckResult(name, True, detail or "")

    # --- the protocol itself ---------------------------------------------------------------

    def _general(self) -> list[Step]:
        engine = self.engine

        def protocol_version() -> None:
            text = engine.ok("protocol_version")
            _expect(text == "2", f"answered {text!r}, expected '2'")

        def names() -> None:
            for command in ("name", "version"):
                text = engine.ok(command)
                _expect(bool(text) and "\n" not in text,
                        f"{command} answered {text!r}, expected one non-empty line")

        def ids() -> None:
            _, _, head = engine.raw("17 protocol_version")
            _expect(head == "=17", f"'17 protocol_version' answered {head!r}..., expected '=17 2'")
            _, _, head = engine.raw(f"4 {NO_SUCH_COMMAND}")
            _expect(head == "?4", f"'4 {NO_SUCH_COMMAND}' answered {head!r}..., expected '?4 ...'")

        def list_commands() -> None:
            listed = set(engine.ok("list_commands").split())
            missing = [name for name in SPEC_COMMANDS if name not in listed]
            _expect(not missing, f"does not list {', '.join(missing)}")

        def known_command() -> None:
            unknown = [name for name in SPEC_COMMANDS
                       if engine.ok(f"known_command {name}") != "true"]
            _expect(not unknown, f"known_command is not 'true' for {', '.join(unknown)}")
            text = engine.ok(f"known_command {NO_SUCH_COMMAND}")
            _expect(text == "false", f"known_command {NO_SUCH_COMMAND} answered {text!r}, "
                                     "expected 'false'")

        def unknown_command() -> None:
            engine.refused(NO_SUCH_COMMAND, ["unknown command"])

        def comments() -> None:
            # One write: a comment line and a blank line (no answers), then a command whose
            # comment, tab and carriage return must be ignored: exactly one answer, '= 2'.
            text = engine.ok("# a comment line\n\n\tprotocol_version  # trailing comment\r")
            _expect(text == "2", f"answered {text!r}, expected '2' only")
            engine.ok("protocol_version")  # anything written for the ignored lines shows here

        def komi() -> None:
            engine.ok("komi 0")

        def offered(command: str) -> bool:
            """Whether the engine offers the optional ``command``: ``known_command`` must say
            ``true`` or ``false``."""
            text = engine.ok(f"known_command {command}")
            _expect(text in ("true", "false"), f"known_command {command} answered {text!r}, "
                                               "expected 'true' or 'false'")
            return text == "true"

        def analysis_offered() -> str:
            self.analysing = offered(ANALYSE)
            return ("offered: the referee will ask for it" if self.analysing else
                    "not offered (optional): the referee will send plain genmove")

        def increment_offered() -> str:
            if not offered(INCREMENT_COMMAND):
                return "not offered (optional): the engine learns an increment from time_left"
            engine.ok(TimeControl(30, 0.5).increment_settings())
            return "offered and accepted: the referee will announce increments with it"

        return [("protocol_version", protocol_version), ("name and version", names),
                ("ids echoed", ids), ("list_commands", list_commands),
                ("known_command", known_command), ("unknown command", unknown_command),
                ("comments, blank lines, tabs, CR", comments), ("komi", komi),
                (ANALYSE, analysis_offered), (INCREMENT_COMMAND, increment_offered)]

    def _list_games(self) -> None:
        """``list_games`` answers; without ``--game``, it must name a game the rules know."""
        self.listed = self.engine.ok("list_games").split()
        _expect(bool(self.games) or bool(self._games_to_check()),
                f"list_games answered {one_line(' '.join(self.listed), 60)!r}, expected one or "
                f"more of {', '.join(game_names())}")

    def _games_to_check(self) -> list[str]:
        if self.games:
            return [find_game(name).name for name in self.games]
        known = set(game_names())
        return [name for name in self.listed if name.lower() in known]

    # --- one game --------------------------------------------------------------------------

    def _game(self, name: str) -> Iterator[Step]:
        """The checks of one game; after one fails, the next starts by selecting the game
        again, and when the game cannot be selected at all the others are skipped."""
        game = find_game(name)()
        engine = self.engine

        def select() -> None:
            engine.ok(f"set_game {name}")

        def boardsize() -> None:
            if game.size_limits is None:
                engine.refused("boardsize 7", ["unacceptable size"])
                return
            cols, rows = game.size
            engine.ok(f"boardsize {cols} {rows}")
            engine.refused("boardsize 99 99", ["unacceptable size"])
            engine.ok(f"set_game {name}")

        def initial_position() -> None:
            engine.ok("clear_board")
            self._compare(game.initial_position())

        def final_score_early() -> None:
            engine.refused("final_score", ["cannot score"])

        def illegal_play() -> None:
            position = game.initial_position()
            move = self.rng.choice(position.legal_move_texts())
            other = COLOUR_NAMES[1 - position.to_move]
            engine.refused(f"play {other} {move}", ["illegal move"])
            engine.refused(f"play {COLOUR_NAMES[position.to_move]} @@", ["illegal move",
                                                                       "syntax error"])
            self._compare(position)  # a failed command changes nothing

        def play_and_undo() -> None:
            position = game.initial_position()
            move = self.rng.choice(position.legal_move_texts())
            engine.ok(f"play {COLOUR_NAMES[position.to_move]} {move}")
            position.play(position.parse_move(move))
            self._compare(position)
            engine.ok("undo")
            self._compare(game.initial_position())
            engine.refused("undo", ["cannot undo"])

        def showboard() -> None:
            engine.ok("showboard")

        def genmove() -> None:
            position = game.initial_position()
            colour = COLOUR_NAMES[position.to_move]
            engine.ok(f"time_settings {GENMOVE_SECONDS * 30:g} 0 0")
            engine.ok(f"time_left {colour} {GENMOVE_SECONDS:g} 0")
            started = time.monotonic()
            move = engine.ok(f"genmove {colour}", GENMOVE_SECONDS + GENMOVE_GRACE + 5)
            spent = time.monotonic() - started
            _expect(spent <= GENMOVE_SECONDS + GENMOVE_GRACE,
                    f"genmove took {spent:.2f} s with {GENMOVE_SECONDS:g} s left")
            self._legal(position, move)
            engine.ok("undo")

        def analysed_move() -> str:
            position = game.initial_position()
            colour = COLOUR_NAMES[position.to_move]
            engine.ok(f"time_left {colour} {GENMOVE_SECONDS:g} 0")
            move, *lines = engine.ok(f"{ANALYSE} {colour}",
                                     GENMOVE_SECONDS + GENMOVE_GRACE + 5).split("\n")
            start = position.copy()
            self._legal(position, move.strip())
            engine.ok("undo")
            try:
                analysis = read_lines(lines)
            except MalformedAnalysis as error:
                raise CheckFailed(f"the analysis lines do not parse ({error}): the referee "
                                  "would record no analysis") from None
            if analysis is None:
                return "the move alone, no analysis lines"
            _check_variation(start, analysis.pv)
            kinds = [line.split()[0] for line in analysis.lines()]
            return "lines parse: " + ", ".join(kinds)

        def to_the_end() -> None:
            engine.ok("clear_board")
            position = self._play_to_end(game)
            self._compare(position)
            result = engine.ok("final_score")
            _expect(result.upper() == position.outcome.result,
                    f"final_score answered {result!r}, the rules say {position.outcome.result!r}")
            for colour in COLOUR_NAMES:
                success, _, _ = engine.raw(f"genmove {colour}")
                _expect(not success, f"genmove {colour} after the end was answered with success")

        checks = [("set_game", select), ("boardsize", boardsize),
                  ("clear_board and legal_moves", initial_position),
                  ("final_score before the end", final_score_early),
                  ("illegal play refused", illegal_play), ("play and undo", play_and_undo),
                  ("showboard", showboard), ("genmove within time_left", genmove),
                  *([(f"{ANALYSE} lines", analysed_move)] if self.analysing else []),
                  ("a game to its end", to_the_end)]
        yield f"{name}: set_game", select
        if self.fatal is None and not self._last.passed:
            self.skipped += [(f"{name}: {label}", f"{name} cannot be selected")
                             for label, _ in checks[1:]]
            return
        for label, body in checks[1:]:
            yield f"{name}: {label}", self._after_failure(select, body)

    def _after_failure(self, select: Callable[[], None],
                       body: Callable[[], str | None]) -> Callable[[], str | None]:
        """``body``, run after ``select`` when the check before it failed: a failed check
        leaves the engine in an unknown position."""
        def step() -> str | None:
            if not self._last.passed:
                select()
            return body()
        return step

    def _compare(self, position) -> None:
        """The engine's side to move and legal moves must be the rules' for ``position``."""
        outcome = position.outcome
        side = self.engine.ok("side_to_move").lower()
        expected_side = "none" if outcome is not None else COLOUR_NAMES[position.to_move]
        _expect(side == expected_side, f"side_to_move answered {side!r}, expected "
                                       f"{expected_side!r}")
        moves = self.engine.ok("legal_moves").split()
        expected = position.legal_move_texts()
        if moves != expected:
            extra = sorted(set(moves) - set(expected))[:3]
            missing = sorted(set(expected) - set(moves))[:3]
            order = "" if extra or missing else " (same moves, not in sorted order)"
            raise CheckFailed(f"legal_moves differ from the rules{order}: "
                              f"{len(moves)} given, {len(expected)} expected"
                              + (f"; not legal: {' '.join(extra)}" if extra else "")
                              + (f"; missing: {' '.join(missing)}" if missing else ""))

    def _legal(self, position, text: str) -> None:
        """Play the engine's move ``text`` on ``position``; an illegal one fails the check."""
        try:
            position.play(position.parse_move(text))
        except GameError as error:
            raise CheckFailed(f"genmove answered {text!r}: {error}") from None

    def _play_to_end(self, game: Game):
        """A game played to its end: the engine chooses the first moves, random moves the rest."""
        position = game.initial_position()
        engine = self.engine
        while position.outcome is None and len(position.history) < MAX_PLIES:
            colour = COLOUR_NAMES[position.to_move]
            if len(position.history) < GENMOVE_PLIES:
                engine.ok(f"time_left {colour} {GENMOVE_SECONDS:g} 0")
                move = engine.ok(f"genmove {colour}", GENMOVE_SECONDS + GENMOVE_GRACE + 5)
                if move.lower() == "resign":
                    raise CheckFailed("the engine resigned in the opening of a random game")
                self._legal(position, move)
            else:
                move = self.rng.choice(position.legal_move_texts())
                engine.ok(f"play {colour} {move}")
                position.play(position.parse_move(move))
        _expect(position.outcome is not None, f"the game did not end within {MAX_PLIES} plies")
        return position

    def _quit(self) -> None:
        channel = self.engine.channel
        self.engine.ok("quit")
        deadline = time.monotonic() + 2
        while channel.alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        _expect(not channel.alive(), "the engine answered quit but did not exit")


def skipped_lines(skipped: Sequence[tuple[str, str]]) -> list[str]:
    """One line per reason, naming the checks skipped for it (a game's checks in one word).

    >>> skipped_lines([("quit", "after X"), ("loa: set_game", "after X"), ("loa: undo", "after X")])
    ['skip  quit; loa: 2 checks (after X)']
    """
    lines = []
    for reason in dict.fromkeys(why for _, why in skipped):
        words: list[str] = []
        counts: dict[str, int] = {}
        for name, why in skipped:
            if why != reason:
                continue
            game, colon, _ = name.partition(": ")
            if colon:
                if game not in counts:
                    words.append(game)
                counts[game] = counts.get(game, 0) + 1
            else:
                words.append(name)
        named = "; ".join(f"{word}: {counts[word]} checks" if word in counts else word
                          for word in words)
        lines.append(f"skip  {named} ({reason})")
    return lines


def _check_variation(position, pv: Sequence[str]) -> None:
    """A principal variation must be legal moves from ``position``, the move played first."""
    for ply, text in enumerate(pv, 1):
        try:
            position.play(position.parse_move(text))
        except GameError as error:
            raise CheckFailed(f"pv move {ply} ({one_line(text, 20)!r}) is not legal: "
                              f"{one_line(str(error), 80)}") from None
        if position.outcome is not None and ply < len(pv):
            raise CheckFailed(f"pv goes on after the game ends at its move {ply}")
