"""Knightthrough (SPEC 2.3; rules/icga-*.txt, "Knightthrough Rules" 1-4).

Board: 8x8 by default, any size from 3x5 to 26x26 (``boardsize COLS ROWS``); white fills
ranks 1-2 and black the top two ranks; white moves first.
A piece moves like a chess knight, but only forward: two ranks forward and one file sideways,
or one rank forward and two files sideways, onto an empty square or capturing the opponent piece
there (never onto its own piece). A player wins on reaching the far rank or when the opponent
has no piece left; a player with no legal move loses (only possible on three files: from four
on, the most advanced knight can always jump one rank forward and two files sideways).

Notation: ``b1-c3``, capture ``b1xc3``.

Representation: the bitboards and integer moves of :mod:`engine.games.racing`, which also
holds the move generator, the win rule and the diagram; this module declares the steps and the
evaluation.
"""

from __future__ import annotations

from ..core import Advantage
from .racing import RaceGame, RacePosition, advance_weights

KNIGHT_STEPS = ((2, -1), (2, 1), (1, -2), (1, 2))

# --- evaluation weights ----------------------------------------------------------------------
PIECE = 100
ADVANCE_SCALE = 50  # the far end of the advancement curve (see racing.advance_weights)
HOME_GUARD = 8  # a knight on the home rank can still capture intruders
MOBILITY = 3  # per square a side's knights can move to
TAKE_FREE = 60  # the side to move wins a piece: one opponent piece can be taken for nothing
TEMPO = 10


class Knightthrough(RaceGame):
    """Knightthrough on a board of 3-26 columns by 5-26 rows."""

    name = "knightthrough"
    title = "Knightthrough"
    spec_section = "2.3"
    clear_advantage = Advantage(100, "one piece (100)")
    size_limits = (3, 26, 5, 26)

    def initial_position(self) -> KnightthroughPosition:
        return KnightthroughPosition(self)


class KnightthroughPosition(RacePosition):
    """A Knightthrough position (see :class:`RacePosition` for the constructor and ``setup``).

    >>> from engine import find_game
    >>> position = find_game("knightthrough")(size=(3, 5)).initial_position()
    >>> position.legal_move_texts()
    ['a1-b3', 'a2-c3', 'a2xb4', 'b1-a3', 'b1-c3', 'b2xa4', 'b2xc4', 'c1-b3', 'c2-a3', 'c2xb4']
    """

    typical_plies = 40
    steps = KNIGHT_STEPS
    capture_steps = KNIGHT_STEPS
    step_rule = ("a piece moves two ranks forward and one file sideways, "
                 "or one rank forward and two files sideways")
    always_moves_from = 4  # see the module's docstring

    def evaluate(self) -> int:
        """Material, advancement and mobility, a bonus for a piece to take for nothing, and the
        races decided within two plies."""
        verdict = self._race_verdict()
        if verdict:
            return verdict
        mover, opponent = self.to_move, self.to_move ^ 1
        advance = advance_weights(self.board.rows, ADVANCE_SCALE, HOME_GUARD)
        mover_attacks, opponent_attacks = self._attacks(mover), self._attacks(opponent)
        own, theirs = self.pieces[mover], self.pieces[opponent]
        score = TEMPO + self._material_and_advance(PIECE, advance)
        score += MOBILITY * ((mover_attacks & ~own).bit_count()
                             - (opponent_attacks & ~theirs).bit_count())
        if theirs & mover_attacks & ~opponent_attacks:
            score += TAKE_FREE
        return score

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: a chessboard with black and white knights
        (discs marked N)."""
        from ..drawing import bitboard_pieces, square_board
        square_board(canvas, self.board.cols, self.board.rows)
        for colour, bits in enumerate(self.pieces):
            bitboard_pieces(canvas, bits, colour, glyph="N")
