"""What Breakthrough and Knightthrough share: the race to the far rank (SPEC 2.2-2.3).

Both games start with white on ranks 1-2 and black on the top two ranks, white moving first.
Pieces only move forward (white up the board, black down), each game by its own fixed steps;
a player wins on reaching the far rank or when the opponent has no piece left, and a player with
no legal move loses.

Representation: one integer bitboard per colour, bit ``rank * cols + file`` (the square
numbering of :mod:`engine.grid`), on any board up to 26x26. A move is the integer
``origin << 10 | target``. A game module only declares its steps (as ``(ranks forward, files
sideways)`` pairs, and which of them may capture); :class:`Board` turns them into shift amounts
and origin masks once per board size, and the one generator here applies them with a shift per
step to every piece at once.

PyPy computes with big integers above 2**63, and on values computed from them
(:mod:`engine.bits`): on 8x8 every whole-board value is big (the board's mask has 64 bits). The
generator turns each step's targets, almost always below 2**63, back into a machine word
(:func:`~engine.bits.machine_word`) before taking them one by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ..bits import machine_word
from ..core import BLACK, COLOUR_NAMES, WHITE, Game, Outcome, Position, Termination
from ..grid import (from_to_text, parse_from_to, parse_square, render, square_name,
                    two_colour_cells)

MOVE_BITS = 10  # enough for the 676 squares of a 26x26 board
TARGET_MASK = (1 << MOVE_BITS) - 1
# The move from ``target - shift`` to ``target`` is
# ``target * TARGET_WEIGHT - (shift << MOVE_BITS)``.
TARGET_WEIGHT = (1 << MOVE_BITS) + 1

SURE_WIN = 100_000  # the evaluation of a race decided in the next move or two

Step = tuple[int, int]  # (ranks forward, files sideways; positive towards the h-file)


@dataclass(frozen=True)
class Board:
    """The masks of one board size, built once per size by :func:`board`.

    ``progress[colour][r]`` is the rank ``r`` ranks away from that colour's home rank, so
    ``progress[colour][-1]`` is its goal and ``progress[colour][-2]`` the rank just before it.
    """

    cols: int
    rows: int
    full: int
    ranks: tuple[int, ...]
    files: tuple[int, ...]
    progress: tuple[tuple[int, ...], tuple[int, ...]]
    start: tuple[int, int]

    def sideways_room(self, files: int) -> int:
        """The squares from which a step of ``files`` files sideways stays on the board."""
        if files >= 0:
            return sum(self.files[: self.cols - files])
        return sum(self.files[-files:])


@lru_cache(maxsize=None)
def board(cols: int, rows: int) -> Board:
    """The (cached) masks of a ``cols`` x ``rows`` board."""
    rank_mask = sum(1 << file for file in range(cols))
    ranks = tuple(rank_mask << (rank * cols) for rank in range(rows))
    files = tuple(sum(1 << (rank * cols + file) for rank in range(rows)) for file in range(cols))
    progress = [(), ()]
    progress[WHITE], progress[BLACK] = ranks, ranks[::-1]
    start = [0, 0]
    start[WHITE], start[BLACK] = ranks[0] | ranks[1], ranks[-1] | ranks[-2]
    return Board(cols, rows, (1 << (cols * rows)) - 1, ranks, files, tuple(progress), tuple(start))


@lru_cache(maxsize=None)
def step_shifts(cols: int, rows: int, steps: tuple[Step, ...], captures: tuple[Step, ...]):
    """For each colour, every step as (shift, origin mask, may capture): white's targets are
    ``(own & mask) << shift``, black's ``(own & mask) >> shift``."""
    room = board(cols, rows).sideways_room
    table = [(), ()]
    table[WHITE] = tuple((ranks * cols + files, room(files), (ranks, files) in captures)
                         for ranks, files in steps)
    table[BLACK] = tuple((ranks * cols - files, room(files), (ranks, files) in captures)
                         for ranks, files in steps)
    return tuple(table)


class RaceGame(Game):
    """The facts both games share: 8x8 by default, white first."""

    first_player = WHITE
    default_size = (8, 8)


class RacePosition(Position):
    """A position of a race game: two bitboards and the side to move.

    Subclasses declare ``steps`` (every step a piece may make), ``capture_steps`` (the steps
    that may land on an opponent piece; the others need an empty square), the texts
    ``step_rule`` and ``capture_rule`` used in error messages, and ``always_moves_from``: the
    number of files from which a side with a piece always has a legal move (its most advanced
    piece has one), so that :meth:`_judge` need not look for one.
    """

    has_evaluation = True
    steps: ClassVar[tuple[Step, ...]]
    capture_steps: ClassVar[tuple[Step, ...]]
    step_rule: ClassVar[str]
    capture_rule: ClassVar[str] = ""
    always_moves_from: ClassVar[int]

    def __init__(self, game: Game, black: int | None = None, white: int | None = None,
                 to_move: int = WHITE) -> None:
        super().__init__(game)
        self.board = board(game.cols, game.rows)
        self.shifts = step_shifts(game.cols, game.rows, self.steps, self.capture_steps)
        self.pieces = [self.board.start[BLACK] if black is None else black,
                       self.board.start[WHITE] if white is None else white]
        self.to_move = to_move
        self._start()

    @classmethod
    def setup(cls, game: Game, black: str, white: str, to_move: int = WHITE) -> RacePosition:
        """A position of ``game`` with pieces on the named squares (``"a7 b7"``), for tests and
        analysis."""
        def bits(names: str) -> int:
            return sum(1 << parse_square(name, game.cols, game.rows) for name in names.split())

        return cls(game, bits(black), bits(white), to_move)

    def _copy_state(self, other: RacePosition) -> None:
        other.pieces = list(self.pieces)

    def _generate(self) -> list[int]:
        own = self.pieces[self.to_move]
        free = self.board.full ^ own
        empty = free ^ self.pieces[self.to_move ^ 1]
        moves = []
        append = moves.append
        if self.to_move == WHITE:
            for shift, origins, captures in self.shifts[WHITE]:
                targets = machine_word(((own & origins) << shift) & (free if captures else empty))
                offset = shift << MOVE_BITS
                while targets:
                    low = targets & -targets
                    targets ^= low
                    append((low.bit_length() - 1) * TARGET_WEIGHT - offset)
        else:
            for shift, origins, captures in self.shifts[BLACK]:
                targets = machine_word(((own & origins) >> shift) & (free if captures else empty))
                offset = shift << MOVE_BITS
                while targets:
                    low = targets & -targets
                    targets ^= low
                    append((low.bit_length() - 1) * TARGET_WEIGHT + offset)
        return moves

    def noisy_moves(self) -> list[int]:
        """Captures and steps onto the goal rank, for the quiescence search."""
        forcing = self.pieces[self.to_move ^ 1] | self.board.progress[self.to_move][-1]
        return [move for move in self._generate() if forcing >> (move & TARGET_MASK) & 1]

    def _can_move(self, colour: int) -> bool:
        """Whether ``colour`` has a legal move (the same shifts as :meth:`_generate`)."""
        own = self.pieces[colour]
        free = self.board.full ^ own
        empty = free ^ self.pieces[colour ^ 1]
        if colour == WHITE:
            return any(((own & origins) << shift) & (free if captures else empty)
                       for shift, origins, captures in self.shifts[WHITE])
        return any(((own & origins) >> shift) & (free if captures else empty)
                   for shift, origins, captures in self.shifts[BLACK])

    def _apply(self, move: int) -> bool:
        target = 1 << (move & TARGET_MASK)
        self.pieces[self.to_move] ^= (1 << (move >> MOVE_BITS)) | target
        opponent = self.pieces[self.to_move ^ 1]
        if opponent & target:
            self.pieces[self.to_move ^ 1] = opponent ^ target
            return True
        return False

    def _revert(self, move: int, captured: bool) -> None:
        target = 1 << (move & TARGET_MASK)
        self.pieces[self.to_move] ^= (1 << (move >> MOVE_BITS)) | target
        if captured:
            self.pieces[self.to_move ^ 1] |= target

    def _judge(self, move) -> Outcome | None:
        mover = self.to_move ^ 1
        # At the start (move None) both sides are looked at, the side not to move first.
        for colour in ((mover,) if move is not None else (mover, self.to_move)):
            if self.pieces[colour] & self.board.progress[colour][-1]:
                goal = 1 if colour == BLACK else self.board.rows
                return Outcome(colour, Termination.NORMAL,
                               f"{COLOUR_NAMES[colour]} reached rank {goal}")
            if not self.pieces[colour ^ 1]:
                return Outcome(colour, Termination.NORMAL,
                               f"{COLOUR_NAMES[colour ^ 1]} has no pieces left")
        if self.board.cols < self.always_moves_from and not self._can_move(self.to_move):
            return Outcome(mover, Termination.NORMAL,
                           f"{COLOUR_NAMES[self.to_move]} has no legal move")
        return None

    def fewest_plies_to_end(self) -> int:
        """The plies before either side could reach its goal (its most advanced piece's
        ranks to go, at the longest forward step a move makes) or take the other's last piece
        (a capture a move); 1 on boards narrow enough for a side to be left without a legal
        move (:attr:`always_moves_from`), where the next move might do it."""
        if self.outcome is not None:
            return 0
        if self.board.cols < self.always_moves_from:
            return 1
        longest = max(ranks for ranks, _ in self.steps)
        fewest = []
        for colour in (self.to_move, self.to_move ^ 1):
            ranks = self.board.progress[colour]
            ahead = max(rank for rank, mask in enumerate(ranks) if self.pieces[colour] & mask)
            moves = min(-(-(len(ranks) - 1 - ahead) // longest),
                        self.pieces[colour ^ 1].bit_count())
            # The side to move's n-th move is ply 2n - 1, the other side's ply 2n.
            fewest.append(2 * moves - (colour == self.to_move))
        return min(fewest)

    def move_text(self, move: int) -> str:
        target = move & TARGET_MASK
        capture = bool(self.pieces[self.to_move ^ 1] >> target & 1)
        return from_to_text(move >> MOVE_BITS, target, capture, self.board.cols)

    def parse_move(self, text: str) -> int:
        origin, target = parse_from_to(text, self.board.cols, self.board.rows)
        move = origin << MOVE_BITS | target
        return self._legal(move, text.strip().lower(), origin, target)

    def _why_illegal(self, origin: int, target: int) -> str:
        """One line saying why a from-to move is not legal, for the error message."""
        cols = self.board.cols
        own = self.pieces[self.to_move]
        if not own >> origin & 1:
            return f"no {COLOUR_NAMES[self.to_move]} piece on {square_name(origin, cols)}"
        forward = target // cols - origin // cols
        step = (forward if self.to_move == WHITE else -forward, target % cols - origin % cols)
        if step not in self.steps:
            return self.step_rule
        if own >> target & 1:
            return "it would land on its own piece"
        # The only case left: an opponent piece, a step that cannot capture.
        return self.capture_rule

    def key(self) -> tuple[int, int, int]:
        return self.pieces[BLACK], self.pieces[WHITE], self.to_move

    def diagram(self) -> str:
        black, white = self.pieces
        cell = two_colour_cells(black, white)

        return render(self.board.cols, self.board.rows, cell,
                      f"X black, O white; {COLOUR_NAMES[self.to_move]} to move")

    # --- helpers of the evaluations ------------------------------------------------------------

    def _attacks(self, colour: int) -> int:
        """The squares ``colour`` could capture on with its next move, were an opponent there."""
        own, full = self.pieces[colour], self.board.full
        attacked = 0
        if colour == WHITE:
            for shift, origins, captures in self.shifts[WHITE]:
                if captures:
                    attacked |= (own & origins) << shift
        else:
            for shift, origins, captures in self.shifts[BLACK]:
                if captures:
                    attacked |= (own & origins) >> shift
        return attacked & full

    def _runners(self, colour: int) -> int:
        """The pieces of ``colour`` that can reach their goal with their next move."""
        own = self.pieces[colour]
        free = self.board.full ^ own
        empty = free ^ self.pieces[colour ^ 1]
        goal = self.board.progress[colour][-1]
        runners = 0
        if colour == WHITE:
            for shift, origins, captures in self.shifts[WHITE]:
                landing = goal & (free if captures else empty)
                runners |= (((own & origins) << shift) & landing) >> shift
        else:
            for shift, origins, captures in self.shifts[BLACK]:
                landing = goal & (free if captures else empty)
                runners |= (((own & origins) >> shift) & landing) << shift
        return runners

    def _attackers(self, colour: int, square: int) -> int:
        """How many pieces of ``colour`` could capture on ``square`` (a one-bit mask)."""
        own = self.pieces[colour]
        count = 0
        for shift, origins, captures in self.shifts[colour]:
            if captures:
                origin = square >> shift if colour == WHITE else square << shift
                count += bool(own & origins & origin)
        return count

    def settled(self) -> tuple[int, int] | None:
        """``(1, 1)`` when the side to move reaches its goal now; ``(-1, plies)`` when it
        cannot stop the opponent from reaching its goal within ``plies``; else ``None``.

        Pieces only move forward, so capturing is the only defence: two runners cannot both be
        taken (the second arrives a ply later), and one runner is stopped only by more
        attackers than it has defenders, since every recapture puts a new runner on the same
        square (each exchange takes two plies; then one move of the side to move, and the
        runner's).
        """
        mover = self.to_move
        if self._runners(mover):
            return 1, 1
        runners = self._runners(mover ^ 1)
        if not runners:
            return None
        if runners & (runners - 1):
            return -1, 2
        attackers = self._attackers(mover, runners)
        if attackers <= self._attackers(mover ^ 1, runners):
            return -1, 2 * attackers + 2
        return None

    def _race_verdict(self) -> int:
        """``SURE_WIN`` or ``-SURE_WIN`` when the race is :meth:`settled`, else 0."""
        settled = self.settled()
        return 0 if settled is None else SURE_WIN * settled[0]

    def _material_and_advance(self, piece: int, advance: tuple[int, ...]) -> int:
        """The side to move's ``piece`` per piece plus ``advance[r]`` per piece ``r`` ranks from
        its home rank, minus the opponent's."""
        mover = self.to_move
        own, theirs = self.pieces[mover], self.pieces[mover ^ 1]
        value = piece * (own.bit_count() - theirs.bit_count())
        for weight, mine, yours in zip(advance, self.board.progress[mover],
                                       self.board.progress[mover ^ 1]):
            value += weight * ((own & mine).bit_count() - (theirs & yours).bit_count())
        return value


@lru_cache(maxsize=None)
def advance_weights(rows: int, scale: int, home: int) -> tuple[int, ...]:
    """Weights of the pieces by ranks from home: ``home`` on the home rank (a defender), then
    growing with the square of the progress up to ``scale`` on the goal."""
    return (home,) + tuple(scale * rank * rank // ((rows - 1) ** 2) for rank in range(1, rows))
