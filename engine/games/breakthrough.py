"""Breakthrough (SPEC 2.2; rules/icga-*.txt, "Breakthrough Rules" 1-4).

Board: 8x8 by default, any size from 2x5 to 26x26 (``boardsize COLS ROWS``); white fills
ranks 1-2 and black the top two ranks; white moves first.
A piece moves one square straight or diagonally forward onto an empty square, or captures an
opponent piece diagonally forward (never straight). A player wins on reaching the far rank or
when the opponent has no piece left. A player with no legal move would lose, but on two files
or more that never happens: the most advanced piece has no friend ahead, so a diagonal step
forward is always open to it (an empty square or a capture).

Notation: ``a2-a3``, capture ``a2xb3``.

Representation: the bitboards and integer moves of :mod:`engine.games.racing`, which also
holds the move generator, the win rule and the diagram; this module declares the steps and the
evaluation.
"""

from __future__ import annotations

from ..core import Advantage
from .racing import RaceGame, RacePosition, advance_weights

STRAIGHT = (1, 0)
DIAGONALS = ((1, -1), (1, 1))

# --- evaluation weights ----------------------------------------------------------------------
PIECE = 100
ADVANCE_SCALE = 30  # the far end of the advancement curve (see racing.advance_weights)
HOME_GUARD = 12  # a piece still on the home rank guards the squares the opponent must reach
DEFENDED = 6  # a piece a friend could recapture on
HANGING = 25  # a piece the opponent attacks and no friend defends
TAKE_HANGING = 60  # the side to move wins a piece: one opponent piece hangs
TEMPO = 10


class Breakthrough(RaceGame):
    """Breakthrough on a board of 2-26 columns by 5-26 rows."""

    name = "breakthrough"
    title = "Breakthrough"
    spec_section = "2.2"
    clear_advantage = Advantage(100, "one piece (100)")
    size_limits = (2, 26, 5, 26)

    def initial_position(self) -> BreakthroughPosition:
        return BreakthroughPosition(self)


class BreakthroughPosition(RacePosition):
    """A Breakthrough position (see :class:`RacePosition` for the constructor and ``setup``).

    >>> from engine import find_game
    >>> position = find_game("breakthrough")(size=(3, 5)).initial_position()
    >>> position.legal_move_texts()
    ['a2-a3', 'a2-b3', 'b2-a3', 'b2-b3', 'b2-c3', 'c2-b3', 'c2-c3']
    """

    typical_plies = 60
    steps = (STRAIGHT, *DIAGONALS)
    capture_steps = DIAGONALS
    step_rule = "a piece moves one square straight or diagonally forward"
    capture_rule = "a piece captures diagonally, never straight ahead"
    always_moves_from = 2  # see the module's docstring

    def evaluate(self) -> int:
        """Material and advancement, with the safety of each side's pieces (defended by a friend,
        or hanging), and the races decided within two plies."""
        verdict = self._race_verdict()
        if verdict:
            return verdict
        mover, opponent = self.to_move, self.to_move ^ 1
        advance = advance_weights(self.board.rows, ADVANCE_SCALE, HOME_GUARD)
        mover_attacks, opponent_attacks = self._attacks(mover), self._attacks(opponent)
        own, theirs = self.pieces[mover], self.pieces[opponent]
        score = TEMPO + self._material_and_advance(PIECE, advance)
        score += DEFENDED * ((own & mover_attacks).bit_count()
                             - (theirs & opponent_attacks).bit_count())
        score -= HANGING * (own & opponent_attacks & ~mover_attacks).bit_count()
        if theirs & mover_attacks & ~opponent_attacks:
            score += TAKE_HANGING
        return score

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: a chessboard with black and white discs."""
        from ..drawing import bitboard_pieces, square_board
        square_board(canvas, self.board.cols, self.board.rows)
        for colour, bits in enumerate(self.pieces):
            bitboard_pieces(canvas, bits, colour)
