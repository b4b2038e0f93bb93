"""The SGF reader: what the referee writes reads back, and hand-written records with
variations, escapes and faults."""

from __future__ import annotations

import pytest

from referee.records.game_sgf import sgf_text
from referee.records.sgf import MAX_NESTING, SgfError, read_collection, read_sgf

from ..playouts import random_game


@pytest.mark.parametrize("name, options", [("loa", {}), ("laocoon", {"variant": "random"}),
                                           ("cookiedisco", {"layout": "3"}), ("kolem", {})])
def test_what_the_referee_writes_reads_back(name, options):
    game, moves = random_game(name, options, 12, seed=5)
    row = {"game": game.name, "game_no": 7, "black": "a]b\\c", "white": "x[y]",
           "result": "0", "termination": "move_limit", "reason": "no result [after] 12 plies",
           "moves": moves, "size": list(game.size) if game.size else None,
           "options": dict(game.settings), "finished": "2025-01-02T03:04:05",
           "first_player": ("black", "white")[game.first_player]}
    record = read_sgf(sgf_text(row, [float(ply) for ply in range(len(moves))]))
    assert [text for _, text in record.moves] == moves
    colours = [(game.first_player + ply) % 2 for ply in range(len(moves))]
    assert [colour for colour, _ in record.moves] == colours
    assert record.root["PB"] == ["a]b\\c"] and record.root["PW"] == ["x[y]"]
    settings = " ".join(f"{key}={value}" for key, value in game.settings.items())
    assert record.root.get("GC") == ([f"options: {settings}"] if settings else None)
    assert record.nodes[-1]["C"] == ["move_limit: no result [after] 12 plies"]
    assert len(record.nodes) == len(moves) + 1
    assert record.move_lines == list(range(2, len(moves) + 2))  # one node a line


def test_the_main_line_follows_the_first_variation_at_every_fork():
    text = """(;GM[breakthrough]
        ;W[a2-a3]
        (;B[a7-a6]
            (;W[b2-b3];B[b7-b6])
            (;W[c2-c3]))
        (;B[h7-h6];W[h2-h3]))"""
    record = read_sgf(text)
    assert record.moves == [(1, "a2-a3"), (0, "a7-a6"), (1, "b2-b3"), (0, "b7-b6")]
    assert record.move_lines == [2, 3, 4, 4]


def test_escapes_soft_line_breaks_and_white_space():
    text = "(\n ; C[one \\] two \\\\ three \\: four\\\nfive\\\r\nsix] GN [a\nb] ; B [ c3 ] )"
    record = read_sgf(text)
    assert record.root["C"] == ["one ] two \\ three : fourfivesix"]
    assert record.root["GN"] == ["a\nb"]
    assert record.moves == [(0, "c3")]


def test_lower_case_letters_of_old_property_names_are_dropped_and_empty_moves_pass():
    record = read_sgf("(;GaMe[loa]FF[3];B[];W[pass])")
    assert record.root["GM"] == ["loa"]
    assert record.moves == [(0, "pass"), (1, "pass")]


def test_a_collection_holds_one_record_per_game_tree():
    records = read_collection("(;GN[one];B[a])\n\n(;GN[two];W[b](;B[c])(;B[d]))\n")
    assert [record.root["GN"] for record in records] == [["one"], ["two"]]
    assert [record.moves for record in records] == [[(0, "a")], [(1, "b"), (0, "c")]]
    assert [record.line for record in records] == [1, 3]
    assert read_sgf("(;GN[one])(;GN[two])").root["GN"] == ["one"]


@pytest.mark.parametrize("text, line, reason", [
    ("", 1, "no SGF game tree"),
    ("(;B[a]\n;W[b", 2, "never closed"),
    ("(;B[a]\n;W[b]", 2, "found the end of the text"),
    ("(;B[a]W[b])", 1, "both colours"),
    ("(;B[a][b])", 1, "2 values"),
    ("(;B[a]\n;B)", 2, "no value"),
    ("(;GM[1]GM[2])", 1, "twice"),
    ("(B[a])", 1, "must start with a node"),
    ("(;B[a](W[b]))", 1, "must start with a node"),
    ("(;B[a]\n  x)", 2, "no capital letter"),
    ("(;B[a]\n  1)", 2, "expected a property"),
    ("(;B[a])\n garbage", 2, "expected '('"),
])
def test_malformed_records_name_the_line(text, line, reason):
    with pytest.raises(SgfError) as caught:
        read_collection(text)
    assert caught.value.line == line
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"line {line}: ")


def test_deeply_nested_variations_are_a_clear_error_not_a_crash():
    depth = MAX_NESTING + 5
    text = "(;GM[breakthrough]" + "(;C[x]" * depth + ")" * (depth + 1)
    with pytest.raises(SgfError, match=f"variations nested deeper than {MAX_NESTING}"):
        read_sgf(text)


def test_nested_variations_within_the_limit_make_one_main_line():
    depth = 3000  # deeper than Python's recursion limit
    text = "(;GM[breakthrough]" + "".join("(;W[a2-a3]" for _ in range(depth)) + ")" * (depth + 1)
    assert len(read_sgf(text).moves) == depth


def test_a_long_main_line_reads_whole_with_its_lines():
    plies = 80_000
    record = read_sgf("(;GM[breakthrough]\n" + "\n".join(";W[a2-a3]" for _ in range(plies)) + ")")
    assert len(record.moves) == plies
    assert record.move_lines[0] == 2 and record.move_lines[-1] == plies + 1
