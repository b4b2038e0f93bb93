"""Books for games that have none: random openings that a short search does not call decided.

An opening is ``plies`` uniformly random legal moves from the start (for laoCoon's random and
quick variants, from a layout drawn for that opening). It is kept when

* the game is not over after it, and its position (with its layout) is not one the book
  already holds: openings are distinct positions, not merely distinct move orders;
* the project's own alpha-beta (:class:`engine.search.AlphaBeta`, quiescence included), searching
  ``depth`` plies (default :data:`DEPTH`) from it, scores it within ``bound`` of level for the
  side to move, and has not found a forced win for either side (a proven result is always
  beyond the bound).

The bound is in the units of the game's evaluation, so each game has its own
(:data:`BOUNDS`), set at what its evaluation reads as a clear advantage: about a piece in the
material games, and a comparable step of each game's main term elsewhere. Each is well above
the scores the engine gives the positions of its own play at this depth in the first dozen
plies (laoCoon's evaluation swings most: up to about 150 after the placements, hence 200).

Everything is drawn from one ``random.Random(seed)`` and the search is deterministic, so a seed
gives the same book every time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import Position
from engine.search import AlphaBeta, Budget

from .openings import BookError
from .setup import Opening, Setup

DEPTH = 2


@dataclass(frozen=True)
class Bound:
    """How far from level a kept opening may score, in the game's evaluation units, and what
    that amount means in the evaluation's terms (for the book's header and the docs)."""

    score: int
    meaning: str


BOUNDS = {
    "loa": Bound(120, "two extra groups (60 each)"),
    "breakthrough": Bound(100, "one piece (100)"),
    "knightthrough": Bound(100, "one piece (100)"),
    "clobber": Bound(15, "five more stones in play (3 each)"),
    "domineering": Bound(15, "fifteen more moves, or five safe moves (3 each)"),
    "surakarta": Bound(100, "one piece (100)"),
    "kolem": Bound(100, "one piece (100)"),
    "argon": Bound(80, "two fewer groups (40 each)"),
    "laocoon": Bound(200, "two rings without room (80 each) and four steps (10 each)"),
    "cookiedisco": Bound(50, "any firmer hold short of a winning split in hand (10000)"),
}
DEFAULT_BOUND = Bound(100, "100 evaluation units")


def bound_for(game: str) -> Bound:
    """The documented bound of ``game`` (a registered name)."""
    return BOUNDS.get(game, DEFAULT_BOUND)


def search_score(position: Position, depth: int) -> int:
    """The alpha-beta score of ``position`` for its side to move, searching ``depth`` plies;
    a fresh search each time, so that a score does not depend on what was searched before."""
    searcher = AlphaBeta(0)
    searcher.choose(position, Budget(depth=depth))
    return searcher.score


def generate_book(setup: Setup, plies: int, count: int, seed: int, depth: int = DEPTH,
                  bound: int | None = None, tries: int | None = None) -> list[Opening]:
    """``count`` distinct openings of ``plies`` random moves each that the search scores within
    ``bound`` (default :func:`bound_for` the game), numbered 1..count in the order found.

    Gives up after ``tries`` random openings (default ``max(1000, 50 * count)``, duplicates
    and decided ones included) with a :class:`BookError` saying how many were found.
    """
    run_game = setup.make_game()
    limit = bound_for(run_game.name).score if bound is None else bound
    if plies >= setup.max_moves:
        raise BookError(f"{plies} plies reach the move limit ({setup.max_moves})")
    run_keys = {key.lower() for key in setup.options}
    rng = random.Random(seed)
    seen: set = set()
    book: list[Opening] = []
    tries = max(1000, 50 * count) if tries is None else tries
    for _ in range(tries):
        if len(book) == count:
            break
        start = {key: value for key, value in run_game.draw_start(rng).items()
                 if key not in run_keys}
        position = (setup.make_game(start) if start else run_game).initial_position()
        moves = []
        while len(moves) < plies and position.outcome is None:
            move = rng.choice(position.legal_moves())
            moves.append(position.move_text(move))
            position.play(move)
        if position.outcome is not None:
            continue
        key = (tuple(sorted(start.items())), position.key())
        if key in seen:
            continue
        seen.add(key)
        if abs(search_score(position, depth)) <= limit:
            book.append(Opening(len(book) + 1, tuple(moves), start))
    if len(book) < count:
        raise BookError(f"found only {len(book)} distinct undecided openings of {plies} plies "
                        f"in {tries} tries, not {count}: ask for fewer, or more plies")
    return book
