"""What the race games (Breakthrough, Knightthrough) tell exact solvers at a glance, checked
against searching every line: no game ends sooner than ``fewest_plies_to_end`` says, and a
``settled`` race has the result it claims, reached within the plies it claims."""

from __future__ import annotations

import random

import pytest

from engine import Position, find_game
from engine.games.racing import RacePosition
from referee.play.exact import exhaustive

# Boards small enough to search every line of a settled race; 3x5 Knightthrough is narrow
# enough for a side to be left without a move.
BOARDS = [("breakthrough", (5, 5)), ("breakthrough", (6, 5)), ("breakthrough", (2, 5)),
          ("knightthrough", (5, 5)), ("knightthrough", (3, 5)), ("knightthrough", (6, 6))]


def positions(name: str, size: tuple[int, int], games: int = 12):
    """Every position of ``games`` seeded random games (over or not)."""
    game = find_game(name)(size=size)
    for seed in range(games):
        rng, position = random.Random(seed), game.initial_position()
        yield position.copy()
        while position.outcome is None:
            position.play(rng.choice(position.legal_moves()))
            yield position.copy()


def ends_within(position: Position, plies: int) -> bool:
    """Whether some line of at most ``plies`` plies ends the game."""
    if position.outcome is not None:
        return True
    if plies == 0:
        return False
    for move in position.legal_moves():
        position.play(move)
        try:
            if ends_within(position, plies - 1):
                return True
        finally:
            position.undo()
    return False


@pytest.mark.parametrize("name, size", BOARDS)
def test_no_line_ends_the_game_sooner_than_the_bound(name, size):
    checked = 0
    for position in positions(name, size, games=6):
        fewest = position.fewest_plies_to_end()
        assert (fewest == 0) == (position.outcome is not None)
        if 1 < fewest <= 4:
            assert not ends_within(position, fewest - 1), position.diagram()
            checked += 1
    narrow = size[0] < find_game(name)(size=size).initial_position().always_moves_from
    # On a narrow board the next move may leave a side without one: the bound is 1.
    assert checked == 0 if narrow else checked > 10


def test_the_bound_counts_the_longest_step_and_the_pieces_to_take():
    breakthrough = find_game("breakthrough")()
    knightthrough = find_game("knightthrough")()
    # The start of 8x8: white's front rank is 6 ranks from its goal, 11 plies with white
    # to move (black's is 6 too, 12 plies); a knight steps up to two ranks: 3 moves, 5 plies.
    assert breakthrough.initial_position().fewest_plies_to_end() == 11
    assert knightthrough.initial_position().fewest_plies_to_end() == 5
    # Black, not to move, has one piece left: white's first capture could end the game.
    position = type(breakthrough.initial_position()).setup(breakthrough, "a8", "a1 b1")
    assert position.fewest_plies_to_end() == 1


@pytest.mark.parametrize("name, size", BOARDS)
def test_a_settled_race_is_won_as_claimed_within_the_plies_claimed(name, size, monkeypatch):
    settled = []
    for position in positions(name, size):
        claim = position.settled() if position.outcome is None else None
        if claim is not None and claim[1] <= 8:
            settled.append((position, claim))
    assert len(settled) > 20
    # Searched without the glance, to the plies claimed: a line that reaches them is a draw.
    monkeypatch.setattr(RacePosition, "settled", Position.settled)
    for position, (result, plies) in settled:
        assert exhaustive(position, lambda: False, plies) == result, position.diagram()
