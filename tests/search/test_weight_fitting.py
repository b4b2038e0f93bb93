"""The weight-fitting scripts: the logistic regression against figures worked by hand, and
scripts/fit_laocoon.py on a folder of real self-play games.

One binary term, 8 positions: with the term 0 the side to move won 3 of 4, with it 1 won 1 of
4. The maximum-likelihood fit puts each group's log-odds at its own rate: intercept
logit(3/4) = ln 3, weight logit(1/4) - logit(3/4) = -2 ln 3. The 6 positions of each group's
majority are then given 3/4 and the other 2 are given 1/4, so the mean log-loss is
-(3 ln 3/4 + ln 1/4) / 4 = 0.5623, and the sign of the score names the winner of 6 of the 8.
"""

import importlib.util
import math
from pathlib import Path

import pytest

from ..results import rows_written

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


logistic = load("logistic")
fit_laocoon = load("fit_laocoon")

HAND_WORKED = [([0.0], 1)] * 3 + [([0.0], 0)] + [([1.0], 1)] + [([1.0], 0)] * 3


def test_the_fit_is_the_maximum_likelihood_worked_by_hand():
    intercept, weights = logistic.fit(HAND_WORKED, [0], 1, ridge=0.0)
    assert intercept == pytest.approx(math.log(3), abs=1e-9)
    assert weights == pytest.approx([-2 * math.log(3)], abs=1e-9)
    loss, accuracy = logistic.measures(HAND_WORKED, intercept, weights)
    assert loss == pytest.approx(-(3 * math.log(0.75) + math.log(0.25)) / 4, abs=1e-9)
    assert accuracy == 0.75


def test_the_ridge_shrinks_the_weights_but_not_the_intercept_of_a_balanced_term():
    # Term +1 or -1 in equal numbers: the intercept's fit (0, a fair game) does not depend on
    # the weight, which the ridge pulls toward zero.
    samples = [([1.0], 1)] * 3 + [([1.0], 0)] + [([-1.0], 0)] * 3 + [([-1.0], 1)]
    intercept, (free,) = logistic.fit(samples, [0], 1, ridge=0.0)
    shrunk_intercept, (shrunk,) = logistic.fit(samples, [0], 1, ridge=0.1)
    assert free == pytest.approx(math.log(3), abs=1e-9)
    assert 0 < shrunk < free
    assert intercept == pytest.approx(0, abs=1e-9) and shrunk_intercept == pytest.approx(0,
                                                                                     abs=1e-9)


def test_columns_outside_active_get_no_weight():
    samples = [([0.0, 5.0], won) for _, won in HAND_WORKED[:4]] + \
              [([1.0, -5.0], won) for _, won in HAND_WORKED[4:]]
    intercept, weights = logistic.fit(samples, [0], 2, ridge=0.0)
    assert weights[1] == 0.0
    assert weights[0] == pytest.approx(-2 * math.log(3), abs=1e-9)


def test_a_score_of_zero_predicts_half_a_winner():
    assert logistic.measures([([0.0], 1), ([0.0], 0)], 0.0, [1.0]) == (
        pytest.approx(math.log(2)), 0.5)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """Four real laoCoon games of the engine against itself, as fit_laocoon writes them."""
    folder = tmp_path_factory.mktemp("lao-self")
    fit_laocoon.self_play(4, folder, seed=3, seconds=0.005, random_plies=4)
    return folder


def test_fit_laocoon_fits_both_phases_and_prints_every_term(games, capsys):
    rows = rows_written(games)
    fit_laocoon.main([str(games), "--phase"])
    out = capsys.readouterr().out
    positions = sum(len(fit_laocoon.samples_of(row, 0)) for row in rows)
    assert f"{len(rows)} games, " in out
    counts = out.split(" games, ")[1].split(" positions to fit, ")
    assert int(counts[0]) + int(counts[1].split()[0]) == positions
    for name in fit_laocoon.laocoon.TERMS + ("tempo", "(engine 1 to move)"):
        assert f"  {name} " in out


def test_fit_laocoon_warns_of_lines_it_cannot_read(games, tmp_path, capsys):
    text = (games / "results.jsonl").read_text()
    (tmp_path / "results.jsonl").write_text(text + '{"game_no": 99, "result": "B+"}\n')
    assert len(fit_laocoon.game_rows([tmp_path])) == len(text.splitlines())
    assert "1 lines are no game's result" in capsys.readouterr().err


def test_fit_laocoon_refuses_fewer_than_two_games(games, tmp_path, capsys):
    first = (games / "results.jsonl").read_text().splitlines()[0]
    (tmp_path / "results.jsonl").write_text(first + "\n")
    with pytest.raises(SystemExit):
        fit_laocoon.main([str(tmp_path)])
    assert "need at least two laoCoon games" in capsys.readouterr().err
