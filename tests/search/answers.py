"""The engine's answers that must not depend on the interpreter, printed as one JSON document.

    python tests/search/answers.py      # or: pypy3 tests/search/answers.py

Run by tests/search/test_interpreters.py under CPython and PyPy, which compares the two
outputs. Standard library only, so that PyPy needs nothing installed. Per game, from positions
reached by a seeded random walk: perft counts at depth 2, the move of a fixed-depth alpha-beta
search and of a fixed-playout MCTS (both seeded), and the exact endgame solver's verdict where
the game has one (late Clobber and Domineering positions).
"""

from __future__ import annotations

import json
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from engine import find_game, game_names  # noqa: E402
from engine.perft import perft  # noqa: E402
from engine.search import Player  # noqa: E402

# Plies of random play before each probed position: the start, the opening, the middle game.
WALKS = (0, 12, 30)
# How deep and how many playouts: enough to exercise every part of both searches, small enough
# that all games take a few seconds under either interpreter.
DEPTH = 2
PLAYOUTS = 60
# Late positions for the endgame solvers, as (plies, seed) of a random walk: small enough to
# solve, some won and some lost for the side to move.
SOLVER_WALKS = {"clobber": ((56, 0), (56, 1), (56, 2), (56, 5)),
                "domineering": ((22, 0), (22, 1), (22, 4), (22, 5))}


def walked(name: str, plies: int, seed: int):
    """The position after ``plies`` seeded random moves (fewer if the game ends first)."""
    rng = random.Random(seed)
    position = find_game(name)().initial_position()
    while position.ply < plies and position.outcome is None:
        position.play(rng.choice(position.legal_moves()))
    return position


def probe(name: str) -> dict:
    """Everything checked for one game."""
    answers = {"perft": [], "alphabeta": [], "mcts": [], "solve": []}
    for plies in WALKS:
        position = walked(name, plies, seed=plies)
        if position.outcome is not None:
            continue
        answers["perft"].append(perft(position, 2))
        for kind, player in (("alphabeta", Player(depth=DEPTH, seed=7)),
                             ("mcts", Player(playouts=PLAYOUTS, seed=7))):
            answers[kind].append(position.move_text(player.choose(position)))
    for plies, seed in SOLVER_WALKS.get(name, ()):
        position = walked(name, plies, seed)
        answers["solve"].append(position.solve())
    return answers


def main() -> None:
    json.dump({name: probe(name) for name in game_names()}, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
