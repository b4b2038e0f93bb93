"""The exact values of scripts/kolem_endgames.py against the rules and brute force.

The table of every 3-against-3 endgame is built once; its moves are checked against the
engine's legal moves, and its values against a plain minimax over the engine's own rules on
positions it decides within 3 plies (and on drawn positions, which no short line decides).
"""

import importlib.util
import random
from pathlib import Path

import pytest

from engine.core import WHITE

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "kolem_endgames.py"
spec = importlib.util.spec_from_file_location("kolem_endgames", SCRIPT)
endgames = importlib.util.module_from_spec(spec)
spec.loader.exec_module(endgames)
WON, DRAWN, LOST = endgames.WON, endgames.DRAWN, endgames.LOST


@pytest.fixture(scope="module")
def table():
    return endgames.solve(6)


def forced(position, plies: int):
    """WON or LOST when the side to move can force that result within ``plies`` plies, else
    ``None``: a minimax over the engine's rules, knowing nothing of the table."""
    if position.outcome is not None:
        return WON if position.outcome.winner == position.to_move else LOST
    moves = position.legal_moves()
    if plies == 0:
        return None
    results = []
    for move in moves:
        mover = position.to_move
        position.play(move)
        if position.outcome is not None:
            results.append(WON if position.outcome.winner == mover else LOST)
        else:
            reply = forced(position, plies - 1)
            results.append(None if reply is None else -reply)
        position.undo()
    if WON in results:
        return WON
    return LOST if all(result == LOST for result in results) else None


def test_every_position_is_stable_and_both_sides_have_three(table):
    for mover, other in table:
        assert mover.bit_count() == other.bit_count() == 3
        position = endgames.position_of(mover, other)
        assert position.outcome is None or not position.legal_moves()


def test_the_successors_are_the_positions_after_the_legal_moves(table):
    for mover, other in random.Random(1).sample(sorted(table), 200):
        position = endgames.position_of(mover, other)
        after = set()
        for move in position.legal_moves():
            position.play(move)
            after.add((position.pieces[WHITE], position.pieces[WHITE ^ 1]))
            position.undo()
        assert after == set(endgames.successors(mover, other))


def test_the_values_agree_with_minimax(table):
    rng = random.Random(2)
    by_kind: dict = {}
    for key, (result, plies) in table.items():
        if plies <= 3:
            by_kind.setdefault((result, plies), []).append(key)
    assert {kind[0] for kind in by_kind} == {WON, DRAWN, LOST}
    for (result, plies), keys in sorted(by_kind.items()):
        for key in rng.sample(keys, min(6, len(keys))):
            position = endgames.position_of(*key)
            if result == DRAWN:
                assert forced(position, 3) is None
            else:
                assert forced(position, plies) == result
                assert plies == 0 or forced(position, plies - 1) != result


def test_a_hand_checked_win_in_one(table):
    # White b1 d1 a2, black a1 c1 e1, white to move: d1-c2 leaves e1 without a white
    # neighbour, and black has 2 pieces left.
    def bits(*squares):
        return sum(1 << square for square in squares)
    white, black = bits(1, 3, 5), bits(0, 2, 4)
    assert table[white, black] == (WON, 1)
    position = endgames.position_of(white, black)
    position.play(position.parse_move("d1-c2"))
    assert position.outcome.winner == WHITE


def test_a_games_story_gives_the_pieces_and_the_exact_values(table):
    # Against the 10x-time UCT (seed 4, game 6, our engine white): phase 1 ends with no
    # piece lost, and white's first step leaves black without a move.
    moves = ("c3 b4 c4 d3 d4 b3 b2 d5 d2 a2 a1 b1 c1 d1 e1 e2 b5 a5 d4-c5").split()
    assert endgames.game_story(table, moves, WHITE) == ["19:+"]
    # White cannot place at plies 15 and 17: each pass loses a piece from its hand.
    moves = ("e4 d2 e2 e1 c2 b2 d3 e3 b3 c1 a2 d4 c4 e5 pass a1 pass b4").split()
    assert endgames.game_story(table, moves, WHITE) == ["15:8-9", "17:7-9"]
