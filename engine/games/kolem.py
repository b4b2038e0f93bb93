"""Kolem by Patrik Carpentier, 2009 (SPEC 2.7; rules/kolem.txt).

Board: 5x5, empty at the start; 9 pieces each in hand; white moves first. Neighbours are
orthogonal unless said otherwise.
Phase 1 (placing): the first two placements (white's, then black's) go anywhere; every later
one must touch an opponent piece, and afterwards no piece may have more than 3 neighbours. A
player who cannot place loses that piece from hand (the move is ``pass``). Phase 1 ends when both
hands are empty; after its 18 turns white moves first in phase 2.
Phase 2 (moving): a piece steps to one of its 8 neighbouring empty squares; afterwards it must
touch an opponent piece and no piece may have more than 3 neighbours. Then every piece of
either colour without an opponent neighbour is removed (one round is final, suicide allowed).
A player loses who cannot move in phase 2, or who has 2 pieces or fewer on the board and in
hand after any move; if a move leaves both sides there, the mover loses. Pieces can shuffle back
and forth for ever in phase 2, so the referee's move limit may end the game.

Notation: placement ``c3``, ``pass`` (only when no placement exists), step ``c3-d4`` (always
with ``-``, even when it causes removals).

Representation: one 25-bit integer per colour, bit ``rank * 5 + file``, and the number of pieces
each side holds in hand. A placement is the square (0-24), a step ``(origin + 1) << 5 | target``
(so at least 32), :data:`PASS` is -1. The crowding rule and the removals are a few shifts and
masks over the whole board.
"""

from __future__ import annotations

from ..bits import squares_of
from ..core import BLACK, COLOUR_NAMES, WHITE, Advantage, Game, Outcome, Position, Termination
from ..grid import parse_from_to, parse_square, render, square_name, two_colour_cells

SIZE = 5
SQUARES = SIZE * SIZE
FULL = (1 << SQUARES) - 1
FILE_A = sum(1 << (rank * SIZE) for rank in range(SIZE))
FILE_E = FILE_A << (SIZE - 1)
PIECES = 9
PASS = -1
STEP_BASE = 32
LOSING_COUNT = 2  # a side with this many pieces or fewer (board and hand) has lost


def orthogonal(bits: int) -> int:
    """Every square orthogonally next to a square of ``bits``."""
    return ((bits << SIZE) | (bits >> SIZE) | ((bits << 1) & ~FILE_A)
            | ((bits >> 1) & ~FILE_E)) & FULL


def crowded(occupied: int) -> int:
    """The pieces of ``occupied`` with four orthogonal neighbours (more than the 3 allowed)."""
    return (occupied & (occupied >> SIZE) & (occupied << SIZE)
            & (occupied >> 1) & ~FILE_E & (occupied << 1) & ~FILE_A)


def _king_neighbours(square: int) -> int:
    file, rank = square % SIZE, square // SIZE
    return sum(1 << (r * SIZE + f)
               for f in range(file - 1, file + 2) for r in range(rank - 1, rank + 2)
               if 0 <= f < SIZE and 0 <= r < SIZE and (f, r) != (file, rank))


ORTH = tuple(orthogonal(1 << square) for square in range(SQUARES))
KING = tuple(_king_neighbours(square) for square in range(SQUARES))

# --- evaluation weights ----------------------------------------------------------------------
WEIGHT_PIECE = 100
WEIGHT_SAFE = 12  # a piece touching two or more opponent pieces survives one of them leaving
WEIGHT_MOBILITY = 3
# In the endgame (at most ENDGAME pieces on the board) the moves that leave the opponent no
# capture count, up to SAFE_MOVES_CAP of them. The weight is tuned on the exact values of the
# 8- and 9-piece endgames (scripts/kolem_endgames.py, 1,400 won or drawn positions, 0.1 s a
# move): at 15, with 60 more off for a side to move without a safe move, the search's move kept
# the value in 78.5 % of them; at 8 and nothing for zugzwang, in 84.8 % (the search sees the
# capture that follows a zugzwang, which the penalty counted a second time).
ENDGAME = 10
WEIGHT_SAFE_MOVE = 8
SAFE_MOVES_CAP = 4


def is_step(move: int) -> bool:
    return move >= STEP_BASE


def step(origin: int, target: int) -> int:
    return (origin + 1) << 5 | target


def step_squares(move: int) -> tuple[int, int]:
    return (move >> 5) - 1, move & 31


class Kolem(Game):
    """Kolem on the fixed 5x5 board."""

    name = "kolem"
    title = "Kolem"
    spec_section = "2.7"
    clear_advantage = Advantage(100, "one piece (100)")
    first_player = WHITE
    default_size = (SIZE, SIZE)
    may_not_end = True

    def initial_position(self) -> KolemPosition:
        return KolemPosition(self)


class KolemPosition(Position):
    """A Kolem position: two bitboards, two hands and the side to move.

    The pieces a side has lost (passed away in phase 1 or removed in phase 2) are the 9 it
    started with minus those on the board and in hand.
    """

    has_evaluation = True
    repetition_is_a_draw = True  # going round in circles ends only at the move limit
    typical_plies = 100

    def __init__(self, game: Game, black: int = 0, white: int = 0,
                 hands: tuple[int, int] = (PIECES, PIECES), to_move: int = WHITE) -> None:
        super().__init__(game)
        self.pieces = [black, white]
        self.hands = list(hands)
        self.to_move = to_move
        if any(hands) and not self.hands[to_move]:
            raise ValueError("in phase 1 the side to move must hold a piece")
        if any(bits.bit_count() + hand > PIECES for bits, hand in zip(self.pieces, self.hands)):
            raise ValueError(f"a side has at most {PIECES} pieces")
        self._start()

    @classmethod
    def setup(cls, black: str, white: str, to_move: int = WHITE,
              hands: tuple[int, int] = (0, 0)) -> KolemPosition:
        """A position from space-separated square lists and the hands (black, white); by
        default a phase-2 position: ``setup("c3 d4", "c4 b2 b3", BLACK)``."""
        def bits(squares: str) -> int:
            return sum(1 << parse_square(name, SIZE, SIZE) for name in squares.split())
        return cls(Kolem(), bits(black), bits(white), hands, to_move)

    def _copy_state(self, other: KolemPosition) -> None:
        other.pieces = list(self.pieces)
        other.hands = list(self.hands)

    @property
    def placing(self) -> bool:
        """Whether the game is in phase 1 (some piece is still in hand)."""
        return bool(self.hands[0] or self.hands[1])

    def lost(self, colour: int) -> int:
        """How many pieces ``colour`` has lost: passed away in phase 1 or removed in phase 2."""
        return PIECES - self.pieces[colour].bit_count() - self.hands[colour]

    def _turns_placed(self) -> int:
        """How many phase-1 turns have been played (placements and passes)."""
        return 2 * PIECES - self.hands[0] - self.hands[1]

    # --- move generation ---------------------------------------------------------------------

    def _generate(self) -> list[int]:
        return list(self._per_ply(self._find_moves))

    def _find_moves(self) -> tuple[int, ...]:
        """The side to move's moves, kept for the ply (:meth:`Position._per_ply`): ``_judge``
        finds the phase-2 ones anyway to see whether that side can move."""
        return tuple(self._placements() if self.placing else self._steps())

    def _placements(self) -> list[int]:
        own, opponent = self.pieces[self.to_move], self.pieces[self.to_move ^ 1]
        occupied = own | opponent
        candidates = FULL & ~occupied
        if self._turns_placed() >= 2:
            candidates &= orthogonal(opponent)
        moves = [square for square in squares_of(candidates)
                 if not crowded(occupied | 1 << square)]
        return moves or [PASS]

    def _steps(self) -> list[int]:
        own, opponent = self.pieces[self.to_move], self.pieces[self.to_move ^ 1]
        occupied = own | opponent
        empty = FULL & ~occupied
        moves = []
        for origin in squares_of(own):
            without = occupied ^ (1 << origin)
            for target in squares_of(KING[origin] & empty):
                if ORTH[target] & opponent and not crowded(without | 1 << target):
                    moves.append(step(origin, target))
        return moves

    def noisy_moves(self) -> list[int]:
        """The steps that remove an opponent piece, for the quiescence search: a capture is
        worth a piece, so a search that stops before one misjudges the position."""
        if self.placing:
            return []
        own, opponent = self.pieces[self.to_move], self.pieces[self.to_move ^ 1]
        return [move for move in self.legal_moves()
                if _captured(own, opponent, *step_squares(move))]

    # --- playing -----------------------------------------------------------------------------

    def _apply(self, move: int):
        self._forget_ply()
        mover = self.to_move
        if move == PASS:
            self.hands[mover] -= 1
            return None
        if not is_step(move):
            self.pieces[mover] |= 1 << move
            self.hands[mover] -= 1
            return None
        origin, target = step_squares(move)
        self.pieces[mover] ^= (1 << origin) | (1 << target)
        black, white = self.pieces
        removed = (black & ~orthogonal(white), white & ~orthogonal(black))
        self.pieces = [black ^ removed[BLACK], white ^ removed[WHITE]]
        return removed

    def _revert(self, move: int, removed) -> None:
        self._forget_ply()
        mover = self.to_move
        if move == PASS:
            self.hands[mover] += 1
        elif not is_step(move):
            self.pieces[mover] ^= 1 << move
            self.hands[mover] += 1
        else:
            origin, target = step_squares(move)
            self.pieces[BLACK] |= removed[BLACK]
            self.pieces[WHITE] |= removed[WHITE]
            self.pieces[mover] ^= (1 << origin) | (1 << target)

    def total(self, colour: int) -> int:
        """Pieces ``colour`` still has, on the board and in hand."""
        return self.pieces[colour].bit_count() + self.hands[colour]

    def _judge(self, move) -> Outcome | None:
        mover = self.to_move ^ 1
        mover_out = self.total(mover) <= LOSING_COUNT
        opponent_out = self.total(mover ^ 1) <= LOSING_COUNT
        if mover_out and opponent_out:
            return Outcome(mover ^ 1, Termination.NORMAL,
                           f"both sides have {LOSING_COUNT} pieces or fewer; "
                           f"{COLOUR_NAMES[mover]} made the move and loses")
        if mover_out or opponent_out:
            loser = mover if mover_out else mover ^ 1
            return Outcome(loser ^ 1, Termination.NORMAL,
                           f"{COLOUR_NAMES[loser]} has {LOSING_COUNT} pieces or fewer")
        if not self.placing and not self._per_ply(self._find_moves):
            return Outcome(mover, Termination.NORMAL, f"{COLOUR_NAMES[mover ^ 1]} cannot move")
        return None

    # --- text --------------------------------------------------------------------------------

    def move_text(self, move: int) -> str:
        if move == PASS:
            return "pass"
        if not is_step(move):
            return square_name(move, SIZE)
        origin, target = step_squares(move)
        return f"{square_name(origin, SIZE)}-{square_name(target, SIZE)}"

    def parse_move(self, text: str) -> int:
        word = text.strip().lower()
        if word == "pass":
            move = PASS
        elif len(word) <= 3:
            move = parse_square(word, SIZE, SIZE)
        else:
            move = step(*parse_from_to(word, SIZE, SIZE))
        return self._legal(move, word)

    def _why_illegal(self, move: int) -> str:
        """One line saying why a well-formed move is not legal, for the error message."""
        colour = COLOUR_NAMES[self.to_move]
        own, opponent = self.pieces[self.to_move], self.pieces[self.to_move ^ 1]
        occupied = own | opponent
        if move == PASS:
            if not self.placing:
                return "passing is only for a player who cannot place in phase 1"
            return "passing is only legal when no placement exists"
        if not is_step(move):
            if not self.placing:
                return "pieces are moved, not placed, in phase 2"
            if occupied >> move & 1:
                return "the square is occupied"
            if not ORTH[move] & opponent:
                return "a placed piece must touch an opponent piece orthogonally"
            return self._crowding(occupied | 1 << move)
        origin, target = step_squares(move)
        if self.placing:
            return "pieces are placed, not moved, in phase 1"
        if not own >> origin & 1:
            return f"no {colour} piece on {square_name(origin, SIZE)}"
        if not KING[origin] >> target & 1:
            return "a piece moves to a neighbouring square"
        if occupied >> target & 1:
            return "the square is occupied"
        if not ORTH[target] & opponent:
            return "the moved piece must touch an opponent piece orthogonally"
        return self._crowding(occupied ^ (1 << origin) ^ (1 << target))

    @staticmethod
    def _crowding(occupied: int) -> str:
        square = squares_of(crowded(occupied))[0]
        return f"the piece on {square_name(square, SIZE)} would have 4 neighbours (3 at most)"

    # --- evaluation and display --------------------------------------------------------------

    def evaluate(self) -> int:
        """Material first; then pieces touching two or more opponent pieces (they survive one
        neighbour leaving) and, in phase 2, how many more moves the side to move has than the
        opponent (a side without moves loses, and captures need room to move), and in the
        endgame the safe moves of each side (:func:`_pressure`)."""
        mover = self.to_move
        own, opponent = self.pieces[mover], self.pieces[mover ^ 1]
        score = WEIGHT_PIECE * (self.total(mover) - self.total(mover ^ 1))
        score += WEIGHT_SAFE * (_safe(own, opponent) - _safe(opponent, own))
        if not self.placing:
            own_moves = self._generate()
            self.to_move ^= 1
            opponent_moves = self._steps()
            self.to_move ^= 1
            score += WEIGHT_MOBILITY * (len(own_moves) - len(opponent_moves))
            if (own | opponent).bit_count() <= ENDGAME:
                score += _pressure(own, opponent, own_moves, opponent_moves)
        return score

    def key(self) -> tuple[int, int, int, int, int]:
        return self.pieces[0], self.pieces[1], self.hands[0], self.hands[1], self.to_move

    def diagram(self) -> str:
        black, white = self.pieces
        cell = two_colour_cells(black, white)

        phase = "phase 1 (placing)" if self.placing else "phase 2 (moving)"
        legend = (f"X black, O white; {phase}, {COLOUR_NAMES[self.to_move]} to move\n"
                  f"in hand: white {self.hands[WHITE]}, black {self.hands[BLACK]}; "
                  f"lost: white {self.lost(WHITE)}, black {self.lost(BLACK)}")
        return render(SIZE, SIZE, cell, legend)

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: the 5x5 chequerboard, the pieces on it, and
        each side's hand (and lost pieces) in a row beside it, black's above and white's
        below (the other way round when flipped)."""
        from ..drawing import bitboard_pieces, hand_row, square_board
        grid = square_board(canvas, SIZE, SIZE, light="#eddcb9", dark="#c9a26b")
        for colour, bits in enumerate(self.pieces):
            bitboard_pieces(canvas, bits, colour)
            hand_row(canvas, grid, colour, self.hands[colour], self.lost(colour),
                     above=(colour == BLACK) != canvas.flipped)


def _safe(own: int, opponent: int) -> int:
    """How many pieces of ``own`` touch at least two pieces of ``opponent``."""
    return sum(1 for square in squares_of(own) if (ORTH[square] & opponent).bit_count() >= 2)


def _captured(own: int, opponent: int, origin: int, target: int) -> int:
    """The opponent pieces that ``own``'s step from ``origin`` to ``target`` removes: those
    next to ``origin`` that touch no other piece of ``own``, nor ``target``."""
    others = own ^ (1 << origin) | (1 << target)
    return opponent & ORTH[origin] & ~orthogonal(others)


def _has_capture(own: int, opponent: int) -> bool:
    """Whether ``own``, to move, has a step that removes an opponent piece."""
    occupied = own | opponent
    empty = FULL & ~occupied
    for origin in squares_of(own):
        loose = opponent & ORTH[origin] & ~orthogonal(own ^ (1 << origin))
        if not loose:
            continue
        without = occupied ^ (1 << origin)
        for target in squares_of(KING[origin] & empty):
            if (ORTH[target] & opponent and loose & ~ORTH[target]
                    and not crowded(without | 1 << target)):
                return True
    return False


def _pressure(own: int, opponent: int, own_moves, opponent_moves) -> int:
    """The endgame's progress: how many safe moves (moves that give the opponent no capture)
    the side to move (``own``, whose moves are ``own_moves``) has against the opponent (whose
    steps, were it to move, are ``opponent_moves``).

    With few pieces neither side can force a capture for long, and a side ahead that only
    keeps its lead goes round until the move limit; Kolem is a game of zugzwang (a side must
    move, and a move can leave a piece with a single opponent neighbour), so the lead is
    turned into a win by leaving the opponent few moves that lose nothing.
    """
    mine = _safe_moves(own, opponent, own_moves)
    theirs = _safe_moves(opponent, own, opponent_moves)
    return WEIGHT_SAFE_MOVE * (min(mine, SAFE_MOVES_CAP) - min(theirs, SAFE_MOVES_CAP))


def _safe_moves(own: int, opponent: int, moves) -> int:
    """How many of ``own``'s steps ``moves`` leave ``opponent`` (after the removals) no
    capture in reply."""
    count = 0
    for move in moves:
        origin, target = step_squares(move)
        after = own ^ (1 << origin) ^ (1 << target)
        count += not _has_capture(opponent & orthogonal(after), after)
    return count
