"""Opening books: reading text and SGF books, refusing bad ones with FILE:LINE: reason, the
order a run uses them in, and the generator behind ``olympiad-referee openings``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import find_game, game_names
from referee.plan.book_maker import game_bound, generate_book, search_score
from referee.plan.openings import BookError, book_text, load_book, order_openings, write_book
from referee.plan.setup import Opening, Setup
from referee.records.game_sgf import sgf_text

from ..playouts import random_game

LAYOUT = "pobyyobp" * 8  # 16 discs of each colour


def book(tmp_path: Path, text: str, name: str = "book.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path, setup: Setup, plies: int | None = None) -> str:
    with pytest.raises(BookError) as caught:
        load_book(path, setup, plies)
    message = str(caught.value)
    assert "\n" not in message
    return message


# --- text books ----------------------------------------------------------------------------------

def test_a_text_book_skips_comments_and_blank_lines_and_keeps_canonical_moves(tmp_path):
    path = book(tmp_path, "# made by hand\n\n  A2A3 h7-h6   # the first\n   \t\n"
                          "# another comment\nb2-b3 g7xf6\nc2-c3\n")
    openings = load_book(path, Setup("breakthrough"))
    assert openings == [Opening(1, ("a2-a3", "h7-h6"), {}, f"{path}:3"),
                        Opening(2, ("b2-b3", "g7-f6"), {}, f"{path}:6"),
                        Opening(3, ("c2-c3",), {}, f"{path}:7")]


def test_plies_cut_every_opening_and_keep_shorter_ones_whole(tmp_path):
    path = book(tmp_path, "a2-a3 h7-h6 b2-b3\nc2-c3\n")
    assert [opening.moves for opening in load_book(path, Setup("breakthrough"), plies=2)] == [
        ("a2-a3", "h7-h6"), ("c2-c3",)]
    assert load_book(path, Setup("breakthrough"), plies=0)[0].moves == ()


@pytest.mark.parametrize("text, setup, expected", [
    ("a2-a3\na3-a9\n", Setup("breakthrough"), "book.txt:2: a3-a9: 'a9' is off the board"),
    ("a2-a3 a7-a6\na3-a4\n", Setup("breakthrough"), "book.txt:2: a3-a4: no white piece on a3"),
    ("# nothing\n\n", Setup("breakthrough"), "book.txt: the book has no openings"),
    ("a1xb1\n", Setup("clobber", size=(2, 1)), "book.txt:1: the opening ends the game after 1"),
    ("a2-a3 h7-h6\n", Setup("breakthrough", max_moves=2), "as many as the move limit (2)"),
    ("# game: loa\na2-a3\n", Setup("breakthrough"),
     "book.txt:1: the book is for loa, the run plays breakthrough"),
    ("# size: 8x8\na2-a3\n", Setup("breakthrough", size=(6, 6)),
     "book.txt:1: the book is for size 8x8, the run's is 6x6"),
    ("# options: variant=quick\nb3\n", Setup("laocoon", {"variant": "random"}),
     "book.txt:1: the book is for variant=quick, the run has variant=random"),
    ("variant=quick b3\n", Setup("laocoon"), "book.txt:1: variant=quick: not a start option"),
    ("layout=2 1,-2\n", Setup("cookiedisco", {"layout": "1"}),
     "book.txt:1: layout=2: the run sets layout=1"),
    ("layout=xyz b3\n", Setup("laocoon"), "book.txt:1: bad layout 'xyz'"),
    ("b3 layout=" + LAYOUT + "\n", Setup("laocoon"), "start options come before the moves"),
    ("b3 f6\n", Setup("laocoon", {"variant": "random"}), "book.txt:1: no layout=: laocoon"),
])
def test_a_bad_book_is_refused_with_file_line_and_reason(tmp_path, text, setup, expected):
    path = book(tmp_path, text)
    message = error_of(path, setup)
    assert message.startswith(str(tmp_path) + "/")
    assert expected in message


def test_a_book_for_another_board_size_fails_on_its_first_move_off_the_board(tmp_path):
    path = book(tmp_path, "a2-a3 a7-a6\n")
    assert error_of(path, Setup("breakthrough", size=(6, 6))).endswith(
        "book.txt:1: a7-a6: 'a7' is off the board (files a-f, ranks 1-6)")


def test_start_options_fix_each_openings_start(tmp_path):
    path = book(tmp_path, f"layout={LAYOUT.upper()} b3 a2\nlayout={LAYOUT}\n")
    openings = load_book(path, Setup("laocoon", {"variant": "random"}))
    assert [opening.start_options for opening in openings] == [{"layout": LAYOUT}] * 2
    assert [opening.moves for opening in openings] == [("b3", "a2"), ()]
    cookies = book(tmp_path, "layout=3 1,2 -1,1\nlayout=1 1,-2\n", "cookies.txt")
    openings = load_book(cookies, Setup("cookiedisco"))
    assert [opening.start_options for opening in openings] == [{"layout": "3"}, {}]


# --- SGF -----------------------------------------------------------------------------------------

def played(name: str, options: dict, plies: int, seed: int) -> dict:
    """A results row of a game of random moves, as the referee would write it."""
    game, moves = random_game(name, options, plies, seed)
    return {"game": game.name, "game_no": seed, "black": "a", "white": "b", "result": "0",
            "termination": "move_limit", "reason": "cut", "moves": moves,
            "size": list(game.size) if game.size else None, "options": dict(game.settings),
            "first_player": ("black", "white")[game.first_player]}


def test_sgf_records_give_their_first_plies_and_their_layout(tmp_path):
    rows = [played("laocoon", {"variant": "random"}, 9, seed) for seed in (1, 2)]
    path = book(tmp_path, "".join(sgf_text(row) for row in rows), "games.sgf")
    openings = load_book(path, Setup("laocoon", {"variant": "random"}), plies=6)
    assert [opening.moves for opening in openings] == [tuple(row["moves"][:6]) for row in rows]
    assert [opening.start_options for opening in openings] == [
        {"layout": row["options"]["layout"]} for row in rows]
    second = 2 + len(rows[0]["moves"])  # a root line, one line a move
    assert [opening.source for opening in openings] == [f"{path}:1", f"{path}:{second}"]


def test_a_folder_of_sgf_files_is_read_in_name_order(tmp_path):
    for seed in (3, 1, 2):
        book(tmp_path, sgf_text(played("loa", {}, 8, seed)), f"game-{seed}.sgf")
    book(tmp_path, "not a record", "notes.txt")
    openings = load_book(tmp_path, Setup("loa"), plies=4)
    assert [opening.moves for opening in openings] == [
        tuple(played("loa", {}, 8, seed)["moves"][:4]) for seed in (1, 2, 3)]
    assert [opening.number for opening in openings] == [1, 2, 3]
    assert error_of(tmp_path / "empty", Setup("loa")).endswith("cannot read the book: "
                                                                "No such file or directory")
    (tmp_path / "empty").mkdir()
    assert error_of(tmp_path / "empty", Setup("loa")).endswith("a folder without .sgf files")


@pytest.mark.parametrize("record, setup, expected", [
    ("(;GM[9];B[b1-b3]\n;W[h7-h9])", Setup("loa"), "games.sgf:2: h7-h9: 'h9' is off the board"),
    ("(;GM[9];B[b1-b3]\n;B[c1-c3])", Setup("loa"),
     "games.sgf:2: c1-c3: the record gives it to black, but white is to move"),
    ("(;GM[breakthrough]SZ[8];W[a2-a3])", Setup("loa"),
     "games.sgf:1: GM[breakthrough]: the record is not of loa"),
    ("(;GM[breakthrough]SZ[8];W[a2-a3])", Setup("breakthrough", size=(8, 6)),
     "games.sgf:1: SZ[8]: the record is for size 8x8, the run's is 8x6"),
    ("(;GM[laocoon]GC[options: variant=quick];W[b3])", Setup("laocoon"),
     "games.sgf:1: the book is for variant=quick, the run has variant=standard"),
    ("(;GM[9]AB[b2];B[b1-b3])", Setup("loa"), "setup properties are not supported"),
    ("(;GM[9]\n;B[b1-b3]", Setup("loa"), "games.sgf:2: expected a property"),
])
def test_a_bad_sgf_record_is_refused_with_file_line_and_reason(tmp_path, record, setup,
                                                               expected):
    path = book(tmp_path, record, "games.sgf")
    assert expected in error_of(path, setup, plies=4)


# --- order ---------------------------------------------------------------------------------------

def numbers(openings: list[Opening]) -> list[int]:
    return [opening.number for opening in openings]


TEN = [Opening(number, (f"m{number}",)) for number in range(1, 11)]


def test_sequential_order_starts_at_k_and_wraps_round():
    assert numbers(order_openings(TEN, 4)) == [1, 2, 3, 4]
    assert numbers(order_openings(TEN, 13, start=9)) == [9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1]


def test_random_order_is_a_seeded_shuffle_using_every_opening_before_repeating_one():
    first = numbers(order_openings(TEN, 20, "random", seed=7))
    assert sorted(first[:10]) == list(range(1, 11)) and first[10:] == first[:10]
    assert first == numbers(order_openings(TEN, 20, "random", seed=7))
    assert first != numbers(order_openings(TEN, 20, "random", seed=8))
    assert first[:10] != list(range(1, 11))
    assert numbers(order_openings(TEN, 3, "random", start=4, seed=7)) == first[3:6]


@pytest.mark.parametrize("arguments, reason", [
    ({"order": "shuffled"}, "unknown opening order"),
    ({"start": 11}, "outside the book's 1-10"),
    ({"start": 0}, "outside the book's 1-10"),
])
def test_bad_orders_are_refused(arguments, reason):
    with pytest.raises(ValueError, match=reason):
        order_openings(TEN, 5, **arguments)


# --- the generator -------------------------------------------------------------------------------

SETUPS = [Setup(name) for name in game_names()] + [
    Setup("laocoon", {"variant": "random"}), Setup("laocoon", {"variant": "quick"}),
    Setup("breakthrough", size=(6, 7)), Setup("cookiedisco", {"layout": "4"})]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda setup: f"{setup.game}{dict(setup.options)}")
def test_generated_openings_are_distinct_legal_undecided_and_read_back(tmp_path, setup):
    made = generate_book(setup, plies=4, count=3, seed=11)
    game = setup.make_game()
    assert [opening.number for opening in made] == [1, 2, 3]
    positions = set()
    for opening in made:
        position = setup.make_game(opening.start_options).position_after(list(opening.moves))
        assert len(opening.moves) == 4 and position.outcome is None
        assert abs(search_score(position, 2)) <= game_bound(game).score
        positions.add((tuple(opening.start_options.items()), position.key()))
    assert len(positions) == 3
    assert bool(made[0].start_options) == (setup.options.get("variant") in ("random", "quick"))
    per_opening = sorted({key for opening in made for key in opening.start_options})
    path = tmp_path / "book.txt"
    write_book(path, book_text(made, game, ["made by a test"], per_opening))
    assert [(o.moves, o.start_options) for o in load_book(path, setup)] == [
        (o.moves, o.start_options) for o in made]


def test_the_same_seed_gives_the_same_book_and_another_seed_another():
    setup = Setup("cookiedisco")
    assert generate_book(setup, 6, 4, seed=5) == generate_book(setup, 6, 4, seed=5)
    assert generate_book(setup, 6, 4, seed=5) != generate_book(setup, 6, 4, seed=6)


def test_the_bound_drops_openings_the_search_scores_beyond_it():
    with pytest.raises(BookError, match="found only 0 distinct undecided openings"):
        generate_book(Setup("loa"), 3, 2, seed=1, bound=-1, tries=20)
    made = generate_book(Setup("cookiedisco"), 4, 3, seed=1, bound=0, depth=1)
    game = find_game("cookiedisco")()
    assert all(search_score(game.position_after(list(o.moves)), 1) == 0 for o in made)


def test_too_few_distinct_openings_is_an_error():
    # Breakthrough's white has 22 first moves.
    assert len(generate_book(Setup("breakthrough"), 1, 22, seed=1)) == 22
    with pytest.raises(BookError, match="found only 22 distinct undecided openings of 1 plies"):
        generate_book(Setup("breakthrough"), 1, 23, seed=1)


def test_a_game_that_gives_no_clear_advantage_needs_an_explicit_bound():
    plain = type("PlainClobber", (find_game("clobber"),), {"clear_advantage": None})
    with pytest.raises(BookError, match="clobber gives no clear_advantage on its game class"):
        game_bound(plain())
    assert game_bound(find_game("clobber")()).score == 15


# --- the command ---------------------------------------------------------------------------------

def referee(*arguments: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *arguments], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_the_openings_command_writes_a_book_a_run_can_use(tmp_path):
    done = referee("openings", "--game", "tor", "--option", "variant=random", "--plies", "5",
                   "--count", "4", "--out", "book.txt", "--seed", "9", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "book.txt").read_text()
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert header[0] == ("# olympiad-referee openings --game laocoon --option variant=random "
                         "--plies 5 --count 4 --seed 9 --depth 2")
    assert "within 200 of level" in header[1]
    assert header[2:] == ["# game: laocoon", "# size: 8x8", "# options: variant=random"]
    openings = load_book(tmp_path / "book.txt", Setup("laocoon", {"variant": "random"}))
    assert [len(opening.moves) for opening in openings] == [5] * 4
    assert referee("openings", "--game", "tor", "--option", "variant=random", "--plies", "5",
                   "--count", "4", "--out", "again.txt", "--seed", "9",
                   cwd=tmp_path).returncode == 0
    assert (tmp_path / "again.txt").read_text() == text


@pytest.mark.parametrize("arguments, reason", [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--game", "loa", "--boardsize", "9"], "loa is played on a fixed board"),
    (["--game", "breakthrough", "--plies", "1", "--count", "30"], "found only 22"),
])
def test_openings_usage_errors_are_one_line_with_status_2(tmp_path, arguments, reason):
    base = {"--plies": "2", "--count": "2", "--out": "book.txt"}
    words = list(arguments)
    for flag, value in base.items():
        if flag not in words:
            words += [flag, value]
    done = referee("openings", *words, cwd=tmp_path)
    assert done.returncode == 2
    assert reason in done.stderr and done.stderr.count("\n") == 1
    assert not (tmp_path / "book.txt").exists()
