"""Cookie Disco by Olaf Pieters (SPEC 2.10; rules/cookie-disco.txt; gaps in docs/cookiedisco.md).

Board: none. Eight equal cookies lie on an unbounded hexagonal grid in axial coordinates
``q,r``; the six neighbours of (q, r) are (q±1, r), (q, r±1), (q+1, r-1) and (q-1, r+1).
Three chocolate cookies ``C`` (3 points), two caramel ``K`` (2), one vanilla ``V`` (1), black's
player cookie (orange, 0) and white's (blue, 0). Option ``layout=1..6`` picks the start of the
six neutral cookies (SPEC table).

Play: black, then white, puts its player cookie on a *numbered position* of the layout (an empty
cell touching exactly two of its six cookies); then black moves first. A move takes a cookie
(never the opponent's player cookie, never of the colour moved on the previous turn) and rolls it
around the outside of the others for exactly n steps, n being the point value of a cookie it
touched at the start (SPEC 2.10 defines rolling, halting, pivots and steps). The field must stay
in one piece unless the move splits it so that the mover's player cookie ends in a group worth
strictly more than the opponent's: that move wins. A player with no legal move loses.

Notation: a placement is a cell ``3,-1``; a move is ``from>to``: ``0,1>2,-1``.

Representation: a cell is the integer ``q * STRIDE + r`` (so a neighbour is one addition away;
``|r|`` must stay below 2**31, far beyond any game). ``board`` maps each occupied cell to the
cookie on it (0-2 chocolate, 3-4 caramel, 5 vanilla, 6 black's, 7 white's); ``cells`` is the
reverse list (``None`` for a player cookie not yet placed); ``cherry`` is the cell of the cookie
moved last. A move is the tuple ``(origin, target)``, ``origin`` being ``None`` for a placement.

A roll is followed in the frame of the rolling cookie's cell X: the pivot sits in direction k;
rolling in sense t the next cell is X + D[k+t], the far common neighbour X + D[k+2t], and after
the roll the pivot lies in direction k-t. A blocked roll passes the pivot to the blocker
(direction k+t or k+2t), which is a halt once the cookie has rolled since the last one.
"""

from __future__ import annotations

import re

from ..core import (BLACK, COLOUR_NAMES, WHITE, Advantage, Game, MoveSyntaxError, Outcome, Position,
                    Termination)

STRIDE = 1 << 32
HALF_STRIDE = STRIDE // 2
# The six directions in cyclic order, clockwise as the diagram draws them (row r at height r):
# (1,0), (1,-1), (0,-1), (-1,0), (-1,1), (0,1). The rules only need some fixed cyclic order.
AXIAL_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
D = tuple(dq * STRIDE + dr for dq, dr in AXIAL_DIRECTIONS)
SENSES = (1, -1)

CHOCOLATE, CARAMEL, VANILLA, ORANGE, BLUE = range(5)
COLOUR_WORDS = ("chocolate", "caramel", "vanilla", "orange", "blue")
NO_COLOUR = -1
# Cookie indices: 0-2 chocolate, 3-4 caramel, 5 vanilla, 6 black's, 7 white's.
PLAYER_COOKIE = (6, 7)
VALUE = (3, 3, 3, 2, 2, 1, 0, 0)
COLOUR = (CHOCOLATE, CHOCOLATE, CHOCOLATE, CARAMEL, CARAMEL, VANILLA, ORANGE, BLUE)
SYMBOL = "CCCKKVXO"

# Evaluation weights: a threat to win next move, each neighbour of a player cookie (on top of
# the neighbour's points), and the move in hand.
WIN_THREAT = 10_000
ATTACHMENT_WEIGHT = 3
TEMPO = 10

# SPEC 2.10's layouts: chocolate, caramel and vanilla cells as (q, r).
LAYOUTS = {
    "1": (((0, -1), (-1, 0), (-1, 1)), ((1, -1), (0, 1)), (1, 0)),
    "2": (((1, 0), (0, -1), (-1, 1)), ((1, -1), (0, 1)), (-1, 0)),
    "3": (((0, 2), (1, 1), (2, 0)), ((1, 0), (0, 1)), (0, 0)),
    "4": (((0, 0), (0, 2), (2, 0)), ((1, 0), (0, 1)), (1, 1)),
    "5": (((1, 0), (0, 1), (1, 1)), ((0, 2), (2, 0)), (0, 0)),
    "6": (((0, 0), (1, 0), (0, 1)), ((0, 2), (2, 0)), (1, 1)),
}

# ASCII digits only (\d would take other scripts' digits); nine are far beyond the field and
# keep int() bounded.
_CELL = r"[ \t]*([+-]?[0-9]{1,9})[ \t]*,[ \t]*([+-]?[0-9]{1,9})[ \t]*"
_PLACEMENT = re.compile(_CELL)
_MOVE = re.compile(_CELL + ">" + _CELL)


def cell_of(q: int, r: int) -> int:
    """The cell integer of axial coordinates (q, r)."""
    return q * STRIDE + r


def axial(cell: int) -> tuple[int, int]:
    """The axial coordinates (q, r) of a cell integer."""
    q = (cell + HALF_STRIDE) // STRIDE
    return q, cell - q * STRIDE


def cell_text(cell: int) -> str:
    """The canonical token of a cell: ``q,r``."""
    q, r = axial(cell)
    return f"{q},{r}"


def read_cell(cell) -> int:
    """A cell given as ``"q,r"``, as ``(q, r)`` or already as a cell integer."""
    if isinstance(cell, int):
        return cell
    if isinstance(cell, str):
        match = _PLACEMENT.fullmatch(cell)
        if not match:
            raise MoveSyntaxError(f"{cell!r} is not a cell (expected q,r like 3,-1)")
        return cell_of(int(match[1]), int(match[2]))
    q, r = cell
    return cell_of(q, r)


def groups(cells) -> list[set[int]]:
    """The connected groups of a set of cells."""
    remaining = set(cells)
    found = []
    while remaining:
        group = {remaining.pop()}
        frontier = list(group)
        while frontier:
            cell = frontier.pop()
            for d in D:
                neighbour = cell + d
                if neighbour in remaining:
                    remaining.discard(neighbour)
                    group.add(neighbour)
                    frontier.append(neighbour)
        found.append(group)
    return found


def is_connected(cells) -> bool:
    """Whether a non-empty set of cells forms one group."""
    cells = set(cells)
    group = {next(iter(cells))}
    frontier = list(group)
    while frontier:
        cell = frontier.pop()
        for d in D:
            neighbour = cell + d
            if neighbour in cells and neighbour not in group:
                group.add(neighbour)
                frontier.append(neighbour)
    return len(group) == len(cells)


def numbered_positions(layout: str) -> list[int]:
    """The empty cells touching exactly two of the layout's six cookies, ordered from the top
    row down and left to right (the order of their numbers in the diagram)."""
    cookies = {cell_of(*cell) for cell in _layout_cells(layout)}
    touching: dict[int, int] = {}
    for cookie in cookies:
        for d in D:
            if cookie + d not in cookies:
                touching[cookie + d] = touching.get(cookie + d, 0) + 1
    found = [cell for cell, count in touching.items() if count == 2]
    return sorted(found, key=lambda cell: (-axial(cell)[1], axial(cell)[0]))


def _layout_cells(layout: str) -> list[tuple[int, int]]:
    """The six neutral cookies' cells of a layout, in cookie-index order."""
    chocolate, caramel, vanilla = LAYOUTS[layout]
    return [*chocolate, *caramel, vanilla]


def _ring_tables():
    """For every 6-bit pattern of occupied neighbours (bit j: direction j): how many separate
    runs of occupied cells surround the cell, and the distinct (pivot direction, sense) pairs
    from which a cookie there rolls away at once, trying each neighbour as the first pivot and
    passing the pivot on to each blocker in turn."""
    runs, starts = [], []
    for mask in range(64):
        occupied = [bool(mask >> j & 1) for j in range(6)]
        runs.append(sum(occupied[j] and not occupied[j - 1] for j in range(6)))
        found = []
        for t in SENSES:
            for first in range(6):
                if not occupied[first]:
                    continue
                k = first
                for _ in range(6):
                    if occupied[(k + t) % 6]:
                        k = (k + t) % 6
                    elif occupied[(k + 2 * t) % 6]:
                        k = (k + 2 * t) % 6
                    else:
                        if (k, t) not in found:
                            found.append((k, t))
                        break
        starts.append(tuple(found))
    return tuple(runs), tuple(starts)


RUNS, FIRST_ROLLS = _ring_tables()
# For sense t (index 0 for +1, 1 for -1) and pivot direction k: the offsets of the next cell Y
# and of the far common neighbour F, the pivot's direction after rolling into Y, and the
# blocker's direction when Y (or else F) is occupied.
_SENSE_TABLES = tuple(
    (tuple(D[(k + t) % 6] for k in range(6)), tuple(D[(k + 2 * t) % 6] for k in range(6)),
     tuple((k - t) % 6 for k in range(6)), tuple((k + t) % 6 for k in range(6)),
     tuple((k + 2 * t) % 6 for k in range(6)))
    for t in SENSES)


def neighbour_mask(cell: int, board) -> int:
    """The 6-bit pattern of the occupied neighbours of ``cell`` (bit j: direction j)."""
    return ((cell + D[0] in board) | (cell + D[1] in board) << 1 | (cell + D[2] in board) << 2
            | (cell + D[3] in board) << 3 | (cell + D[4] in board) << 4
            | (cell + D[5] in board) << 5)


def walk(start: int, k: int, t: int, board, steps: int) -> list[int]:
    """The halts of the route that leaves ``start`` with the pivot in direction ``k`` and
    sense ``t``, up to ``steps`` of them; ``board`` holds the other cookies (the starting cell
    is empty). A route rolling back into ``start`` ends there, without that halt."""
    next_y, next_f, after_roll, pivot_y, pivot_f = _SENSE_TABLES[t < 0]
    halts = []
    x = start
    rolled = False
    rolls = passes = 0
    while True:
        y = x + next_y[k]
        if y in board:
            k = pivot_y[k]
        elif x + next_f[k] in board:
            k = pivot_f[k]
        else:
            if y == start:
                return halts
            x = y
            k = after_roll[k]
            rolled = True
            rolls += 1
            if rolls == 6:
                return halts  # circling a lone pivot for ever
            continue
        # The roll is blocked: a halt if the cookie has rolled since the last one.
        if rolled:
            halts.append(x)
            if len(halts) == steps:
                return halts
            rolled = False
            rolls = passes = 0
        passes += 1
        if passes == 6:
            return halts  # every neighbour blocks: the cookie cannot go on


class CookieDisco(Game):
    """Cookie Disco on the unbounded hexagonal plane."""

    name = "cookiedisco"
    title = "Cookie Disco"
    spec_section = "2.10"
    clear_advantage = Advantage(50, "any firmer hold short of a winning split in hand (10000)")
    aliases = ("cookie_disco",)
    colour_aliases = {"orange": BLACK, "blue": WHITE}
    first_player = BLACK
    options = {"layout": ("1", "2", "3", "4", "5", "6")}
    may_not_end = True

    def initial_position(self) -> CookieDiscoPosition:
        layout = self.settings["layout"]
        chocolate, caramel, vanilla = LAYOUTS[layout]
        return CookieDiscoPosition(self, chocolate, caramel, vanilla)


class CookieDiscoPosition(Position):
    """A Cookie Disco position: the cookies' cells, the side to move and the cherry."""

    has_evaluation = True
    typical_plies = 40

    def __init__(self, game: Game, chocolate, caramel, vanilla, black=None, white=None,
                 to_move: int = BLACK, cherry=None) -> None:
        """Cells may be given as ``"q,r"``, ``(q, r)`` or cell integers; ``cherry`` is the cell
        of the cookie moved on the previous turn (``None`` when there was none)."""
        super().__init__(game)
        if len(chocolate) != 3 or len(caramel) != 2:
            raise ValueError("a setup has three chocolate and two caramel cookies")
        cells = [read_cell(cell) for cell in (*chocolate, *caramel, vanilla)]
        cells += [None if cell is None else read_cell(cell) for cell in (black, white)]
        if cells[6] is None and cells[7] is not None:
            raise ValueError("white's player cookie is placed after black's")
        self.cells: list[int | None] = cells
        self.board = {cell: index for index, cell in enumerate(cells) if cell is not None}
        if len(self.board) != sum(cell is not None for cell in cells):
            raise ValueError("two cookies on one cell")
        self.numbered = numbered_positions(game.settings.get("layout", "1"))
        self.to_move = to_move
        self.cherry = None if cherry is None else read_cell(cherry)
        if self.cherry is not None and self.cherry not in self.board:
            raise ValueError("the cherry must lie on a cookie")
        self._start()

    @classmethod
    def from_layout(cls, game: Game, black, white, to_move: int = BLACK, cherry=None):
        """The game's layout with both player cookies placed: the position before any move."""
        chocolate, caramel, vanilla = LAYOUTS[game.settings["layout"]]
        return cls(game, chocolate, caramel, vanilla, black, white, to_move, cherry)

    def _copy_state(self, other: CookieDiscoPosition) -> None:
        other.cells = list(self.cells)
        other.board = dict(self.board)

    # --- queries -------------------------------------------------------------------------------

    @property
    def placing(self) -> bool:
        """Whether a player cookie is still to be placed."""
        return self.cells[7] is None

    @property
    def last_colour(self) -> int:
        """The colour of the cookie moved on the previous turn, or ``NO_COLOUR``."""
        return NO_COLOUR if self.cherry is None else COLOUR[self.board[self.cherry]]

    def group_value(self, group) -> int:
        """The points of the cookies on a set of cells."""
        board = self.board
        return sum(VALUE[board[cell]] for cell in group)

    def touch_values(self, origin: int) -> set[int]:
        """The step counts the cookie on ``origin`` may choose: the point values (not 0) of the
        cookies it touches."""
        board = self.board
        return {VALUE[board[origin + d]] for d in D if origin + d in board} - {0}

    def reachable(self, origin: int) -> dict[int, int]:
        """Where the cookie on ``origin`` can roll, whatever the one-field rule says: each
        target with the fewest steps that reach it. Empty when the cookie touches no cookie
        worth points or cannot roll at all."""
        allowed = self.touch_values(origin)
        board = self.board
        starts = FIRST_ROLLS[neighbour_mask(origin, board)]
        if not allowed or not starts:
            return {}
        most = max(allowed)
        targets: dict[int, int] = {}
        index = board.pop(origin)
        try:
            for k, t in starts:
                for step, halt in enumerate(walk(origin, k, t, board, most), start=1):
                    if step in allowed and halt not in targets:
                        targets[halt] = step
        finally:
            board[origin] = index
        return targets

    def _splits_when_taken(self, origin: int) -> bool:
        """Whether taking the cookie on ``origin`` away splits the rest of the field. A cookie
        whose occupied neighbours form one unbroken arc never does."""
        board = self.board
        if RUNS[neighbour_mask(origin, board)] <= 1:
            return False
        index = board.pop(origin)
        try:
            return not is_connected(board)
        finally:
            board[origin] = index

    def split_verdict(self, origin: int, target: int) -> bool | None:
        """For a move of the cookie on ``origin`` to ``target``: ``None`` when the field stays
        in one piece throughout, ``True`` when the move splits it and wins, ``False`` when it
        splits the field (at the start or the end) without winning."""
        if not self._splits_when_taken(origin):
            return None  # the target touches the rest, so the end is in one piece too
        return self._wins_by(origin, target)

    def _rest_groups(self, origin: int) -> list[tuple[set[int], int]]:
        """The groups of the field without the cookie on ``origin``, each with its points."""
        board = self.board
        index = board.pop(origin)
        try:
            return [(group, self.group_value(group)) for group in groups(board)]
        finally:
            board[origin] = index

    def _wins_by(self, origin: int, target: int, rest=None) -> bool:
        """Whether moving the cookie on ``origin`` to ``target`` leaves the field split so that
        the player to move wins: its player cookie's group apart from the opponent's and worth
        strictly more. ``rest`` is :meth:`_rest_groups` of ``origin``, when known."""
        if rest is None:
            rest = self._rest_groups(origin)
        index = self.board[origin]
        around = {target + d for d in D}
        joined = [part for part in rest if not part[0].isdisjoint(around)]
        if len(joined) == len(rest):
            return False  # the target joins every group again
        own, other = (self.cells[PLAYER_COOKIE[self.to_move]],
                      self.cells[PLAYER_COOKIE[self.to_move ^ 1]])
        own_joined = index == PLAYER_COOKIE[self.to_move] or any(own in part for part, _ in joined)
        other_joined = (index == PLAYER_COOKIE[self.to_move ^ 1]
                        or any(other in part for part, _ in joined))
        if own_joined and other_joined:
            return False
        joined_value = VALUE[index] + sum(value for _, value in joined)
        own_value = joined_value if own_joined else next(
            value for part, value in rest if own in part)
        other_value = joined_value if other_joined else next(
            value for part, value in rest if other in part)
        return own_value > other_value

    # --- the rules ------------------------------------------------------------------------------

    def _generate(self) -> list:
        return list(self._per_ply(self._find_moves)[0])

    def _find_moves(self) -> tuple[tuple, frozenset]:
        """The legal moves and the winning ones among them, kept for the ply
        (:meth:`Position._per_ply`) and put back on undo: ``_judge`` needs the moves, the
        evaluation and the next ply's ``_won_by`` the wins."""
        return self._placements() if self.placing else self._rolls()

    def _placements(self) -> tuple[tuple, frozenset]:
        return tuple((None, cell) for cell in self.numbered if cell not in self.board), frozenset()

    def _movable(self) -> list[int]:
        """The cells of the cookies the side to move may take (colour and ownership rules)."""
        banned_colour = self.last_colour
        banned_cookie = PLAYER_COOKIE[self.to_move ^ 1]
        return [cell for index, cell in enumerate(self.cells)
                if index != banned_cookie and COLOUR[index] != banned_colour]

    def _rolls(self) -> tuple[tuple, frozenset]:
        """The legal moves, and those of them that win by splitting the field."""
        moves, wins = [], []
        for origin in self._movable():
            targets = self.reachable(origin)
            if not targets:
                continue
            if not self._splits_when_taken(origin):
                moves.extend((origin, target) for target in targets)
                continue
            rest = self._rest_groups(origin)
            for target in targets:
                if self._wins_by(origin, target, rest):
                    moves.append((origin, target))
                    wins.append((origin, target))
        return tuple(moves), frozenset(wins)

    def _apply(self, move) -> tuple:
        origin, target = move
        undo = (self.cherry, self._forget_ply())
        if origin is None:
            index = PLAYER_COOKIE[self.to_move]
        else:
            index = self.board.pop(origin)
            self.cherry = target
        self.board[target] = index
        self.cells[index] = target
        return undo

    def _revert(self, move, undo) -> None:
        origin, target = move
        index = self.board.pop(target)
        if origin is None:
            self.cells[index] = None
        else:
            self.board[origin] = index
            self.cells[index] = origin
        self.cherry, self._ply_cache = undo

    def _judge(self, move) -> Outcome | None:
        if self.placing:
            return None
        if move is not None and self._won_by(move):
            mover = self.to_move ^ 1
            values = self._player_group_values(mover)
            return Outcome(mover, Termination.NORMAL,
                           f"{COLOUR_NAMES[mover]} split the field, {values[0]} points "
                           f"against {values[1]}")
        if not self._generate():
            return Outcome(self.to_move ^ 1, Termination.NORMAL,
                           f"{COLOUR_NAMES[self.to_move]} has no legal move")
        return None

    def _won_by(self, move) -> bool:
        """Whether ``move``, just played, split the field (so won: a legal split wins)."""
        before = self.history[-1][1][1]
        if before is not None:
            return move in before[1]
        return not is_connected(self.board)

    def _player_group_values(self, player: int) -> tuple[int, int]:
        """The points of the groups holding ``player``'s and the opponent's player cookies."""
        parts = groups(self.board)
        values = []
        for index in (PLAYER_COOKIE[player], PLAYER_COOKIE[player ^ 1]):
            cell = self.cells[index]
            values.append(self.group_value(next(group for group in parts if cell in group)))
        return values[0], values[1]

    # --- notation -------------------------------------------------------------------------------

    def move_text(self, move) -> str:
        origin, target = move
        if origin is None:
            return cell_text(target)
        return f"{cell_text(origin)}>{cell_text(target)}"

    def parse_move(self, text: str):
        match = _MOVE.fullmatch(text) or _PLACEMENT.fullmatch(text)
        if not match:
            raise MoveSyntaxError(f"{text.strip()!r} is not a move (expected a cell like 3,-1 "
                                  f"or a roll like 0,1>2,-1)")
        numbers = [int(group) for group in match.groups()]
        if any(abs(number) >= HALF_STRIDE for number in numbers):
            raise MoveSyntaxError(f"{text.strip()!r}: coordinates beyond ±{HALF_STRIDE - 1}")
        cells = [cell_of(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
        move = (cells[0], cells[1]) if len(cells) == 2 else (None, cells[0])
        return self._legal(move, self.move_text(move))

    def _why_illegal(self, move) -> str:
        """One line saying why a well-formed move is not legal, for the error message."""
        origin, target = move
        if origin is None:
            if not self.placing:
                return "the player cookies are placed already (expected a roll like 0,1>2,-1)"
            if target in self.board:
                return "the cell is taken"
            return "not a numbered position (an empty cell touching exactly two of the six cookies)"
        if self.placing:
            return "the player cookies are placed first (expected a cell like 3,-1)"
        index = self.board.get(origin)
        if index is None:
            return f"no cookie on {cell_text(origin)}"
        if index == PLAYER_COOKIE[self.to_move ^ 1]:
            return "the opponent's player cookie cannot be moved"
        if COLOUR[index] == self.last_colour:
            return f"a {COLOUR_WORDS[COLOUR[index]]} cookie was moved on the previous turn"
        allowed = sorted(self.touch_values(origin))
        if not allowed:
            return "the cookie touches only player cookies, which are worth no steps"
        if not FIRST_ROLLS[neighbour_mask(origin, self.board)]:
            return "the cookie is surrounded and cannot roll away"
        if target not in self.reachable(origin):
            counts = " or ".join(str(n) for n in allowed)
            return f"the cookie cannot roll there in exactly {counts} step{'s' * (allowed != [1])}"
        if self._splits_when_taken(origin):
            return "taking the cookie away splits the field, and the move does not win"
        return "the move would split the field without winning"

    def evaluate(self) -> int:
        """A winning split in hand is almost a win. Otherwise: how firmly each player cookie is
        held in the field, own minus the opponent's. A player cookie with many neighbours, and
        rich ones, is hard to cut off and ends in the bigger part of a split; one at a tip is
        cut off by moving its only neighbour. (Alpha-beta with this beat MCTS at equal time,
        12-0 at 0.5 s a move.)"""
        if self._per_ply(self._find_moves)[1]:
            return WIN_THREAT
        own = self.cells[PLAYER_COOKIE[self.to_move]]
        other = self.cells[PLAYER_COOKIE[self.to_move ^ 1]]
        return TEMPO + self._attachment(own) - self._attachment(other)

    def _attachment(self, cell: int | None) -> int:
        """How firmly a player cookie is held: its neighbours, weighted, plus their points."""
        if cell is None:
            return 0
        board = self.board
        held = 0
        for d in D:
            index = board.get(cell + d)
            if index is not None:
                held += ATTACHMENT_WEIGHT + VALUE[index]
        return held

    def key(self) -> tuple:
        cells = self.cells
        return (tuple(sorted(cells[0:3])), tuple(sorted(cells[3:5])), cells[5], cells[6],
                cells[7], self.to_move, self.last_colour)

    def diagram(self) -> str:
        return render(self)

    def step_prompt(self, made: str, following: list[str]) -> str:
        """A player cookie placed, a cookie rolled (see :meth:`Position.step_prompt`)."""
        if self.placing:
            return "place your player cookie on a numbered position"
        return "choose where it rolls to" if made else "choose a cookie to roll"

    def draw(self, canvas) -> None:
        """The picture for :mod:`engine.drawing`: the hexagonal cells round the field, each
        labelled ``q,r``; the cookies as touching discs, the neutral ones with their points as
        dice pips, black's orange and white's blue player cookies as the pieces; the cherry
        on the cookie moved last; while the player cookies are placed, the free numbered
        positions."""
        from ..drawing import UNIT, Hexes
        hexes = canvas.board = Hexes(canvas.flipped)
        canvas.zoom = 1.5  # eight cookies make a small picture
        fills = ("#5b3419", "#c98f4d", "#f5eedb", "#f0872a", "#2f6fd0")
        inks = ("#f5eedb", "#4a2a12", "#6b4a2a", "#3a1c05", "#f5eedb")
        occupied = {axial(cell): index for cell, index in self.board.items()}
        numbered = [axial(cell) for cell in self.numbered] if self.placing else []
        shown = set(occupied) | set(numbered)
        shown |= {(q + dq, r + dr) for q, r in occupied for dq, dr in AXIAL_DIRECTIONS}
        ink = {cell: inks[COLOUR[index]] for cell, index in occupied.items()}
        hexes.draw_cells(canvas, sorted(shown, key=lambda cell: (-cell[1], cell[0])), ink)
        for number, cell in enumerate(numbered, start=1):
            if cell not in occupied:
                x, y = hexes.centre(cell)
                canvas.text(x, y + 0.06 * UNIT, str(number), "numbered", 0.4 * UNIT,
                            fill="#9a8a66")
        pip, spread = 0.075 * UNIT, 0.17 * UNIT
        for cell, index in occupied.items():
            x, y = hexes.centre(cell)
            colour = COLOUR[index]
            style = {"fill": fills[colour], "stroke": "#3a2410", "stroke_width": 1.2,
                     "data_at": hexes.name(cell)}
            if index in PLAYER_COOKIE:
                canvas.disc(x, y, PLAYER_COOKIE.index(index), 0.48 * UNIT,
                            f"cookie {COLOUR_WORDS[colour]}", **style)
            else:
                canvas.circle(x, y, 0.48 * UNIT, f"cookie {COLOUR_WORDS[colour]}", "pieces",
                              **style)
            value = VALUE[index]
            spots = [(0, 0)] if value % 2 else []
            spots += [(-spread, spread), (spread, -spread)] if value >= 2 else []
            for dx, dy in spots:
                canvas.circle(x + dx, y + dy, pip, "pip", "pieces", fill=inks[colour])
            if self.cherry is not None and cell == axial(self.cherry):
                canvas.circle(x + 0.32 * UNIT, y + 0.06 * UNIT, 0.11 * UNIT, "cherry", "pieces",
                              fill="#d01c2a", stroke="#7a0a12", stroke_width=1)
        x0, _, x1, y1 = canvas.box
        canvas.text((x0 + x1) / 2, y1 + 0.35 * UNIT, "pips: points; orange: black, blue: white",
                    "legend", 0.28 * UNIT)


def render(position: CookieDiscoPosition) -> str:
    """The field in offset rows (row r printed at height r, a cell q columns right of its row
    start), the row numbers on the left, then a legend with every cookie's cell. The cookie
    moved last carries the cherry ``*``; free numbered positions show their numbers while the
    player cookies are placed."""
    marks = {cell: SYMBOL[index] for cell, index in position.board.items()}
    numbers = {}
    if position.placing:
        numbers = {cell: str(number) for number, cell in enumerate(position.numbered, start=1)
                   if cell not in position.board}
    shown = list(marks) + list(numbers)
    coords = [axial(cell) for cell in shown]
    rows = [r for _, r in coords]
    columns = [2 * q + r for q, r in coords]
    low_r, high_r = min(rows) - 1, max(rows) + 1
    low_x, high_x = min(columns) - 2, max(columns) + 2
    lines = []
    for r in range(high_r, low_r - 1, -1):
        text = []
        for x in range(low_x, high_x + 1):
            if (x - r) % 2:
                text.append("  ")
                continue
            cell = cell_of((x - r) // 2, r)
            mark = marks.get(cell) or numbers.get(cell) or "."
            text.append(mark + ("*" if cell == position.cherry else " "))
        lines.append(f"{r:>4} " + "".join(text).rstrip())
    lines.append("  r  (each row is one r; q grows to the right, +1 per cell)")
    lines.extend(_legend(position, numbers))
    return "\n".join(lines)


def _legend(position: CookieDiscoPosition, numbers: dict[int, str]) -> list[str]:
    """The legend lines: cookies with their cells, the cherry, numbered positions, turn."""
    cells = position.cells
    names = ("C chocolate (3)", "K caramel (2)", "V vanilla (1)")
    groups_of = ((0, 3), (3, 5), (5, 6))
    lines = [f"{name}: {' '.join(sorted(cell_text(c) for c in cells[a:b]))}"
             for name, (a, b) in zip(names, groups_of)]
    for index, label in ((6, "X black (orange)"), (7, "O white (blue)")):
        where = cell_text(cells[index]) if cells[index] is not None else "not placed"
        lines.append(f"{label}: {where}")
    if numbers:
        lines.append("numbered positions: " + " ".join(
            f"{number}={cell_text(cell)}" for cell, number in numbers.items()))
    if position.cherry is not None:
        lines.append(f"cherry * on the {COLOUR_WORDS[position.last_colour]} cookie at "
                     f"{cell_text(position.cherry)} (moved last)")
    state = "placing" if position.placing else "moving"
    lines.append(f"{COLOUR_NAMES[position.to_move]} to move ({state})")
    return lines
