"""Statistics against published and hand-worked figures: Elo, nElo, LOS and the SPRT's LLR
as fastchess and fishtest printed them for real runs; pentanomial counting; Bradley-Terry."""

from __future__ import annotations

import json
import math

import pytest

from engine import Outcome, Termination
from referee.records.results import GameResult, ResultError
from referee.commands.arguments import parse_sprt
from referee.stats import SprtError, SprtSettings, format_summary, history, summarize
from referee.stats.output import verdict_text
from referee.stats.tally import Tally
from referee.stats.elo.pentanomial import pentanomial_estimate
from referee.stats.elo.wdl import wdl_estimate
from referee.stats.ratings import fit_ratings
from referee.stats.sprt import llr

# --- published runs --------------------------------------------------------------------------
# Each: pentanomial counts, then the printed Elo +/-, nElo +/-, LOS (%), and the SPRT
# (elo0, elo1, alpha, beta, model, printed LLR). Sources (fastchess output pasted in PRs):
FASTCHESS_RUNS = [
    # brunocodutra/cinder PR 727: fastchess -sprt elo0=0 elo1=5 (model normalized, its default)
    ([50, 287, 610, 387, 73], (18.04, 8.23), (28.19, 12.84), 100.00,
     (0, 5, 0.05, 0.05, "normalized", 2.97)),
    # princesslana/princhess PR 343: bounds (-2.25, 2.89) are alpha 0.05, beta 0.10
    ([1, 22, 52, 21, 4], (8.69, 27.04), (15.51, 48.15), 73.60,
     (-5, 0, 0.05, 0.10, "normalized", 0.15)),
    # lynx-chess/Lynx PR 1899 (a logistic-model SPRT)
    ([235, 1384, 2521, 1341, 239], (-1.06, 4.05), (-1.67, 6.37), 30.33,
     (-5, 0, 0.05, 0.10, "logistic", 1.69)),
    # Disservin/fastchess PR 882: a one-sided match that once gave NaN
    ([72, 10, 0, 0, 0], (-600.97, 118.46), (-1409.98, 53.17), 0.00,
     (-1000, -500, 0.05, 0.05, "normalized", -2.97)),
]


@pytest.mark.parametrize("counts, elo, nelo, los, sprt", FASTCHESS_RUNS)
def test_published_fastchess_runs_are_reproduced_to_the_printed_precision(counts, elo, nelo,
                                                                           los, sprt):
    estimate = pentanomial_estimate(counts)
    assert round(estimate.elo, 2) == elo[0] and round(estimate.elo_error, 2) == elo[1]
    assert round(estimate.nelo, 2) == nelo[0] and round(estimate.nelo_error, 2) == nelo[1]
    assert round(100 * estimate.los, 2) == los
    elo0, elo1, alpha, beta, model, printed = sprt
    settings = SprtSettings(elo0, elo1, alpha, beta, model)
    assert round(settings.llr(counts), 2) == printed


# fishtest as quoted in Stockfish PRs: "{a,b}" are logistic bounds, "<a,b>" normalized ones.
FISHTEST_RUNS = [
    ([253, 4282, 17604, 4431, 286], -0.25, 1.25, "logistic", 2.94),        # PR 3209 STC
    ([58, 3302, 33130, 3518, 84], 0.25, 1.25, "logistic", 2.97),           # PR 3209 LTC
    ([424, 2948, 5832, 3045, 460], -1.00, 3.00, "logistic", 2.94),         # PR 2493 STC
    ([1284, 17437, 55536, 18085, 1292], 0.00, 2.00, "logistic", 2.94),     # PR 2493 LTC
    ([2002, 72968, 180891, 74129, 2034], 0.00, 2.00, "normalized", 3.22),  # PR 4493 STC
    ([24, 7350, 23669, 7717, 28], 0.50, 2.50, "normalized", 2.94),         # PR 4493 LTC
]


@pytest.mark.parametrize("counts, elo0, elo1, model, printed", FISHTEST_RUNS)
def test_published_fishtest_llrs_are_reproduced(counts, elo0, elo1, model, printed):
    assert round(llr(counts, elo0, elo1, model), 2) == printed


# fastchess's own tests (app/tests/sprt_test.cpp, elo_test.cpp): trinomial counts, 1 % tolerance.
@pytest.mark.parametrize("wins, losses, draws, elo0, elo1, model, expected", [
    (36433, 36027, 68692, 0, 2, "normalized", 0.92),
    (10871, 10650, 20431, -1.75, 0.25, "normalized", 2.30),
    (21404, 21184, 40708, 0.5, 2.5, "logistic", -1.57),
    (57433, 57030, 106593, 0, 2, "logistic", -2.59),
])
def test_trinomial_llr_matches_fastchess(wins, losses, draws, elo0, elo1, model, expected):
    value = SprtSettings(elo0, elo1, model=model).llr([wins, draws, losses])
    assert value == pytest.approx(expected, rel=0.01)


def test_trinomial_elo_matches_fastchess():
    estimate = wdl_estimate(wins=136, draws=111, losses=96)
    assert (round(estimate.elo, 2), round(estimate.elo_error, 2)) == (40.70, 30.43)
    assert (round(estimate.nelo, 2), round(estimate.nelo_error, 2)) == (49.77, 36.77)
    assert round(100 * estimate.los, 2) == 99.60
    assert round(100 * wdl_estimate(wins=76, draws=123, losses=89).los, 2) == 15.53


# --- hand-worked figures ---------------------------------------------------------------------

def test_trinomial_elo_and_interval_worked_by_hand():
    # 6 wins, 2 draws, 2 losses: mu = 0.7, var = (6 * 0.09 + 2 * 0.04 + 2 * 0.49) / 10 = 0.16,
    # se = sqrt(0.016) = 0.126491; interval mu -+ 1.959964 se = [0.452081, 0.947919].
    estimate = wdl_estimate(wins=6, draws=2, losses=2)
    assert estimate.score == pytest.approx(0.7) and estimate.variance == pytest.approx(0.16)
    assert estimate.elo == pytest.approx(400 * math.log10(0.7 / 0.3))           # 147.19
    assert estimate.elo_low == pytest.approx(400 * math.log10(0.452081 / 0.547919), abs=1e-3)
    assert estimate.elo_high == pytest.approx(400 * math.log10(0.947919 / 0.052081), abs=0.01)
    assert estimate.nelo == pytest.approx(800 / math.log(10) * 0.2 / 0.4)        # 173.72
    assert estimate.los == pytest.approx(0.5 * (1 + math.erf(0.2 / 0.126491 / math.sqrt(2))))


def test_pentanomial_elo_worked_by_hand():
    # Pairs scoring 1/2, 1, 1, 3/2 points: per-game scores 1/4, 1/2, 1/2, 3/4; mu = 1/2,
    # var per pair = (2 * 1/16) / 4 = 1/32; nElo 0; interval 1/2 -+ 1.959964 sqrt(1/128);
    # nElo's +/- is 1.959964 (800 / ln 10) / sqrt(8 games).
    estimate = pentanomial_estimate([0, 1, 2, 1, 0])
    assert estimate.elo == 0 and estimate.nelo == 0 and estimate.los == 0.5
    half = 1.959963984540054 * math.sqrt(1 / 128)
    assert estimate.elo_high == pytest.approx(400 * math.log10((0.5 + half) / (0.5 - half)))
    assert estimate.nelo_error == pytest.approx(
        1.959963984540054 * 800 / math.log(10) / math.sqrt(8))


def test_a_perfect_score_has_an_infinite_elo_that_summary_writes_as_inf_not_null():
    estimate = wdl_estimate(wins=5, draws=0, losses=0)
    assert estimate.elo == math.inf and estimate.los == 1.0
    value = summarize([_game(n, 1, 2, 0) for n in range(1, 6)], ["a", "b"])
    assert value.headline.elo.elo == math.inf  # the value says infinite with a number
    summary = value.as_json()
    # No spread: Wilson's interval, whose lower end for 5 of 5 is a score of 5 / (5 + z^2).
    z2 = 1.959963984540054 ** 2
    lower = 400 * math.log10((5 / (5 + z2)) / (z2 / (5 + z2)))
    assert summary["elo"] == "+inf"
    assert summary["elo_95"][0] == pytest.approx(lower) and summary["elo_95"][1] == "+inf"
    json.dumps(summary, allow_nan=False)
    # Undefined is not infinite: without games the figures are null.
    assert summarize([], ["a", "b"]).headline.elo.elo is None  # and undefined with None
    empty = summarize([], ["a", "b"]).as_json()
    assert empty["elo"] is None and empty["elo_95"] == [None, None] and empty["los"] is None


def test_sprt_bounds_and_verdicts():
    settings = SprtSettings(0, 5, alpha=0.05, beta=0.10)
    lower, upper = settings.bounds
    assert lower == pytest.approx(math.log(0.10 / 0.95)) and upper == pytest.approx(math.log(18))
    assert settings.verdict(upper) == "H1" and settings.verdict(lower) == "H0"
    assert settings.verdict(0.0) is None


def test_more_evidence_moves_the_llr_towards_the_true_hypothesis():
    settings = SprtSettings(0, 10, model="logistic")
    stronger = [settings.llr([10 * k, 10 * k, 5 * k]) for k in (1, 2, 4)]
    assert stronger[0] < stronger[1] < stronger[2] and stronger[0] > 0


@pytest.mark.parametrize("words, message", [
    (["elo0=0"], "elo1= is missing"),
    (["elo0=5", "elo1=0"], r"elo0 \(5\) must be below elo1 \(0\)"),
    (["elo0=0", "elo1=5", "alpha=1.5"], "alpha must lie between 0 and 1"),
    (["elo0=0", "elo1=5", "model=bayes"], "model must be normalized or logistic"),
    (["elo0=0", "elo1=5", "gamma=1"], "'gamma=1' is not one of"),
    (["elo0=zero", "elo1=5"], "elo0=zero: not a number"),
])
def test_sprt_words_give_one_line_errors(words, message):
    with pytest.raises(SprtError, match=message) as caught:
        parse_sprt(words)
    assert "\n" not in str(caught.value)


def test_sprt_words_parse_with_defaults_and_as_one_string():
    assert parse_sprt(["elo0=0 elo1=5"]) == SprtSettings(0, 5, 0.05, 0.05, "normalized")
    assert parse_sprt(["elo0=-1", "elo1=3", "alpha=0.1", "beta=0.2", "model=logistic"]) \
        == SprtSettings(-1, 3, 0.1, 0.2, "logistic")


# --- counting from rows ----------------------------------------------------------------------

def _row(game_no, black, white, result, pair=None, **more):
    return {"game_no": game_no, "black_index": black, "white_index": white, "result": result,
            "termination": "normal", "plies": 10, "pair": pair, **more}


def _game(game_no, black, white, winner, pair=None):
    return GameResult(game_no, black, white, Outcome(winner, Termination.NORMAL, ""), pair=pair)


def test_pentanomial_counts_complete_pairs_only_from_the_first_engines_side():
    rows = [_row(1, 1, 2, "B+", 1), _row(2, 2, 1, "B+", 1),    # win, loss: 1 point
            _row(3, 1, 2, "0", 2), _row(4, 2, 1, "W+", 2),     # draw, win: 3/2
            _row(5, 2, 1, "W+", 3), _row(6, 1, 2, "B+", 3),    # win, win: 2
            _row(7, 1, 2, "W+", 4), _row(8, 2, 1, "B+", 4),    # loss, loss: 0
            _row(9, 1, 2, "B+", 5)]                            # pair 5 incomplete
    results = [GameResult.from_row(row) for row in rows]
    tally = Tally.of(results, 2)
    assert tally.pentanomial == [1, 0, 1, 1, 1]
    assert tally.first_wdl == (5, 1, 3) and tuple(tally.engines[1].wdl) == (3, 1, 5)
    assert list(tally.waiting) == [5]
    # The same counts in another order of arrival (a pair's second game first, say).
    shuffled = Tally.of(results[::-1], 2)
    assert shuffled.pentanomial == tally.pentanomial and shuffled.first_wdl == tally.first_wdl
    summary = summarize(results, ["a", "b"]).as_json()
    assert summary["model"] == "pentanomial" and summary["pairs"] == 4
    assert summary["pentanomial"] == [1, 0, 1, 1, 1] and summary["wld"] == [5, 3, 1]
    expected = pentanomial_estimate([1, 0, 1, 1, 1])
    assert summary["elo"] == pytest.approx(expected.elo)


def test_old_rows_without_the_new_fields_read_as_unknown():
    result = GameResult.from_row({"game_no": 1, "game": "loa", "black_index": 1,
                                  "white_index": 2, "result": "0", "termination": "move_limit",
                                  "plies": 1000, "black_time": 1.5, "white_time": 2.0})
    assert (result.pair, result.opening, result.moves, result.min_left) \
        == (None, None, (None, None), (None, None))
    assert result.used == (1.5, 2.0) and result.winner is None
    summary = summarize([result], ["a", "b"]).as_json()
    assert summary["model"] == "trinomial" and summary["standings"][0]["time"]["per_move"] is None


def test_a_bad_row_is_a_one_line_error():
    with pytest.raises(ResultError, match="game 4"):
        GameResult.from_row(_row(4, 1, 2, "X+"))


def test_summary_per_engine_figures():
    rows = [_row(1, 1, 2, "B+", black_moves=10, white_moves=9, black_time=5.0, white_time=9.0,
                 black_min_left=2.5, white_min_left=0.5),
            _row(2, 2, 1, "B+", black_moves=20, white_moves=20, black_time=8.0, white_time=6.0,
                 black_min_left=1.0, white_min_left=3.0, at_fault="white",
                 first_player="black") | {"termination": "timeout"}]
    summary = summarize([GameResult.from_row(row) for row in rows], ["a", "b"]).as_json()
    a = next(row for row in summary["standings"] if row["name"] == "a")
    assert a["time"] == {"moves": 30, "seconds": 11.0, "per_move": 11.0 / 30, "min_left": 2.5}
    assert a["as_first"] == {"games": 1, "score": 1.0} and a["as_second"]["score"] == 0.0
    assert a["terminations"] == {"wins": {"normal": 1}, "draws": {}, "losses": {"timeout": 1}}
    assert a["faults"] == {"timeout": 1}
    assert summary["first_player"]["score"] == 1.0 and summary["draw_ratio"] == 0.0
    assert summary["crosstable"][0][1] == {"points": 1.0, "games": 2}


# --- Bradley-Terry ---------------------------------------------------------------------------

def _cross(scores):
    """Games from ``{(i, j): (points of i, games)}`` with whole-point results."""
    games = []
    for (i, j), (points, played) in scores.items():
        games += [(i, j, 1.0)] * points + [(i, j, 0.0)] * (played - points)
    return games


# A beats B 2 of 3, B beats C 2 of 3, A beats C 4 of 5: the ratings whose expected scores equal
# these are 120.41 Elo apart (400 log10 2), as the likelihood equations sum_j n_ij P_ij = S_i
# show. The Fisher information (natural units) has weights n P (1 - P): 2/3, 2/3, 4/5; without
# C's row and column it is [[22/15, -2/3], [-2/3, 4/3]], whose inverse has diagonal 15/17 and
# 33/34: standard deviations sqrt(15/17) and sqrt(33/34) times 400 / ln 10 relative to C.
HAND_TABLE = {(1, 2): (2, 3), (2, 3): (2, 3), (1, 3): (4, 5)}


def test_bradley_terry_ratings_of_a_crosstable_worked_by_hand():
    table = fit_ratings(_cross(HAND_TABLE), 3)
    step = 400 * math.log10(2)
    assert [rating.elo for rating in table.ratings] == pytest.approx([step, 0, -step], abs=1e-6)
    assert table.virtual_draws == 0


def test_bradley_terry_anchor_and_error_bars_worked_by_hand():
    table = fit_ratings(_cross(HAND_TABLE), 3, anchor=(3, 1500))
    step = 400 * math.log10(2)
    assert [rating.elo for rating in table.ratings] \
        == pytest.approx([1500 + 2 * step, 1500 + step, 1500], abs=1e-6)
    unit = 1.959963984540054 * 400 / math.log(10)
    assert [rating.error for rating in table.ratings] \
        == pytest.approx([unit * math.sqrt(15 / 17), unit * math.sqrt(33 / 34), 0], abs=1e-6)


def test_ratings_in_the_summary_use_names_and_the_anchor():
    results = [GameResult(n, i, j, Outcome(0 if score else 1, Termination.NORMAL, ""))
               for n, (i, j, score) in enumerate(_cross(HAND_TABLE), 1)]
    summary = summarize(results, ["a", "b", "c"], anchor=("b", 0)).as_json()
    ratings = summary["ratings"]
    assert [row["name"] for row in ratings["engines"]] == ["a", "b", "c"]
    assert [row["elo"] for row in ratings["engines"]] \
        == pytest.approx([120.412, 0, -120.412], abs=1e-3)
    assert ratings["anchor"] == {"name": "b", "elo": 0}
    with pytest.raises(ValueError, match="no engine named 'z'"):
        summarize(results, ["a", "b", "c"], anchor=("z", 0))


def test_an_unbeaten_engine_gets_the_virtual_draw_prior():
    table = fit_ratings([(1, 2, 1.0), (2, 3, 1.0), (1, 3, 1.0)], 3)
    assert table.virtual_draws == 1
    assert table.ratings[0].elo > table.ratings[1].elo > table.ratings[2].elo
    assert fit_ratings([(1, 2, 1.0)], 3) is None        # engine 3 never played


# --- history ---------------------------------------------------------------------------------

def test_history_ends_at_the_summary_figures():
    results = [_game(1, 1, 2, 0, 1), _game(2, 2, 1, None, 1), _game(3, 1, 2, 1, 2),
               _game(4, 2, 1, 1, 2), _game(5, 1, 2, 0, 3), _game(6, 2, 1, 0, 3)]
    sprt = SprtSettings(0, 10)
    points = list(history(results, ["a", "b"], sprt))
    assert [point["pairs"] for point in points] == [0, 1, 1, 2, 2, 3]
    assert points[0]["elo"] is None
    summary = summarize(results, ["a", "b"], sprt).as_json()
    assert points[-1]["elo"] == summary["elo"] and points[-1]["llr"] == summary["sprt"]["llr"]
    assert points[-1]["elo_95"] == summary["elo_95"]


# --- text ------------------------------------------------------------------------------------

def test_text_shows_fastchess_lines_and_the_tables_of_a_round_robin():
    perfect = format_summary(summarize([_game(n, 1, 2, 0) for n in range(1, 5)], ["a", "b"],
                                       SprtSettings(0, 5)))
    assert "Elo: +inf, 95 % interval [+7.03, +inf]" in perfect
    assert "LLR: " in perfect and "[0.00, 5.00]" in perfect
    results = [GameResult(n, i, j, Outcome(0 if score else 1, Termination.NORMAL, ""))
               for n, (i, j, score) in enumerate(_cross(HAND_TABLE), 1)]
    text = format_summary(summarize(results, ["a", "b", "c"]))
    assert "Ratings (Bradley-Terry, mean 0):" in text and " 1  a  " in text
    assert text.splitlines()[-3].split()[-2:] == ["2/3", "4/5"]     # a's crosstable row


def test_every_count_of_a_round_robin_summary_adds_up():
    # Four engines in pairs: engine 1 plays 2 pairs against each of the 3 others (12 games);
    # the other engines meet too, 24 pairs and 48 games in all.
    results, number, pair = [], 0, 0
    for i, j in [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]:
        for winners in ((0, 1), (0, 0), (1, 1), (None, 0)):   # a pair: (game 1, game 2)
            pair += 1
            for (black, white), winner in zip(((i, j), (j, i)), winners):
                number += 1
                outcome = Outcome(winner, Termination.NORMAL, "")
                results.append(GameResult(number, black, white, outcome, pair=pair))
    summary = summarize(results, ["a", "b", "c", "d"])
    lines = format_summary(summary).splitlines()
    # A round robin is headed by the field: no engine is its subject.
    assert lines[:2] == ["Standings of the field (48 games, 24 complete pairs):",
                         "DrawRatio: 12.50 %, First player: 56.25 %"]  # 6 draws; 27 of 48
    assert not any(line.startswith(("Results of", "Elo:", "Ptnml")) for line in lines)
    field = lines[2:]
    # A gauntlet's (the same counts read as engine 1's games against the field) by engine 1.
    lines = format_summary(summary, gauntlet=1).splitlines()
    assert lines[-len(field):] == field
    figures = summary.as_json()
    wins, losses, draws = figures["wld"]
    assert lines[0] == f"Results of a vs the field ({wins + losses + draws} of the run's 48 " \
                       f"games, pentanomial model):"
    assert wins + losses + draws == 24
    ptnml = next(line for line in lines if line.startswith("Ptnml(0-2)"))
    assert ptnml.endswith(f"Pairs: {sum(figures['pentanomial'])}") and \
        sum(figures["pentanomial"]) == 12
    run = next(line for line in lines if line.startswith("Run:"))
    assert run.startswith("Run: 48 games, 24 complete pairs, DrawRatio")
    # One engine order in every table: the crosstable follows the standings.
    standings = [line.split()[1] for line in lines if line[:2].strip().isdigit()][:4]
    crosstable = [line.split()[1] for line in lines[-4:]]
    assert crosstable == standings == [row["name"] for row in figures["standings"]]


def test_the_sprt_verdict_says_what_the_test_accepted_and_no_more():
    results = [_game(n, 1 + n % 2, 2 - n % 2, n % 2 if n % 4 else 1 - n % 2)
               for n in range(1, 81)]   # engine 1 wins 3 games of 4
    summary = summarize(results, ["a", "b"], SprtSettings(0, 50))
    sprt = summary.headline.sprt
    assert sprt.verdict == "H1"
    assert verdict_text(sprt) == ("H1 accepted: the results favour elo1 (+50.0) over "
                                  "elo0 (+0.0), at error rates 0.05 and 0.05")
