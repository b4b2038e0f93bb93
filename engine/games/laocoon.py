"""laoCoon (sold as Tor), by Alain Couchot and Bernard Klein (SPEC 2.9; rules/laocoon.txt).

Board: 8x8 spaces, each holding a stack of colour discs (blue, purple, orange, yellow; the top
disc is the space's colour); every space starts with one disc, in the standard layout of
SPEC 2.9 or any layout given by the ``layout=`` option. Each side has two rings. White moves
first.

Placing (four turns: white, black, white, black): a ring goes on an available space (a disc,
no ring) of a free colour (one the opponent's rings do not stand on): ``d4``. With
``variant=random`` or ``quick`` black's second placement may add a swap of the discs of two
spaces of different colours, lower space first: ``e5+a1=h8``.

Moving: a ring steps to one of its 8 neighbours, available and of a free colour; the top disc
of the space it left goes to the opponent (``quick``: leaves the game); the disc received on
the opponent's previous move goes on an available space holding exactly one disc of another
colour: ``d4-e5+c3``. Without a disc to place, or without a space for it (the disc then leaves
the game), the move is ``d4-e5``. A player who cannot place or step a ring loses.

Representation: per colour, a bitboard of the spaces whose top disc has that colour and one of
the spaces where it lies under another (stacks never grow taller than two: discs are only put
on spaces holding exactly one), and per square the top and lower colour for quick look-ups;
one ring bitboard per side; ``hand``, the colour of the disc the side to move has to place
(-1 for none).
A move is an int: bits 0-5 the ring's new space; when moving, bits 6-11 the space left and bits
12-18 the space of the placed disc plus one (0: no disc placed); when placing with a swap,
bits 12-18 the lower swapped space plus one and bits 19-24 the higher one.
"""

from __future__ import annotations

import random
import re
from typing import Mapping

from ..bits import squares_of
from ..core import (BLACK, COLOUR_NAMES, WHITE, Advantage, Game, IllegalMoveError, MoveSyntaxError,
                    OptionError, Outcome, Position, Termination)
from ..grid import FILES, parse_square, square_name

SIZE = 8
SQUARES = SIZE * SIZE
FULL = (1 << SQUARES) - 1
COLOUR_LETTERS = "bpoy"
DISC_NAMES = ("blue", "purple", "orange", "yellow")
NO_DISC = -1
VARIANTS = ("standard", "random", "quick")
RINGS_EACH = 2
DROP_SHIFT = 12
SWAP_HIGH_SHIFT = 19
FIELD = 63


def _standard_colour(square: int) -> int:
    """The colour number of a space in the standard layout (SPEC 2.9)."""
    file, rank = square % SIZE, square // SIZE
    return (file % 2 + 2 * (rank % 2) + file // 2 + rank // 2) % 4


STANDARD_LAYOUT = "".join(COLOUR_LETTERS[_standard_colour(square)] for square in range(SQUARES))


def _build_neighbours() -> tuple[int, ...]:
    """For every space, the bitboard of its up to 8 neighbours."""
    table = []
    for square in range(SQUARES):
        file, rank = square % SIZE, square // SIZE
        bits = 0
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                f, r = file + df, rank + dr
                if (df or dr) and 0 <= f < SIZE and 0 <= r < SIZE:
                    bits |= 1 << (r * SIZE + f)
        table.append(bits)
    return tuple(table)


NEIGHBOURS = _build_neighbours()
BITS = tuple(1 << square for square in range(SQUARES))
# For every rank and every 8-bit pattern of it, the step-3 fields of its squares: a dense
# bitboard turns into move fields one rank at a time instead of one bit at a time.
DROP_FIELDS = tuple(
    tuple(tuple((rank * SIZE + file + 1) << DROP_SHIFT
                for file in range(SIZE) if pattern >> file & 1)
          for pattern in range(256))
    for rank in range(SIZE))

# The whole move: step squares (with -, x or nothing between), then + and a square, or + and
# two squares joined by = (a swap).
# Ranks are ASCII digits (\d would take other scripts' digits).
_SQUARE = r"([a-z][0-9]{1,2})"
_MOVE = re.compile(rf"{_SQUARE}(?:[-x]?{_SQUARE})?(?:\+{_SQUARE}(?:={_SQUARE})?)?")

# --- evaluation weights ----------------------------------------------------------------------
# The evaluation's terms (see LaocoonPosition.evaluation_terms), each the side to move's count
# less the opponent's, and their weights.
TERMS = (
    "step",             # a legal step for one of the side's rings
    "room",             # an available neighbour of a ring, whatever its colour
    "area",             # an available space two steps from a ring through available ones
    "stuck ring",       # a ring without a legal step, but with available neighbours
    "dead ring",        # a ring without any available neighbour
    "two colours",      # the side's steps go to at least two colours (steps of one colour
    "three colours",    # all close at once) ... three (the opponent's rings ban one or two)
    "territory",        # a space the side's rings reach before the opponent's
    "double territory", # ... holding two discs
    "separate room",    # once no available space is reachable by both sides' rings: one the
                        # side's rings can still reach, a double counting twice
)
# Fitted by scripts/fit_laocoon.py (see docs/laocoon.md): logistic regression of the game's
# result on the terms, over the positions from ply 20 on of 448 games, in the old weights' unit.
# WEIGHTS and TEMPO hold in the middle game (MIDDLE_SPACES available spaces or more, about
# ply 20), the late ones from LATE_SPACES down (about ply 60); in between the evaluation mixes
# the two in proportion (the fitted games' positions lie between the two, few outside).
WEIGHTS = (-3, -3, -8, -55, -308, 20, -74, 11, -2, 70)
TEMPO = 0
LATE_WEIGHTS = (20, 48, 46, -24, -140, -4, -51, -2, 25, 20)
LATE_TEMPO = -39
MIDDLE_SPACES = 48
LATE_SPACES = 28
PHASE_SPAN = MIDDLE_SPACES - LATE_SPACES


def _mixed_weights(phase: int) -> tuple[int, tuple[int, ...]]:
    """The tempo and the weights at ``phase`` (0 late .. PHASE_SPAN in the middle game),
    rounded: worked out once per phase, so that the evaluation costs one weighted sum."""
    def mix(middle: int, late: int) -> int:
        return round((middle * phase + late * (PHASE_SPAN - phase)) / PHASE_SPAN)
    return mix(TEMPO, LATE_TEMPO), tuple(map(mix, WEIGHTS, LATE_WEIGHTS))


MIXED_WEIGHTS = tuple(_mixed_weights(phase) for phase in range(PHASE_SPAN + 1))


def _phase(available: int) -> int:
    """:meth:`LaocoonPosition.phase` from the bitboard of the available spaces."""
    return min(max(available.bit_count() - LATE_SPACES, 0), PHASE_SPAN)


# The moves the clock plans for while a side places its rings (Position.moves_to_go).
PLACING_MOVES_TO_GO = 3
TERRITORY_LAYERS = 8
# Below the root a step keeps all its disc placements when it has at most this many that
# neither open a step for the mover nor close one of the opponent's (see deep_moves).
FEW_DROPS = 3
# ... and every one next to the opponent's rings when they have at most this many steps.
CORNERED_STEPS = 3
NOT_FILE_A = FULL ^ sum(1 << (rank * SIZE) for rank in range(SIZE))
NOT_FILE_H = FULL ^ sum(1 << (rank * SIZE + SIZE - 1) for rank in range(SIZE))


def grow(bits: int) -> int:
    """Every space 8-adjacent to a space of ``bits``, and ``bits`` itself."""
    grown = bits | (bits << SIZE) | (bits >> SIZE)
    return (grown | ((grown << 1) & NOT_FILE_A) | ((grown >> 1) & NOT_FILE_H)) & FULL


def drop_fields(bits: int) -> list[int]:
    """The step-3 move fields of the squares of ``bits``, lowest first."""
    fields: list[int] = []
    for rank in range(SIZE):
        pattern = bits >> (rank * SIZE) & 255
        if pattern:
            fields += DROP_FIELDS[rank][pattern]
    return fields


def layout_from_text(text: str) -> list[int]:
    """The colour numbers of a ``layout=`` value: 64 letters of ``bpoy`` in any case."""
    letters = text.strip().lower()
    if len(letters) != SQUARES or any(letter not in COLOUR_LETTERS for letter in letters):
        raise OptionError(
            f"bad layout {text!r} (expected 64 letters of b, p, o, y for a1..h1, a2..h2, ..., h8)")
    return [COLOUR_LETTERS.index(letter) for letter in letters]


def random_layout(rng: random.Random) -> str:
    """A random layout of the game's 64 discs, 16 of each colour (the random-setup variant)."""
    letters = list(COLOUR_LETTERS * (SQUARES // 4))
    rng.shuffle(letters)
    return "".join(letters)


class Laocoon(Game):
    """laoCoon on the fixed 8x8 board, with its random-setup and quick variants."""

    name = "laocoon"
    title = "laoCoon"
    spec_section = "2.9"
    clear_advantage = Advantage(200, "two rings without room (80 each) and four steps (10 each)")
    aliases = ("tor",)
    first_player = WHITE
    default_size = (SIZE, SIZE)
    options = {"variant": VARIANTS, "layout": ()}
    option_defaults = {"layout": STANDARD_LAYOUT}
    # Discs are handed on, not spent, outside the quick variant: rings can wander forever.
    may_not_end = True

    def __init__(self, options: Mapping[str, str] | None = None,
                 size: tuple[int, int] | None = None) -> None:
        super().__init__(options, size)
        self.variant = self.settings["variant"]
        self.layout = layout_from_text(self.settings["layout"])
        # A layout given with the option is the start to reproduce (SPEC 2.9), never redrawn.
        self.layout_given = "layout" in (options or {})
        self.swaps = self.variant != "standard"
        self.hands_on = self.variant != "quick"
        # Every quick move takes a disc out of the game, so the game ends within 64 moves.
        self.may_not_end = self.hands_on

    def check_option(self, key: str, value: str) -> str:
        if key == "layout":
            layout_from_text(value)
            return value.strip().lower()
        return super().check_option(key, value)

    def draw_start(self, rng: random.Random) -> dict[str, str]:
        """A random layout for the random and quick variants, unless one was given (then that
        start is reproduced); the standard start is fixed."""
        if not self.swaps or self.layout_given:
            return {}
        return {"layout": random_layout(rng)}

    def initial_position(self) -> LaocoonPosition:
        return LaocoonPosition(self)


class LaocoonPosition(Position):
    """A laoCoon position: disc stacks, rings, the disc in the mover's hand, the side to move."""

    has_evaluation = True
    typical_plies = 40
    late_move_reductions = 3  # after the table's move and the killers (engine.search.alphabeta)
    least_moves_to_go = 6  # the clock's main time goes into the middle game, where games turn

    def __init__(self, game: Laocoon, stacks: list[tuple[int, ...]] | None = None,
                 rings: tuple[int, int] = (0, 0), to_move: int = WHITE,
                 hand: int = NO_DISC) -> None:
        super().__init__(game)
        if stacks is None:
            stacks = [(colour,) for colour in game.layout]
        self.colour = [stack[-1] if stack else NO_DISC for stack in stacks]
        self.lower = [stack[0] if len(stack) == 2 else NO_DISC for stack in stacks]
        self.top = [0, 0, 0, 0]
        self.under = [0, 0, 0, 0]
        for square, stack in enumerate(stacks):
            if len(stack) > 2:
                raise ValueError(f"{square_name(square, SIZE)}: a stack holds at most 2 discs")
            if stack:
                self.top[stack[-1]] |= BITS[square]
            if len(stack) == 2:
                self.under[stack[0]] |= BITS[square]
        self.rings = list(rings)
        self.to_move = to_move
        self.hand = hand
        self._start()

    @classmethod
    def from_rows(cls, game: Laocoon, rows: list[str], white: tuple[str, ...] = (),
                  black: tuple[str, ...] = (), to_move: int = WHITE,
                  hand: str | None = None) -> LaocoonPosition:
        """A position from a picture: ``rows`` from rank 8 down to rank 1, each 8 cells
        separated by spaces, a cell being the discs bottom to top (``po``: orange on purple) or
        ``.`` for none; ``white``/``black`` name the ring spaces; ``hand`` is the colour letter
        of the disc the side to move has to place."""
        if len(rows) != SIZE:
            raise ValueError(f"expected {SIZE} rows, got {len(rows)}")
        stacks: list[tuple[int, ...]] = [()] * SQUARES
        for index, row in enumerate(rows):
            cells = row.split()
            if len(cells) != SIZE:
                raise ValueError(f"row {row!r}: expected {SIZE} cells")
            rank = SIZE - 1 - index
            for file, cell in enumerate(cells):
                stacks[rank * SIZE + file] = tuple(
                    COLOUR_LETTERS.index(letter) for letter in cell if letter != ".")

        def bits(names: tuple[str, ...]) -> int:
            return sum(BITS[parse_square(name, SIZE, SIZE)] for name in names)

        rings = [0, 0]
        rings[WHITE], rings[BLACK] = bits(white), bits(black)
        colour = NO_DISC if hand is None else COLOUR_LETTERS.index(hand)
        return cls(game, stacks, (rings[0], rings[1]), to_move, colour)

    def _copy_state(self, other: LaocoonPosition) -> None:
        other.colour = list(self.colour)
        other.lower = list(self.lower)
        other.top = list(self.top)
        other.under = list(self.under)
        other.rings = list(self.rings)

    # --- facts of the rules --------------------------------------------------------------------

    @property
    def placing(self) -> bool:
        """Whether rings are still being placed."""
        return (self.rings[0] | self.rings[1]).bit_count() < 2 * RINGS_EACH

    def discs(self) -> int:
        """The spaces holding at least one disc."""
        top = self.top
        return top[0] | top[1] | top[2] | top[3]

    def doubles(self) -> int:
        """The spaces holding two discs."""
        under = self.under
        return under[0] | under[1] | under[2] | under[3]

    def available(self) -> int:
        """The spaces with a disc and no ring."""
        return self.discs() & ~(self.rings[0] | self.rings[1])

    def controlled(self, side: int) -> set[int]:
        """The colours under ``side``'s rings."""
        return {self.colour[square] for square in squares_of(self.rings[side])}

    def free_spaces(self, side: int) -> int:
        """The spaces whose colour is free for ``side`` (not under an opponent ring)."""
        top, colour = self.top, self.colour
        forbidden = 0
        rings = self.rings[side ^ 1]
        while rings:
            low = rings & -rings
            forbidden |= top[colour[low.bit_length() - 1]]
            rings ^= low
        return self.discs() & ~forbidden

    def steps(self, side: int) -> list[tuple[int, int]]:
        """Every (from, to) ring step of ``side``: to a neighbouring available space of a
        colour free for ``side``."""
        open_spaces = self.available() & self.free_spaces(side)
        result = []
        for origin in squares_of(self.rings[side]):
            for target in squares_of(NEIGHBOURS[origin] & open_spaces):
                result.append((origin, target))
        return result

    def drop_spaces(self, origin: int, target: int) -> int:
        """The spaces where the disc in hand may go after the ring steps from ``origin`` to
        ``target`` (its top disc given away): available, exactly one disc, another colour."""
        hand = self.hand
        if hand == NO_DISC:
            return 0
        singles = self.discs() & ~self.doubles() & ~(self.rings[0] | self.rings[1])
        spaces = singles & ~self.top[hand] & ~BITS[target]
        if self.lower[origin] not in (NO_DISC, hand):
            spaces |= BITS[origin]
        return spaces

    def swapping(self) -> bool:
        """Whether this turn is black's second placement in a variant that allows a swap."""
        return (self.game.swaps and self.to_move == BLACK
                and (self.rings[0] | self.rings[1]).bit_count() == 2 * RINGS_EACH - 1)

    # --- the rule-specific part ----------------------------------------------------------------

    def _generate(self) -> list[int]:
        if self.placing:
            return self._placements()
        hand = self.hand
        moves = []
        if hand == NO_DISC:
            for origin, target in self.steps(self.to_move):
                moves.append(origin << 6 | target)
            return moves
        lower = self.lower
        shared = self.discs() & ~self.doubles() & ~(self.rings[0] | self.rings[1]) & ~self.top[hand]
        codes = drop_fields(shared)
        for origin, target in self.steps(self.to_move):
            step = origin << 6 | target
            if shared >> target & 1:
                skipped = (target + 1) << DROP_SHIFT
                drops = [step | code for code in codes if code != skipped]
            else:
                drops = [step | code for code in codes]
            if lower[origin] != NO_DISC and lower[origin] != hand:
                drops.append(step | (origin + 1) << DROP_SHIFT)
            if drops:
                moves.extend(drops)
            else:
                moves.append(step)
        return moves

    def search_moves(self) -> list[int]:
        """The moves worth searching, the most promising first.

        With a disc to place, every step is kept but of its placements only those next to a
        ring (the only ones that change what a ring may do on the next turn) and, of the rest,
        one nearest the mover's rings: a disc far from every ring only thickens a stack, and
        one such placement stands for all. Placements that open a step for the mover's rings
        or close one of the opponent's come first, those that do the opposite last.
        """
        return self._ordered_moves(narrow=False)

    def deep_moves(self) -> list[int]:
        """The moves searched below the root: every step, with the placements that open a
        step for the mover's rings or close one of the opponent's, and one other standing for
        the rest (far from the rings if it can be: it changes no ring's steps; else one that
        changes none now, else one that does the opposite); a step with at most
        :data:`FEW_DROPS` other placements keeps them all, as in an endgame among holes and
        double stacks, where the one placement that sets a trap may look like a bad one; and
        while the opponent has at most :data:`CORNERED_STEPS` steps, every placement next to
        its rings that changes no step now (a lost game's trap began with one).
        Searching every placement next to a ring kept alpha-beta at 3 to 5 plies in 0.3 s, too
        short to see a ring walked into a corner among holes; on 40 positions of earlier games
        depth 4 now takes 7 times fewer nodes, and depth 5 fewer than depth 4 did.
        """
        return self._ordered_moves(narrow=True)

    def moves_to_go(self) -> int:
        """While the rings are placed, :data:`PLACING_MOVES_TO_GO`, for the clock: where a
        ring goes decides more than any later move, and the search's choice of it changes
        from depth 3 to 4 to 5 (at 3 s + 0.2 s the usual share, about 0.1 s, ends at 3)."""
        if self.placing:
            return PLACING_MOVES_TO_GO
        return super().moves_to_go()

    def noisy_moves(self) -> list[int]:
        """A move that leaves the opponent's rings without a step, winning at once, if there
        is one (one is enough: the quiescence search takes the win), so that a ring walked
        into a dead end is seen one ply past the horizon.

        Worked out without playing the moves: after a step the opponent may not step onto
        the colours under the mover's rings, nor onto the space the ring took; the space it
        left stays open only if a lower disc remains. The disc in hand closes one more space
        if the mover's rings then stand on its colour, and must not open one. Only looked for
        when the opponent's steps, but for one colour, go to at most two spaces (a step bans
        one colour and takes one space, the disc covers one more).
        """
        if self.placing or self.outcome is not None:
            return []
        mover = self.to_move
        theirs = self.rings[mover ^ 1]
        available = self.available()
        near_theirs = grow(theirs) & ~theirs
        top, colour, lower, hand = self.top, self.colour, self.lower, self.hand
        targets = near_theirs & available & self.free_spaces(mover ^ 1)
        if min((targets & ~top[other]).bit_count() for other in range(4)) > 2:
            return []
        mine = self.rings[mover]
        for origin, target in self.steps(mover):
            banned = {colour[target]}
            banned.update(colour[square] for square in squares_of(mine ^ BITS[origin]))
            closed = BITS[target] | BITS[origin]
            for other in banned:
                closed |= top[other]
            left_open = near_theirs & available & ~closed
            below = lower[origin]
            if below != NO_DISC and below not in banned:
                left_open |= near_theirs & BITS[origin]
            drops = self.drop_spaces(origin, target)
            step = origin << 6 | target
            if not drops:
                if not left_open:
                    return [step]
                continue
            if not left_open:
                harmless = drops if hand in banned else drops & ~near_theirs
            elif hand in banned and not left_open & (left_open - 1):
                harmless = drops & left_open
            else:
                continue
            if harmless:
                low = harmless & -harmless
                return [step | low.bit_length() << DROP_SHIFT]
        return []

    def _ordered_moves(self, narrow: bool) -> list[int]:
        """The moves of :meth:`search_moves`, or with ``narrow`` those of :meth:`deep_moves`."""
        if self.placing or self.hand == NO_DISC or self.outcome is not None:
            return self.legal_moves()
        mover, hand, colour, lower, top = self.to_move, self.hand, self.colour, self.lower, self.top
        theirs = self.rings[mover ^ 1]
        near_theirs = grow(theirs) & ~theirs
        discs = self.discs()
        shared = discs & ~self.doubles() & ~(self.rings[0] | self.rings[1]) & ~top[hand]
        free_for_mine = self.free_spaces(mover)
        banned_mine = hand in self.controlled(mover ^ 1)  # the disc's colour is not free for us
        # With few steps left to the opponent, a disc next to its rings may set the trap even
        # when it closes nothing yet: below the root those are all kept then.
        cornered = (narrow and (near_theirs & self.available() & self.free_spaces(mover ^ 1))
                    .bit_count() <= CORNERED_STEPS)
        good: list[int] = []
        plain: list[int] = []
        bad: list[int] = []
        for origin, target in self.steps(mover):
            step = origin << 6 | target
            drops = shared & ~BITS[target]
            if lower[origin] != NO_DISC and lower[origin] != hand:
                drops |= BITS[origin]
            if not drops:
                plain.append(step)
                continue
            mine = self.rings[mover] ^ BITS[origin] ^ BITS[target]
            near_mine = grow(mine) & ~mine
            free_for_theirs = discs
            hand_banned_theirs = False
            for square in squares_of(mine):
                free_for_theirs &= ~top[colour[square]]
                hand_banned_theirs |= colour[square] == hand
            # A placement next to a ring turns the space it covers into the disc's colour:
            # it opens a step where the disc's colour is free and the covered one was not,
            # and closes one the other way round.
            if banned_mine:
                helps = 0
                hurts = near_mine & free_for_mine
            else:
                helps = near_mine & ~free_for_mine
                hurts = 0
            if hand_banned_theirs:
                helps |= near_theirs & free_for_theirs
            else:
                hurts |= near_theirs & ~free_for_theirs
            if drops & BITS[origin]:  # the disc left on the space left is the lower one
                helps &= ~BITS[origin]
                hurts &= ~BITS[origin]
            better = drops & helps & ~hurts
            worse = drops & hurts & ~helps
            near = near_mine | near_theirs
            same = drops & near & ~better & ~worse
            rest = drops & ~near
            if rest:
                reach = mine
                while not reach & rest:
                    reach = grow(reach)
                reach &= rest
                same |= reach & -reach
            good += [step | field for field in drop_fields(better)]
            if not narrow or (same | worse).bit_count() <= FEW_DROPS:
                plain += [step | field for field in drop_fields(same)]
                bad += [step | field for field in drop_fields(worse)]
            elif same:
                stand_in = same & ~near or same
                kept = stand_in & -stand_in
                if cornered:
                    kept |= same & near_theirs
                plain += [step | field for field in drop_fields(kept)]
            elif not better:
                bad.append(step | drop_fields(worse)[0])
        return good + plain + bad

    def _placements(self) -> list[int]:
        """The placements of the side to move, with black's optional swap where allowed."""
        targets = squares_of(self.available() & self.free_spaces(self.to_move))
        if not self.swapping():
            return targets
        colour = self.colour
        swaps = [(low + 1) << DROP_SHIFT | high << SWAP_HIGH_SHIFT
                 for low in range(SQUARES) for high in range(low + 1, SQUARES)
                 if colour[low] != colour[high]]
        moves = list(targets)
        for target in targets:
            moves.extend([target | swap for swap in swaps])
        return moves

    def _apply(self, move: int) -> tuple[int, int] | None:
        mover = self.to_move
        target = move & FIELD
        if self.placing:
            self.rings[mover] |= BITS[target]
            if move >> DROP_SHIFT:
                self._swap((move >> DROP_SHIFT & 127) - 1, move >> SWAP_HIGH_SHIFT)
            return None
        origin = move >> 6 & FIELD
        drop = (move >> DROP_SHIFT) - 1
        self.rings[mover] ^= BITS[origin] | BITS[target]
        given = self._take(origin)
        received = self.hand
        if drop >= 0:
            self._put(drop, received)
        self.hand = given if self.game.hands_on else NO_DISC
        return received, given

    def _revert(self, move: int, undo: tuple[int, int] | None) -> None:
        """Take back a placement (``undo`` is ``None``) or a ring step with its hand-over."""
        mover = self.to_move
        target = move & FIELD
        if undo is None:
            if move >> DROP_SHIFT:
                self._swap((move >> DROP_SHIFT & 127) - 1, move >> SWAP_HIGH_SHIFT)
            self.rings[mover] ^= BITS[target]
            return
        received, given = undo
        origin = move >> 6 & FIELD
        drop = (move >> DROP_SHIFT) - 1
        if drop >= 0:
            self._take(drop)
        self._put(origin, given)
        self.hand = received
        self.rings[mover] ^= BITS[origin] | BITS[target]

    def _take(self, square: int) -> int:
        """Remove the top disc of ``square``; return its colour."""
        bit = BITS[square]
        colour = self.colour[square]
        self.top[colour] ^= bit
        below = self.lower[square]
        if below == NO_DISC:
            self.colour[square] = NO_DISC
        else:
            self.top[below] |= bit
            self.under[below] ^= bit
            self.colour[square] = below
            self.lower[square] = NO_DISC
        return colour

    def _put(self, square: int, colour: int) -> None:
        """Put a disc of ``colour`` on ``square`` (empty or holding one disc)."""
        bit = BITS[square]
        below = self.colour[square]
        if below != NO_DISC:
            self.top[below] ^= bit
            self.under[below] |= bit
            self.lower[square] = below
        self.top[colour] |= bit
        self.colour[square] = colour

    def _swap(self, low: int, high: int) -> None:
        """Exchange the single discs of two spaces of different colours (its own inverse)."""
        colour = self.colour
        both = BITS[low] | BITS[high]
        self.top[colour[low]] ^= both
        self.top[colour[high]] ^= both
        colour[low], colour[high] = colour[high], colour[low]

    def _judge(self, move) -> Outcome | None:
        side = self.to_move
        if self.placing:
            if not self.available() & self.free_spaces(side):
                return Outcome(side ^ 1, Termination.NORMAL,
                               f"{COLOUR_NAMES[side]} has no space to place a ring")
            return None
        open_spaces = self.available() & self.free_spaces(side)
        if not any(NEIGHBOURS[ring] & open_spaces for ring in squares_of(self.rings[side])):
            return Outcome(side ^ 1, Termination.NORMAL, f"{COLOUR_NAMES[side]} cannot move a ring")
        return None

    # --- notation ------------------------------------------------------------------------------

    def move_text(self, move: int) -> str:
        target = square_name(move & FIELD, SIZE)
        if self.placing:
            if not move >> DROP_SHIFT:
                return target
            low, high = (move >> DROP_SHIFT & 127) - 1, move >> SWAP_HIGH_SHIFT
            return f"{target}+{square_name(low, SIZE)}={square_name(high, SIZE)}"
        text = f"{square_name(move >> 6 & FIELD, SIZE)}-{target}"
        drop = (move >> DROP_SHIFT) - 1
        return f"{text}+{square_name(drop, SIZE)}" if drop >= 0 else text

    def parse_move(self, text: str) -> int:
        cleaned = text.strip().lower()
        match = _MOVE.fullmatch(cleaned)
        if not match:
            raise MoveSyntaxError(
                f"{text!r} is not a laoCoon move (expected a placement like d4 or e5+a1=h8, "
                "or a step like d4-e5 or d4-e5+c3)")
        first, second, third, fourth = (
            None if name is None else parse_square(name, SIZE, SIZE) for name in match.groups())
        if self.outcome is not None:
            raise IllegalMoveError(f"{cleaned}: the game is over")
        if self.placing:
            move, reason = self._read_placement(first, second, third, fourth)
        else:
            move, reason = self._read_step(first, second, third, fourth)
        if reason:
            raise IllegalMoveError(f"{cleaned}: {reason}")
        return move

    def _read_placement(self, target: int, second, low, high) -> tuple[int, str]:
        """The placement ``target`` with an optional swap of ``low`` and ``high``, and why it is
        illegal (empty when it is legal)."""
        if second is not None:
            return 0, "rings are still being placed: name one space, like d4"
        reason = self._why_closed(target)
        if reason:
            return 0, reason
        if low is None:
            return target, ""
        if high is None:
            return 0, "a swap names two spaces, like e5+a1=h8"
        if not self.swapping():
            if not self.game.swaps:
                return 0, "the standard variant has no swap"
            return 0, "only black's second placement may swap two discs"
        if low == high:
            return 0, "a swap needs two different spaces"
        low, high = min(low, high), max(low, high)
        if self.colour[low] == self.colour[high]:
            return 0, (f"{square_name(low, SIZE)} and {square_name(high, SIZE)} are both "
                       f"{DISC_NAMES[self.colour[low]]}: a swap needs two colours")
        return target | (low + 1) << DROP_SHIFT | high << SWAP_HIGH_SHIFT, ""

    def _read_step(self, origin: int, target, drop, swap) -> tuple[int, str]:
        """The ring step ``origin``-``target`` with the disc put on ``drop``, and why it is
        illegal (empty when it is legal)."""
        side = COLOUR_NAMES[self.to_move]
        if target is None:
            return 0, "every ring is placed: move a ring, like d4-e5"
        if swap is not None:
            return 0, "only black's second placement may swap two discs"
        if not self.rings[self.to_move] >> origin & 1:
            return 0, f"no {side} ring on {square_name(origin, SIZE)}"
        if not NEIGHBOURS[origin] >> target & 1:
            return 0, f"{square_name(target, SIZE)} is not next to {square_name(origin, SIZE)}"
        reason = self._why_closed(target)
        if reason:
            return 0, reason
        step = origin << 6 | target
        spaces = self.drop_spaces(origin, target)
        if drop is None:
            if spaces:
                return 0, (f"{side} must place the received {DISC_NAMES[self.hand]} disc, like "
                           f"{self.move_text(step)}+{square_name(squares_of(spaces)[0], SIZE)}")
            return step, ""
        if self.hand == NO_DISC:
            return 0, f"{side} has no disc to place"
        if not spaces >> drop & 1:
            return 0, self._why_no_drop(origin, target, drop)
        return step | (drop + 1) << DROP_SHIFT, ""

    def _why_closed(self, square: int) -> str:
        """Why the side to move may not bring a ring to ``square`` (empty when it may)."""
        name = square_name(square, SIZE)
        if (self.rings[0] | self.rings[1]) >> square & 1:
            return f"{name} has a ring"
        colour = self.colour[square]
        if colour == NO_DISC:
            return f"{name} has no disc"
        if colour in self.controlled(self.to_move ^ 1):
            return (f"the colour {DISC_NAMES[colour]} is controlled by "
                    f"{COLOUR_NAMES[self.to_move ^ 1]}")
        return ""

    def _why_no_drop(self, origin: int, target: int, drop: int) -> str:
        """Why the disc in hand may not go on ``drop`` after the step ``origin``-``target``."""
        name = square_name(drop, SIZE)
        if drop == target or drop != origin and (self.rings[0] | self.rings[1]) >> drop & 1:
            return f"{name} has a ring"
        stack = (self.lower[drop], self.colour[drop])
        if drop == origin:
            stack = (NO_DISC, self.lower[origin])
        if stack[1] == NO_DISC:
            return f"{name} has no disc" + (" left" if drop == origin else "")
        if stack[0] != NO_DISC:
            return f"{name} already holds 2 discs"
        return f"{name} is already {DISC_NAMES[self.hand]}"

    def key(self) -> tuple:
        return (*self.top, *self.under, self.rings[0], self.rings[1], self.hand, self.to_move)

    # --- evaluation ----------------------------------------------------------------------------

    def evaluate(self) -> int:
        """Ring mobility and territory of the side to move minus the opponent's: a tempo plus
        each term of :meth:`evaluation_terms` times its weight, the weights (and tempo) those
        of the game's :meth:`phase` (:data:`MIXED_WEIGHTS`), between the middle game's
        :data:`WEIGHTS` and the late game's :data:`LATE_WEIGHTS`: the fit finds a ring's room
        of no value in the middle game, where rings die of being stuck, and the main one late.

        A player loses when no ring can step, and every step burns a disc behind it, so what
        counts is the legal steps now, the available spaces around the rings (their colours
        may change), and the spaces each side reaches first (a breadth-first race over
        available spaces, colours ignored after the first step), two-disc spaces counting
        more because they survive a departure. A ring without a step is a liability; without
        any available neighbour it is lost for good. Two more signs of a ring's future: the
        available spaces two steps away (a ring among holes or on the edge is soon walled in),
        and how many colours the side's steps go to (the opponent bans at most two, and steps
        of a single colour all close when an opponent ring moves onto it). Once no available
        space is reachable by both sides' rings, the room each has left decides the race.
        """
        available = self.available()
        tempo, weights = MIXED_WEIGHTS[_phase(available)]
        value = tempo
        for weight, term in zip(weights, self._terms(available)):
            value += weight * term
        return value

    def phase(self) -> int:
        """How far from the end the game is, from :data:`PHASE_SPAN` in the middle game down
        to 0 late: the available spaces above :data:`LATE_SPACES`, at most the span (a ring
        leaving a single disc leaves a hole, and no move makes a space available that was not,
        so the phase only falls)."""
        return _phase(self.available())

    def evaluation_terms(self) -> list[int]:
        """The evaluation's terms, named in :data:`TERMS`: each the side to move's count less
        the opponent's (``scripts/fit_laocoon.py`` fits their weights)."""
        return self._terms(self.available())

    def _terms(self, available: int) -> list[int]:
        """:meth:`evaluation_terms` with the :meth:`available` spaces worked out already
        (:meth:`evaluate` needs them for the phase too)."""
        mover = self.to_move
        terms, steps_mine = self._ring_terms(mover, available)
        theirs, steps_theirs = self._ring_terms(mover ^ 1, available)
        for index, count in enumerate(theirs):
            terms[index] -= count
        reached = self.rings[0] | self.rings[1]
        owned_mine = owned_theirs = 0
        for _ in range(TERRITORY_LAYERS):
            new_mine = steps_mine & ~reached
            new_theirs = steps_theirs & ~reached
            if not new_mine | new_theirs:
                break
            owned_mine |= new_mine & ~new_theirs
            owned_theirs |= new_theirs & ~new_mine
            reached |= new_mine | new_theirs
            steps_mine = grow(new_mine) & available
            steps_theirs = grow(new_theirs) & available
        doubles = self.doubles()
        terms.append(owned_mine.bit_count() - owned_theirs.bit_count())
        terms.append((owned_mine & doubles).bit_count() - (owned_theirs & doubles).bit_count())
        terms.append(self._separate_room(available, doubles))
        return terms

    def _separate_room(self, available: int, doubles: int) -> int:
        """The side to move's reachable available spaces less the opponent's (doubles count
        twice: two visits), once no space is reachable by both (then the game is a race of
        room alone); 0 while one is. Both regions grow together and stop at the first
        contact, so a middle game costs a layer or two."""
        mine, theirs = self.rings[self.to_move], self.rings[self.to_move ^ 1]
        while True:
            grown_mine = mine | grow(mine) & available
            grown_theirs = theirs | grow(theirs) & available
            if grown_mine & grown_theirs:
                return 0
            if grown_mine == mine and grown_theirs == theirs:
                break
            mine, theirs = grown_mine, grown_theirs
        mine &= available
        theirs &= available
        return (mine.bit_count() + (mine & doubles).bit_count()
                - theirs.bit_count() - (theirs & doubles).bit_count())

    def _ring_terms(self, side: int, available: int) -> tuple[list[int], int]:
        """The per-side terms of ``side``'s rings (the first ones of :data:`TERMS`) and the
        bitboard of their legal steps."""
        open_spaces = available & self.free_spaces(side)
        top = self.top
        targets = steps_total = room_total = area = stuck = dead = 0
        for ring in squares_of(self.rings[side]):
            near = NEIGHBOURS[ring]
            steps = near & open_spaces
            targets |= steps
            count = steps.bit_count()
            around = near & available
            room = around.bit_count()
            steps_total += count
            room_total += room
            area += (grow(around) & available & ~around).bit_count()
            if not count:
                if room:
                    stuck += 1
                else:
                    dead += 1
        colours = 0
        if targets:
            colours = ((targets & top[0] != 0) + (targets & top[1] != 0)
                       + (targets & top[2] != 0) + (targets & top[3] != 0))
        return [steps_total, room_total, area, stuck, dead, int(colours >= 2),
                int(colours >= 3)], targets

    # --- picture -------------------------------------------------------------------------------

    def diagram(self) -> str:
        """The board with each space as ring, top colour and stack height (``Xo2``: a black
        ring on two discs, orange on top), then the variant, the discs in hand and control."""
        white, black = self.rings[WHITE], self.rings[BLACK]
        files = "   " + "".join(f" {FILES[file]}  " for file in range(SIZE))
        lines = [files]
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for square in range(rank * SIZE, rank * SIZE + SIZE):
                ring = "O" if white >> square & 1 else "X" if black >> square & 1 else " "
                colour = self.colour[square]
                if colour == NO_DISC:
                    cells.append(f"{ring}. ")
                else:
                    height = 1 if self.lower[square] == NO_DISC else 2
                    cells.append(f"{ring}{COLOUR_LETTERS[colour]}{height}")
            lines.append(f"{rank + 1}  {' '.join(cells)}  {rank + 1}")
        lines.append(files)
        lines.append("b blue, p purple, o orange, y yellow: top disc, then the number of discs;"
                     " . no disc; O white ring, X black ring")
        phase = "placing rings" if self.placing else "moving rings"
        lines.append(f"variant {self.game.variant}; {phase}; {COLOUR_NAMES[self.to_move]} to move")
        hand = "none" if self.hand == NO_DISC else DISC_NAMES[self.hand]
        lines.append(f"disc to place: {COLOUR_NAMES[self.to_move]} {hand}, "
                     f"{COLOUR_NAMES[self.to_move ^ 1]} none")
        for side in (WHITE, BLACK):
            names = ", ".join(DISC_NAMES[colour] for colour in sorted(self.controlled(side)))
            lines.append(f"{COLOUR_NAMES[side]} controls: {names or 'nothing'}")
        return "\n".join(lines)

    def step_prompt(self, made: str, following: list[str]) -> str:
        """The steps of a turn in laoCoon's words (see :meth:`Position.step_prompt`): a ring
        placed, black's optional swap after it, a ring's step, the received disc placed."""
        joins = {text[len(made)] for text in following if len(text) > len(made)}
        if not made:
            return ("place a ring on a space of a free colour" if self.placing
                    else "choose a ring to move")
        if self.placing:
            if "=" in joins:
                return "choose the space to swap it with (a disc of another colour)"
            return "you may swap two discs: choose the first space"
        if "+" in joins:
            return (f"place the {DISC_NAMES[self.hand]} disc you receive on a space with one "
                    f"disc of another colour")
        return "choose the space the ring steps to (a free colour)"

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: the 64 neutral spaces, each with its colour
        discs (a stack of two drawn with the lower disc showing below the top one; the discs
        lie above the last move's marks), the rings as black and white pieces, and under the
        board the disc the side to move has to place and the colours each side controls."""
        from ..drawing import UNIT, square_board
        grid = square_board(canvas, SIZE, SIZE, light="#d8d2c4", dark=None)
        fills = ("#2f6fd0", "#8b4fc0", "#f08a24", "#f4d23a")
        radius, shift = 0.4 * UNIT, 0.06 * UNIT
        for square in range(SQUARES):
            x, y = grid.centre(square)
            name = square_name(square, SIZE)
            for colour, dx, layer in ((self.lower[square], shift, "disc lower"),
                                      (self.colour[square], -shift, "disc")):
                if colour == NO_DISC:
                    continue
                if self.lower[square] == NO_DISC:
                    dx = 0
                canvas.circle(x + dx, y + dx, radius, f"{layer} {DISC_NAMES[colour]}",
                              "pieces", fill=fills[colour], stroke="#4a4a4a", stroke_width=1,
                              data_at=name)
        for side in (BLACK, WHITE):
            for square in squares_of(self.rings[side]):
                x, y = grid.centre(square)
                canvas.circle(x, y, 0.25 * UNIT, "ring-outline", "pieces", fill="none",
                              stroke="#f7f7f2" if side == BLACK else "#1e1e1e",
                              stroke_width=0.17 * UNIT)
                canvas.circle(x, y, 0.25 * UNIT, f"piece {COLOUR_NAMES[side]} ring", "pieces",
                              fill="none", stroke=("#1e1e1e", "#f7f7f2")[side],
                              stroke_width=0.11 * UNIT, data_at=square_name(square, SIZE))
        y = grid.height + 1.0 * UNIT
        if self.hand != NO_DISC:
            canvas.circle(0.3 * UNIT, y, 0.22 * UNIT, f"disc hand {DISC_NAMES[self.hand]}",
                          fill=fills[self.hand], stroke="#4a4a4a", stroke_width=1)
            canvas.text(0.65 * UNIT, y, f"{COLOUR_NAMES[self.to_move]} has a "
                        f"{DISC_NAMES[self.hand]} disc to place", "hand-disc", 0.3 * UNIT,
                        anchor="start")
            y += 0.6 * UNIT
        control = "; ".join(
            f"{COLOUR_NAMES[side]} controls "
            f"{', '.join(DISC_NAMES[c] for c in sorted(self.controlled(side))) or 'nothing'}"
            for side in (WHITE, BLACK))
        canvas.text(0, y, control, "control", 0.3 * UNIT, anchor="start")
