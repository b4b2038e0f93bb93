"""Surakarta (SPEC 2.6): every kind of capture path, steps, and the ends, each from a position;
plus a slow reference generator that walks the circuits point by point."""

import random

import pytest

from engine import BLACK, WHITE, IllegalMoveError, MoveSyntaxError, Termination, find_game
from engine.games.surakarta import CIRCUITS, SurakartaPosition

from ..playouts import check_position, square_names

FILES = "abcdef"
NORTH, SOUTH, EAST, WEST = (0, 1), (0, -1), (1, 0), (-1, 0)
# The lines of each circuit, as the files and ranks (0-based) they run along.
CIRCUIT_FILES = {"inner": (1, 4), "outer": (2, 3)}
CIRCUIT_RANKS = {"inner": (1, 4), "outer": (2, 3)}
# The loops, read off SPEC 2.6: leaving the board at a point in a heading, a piece comes back
# at the other end of the loop with a new heading. Each pair is listed once, both ways below.
LOOP_PAIRS = [("a2", WEST, "b1", NORTH), ("f2", EAST, "e1", NORTH), ("a5", WEST, "b6", SOUTH),
              ("f5", EAST, "e6", SOUTH), ("a3", WEST, "c1", NORTH), ("f3", EAST, "d1", NORTH),
              ("a4", WEST, "c6", SOUTH), ("f4", EAST, "d6", SOUTH)]


def _point(name):
    return FILES.index(name[0]), int(name[1]) - 1


def _reverse(heading):
    return -heading[0], -heading[1]


LOOPS = {}
for out_name, out_heading, in_name, in_heading in LOOP_PAIRS:
    LOOPS[(_point(out_name), out_heading)] = (_point(in_name), in_heading)
    LOOPS[(_point(in_name), _reverse(in_heading))] = (_point(out_name), _reverse(out_heading))


def reference_captures(black, white, me):
    """The capture rule read literally: from each piece, along each circuit line through it,
    in both directions, step by step; loops when leaving the board; stop at the first piece."""
    board = {point: BLACK for point in black} | {point: WHITE for point in white}
    found = set()
    for origin, colour in board.items():
        if colour != me:
            continue
        for circuit in ("inner", "outer"):
            headings = []
            if origin[0] in CIRCUIT_FILES[circuit]:
                headings += [NORTH, SOUTH]
            if origin[1] in CIRCUIT_RANKS[circuit]:
                headings += [EAST, WEST]
            for heading in headings:
                target = _walk(board, origin, heading)
                if target is not None and board[target] != me:
                    found.add(f"{_name(origin)}x{_name(target)}")
    return found


def _walk(board, origin, heading):
    """The first piece met from ``origin`` going ``heading`` after at least one loop, or None."""
    point, loops = origin, 0
    for _ in range(100):
        ahead = (point[0] + heading[0], point[1] + heading[1])
        if not (0 <= ahead[0] < 6 and 0 <= ahead[1] < 6):
            ahead, heading = LOOPS[(point, heading)]
            loops += 1
        point = ahead
        if point != origin and point in board:
            return point if loops else None
    return None


def reference_steps(black, white, me):
    board = set(black) | set(white)
    own = black if me == BLACK else white
    return {f"{_name(p)}-{_name((p[0] + df, p[1] + dr))}"
            for p in own for df in (-1, 0, 1) for dr in (-1, 0, 1)
            if (df or dr) and 0 <= p[0] + df < 6 and 0 <= p[1] + dr < 6
            and (p[0] + df, p[1] + dr) not in board}


def _name(point):
    return f"{FILES[point[0]]}{point[1] + 1}"


def _points(position, colour):
    return [(p % 6, p // 6) for p in range(36) if position.pieces[colour] >> p & 1]


def reference_moves(position):
    black, white = _points(position, BLACK), _points(position, WHITE)
    me = position.to_move
    return reference_captures(black, white, me) | reference_steps(black, white, me)


def captures_of(position):
    return {text for text in position.legal_move_texts() if "x" in text}


def position(black, white, to_move=BLACK, quiet_plies=0):
    return SurakartaPosition.setup(black, white, to_move, quiet_plies)


# --- the reference generator against the bitboards -------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_generator_agrees_with_the_reference_walk_in_random_games(seed):
    rng = random.Random(seed)
    game = find_game("surakarta")()
    current = game.initial_position()
    while current.outcome is None:
        assert set(current.legal_move_texts()) == reference_moves(current)
        current.play(rng.choice(current.legal_moves()))


@pytest.mark.parametrize("seed", range(6))
def test_generator_agrees_with_the_reference_walk_on_random_boards(seed):
    rng = random.Random(100 + seed)
    names = [f"{f}{r}" for f in FILES for r in range(1, 7)]
    for _ in range(150):
        chosen = rng.sample(names, rng.randint(2, 16))
        cut = rng.randint(1, len(chosen) - 1)
        current = position(" ".join(chosen[:cut]), " ".join(chosen[cut:]),
                           rng.choice((BLACK, WHITE)))
        if current.outcome is None:
            assert set(current.legal_move_texts()) == reference_moves(current)


# --- capture paths --------------------------------------------------------------------------

def test_start_position_has_only_steps_for_black():
    start = find_game("surakarta")().initial_position()
    assert start.to_move == BLACK
    assert start.pieces == position("a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2",
                                    "a5 b5 c5 d5 e5 f5 a6 b6 c6 d6 e6 f6").pieces
    assert len(start.legal_moves()) == 16 and not captures_of(start)


@pytest.mark.parametrize("black, white, capture", [
    # Inner circuit, each small loop, each way round it.
    ("b3", "e2", "b3xe2"),   # down file b, loop b1->a2, east along rank 2
    ("c2", "b4", "c2xb4"),   # west along rank 2, loop a2->b1, up file b
    ("e3", "b2", "e3xb2"),   # down file e, loop e1->f2, west along rank 2
    ("d2", "e4", "d2xe4"),   # east along rank 2, loop f2->e1, up file e
    ("b4", "e5", "b4xe5"),   # up file b, loop b6->a5, east along rank 5
    ("c5", "b3", "c5xb3"),   # west along rank 5, loop a5->b6, down file b
    ("e4", "c5", "e4xc5"),   # up file e, loop e6->f5, west along rank 5
    ("d5", "e3", "d5xe3"),   # east along rank 5, loop f5->e6, down file e
    # Outer circuit, each large loop, each way round it.
    ("c3", "b3", "c3xb3"),   # down file c, loop c1->a3, east along rank 3
    ("b3", "c4", "b3xc4"),   # west along rank 3, loop a3->c1, up file c (passing c3... empty)
    ("d4", "e3", "d4xe3"),   # down file d, loop d1->f3, west along rank 3
    ("e3", "d5", "e3xd5"),   # east along rank 3, loop f3->d1, up file d
    ("c3", "b4", "c3xb4"),   # up file c, loop c6->a4, east along rank 4
    ("b4", "c2", "b4xc2"),   # west along rank 4, loop a4->c6, down file c
    ("d3", "e4", "d3xe4"),   # up file d, loop d6->f4, west along rank 4
    ("e4", "d2", "e4xd2"),   # east along rank 4, loop f4->d6, down file d
])
def test_a_capture_through_each_loop_each_way(black, white, capture):
    assert capture in captures_of(position(black, white))


def test_a_capture_needs_a_loop_on_its_way():
    # b2 and b5 on one line of the inner circuit with nothing between: no loop, no capture.
    assert captures_of(position("b2", "b5")) == {"b2xb5"}  # only the long way round
    # With the long way blocked, nothing is left.
    assert captures_of(position("b2 a2 b1 b6 a5", "b4")) == set()


def test_an_opponent_before_any_loop_blocks_and_is_not_captured():
    # b3 lies on file b (inner) and rank 3 (outer); on all four ways out a white piece stands
    # next to it, before any loop: none of them can be taken, and none can be passed.
    assert captures_of(position("b3", "b2 b4 a3 c3")) == set()
    # Without b2 the way south is free: the loop b1-a2, rank 2, the loop f2-e1, file e, the
    # loop e6-f5, rank 5, the loop a5-b6 and down file b onto b4, which now can be taken.
    assert captures_of(position("b3", "b4 a3 c3")) == {"b3xb4"}


def captures_from(current, point):
    return {text for text in captures_of(current) if text.startswith(point)}


def test_an_own_piece_blocks_the_path():
    # b4 closes the way north; south, the loop b1-a2 leads onto rank 2 towards e2.
    assert captures_from(position("b3 b4", "e2"), "b3") == {"b3xe2"}
    assert captures_from(position("b3 b4 a2", "e2"), "b3") == set()  # right after the loop
    assert captures_from(position("b3 b4 d2", "e2"), "b3") == set()  # between loop and target


def test_the_capture_stops_at_the_first_opponent_piece():
    assert captures_from(position("b3 b4", "c2 e2"), "b3") == {"b3xc2"}


def test_the_start_point_counts_as_empty_on_the_way():
    # b2 is a crossing of the inner circuit: going south it loops a2 and comes back east over
    # b2 itself, on to d2.
    current = position("b2", "d2 b6 a5")
    assert "b2xd2" in captures_of(current)
    # The same through the outer circuit at its crossing c3: west along rank 3, loop a3->c1,
    # up file c over c3 to c5 (f4 closes the long way round through the other loops).
    assert captures_from(position("c3 f4", "c5"), "c3") == {"c3xc5"}


def test_a_capture_through_two_loops():
    # From b4 west along rank 4, loop a4->c6, down file c, loop c1->a3, east along rank 3
    # to d3; e4 closes the short way east round the loop f4-d6, and the inner circuit.
    assert captures_from(position("b4 e4", "d3"), "b4") == {"b4xd3"}
    assert captures_from(position("b4 e4 c2", "d3"), "b4") == set()


def test_a_piece_on_a_crossing_may_use_either_line():
    # c2 lies on rank 2 (inner circuit) and file c (outer circuit).
    current = position("c2", "b5 a3")
    assert {"c2xb5", "c2xa3"} <= captures_of(current)


def test_a_target_reached_by_several_routes_is_one_move():
    current = position("b2", "e5")
    moves = current.legal_move_texts()
    assert moves.count("b2xe5") == 1


def test_the_capture_removes_the_piece_and_lands_on_its_point():
    current = position("b3 a1", "e2 f6")
    current.play(current.parse_move("b3xe2"))
    assert current.pieces == position("e2 a1", "f6").pieces
    assert current.to_move == WHITE and current.quiet_plies == 0


# --- steps -----------------------------------------------------------------------------------

def test_steps_go_one_point_in_eight_directions_onto_empty_points():
    current = position("c3 d4", "b2 f6")
    steps = {text for text in current.legal_move_texts() if "-" in text}
    assert {move for move in steps if move.startswith("c3")} == {
        "c3-b3", "c3-b4", "c3-c4", "c3-d3", "c3-d2", "c3-c2"}
    assert "c3-b2" not in steps and "c3-d4" not in steps


def test_a_corner_piece_steps_in_three_directions_at_most():
    current = position("a1", "f6")
    steps = {text for text in current.legal_move_texts() if "-" in text}
    assert steps == {"a1-a2", "a1-b1", "a1-b2"}


# --- notation --------------------------------------------------------------------------------

def test_moves_are_read_leniently_and_printed_canonically():
    current = position("b3", "e2")
    capture = current.parse_move("B3-E2")
    assert current.move_text(capture) == "b3xe2" and current.parse_move("b3e2") == capture
    assert current.move_text(current.parse_move("b3xb4")) == "b3-b4"


@pytest.mark.parametrize("text, reason", [
    ("c3-c4", "no black piece on c3"),
    ("b3-b6", "one step"),
    ("b3xd3", "one step"),
    ("b3-a2", "its own piece"),
    ("b3xb5", "no free path"),
])
def test_illegal_moves_say_why(text, reason):
    current = position("b3 a2", "b5 e6")
    with pytest.raises(IllegalMoveError, match=reason):
        current.parse_move(text)


@pytest.mark.parametrize("text", ["b3", "b3-g3", "b3=b4", "pass", ""])
def test_text_that_is_not_a_move_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        position("b3", "e2").parse_move(text)


# --- the end of the game ---------------------------------------------------------------------

def test_capturing_every_opponent_piece_wins():
    current = position("b3 a1", "e2")
    current.play(current.parse_move("b3xe2"))
    assert current.outcome.winner == BLACK and current.outcome.termination == Termination.NORMAL
    assert current.legal_moves() == []


def test_a_player_without_a_legal_move_loses():
    # White's a1 is hemmed in by black and no loop path is free for it.
    current = position("a2 b2 b1 f6", "a1", WHITE)
    assert current.outcome.winner == BLACK and "no legal move" in current.outcome.reason
    # Black's step into the last free point leaves white without a move.
    current = position("a2 b2 c1 f6", "a1")
    current.play(current.parse_move("c1-b1"))
    assert current.outcome.winner == BLACK and current.outcome.termination == Termination.NORMAL


def test_repetition_at_the_second_occurrence_wins_for_more_pieces():
    current = position("a1 f1", "f6")
    for text in ("a1-a2", "f6-f5", "a2-a1"):
        current.play(current.parse_move(text))
        assert current.outcome is None
    current.play(current.parse_move("f5-f6"))   # the start position, second time
    assert current.outcome.termination == Termination.REPETITION
    assert current.outcome.winner == BLACK and current.outcome.result == "B+"


def test_repetition_with_equal_pieces_is_a_draw():
    current = position("a1", "f6")
    for text in ("a1-a2", "f6-f5", "a2-a1", "f5-f6"):
        current.play(current.parse_move(text))
    assert current.outcome.termination == Termination.REPETITION
    assert current.outcome.winner is None and current.outcome.result == "0"
    current.undo()
    assert current.outcome is None and current.legal_moves()


def test_repetition_counts_the_side_to_move():
    # The same board with the other side to move is another position.
    current = position("a1 c1", "f6")
    for text in ("a1-a2", "f6-f5", "a2-a1", "f5-e5", "c1-d1", "e5-f6"):
        current.play(current.parse_move(text))
    assert current.outcome is None


def test_fifty_plies_without_a_capture_end_the_game():
    current = position("a1 c1", "f6", quiet_plies=48)
    current.play(current.parse_move("a1-a2"))
    assert current.outcome is None and current.quiet_plies == 49
    current.play(current.parse_move("f6-f5"))
    assert current.outcome.termination == Termination.NO_PROGRESS
    assert current.outcome.winner == BLACK
    current.undo()
    assert current.outcome is None and current.quiet_plies == 49


def test_fifty_plies_with_equal_pieces_are_a_draw():
    current = position("a1", "f6", WHITE, quiet_plies=49)
    current.play(current.parse_move("f6-e6"))
    assert current.outcome.termination == Termination.NO_PROGRESS and current.outcome.winner is None


def test_a_capture_resets_the_count_and_undo_restores_it():
    current = position("b3 a1 f1", "e2 f6", quiet_plies=45)
    current.play(current.parse_move("b3xe2"))
    assert current.quiet_plies == 0 and current.outcome is None
    current.undo()
    assert current.quiet_plies == 45
    current.play(current.parse_move("a1-b1"))
    assert current.quiet_plies == 46


def test_the_count_starts_at_the_start_of_the_game():
    current = find_game("surakarta")().initial_position()
    rng = random.Random(3)
    while current.outcome is None:
        moves = current.legal_moves()
        quiet = [move for move in moves if "x" not in current.move_text(move)]
        current.play(rng.choice(quiet or moves))
    if current.outcome.termination == Termination.NO_PROGRESS:
        assert current.ply == 50


def test_repetition_wins_over_the_fifty_ply_count():
    current = position("a1 c1", "f6", quiet_plies=46)
    for text in ("a1-a2", "f6-f5", "a2-a1", "f5-f6"):
        current.play(current.parse_move(text))
    assert current.outcome.termination == Termination.REPETITION


def test_lack_of_progress_is_judged_before_the_next_player_can_move():
    # After c1-b1 white's a1 has no move; but it is the 50th quiet ply, so the game ends by
    # lack of progress (won on piece count), not by white having no move.
    current = position("a2 b2 c1", "a1", quiet_plies=49)
    current.play(current.parse_move("c1-b1"))
    assert current.outcome.termination == Termination.NO_PROGRESS
    assert current.outcome.winner == BLACK
    # Earlier in the count the same move wins because white cannot move.
    current = position("a2 b2 c1", "a1", quiet_plies=10)
    current.play(current.parse_move("c1-b1"))
    assert current.outcome.termination == Termination.NORMAL
    assert current.outcome.winner == BLACK and "no legal move" in current.outcome.reason


# --- the diagram and the search --------------------------------------------------------------

def test_the_diagram_shows_coordinates_and_both_circuits():
    picture = find_game("surakarta")().initial_position().diagram()
    lines = picture.splitlines()
    assert lines[0].split() == list(FILES) and lines[0] in lines[1:]
    assert all(line.strip() for line in lines), "a GTP answer may not hold an empty line"
    for rank in "123456":
        assert any(line.startswith(rank) and line.endswith(rank) for line in lines)
    assert "=" in picture and ":" in picture and "-" in picture and "|" in picture
    assert picture.count("X") == 12 + 1 and picture.count("O") == 12 + 1  # pieces and legend


def test_the_evaluation_prefers_material_and_the_side_with_a_capture():
    ahead = position("a1 c1", "f6")
    assert ahead.evaluate() > 0
    assert position("a1", "f6 d6", WHITE).evaluate() > 0
    # Equal material, and whoever is to move can capture first.
    assert position("b3 f1", "e2 a6").evaluate() > 0
    assert position("b3 f1", "e2 a6", WHITE).evaluate() > 0


def test_every_setup_keeps_the_position_contract():
    check_position(position("b2 c3 e5", "b5 d4 e2"))


def test_golden_perft_agrees_with_the_reference_walk():
    def reference_perft(current, depth):
        moves = sorted(reference_moves(current)) if current.outcome is None else []
        if depth == 1:
            return len(moves)
        total = 0
        for text in moves:
            current.play(current.parse_move(text))
            total += reference_perft(current, depth - 1)
            current.undo()
        return total

    start = find_game("surakarta")().initial_position()
    assert [reference_perft(start, depth) for depth in (1, 2, 3)] == [16, 256, 5382]


def test_each_circuit_is_one_closed_path_with_its_four_loops_and_crossings():
    def names(points):
        return {FILES[p % 6] + str(p // 6 + 1) for p in points}

    expected = {0: ({"a2 b1", "e1 f2", "a5 b6", "e6 f5"}, {"b2", "b5", "e2", "e5"}),
                1: ({"a3 c1", "d1 f3", "a4 c6", "d6 f4"}, {"c3", "c4", "d3", "d4"})}
    for index, circuit in enumerate(CIRCUITS):
        assert len(circuit) == 24
        loops = {" ".join(sorted(names([circuit[i - 1][0], circuit[i][0]])))
                 for i in range(24) if circuit[i][1]}
        points = [point for point, _ in circuit]
        twice = names(p for p in set(points) if points.count(p) == 2)
        assert (loops, twice) == expected[index]
        # Consecutive entries without a loop between them are neighbours on a straight line.
        for i in range(24):
            if not circuit[i][1]:
                a, b = circuit[i - 1][0], circuit[i][0]
                assert abs(a % 6 - b % 6) + abs(a // 6 - b // 6) == 1


# --- what the generic tests read: tests/test_drawing.py, tests/report/test_play.py ---------


def drawn_pieces(position, colour: int) -> set[str]:
    """Where ``colour``'s pieces are on the board, read from the rules' state: what
    tests/test_drawing.py finds drawn."""
    return square_names(position.pieces[colour], 6)


# How tests/report/test_play.py plays a whole game by clicks: the command's settings (a small
# board, a move limit), a pattern of the moves it prefers, and patterns of the kinds of move the
# person must have made.
PLAY_BY_CLICKS = (["--max-moves", "60"], r"x", [r"x"])
