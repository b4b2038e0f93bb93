"""Plays at being a ladder server that records games without end, for the test that kills it:
``ladder_writer.py DATABASE`` starts and finishes games in a loop between the accounts
``black`` and ``white`` of the database's first pool, printing ``started N`` when game ``N``
is in progress and ``finished N`` once ``finish_game`` returned."""

from __future__ import annotations

import sys

from engine import Outcome, Termination
from referee.records.database import Ending, Engine, LadderDatabase, Rating, Seating, now


def main(path: str) -> None:
    records = LadderDatabase(path)
    pool = records.pools()[0]
    black, white = records.account_by_name("black"), records.account_by_name("white")
    seating = Seating(pool.id, black.id, white.id, Engine("a", "1"), Engine("b", "1"), now())
    plies = 60
    while True:
        game = records.start_game(seating)
        print("started", game, flush=True)
        ending = Ending(("a1-b2",) * plies, (0.25,) * plies, (0.01,) * plies,
                        Outcome(game % 2, Termination.NORMAL, "no moves left"), now())
        records.finish_game(game, ending, [Rating(black.id, 1500.0 + game, 80.0, 0.06),
                                           Rating(white.id, 1500.0 - game, 80.0, 0.06)])
        print("finished", game, flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
