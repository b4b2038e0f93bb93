"""``olympiad-referee stats``: the figures again from output folders, merged by engine name."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from referee.commands.stats import stats_command
from referee.records.results import GameResult
from referee.stats import SprtSettings, format_summary, summarize


def _row(game_no, black, white, result, pair, names=("new", "old")):
    return {"game_no": game_no, "game": "breakthrough", "black": names[black - 1],
            "white": names[white - 1], "black_index": black, "white_index": white,
            "result": result, "termination": "normal", "reason": "", "moves": [],
            "plies": 30, "black_time": 1.0, "white_time": 1.5, "pair": pair,
            "black_moves": 15, "white_moves": 15}


def _folder(path: Path, rows, engines, sprt=None, tail=b"") -> Path:
    path.mkdir()
    (path / "match.json").write_text(json.dumps({"game": "breakthrough", "engines": engines,
                                                 **({"sprt": sprt} if sprt else {})}))
    (path / "results.jsonl").write_bytes(
        b"".join(json.dumps(row).encode() + b"\n" for row in rows) + tail)
    return path


ROWS = [_row(1, 1, 2, "B+", 1), _row(2, 2, 1, "0", 1), _row(3, 1, 2, "W+", 2),
        _row(4, 2, 1, "W+", 2), _row(6, 2, 1, "B+", 3), _row(5, 1, 2, "B+", 3),
        _row(7, 1, 2, "B+", 4)]


def test_json_is_the_summary_of_the_results_file(tmp_path):
    folder = _folder(tmp_path / "run", ROWS,
                     [{"command": "olympiad-engine", "name": "new"},
                      {"command": "olympiad-engine --algorithm greedy", "name": "old"}],
                     sprt={"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05,
                           "model": "normalized"}, tail=b'{"game_no": 8, "bl')
    result = CliRunner().invoke(stats_command, [str(folder), "--json"])
    assert result.exit_code == 0, result.output
    expected = summarize([GameResult.from_row(row) for row in ROWS], ["new", "old"],
                         SprtSettings(0, 10))
    assert json.loads(result.output) == json.loads(json.dumps(expected.as_json()))
    assert expected.pairs == 3 and expected.headline.pentanomial == (0, 0, 2, 1, 0)
    text = CliRunner().invoke(stats_command, [str(folder)])
    assert text.exit_code == 0 and text.output.strip() == format_summary(expected)


def test_runs_of_the_same_engines_merge_by_name_with_their_pairs_kept_apart(tmp_path):
    first = _folder(tmp_path / "a", ROWS[:4], ["olympiad-engine", "greedy"])
    swapped = [_row(1, 2, 1, "B+", 1, ("greedy", "olympiad-engine")),
               _row(2, 1, 2, "W+", 1, ("greedy", "olympiad-engine"))]
    second = _folder(tmp_path / "b", swapped, ["greedy", "olympiad-engine"])
    result = CliRunner().invoke(stats_command, [str(first), str(second), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    # In b, engine 2 is olympiad-engine: it won both games of its pair (as white, then black).
    assert summary["engines"] == ["olympiad-engine", "greedy"]
    assert summary["games"] == 6 and summary["pairs"] == 3
    assert summary["pentanomial"] == [0, 0, 1, 1, 1]


def test_bad_usage_is_one_line_and_status_2(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(stats_command, [str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "no such folder" in missing.output
    first = _folder(tmp_path / "a", ROWS[:2], ["x", "y"])
    other = _folder(tmp_path / "b", ROWS[:2], ["x", "z"])
    mismatch = runner.invoke(stats_command, [str(first), str(other)])
    assert mismatch.exit_code == 2 and "do not match" in mismatch.output
    bad_sprt = runner.invoke(stats_command, [str(first), "--sprt", "elo0=3 elo1=1"])
    assert bad_sprt.exit_code == 2 and "must be below" in bad_sprt.output
    bad_anchor = runner.invoke(stats_command, [str(first), "--anchor", "x"])
    assert bad_anchor.exit_code == 2 and "NAME=ELO" in bad_anchor.output


def test_a_line_that_holds_no_result_is_named_and_left_out(tmp_path):
    folder = _folder(tmp_path / "run", ROWS, ["olympiad-engine", "greedy"],
                     tail=b'{"game_no": 8, "result": "?"}\n')
    result = CliRunner().invoke(stats_command, [str(folder), "--json"])
    assert result.exit_code == 0, result.output
    assert "line(s) 8 hold no game's result" in result.stderr
    assert json.loads(result.stdout)["games"] == len(ROWS)
