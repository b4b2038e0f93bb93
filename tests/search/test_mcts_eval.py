"""MCTS with evaluated leaves: proofs found, legal moves in every game, fixed budgets kept and
reproducible, the tree kept between moves, and the games that choose it by default."""

import random

import pytest

from engine import WHITE, find_game, game_names
from engine.games.loa import LoaPosition
from engine.search import Budget, EvalMcts, Player
from engine.search.mcts import PROVEN_LOSS
from engine.search.mcts_eval import MAX_CHILDREN

from ..games.test_laocoon import rows_with, setup
from .test_search import WIN_IN_ONE, WIN_IN_TWO


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("black, white, winning", [WIN_IN_ONE, WIN_IN_TWO])
def test_forced_wins_are_found_and_proven(seed, black, white, winning):
    position = LoaPosition.setup(black, white)
    search = EvalMcts(seed)
    move = search.choose(position, Budget(playouts=3000))
    assert position.move_text(move) in winning
    assert search.analysis(position, move).proven == "win"


def test_the_step_that_leaves_black_without_a_move_is_found():
    rows = rows_with("b", a1="p", a2=".", b2=".", b1="y", d1="b", c1="y", e8="o",
                     h8="p", g8=".", g7=".", h7=".")
    position = setup(rows, white=("d1", "e8"), black=("a1", "h8"), to_move=WHITE)
    search = EvalMcts(1)
    move = search.choose(position, Budget(playouts=200))
    assert position.move_text(move) == "d1-c1"
    assert search.root.proven == PROVEN_LOSS  # the mover into the root, black, has lost


def test_the_search_leaves_the_position_as_it_was():
    position = LoaPosition.setup(*WIN_IN_TWO[:2])
    before = position.key(), position.ply, position.diagram()
    EvalMcts(1).choose(position, Budget(playouts=300))
    assert (position.key(), position.ply, position.diagram()) == before


def test_a_fixed_number_of_playouts_is_spent_exactly_and_reproducibly():
    def search(seed):
        position = find_game("laocoon")().initial_position()
        for text in ("d4", "c4", "f6", "a2"):
            position.play(position.parse_move(text))
        search = EvalMcts(seed)
        move = search.choose(position, Budget(playouts=150))
        return search.playouts, move, [child.visits for child in search.root.children]
    assert search(7)[0] == 150
    assert search(7) == search(7)


@pytest.mark.parametrize("name", game_names())
def test_only_legal_moves_are_returned_in_every_game(name):
    rng = random.Random(5)
    position = find_game(name)().initial_position()
    player = Player(algorithm="mcts-eval", playouts=30, seed=1)
    while position.outcome is None and position.ply < 60:
        if rng.random() < 0.3:
            move = player.choose(position)
            assert move in position.legal_moves()
        else:
            move = rng.choice(position.legal_moves())
        position.play(move)


def test_the_tree_below_the_two_moves_played_is_kept():
    position = find_game("laocoon")().initial_position()
    for text in ("d4", "c4", "f6", "a2"):
        position.play(position.parse_move(text))
    search = EvalMcts(3)
    ours = search.choose(position, Budget(playouts=400))
    node = next(child for child in search.root.children if child.move == ours)
    position.play(ours)
    reply = max(node.children, key=lambda child: child.visits)
    position.play(reply.move)
    visits = reply.visits
    search.choose(position, Budget(playouts=10))
    assert search.root is reply and reply.parent is None
    assert reply.visits == visits + 10


def test_a_very_wide_root_is_sampled():
    # laoCoon random: black's second ring may come with any swap, tens of thousands of moves.
    position = find_game("laocoon")({"variant": "random"}).initial_position()
    for text in ("d4", "c4", "f6"):
        position.play(position.parse_move(text))
    search = EvalMcts(1)
    move = search.choose(position, Budget(playouts=3))
    assert move in position.legal_moves()
    assert len(search.root.children) == MAX_CHILDREN and not search.root.complete


@pytest.mark.parametrize("name", game_names())
def test_auto_uses_the_search_each_game_names(name):
    position = find_game(name)().initial_position()
    searcher = Player(seed=1).searcher_for(position)
    expected = position.evaluation_search if position.has_evaluation else "mcts"
    assert type(searcher).__name__ == {"alphabeta": "AlphaBeta", "mcts-eval": "EvalMcts",
                                       "mcts": "Mcts"}[expected]


def test_a_reply_the_tree_never_expanded_starts_a_fresh_tree():
    position = find_game("laocoon")().initial_position()
    for text in ("d4", "c4", "f6", "a2", "d4-d3"):
        position.play(position.parse_move(text))
    search = EvalMcts(3)
    ours = search.choose(position, Budget(playouts=300))
    node = next(child for child in search.root.children if child.move == ours)
    position.play(ours)
    reply = next(child for child in node.children if child.estimated)
    position.play(reply.move)
    move = search.choose(position, Budget(playouts=20))
    assert search.root is not reply and move in position.legal_moves()
