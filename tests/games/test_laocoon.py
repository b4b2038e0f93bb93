"""laoCoon (SPEC 2.9): every clause of the rule text from positions, the variants, the layout
option, and a literal reference generator that cross-checks the bitboards."""

import json
import pathlib
import random
from dataclasses import dataclass

import pytest

from engine import (
    BLACK,
    WHITE,
    IllegalMoveError,
    MoveSyntaxError,
    OptionError,
    Termination,
    find_game,
)
from engine.games import laocoon
from engine.games.laocoon import STANDARD_LAYOUT, LaocoonPosition
from engine.perft import perft
from engine.search.player import Player

from ..playouts import check_playout, square_names

NAMES = [f"{file}{rank}" for rank in "12345678" for file in "abcdefgh"]
LETTERS = "bpoy"
PERFT = pathlib.Path(__file__).parent.parent / "data" / "perft"
EMPTY_ROW = ". . . . . . . ."


def game(variant="standard", layout=None):
    options = {"variant": variant}
    if layout:
        options["layout"] = layout
    return find_game("laocoon")(options)


def setup(rows, white=(), black=(), to_move=WHITE, hand=None, variant="standard"):
    return LaocoonPosition.from_rows(game(variant), rows, white, black, to_move, hand)


# --- a literal reading of the rules, one space at a time ------------------------------------

@dataclass(frozen=True)
class Literal:
    """A position as the rule text describes it: stacks of colour letters (bottom first), the
    rings' spaces, who moves, the disc the mover received, the variant."""

    stacks: tuple
    rings: tuple  # (black's spaces, white's spaces), as frozensets of names
    to_move: int
    hand: str | None
    variant: str

    @classmethod
    def of(cls, position):
        stacks = tuple("".join(LETTERS[c] for c in (lower, top) if c >= 0)
                       for lower, top in zip(position.lower, position.colour))
        rings = tuple(frozenset(NAMES[s] for s in range(64) if position.rings[side] >> s & 1)
                      for side in (BLACK, WHITE))
        hand = None if position.hand < 0 else LETTERS[position.hand]
        return cls(stacks, rings, position.to_move, hand, position.game.variant)

    def colour(self, name):
        stack = self.stacks[NAMES.index(name)]
        return stack[-1] if stack else None

    def available(self, name, rings=None):
        rings = rings or self.rings
        return bool(self.stacks[NAMES.index(name)]) and name not in rings[0] | rings[1]

    def free(self, name):
        return self.colour(name) not in {self.colour(r) for r in self.rings[1 - self.to_move]}

    def moves(self):
        """Every legal move text, following the rule text word by word."""
        placed = len(self.rings[0]) + len(self.rings[1])
        if placed < 4:
            targets = [n for n in NAMES if self.available(n) and self.free(n)]
            moves = set(targets)
            if self.variant != "standard" and placed == 3:
                pairs = [f"{a}={b}" for i, a in enumerate(NAMES) for b in NAMES[i + 1:]
                         if self.colour(a) != self.colour(b)]
                moves |= {f"{t}+{pair}" for t in targets for pair in pairs}
            return moves
        moves = set()
        for origin in self.rings[self.to_move]:
            of, orank = "abcdefgh".index(origin[0]), int(origin[1])
            for target in NAMES:
                tf, trank = "abcdefgh".index(target[0]), int(target[1])
                if max(abs(tf - of), abs(trank - orank)) != 1:
                    continue
                if not (self.available(target) and self.free(target)):
                    continue
                after = self._stepped(origin, target)
                drops = [n for n in NAMES if self.hand and after.available(n)
                         and len(after.stacks[NAMES.index(n)]) == 1
                         and after.colour(n) != self.hand]
                step = f"{origin}-{target}"
                moves |= {f"{step}+{n}" for n in drops} if drops else {step}
        return moves

    def _stepped(self, origin, target):
        """The position after step 1 and 2 (rings moved, the origin's top disc taken)."""
        stacks = list(self.stacks)
        stacks[NAMES.index(origin)] = stacks[NAMES.index(origin)][:-1]
        rings = list(self.rings)
        rings[self.to_move] = rings[self.to_move] - {origin} | {target}
        return Literal(tuple(stacks), tuple(rings), self.to_move, self.hand, self.variant)

    def play(self, text):
        """The position after the move ``text`` (canonical)."""
        if "-" not in text:
            target, _, swap = text.partition("+")
            stacks = list(self.stacks)
            if swap:
                a, b = (NAMES.index(n) for n in swap.split("="))
                stacks[a], stacks[b] = stacks[b], stacks[a]
            rings = list(self.rings)
            rings[self.to_move] = rings[self.to_move] | {target}
            return Literal(tuple(stacks), tuple(rings), 1 - self.to_move, None, self.variant)
        step, _, drop = text.partition("+")
        origin, target = step.split("-")
        given = self.colour(origin)
        after = self._stepped(origin, target)
        stacks = list(after.stacks)
        if drop:
            stacks[NAMES.index(drop)] += self.hand
        hand = given if self.variant != "quick" else None
        return Literal(tuple(stacks), after.rings, 1 - self.to_move, hand, self.variant)


def literal_perft(literal, depth):
    moves = literal.moves()
    if depth == 1:
        return len(moves)
    return sum(literal_perft(literal.play(move), depth - 1) for move in moves)


@pytest.mark.parametrize("variant,seed", [("standard", 0), ("standard", 1), ("random", 2),
                                          ("quick", 3), ("quick", 4)])
def test_generator_agrees_with_the_literal_reading_along_random_games(variant, seed):
    rng = random.Random(seed)
    position = game(variant, game(variant).draw_start(rng).get("layout")).initial_position()
    literal = Literal.of(position)
    while position.outcome is None:
        texts = set(position.legal_move_texts())
        assert texts == literal.moves()
        move = rng.choice(position.legal_moves())
        literal = literal.play(position.move_text(move))
        position.play(move)
        assert Literal.of(position) == literal
    assert not literal.moves()


def test_perft_from_a_middle_game_agrees_with_the_literal_reading():
    rng = random.Random(7)
    position = game().initial_position()
    for _ in range(12):
        position.play(rng.choice(position.legal_moves()))
    assert position.outcome is None
    assert perft(position, 2) == literal_perft(Literal.of(position), 2)


# --- building positions -----------------------------------------------------------------------

def rows_with(default="y", **cells):
    """Eight rows (rank 8 first) of single ``default`` discs, with the named spaces holding the
    given stacks instead (bottom disc first, ``.`` for none)."""
    grid = {name: default for name in NAMES}
    grid.update(cells)
    return [" ".join(grid[f"{file}{rank}"] for file in "abcdefgh") for rank in "87654321"]


def moves_from(position, origin):
    return {text for text in position.legal_move_texts() if text.startswith(origin + "-")}


def disc_count(position):
    return sum((c >= 0) + (lower >= 0) for c, lower in zip(position.colour, position.lower))


# --- setup -------------------------------------------------------------------------------------

def test_standard_layout_is_the_formula_of_spec_2_9_even_in_rows_columns_and_blocks():
    layout = game().initial_position().colour
    for square in range(64):
        file, rank = square % 8, square // 8
        assert layout[square] == (file % 2 + 2 * (rank % 2) + file // 2 + rank // 2) % 4
    assert STANDARD_LAYOUT[:8] == "bppooyyb"
    for line in range(8):
        assert sorted(layout[line * 8:line * 8 + 8]) == [0, 0, 1, 1, 2, 2, 3, 3]
        assert sorted(layout[line::8]) == [0, 0, 1, 1, 2, 2, 3, 3]
    for file in range(0, 8, 2):
        for rank in range(0, 8, 2):
            block = [layout[(rank + dr) * 8 + file + df] for dr in (0, 1) for df in (0, 1)]
            assert sorted(block) == [0, 1, 2, 3]


def test_every_space_starts_with_one_disc_and_white_places_first_anywhere():
    position = game().initial_position()
    assert disc_count(position) == 64
    assert position.to_move == WHITE
    assert position.legal_move_texts() == sorted(NAMES)


# --- placing the rings -------------------------------------------------------------------------

def test_black_places_on_a_free_colour_only():
    position = game().position_after(["d4"])  # d4 is purple: white controls purple
    moves = position.legal_move_texts()
    assert len(moves) == 48 and "e4" not in moves and "d4" not in moves and "e5" in moves
    with pytest.raises(IllegalMoveError, match="e4: the colour purple is controlled by white"):
        position.parse_move("e4")


def test_white_places_her_second_ring_on_a_free_colour_her_own_included():
    position = game().position_after(["d4", "e5"])  # e5 is blue
    moves = position.legal_move_texts()
    assert "e4" in moves  # purple, white's own colour
    assert "d5" not in moves and "e5" not in moves  # blue, black's
    with pytest.raises(IllegalMoveError, match="e5 has a ring"):
        position.parse_move("e5")
    with pytest.raises(IllegalMoveError, match="the colour blue is controlled by black"):
        position.parse_move("d5")


def test_black_places_his_second_ring_then_white_moves_first():
    position = game().position_after(["d4", "e5", "c3"])  # c3 orange
    assert position.to_move == BLACK and position.placing
    assert not {"d4", "e4", "c3", "b3"} & set(position.legal_move_texts())
    position.play(position.parse_move("f6"))
    assert position.to_move == WHITE and not position.placing


def test_a_space_without_a_disc_cannot_take_a_ring():
    position = setup(rows_with(c3="."))
    with pytest.raises(IllegalMoveError, match="c3 has no disc"):
        position.parse_move("c3")
    assert len(position.legal_moves()) == 63


def test_a_player_with_no_space_to_place_a_ring_loses():
    position = game(layout="b" * 64).initial_position()
    position.play(position.parse_move("a1"))
    assert position.outcome.result == "W+" and position.legal_moves() == []
    assert position.outcome.reason == "black has no space to place a ring"


def test_a_placement_is_one_space_and_a_step_is_two():
    position = game().initial_position()
    with pytest.raises(IllegalMoveError, match="rings are still being placed"):
        position.parse_move("d4-d5")
    position = game().position_after(["d4", "e5", "c3", "f6"])
    with pytest.raises(IllegalMoveError, match="every ring is placed"):
        position.parse_move("a1")


# --- moving: step 1 ---------------------------------------------------------------------------

AROUND_D4 = ("c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5")
QUIET = dict(a1="p", b1="p", h1="p", g1="p")  # black's rings on purple, far from the action


def test_white_first_moving_turn_has_no_step_3():
    position = game().position_after(["d4", "e5", "c3", "f6"])
    moves = position.legal_move_texts()
    assert moves and all("+" not in text for text in moves)
    with pytest.raises(IllegalMoveError, match="white has no disc to place"):
        position.parse_move("d4-e4+a1")


def test_a_ring_steps_one_space_in_any_of_eight_directions():
    position = setup(rows_with(**QUIET), white=("d4", "h8"), black=("a1", "h1"))
    assert moves_from(position, "d4") == {f"d4-{n}" for n in AROUND_D4}
    with pytest.raises(IllegalMoveError, match="d6 is not next to d4"):
        position.parse_move("d4-d6")
    with pytest.raises(IllegalMoveError, match="no white ring on c3"):
        position.parse_move("c3-c4")
    with pytest.raises(IllegalMoveError, match="no white ring on a1"):
        position.parse_move("a1-b2")


def test_a_ring_steps_only_to_an_available_space():
    position = setup(rows_with(c3=".", d3="yb", **QUIET), white=("d4", "e5"), black=("a1", "h1"))
    assert moves_from(position, "d4") == {f"d4-{n}" for n in ("d3", "e3", "c4", "e4", "c5", "d5")}
    with pytest.raises(IllegalMoveError, match="c3 has no disc"):
        position.parse_move("d4-c3")
    with pytest.raises(IllegalMoveError, match="e5 has a ring"):
        position.parse_move("d4-e5")


def test_a_ring_steps_only_to_a_free_colour_and_may_share_its_own_colours():
    # Black controls purple (a1) and orange (h1); white's other ring stands on blue.
    position = setup(rows_with(a1="p", h1="o", c3="p", e3="o", e4="b", d5="bo"),
                     white=("d4", "h8"), black=("a1", "h1"), hand="y")
    steps = {text.partition("+")[0] for text in moves_from(position, "d4")}
    assert steps == {f"d4-{n}" for n in ("d3", "c4", "e4", "c5", "e5")}
    with pytest.raises(IllegalMoveError, match="the colour purple is controlled by black"):
        position.parse_move("d4-c3+b2")
    with pytest.raises(IllegalMoveError, match="the colour orange is controlled by black"):
        position.parse_move("d4-d5+b2")


# --- moving: step 2 ---------------------------------------------------------------------------

def test_step_2_gives_the_top_disc_of_the_space_left_to_the_opponent():
    position = setup(rows_with(d4="po", **QUIET), white=("d4", "h8"), black=("a1", "h1"), hand="b")
    position.play(position.parse_move("d4-d5+c3"))
    assert position.to_move == BLACK and position.hand == 2  # black must now place the orange
    assert (position.lower[27], position.colour[27]) == (-1, 1)  # d4: the purple remains
    position.play(position.parse_move("a1-b1+d4"))  # orange on the purple of d4
    assert position.hand == 1  # the purple of a1 went to white
    assert position.colour[0] == -1  # a1 had one disc: no disc left
    assert (position.lower[27], position.colour[27]) == (1, 2)


# --- moving: step 3 ---------------------------------------------------------------------------

def test_step_3_goes_on_an_available_single_disc_of_another_colour_free_or_not():
    # Yellow in hand; purple and orange are black's colours, blue and yellow white's.
    rows = rows_with(d2="py", d3="p", e3=".", f3="b", a1="p", h1="o", b7="o")
    position = setup(rows, white=("d4", "h8"), black=("a1", "h1"), hand="y")
    drops = {text.partition("+")[2] for text in moves_from(position, "d4")
             if text.startswith("d4-c4+")}
    assert drops == {"d3", "f3", "b7"}  # the only single discs that are not yellow
    for text, reason in [("d4-c4+d2", "d2 already holds 2 discs"), ("d4-c4+e3", "e3 has no disc"),
                         ("d4-c4+b4", "b4 is already yellow"), ("d4-c4+h8", "h8 has a ring"),
                         ("d4-c4+a1", "a1 has a ring"), ("d4-c4+c4", "c4 has a ring"),
                         ("d4-c4+d4", "d4 has no disc left")]:
        with pytest.raises(IllegalMoveError, match=reason):
            position.parse_move(text)


def test_step_3_may_use_the_space_just_left_when_a_disc_remains():
    rows = rows_with(d4="pb", e4="yb", a1="p", h1="o", c3="b")
    position = setup(rows, white=("d4", "e4"), black=("a1", "h1"), hand="o")
    assert "d4-d5+d4" in position.legal_move_texts()  # orange on the remaining purple
    before = Literal.of(position)
    position.play(position.parse_move("d4-d5+d4"))
    assert (position.lower[27], position.colour[27]) == (1, 2) and position.hand == 0
    position.undo()
    assert Literal.of(position) == before
    position = setup(rows, white=("d4", "e4"), black=("a1", "h1"), hand="y")
    with pytest.raises(IllegalMoveError, match="e4 is already yellow"):
        position.parse_move("e4-f4+e4")  # the disc left on e4 is yellow too


def test_step_3_is_required_when_a_space_exists():
    position = setup(rows_with(**QUIET), white=("d4", "h8"), black=("a1", "h1"), hand="o")
    with pytest.raises(IllegalMoveError, match="white must place the received orange disc"):
        position.parse_move("d4-d5")


def test_without_a_space_for_step_3_the_received_disc_leaves_the_game():
    # Every single disc is blue (the disc in hand): nowhere to put it.
    rows = rows_with("b", a1="bp", h1="bo", d4="bb", c6="yo")
    position = setup(rows, white=("d4", "h8"), black=("a1", "h1"), hand="b")
    assert moves_from(position, "d4") == {f"d4-{n}" for n in AROUND_D4}
    with pytest.raises(IllegalMoveError, match="c4 is already blue"):
        position.parse_move("d4-d5+c4")
    discs = disc_count(position)
    position.play(position.parse_move("d4-d5"))
    assert disc_count(position) == discs - 1 and position.hand == 0  # black gets white's blue
    position.undo()
    assert disc_count(position) == discs and position.hand == 0 and position.to_move == WHITE


# --- victory ----------------------------------------------------------------------------------

def test_a_player_who_cannot_step_a_ring_loses():
    # Black's a1 can only go to b1 (yellow); h8 is walled in by empty spaces.
    rows = rows_with("b", a1="p", a2=".", b2=".", b1="y", d1="b", c1="y", e8="o",
                     h8="p", g8=".", g7=".", h7=".")
    position = setup(rows, white=("d1", "e8"), black=("a1", "h8"), to_move=WHITE)
    assert position.outcome is None
    position.play(position.parse_move("d1-c1"))  # white now controls yellow
    assert position.outcome.result == "W+"
    assert position.outcome.termination == Termination.NORMAL
    assert position.outcome.reason == "black cannot move a ring"
    assert position.legal_moves() == []
    position.undo()
    assert position.outcome is None and "a1-b1" not in position.legal_move_texts()


def test_a_stuck_side_to_move_has_already_lost():
    rows = rows_with("b", a1="p", a2=".", b2=".", b1=".", h8="p", g8=".", g7=".", h7=".")
    position = setup(rows, white=("d1", "e8"), black=("a1", "h8"), to_move=BLACK, hand="b")
    assert position.outcome.result == "W+"


# --- variant random: the swap -----------------------------------------------------------------

def test_random_variant_offers_a_swap_on_black_second_placement_only():
    position = game("random").initial_position()
    for text in ("d4", "e5", "c3"):
        assert all("+" not in move for move in position.legal_move_texts())
        position.play(position.parse_move(text))
    moves = position.legal_move_texts()
    targets = [text for text in moves if "+" not in text]
    assert len(moves) == len(targets) * (1 + 64 * 63 // 2 - 4 * 16 * 15 // 2)
    assert "f6+a1=b1" in moves and "f6+a1=h1" not in moves  # a1, h1 both blue
    position.play(position.parse_move("f6"))
    with pytest.raises(IllegalMoveError, match="only black's second placement may swap"):
        position.parse_move("d4-e4+a1=b1")


def test_a_swap_outside_black_second_placement_is_illegal():
    position = game("random").position_after(["d4"])
    with pytest.raises(IllegalMoveError, match="only black's second placement may swap"):
        position.parse_move("e5+a1=b1")
    position = game().position_after(["d4", "e5", "c3"])
    with pytest.raises(IllegalMoveError, match="the standard variant has no swap"):
        position.parse_move("f6+a1=b1")


def test_a_swap_exchanges_two_discs_of_different_colours_written_lower_first():
    position = game("random").position_after(["d4", "e5", "c3"])
    move = position.parse_move("F6+H8=A1")
    assert move == position.parse_move("f6+a1=h8") and position.move_text(move) == "f6+a1=h8"
    with pytest.raises(IllegalMoveError, match="a1 and h1 are both blue: a swap needs two colours"):
        position.parse_move("f6+h1=a1")
    with pytest.raises(IllegalMoveError, match="a swap needs two different spaces"):
        position.parse_move("f6+a1=a1")
    with pytest.raises(IllegalMoveError, match="a swap names two spaces"):
        position.parse_move("f6+a1")
    a1, h8 = position.colour[0], position.colour[63]
    position.play(move)
    assert (position.colour[0], position.colour[63]) == (h8, a1)


def test_a_swap_may_change_the_colours_under_rings():
    # d4 (white's) is purple; e5 (black's) blue: swapping them swaps the controlled colours.
    position = game("random").position_after(["d4", "e5", "c3"])
    position.play(position.parse_move("f6+d4=e5"))
    assert position.controlled(WHITE) == {0, 2} and position.controlled(BLACK) == {1, 3}
    position.undo()
    assert position.controlled(WHITE) == {1, 2}


# --- variant quick ----------------------------------------------------------------------------

def test_quick_variant_has_no_step_3_and_every_move_takes_a_disc_out():
    g = game("quick")
    assert g.may_not_end is False and game().may_not_end is True
    position = g.position_after(["d4", "e5", "c3", "f6+a1=b1"])
    discs = disc_count(position)
    while position.outcome is None:
        moves = position.legal_move_texts()
        assert all("+" not in text for text in moves) and position.hand == -1
        position.play(position.parse_move(moves[0]))
        discs -= 1
        assert disc_count(position) == discs
    assert position.outcome.reason.endswith("cannot move a ring")


def test_quick_variant_refuses_a_step_3():
    position = game("quick").position_after(["d4", "e5", "c3", "f6", "d4-e4", "e5-d5"])
    with pytest.raises(IllegalMoveError, match="white has no disc to place"):
        position.parse_move("c3-b3+a1")


@pytest.mark.parametrize("variant", ["random", "quick"])
def test_random_and_quick_playouts_keep_every_invariant(variant):
    rng = random.Random(3)
    check_playout(game(variant, game(variant).draw_start(rng)["layout"]), seed=3)


# --- the layout option and the random start ---------------------------------------------------

def test_draw_start_gives_random_and_quick_a_layout_of_sixteen_discs_each():
    assert game().draw_start(random.Random(1)) == {}
    for variant in ("random", "quick"):
        start = game(variant).draw_start(random.Random(5))
        assert start == game(variant).draw_start(random.Random(5))
        layout = start["layout"]
        assert sorted(layout) == sorted(LETTERS * 16) and layout != STANDARD_LAYOUT


def test_a_layout_round_trips_through_the_option():
    layout = game("quick").draw_start(random.Random(9))["layout"]
    for text in (layout, layout.upper()):
        g = find_game("tor")({"variant": "quick", "layout": text})
        assert g.settings["layout"] == layout
        position = g.initial_position()
        assert "".join(LETTERS[c] for c in position.colour) == layout
        assert position.legal_move_texts() == sorted(NAMES)


def test_random_and_quick_without_a_layout_start_from_the_standard_layout():
    for variant in ("random", "quick"):
        assert game(variant).initial_position().key() == game().initial_position().key()


def test_the_layout_is_accepted_by_the_standard_variant_too():
    layout = "p" + STANDARD_LAYOUT[1:]
    assert game(layout=layout).initial_position().colour[0] == 1


@pytest.mark.parametrize("options,message", [
    ({"layout": "b" * 63}, "expected 64 letters of b, p, o, y"),
    ({"layout": "b" * 63 + "x"}, "bad layout"),
    ({"variant": "fast"}, "expected standard|random|quick"),
    ({"colours": "4"}, "unknown option 'colours'")])
def test_bad_options_are_refused_with_a_clear_message(options, message):
    with pytest.raises(OptionError, match=message):
        find_game("laocoon")(options)


# --- notation and the picture -----------------------------------------------------------------

def test_moves_are_read_leniently():
    position = setup(rows_with(**QUIET), white=("d4", "h8"), black=("a1", "h1"), hand="o")
    move = position.parse_move("d4-d5+c3")
    for text in ("D4-D5+C3", "d4xd5+c3", "d4d5+c3", " d4D5+c3 "):
        assert position.parse_move(text) == move
    assert position.move_text(move) == "d4-d5+c3"


@pytest.mark.parametrize("text", ["", "hello", "d4-e5-f6", "d4+", "d4-e5+c3+b2", "d4=e5"])
def test_text_that_is_not_a_move_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        game().initial_position().parse_move(text)


def test_squares_off_the_board_are_syntax_errors():
    with pytest.raises(MoveSyntaxError, match="off the board"):
        game().initial_position().parse_move("i9")


def test_the_diagram_shows_stacks_rings_hands_and_control():
    position = setup(rows_with(d4="po", e5=".", **QUIET), white=("d4", "h8"),
                     black=("a1", "h1"), hand="b")
    picture = position.diagram()
    assert "Oo2" in picture and "Xp1" in picture and " y1" in picture and " . " in picture
    assert "b blue, p purple, o orange, y yellow" in picture
    assert "variant standard; moving rings; white to move" in picture
    assert "disc to place: white blue, black none" in picture
    assert "white controls: orange, yellow" in picture and "black controls: purple" in picture


# --- golden counts, checked by hand --------------------------------------------------------------

def test_golden_placement_counts_follow_from_the_free_colour_rule():
    """Standard layout, 16 discs a colour: black avoids white's 16 spaces (48), white's second
    ring avoids black's colour and the ring (47); black's second ring avoids 3 rings and white's
    one colour (14 more spaces) or two colours (30 more)."""
    same, different = 64 * 48 * 15, 64 * 48 * 32
    counts = [64, 64 * 48, same + different, same * (64 - 3 - 14) + different * (64 - 3 - 30)]
    record = json.loads((PERFT / "laocoon.json").read_text())
    assert record["counts"][:4] == counts


def test_golden_quick_counts_agree_with_the_literal_reading():
    record = json.loads((PERFT / "laocoon-quick.json").read_text())
    position = find_game("laocoon")(record["options"]).initial_position()
    assert literal_perft(Literal.of(position), 2) == record["counts"][1]


# --- play -------------------------------------------------------------------------------------

def test_the_clock_gives_the_ring_placements_a_larger_share():
    position = game().initial_position()
    player = Player()
    player.clock.set_controls(3, 0, 0)
    shares = []
    for text in ("d4", "e5", "c3", "f6"):
        assert position.moves_to_go() == laocoon.PLACING_MOVES_TO_GO
        shares.append(player.budget(position).soft)
        position.play(position.parse_move(text))
    assert position.moves_to_go() == max(position.least_moves_to_go,
                                         (position.typical_plies - 4) // 2)
    assert min(shares) > 3 * player.budget(position).soft


def test_the_search_finds_the_step_that_leaves_black_without_a_move():
    rows = rows_with("b", a1="p", a2=".", b2=".", b1="y", d1="b", c1="y", e8="o",
                     h8="p", g8=".", g7=".", h7=".")
    position = setup(rows, white=("d1", "e8"), black=("a1", "h8"), to_move=WHITE)
    assert position.move_text(Player(depth=2, seed=1).choose(position)) == "d1-c1"


def test_the_evaluation_prefers_free_rings_to_trapped_ones():
    open_board = setup(rows_with(**QUIET), white=("d4", "e5"), black=("a1", "h1"), hand="o")
    assert open_board.evaluate() > 0  # white's rings in the open, black's on the edge
    walled = setup(rows_with(**QUIET, c3=".", c4=".", c5=".", d3=".", d5=".", e3=".", e4=".",
                             f4=".", f5=".", f6=".", e6=".", d6="."),
                   white=("d4", "e5"), black=("a1", "h1"), hand="o")
    assert walled.evaluate() < open_board.evaluate()


def test_the_evaluation_terms_are_the_movers_counts_less_the_opponents():
    rows = rows_with(**QUIET, c3=".", c4=".", d3=".", e3="yo", f4="po")
    white_to_move = setup(rows, white=("d4", "e5"), black=("a1", "h1"), to_move=WHITE, hand="o")
    black_to_move = setup(rows, white=("d4", "e5"), black=("a1", "h1"), to_move=BLACK, hand="o")
    terms = white_to_move.evaluation_terms()
    assert len(terms) == len(laocoon.TERMS)
    assert black_to_move.evaluation_terms() == [-term for term in terms]
    tempo, weights = laocoon.MIXED_WEIGHTS[white_to_move.phase()]
    assert white_to_move.evaluate() == tempo + sum(
        weight * term for weight, term in zip(weights, terms))


def test_separate_room_counts_each_sides_region_once_no_space_is_reachable_by_both():
    wall = {f"{file}4": "." for file in "abcdefgh"}
    apart = setup(rows_with(**QUIET, **wall, c7="yo"), white=("d6", "e6"), black=("a1", "h1"))
    separate_room = laocoon.TERMS.index("separate room")
    assert apart.evaluation_terms()[separate_room] == (30 + 1) - 22  # c7 holds two discs
    touching = setup(rows_with(**QUIET, c7="yo"), white=("d6", "e6"), black=("a1", "h1"))
    assert touching.evaluation_terms()[separate_room] == 0


def test_the_weights_go_from_the_middle_games_to_the_late_games_as_spaces_run_out():
    assert laocoon.MIXED_WEIGHTS[laocoon.PHASE_SPAN] == (laocoon.TEMPO, laocoon.WEIGHTS)
    assert laocoon.MIXED_WEIGHTS[0] == (laocoon.LATE_TEMPO, laocoon.LATE_WEIGHTS)
    start = setup(rows_with(**QUIET), white=("d4", "e5"), black=("a1", "h1"))
    assert start.phase() == laocoon.PHASE_SPAN
    holes = {f"{file}{rank}": "." for file in "abcdefgh" for rank in "2345"}
    assert setup(rows_with(**QUIET, **holes), white=("d6", "e6"), black=("a1", "h1")).phase() == 0


# --- what the generic tests read: tests/test_drawing.py, tests/report/test_play.py ---------


def drawn_pieces(position, colour: int) -> set[str]:
    """Where ``colour``'s pieces are on the board, read from the rules' state: what
    tests/test_drawing.py finds drawn."""
    return square_names(position.rings[colour], 8)


# How tests/report/test_play.py plays a whole game by clicks: the command's settings (a small
# board, a move limit), a pattern of the moves it prefers, and patterns of the kinds of move the
# person must have made.
# The random variant: its layout is drawn by the referee; a placement that could be
# followed by a swap is chosen with the page's button.
# laoCoon's moves naming a cell twice: black's swap on the space just placed on, and a disc put
# back on the space the ring just left.
REPEATS = (r"^([a-h]\d)\+\1=", r"^([a-h]\d)-[a-h]\d\+\1$")
# The random variant, on a layout where the game lasts long enough for both of REPEATS.
PLAY_BY_CLICKS = (["--max-moves", "30", "--option", "variant=random", "--option",
                   "layout=pbbpybybyypypyopbybypbpoypybyooobypbybpoooyooobpppooypopybboobbp"],
                  [*REPEATS, r"^[a-h]\d$|-.*\+"], [r"^[a-h]\d$", r"-[a-h]\d\+", *REPEATS])


def test_a_layout_given_with_a_random_variant_is_the_start_not_redrawn():
    """SPEC 2.9: ``layout=`` is accepted by every variant, so any start can be reproduced; the
    referee draws a layout only when none was given."""
    layout = PLAY_BY_CLICKS[0][-1].split("=", 1)[1]
    for variant in ("random", "quick"):
        game = find_game("laocoon")({"variant": variant, "layout": layout})
        assert game.draw_start(random.Random(1)) == {}
        drawn = find_game("laocoon")({"variant": variant}).draw_start(random.Random(1))
        assert set(drawn) == {"layout"} and drawn["layout"] != layout
