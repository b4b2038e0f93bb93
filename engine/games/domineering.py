"""Domineering (SPEC 2.5; the Domineering rules of
rules/icga-loa-breakthrough-clobber-domineering-knightthrough-surakarta.txt).

Board: 8x8 by default, any size from 1x1 to 26x26 (columns x rows); it starts empty. Black
moves first and places dominoes vertically, white horizontally; each domino covers two empty
squares. The player who cannot place a domino loses.

Notation: the two squares, lower or left first: ``c3-c4`` (black), ``c3-d3`` (white). On input
the single square ``c3`` stands for the domino whose lower or left square it is (the
orientation is the mover's), and the two squares may come in either order, joined by ``-``,
``x`` or nothing.

Representation: one Python integer bitboard per colour of the squares its dominoes cover, bit
``rank * cols + file`` (up to 676 bits). A move is the index of the domino's lower (black) or
left (white) square; the side to move gives the orientation. The edge masks are built once per
board size (:func:`board_tables`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..cgt import (CACHE_LIMIT, NEGATIVE, POSITIVE, RegionRules, Regions, Shape, SumSolver,
                   board_cells, components, split_cells)
from ..core import (BLACK, COLOUR_NAMES, WHITE, Advantage, Game, IllegalMoveError, Outcome,
                    Position, Termination)
from ..grid import parse_from_to, parse_square, render, square_name, two_colour_cells

DEFAULT_SIZE = (8, 8)
ORIENTATION = ("vertical", "horizontal")
# Evaluation weights, in tenths of a move: the places each side has (overlapping), the dominoes
# it could still fit without overlaps (its capacity), and its safe moves (dominoes the opponent
# can never spoil), plus the turn. Fitted by logistic regression on positions of 34 to 42 open
# squares solved exactly (scripts/fit_domineering.py): on held-out positions they predict the
# winner in 87 % of cases, the earlier weights (places 1, safe 3, turn 1) in 84 %.
WEIGHT_MOVES = 4
WEIGHT_CAPACITY = 11
WEIGHT_SAFE = 5
TEMPO = 17
# A region won by one side whoever starts there (value > 0 or < 0) is worth this much more.
WEIGHT_WON = 2
# Regions of up to REGION_LIMIT empty squares are solved exactly (and cached by shape); the
# evaluation solves the whole position once its undecided regions hold SOLVE_LIMIT squares or
# fewer, and ``solve`` (the root's exact endgame solver, stopped by the clock) tries up to
# ROOT_SOLVE_LIMIT. With more than DECOMPOSE_LIMIT empty squares in play the regions are not
# told apart (it costs more than it tells that early).
REGION_LIMIT = 12
SOLVE_LIMIT = 14
ROOT_SOLVE_LIMIT = 44
DECOMPOSE_LIMIT = 44
SOLVED = 100_000  # the evaluation of a position solved exactly, plus the heuristic
# The evaluation's exact work is capped: a region or a sum needing more new searched positions
# than this counts as unsolved there. A search's hard limit stops it as well (bounded_by).
EVAL_NODES = 400
def outright_winner(capacity, safe, to_move: int) -> int | None:
    """The winner when one side's safe moves alone outlast every move the other can still make
    (``capacity`` and ``safe`` indexed by side), else ``None``.

    Playing only its safe moves, a side makes as many moves as it has safe ones whatever the
    other does, and the other makes at most its capacity; the side to move needs one move more
    than the other can make, the other side as many."""
    other = to_move ^ 1
    if safe[to_move] > capacity[other]:
        return to_move
    if safe[other] >= capacity[to_move]:
        return other
    return None


class DomineeringRules(RegionRules):
    """Domineering regions of empty squares (``kind`` 0): Left (black) covers two squares one
    above the other, Right (white) two side by side. Turning a region a quarter turn swaps the
    roles, so its negative is its transpose."""

    symmetries = (lambda x, y: (x, y), lambda x, y: (-x, y), lambda x, y: (x, -y),
                  lambda x, y: (-x, -y))

    def __init__(self) -> None:
        super().__init__()
        self._counts: dict[Shape, tuple] = {}

    def options(self, shape, colour):
        empty = {(x, y) for x, y, _ in shape}
        step = (0, 1) if colour == 0 else (1, 0)
        for x, y in empty:
            other = (x + step[0], y + step[1])
            if other in empty:
                yield self._live(empty - {(x, y), other})

    def _live(self, empty: set) -> list[Shape]:
        return [self.normal([(x, y, 0) for x, y in part])
                for part in split_cells(empty) if len(part) > 1]

    def _negated(self, shape):
        return self.normal([(y, x, kind) for x, y, kind in shape])

    def bound(self, shapes, colour):
        """Decided when one side's safe moves (dominoes the other can never spoil, without
        overlaps) outlast every domino the other could still fit: the count Bullock's Obsequi
        prunes with. Both counts add up over regions."""
        capacity, safe = self._sums(shapes)
        winner = outright_winner(capacity, safe, colour)
        return None if winner is None else winner == colour

    def promise(self, shapes, colour):
        """The other side's capacity and safe moves less the mover's."""
        capacity, safe = self._sums(shapes)
        other = colour ^ 1
        return capacity[other] + safe[other] - capacity[colour] - safe[colour]

    def _sums(self, shapes) -> tuple[list[int], list[int]]:
        """Capacity and safe moves of each side over the regions ``shapes`` (cached per
        shape)."""
        capacity, safe = [0, 0], [0, 0]
        for shape in shapes:
            found = self._counts.get(shape)
            if found is None:
                if len(self._counts) > CACHE_LIMIT:
                    self._counts.clear()
                found = self._counts[shape] = shape_counts(shape)
            for side in (0, 1):
                capacity[side] += found[0][side]
                safe[side] += found[1][side]
        return capacity, safe


def shape_counts(shape) -> tuple[tuple, tuple]:
    """Capacity and safe moves of each side in a region's shape (its cells at the origin):
    :func:`counts` on a board just big enough to hold it."""
    cols = max(x for x, _, _ in shape) + 1
    rows = max(y for _, y, _ in shape) + 1
    empty = sum(1 << (y * cols + x) for x, y, _ in shape)
    _, capacity, safe = counts(empty, board_tables(cols, rows))
    return capacity, safe


DOMINEERING = DomineeringRules()
SOLVER = SumSolver(DOMINEERING, REGION_LIMIT)
REGIONS = Regions(SOLVER, DECOMPOSE_LIMIT, ROOT_SOLVE_LIMIT, EVAL_NODES)


class BoardTables(NamedTuple):
    """The per-size constants of a Domineering board."""

    cols: int
    rows: int
    full: int
    not_last_file: int  # squares with a square to their east


@lru_cache(maxsize=None)
def board_tables(cols: int, rows: int) -> BoardTables:
    """The masks of a ``cols`` x ``rows`` board, built once per size."""
    full = (1 << (cols * rows)) - 1
    last_file = sum(1 << (rank * cols + cols - 1) for rank in range(rows))
    return BoardTables(cols, rows, full, full ^ last_file)


def vertical_slots(empty: int, tables: BoardTables) -> int:
    """The lower squares of every vertical domino that fits on the ``empty`` squares."""
    return empty & (empty >> tables.cols)


def horizontal_slots(empty: int, tables: BoardTables) -> int:
    """The left squares of every horizontal domino that fits on the ``empty`` squares."""
    return empty & (empty >> 1) & tables.not_last_file


def disjoint_runs(slots: int, step: int) -> int:
    """How many non-overlapping dominoes fit in ``slots`` (lower or left squares, each domino
    reaching ``step`` further): a run of k overlapping slots holds ceil(k / 2)."""
    chosen = slots & ~(slots << step)  # the first slot of every run
    # A shift off the end of a rank lands on a first slot of the next rank: leave those out.
    later = slots ^ chosen
    count = 0
    while chosen:
        count += chosen.bit_count()
        chosen = (chosen << 2 * step) & later
    return count


def neighbours(squares: int, tables: BoardTables) -> int:
    """Every square orthogonally adjacent to a square of ``squares``."""
    cols = tables.cols
    not_first_file = (tables.not_last_file << 1) & tables.full
    return (((squares >> 1) & tables.not_last_file) | ((squares << 1) & not_first_file)
            | (squares >> cols) | ((squares << cols) & tables.full))


def counts(empty: int, tables: BoardTables) -> tuple[tuple, tuple, tuple]:
    """Each side's places (dominoes that fit now, overlapping), capacity (the most dominoes
    it could still fit at once, without overlaps) and safe moves (non-overlapping dominoes the
    opponent can never spoil: no opponent domino fits over either square) on ``empty``, each
    a pair indexed by colour."""
    vertical = vertical_slots(empty, tables)
    horizontal = horizontal_slots(empty, tables)
    vertical_reach = vertical | vertical << tables.cols
    horizontal_reach = horizontal | horizontal << 1
    safe_vertical = vertical & ~horizontal_reach & ~(horizontal_reach >> tables.cols)
    safe_horizontal = horizontal & ~vertical_reach & ~(vertical_reach >> 1)
    return ((vertical.bit_count(), horizontal.bit_count()),
            (disjoint_runs(vertical, tables.cols), disjoint_runs(horizontal, 1)),
            (disjoint_runs(safe_vertical, tables.cols), disjoint_runs(safe_horizontal, 1)))


def region_shape(region: int, cols: int):
    """The normalised :data:`engine.cgt.Shape` of the empty squares ``region``, cached."""
    return REGIONS.shape((cols, region),
                         lambda: DOMINEERING.normal(board_cells(region, cols, (region,))))


def playing_squares(empty: int, tables: BoardTables) -> int:
    """The ``empty`` squares on which a domino of either side still fits."""
    vertical = vertical_slots(empty, tables)
    horizontal = horizontal_slots(empty, tables)
    return vertical | vertical << tables.cols | horizontal | horizontal << 1


def open_regions(empty: int, tables: BoardTables) -> list:
    """The regions (orthogonally connected empty squares) where a domino still fits and that
    are not known to be worth 0, each as ``(bitboard, outcome class)``; the class is ``None``
    for a region too big to solve. Cached per position; while more than
    :data:`DECOMPOSE_LIMIT` squares are in play, all of them make one region."""
    return REGIONS.open(
        (tables.cols, empty), lambda: playing_squares(empty, tables),
        lambda playing: components(empty, lambda squares: neighbours(squares, tables), playing),
        lambda region: region_shape(region, tables.cols))


def open_summary(regions: list) -> tuple[int, int]:
    """The squares of the :func:`open_regions` ``regions``, and how many of them black wins
    whoever starts less how many white does."""
    empty = won = 0
    for region, outcome in regions:
        empty |= region
        won += (outcome == POSITIVE) - (outcome == NEGATIVE)
    return empty, won


class Domineering(Game):
    """Domineering on a board of 1x1 to 26x26."""

    name = "domineering"
    title = "Domineering"
    spec_section = "2.5"
    clear_advantage = Advantage(15, "fifteen more moves, or five safe moves (3 each)")
    first_player = BLACK
    default_size = DEFAULT_SIZE
    size_limits = (1, 26, 1, 26)

    def initial_position(self) -> DomineeringPosition:
        return DomineeringPosition(self)


class DomineeringPosition(Position):
    """A Domineering position: the squares covered by each side's dominoes, the side to move.

    Any setup can be given as the two bitboards (tests build positions this way); each must be
    made of whole dominoes for the diagram to make sense, but the rules only look at their union.
    """

    has_evaluation = True
    # A game lasts about 30 plies, but the exact solver takes over at about 44 empty squares,
    # the twelfth ply, and plays the rest at once: the time is planned over the first 12 plies,
    # where the game is decided (planned over 20, with ten moves always to go, the engine used
    # about 3 s of its 5.6 s a game against the 10x-time UCT at 3 s + 0.2 s a move).
    typical_plies = 12
    least_moves_to_go = 4

    def __init__(self, game: Game, black: int = 0, white: int = 0, to_move: int = BLACK) -> None:
        super().__init__(game)
        self.tables = board_tables(game.cols, game.rows)
        self.covered = [black, white]
        self.to_move = to_move
        self._start()

    def _copy_state(self, other: DomineeringPosition) -> None:
        other.covered = list(self.covered)

    def _empty(self) -> int:
        return self.tables.full & ~(self.covered[0] | self.covered[1])

    def _slots(self, colour: int) -> int:
        """The lower or left squares of every domino ``colour`` could place now."""
        if colour == BLACK:
            return vertical_slots(self._empty(), self.tables)
        return horizontal_slots(self._empty(), self.tables)

    def _domino(self, square: int, colour: int) -> int:
        """The two squares of ``colour``'s domino whose lower or left square is ``square``."""
        return (1 | 1 << (self.tables.cols if colour == BLACK else 1)) << square

    def _generate(self) -> list[int]:
        slots = self._slots(self.to_move)
        moves = []
        while slots:
            low = slots & -slots
            slots ^= low
            moves.append(low.bit_length() - 1)
        return moves

    def _apply(self, move: int) -> None:
        self.covered[self.to_move] ^= self._domino(move, self.to_move)

    def _revert(self, move: int, undo: None) -> None:
        self._apply(move)

    def _judge(self, move) -> Outcome | None:
        if self._slots(self.to_move):
            return None
        loser = self.to_move
        return Outcome(loser ^ 1, Termination.NORMAL,
                       f"{COLOUR_NAMES[loser]} cannot place a {ORIENTATION[loser]} domino")

    def move_text(self, move: int) -> str:
        cols = self.tables.cols
        other = move + (cols if self.to_move == BLACK else 1)
        return f"{square_name(move, cols)}-{square_name(other, cols)}"

    def parse_move(self, text: str) -> int:
        cols, rows = self.tables.cols, self.tables.rows
        word = text.strip().lower()
        two_squares = any(sign in word for sign in "-x") or len(word) > 3
        squares = sorted(parse_from_to(word, cols, rows)) if two_squares else None
        square = parse_square(word, cols, rows) if squares is None else squares[0]
        if self.outcome is not None:
            raise IllegalMoveError(f"{word}: the game is over")
        if squares is not None:
            self._check_shape(word, *squares)
        if self._slots(self.to_move) >> square & 1:
            return square
        raise IllegalMoveError(f"{word}: {self._why_illegal(square)}")

    def _check_shape(self, word: str, first: int, second: int) -> None:
        """Raise :class:`IllegalMoveError` unless ``first`` and ``second`` (the lower index
        first) make a domino in the orientation of the side to move."""
        cols = self.tables.cols
        if second - first == cols:
            orientation = BLACK
        elif second - first == 1 and second % cols:
            orientation = WHITE
        else:
            raise IllegalMoveError(f"{word}: a domino covers two orthogonally adjacent squares")
        if orientation != self.to_move:
            colour = COLOUR_NAMES[self.to_move]
            raise IllegalMoveError(
                f"{word}: {colour} places dominoes {ORIENTATION[self.to_move]}ly")

    def _why_illegal(self, square: int) -> str:
        """One line saying why the mover's domino from ``square`` cannot be placed."""
        cols, rows = self.tables.cols, self.tables.rows
        vertical = self.to_move == BLACK
        if (square // cols == rows - 1) if vertical else (square % cols == cols - 1):
            return (f"a {ORIENTATION[self.to_move]} domino from {square_name(square, cols)} "
                    "would leave the board")
        empty = self._empty()
        other = square + (cols if vertical else 1)
        taken = [square_name(s, cols) for s in (square, other) if not empty >> s & 1]
        return f"{' and '.join(taken)} {'are' if len(taken) == 2 else 'is'} already covered"

    def evaluate(self) -> int:
        """Places, capacity and safe moves of the side to move minus the opponent's, plus the
        turn (weights fitted on solved positions, see :data:`WEIGHT_MOVES`).

        A safe move is a domino place the opponent cannot spoil: neither square can be part of
        an opponent domino. Counted without overlaps, safe moves are moves a side keeps to the
        end, the usual core of a Domineering evaluation (Breuker, Uiterwijk, van den Herik);
        capacity counts every domino a side could still fit, without overlaps. When one side's
        safe moves outlast every move the other could still make, the position is won outright
        (the bound Bullock's Obsequi prunes with) and scores ``±SOLVED``.

        Only the regions not known to be worth 0 count (a 0 region changes nothing in a sum);
        a region won by one side whoever starts there adds :data:`WEIGHT_WON`, and a position
        small enough to solve exactly (:data:`SOLVE_LIMIT`) ``±SOLVED``.
        """
        tables = self.tables
        regions = open_regions(self._empty(), tables)
        empty, won = open_summary(regions)
        places, capacity, safe = counts(empty, tables)
        mover = self.to_move
        winner = outright_winner(capacity, safe, mover)
        if winner is not None:
            return SOLVED if winner == mover else -SOLVED
        score = (WEIGHT_MOVES * (places[BLACK] - places[WHITE])
                 + WEIGHT_CAPACITY * (capacity[BLACK] - capacity[WHITE])
                 + WEIGHT_SAFE * (safe[BLACK] - safe[WHITE])
                 + WEIGHT_WON * won)
        score = TEMPO + (score if mover == BLACK else -score)
        if empty.bit_count() <= SOLVE_LIMIT:
            solved = self._sum_wins(regions, EVAL_NODES)
            if solved is not None:
                score += SOLVED if solved else -SOLVED
        return score

    def search_moves(self) -> list[int]:
        """The moves in regions not known to be worth 0, those in regions still undecided or
        won by whoever starts first (the hot ones) first; every move when there are no others.

        The mover's own safe moves (dominoes the opponent can never spoil) are left out while
        it has any other: such a move takes no place from the opponent and only spends one the
        mover keeps anyway (for a region only the mover can play in, an integer, this is number
        avoidance). Checked, not proven: in every won position of the tests' random boards, and
        in 350 won positions of 28 to 32 empty squares on 6x6, 7x6, 6x7, 5x8 and 8x8 boards
        (random walks, solved exactly), a winning move remains. It saves about a tenth of the nodes
        of depth-5 searches from 40 to 52 empty squares on 8x8.
        """
        moves = self.legal_moves()
        hot, cold = Regions.hot_and_cold(open_regions(self._empty(), self.tables))
        first = [move for move in moves if hot >> move & 1]
        second = [move for move in moves if cold >> move & 1]
        spoils = self._spoils()
        first.sort(key=spoils, reverse=True)
        second.sort(key=spoils, reverse=True)
        ordered = first + second or moves
        safe = self._own_safe()
        unsafe = [move for move in ordered if not safe >> move & 1]
        return unsafe or ordered

    def _own_safe(self) -> int:
        """The lower or left squares of the mover's dominoes that no opponent domino can ever
        touch (the safe moves of :func:`counts`, overlapping ones included)."""
        tables = self.tables
        empty = self._empty()
        vertical = vertical_slots(empty, tables)
        horizontal = horizontal_slots(empty, tables)
        if self.to_move == BLACK:
            reach = horizontal | horizontal << 1
            return vertical & ~reach & ~(reach >> tables.cols)
        reach = vertical | vertical << tables.cols
        return horizontal & ~reach & ~(reach >> 1)

    def _spoils(self):
        """The static move order of Domineering programs (Bullock's Obsequi orders by such
        counts): for a move of the side to move, the places the opponent loses by it less the
        mover's own places it covers."""
        tables = self.tables
        empty = self._empty()
        vertical = vertical_slots(empty, tables)
        horizontal = horizontal_slots(empty, tables)
        if self.to_move == BLACK:
            def spoils(move: int) -> int:
                domino = (1 | 1 << tables.cols) << move
                return ((horizontal & (domino | domino >> 1)).bit_count()
                        - (vertical & (domino | domino >> tables.cols)).bit_count())
        else:
            def spoils(move: int) -> int:
                domino = 3 << move
                return ((vertical & (domino | domino >> tables.cols)).bit_count()
                        - (horizontal & (domino | domino >> 1)).bit_count())
        return spoils

    def solve(self, stop=None) -> bool | None:
        """Exact, by :class:`engine.cgt.SumSolver`, once the regions not known to be worth 0
        hold :data:`ROOT_SOLVE_LIMIT` empty squares or fewer."""
        if self.outcome is not None:
            return self.outcome.winner == self.to_move
        return REGIONS.solve(open_regions(self._empty(), self.tables), self._shape_of,
                             self.to_move, stop)

    def bounded_by(self, stop):
        """The solver's work (in the evaluation, the move ordering and :meth:`solve`) stops
        with :class:`engine.core.OutOfBudget` once ``stop()`` is true."""
        return SOLVER.stopping(stop)

    def _sum_wins(self, regions: list, nodes: int | None = None) -> bool | None:
        return REGIONS.sum_wins(regions, self._shape_of, self.to_move, nodes)

    def _shape_of(self, region: int):
        return region_shape(region, self.tables.cols)

    def key(self) -> tuple[int, int]:
        return self.covered[0] | self.covered[1], self.to_move

    def diagram(self) -> str:
        black, white = self.covered
        cell = two_colour_cells(black, white, "|-.")

        tables = self.tables
        legend = (f"| black (vertical), - white (horizontal); "
                  f"{COLOUR_NAMES[self.to_move]} to move")
        return render(tables.cols, tables.rows, cell, legend)

    def step_prompt(self, made: str, following: list[str]) -> str:
        """A domino's two squares (see :meth:`Position.step_prompt`)."""
        if made:
            return "choose the domino's second square"
        return f"choose the first square of a {ORIENTATION[self.to_move]} domino"

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: a plain board with each domino a piece, black
        vertical and white horizontal; the last one placed is outlined."""
        from ..drawing import square_board
        cols = self.tables.cols
        grid = square_board(canvas, cols, self.tables.rows, light="#e9dcc0", dark=None)
        last = grid.cells_in(canvas.last_move or "")
        for colour, step in ((BLACK, cols), (WHITE, 1)):
            # Dominoes of one orientation tile their runs from the lower or left end.
            covered = self.covered[colour]
            while covered:
                low = covered & -covered
                first = low.bit_length() - 1
                covered ^= low | low << step
                canvas.domino(first, first + step, colour, last=last == [first, first + step])
