"""Cookie Disco rules (SPEC 2.10), built from positions.

The rule text's figures are missing, so every worked example and special situation of
rules/cookie-disco.txt is rebuilt here as a concrete position that realises what the text
describes; each docstring explains the position (the diagrams are the engine's: row r at height
r, q growing to the right, X = black's orange cookie, O = white's blue one, * = the cherry).

The module also holds an independent slow move generator written from SPEC 2.10's words, in the
pivot's frame ("the next cell Y is the neighbour of P that follows X; F is the other common
neighbour of X and Y"), with coordinate pairs and plain sets; the engine's generator (tables in
the rolling cookie's frame, integer cells) must agree with it everywhere.
"""

import random

import pytest

from engine import (
    BLACK,
    WHITE,
    IllegalMoveError,
    MoveSyntaxError,
    OptionError,
    SizeError,
    find_game,
)
from engine.games.cookiedisco import (
    ATTACHMENT_WEIGHT,
    COLOUR,
    LAYOUTS,
    PLAYER_COOKIE,
    TEMPO,
    VALUE,
    WIN_THREAT,
    CookieDiscoPosition,
    axial,
    cell_of,
    cell_text,
    numbered_positions,
)
from engine.perft import perft
from engine.search import Player

from ..playouts import check_playout

GAME = find_game("cookiedisco")()
AXIAL = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def setup(chocolate, caramel, vanilla, black, white, to_move=BLACK, cherry=None, game=GAME):
    """A moving-phase position; cookie cells as space-separated ``q,r`` tokens."""
    return CookieDiscoPosition(game, chocolate.split(), caramel.split(), vanilla, black, white,
                               to_move, cherry)


def moves_from(position, cell):
    """The legal move texts of the cookie on ``cell``."""
    return [text for text in position.legal_move_texts() if text.startswith(cell + ">")]


def reach(position, cell):
    """Where the cookie on ``cell`` can roll (one-field rule aside), with the fewest steps."""
    q, r = map(int, cell.split(","))
    return {f"{q1},{r1}": steps for (q1, r1), steps in
            ((axial(target), steps) for target, steps in position.reachable(cell_of(q, r)).items())}


def illegal_reason(position, text):
    with pytest.raises(IllegalMoveError) as error:
        position.parse_move(text)
    return str(error.value)


# --- the independent reference generator -------------------------------------------------------

def ring(cell):
    return [(cell[0] + dq, cell[1] + dr) for dq, dr in AXIAL]


def reference_route(start, pivot, sense, others, steps, through_start=False):
    """SPEC 2.10's rolling in the pivot's frame: (cells passed, halts) of the route leaving
    ``start`` around ``pivot`` in ``sense`` (+1/-1 around the pivot). A route rolling into the
    starting cell ends there, unless ``through_start`` lets it pass (to show what that rule
    removes)."""
    x, path, halts, rolled, rolls, passes = start, [start], [], False, 0, 0
    while len(halts) < steps:
        i = AXIAL.index((x[0] - pivot[0], x[1] - pivot[1]))
        y = (pivot[0] + AXIAL[(i + sense) % 6][0], pivot[1] + AXIAL[(i + sense) % 6][1])
        (far,) = set(ring(x)) & set(ring(y)) - {pivot}
        if y not in others and far not in others:
            if y == start and not through_start:
                break
            x, rolled, rolls = y, True, rolls + 1
            path.append(x)
            if rolls == 6:
                break
            continue
        pivot = y if y in others else far
        if rolled:
            halts.append(x)
            rolled, rolls, passes = False, 0, 0
        passes += 1
        if passes == 6:
            break
    return path, halts


def reference_routes(cookies, start, steps=3, through_start=False):
    """Every route of the cookie on ``start``: each first pivot it touches, both senses."""
    others = set(cookies) - {start}
    return [reference_route(start, pivot, sense, others, steps, through_start)
            for sense in (1, -1) for pivot in ring(start) if pivot in others]


def reference_groups(cells):
    cells, found = set(cells), []
    while cells:
        group, todo = set(), [cells.pop()]
        while todo:
            cell = todo.pop()
            group.add(cell)
            for near in ring(cell):
                if near in cells:
                    cells.discard(near)
                    todo.append(near)
        found.append(group)
    return found


def reference_moves(position):
    """The legal move texts, from SPEC 2.10's words alone."""
    if position.outcome is not None:
        return set()
    cookies = {axial(cell): index for index, cell in enumerate(position.cells) if cell is not None}
    if position.cells[PLAYER_COOKIE[WHITE]] is None:
        return {"%d,%d" % axial(cell) for cell in position.numbered if axial(cell) not in cookies}
    mover = position.to_move
    last = None if position.cherry is None else COLOUR[cookies[axial(position.cherry)]]
    found = set()
    for start, index in cookies.items():
        if index == PLAYER_COOKIE[mover ^ 1] or COLOUR[index] == last:
            continue
        counts = {VALUE[cookies[near]] for near in ring(start) if near in cookies} - {0}
        if not counts:
            continue
        rest = {cell: i for cell, i in cookies.items() if cell != start}
        targets = {halts[n - 1] for _, halts in reference_routes(cookies, start, max(counts))
                   for n in counts if len(halts) >= n}
        whole = len(reference_groups(rest)) == 1
        for target in targets:
            final = dict(rest)
            final[target] = index
            if whole or reference_wins(final, mover):
                found.add("%d,%d>%d,%d" % (*start, *target))
    return found


def reference_wins(final, mover):
    parts = reference_groups(final)
    where = {index: cell for cell, index in final.items()}
    own = next(part for part in parts if where[PLAYER_COOKIE[mover]] in part)
    other = next(part for part in parts if where[PLAYER_COOKIE[mover ^ 1]] in part)
    def worth(part):
        return sum(VALUE[final[cell]] for cell in part)
    return own is not other and worth(own) > worth(other)


def cookie_map(position):
    return {axial(cell): index for index, cell in enumerate(position.cells) if cell is not None}


# --- the game, the layouts and placing ---------------------------------------------------------

def test_game_has_no_board_size_and_takes_the_colour_aliases():
    assert GAME.size is None
    with pytest.raises(SizeError):
        find_game("cookiedisco")(size=(8, 8))
    assert GAME.parse_colour("Orange") == BLACK and GAME.parse_colour("BLUE") == WHITE
    assert find_game("cookie_disco") is type(GAME) and GAME.may_not_end
    with pytest.raises(OptionError):
        find_game("cookiedisco")({"layout": "7"})


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_layout_has_six_numbered_positions_touching_exactly_two_cookies(layout):
    cookies = {cell_of(q, r) for q, r in (*LAYOUTS[layout][0], *LAYOUTS[layout][1],
                                          LAYOUTS[layout][2])}
    numbered = numbered_positions(layout)
    assert len(numbered) == 6 and not cookies & set(numbered)
    for cell in numbered:
        q, r = axial(cell)
        assert sum(cell_of(q + dq, r + dr) in cookies for dq, dr in AXIAL) == 2


def test_layout_one_is_the_ring_with_its_numbered_positions():
    """Layout 1: the ring around the empty cell 0,0; the six cells touching two ring cookies
    lie in the gaps between neighbouring ring cookies, one cell further out."""
    position = GAME.initial_position()
    assert position.legal_move_texts() == ["-1,-1", "-1,2", "-2,1", "1,-2", "1,1", "2,-1"]
    assert illegal_reason(position, "0,0").endswith(
        "not a numbered position (an empty cell touching exactly two of the six cookies)")
    assert illegal_reason(position, "1,1>2,0").endswith("the player cookies are placed first "
                                                        "(expected a cell like 3,-1)")


def test_black_places_then_white_on_another_numbered_position_then_black_moves_freely():
    position = GAME.initial_position()
    position.play(position.parse_move(" 1, 1 "))
    assert position.to_move == WHITE
    assert position.legal_move_texts() == ["-1,-1", "-1,2", "-2,1", "1,-2", "2,-1"]
    assert illegal_reason(position, "1,1") == "1,1: the cell is taken"
    position.play(position.parse_move("-1,-1"))
    assert position.to_move == BLACK and position.cherry is None
    assert position.key() == CookieDiscoPosition.from_layout(GAME, "1,1", "-1,-1").key()
    texts = position.legal_move_texts()
    # The placements were not moves: any colour may move first, the chocolate included.
    movers = {text.split(">")[0] for text in texts}
    assert {"-1,0", "0,1", "1,0", "1,1"} <= movers  # chocolate, caramel, vanilla, own cookie
    assert illegal_reason(position, "2,-1").startswith("2,-1: the player cookies are placed")


def test_move_text_is_read_leniently_and_garbage_is_a_syntax_error():
    position = setup("2,0 2,-1 3,-1", "1,0 0,1", "0,0", "1,-1", "-1,2")
    assert position.move_text(position.parse_move(" 0, 0 > 0 ,2")) == "0,0>0,2"
    for text in ("0,0-0,2", "a1", "0,0>", "0;0>0,2", ""):
        with pytest.raises(MoveSyntaxError):
            position.parse_move(text)


# --- what may move --------------------------------------------------------------------------

def test_example_1_vanilla_touching_two_caramels_and_a_player_cookie_moves_two_steps():
    """Example 1. The vanilla cookie V on 0,0 touches the caramels on 1,0 and 0,1 (2 points
    each) and black's player cookie on 1,-1 (0): it moves exactly 2 steps, left or right.

           2 .   O   .   .   .
           1   .   K   .   .   .
           0 .   V   K   C   .
          -1   .   X   C   C   .

    One sense rolls it around the caramel on 0,1 into the gap at -1,1 (step 1), then around
    white's cookie to halt at 0,2 (step 2); the other rolls it around X down to 2,-2 (step 1,
    against the chocolate on 2,-1), then one cell to 3,-2 (step 2)."""
    position = setup("2,0 2,-1 3,-1", "1,0 0,1", "0,0", "1,-1", "-1,2")
    assert position.touch_values(cell_of(0, 0)) == {2}
    assert moves_from(position, "0,0") == ["0,0>0,2", "0,0>3,-2"]
    assert reach(position, "0,0") == {"0,2": 2, "3,-2": 2}


def test_example_2_chocolate_touching_caramel_and_chocolate_moves_two_or_three_steps():
    """Example 2. The right chocolate on 0,0 touches a caramel (0,-1), a chocolate (-1,0) and
    black's player cookie (1,-1): 2 or 3 steps, in either sense, four targets.

           1 .   O   C   .   .   .
           0   .   V   C   C   .
          -1 .   .   K   K   X   ."""
    position = setup("0,0 -1,0 -2,1", "0,-1 -1,-1", "-2,0", "1,-1", "-3,1")
    assert position.touch_values(cell_of(0, 0)) == {2, 3}
    assert reach(position, "0,0") == {"-3,2": 2, "0,-2": 2, "-3,0": 3, "-2,-1": 3}
    assert moves_from(position, "0,0") == ["0,0>-2,-1", "0,0>-3,0", "0,0>-3,2", "0,0>0,-2"]


def test_example_3_caramel_touching_vanilla_caramel_and_chocolates_moves_one_to_three_steps():
    """Example 3. The caramel on 0,0 touches the vanilla (1,0), the other caramel (1,-1) and
    two chocolates (0,-1 and -1,0): 1, 2 or 3 steps each way, all completed in full, one
    sense for the whole move: exactly six targets.

           1 .   O   .   .   .   .
           0   .   C   K   V   .
          -1 .   .   C   K   C   .
          -2   .   .   X   .   ."""
    position = setup("0,-1 -1,0 2,-1", "0,0 1,-1", "1,0", "1,-2", "-2,1")
    assert position.touch_values(cell_of(0, 0)) == {1, 2, 3}
    assert reach(position, "0,0") == {"-1,1": 1, "-2,0": 2, "-1,-1": 3,
                                      "2,0": 1, "2,-2": 2, "0,-2": 3}
    # The halts of the two senses, in order: a step never stops early, and a route never
    # switches sense (which would reach other cells, e.g. back towards 0,1).
    halts = sorted(h for _, h in reference_routes(cookie_map(position), (0, 0)))
    assert halts[0] == [(-1, 1), (-2, 0), (-1, -1)] and halts[-1] == [(2, 0), (2, -2), (0, -2)]
    assert len(moves_from(position, "0,0")) == 6


def test_immobile_example_vanilla_touching_only_a_player_cookie_and_surrounded_caramels():
    """The vanilla on 3,1 touches only black's player cookie: no step count, no move. Each
    caramel (0,0 and 1,0) has three occupied neighbours around it, every other one, so no two
    neighbouring cells are free: a roll always needs the next cell and the far cell free, so
    each is surrounded and cannot move.

           1 .   C   .   O   X   V   .
           0   .   K   K   .   .   .
          -1 .   C   .   C   .   .   ."""
    position = setup("0,-1 -1,1 2,-1", "0,0 1,0", "3,1", "2,1", "1,1")
    for cell in ("0,0", "1,0", "3,1"):
        assert reach(position, cell) == {} and moves_from(position, cell) == []
    assert illegal_reason(position, "3,1>3,0").endswith(
        "the cookie touches only player cookies, which are worth no steps")
    assert illegal_reason(position, "0,0>1,-1").endswith(
        "the cookie is surrounded and cannot roll away")


def test_the_opponents_player_cookie_never_moves_ones_own_may():
    position = setup("2,0 2,-1 3,-1", "1,0 0,1", "0,0", "1,-1", "-1,2")
    assert moves_from(position, "-1,2") == []
    assert illegal_reason(position, "-1,2>-2,2").endswith(
        "the opponent's player cookie cannot be moved")
    assert moves_from(position, "1,-1")  # black's own cookie
    white = setup("2,0 2,-1 3,-1", "1,0 0,1", "0,0", "1,-1", "-1,2", to_move=WHITE)
    assert moves_from(white, "-1,2") and moves_from(white, "1,-1") == []


def test_a_cookie_of_the_colour_moved_last_turn_cannot_move():
    """The same position three times: the cherry on a caramel bars both caramels, on the
    vanilla the vanilla; with no cherry every colour may move."""
    free = setup("0,-1 -1,0 2,-1", "0,0 1,-1", "1,0", "1,-2", "-2,1")
    after_caramel = setup("0,-1 -1,0 2,-1", "0,0 1,-1", "1,0", "1,-2", "-2,1", cherry="1,-1")
    after_vanilla = setup("0,-1 -1,0 2,-1", "0,0 1,-1", "1,0", "1,-2", "-2,1", cherry="1,0")
    assert moves_from(free, "0,0") and moves_from(free, "1,0")
    assert moves_from(after_caramel, "0,0") == [] and moves_from(after_caramel, "1,0")
    assert illegal_reason(after_caramel, "0,0>2,0").endswith(
        "a caramel cookie was moved on the previous turn")
    assert moves_from(after_vanilla, "1,0") == [] and moves_from(after_vanilla, "0,0")
    assert after_vanilla.key() != free.key() != after_caramel.key()


def test_a_route_back_into_the_starting_cell_is_not_a_move():
    """The caramel on 1,-2 touches only a chocolate worth points (2,-3): 3 steps. Rolling
    towards 2,-2 it goes round the two chocolates 2,-3 and 3,-3 (halts 2,-2 and 3,-4) and then
    rolls back into its own starting cell: that route gives no move, although passing through
    the (empty) starting cell would have brought it to 3,-4 and 2,-2 after three steps.

           1   .   .   K   .   .
           0 .   V   C   O   .
          -1   .   X   .   .   .
          -2 .   .   K   .   .
          -3   .   .   C   C   ."""
    position = setup("0,0 3,-3 2,-3", "0,1 1,-2", "-1,0", "0,-1", "1,0")
    assert reach(position, "1,-2") == {"-1,1": 3, "1,1": 3}
    cookies = cookie_map(position)
    passing = {tuple(halts[2]) for _, halts in
               reference_routes(cookies, (1, -2), through_start=True) if len(halts) == 3}
    assert passing == {(-1, 1), (1, 1), (2, -2), (3, -4)}


def test_each_gap_around_the_cookie_gives_a_route_in_each_sense():
    """The chocolate on 2,0 of the dividing example touches white's cookie (1,0) and the
    caramel (3,0) on opposite sides: two gaps, so each sense has two routes, one from each
    first pivot. Both routes round the lone caramel come back into the starting cell (no
    move); the other two reach -1,1 and 0,-1 in two steps.

           0   .   C   X   O   C   K   ."""
    position = setup("-1,0 2,0 0,1", "3,0 1,-1", "-1,-1", "0,0", "1,0")
    routes = reference_routes(cookie_map(position), (2, 0), steps=2)
    assert len({tuple(path) for path, _ in routes}) == 4
    assert sorted(tuple(halts) for _, halts in routes) == [
        (), (), ((1, 1), (-1, 1)), ((2, -1), (0, -1))]
    assert reach(position, "2,0") == {"-1,1": 2, "0,-1": 2}


def test_different_routes_to_one_cell_are_one_move():
    """In special situation 2's position both senses bring the middle chocolate to -1,-1 in
    three steps; the move is listed once (and is illegal there anyway: it reconnects)."""
    position = setup("-2,1 0,-1 0,0", "1,-1 1,-2", "-2,0", "-1,1", "0,-2", cherry="0,-2")
    thirds = [halts[2] for _, halts in reference_routes(cookie_map(position), (0, 0))]
    assert set(thirds) == {(-1, -1)} and len(thirds) > 1
    assert list(position.reachable(cell_of(0, 0))).count(cell_of(-1, -1)) == 1


# --- the one-field rule and winning -------------------------------------------------------------

def test_dividing_example_no_move_may_leave_the_field_divided():
    """The chocolate on -1,0 is the vanilla's only neighbour, and it touches only the vanilla
    and black's cookie: 1 step. One step to 0,-1 (rolling round the vanilla) ends touching the
    vanilla again: the field was divided only for a while, which is still illegal. One step
    the other way (-1,1) leaves the vanilla alone. The chocolate on 2,0 likewise holds the
    caramel on 3,0: its 2-step moves (-1,1 and 0,-1) leave that caramel alone. None of these
    moves wins, so none is legal.

           1 .   .   .   C   .   .   .
           0   .   C   X   O   C   K   .
          -1 .   V   .   K   .   .   ."""
    position = setup("-1,0 2,0 0,1", "3,0 1,-1", "-1,-1", "0,0", "1,0")
    assert reach(position, "-1,0") == {"0,-1": 1, "-1,1": 1}
    assert reach(position, "2,0") == {"-1,1": 2, "0,-1": 2}
    assert moves_from(position, "-1,0") == [] and moves_from(position, "2,0") == []
    for text in ("-1,0>0,-1", "-1,0>-1,1", "2,0>-1,1", "2,0>0,-1"):
        assert illegal_reason(position, text).endswith(
            "taking the cookie away splits the field, and the move does not win")


def test_winning_example_the_split_leaves_black_with_more_points():
    """Black (orange) to move, the cherry on the vanilla: chocolates may move. The middle
    chocolate on 0,0 holds the field together; it touches the vanilla, so it may go 1 step.
    Rolling round black's cookie it halts at 0,1 between X and the chocolate on -1,2: the
    upper part (X, two chocolates, a caramel: 8 points) is now apart from the lower part (O,
    a chocolate, a caramel, the vanilla: 6 points), and black wins.

           2 .   K   C   .
           1   .   X   .   .
           0 .   .   C   .
          -1   .   V*  O   .
          -2 .   C   K   .

    One step the other way (2,-2) also splits the field, but joins the lower part (9 against
    5): black would lose, so it is not legal."""
    position = setup("0,0 -1,2 0,-2", "-2,2 1,-2", "0,-1", "-1,1", "1,-1", cherry="0,-1")
    assert moves_from(position, "0,0") == ["0,0>0,1"]
    assert illegal_reason(position, "0,0>2,-2").endswith("does not win")
    position.play(position.parse_move("0,0>0,1"))
    assert position.outcome.result == "B+"
    assert position.outcome.reason == "black split the field, 8 points against 6"
    assert position.legal_moves() == []


def test_special_situation_1_three_steps_divide_the_field_only_for_a_while():
    """Cherry on the vanilla, black to move. The middle chocolate on -2,1 holds the field
    together and touches chocolates and the vanilla: 1 or 3 steps. One step to 0,1 would win
    (9 against 5). Three steps, whichever way, must be completed: both routes end on -1,-1,
    which touches both parts (the caramel on -2,-1 and the vanilla): the field is whole again,
    so the move divided it only for a while and is illegal.

           1   .   C   C   C   .
           0 .   O   .   V*  X   .
          -1   .   K   .   K   ."""
    position = setup("-2,1 -1,1 -3,1", "-2,-1 0,-1", "-1,0", "0,0", "-3,0", cherry="-1,0")
    thirds = {halts[2] for _, halts in reference_routes(cookie_map(position), (-2, 1))}
    assert thirds == {(-1, -1)}
    assert reach(position, "-2,1")["-1,-1"] == 3
    assert moves_from(position, "-2,1") == ["-2,1>0,1"]
    assert illegal_reason(position, "-2,1>-1,-1").endswith("does not win")


def test_special_situation_2_a_split_into_equal_points_is_illegal():
    """Cherry on white's (blue) cookie, black to move. The middle chocolate on 0,0 holds the
    field together and touches a caramel: 2 steps. Two steps to -3,1 split the field into
    black's part (X, two chocolates, the vanilla) and white's (O, a chocolate, two caramels),
    7 points each: a draw is not allowed, so the move is illegal. (Two steps to 1,-3 leave
    black with 4 against 10; three steps reconnect the field.)

           1   .   C   X   .   .
           0 .   V   .   C   .
          -1   .   .   C   K   .
          -2 .   .   O*  K   ."""
    position = setup("-2,1 0,-1 0,0", "1,-1 1,-2", "-2,0", "-1,1", "0,-2", cherry="0,-2")
    assert reach(position, "0,0") == {"-3,1": 2, "1,-3": 2, "-1,-1": 3}
    cookies = cookie_map(position)
    del cookies[(0, 0)]
    cookies[(-3, 1)] = 0
    parts = reference_groups(cookies)
    assert sorted(sum(VALUE[cookies[c]] for c in part) for part in parts) == [7, 7]
    assert moves_from(position, "0,0") == []
    assert illegal_reason(position, "0,0>-3,1").endswith("does not win")


def special_situation_3():
    return setup("-1,0 -1,1 0,-1", "0,1 1,-1", "2,-3", "1,0", "1,-2", to_move=WHITE,
                 cherry="1,0")


def test_special_situation_3_a_player_with_no_legal_move_loses():
    """White (blue) to move, black has just moved its own cookie. White moves the chocolate on
    -1,0 (it touches the two other chocolates: 3 steps) round the top of the field, halting at
    -1,2 and 1,1, to 2,-1; the field stays whole, but black cannot move any cookie: white
    wins.

           1   .   C   K   .
           0 .   C   .   X*  .
          -1   .   C   K   .
          -2 .   .   O   .   .
          -3   .   .   V   ."""
    position = special_situation_3()
    position.play(position.parse_move("-1,0>2,-1"))
    assert position.outcome.result == "W+"
    assert position.outcome.reason == "black has no legal move"


def test_special_situation_3_why_black_cannot_move():
    """After white's chocolate move: chocolates are barred (the cherry is on one), the vanilla
    touches only white's cookie, the caramel on 1,-1 is surrounded, and every move of the
    caramel on 0,1 or of black's cookie splits the field without winning."""
    position = setup("2,-1 -1,1 0,-1", "0,1 1,-1", "2,-3", "1,0", "1,-2", cherry="2,-1")
    assert position.outcome.result == "W+"
    assert reach(position, "2,-3") == {} and reach(position, "1,-1") == {}
    for cell in ("0,1", "1,0"):
        targets = position.reachable(cell_of(*map(int, cell.split(","))))
        assert targets
        assert all(position.split_verdict(cell_of(*map(int, cell.split(","))), t) is False
                   for t in targets)


def test_special_situation_4_touching_both_parts_in_passing_does_not_count():
    """White (blue) to move, the cherry on a chocolate: caramels may move. The upper caramel
    on 0,2 touches the other caramel: 2 steps. Step 1 rolls it round the caramel on 1,1 into
    0,1; step 2 rolls it round the vanilla through -1,1 - where it touches black's cookie on
    one side and the vanilla on the other, joining both parts for a moment without halting -
    on to 1,-1. The field is then divided for good: white's part (O, a chocolate, both
    caramels, the vanilla: 8 points) against black's (X and two chocolates: 6). White wins.

           3   .   C   C*  .   .
           2 .   X   .   K   .   .
           1   .   .   .   K   .
           0 .   .   V   O   C   ."""
    position = setup("-1,3 -2,3 2,0", "0,2 1,1", "0,0", "-2,2", "1,0", to_move=WHITE,
                     cherry="-1,3")
    routes = reference_routes(cookie_map(position), (0, 2), steps=2)
    path, halts = next((path, halts) for path, halts in routes if halts[-1] == (1, -1))
    assert halts == [(0, 1), (1, -1)]
    assert (-1, 1) in path and (-1, 1) not in halts
    assert {(-2, 2), (0, 0)} <= set(ring((-1, 1)))
    position.play(position.parse_move("0,2>1,-1"))
    assert position.outcome.result == "W+"
    assert position.outcome.reason == "white split the field, 8 points against 6"


def test_moving_ones_own_player_cookie_away_can_win():
    """Black's cookie on 0,-1 is white's cookie's only neighbour, and it touches the vanilla
    and a chocolate: 1 or 3 steps. One step to -2,1 leaves white's cookie alone: black's part
    (all six other cookies, 14 points) against white's (0). One step the other way (1,-1) ends
    touching white's cookie again and is illegal; three steps to 0,2 win as well.

           2 .   .   K   .   .
           1   .   C   K   .
           0 .   C   V   C   .
          -1   .   X   .   .
          -2 .   .   O   .   ."""
    position = setup("-1,0 -1,1 1,0", "-1,2 0,1", "0,0", "0,-1", "1,-2")
    assert moves_from(position, "0,-1") == ["0,-1>-2,1", "0,-1>0,2"]
    assert illegal_reason(position, "0,-1>1,-1").endswith("does not win")
    position.play(position.parse_move("0,-1>-2,1"))
    assert position.outcome.reason == "black split the field, 14 points against 0"


# --- position identity and the diagram -----------------------------------------------------------

def test_key_ignores_which_of_two_equal_cookies_is_where_but_not_the_turn_or_cherry_colour():
    one = setup("0,-1 -1,0 2,-1", "0,0 1,-1", "1,0", "1,-2", "-2,1", cherry="0,-1")
    same = setup("2,-1 0,-1 -1,0", "1,-1 0,0", "1,0", "1,-2", "-2,1", cherry="2,-1")
    assert one.key() == same.key()
    assert one.key() != setup("0,-1 -1,0 2,-1", "0,0 1,-1", "1,0", "1,-2", "-2,1",
                              to_move=WHITE, cherry="0,-1").key()
    assert one.key() != setup("0,-1 -1,0 2,-1", "0,0 1,-1", "1,0", "1,-2", "-2,1",
                              cherry="0,0").key()


def test_diagram_shows_rows_cells_and_the_cherry():
    position = setup("0,0 -1,2 0,-2", "-2,2 1,-2", "0,-1", "-1,1", "1,-1", cherry="0,-1")
    text = position.diagram()
    assert "  -1   .   V*  O" in text
    assert "C chocolate (3): -1,2 0,-2 0,0" in text
    assert "X black (orange): -1,1" in text and "O white (blue): 1,-1" in text
    assert "cherry * on the vanilla cookie at 0,-1 (moved last)" in text
    start = GAME.initial_position().diagram()
    assert "numbered positions: 1=-1,2 2=-2,1 3=1,1 4=-1,-1 5=2,-1 6=1,-2" in start


# --- play ------------------------------------------------------------------------------------

def test_evaluation_sees_a_winning_split_in_hand_and_how_firmly_each_player_cookie_is_held():
    winning = setup("0,0 -1,2 0,-2", "-2,2 1,-2", "0,-1", "-1,1", "1,-1", cherry="0,-1")
    assert winning.evaluate() == WIN_THREAT
    # Example 2's position, where neither side can win at once: black's cookie (1,-1) touches
    # a chocolate and a caramel, white's (-3,1) a chocolate and the vanilla.
    black = setup("0,0 -1,0 -2,1", "0,-1 -1,-1", "-2,0", "1,-1", "-3,1")
    white = setup("0,0 -1,0 -2,1", "0,-1 -1,-1", "-2,0", "1,-1", "-3,1", to_move=WHITE)
    firm, loose = 2 * ATTACHMENT_WEIGHT + 5, 2 * ATTACHMENT_WEIGHT + 4
    assert black.evaluate() == TEMPO + firm - loose
    assert white.evaluate() == TEMPO + loose - firm


def test_a_shallow_search_beats_a_random_mover():
    for game_number in range(4):
        game = find_game("cookiedisco")({"layout": "1234"[game_number]})
        engine_colour, rng = game_number % 2, random.Random(game_number)
        player, position = Player(depth=1, seed=game_number), game.initial_position()
        while position.outcome is None and position.ply < 200:
            position.play(player.choose(position) if position.to_move == engine_colour
                          else rng.choice(position.legal_moves()))
        assert position.outcome.winner == engine_colour


# --- the generator against the reference, and its symmetry ---------------------------------------

def playout_positions(layout, seed, limit=200):
    """The positions of one seeded random game of ``layout``."""
    game = find_game("cookiedisco")({"layout": layout})
    rng = random.Random(seed)
    position = game.initial_position()
    found = [position.copy()]
    while position.outcome is None and position.ply < limit:
        position.play(rng.choice(position.legal_moves()))
        found.append(position.copy())
    return found


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_generator_agrees_with_the_reference_along_random_games(layout):
    for seed in range(6):
        for position in playout_positions(layout, seed):
            assert set(position.legal_move_texts()) == reference_moves(position), position.diagram()


@pytest.mark.parametrize("layout", "14")
def test_random_games_keep_the_field_whole_until_a_winning_split(layout):
    """Along random games: no cookie of the colour moved last turn moves, the opponent's
    player cookie never moves, and after every move the field is whole, unless the game has
    just ended with the mover's part split off and worth more."""
    for seed in range(8):
        positions = playout_positions(layout, seed)
        for before, after in zip(positions[2:], positions[3:]):
            origin, target = after.moves[-1]
            mover, index = before.to_move, before.board[origin]
            assert index != PLAYER_COOKIE[mover ^ 1]
            assert before.cherry is None or COLOUR[index] != before.last_colour
            parts = reference_groups(cookie_map(after))
            if len(parts) > 1:
                assert after.outcome.winner == mover and "split" in after.outcome.reason
            else:
                assert after.outcome is None or after.outcome.reason.endswith("no legal move")


def test_generator_agrees_with_the_reference_on_random_fields():
    """Random connected fields, random cookies, turn and cherry: states no game need reach."""
    rng = random.Random(3)
    for _ in range(150):
        cells = [(0, 0)]
        while len(cells) < 8:
            q, r = rng.choice(cells)
            dq, dr = rng.choice(AXIAL)
            if (q + dq, r + dr) not in cells:
                cells.append((q + dq, r + dr))
        rng.shuffle(cells)
        text = ["%d,%d" % cell for cell in cells]
        position = setup(" ".join(text[:3]), " ".join(text[3:5]), *text[5:8],
                         to_move=rng.choice((BLACK, WHITE)), cherry=rng.choice(text + [None]))
        assert set(position.legal_move_texts()) == reference_moves(position), position.diagram()


def rotate(q, r):
    """60 degrees about 0,0."""
    return -r, q + r


def mirror(q, r):
    return r, q


def transformed(position, transform):
    """The position with every cookie (and the cherry) moved by ``transform``."""
    def cell(value):
        return None if value is None else cell_of(*transform(*axial(value)))
    cells = [cell(value) for value in position.cells]
    return CookieDiscoPosition(position.game, cells[0:3], cells[3:5], cells[5], cells[6], cells[7],
                               position.to_move, cell(position.cherry))


def mapped_texts(texts, transform):
    def move(text):
        return ">".join("%d,%d" % transform(*map(int, part.split(","))) for part in text.split(">"))
    return sorted(move(text) for text in texts)


@pytest.mark.parametrize("transform", [rotate, mirror], ids=["rotate", "mirror"])
def test_rotating_or_mirroring_a_position_maps_its_moves(transform):
    for layout in "135":
        for seed in range(4):
            for position in playout_positions(layout, seed)[2:]:
                if position.outcome is not None:
                    continue
                image = position
                for _ in range(6 if transform is rotate else 1):
                    expected = mapped_texts(image.legal_move_texts(), transform)
                    image = transformed(image, transform)
                    assert sorted(image.legal_move_texts()) == expected


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_perft_three_agrees_with_the_reference(layout):
    """The third golden perft count, recounted with the reference generator."""
    game = find_game("cookiedisco")({"layout": layout})
    start = game.initial_position()
    total = 0
    for first in reference_moves(start):
        start.play(start.parse_move(first))
        for second in reference_moves(start):
            start.play(start.parse_move(second))
            total += len(reference_moves(start))
            start.undo()
        start.undo()
    assert total == perft(game.initial_position(), 3)


@pytest.mark.parametrize("layout", "246")
def test_random_games_keep_every_invariant_in_every_layout(layout):
    check_playout(find_game("cookiedisco")({"layout": layout}), seed=int(layout))


# --- what the generic tests read: tests/test_drawing.py, tests/report/test_play.py ---------


def drawn_pieces(position, colour: int) -> set[str]:
    """Where ``colour``'s player cookie is (none before it is placed), read from the rules'
    state: what tests/test_drawing.py finds drawn."""
    cell = position.cells[6 + colour]
    return set() if cell is None else {cell_text(cell)}


# How tests/report/test_play.py plays a whole game by clicks: the command's settings (a small
# board, a move limit), a pattern of the moves it prefers, and patterns of the kinds of move the
# person must have made.
PLAY_BY_CLICKS = (["--max-moves", "12"], r">", [r"^-?\d+,-?\d+$", r">"])
