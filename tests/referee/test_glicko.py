"""Glicko-2 (``referee.stats.glicko``) against Glickman's worked example (in the module's
doctest) and the system's general properties."""

from __future__ import annotations

import pytest

from referee.stats.glicko import NEW_DEVIATION, Glicko, idle, update


def test_a_win_raises_a_loss_lowers_and_a_draw_between_equals_keeps_the_rating():
    equal = Glicko(1500, 100)
    assert update(equal, [(equal, 1)]).rating > 1500 > update(equal, [(equal, 0)]).rating
    assert update(equal, [(equal, 0.5)]).rating == pytest.approx(1500)


def test_the_deviation_shrinks_with_games_and_grows_when_idle():
    player = Glicko()
    for _ in range(20):
        player = update(player, [(Glicko(1500, 50), 0.5)])
    assert player.deviation < 100
    rested = idle(player, 30)
    assert player.deviation < rested.deviation <= NEW_DEVIATION
    assert rested.rating == pytest.approx(player.rating)
    assert idle(player, 1e9).deviation == pytest.approx(NEW_DEVIATION)


def test_a_newcomer_moves_further_than_a_veteran_for_the_same_win():
    opponent = Glicko(1500, 60)
    newcomer = update(Glicko(1500, 350), [(opponent, 1)]).rating - 1500
    veteran = update(Glicko(1500, 50), [(opponent, 1)]).rating - 1500
    assert newcomer > 5 * veteran > 0


def test_beating_a_stronger_opponent_gains_more_than_beating_a_weaker_one():
    player = Glicko(1500, 80)
    assert (update(player, [(Glicko(1800, 60), 1)]).rating
            > update(player, [(Glicko(1200, 60), 1)]).rating)


def test_no_games_in_a_period_grows_only_the_deviation():
    player = Glicko(1620, 90, 0.06)
    after = update(player, [])
    assert after.rating == player.rating and after.volatility == player.volatility
    assert after.deviation == pytest.approx((90 ** 2 + (0.06 * 400 / 2.302585093) ** 2) ** 0.5)
