"""Surakarta, Computer Olympiad rules (SPEC 2.6; rules/icga-*.txt, Surakarta rules 1-5).

Board: 6x6 points, black on ranks 1-2, white on ranks 5-6, 12 pieces each; black moves first.
Two circuits run over the board. The inner one is ranks 2 and 5 and files b and e, closed by four
small loops around the corners (a2-b1, f2-e1, a5-b6, f5-e6); the outer one is ranks 3 and 4 and
files c and d, closed by four large loops (a3-c1, f3-d1, a4-c6, f4-d6). Each is one closed path
that goes straight through its crossings.
A piece steps one point in any of the 8 directions onto an empty point, or captures: it travels
along a circuit, either way, over empty points (its own start point counts as empty), through at
least one loop, and takes the first opponent piece it meets.
Capturing every opponent piece wins; a player without a legal move loses. The game also ends
when a position (board and side to move) occurs a second time (``repetition``) or after 50 plies
in a row without a capture (``no_progress``); then the side with more pieces wins, equal numbers
draw. These are judged right after the move, before whether the next player can move.

Notation: ``a1-b2``, capture ``b2xe6`` (one move however many routes reach the target).

Representation: one 36-bit integer per colour, bit ``rank * 6 + file``. A move is the integer
``origin << 6 | target``. Steps come from a table per point, indexed by its empty neighbours.
Captures use each circuit as a 24-bit string in travelling order (read from the bitboard with
three table look-ups); the four loops sit before entries 0, 6, 12 and 18. Seen from a loop, the
string rotated to start just after it puts the nearest piece on one side in its lowest bit and
the nearest on the other side in its highest bit: only those two can pass this loop, and each
captures the nearest piece beyond it (its own entries masked out) when that is an opponent's.
"""

from __future__ import annotations

from ..core import BLACK, COLOUR_NAMES, WHITE, Advantage, Game, Outcome, Position, Termination
from ..grid import FILES, from_to_text, parse_from_to, parse_square, square_name

SIZE = 6
FULL = (1 << 36) - 1
FILE_A = sum(1 << (rank * SIZE) for rank in range(SIZE))
NOT_FILE_A = FULL ^ FILE_A
NOT_FILE_F = FULL ^ (FILE_A << (SIZE - 1))
START_BLACK = (1 << 12) - 1
START_WHITE = FULL ^ ((1 << 24) - 1)
NO_PROGRESS_PLIES = 50

# Each circuit as its four lines in travelling order; a loop joins the last point of each line
# to the first point of the next (and the last line back to the first).
INNER_LINES = ("b1 b2 b3 b4 b5 b6", "a5 b5 c5 d5 e5 f5", "e6 e5 e4 e3 e2 e1", "f2 e2 d2 c2 b2 a2")
OUTER_LINES = ("c1 c2 c3 c4 c5 c6", "a4 b4 c4 d4 e4 f4", "d6 d5 d4 d3 d2 d1", "f3 e3 d3 c3 b3 a3")
LENGTH = 24
ENTRY_MASK = (1 << LENGTH) - 1


def _circuit(lines: tuple[str, ...]) -> tuple[tuple[int, bool], ...]:
    """A circuit as a closed cyclic sequence of (point, whether a loop leads into this entry
    from the previous one)."""
    return tuple((parse_square(name, SIZE, SIZE), index == 0)
                 for line in lines for index, name in enumerate(line.split()))


CIRCUITS = (_circuit(INNER_LINES), _circuit(OUTER_LINES))


def _chunk_tables(circuit) -> tuple[tuple[int, ...], ...]:
    """Three tables turning 12-bit slices of a bitboard (ranks 1-2, 3-4, 5-6) into the
    circuit's 24-bit string of entries (a crossing point sets two entries)."""
    entries_of = [0] * (SIZE * SIZE)
    for entry, (point, _) in enumerate(circuit):
        entries_of[point] |= 1 << entry
    tables = []
    for chunk in range(3):
        table = [0] * 4096
        for value in range(1, 4096):
            low = value & -value
            table[value] = table[value ^ low] | entries_of[chunk * 12 + low.bit_length() - 1]
        tables.append(tuple(table))
    return tuple(tables)


def _windows(circuit):
    """For each loop, the circuit's string seen from just after it: the entry where the
    rotated string starts, the point at each rotated entry, and for each point the mask of
    its entries in the rotated string."""
    windows = []
    for start, (_, loop) in enumerate(circuit):
        if loop:
            order = tuple(circuit[(start + i) % LENGTH][0] for i in range(LENGTH))
            masks = tuple(sum(1 << i for i, point in enumerate(order) if point == p)
                          for p in range(SIZE * SIZE))
            windows.append((start, order, masks))
    return tuple(windows)


CHUNKS = tuple(_chunk_tables(circuit) for circuit in CIRCUITS)
# Per circuit: the bitboard of its points, its three chunk tables, then its loops as
# :func:`_windows` gives them.
CAPTURE_TABLES = tuple((sum(1 << point for point in {point for point, _ in circuit}), *chunks,
                        _windows(circuit)) for chunks, circuit in zip(CHUNKS, CIRCUITS))
# Multiplying a 24-bit string by this writes it twice in a row, so that any rotation of it is
# a shift and a mask.
TWICE = 1 << LENGTH | 1
# One step in each of the 8 directions: (shift, points a shifted piece may land on). A shift to
# the east or west must not wrap round to the other edge.
STEPS_UP = ((1, NOT_FILE_A), (SIZE, FULL), (SIZE + 1, NOT_FILE_A), (SIZE - 1, NOT_FILE_F))
STEPS_DOWN = ((1, NOT_FILE_F), (SIZE, FULL), (SIZE + 1, NOT_FILE_F), (SIZE - 1, NOT_FILE_A))

# --- evaluation weights ------------------------------------------------------------------------
WEIGHT_PIECE = 100
WEIGHT_CAN_CAPTURE = 60  # the side to move can take a piece now
WEIGHT_ATTACKED = 15     # per opponent piece one of ours attacks along a circuit
WEIGHT_HANGING = 25      # per piece of ours the opponent attacks
WEIGHT_ON_CIRCUIT = 3    # per circuit entry a piece occupies (crossings count twice)
WEIGHT_MOBILITY = 2      # per step move
TEMPO = 10


def neighbours(bits: int) -> int:
    """Every point 8-adjacent to a point of ``bits`` (and ``bits`` itself)."""
    grown = bits | (bits << SIZE) | (bits >> SIZE)
    return (grown | ((grown << 1) & NOT_FILE_A) | ((grown >> 1) & NOT_FILE_F)) & FULL


def _step_moves(point: int) -> dict[int, tuple[int, ...]]:
    """The step moves from ``point`` for every set of its neighbours that may be empty."""
    around = STEP_TARGETS[point]
    table, subset = {}, around
    while True:
        table[subset] = tuple(point << 6 | target for target in range(SIZE * SIZE)
                              if subset >> target & 1)
        if not subset:
            return table
        subset = (subset - 1) & around


STEP_TARGETS = tuple(neighbours(1 << point) ^ (1 << point) for point in range(SIZE * SIZE))
STEP_MOVES = tuple(_step_moves(point) for point in range(SIZE * SIZE))


def circuit_string(circuit: int, bits: int) -> int:
    """The points of ``bits`` as the circuit's 24-bit string of entries."""
    low, middle, high = CHUNKS[circuit]
    return low[bits & 4095] | middle[bits >> 12 & 4095] | high[bits >> 24]


def captures(own: int, opponent: int) -> set[int]:
    """Every capture (``origin << 6 | target``) that the pieces ``own`` have against
    ``opponent``, each once however many routes reach it."""
    found = set()
    occupied = own | opponent
    for points, low, middle, high, loops in CAPTURE_TABLES:
        if not (own & points and opponent & points):
            continue
        occupied_twice = TWICE * (low[occupied & 4095] | middle[occupied >> 12 & 4095]
                                  | high[occupied >> 24])
        for start, order, masks in loops:
            window = occupied_twice >> start & ENTRY_MASK
            # Forward through the loop: the last piece before it, onto the first beyond it
            # (never the mover's own point; some opponent piece is always left on the string).
            mover = order[window.bit_length() - 1]
            if own >> mover & 1:
                rest = window & ~masks[mover]
                target = order[(rest & -rest).bit_length() - 1]
                if opponent >> target & 1:
                    found.add(mover << 6 | target)
            # Backward through the loop: the first piece after it, onto the last before it.
            mover = order[(window & -window).bit_length() - 1]
            if own >> mover & 1:
                target = order[(window & ~masks[mover]).bit_length() - 1]
                if opponent >> target & 1:
                    found.add(mover << 6 | target)
    return found


def step_count(own: int, empty: int) -> int:
    """How many step moves the pieces ``own`` have onto the points ``empty``."""
    count = 0
    for shift, allowed in STEPS_UP:
        count += ((own << shift) & allowed & empty).bit_count()
    for shift, allowed in STEPS_DOWN:
        count += ((own >> shift) & allowed & empty).bit_count()
    return count


class Surakarta(Game):
    """Surakarta on the fixed 6x6 board."""

    name = "surakarta"
    title = "Surakarta"
    spec_section = "2.6"
    clear_advantage = Advantage(100, "one piece (100)")
    first_player = BLACK
    default_size = (SIZE, SIZE)

    def initial_position(self) -> SurakartaPosition:
        return SurakartaPosition(self)


class SurakartaPosition(Position):
    """A Surakarta position: two bitboards, the side to move and the plies since a capture."""

    tracks_positions = True
    has_evaluation = True
    typical_plies = 80

    def __init__(self, game: Game, black: int = START_BLACK, white: int = START_WHITE,
                 to_move: int = BLACK, quiet_plies: int = 0) -> None:
        super().__init__(game)
        self.pieces = [black, white]
        self.to_move = to_move
        self.quiet_plies = quiet_plies
        self._start()

    @classmethod
    def setup(cls, black: str, white: str, to_move: int = BLACK,
              quiet_plies: int = 0) -> SurakartaPosition:
        """A position from space-separated point lists: ``setup("b2 c3", "e6", WHITE)``;
        ``quiet_plies`` is how many plies have gone by without a capture."""
        def bits(points: str) -> int:
            return sum(1 << parse_square(name, SIZE, SIZE) for name in points.split())
        return cls(Surakarta(), bits(black), bits(white), to_move, quiet_plies)

    def _copy_state(self, other: SurakartaPosition) -> None:
        other.pieces = list(self.pieces)

    def _generate(self) -> list[int]:
        own = self.pieces[self.to_move]
        opponent = self.pieces[self.to_move ^ 1]
        empty = FULL ^ (own | opponent)
        moves = sorted(captures(own, opponent))  # a set's order differs between interpreters
        remaining = own
        while remaining:
            low = remaining & -remaining
            remaining ^= low
            origin = low.bit_length() - 1
            moves += STEP_MOVES[origin][STEP_TARGETS[origin] & empty]
        return moves

    def noisy_moves(self) -> list[int]:
        """The captures, for the quiescence search."""
        return sorted(captures(self.pieces[self.to_move], self.pieces[self.to_move ^ 1]))

    def _apply(self, move: int) -> tuple[bool, int]:
        mover = self.to_move
        target = 1 << (move & 63)
        self.pieces[mover] ^= (1 << (move >> 6)) | target
        captured = bool(self.pieces[mover ^ 1] & target)
        quiet = self.quiet_plies
        if captured:
            self.pieces[mover ^ 1] ^= target
            self.quiet_plies = 0
        else:
            self.quiet_plies = quiet + 1
        return captured, quiet

    def _revert(self, move: int, undo: tuple[bool, int]) -> None:
        captured, self.quiet_plies = undo
        mover = self.to_move
        target = 1 << (move & 63)
        self.pieces[mover] ^= (1 << (move >> 6)) | target
        if captured:
            self.pieces[mover ^ 1] |= target

    def _judge(self, move) -> Outcome | None:
        to_move = self.to_move
        own, opponent = self.pieces[to_move], self.pieces[to_move ^ 1]
        if not own:
            winner, loser = COLOUR_NAMES[to_move ^ 1], COLOUR_NAMES[to_move]
            return Outcome(to_move ^ 1, Termination.NORMAL,
                           f"{winner} captured every {loser} piece")
        if self.occurrences() >= 2:
            return self._by_piece_count(Termination.REPETITION,
                                        "the position occurred a second time")
        if self.quiet_plies >= NO_PROGRESS_PLIES:
            return self._by_piece_count(Termination.NO_PROGRESS,
                                        f"{NO_PROGRESS_PLIES} plies without a capture")
        if not (neighbours(own) & ~(own | opponent) & FULL or captures(own, opponent)):
            return Outcome(to_move ^ 1, Termination.NORMAL,
                           f"{COLOUR_NAMES[to_move]} has no legal move")
        return None

    def _by_piece_count(self, termination: Termination, why: str) -> Outcome:
        """The end by lack of progress: the side with more pieces wins, equal numbers draw."""
        black, white = (bits.bit_count() for bits in self.pieces)
        counts = f"{black} black to {white} white pieces"
        if black == white:
            return Outcome(None, termination, f"{why}, drawn at {counts}")
        winner = BLACK if black > white else WHITE
        return Outcome(winner, termination, f"{why}, {COLOUR_NAMES[winner]} wins {counts}")

    def move_text(self, move: int) -> str:
        target = move & 63
        capture = bool(self.pieces[self.to_move ^ 1] >> target & 1)
        return from_to_text(move >> 6, target, capture, SIZE)

    def parse_move(self, text: str) -> int:
        origin, target = parse_from_to(text, SIZE, SIZE)
        move = origin << 6 | target
        return self._legal(move, text.strip().lower(), origin, target)

    def _why_illegal(self, origin: int, target: int) -> str:
        """One line saying why a from-to move is not legal, for the error message."""
        colour = COLOUR_NAMES[self.to_move]
        own, opponent = self.pieces[self.to_move], self.pieces[self.to_move ^ 1]
        if not own >> origin & 1:
            return f"no {colour} piece on {square_name(origin, SIZE)}"
        if own >> target & 1:
            return "it would land on its own piece"
        if opponent >> target & 1:
            return "no free path along a circuit through a loop leads to that piece"
        return "a move to an empty point goes one step, to a neighbouring point"

    def evaluate(self) -> int:
        """Material first; then the captures each side has along the circuits (the side to
        move can take now, pieces the opponent attacks may be lost), presence on the circuits
        and mobility."""
        mover = self.to_move
        own, opponent = self.pieces[mover], self.pieces[mover ^ 1]
        empty = FULL ^ (own | opponent)
        attacks = captures(own, opponent)
        threats = captures(opponent, own)
        score = TEMPO + WEIGHT_PIECE * (own.bit_count() - opponent.bit_count())
        if attacks:
            score += WEIGHT_CAN_CAPTURE
        score += WEIGHT_ATTACKED * len({move & 63 for move in attacks})
        score -= WEIGHT_HANGING * len({move & 63 for move in threats})
        score += WEIGHT_ON_CIRCUIT * sum(
            circuit_string(c, own).bit_count() - circuit_string(c, opponent).bit_count()
            for c in (0, 1))
        score += WEIGHT_MOBILITY * (step_count(own, empty) - step_count(opponent, empty))
        return score

    def key(self) -> int:
        return self.pieces[0] | self.pieces[1] << 36 | self.to_move << 72

    def diagram(self) -> str:
        return render_board(self.pieces[0], self.pieces[1],
                            f"X black, O white; {COLOUR_NAMES[self.to_move]} to move")

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: the points on their lines, the inner circuit
        (red) and the outer one (blue) with their loops as three-quarter circles round the
        corners, black and white pieces on the points."""
        from ..drawing import Grid, bitboard_pieces
        grid = canvas.board = Grid(SIZE, SIZE, canvas.flipped, points=True)
        grid.draw_lines(canvas, margin=3.2)
        for reach, lines, colour in ((1, INNER_LINES, "#b8322a"), (2, OUTER_LINES, "#1f5fa8")):
            style = {"stroke": colour, "stroke_width": 3}
            for line in lines:
                first, *_, last = (parse_square(name, SIZE, SIZE) for name in line.split())
                canvas.line(grid.centre(first), grid.centre(last), "circuit", **style)
            for file, rank in ((0, 0), (SIZE - 1, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1)):
                inward_file, inward_rank = (1 if file == 0 else -1), (1 if rank == 0 else -1)
                canvas.arc(grid.place(file, rank), grid.place(file, rank + reach * inward_rank),
                           grid.place(file + reach * inward_file, rank), "circuit loop", **style)
        grid.draw_labels(canvas, distance=2.75)
        for colour, bits in enumerate(self.pieces):
            bitboard_pieces(canvas, bits, colour, scale=0.32)


# --- the diagram ---------------------------------------------------------------------------------
# Points sit 4 columns and 2 rows apart. The inner circuit is drawn with - and |, the outer
# one with = and :, each loop as a box round its corner, the outer loops outside the inner ones.
COLUMN_STEP, ROW_STEP, MARGIN = 4, 2, 2


def _canvas_position(file: int, rank: int) -> tuple[int, int]:
    """Row and column of a point on the diagram's canvas (row 0 at the top)."""
    return (MARGIN * ROW_STEP + (SIZE - 1 - rank) * ROW_STEP,
            3 + MARGIN * COLUMN_STEP + file * COLUMN_STEP)


def _draw_line(canvas, start, end, horizontal: str, vertical: str) -> None:
    """Draw a straight line between two canvas cells, corners and ends left to the caller."""
    (row1, col1), (row2, col2) = start, end
    if row1 == row2:
        for col in range(min(col1, col2) + 1, max(col1, col2)):
            canvas[row1][col] = horizontal
    else:
        for row in range(min(row1, row2) + 1, max(row1, row2)):
            canvas[row][col1] = vertical


def _draw_loop(canvas, side_point, end_point, reach: int, marks: tuple[str, str]) -> None:
    """Draw a loop from the outer end of a rank line (``side_point``) round the corner to the
    outer end of a file line (``end_point``), ``reach`` point spacings out from the board."""
    (file1, rank1), (file2, rank2) = side_point, end_point
    west = file1 == 0
    south = rank2 == 0
    out_file = -reach if west else SIZE - 1 + reach
    out_rank = -reach if south else SIZE - 1 + reach
    path = [(file1, rank1), (out_file, rank1), (out_file, out_rank), (file2, out_rank),
            (file2, rank2)]
    cells = [_canvas_position(f, r) for f, r in path]
    for index, (start, end) in enumerate(zip(cells, cells[1:])):
        _draw_line(canvas, start, end, *marks)
        if 0 < index + 1 < len(cells) - 1:
            canvas[end[0]][end[1]] = "+"


def _board_template() -> list[list[str]]:
    """The canvas with both circuits drawn and the coordinates written, without pieces."""
    rows = (SIZE - 1 + 2 * MARGIN) * ROW_STEP + 1
    cols = (SIZE - 1 + 2 * MARGIN) * COLUMN_STEP + 7
    canvas = [[" "] * cols for _ in range(rows)]
    for lines, marks, reach in ((INNER_LINES, ("-", "|"), 1), (OUTER_LINES, ("=", ":"), 2)):
        ends = []
        for line in lines:
            names = line.split()
            first, last = (parse_square(names[i], SIZE, SIZE) for i in (0, -1))
            cells = [_canvas_position(p % SIZE, p // SIZE) for p in (first, last)]
            _draw_line(canvas, cells[0], cells[1], *marks)
            ends.append((first, last))
        for index, (_, last) in enumerate(ends):
            first = ends[(index + 1) % len(ends)][0]
            # A loop joins the end of a rank line (on file a or f) to the end of a file line.
            side, end = (last, first) if last % SIZE in (0, SIZE - 1) else (first, last)
            _draw_loop(canvas, (side % SIZE, side // SIZE), (end % SIZE, end // SIZE), reach, marks)
    return canvas


def render_board(black: int, white: int, legend: str) -> str:
    """The diagram: both circuits with their loops, coordinates all round, X black, O white,
    . an empty point."""
    canvas = [list(row) for row in _TEMPLATE]
    for point in range(SIZE * SIZE):
        row, col = _canvas_position(point % SIZE, point // SIZE)
        canvas[row][col] = "X" if black >> point & 1 else "O" if white >> point & 1 else "."
    for rank in range(SIZE):
        row, _ = _canvas_position(0, rank)
        canvas[row][0] = str(rank + 1)
        canvas[row][-1] = str(rank + 1)
    lines = ["".join(row).rstrip() for row in canvas]
    files = [" "] * len(canvas[0])
    for file in range(SIZE):
        files[_canvas_position(file, 0)[1]] = FILES[file]
    label = "".join(files).rstrip()
    return "\n".join([label, *lines, label, legend,
                      "inner circuit - and |, outer circuit = and :, loops round the corners"])


_TEMPLATE = _board_template()
