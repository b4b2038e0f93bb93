"""Numbers a user types are ASCII decimal only, in every referee command (issue 15 item 4): a
superscript, another script's digits, an exponent or an underscore is a one-line usage error
with status 2, never a traceback and never silently read. (``match``'s own flags are in
test_referee_units.py's usage-error table.)"""

from __future__ import annotations

import pytest

from referee.commands import cli
from referee.commands.arguments import parse_size
from referee.records.config import config_words
from referee.text import decimal, parse_anchor, whole

SUPERSCRIPT_TWO, ARABIC_TEN = "\u00b2", "\u0661\u0660"


@pytest.mark.parametrize("text", [SUPERSCRIPT_TWO, ARABIC_TEN, "1_0", "", " ", "+", "0x1"])
def test_whole_takes_ascii_digits_only(text):
    with pytest.raises(ValueError):
        whole(text)


@pytest.mark.parametrize("text", [SUPERSCRIPT_TWO, ARABIC_TEN, "1e3", "inf", "nan", "1_0",
                                  ".", "-", "1.2.3"])
def test_decimal_takes_ascii_digits_a_sign_and_a_point_only(text):
    with pytest.raises(ValueError):
        decimal(text)


def test_the_readers_keep_what_they_always_read():
    assert [whole(text) for text in ("0", "007", "-3", "+4")] == [0, 7, -3, 4]
    assert [decimal(text) for text in ("1", "-2.5", ".5", "3.", "+0.25")] == [
        1.0, -2.5, 0.5, 3.0, 0.25]
    assert parse_size("7X9") == (7, 9) and parse_size("10") == (10, 10)
    assert parse_anchor("a=b=-12.5") == ("a=b", -12.5)


def test_a_config_file_float_becomes_a_word_the_flags_read():
    # str(0.00001) is "1e-05", which --increment would refuse.
    assert config_words({"increment": 0.00001, "time": 60.0}) == [
        "--increment", "0.00001", "--time", "60.0"]


def usage_error(arguments, capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(arguments)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert len(captured.err.splitlines()) == 1, captured.err
    return captured.err


@pytest.mark.parametrize("arguments, flag", [
    (["render", "--game", "breakthrough", "--boardsize", SUPERSCRIPT_TWO], "--boardsize"),
    (["render", "--game", "breakthrough", "--boardsize", ARABIC_TEN], "--boardsize"),
    (["openings", "--game", "breakthrough", "--plies", "2", "--count", ARABIC_TEN], "--count"),
    (["openings", "--game", "breakthrough", "--plies", SUPERSCRIPT_TWO, "--count", "2"],
     "--plies"),
    (["openings", "--game", "breakthrough", "--plies", "2", "--count", "2",
      "--seed", "1e3"], "--seed"),
    (["check", "--engine", "x", "--seed", ARABIC_TEN], "--seed"),
    (["serve", ".", "--port", ARABIC_TEN], "--port"),
])
def test_every_command_refuses_numbers_that_are_not_ascii(arguments, flag, capsys, tmp_path):
    target = str(tmp_path / "out")
    out = [] if arguments[0] in ("check", "serve") else ["--out", target]
    err = usage_error([*arguments, *out], capsys)
    assert flag in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_stats_refuses_an_anchor_or_sprt_bound_that_is_not_ascii(capsys, tmp_path):
    (tmp_path / "match.json").write_text('{"game": "breakthrough", "engines": ["x", "y"]}')
    (tmp_path / "results.jsonl").write_text(
        '{"game_no": 1, "game": "breakthrough", "black": "x", "white": "y", "black_index": 1, '
        '"white_index": 2, "result": "B+", "termination": "normal", "reason": "", '
        '"moves": [], "plies": 3}\n')
    assert "NAME=ELO" in usage_error(["stats", str(tmp_path), "--anchor", f"x={ARABIC_TEN}"],
                                     capsys)
    assert "not a number" in usage_error(
        ["stats", str(tmp_path), "--sprt", f"elo0=0 elo1={SUPERSCRIPT_TWO}"], capsys)


def test_an_sgf_size_in_other_digits_is_not_a_board_size(capsys, tmp_path):
    record = tmp_path / "record.sgf"
    record.write_text(f"(;FF[4]GM[breakthrough]SZ[{ARABIC_TEN}];W[a2-a3])\n", encoding="utf-8")
    err = usage_error(["render", str(record), "--out", str(tmp_path / "x.svg")], capsys)
    assert "is not a board size" in err
