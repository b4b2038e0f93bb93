"""Properties every registered game must have, checked by seeded random playouts."""

import pytest

from engine import find_game, game_names
from engine.core import Termination

from .playouts import check_playout, snapshot

GAMES = game_names()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_random_playout_keeps_every_invariant(name, seed):
    check_playout(find_game(name)(), seed)


@pytest.mark.parametrize("name", GAMES)
def test_undo_all_the_way_back_restores_the_start(name):
    game = find_game(name)()
    position = check_playout(game, seed=11, undo_every_ply=False)
    start = snapshot(game.initial_position())
    while position.history:
        position.undo()
    assert snapshot(position) == start


@pytest.mark.parametrize("name", GAMES)
def test_game_metadata_is_complete(name):
    game_class = find_game(name)
    assert game_class.name == name and game_class.name.islower()
    assert game_class.title
    for alias in game_class.aliases:
        assert find_game(alias.upper()) is game_class
    game = game_class()
    position = game.initial_position()
    assert position.to_move == game_class.first_player
    assert position.outcome is None
    assert position.diagram()


@pytest.mark.parametrize("name", GAMES)
def test_outcomes_name_their_termination(name):
    position = check_playout(find_game(name)(), seed=5, undo_every_ply=False)
    if position.outcome is not None:
        assert isinstance(position.outcome.termination, Termination)
        assert position.outcome.reason and "\n" not in position.outcome.reason
