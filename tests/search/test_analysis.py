"""What the searches say of their moves (``genmove_analyze``): scores, proofs, lines."""

import pytest

from engine import find_game
from engine.games.loa import LoaPosition
from engine.search import AlphaBeta, Analysis, Budget, Mcts, Player

from .test_search import WIN_IN_ONE, WIN_IN_TWO


def replays(position, pv):
    """Whether ``pv`` is a line of legal moves from ``position``."""
    working = position.copy()
    for text in pv:
        if working.outcome is not None:
            return False
        working.play(working.parse_move(text))
    return True


def test_alpha_beta_reports_its_depth_nodes_score_and_a_legal_line():
    position = find_game("loa")().initial_position()
    search = AlphaBeta(seed=1)
    move = search.choose(position, Budget(depth=3))
    analysis = search.analysis(position, move)
    assert analysis.depth == 3 and analysis.nodes == search.nodes > 0
    assert -1 < analysis.score < 1 and analysis.proven is None
    assert analysis.pv[0] == position.move_text(move) and 1 <= len(analysis.pv) <= 3
    assert replays(position, analysis.pv)


def test_alpha_beta_proves_a_win_in_three_plies():
    position = LoaPosition.setup(*WIN_IN_TWO[:2])
    search = AlphaBeta(seed=1)
    move = search.choose(position, Budget(depth=4))
    analysis = search.analysis(position, move)
    assert (analysis.proven, analysis.proven_plies, analysis.score) == ("win", 3, 1.0)
    assert len(analysis.pv) == 3 and replays(position, analysis.pv)


def test_the_solvers_proof_is_a_proven_win():
    position = find_game("clobber")(size=(4, 1)).initial_position()  # BWBW: black wins
    search = AlphaBeta(seed=1)
    move = search.choose(position, Budget(soft=5, hard=5))
    analysis = search.analysis(position, move)
    assert analysis.proven == "win" and analysis.score == 1.0


def test_mcts_reports_its_playouts_mean_and_most_visited_line():
    position = find_game("loa")().initial_position()
    search = Mcts(seed=1)
    move = search.choose(position, Budget(playouts=200))
    analysis = search.analysis(position, move)
    assert analysis.nodes == 200 and analysis.depth is None
    assert -1 <= analysis.score <= 1 and analysis.proven is None
    assert analysis.pv[0] == position.move_text(move) and replays(position, analysis.pv)


def test_mcts_proves_a_win_in_one():
    position = LoaPosition.setup(*WIN_IN_ONE[:2])
    search = Mcts(seed=1)
    move = search.choose(position, Budget(playouts=500))
    analysis = search.analysis(position, move)
    assert (analysis.proven, analysis.score) == ("win", 1.0)
    assert analysis.pv == (position.move_text(move),)


@pytest.mark.parametrize("algorithm", ["random", "greedy"])
def test_the_baselines_report_nothing_but_the_move(algorithm):
    position = find_game("breakthrough")().initial_position()
    move, analysis = Player(algorithm=algorithm, seed=1).choose_with_analysis(position)
    assert move in position.legal_moves() and analysis == Analysis()


def test_the_lines_leave_out_what_is_unknown():
    assert Analysis().lines() == []
    assert Analysis(proven="loss", pv=("a1",)).lines() == ["proven loss", "pv a1"]
