"""Books for games that have none: random openings that a short search does not call decided.

An opening is ``plies`` uniformly random legal moves from the start (for laoCoon's random and
quick variants, from a layout drawn for that opening). It is kept when

* the game is not over after it, and its position (with its layout) is not one the book
  already holds: openings are distinct positions, not merely distinct move orders;
* the project's own alpha-beta (:class:`engine.search.AlphaBeta`, quiescence included), searching
  ``depth`` plies (default :data:`DEPTH`) from it, scores it within ``bound`` of level for the
  side to move, and has not found a forced win for either side (a proven result is always
  beyond the bound).

The bound is in the units of the game's evaluation, so each game gives its own on its game
class (``clear_advantage``, an :class:`~engine.core.Advantage`), set at what its evaluation
reads as a clear advantage: about a piece in the material games, and a comparable step of each
game's main term elsewhere. Each is well above the scores the engine gives the positions of its
own play at this depth in the first dozen plies (laoCoon's evaluation swings most: up to about
150 after the placements, hence 200). A game that gives none needs an explicit bound.

Everything is drawn from one ``random.Random(seed)`` and the search is deterministic, so a seed
gives the same book every time.
"""

from __future__ import annotations

import random

from engine import Game, Position
from engine.core import Advantage
from engine.search import AlphaBeta, Budget

from .openings import BookError
from .setup import Opening, Setup

DEPTH = 2


def game_bound(game: Game) -> Advantage:
    """The bound ``game`` gives on its class (its ``clear_advantage``); a :class:`BookError`
    when it gives none."""
    if game.clear_advantage is None:
        raise BookError(f"{game.name} gives no clear_advantage on its game class to bound the "
                        f"openings' scores by: give a bound (--bound N)")
    return game.clear_advantage


def search_score(position: Position, depth: int) -> int:
    """The alpha-beta score of ``position`` for its side to move, searching ``depth`` plies;
    a fresh search each time, so that a score does not depend on what was searched before."""
    searcher = AlphaBeta(0)
    searcher.choose(position, Budget(depth=depth))
    return searcher.score


def generate_book(setup: Setup, plies: int, count: int, seed: int, depth: int = DEPTH,
                  bound: int | None = None, tries: int | None = None) -> list[Opening]:
    """``count`` distinct openings of ``plies`` random moves each that the search scores within
    ``bound`` (default :func:`game_bound`), numbered 1..count in the order found.

    Gives up after ``tries`` random openings (default ``max(1000, 50 * count)``, duplicates
    and decided ones included) with a :class:`BookError` saying how many were found.
    """
    run_game = setup.make_game()
    limit = game_bound(run_game).score if bound is None else bound
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
