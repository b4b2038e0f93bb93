"""Lines of Action, Computer Olympiad rules (SPEC 2.1; rules/icga-*.txt, rules 1-10).

Board: 8x8, black on b1-g1 and b8-g8, white on a2-a7 and h2-h7; black moves first.
A piece moves in a straight line (rank, file or diagonal) exactly as many squares as there are
pieces of either colour on that whole line; it may jump its own pieces but not the opponent's,
and captures by landing on an opponent piece.
The side whose pieces form one 8-connected group wins; if a move connects both sides, it is a
draw; a side with no move must pass; the third occurrence of a position (board and side to
move) is a draw.

Notation: ``b1-b3``, capture ``b1xd3``, ``pass`` (only when no other move exists).

Representation: one 64-bit integer per colour, bit ``rank * 8 + file``. A move is the integer
``origin << 6 | target``; :data:`PASS` is -1. Move generation counts the pieces on each line
with one ``bit_count`` and reads the target and the squares jumped over from tables built once.

PyPy computes with big integers above 2**63, and on values computed from them
(:mod:`engine.bits`). Only h8 needs bit 63, so while h8 is empty every value of a ply is kept
below 2**63: the boards are turned back into machine words when a move leaves or takes on h8
(:func:`~engine.bits.machine_word`), and the move generator and the connection test use masks
without h8 then (:data:`LOW_LINES`, :func:`grow_without_h8`).
"""

from __future__ import annotations

from ..bits import WORD_LIMIT, machine_word
from ..core import (BLACK, COLOUR_NAMES, Advantage, Game, IllegalMoveError, Outcome, Position,
                    Termination)
from ..grid import (from_to_text, parse_from_to, parse_square, render, square_name,
                    two_colour_cells)

SIZE = 8
PASS = -1
H8 = 63
FULL = (1 << 64) - 1
NOT_FILE_A = FULL ^ sum(1 << (rank * 8) for rank in range(8))
NOT_FILE_H = FULL ^ sum(1 << (rank * 8 + 7) for rank in range(8))
# The masks of :func:`grow_without_h8`: all below 2**63, and kept as machine words.
LOW_NOT_FILE_H = NOT_FILE_H % WORD_LIMIT
# The squares whose north, and whose east, is on the board and not h8.
UP_NOT_H8 = (FULL >> 8) % WORD_LIMIT ^ (1 << (H8 - 8))
EAST_NOT_H8 = LOW_NOT_FILE_H ^ (1 << (H8 - 1))
START_BLACK = sum(1 << file for file in range(1, 7)) | sum(1 << (56 + file) for file in range(1, 7))
START_WHITE = (sum(1 << (rank * 8) for rank in range(1, 7))
               | sum(1 << (rank * 8 + 7) for rank in range(1, 7)))

# The four line axes, each as its two opposite directions (file step, rank step).
AXES = (((1, 0), (-1, 0)), ((0, 1), (0, -1)), ((1, 1), (-1, -1)), ((1, -1), (-1, 1)))


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < SIZE and 0 <= rank < SIZE


def _build_lines(without: int | None = None):
    """For every square: its four lines, each as (mask of the whole line, two rays).

    A ray is a tuple indexed by distance n (0..8): ``None`` where n steps leave the board, else
    ``(target, target bit, mask of the squares strictly between)``. The square ``without`` is
    left out of the masks (its target bit is 0): the tables for a board where it is empty.
    """
    table = []
    for square in range(64):
        file, rank = square % 8, square // 8
        lines = []
        for axis in AXES:
            mask = 0 if square == without else 1 << square
            rays = []
            for df, dr in axis:
                ray, between = [None], 0
                f, r = file + df, rank + dr
                while _on_board(f, r):
                    target = r * 8 + f
                    bit = 0 if target == without else 1 << target
                    ray.append((target, bit, between))
                    mask |= bit
                    between |= bit
                    f, r = f + df, r + dr
                rays.append(tuple(ray + [None] * (SIZE + 1 - len(ray))))
            lines.append((mask, rays[0], rays[1]))
        table.append(tuple(lines))
    return tuple(table)


LINES = _build_lines()
LOW_LINES = _build_lines(without=H8)  # while h8 is empty (no square is strictly beyond h8)

# --- evaluation tables -----------------------------------------------------------------------
# Centralisation: pieces in the middle join up more easily; edges and corners are weak.
CENTRALITY = tuple(3 - max(abs(2 * (s % 8) - 7), abs(2 * (s // 8) - 7)) // 2 for s in range(64))
SQUARE_FILE = tuple(s % 8 for s in range(64))
SQUARE_RANK = tuple(s // 8 for s in range(64))
# The least possible sum of distances to the centre of mass for n pieces (1 at 0, 8 at 1, ...).
LEAST_SPREAD = tuple(sum(0 if i == 0 else 1 if i <= 8 else 2 for i in range(n)) for n in range(13))
WEIGHT_GROUPS = 60
WEIGHT_SPREAD = 45
WEIGHT_CENTRALITY = 12
WEIGHT_CONTACT = 10
TEMPO = 15


def grow(group: int, bits: int) -> int:
    """The squares of ``bits`` in ``group`` or 8-adjacent to one of its squares (``group`` is
    part of ``bits``)."""
    grown = group | (group << 8) | (group >> 8)
    return (grown | ((grown << 1) & NOT_FILE_A) | ((grown >> 1) & NOT_FILE_H)) & bits


def grow_without_h8(group: int, bits: int) -> int:
    """:func:`grow` for ``bits`` without h8, where no shift reaches bit 63 (see the module)."""
    grown = group | ((group & UP_NOT_H8) << 8) | (group >> 8)
    return (grown | ((grown & EAST_NOT_H8) << 1) | ((grown >> 1) & LOW_NOT_FILE_H)) & bits


def is_connected(bits: int) -> bool:
    """Whether the pieces of ``bits`` form one 8-connected group (a single piece does)."""
    group = bits & -bits
    step = grow if bits >> H8 else grow_without_h8
    while True:
        grown = step(group, bits)
        if grown == group:
            return grown == bits
        group = grown


def groups(bits: int) -> int:
    """How many 8-connected groups the pieces of ``bits`` form."""
    count = 0
    step = grow if bits >> H8 else grow_without_h8
    while bits:
        group = bits & -bits
        while True:
            grown = step(group, bits)
            if grown == group:
                break
            group = grown
        bits ^= group
        count += 1
    return count


_SIDE_VALUES: dict[int, int] = {}
SIDE_VALUE_CACHE_LIMIT = 1 << 20


def _side_value(bits: int) -> int:
    """How close one side is to connecting, memoised: in a search tree each side's pieces stay
    the same across every sibling position where only the other side moved."""
    value = _SIDE_VALUES.get(bits)
    if value is None:
        if len(_SIDE_VALUES) >= SIDE_VALUE_CACHE_LIMIT:
            _SIDE_VALUES.clear()
        value = _SIDE_VALUES[bits] = _measure_side(bits)
    return value


def _measure_side(bits: int) -> int:
    """Few groups, pieces close to their centre of mass, in contact with each other and
    central: the measures of MIA and the other strong LOA programs."""
    count = bits.bit_count()
    files = ranks = centrality = 0
    squares = []
    remaining = bits
    while remaining:
        low = remaining & -remaining
        remaining ^= low
        square = low.bit_length() - 1
        squares.append(square)
        files += SQUARE_FILE[square]
        ranks += SQUARE_RANK[square]
        centrality += CENTRALITY[square]
    centre_file, centre_rank = files / count, ranks / count
    spread = sum(max(abs(SQUARE_FILE[s] - centre_file), abs(SQUARE_RANK[s] - centre_rank))
                 for s in squares)
    excess = max(0.0, spread - LEAST_SPREAD[count])
    contacts = ((bits & (bits >> 8)).bit_count() + (bits & (bits >> 1) & NOT_FILE_H).bit_count()
                + (bits & (bits >> 9) & NOT_FILE_H).bit_count()
                + (bits & (bits >> 7) & NOT_FILE_A).bit_count())
    return int(-WEIGHT_GROUPS * (groups(bits) - 1) - WEIGHT_SPREAD * excess / count
               + WEIGHT_CENTRALITY * centrality / count + WEIGHT_CONTACT * contacts / count)


class LinesOfAction(Game):
    """Lines of Action on the fixed 8x8 board."""

    name = "loa"
    title = "Lines of Action"
    spec_section = "2.1"
    clear_advantage = Advantage(120, "two extra groups (60 each)")
    aliases = ("lines_of_action",)
    first_player = BLACK
    default_size = (SIZE, SIZE)

    def initial_position(self) -> LoaPosition:
        return LoaPosition(self)


class LoaPosition(Position):
    """A Lines of Action position: two bitboards and the side to move."""

    tracks_positions = True
    has_evaluation = True
    typical_plies = 70

    def __init__(self, game: Game, black: int = START_BLACK, white: int = START_WHITE,
                 to_move: int = BLACK) -> None:
        super().__init__(game)
        self.pieces = [machine_word(black), machine_word(white)]
        self.to_move = to_move
        self._start()

    @classmethod
    def setup(cls, black: str, white: str, to_move: int = BLACK) -> LoaPosition:
        """A position from space-separated square lists: ``setup("b1 c3", "a2 h7", WHITE)``."""
        def bits(squares: str) -> int:
            return sum(1 << parse_square(name, SIZE, SIZE) for name in squares.split())
        return cls(LinesOfAction(), bits(black), bits(white), to_move)

    def _copy_state(self, other: LoaPosition) -> None:
        other.pieces = list(self.pieces)

    def _generate(self) -> list[int]:
        own = self.pieces[self.to_move]
        opponent = self.pieces[self.to_move ^ 1]
        occupied = own | opponent
        lines = LINES if occupied >> H8 else LOW_LINES
        moves = []
        remaining = own
        while remaining:
            low = remaining & -remaining
            remaining ^= low
            origin = low.bit_length() - 1
            base = origin << 6
            for mask, forward, backward in lines[origin]:
                count = (occupied & mask).bit_count()
                step = forward[count]
                if step is not None and not (own & step[1] or opponent & step[2]):
                    moves.append(base | step[0])
                step = backward[count]
                if step is not None and not (own & step[1] or opponent & step[2]):
                    moves.append(base | step[0])
        return moves or [PASS]

    def _apply(self, move: int) -> bool:
        if move == PASS:
            return False
        mover = self.to_move
        origin_target = (1 << (move >> 6)) | (1 << (move & 63))
        self.pieces[mover] ^= origin_target
        target = 1 << (move & 63)
        captured = bool(self.pieces[mover ^ 1] & target)
        if captured:
            self.pieces[mover ^ 1] ^= target
        if origin_target >> H8:  # the move leaves or takes h8
            self.pieces = [machine_word(bits) for bits in self.pieces]
        return captured

    def _revert(self, move: int, captured: bool) -> None:
        if move == PASS:
            return
        mover = self.to_move
        origin_target = (1 << (move >> 6)) | (1 << (move & 63))
        self.pieces[mover] ^= origin_target
        if captured:
            self.pieces[mover ^ 1] |= 1 << (move & 63)
        if origin_target >> H8:
            self.pieces = [machine_word(bits) for bits in self.pieces]

    def _judge(self, move) -> Outcome | None:
        mover = self.to_move ^ 1
        if move is None or move != PASS:
            mover_joined = is_connected(self.pieces[mover])
            # The opponent's pieces only change by a capture; without one they are still apart
            # (a connected opponent would have ended the game already).
            opponent_joined = ((move is None or self.history[-1][1])
                               and is_connected(self.pieces[mover ^ 1]))
            if mover_joined and opponent_joined:
                return Outcome(None, Termination.NORMAL, "both sides are connected")
            if mover_joined:
                return Outcome(mover, Termination.NORMAL,
                               f"{COLOUR_NAMES[mover]} connected all pieces")
            if opponent_joined:
                return Outcome(mover ^ 1, Termination.NORMAL,
                               f"{COLOUR_NAMES[mover ^ 1]} is connected by the capture")
        if self.occurrences() >= 3:
            return Outcome(None, Termination.REPETITION, "the position occurred a third time")
        return None

    def move_text(self, move: int) -> str:
        if move == PASS:
            return "pass"
        target = move & 63
        capture = bool(self.pieces[self.to_move ^ 1] >> target & 1)
        return from_to_text(move >> 6, target, capture, SIZE)

    def parse_move(self, text: str) -> int:
        if text.strip().lower() == "pass":
            if self.legal_moves() == [PASS]:
                return PASS
            raise IllegalMoveError("pass: passing is only legal when no other move exists")
        origin, target = parse_from_to(text, SIZE, SIZE)
        move = origin << 6 | target
        return self._legal(move, text.strip().lower(), origin, target)

    def _why_illegal(self, origin: int, target: int) -> str:
        """One line saying why a from-to move is not legal, for the error message."""
        colour = COLOUR_NAMES[self.to_move]
        own, opponent = self.pieces[self.to_move], self.pieces[self.to_move ^ 1]
        if not own >> origin & 1:
            return f"no {colour} piece on {square_name(origin, SIZE)}"
        for mask, *rays in LINES[origin]:
            for ray in rays:
                for distance, step in enumerate(ray):
                    if step is not None and step[0] == target:
                        count = ((own | opponent) & mask).bit_count()
                        if distance != count:
                            return (f"a line with {count} pieces allows {count} "
                                    f"square{'s' if count != 1 else ''}")
                        if own & step[1]:
                            return "it would land on its own piece"
                        return "it would jump over an opponent piece"
        return "the squares are not on one line"

    def evaluate(self) -> int:
        """Concentration, connectedness and centralisation of the side to move minus the
        opponent's."""
        mover = self.to_move
        return TEMPO + _side_value(self.pieces[mover]) - _side_value(self.pieces[mover ^ 1])

    def key(self) -> tuple[int, int, int]:
        return self.pieces[0], self.pieces[1], self.to_move

    def diagram(self) -> str:
        black, white = self.pieces
        cell = two_colour_cells(black, white)

        return render(SIZE, SIZE, cell, f"X black, O white; {COLOUR_NAMES[self.to_move]} to move")

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: a chessboard with black and white discs."""
        from ..drawing import bitboard_pieces, square_board
        square_board(canvas, SIZE, SIZE)
        for colour, bits in enumerate(self.pieces):
            bitboard_pieces(canvas, bits, colour)
