"""``olympiad-referee check``: the compliance check an engine author runs before an event.

It starts the engine as the referee does (a pseudo-terminal, standard error kept apart) and
goes through SPEC section 1 command by command: the framing (answers ``=``/``?``, ids echoed,
the empty line that ends an answer, comment and blank lines ignored, nothing written unasked),
every command of SPEC 1.2 (and whether the engine offers the optional ``genmove_analyze``),
and then, for each game the engine lists (or those named with
``--game``), the position commands against the referee's own rules: ``legal_moves`` as the
rules give them, legal and illegal ``play``, ``undo``, ``genmove`` within ``time_left``, and a
short game played to its end with ``final_score``; where the engine offers ``genmove_analyze``,
one analysed move, whose lines must parse and whose principal variation must be legal.

Each check gives one :class:`CheckResult`; the command prints one line per check and exits with
status 0 only when all pass. A check that breaks the connection (a crash, a hang, garbage) fails
with the channel's reason, and the engine is started afresh for the next check.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import click

from engine import COLOUR_NAMES, Game, GameError, find_game, game_names

from ..play.channel import ChannelError, EngineChannel, parse_answer
from ..records.analysis import COMMAND as ANALYSE, MalformedAnalysis, read_lines
from ..text import one_line
from .arguments import WHOLE

# Every command SPEC 1.2 asks an engine to answer.
SPEC_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
                 "list_games", "set_game", "boardsize", "clear_board", "komi", "play", "genmove",
                 "undo", "legal_moves", "side_to_move", "final_score", "showboard",
                 "time_settings", "time_left")
NO_SUCH_COMMAND = "no_such_command_xyzzy"
# Seconds an engine may take for a command other than genmove, and over its genmove budget.
ANSWER_SECONDS = 10.0
GENMOVE_SECONDS = 2.0
GENMOVE_GRACE = 0.5
# How many moves the engine chooses itself in the game played to its end; random moves finish it.
GENMOVE_PLIES = 6
MAX_PLIES = 5000


class CheckFailed(Exception):
    """The engine answered, but not as SPEC asks; the message says what was expected."""


@dataclass(frozen=True)
class CheckResult:
    """One line of the report: what was checked, whether it passed, and why not."""

    name: str
    passed: bool
    detail: str = ""

    def __str__(self) -> str:
        verdict = "pass" if self.passed else "FAIL"
        return f"{verdict}  {self.name}" + (f": {self.detail}" if self.detail else "")


class _Engine:
    """The engine under test, restarted on demand after a broken connection."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.channel: EngineChannel | None = None

    def raw(self, command: str, seconds: float = ANSWER_SECONDS) -> tuple[bool, str, str]:
        """Send ``command``; return (success, text, the answer's first word as written)."""
        if self.channel is None:
            self.channel = EngineChannel(self.command)
        answer = self.channel.send_raw(command, time.monotonic() + seconds)
        success, text = parse_answer(answer)
        return success, text, answer.split(b" ", 1)[0].split(b"\n", 1)[0].decode("utf-8",
                                                                                  "replace")

    def ok(self, command: str, seconds: float = ANSWER_SECONDS) -> str:
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

    def restart(self) -> None:
        if self.channel is not None:
            self.channel.kill()
        self.channel = None

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()
        self.channel = None


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


class Checker:
    """Runs the checks against one engine command line; :meth:`run` yields the results."""

    def __init__(self, command: str, games: Sequence[str] = (), seed: int = 1) -> None:
        self.engine = _Engine(command)
        self.games = list(games)
        self.rng = random.Random(seed)
        self.analysing = False

    def run(self) -> Iterator[CheckResult]:
        try:
            started = self._check("the engine starts", self._start)
            yield started
            if not started.passed:
                return
            yield from self._general()
            listed = self._listed_games()
            for name in self._games_to_check(listed):
                yield from self._game(name)
            yield self._check("quit", self._quit)
        finally:
            self.engine.close()

    def _start(self) -> None:
        self.engine.channel = EngineChannel(self.engine.command)

    def _check(self, name: str, body: Callable[[], str | None]) -> CheckResult:
        """Run one check; ``body`` fails it by raising, and may return a detail to show."""
        try:
            detail = body()
        except CheckFailed as failure:
            return CheckResult(name, False, str(failure))
        except ChannelError as error:
            self.engine.restart()
            return CheckResult(name, False, f"{type(error).__name__}: {one_line(str(error), 100)}")
        return CheckResult(name, True, detail or "")

    # --- the protocol itself ---------------------------------------------------------------

    def _general(self) -> Iterator[CheckResult]:
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

        def analysis_offered() -> str:
            text = engine.ok(f"known_command {ANALYSE}")
            _expect(text in ("true", "false"), f"known_command {ANALYSE} answered {text!r}, "
                                               "expected 'true' or 'false'")
            self.analysing = text == "true"
            return ("offered: the referee will ask for it" if self.analysing else
                    "not offered (optional): the referee will send plain genmove")

        for name, body in (("protocol_version", protocol_version), ("name and version", names),
                           ("ids echoed", ids), ("list_commands", list_commands),
                           ("known_command", known_command), ("unknown command", unknown_command),
                           ("comments, blank lines, tabs, CR", comments), ("komi", komi),
                           (ANALYSE, analysis_offered)):
            yield self._check(name, body)

    def _listed_games(self) -> list[str]:
        try:
            return self.engine.ok("list_games").split()
        except (CheckFailed, ChannelError):
            self.engine.restart()
            return []

    def _games_to_check(self, listed: list[str]) -> list[str]:
        known = set(game_names())
        if self.games:
            return [find_game(name).name for name in self.games]
        return [name for name in listed if name.lower() in known]

    # --- one game --------------------------------------------------------------------------

    def _game(self, name: str) -> Iterator[CheckResult]:
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
        for index, (label, body) in enumerate(checks):
            result = self._check(f"{name}: {label}", body)
            yield result
            if index == 0 and not result.passed:
                return  # the game cannot be selected: nothing else of it can be checked
            if not result.passed:
                self._reselect(name)

    def _reselect(self, name: str) -> None:
        """After a failed check, put the engine back on ``name``'s initial position."""
        try:
            self.engine.ok(f"set_game {name}")
        except (CheckFailed, ChannelError):
            self.engine.restart()

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
        if self.engine.channel is None:
            self.engine.ok("protocol_version")
        channel = self.engine.channel
        self.engine.ok("quit")
        deadline = time.monotonic() + 2
        while channel.alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        _expect(not channel.alive(), "the engine answered quit but did not exit")


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


@click.command(context_settings={"max_content_width": 100})
@click.option("--engine", "command", required=True, metavar="CMD",
              help="Shell-style command line starting the engine to check.")
@click.option("--game", "games", multiple=True, metavar="NAME",
              help="Check only these games (repeatable); default: every game the engine lists.")
@click.option("--seed", type=WHOLE, default=1, show_default=True,
              help="Seed for the random moves of the checks.")
def check(command: str, games: tuple[str, ...], seed: int) -> int:
    """Check that an engine follows the protocol and the rules; one line per check."""
    for name in games:
        try:
            find_game(name)
        except GameError as error:
            raise click.BadParameter(str(error), param_hint="--game") from None
    failed = total = 0
    for result in Checker(command, games, seed).run():
        total += 1
        failed += not result.passed
        click.echo(str(result))
    click.echo(f"{total} checks, {failed} failed")
    return 1 if failed else 0
