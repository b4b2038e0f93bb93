#!/usr/bin/env python3
"""The README's pictures: a mid-game position of every game, as SVG under docs/pictures/.

    python scripts/draw_pictures.py                 # all ten games
    python scripts/draw_pictures.py kolem argon     # some of them

Each game starts with a few seeded random moves (so the pictures are not all the engine's
favourite opening) and goes on with the engine's own alpha-beta search at a fixed depth, which
is reproducible, up to a ply where the game is in full swing. The picture is
:func:`engine.drawing.svg`'s with its caption, the last move marked. For every picture the
script prints the ``olympiad-referee render`` command that draws the same position from its
moves.
"""

from __future__ import annotations

import pathlib
import random
import shlex
import sys

import click

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import find_game, game_names  # noqa: E402
from engine.drawing import svg  # noqa: E402
from engine.search.player import Player  # noqa: E402

OUT = ROOT / "docs" / "pictures"
RANDOM_PLIES = 4
DEPTH = 2
# Per game: the ply to draw (mid-game: pieces exchanged, hands or phases still visible) and
# the seed of the random start (one whose game lasts that long); the board size when it is
# not the default.
PICTURES = {"loa": (26, 1), "breakthrough": (24, 1), "knightthrough": (18, 1),
            "clobber": (30, 1), "domineering": (16, 1), "surakarta": (36, 1), "kolem": (13, 1),
            "argon": (21, 1), "laocoon": (17, 1), "cookiedisco": (14, 2)}
SIZES = {"clobber": (8, 8)}


def play(name: str, plies: int, seed: int) -> list[str]:
    """The moves of a game: ``RANDOM_PLIES`` seeded random ones, then the engine's; stopped
    two plies before the end if the game ends before ``plies``."""
    game = find_game(name)(size=SIZES.get(name))
    position, rng = game.initial_position(), random.Random(seed)
    player = Player(depth=DEPTH, seed=seed)
    texts = []
    while position.outcome is None and position.ply < plies:
        move = (rng.choice(position.legal_moves()) if position.ply < RANDOM_PLIES
                else player.choose(position))
        texts.append(position.move_text(move))
        position.play(move)
    if position.outcome is not None and len(texts) > 2:
        texts = texts[:-2]
    return texts


@click.command()
@click.argument("games", nargs=-1)
def main(games: tuple[str, ...]) -> None:
    """Draw the chosen GAMES (default: all) to docs/pictures/GAME.svg."""
    OUT.mkdir(parents=True, exist_ok=True)
    for name in games or game_names():
        name = find_game(name).name
        moves = play(name, *PICTURES[name])
        game = find_game(name)(size=SIZES.get(name))
        position = game.position_after(moves)
        path = OUT / f"{name}.svg"
        path.write_text(svg(position, moves[-1] if moves else None, with_caption=True))
        size = SIZES.get(name)
        words = ["olympiad-referee", "render", "--game", name]
        words += ["--boardsize", f"{size[0]}x{size[1]}"] if size else []
        words += ["--moves", " ".join(moves), "--out", str(path.relative_to(ROOT))]
        click.echo(shlex.join(words))


if __name__ == "__main__":
    main()
