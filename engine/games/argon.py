"""Argon by Christian Freeling, MindSports (SPEC 2.8; rules/argon.txt).

Board: 9x9 by default, ``boardsize`` 5-19 x 5-19, empty at the start; white moves first.
Neighbours are orthogonal.
Phase 1 (placing): white's first turn is one stone anywhere. Every later turn places a stone A
on an empty point next to the last stone the opponent placed (the second stone of their turn,
or white's first stone), then a stone B on an empty point whose neighbours are all empty. When
after some A no B is possible, that A alone is the turn and it ends phase 1; the opponent moves
first in phase 2.
Phase 2 (moving): a stone moves exactly n steps, n being the number of empty points next to its
departure point. It starts in one of the four directions and goes straight; when its next step
would leave the board it turns left, right or back. It passes over stones; it may not end on
its departure point or on an own stone; ending on an opponent stone removes both stones.
After the turn that ends phase 1 and after every move: the mover wins if its stones form one
group, but it is a draw if the opponent's do too; the mover loses if only the opponent's stones
form one group (no stones at all count as one group). A player who cannot move in phase 2
loses. Stones can move for ever without either side connecting, so the referee's move limit
may end the game.

Notation: single placement ``e5`` (white's first turn, and the A alone that ends phase 1),
compound placement ``d5+b2``, move ``c3-c7``, capture ``c3xc7``.

Representation: one integer bitboard per colour, bit ``rank * cols + file``; the phase and the
last stone placed. A single placement is the point, a compound one ``PAIR | a << 9 | b``, a
move ``MOVE | origin << 9 | target``. The points a stone can reach with n steps are walked once
per board size and kept as bit masks (:func:`tables`), so move generation is a mask per stone.
"""

from __future__ import annotations

from functools import lru_cache

from ..bits import squares_of
from ..core import (COLOUR_NAMES, WHITE, Advantage, Game, MoveSyntaxError, Outcome, Position,
                    Termination)
from ..grid import (from_to_text, parse_from_to, parse_square, render, square_name,
                    two_colour_cells)

PLACING, MOVING = 1, 2
SHIFT = 9  # 19 x 19 = 361 points fit in 9 bits
LOW = (1 << SHIFT) - 1
PAIR = 1 << (2 * SHIFT)
MOVE = 2 << (2 * SHIFT)
DIRECTIONS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # east, north, west, south: turning = +-1

# --- evaluation weights ----------------------------------------------------------------------
WEIGHT_GROUP = 40
WEIGHT_CONTACT = 6
WEIGHT_SPREAD = 10
WEIGHT_MOBILITY = 1


class Tables:
    """The precomputed masks of one board size."""

    def __init__(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.points = cols * rows
        self.full = (1 << self.points) - 1
        file_a = sum(1 << (rank * cols) for rank in range(rows))
        self.not_first_file = self.full ^ file_a
        self.not_last_file = self.full ^ (file_a << (cols - 1))
        self.orth = tuple(self.spread(1 << point) for point in range(self.points))
        # reach[point][n]: the points a stone on ``point`` reaches with exactly n steps.
        self.reach = tuple(tuple(self._reach(point, n) for n in range(5))
                           for point in range(self.points))

    def spread(self, bits: int) -> int:
        """Every point orthogonally next to a point of ``bits``."""
        cols = self.cols
        return (((bits << cols) | (bits >> cols) | ((bits << 1) & self.not_first_file)
                 | ((bits >> 1) & self.not_last_file)) & self.full)

    def _on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.cols and 0 <= rank < self.rows

    def _reach(self, point: int, steps: int) -> int:
        """Walk every route of ``steps`` steps from ``point`` (a DFS over point, direction and
        steps left); the mask of their ends, the departure point left out."""
        if steps == 0:
            return 0
        ends = 0
        start = (point % self.cols, point // self.cols)
        stack = [(start, direction, steps) for direction in range(4)]
        while stack:
            (file, rank), direction, left = stack.pop()
            if left == 0:
                ends |= 1 << (rank * self.cols + file)
                continue
            df, dr = DIRECTIONS[direction]
            if self._on_board(file + df, rank + dr):
                stack.append(((file + df, rank + dr), direction, left - 1))
                continue
            for turn in (1, 2, 3):  # left, back, right
                new = (direction + turn) % 4
                df, dr = DIRECTIONS[new]
                if self._on_board(file + df, rank + dr):
                    stack.append(((file + df, rank + dr), new, left - 1))
        return ends & ~(1 << point)


@lru_cache(maxsize=None)
def tables(cols: int, rows: int) -> Tables:
    """The tables of a ``cols`` x ``rows`` board, built on first use."""
    return Tables(cols, rows)


def is_connected(bits: int, table: Tables) -> bool:
    """Whether the stones of ``bits`` form one orthogonal group (no stones at all do)."""
    if not bits:
        return True
    group = bits & -bits
    while True:
        grown = (group | table.spread(group)) & bits
        if grown == group:
            return grown == bits
        group = grown


def groups(bits: int, table: Tables) -> int:
    """How many orthogonal groups the stones of ``bits`` form."""
    count = 0
    while bits:
        group = bits & -bits
        while True:
            grown = (group | table.spread(group)) & bits
            if grown == group:
                break
            group = grown
        bits ^= group
        count += 1
    return count


class Argon(Game):
    """Argon on a board of 5-19 by 5-19 points."""

    name = "argon"
    title = "Argon"
    spec_section = "2.8"
    clear_advantage = Advantage(80, "two fewer groups (40 each)")
    first_player = WHITE
    default_size = (9, 9)
    size_limits = (5, 19, 5, 19)
    may_not_end = True

    def initial_position(self) -> ArgonPosition:
        return ArgonPosition(self)


class ArgonPosition(Position):
    """An Argon position: two bitboards, the phase, the last stone placed, the side to move."""

    has_evaluation = True
    typical_plies = 80

    def __init__(self, game: Game, black: int = 0, white: int = 0, to_move: int = WHITE,
                 phase: int = PLACING, last: int = -1) -> None:
        super().__init__(game)
        self.table = tables(game.cols, game.rows)
        self.stones = [black, white]
        self.to_move = to_move
        self.phase = phase
        self.last = last
        if phase == PLACING and (black | white):
            if last < 0 or not self.stones[to_move ^ 1] >> last & 1:
                raise ValueError("phase 1 needs the last stone the opponent placed")
            if not self.table.orth[last] & ~(black | white):
                raise ValueError("the opponent's last stone has no empty neighbour")
        self._start()

    @classmethod
    def setup(cls, black: str, white: str, to_move: int = WHITE, phase: int = MOVING,
              last: str = "", size: tuple[int, int] = (9, 9)) -> ArgonPosition:
        """A position from space-separated point lists; by default a phase-2 position on 9x9:
        ``setup("c3 d4", "e5", BLACK)``; in phase 1 ``last`` names the opponent's last stone."""
        game = Argon(size=size)

        def bits(points: str) -> int:
            return sum(1 << parse_square(name, game.cols, game.rows) for name in points.split())
        last_point = parse_square(last, game.cols, game.rows) if last else -1
        return cls(game, bits(black), bits(white), to_move, phase, last_point)

    def _copy_state(self, other: ArgonPosition) -> None:
        other.stones = list(self.stones)

    # --- move generation ---------------------------------------------------------------------

    def _generate(self) -> list[int]:
        return list(self._per_ply(self._find_moves))

    def _find_moves(self) -> tuple[int, ...]:
        """The side to move's moves, kept for the ply (:meth:`Position._per_ply`): ``_judge``
        finds the phase-2 ones anyway to see whether that side can move."""
        return tuple(self._placements() if self.phase == PLACING else self._moves())

    def _placements(self) -> list[int]:
        table = self.table
        occupied = self.stones[0] | self.stones[1]
        empty = table.full & ~occupied
        if not occupied:
            return list(range(table.points))
        lonely = empty & ~table.spread(occupied)  # empty points whose neighbours are all empty
        moves = []
        for first in squares_of(table.orth[self.last] & empty):
            seconds = lonely & ~(1 << first | table.orth[first])
            if seconds:
                base = PAIR | first << SHIFT
                moves.extend(base | second for second in squares_of(seconds))
            else:
                moves.append(first)
        return moves

    def _moves(self) -> list[int]:
        table = self.table
        own = self.stones[self.to_move]
        empty = table.full & ~(own | self.stones[self.to_move ^ 1])
        orth, reach = table.orth, table.reach
        moves = []
        for origin in squares_of(own):
            targets = reach[origin][(orth[origin] & empty).bit_count()] & ~own
            base = MOVE | origin << SHIFT
            moves.extend(base | target for target in squares_of(targets))
        return moves

    # --- playing -----------------------------------------------------------------------------

    def _apply(self, move: int):
        self._forget_ply()
        mover = self.to_move
        undo = (self.last, self.phase)
        if move < PAIR:
            if self.stones[0] | self.stones[1]:
                self.phase = MOVING  # an A without a possible B ends phase 1
            self.stones[mover] |= 1 << move
            self.last = move
        elif move < MOVE:
            first, second = move >> SHIFT & LOW, move & LOW
            self.stones[mover] |= 1 << first | 1 << second
            self.last = second
        else:
            origin, target = move >> SHIFT & LOW, move & LOW
            if self.stones[mover ^ 1] >> target & 1:
                self.stones[mover] ^= 1 << origin
                self.stones[mover ^ 1] ^= 1 << target
                return undo + (True,)
            self.stones[mover] ^= 1 << origin | 1 << target
        return undo + (False,)

    def _revert(self, move: int, undo) -> None:
        self._forget_ply()
        mover = self.to_move
        self.last, self.phase, captured = undo
        if move < PAIR:
            self.stones[mover] ^= 1 << move
        elif move < MOVE:
            self.stones[mover] ^= 1 << (move >> SHIFT & LOW) | 1 << (move & LOW)
        else:
            origin, target = move >> SHIFT & LOW, move & LOW
            if captured:
                self.stones[mover] |= 1 << origin
                self.stones[mover ^ 1] |= 1 << target
            else:
                self.stones[mover] ^= 1 << origin | 1 << target

    def _judge(self, move) -> Outcome | None:
        if self.phase == PLACING:
            return None
        mover = self.to_move ^ 1
        mover_joined = is_connected(self.stones[mover], self.table)
        opponent_joined = is_connected(self.stones[mover ^ 1], self.table)
        if mover_joined and opponent_joined:
            return Outcome(None, Termination.NORMAL, "both sides are connected")
        if mover_joined:
            return Outcome(mover, Termination.NORMAL, f"{COLOUR_NAMES[mover]} connected all stones")
        if opponent_joined:
            return Outcome(mover ^ 1, Termination.NORMAL,
                           f"{COLOUR_NAMES[mover]} connected only the opponent's stones")
        if not self._per_ply(self._find_moves):
            return Outcome(mover, Termination.NORMAL, f"{COLOUR_NAMES[mover ^ 1]} cannot move")
        return None

    def noisy_moves(self) -> list[int]:
        """The phase-2 moves that join all the mover's stones (they end the game), so that the
        quiescence search sees a connection threat just past its depth limit.

        A move joins the stones only if the stone lands next to one of the others, and only
        when those form at most four groups (a point has four neighbours): cheap tests that
        spare most connectivity checks.
        """
        if self.phase != MOVING:
            return []
        table = self.table
        own = self.stones[self.to_move]
        if own.bit_count() > 1 and groups(own, table) > 5:
            return []
        opponent = self.stones[self.to_move ^ 1]
        joining = []
        for move in self._generate():
            origin, target = move >> SHIFT & LOW, move & LOW
            rest = own ^ 1 << origin
            if rest and not table.orth[target] & rest:
                continue
            after = rest if opponent >> target & 1 else rest | 1 << target
            if is_connected(after, table):
                joining.append(move)
        return joining

    # --- text --------------------------------------------------------------------------------

    def move_text(self, move: int) -> str:
        cols = self.table.cols
        if move < PAIR:
            return square_name(move, cols)
        if move < MOVE:
            return f"{square_name(move >> SHIFT & LOW, cols)}+{square_name(move & LOW, cols)}"
        origin, target = move >> SHIFT & LOW, move & LOW
        capture = bool(self.stones[self.to_move ^ 1] >> target & 1)
        return from_to_text(origin, target, capture, cols)

    def parse_move(self, text: str) -> int:
        cols, rows = self.table.cols, self.table.rows
        word = text.strip().lower()
        if "+" in word:
            parts = word.split("+")
            if len(parts) != 2:
                raise MoveSyntaxError(f"{text!r} is not a move (expected two points, like d5+b2)")
            first, second = (parse_square(part, cols, rows) for part in parts)
            move = PAIR | first << SHIFT | second
        elif len(word) <= 3:
            move = parse_square(word, cols, rows)
        else:
            origin, target = parse_from_to(word, cols, rows)
            move = MOVE | origin << SHIFT | target
        return self._legal(move, word)

    def _why_illegal(self, move: int) -> str:
        """One line saying why a well-formed move is not legal, for the error message."""
        if (move < MOVE) != (self.phase == PLACING):
            return ("stones are placed in phase 1" if self.phase == PLACING
                    else "stones are moved in phase 2")
        if move >= MOVE:
            return self._why_illegal_route(move >> SHIFT & LOW, move & LOW)
        return self._why_illegal_placement(move)

    def _why_illegal_placement(self, move: int) -> str:
        table = self.table
        occupied = self.stones[0] | self.stones[1]
        first = move if move < PAIR else move >> SHIFT & LOW
        if not occupied:
            return "white's first turn is a single stone"
        last = square_name(self.last, table.cols)
        if occupied >> first & 1:
            return f"{square_name(first, table.cols)} is occupied"
        if not table.orth[self.last] >> first & 1:
            return f"the first stone must go next to {last}, the opponent's last stone"
        if move < PAIR:
            return "a second stone can still be placed, so it must be"
        second = move & LOW
        lonely = table.full & ~(occupied | 1 << first) & ~table.spread(occupied | 1 << first)
        if lonely:
            return f"{square_name(second, table.cols)} must be empty with only empty neighbours"
        return f"no second stone is possible after {square_name(first, table.cols)}: place it alone"

    def _why_illegal_route(self, origin: int, target: int) -> str:
        table = self.table
        own = self.stones[self.to_move]
        if not own >> origin & 1:
            return f"no {COLOUR_NAMES[self.to_move]} stone on {square_name(origin, table.cols)}"
        empty = table.full & ~(own | self.stones[self.to_move ^ 1])
        steps = (table.orth[origin] & empty).bit_count()
        if own >> target & 1 and table.reach[origin][steps] >> target & 1:
            return "it would land on its own stone"
        return (f"a stone with {steps} empty neighbour{'s' if steps != 1 else ''} "
                f"goes exactly {steps} step{'s' if steps != 1 else ''}, and not to "
                f"{square_name(target, table.cols)}")

    # --- evaluation and display --------------------------------------------------------------

    def evaluate(self) -> int:
        """Fewer groups, more touching stones and stones closer together than the opponent's,
        and, in phase 2, the number of moves of the side to move."""
        table = self.table
        own, opponent = self.stones[self.to_move], self.stones[self.to_move ^ 1]
        score = (WEIGHT_GROUP * (_group_count(opponent, table) - _group_count(own, table))
                 + WEIGHT_CONTACT * (_contacts(own, table) - _contacts(opponent, table))
                 + int(WEIGHT_SPREAD * (_spread(opponent, table) - _spread(own, table))))
        if self.phase == MOVING:
            score += WEIGHT_MOBILITY * len(self._generate())
        return score

    def key(self) -> tuple[int, int, int, int, int]:
        last = self.last if self.phase == PLACING else -1
        return self.stones[0], self.stones[1], self.to_move, self.phase, last

    def diagram(self) -> str:
        black, white = self.stones
        cols, rows = self.table.cols, self.table.rows
        if self.phase == MOVING:
            phase = "phase 2 (moving)"
        elif self.last < 0:
            phase = "phase 1 (placing), no stone placed yet"
        else:
            phase = (f"phase 1 (placing), last stone placed: {square_name(self.last, cols)} "
                     f"({COLOUR_NAMES[self.to_move ^ 1]})")
        legend = f"X black, O white; {phase}; {COLOUR_NAMES[self.to_move]} to move"
        return render(cols, rows, two_colour_cells(black, white), legend)

    def step_prompt(self, made: str, following: list[str]) -> str:
        """Argon's placements in its own words (see :meth:`Position.step_prompt`); a stone's
        move is a piece's."""
        if self.phase != PLACING:
            return super().step_prompt(made, following)
        if made:
            return "place a second stone on a point whose neighbours are all empty"
        if self.last < 0:
            return "place a stone"
        return (f"place a stone next to the last one {COLOUR_NAMES[self.to_move ^ 1]} placed "
                f"({square_name(self.last, self.table.cols)})")

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: a board of plain squares with black and
        white stones."""
        from ..drawing import bitboard_pieces, square_board
        square_board(canvas, self.table.cols, self.table.rows, light="#dfe6ea", dark=None)
        for colour, bits in enumerate(self.stones):
            bitboard_pieces(canvas, bits, colour)


def _group_count(bits: int, table: Tables) -> int:
    return groups(bits, table) if bits else 1


def _spread(bits: int, table: Tables) -> float:
    """The mean distance (in steps) of the stones of ``bits`` from their centre of mass."""
    count = bits.bit_count()
    if count < 2:
        return 0.0
    cols = table.cols
    files = [point % cols for point in squares_of(bits)]
    ranks = [point // cols for point in squares_of(bits)]
    centre_file, centre_rank = sum(files) / count, sum(ranks) / count
    return sum(abs(f - centre_file) + abs(r - centre_rank) for f, r in zip(files, ranks)) / count


def _contacts(bits: int, table: Tables) -> int:
    """Pairs of orthogonally touching stones of ``bits``."""
    return ((bits & (bits >> table.cols)).bit_count()
            + (bits & (bits >> 1) & table.not_last_file).bit_count())
