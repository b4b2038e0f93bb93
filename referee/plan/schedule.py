"""Planning a run: which engines meet, with which colours, openings and seeds, in which order.

The plan is a pure function of the settings (number of engines, ``--games``, ``--seed``, the
format, pairs and the opening book), so a resumed run numbers, colours and seeds every game as
the first run did, and raising ``--games`` only appends games.

* **Pairings.** A round robin has every two engines meet (in command-line order: 1-2, 1-3, ...,
  2-3, ...); a gauntlet of ``N`` has each of the first ``N`` engines meet every other engine,
  while the others do not meet.
* **Rounds.** Round after round, every pairing plays once. Unpaired, a round is one game per
  pairing and the first engine of a pairing has black in odd-numbered rounds. Paired, a round is
  one *pair* per pairing: two games in a row between the same engines from the same start (the
  same opening and seed), the first engine of the pairing having black in the first. ``--games``
  counts games per pairing, so it must be even with pairs.
* **Openings.** Every pairing plays the same opening in the same round: round ``r`` takes the
  ``r``-th opening of :func:`~referee.plan.openings.order_openings` (the book from
  ``--opening-start`` on, cycling; in book order or in one shuffle drawn from the seed).
* **Seeds.** A game's seed (for a random start such as laoCoon's layout) is drawn from the run's
  seed and the game number; both games of a pair use the seed of the pair's first game.

>>> [(game.game_no, game.black, game.white) for game in plan(3, 2, seed=7)]
[(1, 0, 1), (2, 0, 2), (3, 1, 2), (4, 1, 0), (5, 2, 0), (6, 2, 1)]
>>> [(game.game_no, game.pair, game.black, game.white) for game in plan(3, 2, 7, paired=True)]
[(1, 1, 0, 1), (2, 1, 1, 0), (3, 2, 0, 2), (4, 2, 2, 0), (5, 3, 1, 2), (6, 3, 2, 1)]
>>> pairings(4, gauntlet=1)
[(0, 1), (0, 2), (0, 3)]
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from .openings import order_openings
from .setup import Opening


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the plan: ``black`` and ``white`` are 0-based engine positions, ``pair`` the
    1-based pair it belongs to (``None`` unpaired), ``opening`` the book opening it starts from."""

    game_no: int
    pair: int | None
    black: int
    white: int
    seed: int
    opening: Opening | None = None


def pairings(engines: int, gauntlet: int = 0) -> list[tuple[int, int]]:
    """The pairings of a round robin, or of a gauntlet of the first ``gauntlet`` engines.

    >>> pairings(3)
    [(0, 1), (0, 2), (1, 2)]
    >>> pairings(4, gauntlet=2)
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]
    """
    every = combinations(range(engines), 2)
    return [pairing for pairing in every if not gauntlet or pairing[0] < gauntlet]


def game_seed(seed: int, game_no: int) -> int:
    """The seed of game ``game_no`` of a run seeded with ``seed``."""
    return random.Random(f"{seed}:{game_no}").getrandbits(63)


def plan(engines: int, games: int, seed: int, *, gauntlet: int = 0, paired: bool = False,
         openings: Sequence[Opening] = (), order: str = "sequential",
         start: int = 1) -> list[ScheduledGame]:
    """Every game of a run of ``games`` games per pairing, in order; openings imply pairs."""
    paired = paired or bool(openings)
    if paired and games % 2:
        raise ValueError(f"games are played in pairs, so --games must be even, not {games}")
    if gauntlet and not 0 < gauntlet < engines:
        raise ValueError(f"a gauntlet of {gauntlet} needs more than {gauntlet} engines")
    meetings = pairings(engines, gauntlet)
    rounds = games // 2 if paired else games
    used = order_openings(openings, rounds, order, start, seed) if openings else []
    planned: list[ScheduledGame] = []
    for round_no in range(1, rounds + 1):
        opening = used[round_no - 1] if openings else None
        for first, second in meetings:
            game_no = len(planned) + 1
            if paired:
                pair = (game_no + 1) // 2
                shared = game_seed(seed, game_no)
                planned.append(ScheduledGame(game_no, pair, first, second, shared, opening))
                planned.append(ScheduledGame(game_no + 1, pair, second, first, shared, opening))
            else:
                black, white = (first, second) if round_no % 2 else (second, first)
                planned.append(ScheduledGame(game_no, None, black, white,
                                             game_seed(seed, game_no)))
    return planned


def units(planned: Sequence[ScheduledGame]) -> list[tuple[ScheduledGame, ...]]:
    """The plan cut into units of work: each pair's games together, an unpaired game alone.

    >>> [[game.game_no for game in unit] for unit in units(plan(2, 4, 1, paired=True))]
    [[1, 2], [3, 4]]
    """
    grouped: list[tuple[ScheduledGame, ...]] = []
    for game in planned:
        if grouped and game.pair is not None and grouped[-1][-1].pair == game.pair:
            grouped[-1] += (game,)
        else:
            grouped.append((game,))
    return grouped
