#!/usr/bin/env python3
"""OpenSpiel's MCTS-solver behind the project's protocol: a third-party opponent.

    scripts/opponents/openspiel.sh                      # once: its own venv with open_spiel
    scripts/opponents/build/openspiel-venv/bin/python scripts/opponents/openspiel_gtp.py

The rules, the search and the random rollouts are OpenSpiel's (``pyspiel``, C++): this file
only translates. It answers every command of SPEC 1.2 with SPEC 1.1's framing, like
``mcts_solver``, and plays Clobber, Breakthrough and Lines of Action through ``pyspiel``'s
``clobber``, ``breakthrough`` and ``lines_of_action``.

Notation. OpenSpiel prints a move as two squares (``b10c10``; ``a7b6*`` for a Breakthrough
capture; ``c1xa3`` in LOA). A game here is a table of OpenSpiel's legal moves keyed by our
squares: parsing matches the squares of what was sent against that table, so a move is legal
exactly when OpenSpiel says so, and printing writes our canonical ``from-to``/``fromxto``.
Clobber's and LOA's boards are ours square for square (OpenSpiel's first player, ``o`` in
Clobber and ``x`` in LOA, is our black, on the same squares). Breakthrough is ours upside
down: OpenSpiel's first player is ``b`` on the top ranks, ours is white on the bottom ranks,
so our rank ``r`` is OpenSpiel's ``rows + 1 - r`` and our white is its player 0.

Rules that differ. OpenSpiel's LOA (Winands' MSO rules) lets the mover win when a move connects
both sides, draws at the second occurrence of a board and has no ``pass`` (a side without a
move loses), where SPEC 2.1 draws, waits for the third occurrence and passes. The wrapper plays
by OpenSpiel's rules: when OpenSpiel's game has ended but the referee's has not, it refuses the
next ``play`` or ``genmove`` (``game is over``), and the referee scores that game as the
wrapper's forfeit (``protocol_error``), never as a result it did not play for.

Search: ``pyspiel.MCTSBot`` with ``solve=True`` (the MCTS-solver: proven wins and losses back
up the tree), UCT over random rollouts (``RandomRolloutEvaluator``, one rollout a leaf), a new
tree each move, stopped by its wall-clock limit. The settings of OpenSpiel's own example
(``open_spiel/python/examples/mcts.py``): ``uct_c`` 2, one rollout. Time per move as
``mcts_solver`` plans it from ``time_left``: 8 % of the main time left, never more than half of
it, less a 0.1 s margin; with byo-yomi, 80 % of a stone's share.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from dataclasses import dataclass

import pyspiel

COLOURS = ("black", "white")
SQUARES = re.compile(r"([a-z])(\d+)[-x*]?([a-z])(\d+)\*?")
BOARD_LINE = re.compile(r"\s*(\d+)(\S+)$")


class Failure(Exception):
    """A failure answer (``? message``); the message starts with GTP's words."""


@dataclass(frozen=True)
class Rules:
    """How one of our games sits on an OpenSpiel game."""
    name: str
    openspiel: str
    size: tuple[int, int] | None   # (columns, rows) by default, None for a fixed board
    sizes: tuple[range, range]     # the columns and rows SPEC 2 allows with boardsize
    first: int                     # our colour (0 black, 1 white) that is OpenSpiel's player 0
    flipped: bool                  # our rank r is OpenSpiel's rows + 1 - r
    all_captures: bool             # every move captures (Clobber), whatever OpenSpiel prints
    pieces: dict[str, int]         # OpenSpiel's piece letters -> our colour


GAMES = {
    "clobber": Rules("clobber", "clobber", (10, 10), (range(1, 27), range(1, 27)), 0, False,
                     True, {"o": 0, "x": 1}),
    "breakthrough": Rules("breakthrough", "breakthrough", (8, 8), (range(2, 27), range(5, 27)),
                          1, True, False, {"b": 1, "w": 0}),
    "loa": Rules("loa", "lines_of_action", None, (range(8, 9), range(8, 9)), 0, False, False,
                 {"x": 0, "o": 1}),
}
ALIASES = {"lines_of_action": "loa"}


class Game:
    """One game in progress: OpenSpiel's state with its history, seen through our notation."""

    def __init__(self, rules: Rules, size: tuple[int, int] | None = None):
        self.rules = rules
        self.size = size or rules.size
        parameters = {} if self.size is None else {"columns": self.size[0], "rows": self.size[1]}
        self.game = pyspiel.load_game(rules.openspiel, parameters)
        self.rows = self.size[1] if self.size else 8
        self.clear()

    def clear(self) -> None:
        """Back to the initial position."""
        self.state = self.game.new_initial_state()
        self.history: list[int] = []

    def ours(self, square: str) -> str:
        """Our name of an OpenSpiel square (and back: flipping twice is the identity)."""
        if not self.rules.flipped:
            return square
        return f"{square[0]}{self.rows + 1 - int(square[1:])}"

    def side(self) -> int | None:
        """Our colour to move, or None when OpenSpiel's game is over."""
        if self.state.is_terminal():
            return None
        return self.state.current_player() ^ self.rules.first

    def legal(self) -> dict[tuple[str, str], tuple[int, str]]:
        """Our (from, to) squares -> (OpenSpiel's action, our canonical text) of each legal move."""
        table = {}
        for action in self.state.legal_actions():
            text = self.state.action_to_string(action)
            match = SQUARES.fullmatch(text)
            if match is None:
                raise RuntimeError(f"unexpected OpenSpiel move {text!r}")
            start = self.ours(match[1] + match[2])
            end = self.ours(match[3] + match[4])
            capture = self.rules.all_captures or "x" in text or "*" in text
            table[start, end] = action, f"{start}{'x' if capture else '-'}{end}"
        return table

    def play(self, text: str) -> None:
        """Plays a move given in any accepted spelling; Failure when it is not legal."""
        match = SQUARES.fullmatch(text.lower())
        if match is None or "*" in text:
            raise Failure(f"syntax error: {text} (expected a move like b2-b3 or b2xb3)")
        legal = self.legal()
        key = (match[1] + match[2], match[3] + match[4])
        if key not in legal:
            raise Failure(f"illegal move: {text}")
        self.apply(legal[key][0])

    def apply(self, action: int) -> None:
        """Applies one of OpenSpiel's actions, keeping the history for ``undo``."""
        self.state.apply_action(action)
        self.history.append(action)

    def undo(self) -> None:
        """Takes back the last move by replaying the others (OpenSpiel's own undo is partial)."""
        if not self.history:
            raise Failure("cannot undo")
        moves = self.history[:-1]
        self.clear()
        for action in moves:
            self.apply(action)

    def final_score(self) -> str:
        """``B+``, ``W+`` or ``0`` by OpenSpiel's returns; Failure while the game goes on."""
        if not self.state.is_terminal():
            raise Failure("cannot score: game is not over")
        returns = self.state.returns()
        if returns[0] == returns[1]:
            return "0"
        winner = (0 if returns[0] > returns[1] else 1) ^ self.rules.first
        return "B+" if winner == 0 else "W+"

    def diagram(self) -> str:
        """The board in our orientation (rank 1 at the bottom): ``x`` black, ``o`` white."""
        cells = {}
        for line in str(self.state).splitlines():
            match = BOARD_LINE.fullmatch(line)
            if match is None:
                continue
            rank = int(match[1])
            for file, piece in enumerate(match[2]):
                colour = self.rules.pieces.get(piece)
                square = self.ours(f"{chr(ord('a') + file)}{rank}")
                cells[square] = "." if colour is None else "xo"[colour]
        files = sorted({square[0] for square in cells})
        width = len(str(self.rows))
        lines = [f"{rank:>{width}} " + " ".join(cells[f"{file}{rank}"] for file in files)
                 for rank in range(self.rows, 0, -1)]
        return "\n".join(lines + [" " * (width + 1) + " ".join(files)])


@dataclass
class Clock:
    """What ``time_settings`` and ``time_left`` told us, per colour."""
    main: float = 0.0
    byo_yomi: float = 0.0
    stones: int = 0
    set: bool = False
    left: tuple[float | None, float | None] = (None, None)
    left_stones: tuple[int, int] = (0, 0)


class Engine:
    """The command table and the state it works on (one game at a time)."""

    def __init__(self, options: argparse.Namespace):
        self.options = options
        self.clock = Clock()
        self.game = Game(GAMES["clobber"])
        self.commands = {
            "protocol_version": lambda args: "2",
            "name": lambda args: "openspiel-mcts-solver",
            "version": lambda args: f"pyspiel {getattr(pyspiel, '__version__', '2')}",
            "known_command": self.known_command,
            "list_commands": lambda args: "\n".join(sorted(self.commands)),
            "quit": lambda args: "",
            "list_games": lambda args: "\n".join(GAMES),
            "set_game": self.set_game,
            "boardsize": self.boardsize,
            "clear_board": lambda args: self.game.clear() or "",
            "komi": lambda args: "",
            "play": self.play,
            "genmove": self.genmove,
            "undo": lambda args: self.game.undo() or "",
            "legal_moves": lambda args: " ".join(sorted(
                text for _, text in self.game.legal().values())),
            "side_to_move": lambda args: self.side_name(),
            "final_score": lambda args: self.game.final_score(),
            "showboard": lambda args: "\n" + self.game.diagram(),
            "time_settings": self.time_settings,
            "time_left": self.time_left,
        }

    def answer(self, name: str, args: list[str]) -> str:
        """The answer text of one command; Failure for a failure answer."""
        if name not in self.commands:
            raise Failure(f"unknown command: {name}")
        return self.commands[name](args)

    def known_command(self, args: list[str]) -> str:
        expect(args, 1, "known_command NAME")
        return "true" if args[0] in self.commands else "false"

    def side_name(self) -> str:
        side = self.game.side()
        return "none" if side is None else COLOURS[side]

    def set_game(self, args: list[str]) -> str:
        if not args:
            raise Failure("syntax error: expected a game name and KEY=VALUE options")
        name = ALIASES.get(args[0].lower(), args[0].lower())
        if name not in GAMES:
            raise Failure(f"unknown game: {args[0]} (this engine plays {', '.join(GAMES)})")
        if len(args) > 1:
            raise Failure(f"syntax error: {name} takes no options, got {args[1]}")
        self.game = Game(GAMES[name])
        return ""

    def boardsize(self, args: list[str]) -> str:
        if len(args) not in (1, 2) or not all(arg.isdigit() and len(arg) <= 4 for arg in args):
            raise Failure("syntax error: expected boardsize N or boardsize COLS ROWS")
        size = (int(args[0]), int(args[-1]))
        rules = self.game.rules
        columns, rows = rules.sizes
        if size[0] not in columns or size[1] not in rows:
            raise Failure(f"unacceptable size: {size[0]}x{size[1]} for {rules.name}")
        if rules.size is not None:
            self.game = Game(rules, size)
        return ""

    def colour_to_move(self, args: list[str], usage: str) -> None:
        """Checks that ``args`` name one colour and that it is to move."""
        expect(args, len(usage.split()) - 1, usage)
        who = colour(args[0])
        side = self.game.side()
        if side is not None and who != side:
            raise Failure(f"illegal move: {COLOURS[who]} is not to move")

    def play(self, args: list[str]) -> str:
        self.colour_to_move(args, "play COLOUR MOVE")
        if self.game.side() is None:
            raise Failure("illegal move: the game is over")
        self.game.play(args[1])
        return ""

    def genmove(self, args: list[str]) -> str:
        self.colour_to_move(args, "genmove COLOUR")
        if self.game.side() is None:
            raise Failure("game is over")
        legal = self.game.legal()
        moves = {action: text for action, text in legal.values()}
        if len(moves) == 1:
            action = next(iter(moves))
        else:
            action = self.search(self.allowance(self.game.side()))
        self.game.apply(action)
        return moves[action]

    def search(self, seconds: float) -> int:
        """OpenSpiel's MCTS-solver for ``seconds`` of wall-clock time from the current state."""
        options = self.options
        seed = options.seed if options.seed is not None else time.time_ns() % 2**31
        bot = pyspiel.MCTSBot(
            self.game.game, pyspiel.RandomRolloutEvaluator(options.rollouts, seed),
            options.uct_c, options.max_simulations, options.max_memory_mb, True, seed,
            options.verbose, pyspiel.ChildSelectionPolicy.UCT, seconds)
        return bot.step(self.game.state)

    def allowance(self, who: int) -> float:
        """Seconds for this move: ``mcts_solver``'s plan (see the module docstring)."""
        clock, options = self.clock, self.options
        if not clock.set or (clock.byo_yomi > 0 and clock.stones == 0):
            return options.move_time
        left = clock.left[who] if clock.left[who] is not None else clock.main
        stones = clock.left_stones[who] if clock.left[who] is not None else 0
        if left <= 0 and stones == 0 and clock.stones > 0:
            left, stones = clock.byo_yomi, clock.stones
        if stones > 0:
            budget = 0.8 * left / stones
        else:
            reserve = clock.byo_yomi / clock.stones if clock.stones > 0 else 0.0
            budget = min(options.time_fraction * left, 0.5 * left) + 0.8 * reserve
        return max(0.005, budget - options.margin)

    def time_settings(self, args: list[str]) -> str:
        usage = "syntax error: expected time_settings MAIN BYO_YOMI STONES"
        expect(args, 3, "time_settings MAIN BYO_YOMI STONES")
        main, byo_yomi = number(args[0], usage), number(args[1], usage)
        if main < 0 or byo_yomi < 0 or not args[2].isdigit():
            raise Failure(usage)
        self.clock = Clock(main, byo_yomi, int(args[2]), True)
        return ""

    def time_left(self, args: list[str]) -> str:
        usage = "syntax error: expected time_left COLOUR SECONDS STONES"
        expect(args, 3, "time_left COLOUR SECONDS STONES")
        who = colour(args[0])
        seconds = number(args[1], usage)
        if not args[2].isdigit():
            raise Failure(usage)
        clock = self.clock
        if not clock.set:
            clock.set, clock.main = True, seconds
        left, stones = list(clock.left), list(clock.left_stones)
        left[who], stones[who] = max(0.0, seconds), int(args[2])
        clock.left, clock.left_stones = tuple(left), tuple(stones)
        return ""


def expect(args: list[str], count: int, usage: str) -> None:
    """Failure unless there are exactly ``count`` arguments."""
    if len(args) != count:
        raise Failure(f"syntax error: expected {usage}")


def colour(word: str) -> int:
    """0 for black, 1 for white, in any case and as ``b``/``w``."""
    index = {"b": 0, "black": 0, "w": 1, "white": 1}.get(word.lower())
    if index is None:
        raise Failure(f"syntax error: unknown colour '{word}' (expected black or white)")
    return index


def number(text: str, usage: str) -> float:
    """A finite number of seconds, or Failure with ``usage``."""
    try:
        value = float(text)
    except ValueError:
        raise Failure(usage) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise Failure(usage)
    return value


def words_of(raw: str) -> list[str]:
    """SPEC 1.1's framing: control characters (but tab) removed, ``#`` comments dropped."""
    line = raw.split("#", 1)[0].replace("\t", " ")
    return "".join(c for c in line if c >= " " and c != "\x7f").split()


def format_answer(success: bool, ident: str, text: str) -> str:
    """``=id text`` or ``?id text`` and an empty line; no empty line inside the answer."""
    first, *rest = text.split("\n")
    lines = [("=" if success else "?") + ident + (" " + first if first else "")]
    lines += [line for line in rest if line.strip()]
    return "\n".join(lines) + "\n\n"


def serve(engine: Engine) -> None:
    """Answers commands from standard input until ``quit`` or the end of input."""
    for raw in sys.stdin.buffer:  # bytes: a line that is not UTF-8 must not end the loop
        words = words_of(raw.decode("utf-8", "replace"))
        if not words:
            continue
        ident = words.pop(0) if words[0].isdigit() else ""
        if not words:
            out = format_answer(False, ident, "syntax error: no command after the id")
        else:
            try:
                out = format_answer(True, ident, engine.answer(words[0], words[1:]))
            except Failure as failure:
                out = format_answer(False, ident, str(failure))
            except Exception as error:  # noqa: BLE001 - the loop must answer, never die
                out = format_answer(False, ident, f"internal error: {error}")
        sys.stdout.write(out)
        sys.stdout.flush()
        if words and words[0] == "quit":
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--move-time", type=float, default=1.0,
                        help="seconds a move when no clock is set (default 1)")
    parser.add_argument("--time-fraction", type=float, default=0.08,
                        help="share of the main time left spent on a move (default 0.08)")
    parser.add_argument("--margin", type=float, default=0.1,
                        help="seconds kept back from each move for pipes (default 0.1)")
    parser.add_argument("--uct-c", type=float, default=2.0,
                        help="UCT exploration constant on returns in [-1, 1] (default 2)")
    parser.add_argument("--rollouts", type=int, default=1,
                        help="random rollouts a leaf (default 1)")
    parser.add_argument("--max-simulations", type=int, default=10**9,
                        help="simulations a move at most (default: the clock alone decides)")
    parser.add_argument("--max-memory-mb", type=int, default=1000,
                        help="tree size limit in MB (default 1000)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: clock)")
    parser.add_argument("--verbose", action="store_true",
                        help="OpenSpiel's search summary of each move on standard error")
    serve(Engine(parser.parse_args()))


if __name__ == "__main__":
    main()
