"""Clobber (SPEC 2.4; the Clobber rules of
rules/icga-loa-breakthrough-clobber-domineering-knightthrough-surakarta.txt).

Board: 10x10 by default, any size from 1x1 to 26x26 (columns x rows). It starts full, as a
chequerboard: black on a1 and every square of a1's colour, white on the others. Black moves
first.
A move takes one of the mover's stones onto an orthogonally adjacent opponent stone, which is
removed. The player who cannot move loses.

Notation: every move is a capture, ``b2xb3``; on input ``b2-b3`` and ``b2b3`` are read too.

Representation: square ``rank * cols + file``; a move is the integer ``origin << 10 | target``.
The rules (moves, captures, the end) work on each colour's stones held as *words*: a list of
integers of at most 62 bits each (:attr:`BoardTables.word_bits`, whole ranks), so that no value
in a ply reaches 2**63: PyPy keeps such integers in machine words and larger ones as slow big
integers (CPython runs both alike), and on the default 10x10 board this makes its playouts
several times faster. The evaluation and the endgame solver read each colour as one integer
bitboard, bit ``square`` (up to 676 bits), joined from the words when asked for
(:attr:`ClobberPosition.pieces`). The masks that keep shifts from wrapping round a board edge
are built once per board size (:func:`board_tables`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..cgt import (NEGATIVE, POSITIVE, RegionRules, Regions, Shape, SumSolver, board_cells,
                   components, split_cells)
from ..core import BLACK, COLOUR_NAMES, Advantage, Game, Outcome, Position, Termination
from ..grid import from_to_text, parse_from_to, render, square_name, two_colour_cells

DEFAULT_SIZE = (10, 10)
TARGET_BITS = 10  # 26 x 26 = 676 squares fit in 10 bits
TARGET_MASK = (1 << TARGET_BITS) - 1
# A move ``origin << 10 | origin + step`` is ``origin * MOVE_FACTOR + step``.
MOVE_FACTOR = (1 << TARGET_BITS) + 1
# Evaluation weights: a stone in a region where both colours still meet is in play; a stone
# touching an opponent stone can move now.
WEIGHT_IN_PLAY = 3
WEIGHT_ACTIVE = 1
# A region won by one side whoever starts there (value > 0 or < 0) is worth this much more.
WEIGHT_WON = 8
# Regions of up to REGION_LIMIT stones are solved exactly (and cached by shape); the evaluation
# solves the whole position once its undecided regions hold SOLVE_LIMIT stones or fewer, and
# ``solve`` (the root's exact endgame solver, stopped by the clock) tries up to ROOT_SOLVE_LIMIT.
REGION_LIMIT = 10
DECOMPOSE_LIMIT = 60  # with more stones in play, the regions are not told apart (it costs)
SOLVE_LIMIT = 16
ROOT_SOLVE_LIMIT = 40
SOLVED = 100_000  # the evaluation of a position solved exactly, plus the heuristic
# The evaluation's exact work is capped: a region or a sum needing more new searched positions
# than this counts as unsolved there. A search's hard limit stops it as well (bounded_by).
EVAL_NODES = 400
class ClobberRules(RegionRules):
    """Clobber regions: ``kind`` is the stone's colour. A region is live while a black and a
    white stone touch in it; a region where none do is over (worth 0)."""

    symmetries = (lambda x, y: (x, y), lambda x, y: (-x, y), lambda x, y: (x, -y),
                  lambda x, y: (-x, -y), lambda x, y: (y, x), lambda x, y: (-y, x),
                  lambda x, y: (y, -x), lambda x, y: (-y, -x))

    def options(self, shape, colour):
        board = {(x, y): kind for x, y, kind in shape}
        for (x, y), kind in board.items():
            if kind != colour:
                continue
            for target in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if board.get(target, colour) == colour:
                    continue
                after = dict(board)
                del after[(x, y)]
                after[target] = colour
                yield self._live(after)

    def _live(self, board: dict) -> list[Shape]:
        regions = []
        for part in split_cells(set(board)):
            if any(board.get((x + 1, y), kind) != kind or board.get((x, y + 1), kind) != kind
                   for x, y in part for kind in (board[(x, y)],)):
                regions.append(self.normal([(x, y, board[(x, y)]) for x, y in part]))
        return regions

    def _negated(self, shape):
        return self.normal([(x, y, kind ^ 1) for x, y, kind in shape])


CLOBBER = ClobberRules()
SOLVER = SumSolver(CLOBBER, REGION_LIMIT)
REGIONS = Regions(SOLVER, DECOMPOSE_LIMIT, ROOT_SOLVE_LIMIT, EVAL_NODES)

# A one-bit word ``1 << k`` (k < 66) is told from the others by its remainder modulo 67 (2 is a
# primitive root of the prime 67): a table look-up, where PyPy's ``bit_length`` loops over bits.
BIT_MODULUS = 67
# Every word is below this. PyPy keeps a value computed from a big integer as a big integer
# even when it is small (``big & mask``, ``big >> n``); ``% WORD_LIMIT`` makes it a machine word
# (2**63 itself is a big integer there, so it would not do).
WORD_LIMIT = 1 << 62


class BoardTables(NamedTuple):
    """The per-size constants of a Clobber board: whole-board masks, and those of its words.

    Words hold ``word_bits // cols`` ranks each (the last one may hold fewer); a colour's word
    list has a 0 at each end, so that word ``i`` (from 1) always has a word below and above it.
    """

    cols: int
    rows: int
    full: int
    not_first_file: int  # squares with a square to their west
    not_last_file: int  # squares with a square to their east
    start_black: int
    start_white: int
    word_bits: int
    words: range  # the indices of the words that hold squares: 1 to the number of words
    word_not_first_file: int  # the masks above for one word
    word_not_last_file: int
    first_rank: int  # a word's lowest rank
    places: tuple[tuple[int, int], ...]  # per square: (the index of its word, its bit there)
    move_bases: tuple[tuple[int, ...], ...]  # per word: one-bit word % 67 -> square * MOVE_FACTOR


@lru_cache(maxsize=None)
def board_tables(cols: int, rows: int) -> BoardTables:
    """The masks and start position of a ``cols`` x ``rows`` board, built once per size."""
    full = (1 << (cols * rows)) - 1
    first_file = sum(1 << (rank * cols) for rank in range(rows))
    last_file = first_file << (cols - 1)
    black = sum(1 << (rank * cols + file)
                for rank in range(rows) for file in range(cols) if (rank + file) % 2 == 0)
    # A word shifted up by a rank must stay below 2**63 (so a word has at most 62 bits).
    word_ranks = max(1, 63 // cols - 1)
    word_bits = word_ranks * cols
    count = -(-rows // word_ranks)
    word_full = (1 << word_bits) - 1
    word_first_file = (first_file & word_full) % WORD_LIMIT
    places = tuple((square // word_bits + 1, 1 << square % word_bits)
                   for square in range(cols * rows))
    bases = [[0] * BIT_MODULUS for _ in range(count + 2)]
    for square, (word, bit) in enumerate(places):
        bases[word][bit % BIT_MODULUS] = square * MOVE_FACTOR
    return BoardTables(cols, rows, full, full ^ first_file, full ^ last_file, black, full ^ black,
                       word_bits, range(1, count + 1), word_full ^ word_first_file,
                       word_full ^ (word_first_file << (cols - 1)), (1 << cols) - 1, places,
                       tuple(map(tuple, bases)))


def to_words(bits: int, tables: BoardTables) -> list[int]:
    """The words of a bitboard, with a 0 at each end (see :class:`BoardTables`)."""
    size, mask = tables.word_bits, (1 << tables.word_bits) - 1
    words = [(bits >> (size * (word - 1)) & mask) % WORD_LIMIT for word in tables.words]
    return [0] + words + [0]


def from_words(words: list[int], tables: BoardTables) -> int:
    """The bitboard held by ``words`` (:func:`to_words`'s inverse)."""
    size = tables.word_bits
    return sum(words[word] << (size * (word - 1)) for word in tables.words)


def touching(black: list[int], white: list[int], tables: BoardTables) -> bool:
    """Whether some black stone is orthogonally adjacent to a white one, given their words."""
    cols, first_rank = tables.cols, tables.first_rank
    top = tables.word_bits - cols  # the shift from a word's lowest rank to its highest
    sideways = tables.word_not_last_file
    for word in tables.words:
        own, other = black[word], white[word]
        if (own & ((other >> 1) & sideways | (other >> cols) | (other << cols))
                or other & (own >> 1) & sideways
                or own & (white[word + 1] & first_rank) << top
                or other & (black[word + 1] & first_rank) << top):
            return True
    return False


def neighbours(stones: int, tables: BoardTables) -> int:
    """Every square orthogonally adjacent to a square of ``stones``."""
    cols = tables.cols
    return (((stones >> 1) & tables.not_last_file) | ((stones << 1) & tables.not_first_file)
            | (stones >> cols) | ((stones << cols) & tables.full))


def contact(own: int, opponent: int, tables: BoardTables) -> int:
    """The stones of ``own`` with at least one orthogonally adjacent stone of ``opponent``."""
    return own & neighbours(opponent, tables)


def in_play(black: int, white: int, tables: BoardTables) -> int:
    """The stones of both colours in regions (orthogonally connected groups of stones) where
    a black and a white stone still touch; every other region is settled and moves no more."""
    stones = black | white
    region = contact(black, white, tables) | contact(white, black, tables)
    while True:
        grown = (region | neighbours(region, tables)) & stones
        if grown == region:
            return region
        region = grown


def live_regions(black: int, white: int, tables: BoardTables) -> list[int]:
    """The regions (orthogonally connected groups of stones) where a black and a white stone
    still touch, one bitboard each; the same stones as :func:`in_play`, split."""
    touching = contact(black, white, tables) | contact(white, black, tables)
    return components(black | white, lambda stones: neighbours(stones, tables), touching)


def region_shape(black: int, white: int, region: int, cols: int):
    """The normalised :data:`engine.cgt.Shape` of ``region`` (kind 0 black, 1 white)."""
    return REGIONS.shape((cols, black & region, white & region),
                         lambda: CLOBBER.normal(board_cells(region, cols, (black, white))))


def open_regions(black: int, white: int, tables: BoardTables) -> list:
    """The live regions not known to be worth 0, each as ``(bitboard, outcome class)``; the
    class is ``None`` for a region too big to solve. Cached per position; while more than
    :data:`DECOMPOSE_LIMIT` stones are in play, all of them make one region."""
    return REGIONS.open((tables.cols, black, white), lambda: in_play(black, white, tables),
                        lambda playing: live_regions(black, white, tables),
                        lambda region: region_shape(black, white, region, tables.cols))


class Clobber(Game):
    """Clobber on a board of 1x1 to 26x26."""

    name = "clobber"
    title = "Clobber"
    spec_section = "2.4"
    clear_advantage = Advantage(15, "five more stones in play (3 each)")
    first_player = BLACK
    default_size = DEFAULT_SIZE
    size_limits = (1, 26, 1, 26)

    def initial_position(self) -> ClobberPosition:
        tables = board_tables(self.cols, self.rows)
        return ClobberPosition(self, tables.start_black, tables.start_white)


class ClobberPosition(Position):
    """A Clobber position: two bitboards and the side to move.

    Any setup can be given as the two bitboards (tests build positions this way).
    """

    has_evaluation = True
    typical_plies = 60

    def __init__(self, game: Game, black: int, white: int, to_move: int = BLACK) -> None:
        super().__init__(game)
        self.tables = board_tables(game.cols, game.rows)
        self.words = [to_words(black, self.tables), to_words(white, self.tables)]
        self.to_move = to_move
        self._start()

    @property
    def pieces(self) -> tuple[int, int]:
        """The black and the white stones, each as one bitboard."""
        return from_words(self.words[0], self.tables), from_words(self.words[1], self.tables)

    def _copy_state(self, other: ClobberPosition) -> None:
        other.words = [list(words) for words in self.words]

    def _generate(self) -> list[int]:
        own = self.words[self.to_move]
        opponent = self.words[self.to_move ^ 1]
        tables = self.tables
        cols, bases, first_rank = tables.cols, tables.move_bases, tables.first_rank
        words, east, west = tables.words, tables.word_not_last_file, tables.word_not_first_file
        top = tables.word_bits - cols  # the shift from a word's lowest rank to its highest
        moves = []
        append = moves.append
        # For each direction, word by word: the stones whose neighbour that way is an
        # opponent stone (in the word above or below, across a word's edge), lowest first,
        # each found by its bit's remainder modulo 67 (see BIT_MODULUS).
        for word in words:
            origins, row = own[word] & (opponent[word] >> 1) & east, bases[word]
            while origins:
                low = origins & -origins
                origins ^= low
                append(row[low % BIT_MODULUS] + 1)
        for word in words:
            origins, row = own[word] & (opponent[word] << 1) & west, bases[word]
            while origins:
                low = origins & -origins
                origins ^= low
                append(row[low % BIT_MODULUS] - 1)
        for word in words:
            above = (opponent[word + 1] & first_rank) << top
            origins, row = own[word] & ((opponent[word] >> cols) | above), bases[word]
            while origins:
                low = origins & -origins
                origins ^= low
                append(row[low % BIT_MODULUS] + cols)
        for word in words:
            below = opponent[word - 1] >> top
            origins, row = own[word] & ((opponent[word] << cols) | below), bases[word]
            while origins:
                low = origins & -origins
                origins ^= low
                append(row[low % BIT_MODULUS] - cols)
        return moves

    def _apply(self, move: int) -> None:
        own, places = self.words[self.to_move], self.tables.places
        word, bit = places[move >> TARGET_BITS]
        own[word] ^= bit
        word, bit = places[move & TARGET_MASK]
        own[word] ^= bit
        self.words[self.to_move ^ 1][word] ^= bit

    def _revert(self, move: int, undo: None) -> None:
        self._apply(move)

    def _judge(self, move) -> Outcome | None:
        # A move exists for one side exactly when a black stone touches a white one, and then
        # for both sides: so the side to move loses exactly when no two opposite stones touch.
        if touching(self.words[0], self.words[1], self.tables):
            return None
        loser = self.to_move
        return Outcome(loser ^ 1, Termination.NORMAL, f"{COLOUR_NAMES[loser]} has no move")

    def move_text(self, move: int) -> str:
        return from_to_text(move >> TARGET_BITS, move & TARGET_MASK, True, self.tables.cols)

    def parse_move(self, text: str) -> int:
        cols, rows = self.tables.cols, self.tables.rows
        origin, target = parse_from_to(text, cols, rows)
        move = origin << TARGET_BITS | target
        return self._legal(move, text.strip().lower(), origin, target)

    def _why_illegal(self, origin: int, target: int) -> str:
        """One line saying why a from-to move is not legal, for the error message."""
        cols = self.tables.cols
        colour = COLOUR_NAMES[self.to_move]
        if not self.pieces[self.to_move] >> origin & 1:
            return f"no {colour} stone on {square_name(origin, cols)}"
        if abs(origin - target) not in (1, cols) or (
                abs(origin - target) == 1 and origin // cols != target // cols):
            return "a stone moves to an orthogonally adjacent square"
        return f"no {COLOUR_NAMES[self.to_move ^ 1]} stone on {square_name(target, cols)} to take"

    def evaluate(self) -> int:
        """Stones in play and active stones (touching an opponent stone) of the side to move
        minus the opponent's, counted in the regions not yet known to be worth 0, plus
        :data:`WEIGHT_WON` per region won whoever starts there; ``±SOLVED`` more once the
        position is small enough to solve exactly (:data:`SOLVE_LIMIT`).

        Both sides always have the same number of moves, so plain mobility says nothing here.
        What wins the race for the last move is keeping one's own stones in play and cutting
        the opponent's off in regions of their own colour, where they can never move again;
        a region whose value is 0 (the second player wins it) changes nothing in a sum.
        """
        mover = self.to_move
        pieces = self.pieces
        tables = self.tables
        regions = open_regions(*pieces, tables)
        playing = won = 0
        for region, outcome in regions:
            playing |= region
            won += (outcome == POSITIVE) - (outcome == NEGATIVE)
        own = pieces[mover] & playing
        opponent = pieces[mover ^ 1] & playing
        active = (contact(own, opponent, tables).bit_count()
                  - contact(opponent, own, tables).bit_count())
        score = (WEIGHT_IN_PLAY * (own.bit_count() - opponent.bit_count())
                 + WEIGHT_ACTIVE * active + WEIGHT_WON * (won if mover == BLACK else -won))
        if playing.bit_count() <= SOLVE_LIMIT:
            solved = self._sum_wins(regions, EVAL_NODES)
            if solved is not None:
                score += SOLVED if solved else -SOLVED
        return score

    def search_moves(self) -> list[int]:
        """The moves in regions not known to be worth 0, those in regions still undecided or
        won by whoever starts first (the hot ones); every move when there are no others."""
        moves = self.legal_moves()
        hot, cold = Regions.hot_and_cold(open_regions(*self.pieces, self.tables))
        first = [move for move in moves if hot >> (move >> TARGET_BITS) & 1]
        second = [move for move in moves if cold >> (move >> TARGET_BITS) & 1]
        return first + second or moves

    def solve(self, stop=None) -> bool | None:
        """Exact, by :class:`engine.cgt.SumSolver`, once the regions not known to be worth 0
        hold :data:`ROOT_SOLVE_LIMIT` stones or fewer."""
        if self.outcome is not None:
            return self.outcome.winner == self.to_move
        return REGIONS.solve(open_regions(*self.pieces, self.tables), self._shape_of,
                             self.to_move, stop)

    def bounded_by(self, stop):
        """The solver's work (in the evaluation, the move ordering and :meth:`solve`) stops
        with :class:`engine.core.OutOfBudget` once ``stop()`` is true."""
        return SOLVER.stopping(stop)

    def _sum_wins(self, regions: list, nodes: int | None = None) -> bool | None:
        return REGIONS.sum_wins(regions, self._shape_of, self.to_move, nodes)

    def _shape_of(self, region: int):
        return region_shape(*self.pieces, region, self.tables.cols)

    def key(self) -> tuple[int, ...]:
        return (*self.words[0], *self.words[1], self.to_move)

    def diagram(self) -> str:
        black, white = self.pieces
        cell = two_colour_cells(black, white)

        tables = self.tables
        legend = f"X black, O white; {COLOUR_NAMES[self.to_move]} to move"
        return render(tables.cols, tables.rows, cell, legend)

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: a chequerboard with black and white stones."""
        from ..drawing import bitboard_pieces, square_board
        square_board(canvas, self.tables.cols, self.tables.rows)
        for colour, bits in enumerate(self.pieces):
            bitboard_pieces(canvas, bits, colour)
