"""``olympiad-referee render``: the picture it writes is the drawing layer's picture of the
position the rules code reaches, from ``--moves`` or from an SGF record, and bad usage is one
line with status 2."""

from __future__ import annotations

import random
import subprocess
import sys

from engine import find_game
from engine.drawing import svg


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", "render", *args],
                          capture_output=True, text=True, timeout=60)


def random_moves(game, plies: int, seed: int) -> list[str]:
    position, rng, texts = game.initial_position(), random.Random(seed), []
    while position.outcome is None and len(texts) < plies:
        move = rng.choice(position.legal_moves())
        texts.append(position.move_text(move))
        position.play(move)
    return texts


def sgf(game_field: str, root: str, moves: list[str], first: int) -> str:
    nodes = "".join(f";{'BW'[(first + ply) % 2]}[{move}]" for ply, move in enumerate(moves))
    return f"(;FF[4]GM[{game_field}]{root}{nodes})\n"


def test_from_moves_on_a_sized_board(tmp_path):
    game = find_game("argon")(size=(7, 7))
    moves = random_moves(game, 24, seed=5)
    out = tmp_path / "argon.svg"
    done = run("--game", "argon", "--boardsize", "7", "--moves", " ".join(moves),
               "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text() == svg(game.position_after(moves), moves[-1], with_caption=True)


def test_from_an_sgf_record_at_a_ply_with_the_options_of_its_root(tmp_path):
    game = find_game("laocoon")({"variant": "random", "layout": "bpoy" * 16})
    moves = random_moves(game, 30, seed=2)
    record = tmp_path / "game.sgf"
    record.write_text(sgf("laocoon", "SZ[8]GC[options: variant=random layout=" + "bpoy" * 16 + "]",
                          moves, first=1))
    out = tmp_path / "ply.svg"
    done = run(str(record), "--ply", "17", "--out", str(out), "--no-caption")
    assert done.returncode == 0, done.stderr
    assert out.read_text() == svg(game.position_after(moves[:17]), moves[16])


def test_loa_record_to_its_last_position_flipped(tmp_path):
    game = find_game("loa")()
    moves = random_moves(game, 12, seed=9)
    record = tmp_path / "loa.sgf"
    record.write_text(sgf("9", "SZ[8]", moves, first=0))
    out = tmp_path / "loa.svg"
    done = run(str(record), "--flip", "--out", str(out), "--no-caption")
    assert done.returncode == 0, done.stderr
    assert out.read_text() == svg(game.position_after(moves), moves[-1], flipped=True)


def test_bad_usage_is_one_line_with_status_2(tmp_path):
    record = tmp_path / "bad.sgf"
    record.write_text(sgf("breakthrough", "SZ[8]", ["a2-a3", "a7-a6", "a3-a5"], first=1))
    out = str(tmp_path / "x.svg")
    for args, words in [((str(record), "--ply", "9"), "has 3 moves"),
                        ((str(record),), "move 3 (a3-a5)"),
                        ((str(record), "--game", "loa"), "either an SGF record or --game"),
                        (("--game", "clobber", "--moves", "a1xa2 zz"), "move 2 (zz)")]:
        done = run(*args, "--out", out)
        assert done.returncode == 2, args
        assert words in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "x.svg").exists()
