"""The search's contracts: wins found, legal moves only, fixed budgets kept, reproducible."""

import random

import pytest

from engine import find_game, game_names
from engine.games.loa import LoaPosition
from engine.search import AlphaBeta, Budget, Mcts, Player, TimeKeeper
from engine.search.budget import LATENCY_MARGIN, RESERVE

# Black wins at once with f4-e5 or f4-e3 (both touch d4).
WIN_IN_ONE = ("c3 d4 f4", "a1 a8 h8", {"f4-e5", "f4-e3"})
# Black has no win in one; c8-e6 is the only move that wins on black's next turn whatever
# white does (found and checked by plain minimax, independent of these searchers).
WIN_IN_TWO = ("c8 h5 h6 f5", "b5 h2 d1 c4 a2", {"c8-e6"})


def searchers(seed):
    return [(AlphaBeta(seed), Budget(depth=3)), (Mcts(seed), Budget(playouts=3000))]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("black, white, winning", [WIN_IN_ONE, WIN_IN_TWO])
def test_forced_wins_are_found(seed, black, white, winning):
    position = LoaPosition.setup(black, white)
    for searcher, budget in searchers(seed):
        assert position.move_text(searcher.choose(position, budget)) in winning


def test_the_search_leaves_the_position_as_it_was():
    position = LoaPosition.setup(*WIN_IN_TWO[:2])
    before = position.key(), position.ply, position.diagram()
    for searcher, budget in searchers(1):
        searcher.choose(position, budget)
        assert (position.key(), position.ply, position.diagram()) == before


@pytest.mark.parametrize("name", game_names())
def test_only_legal_moves_are_returned_in_every_game(name):
    rng = random.Random(3)
    position = find_game(name)().initial_position()
    players = [Player(depth=2, seed=1), Player(playouts=40, seed=1)]
    while position.outcome is None and position.ply < 60:
        if rng.random() < 0.3:
            move = players[position.ply % 2].choose(position)
            assert move in position.legal_moves()
        else:
            move = rng.choice(position.legal_moves())
        position.play(move)


def test_a_fixed_number_of_playouts_is_spent_exactly():
    position = find_game("loa")().initial_position()
    mcts = Mcts(seed=2)
    mcts.choose(position, Budget(playouts=123))
    assert mcts.playouts == 123


def test_a_fixed_depth_is_not_exceeded():
    position = find_game("loa")().initial_position()
    search = AlphaBeta(seed=2)
    search.choose(position, Budget(depth=2))
    assert search.depth_reached == 2


@pytest.mark.parametrize("options", [{"depth": 2}, {"playouts": 30}])
def test_play_is_reproducible_with_a_seed_and_a_fixed_effort(options):
    def game(seed):
        position = find_game("loa")().initial_position()
        player = Player(seed=seed, **options)
        while position.outcome is None and position.ply < 8:
            position.play(player.choose(position))
        return position.moves
    assert game(5) == game(5)


@pytest.mark.parametrize("main, left, moves_to_go", [
    (60, 60, 30), (60, 0.5, 30), (1, 0.2, 10), (300, 299, 1), (10, 0.01, 50)])
def test_sudden_death_allowances_stay_inside_the_clock(main, left, moves_to_go):
    keeper = TimeKeeper()
    keeper.set_controls(main, 0, 0)
    keeper.set_left(0, left, 0)
    soft, hard = keeper.allowance(0, moves_to_go)
    assert 0 < soft <= hard
    assert hard <= max(0.9 * left - LATENCY_MARGIN, 0.005)


def test_an_early_move_of_a_long_game_gets_a_modest_share():
    keeper = TimeKeeper()
    keeper.set_controls(60, 0, 0)
    soft, hard = keeper.allowance(0, 30)
    assert soft == pytest.approx((60 - RESERVE) / 30)  # the reserve is never planned for
    assert hard <= 15


def test_a_game_plans_its_clock_over_the_moves_it_names():
    # 40 s left, no increment: the share is the time left (less the reserve) over the moves
    # still to plan for.
    def soft_share(name, plies):
        start = find_game(name)().initial_position()
        # The same position, as if ``plies`` had been played (only the clock plan reads it).
        position = type("Later", (type(start),), {"ply": plies})(start.game)
        player = Player()
        player.clock.set_controls(40, 0, 0)
        return player.budget(position).soft
    # Domineering plans over its first 12 plies and never for fewer than 4 moves; a game
    # that does not say so plans for at least 10.
    assert soft_share("domineering", 0) == pytest.approx((40 - RESERVE) / 6)
    assert soft_share("domineering", 20) == pytest.approx((40 - RESERVE) / 4)
    assert soft_share("breakthrough", 58) == pytest.approx((40 - RESERVE) / 10)


def test_byo_yomi_periods_are_shared_over_their_stones():
    keeper = TimeKeeper()
    keeper.set_controls(0, 30, 10)
    keeper.set_left(1, 30, 10)
    soft, hard = keeper.allowance(1, 20)
    assert soft == pytest.approx(1.8) and hard == pytest.approx(2.55)


def test_no_time_limit_means_the_move_time():
    keeper = TimeKeeper(move_time=0.3)
    assert keeper.allowance(0, 20) == (0.3, 0.3)
    keeper.set_controls(0, 10, 0)  # byo-yomi without stones: no limit, in GTP
    assert keeper.allowance(0, 20) == (0.3, 0.3)


@pytest.mark.parametrize("algorithm", ["greedy", "random", "uct", "mcts", "alphabeta"])
def test_every_algorithm_returns_a_legal_move(algorithm):
    position = find_game("loa")().initial_position()
    player = Player(algorithm=algorithm, seed=4, move_time=0.05)
    assert player.choose(position) in position.legal_moves()


def test_the_greedy_baseline_takes_a_win_in_one():
    position = LoaPosition.setup(*WIN_IN_ONE[:2])
    move = Player(algorithm="greedy", seed=0).choose(position)
    assert position.move_text(move) in WIN_IN_ONE[2]


def test_an_unknown_algorithm_is_refused_in_one_line():
    with pytest.raises(ValueError, match="unknown algorithm 'minimax'"):
        Player(algorithm="minimax")


def test_an_increment_is_inferred_from_successive_time_left():
    keeper = TimeKeeper()
    keeper.set_controls(10, 0, 0)
    keeper.set_left(0, 10, 0)
    plain_soft, _ = keeper.allowance(0, 20)
    keeper.record_spent(0, 0.5)
    keeper.set_left(0, 10.4, 0)  # 10 - 0.5 spent (+ 0.1 latency charged) + 1.0 increment
    assert keeper.increment == pytest.approx(0.9)
    soft, hard = keeper.allowance(0, 20)
    assert soft > plain_soft + 0.5 and hard < 0.9 * 10.4


def test_an_announced_increment_counts_from_the_first_move():
    announced, inferred = TimeKeeper(), TimeKeeper()
    announced.set_controls(3, 0, 0, increment=0.2)
    inferred.set_controls(3, 0, 0)
    for keeper in (announced, inferred):
        keeper.set_left(0, 3, 0)
    first, unknown = announced.allowance(0, 50)[0], inferred.allowance(0, 50)[0]
    assert first > unknown + 0.1  # 0.7 of the increment, once enough of it is banked
    inferred.record_spent(0, first)
    inferred.set_left(0, 3 - first + 0.2, 0)
    assert inferred.increment == pytest.approx(0.2)
    announced.set_controls(3, 0, 0)  # a plain time_settings afterwards forgets it
    assert announced.increment == 0.0


def test_no_increment_is_inferred_under_plain_sudden_death():
    keeper = TimeKeeper()
    keeper.set_controls(10, 0, 0)
    keeper.set_left(0, 10, 0)
    keeper.record_spent(0, 0.5)
    keeper.set_left(0, 9.45, 0)
    assert keeper.increment == 0.0


def test_a_very_wide_root_is_searched_one_ply_deep():
    # laoCoon random: black's second ring may come with any swap, tens of thousands of moves.
    position = find_game("laocoon")({"variant": "random"}).initial_position()
    for text in ("d4", "c4", "f6"):
        position.play(position.parse_move(text))
    assert len(position.legal_moves()) > 2000
    search = AlphaBeta(seed=1)
    move = search.choose(position, Budget(depth=3))
    assert move in position.legal_moves() and search.depth_reached == 1


def test_quiescence_sees_the_recapture_beyond_the_depth_limit():
    # White's d4 takes e5, but black's f6 takes back: quiescence follows the exchange, so
    # black's position after d4xe5 is worth more than its static evaluation says.
    game = find_game("breakthrough")()
    start = type(game.initial_position()).setup
    position = start(game, black="f6 e5 a8 b8", white="d4 a1 b1 h2", to_move=1)
    position.play(position.parse_move("d4xe5"))
    recapture = position.parse_move("f6xe5")
    assert recapture in position.noisy_moves()
    search = AlphaBeta(seed=0)
    assert search._quiesce(position, -10**9, 10**9, 0, 6) > position.evaluate()


def test_positions_without_noisy_moves_are_judged_by_their_evaluation():
    position = find_game("loa")().initial_position()
    assert position.noisy_moves() == []
    search = AlphaBeta(seed=0)
    assert search._quiesce(position, -10**9, 10**9, 0, 6) == position.evaluate()
