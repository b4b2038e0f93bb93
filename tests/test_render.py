"""``olympiad-referee render``: the picture it writes is the drawing layer's picture of the
position the rules code reaches, from ``--moves`` or from an SGF record, as SVG or as a PNG
drawn by the headless Chromium (the report tests' browser); a file never holds another format
than its name says, and bad usage is one line with status 2."""

from __future__ import annotations

import os
import random
import struct
import subprocess
import sys
import zlib

import pytest

from engine import find_game
from engine.drawing import svg
from referee.report.png import PNG_MAGIC, find_browser, picture_size


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", "render", *args],
                          capture_output=True, text=True, timeout=90, env=env)


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


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """A PNG file's chunks as (type, data), after its signature."""
    chunks, offset = [], len(PNG_MAGIC)
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        chunks.append((kind, data[offset + 8:offset + 8 + length]))
        offset += 12 + length
    return chunks


@pytest.mark.skipif(find_browser() is None, reason="no Chromium installed (Debian: chromium)")
def test_png_is_a_png_of_the_pictures_size_with_a_drawing_in_it(tmp_path):
    moves = ["b1-b3", "a2-c2"]
    out = tmp_path / "loa.PNG"
    done = run("--game", "loa", "--moves", " ".join(moves), "--out", str(out))
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data.startswith(PNG_MAGIC)
    chunks = png_chunks(data)
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height = struct.unpack(">II", chunks[0][1][:8])
    game = find_game("loa")()
    assert (width, height) == picture_size(svg(game.position_after(moves), moves[-1],
                                               with_caption=True))
    pixels = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    assert len(set(pixels)) > 16  # a board with pieces, not a blank page


def test_another_extension_is_refused_before_anything_is_written(tmp_path):
    for name in ("board.jpg", "board", "board.svg.txt"):
        done = run("--game", "loa", "--out", str(tmp_path / name))
        assert done.returncode == 2
        assert "write .svg or .png" in done.stderr and done.stderr.count("\n") == 1
        assert not (tmp_path / name).exists()


def test_png_without_a_chromium_is_refused_in_one_line(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    done = run("--game", "loa", "--out", str(tmp_path / "board.png"),
               env={**os.environ, "PATH": str(empty)})
    assert done.returncode == 2
    assert "none is installed" in done.stderr and "write .svg" in done.stderr
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "board.png").exists()
