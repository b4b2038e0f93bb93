"""A ladder: no schedule, but games made as entrants become free, as on CGOS.

Whenever two entrants are ready and idle they are paired. An event's ladder
(:func:`ladder_pairings`) pairs the one with the fewest games first, with the idle partner it
has met least. The ladder service's pools, where entrants come and go for months and carry a
rating, pair by closeness of rating with some randomness (:func:`rated_pairings`), so that
everyone meets opponents of their strength and, now and then, others. Either way never the same
opponent twice in a row while someone else is present but busy, and black to the one who had it
less. A :class:`Ladder` keeps the counts the pairing goes by, from the games already played and
as each new one is made, and numbers the games it makes after the last one it was given.

Two deterministic engines would play the very same game each time they meet. A rated pool's
games therefore start as :class:`LadderStarts` says: a pair's first meeting takes the next
opening of the pool's book (every opening once before any again) and a seed of its own (a
random start such as laoCoon's layout is drawn from it); the pair's next meeting replays that
start with colours swapped, as a match's pairs do. The return games owed outlive a restart:
:func:`owed_returns` finds them again among the games played.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Hashable, Iterable, Mapping, Sequence

from .openings import order_openings
from .schedule import ScheduledGame, game_seed
from .setup import Opening

# How far (rating points) the random part of rated pairing may move an entrant: a standard
# deviation of a Gaussian added to each rating before sorting, so that entrants a class apart
# meet now and then (CGOS pairs at random, weighted towards close ratings).
PAIRING_SPREAD = 100.0


def ladder_pairings(idle: Sequence[int], met: Counter, played: Counter, blacks: Counter,
                    rng: random.Random, avoid: frozenset = frozenset()) -> list[tuple[int, int]]:
    """Pair the ``idle`` entrants of a ladder, as (black, white): the one with the fewest
    games first, with the idle partner it has met least (then the one with the fewest games);
    the one who had black less often takes black. ``met`` counts games by
    ``frozenset({a, b})``; a pair in ``avoid`` is not made (one left without a partner waits);
    ties are broken by ``rng``.

    >>> ladder_pairings([0, 1, 2, 3], Counter({frozenset({0, 1}): 2}), Counter({0: 2, 1: 2}),
    ...                 Counter({0: 1, 1: 1}), random.Random(1))  # 2 and 3 have not played
    [(3, 2), (0, 1)]
    >>> ladder_pairings([0, 1], Counter(), Counter(), Counter(), random.Random(1),
    ...                 avoid=frozenset({frozenset({0, 1})}))
    []
    """
    waiting = list(idle)
    rng.shuffle(waiting)
    waiting.sort(key=lambda who: played[who])
    pairs = []
    while len(waiting) >= 2:
        first = waiting.pop(0)
        partners = [who for who in waiting if frozenset({first, who}) not in avoid]
        if not partners:
            continue
        partner = min(partners, key=lambda who: (met[frozenset({first, who})], played[who]))
        waiting.remove(partner)
        black, white = sorted((first, partner), key=lambda who: blacks[who])
        pairs.append((black, white))
    return pairs


def rated_pairings(idle: Sequence[int], rating: Callable[[int], float], blacks: Counter,
                   rng: random.Random, avoid: frozenset = frozenset(),
                   spread: float = PAIRING_SPREAD) -> list[tuple[int, int]]:
    """Pair the ``idle`` entrants of a rated pool, as (black, white): each takes its neighbour
    in the order of rating plus a Gaussian of ``spread`` (so that close ratings meet most often,
    and not always the same ones); a pair in ``avoid`` is not made (the next neighbour is
    tried); the one who had black less often takes black.

    >>> rating = {0: 2000, 1: 1500, 2: 1990, 3: 1510}.get
    >>> rated_pairings([0, 1, 2, 3], rating, Counter({0: 1, 1: 1}), random.Random(1), spread=0)
    [(3, 1), (2, 0)]
    >>> rated_pairings([0, 1, 2, 3], rating, Counter(), random.Random(1),
    ...                avoid=frozenset({frozenset({0, 2})}), spread=0)  # 0 and 2 just met
    [(1, 3)]
    """
    order = sorted(idle, key=lambda who: rating(who) + (rng.gauss(0.0, spread) if spread else 0))
    pairs = []
    while len(order) >= 2:
        first = order.pop(0)
        partner = next((who for who in order if frozenset({first, who}) not in avoid), None)
        if partner is None:
            continue
        order.remove(partner)
        black, white = sorted((first, partner), key=lambda who: blacks[who])
        pairs.append((black, white))
    return pairs


@dataclass(frozen=True)
class FirstMeeting:
    """A pair's first meeting, whose return game is owed: who had black in it (as
    :class:`LadderStarts` knows an entrant), its opening and its seed."""

    black: Hashable
    opening: Opening | None
    seed: int


def owed_returns(latest: Iterable[tuple[int, int, int, int | None, int | None]],
                 book: Sequence[Opening]) -> dict[frozenset[int], FirstMeeting]:
    """The return games owed, by pair, given (black, white, game number, opening number, seed)
    for the latest finished game of each entrant at black with each at white.

    A pair owes a return game when its latest finished game was a first meeting. A first
    meeting's seed is its own, and its return game, the pair's next finished game, reuses it
    with colours swapped: so the pair's latest game is a return game exactly when the latest
    with colours the other way round has the same seed. The return game is then the pair's
    next meeting, however long after. A game without a seed (recorded before seeds were), or
    whose opening is no longer in ``book``, owes none.

    >>> book = [Opening(1, ("a2-a3",)), Opening(2, ("b2-b3",))]
    >>> first, back, again = (7, 8, 10, 1, 111), (8, 7, 11, 1, 111), (7, 8, 12, 2, 222)
    >>> owed = owed_returns([first], book)[frozenset({7, 8})]
    >>> owed.black, owed.opening.number, owed.seed
    (7, 1, 111)
    >>> owed_returns([first, back], book), owed_returns([back, again], book)[frozenset({7, 8})].seed
    ({}, 222)
    """
    by_number = {opening.number: opening for opening in book}
    by_colours = {(game[0], game[1]): game for game in latest}
    owed = {}
    for (black, white), game in by_colours.items():
        other = by_colours.get((white, black))
        if other is not None and other[2] > game[2]:
            continue  # the pair's latest game is the other way round
        _, _, _, number, seed = game
        returned = other is not None and other[4] == seed
        opening = None if number is None else by_number.get(number)
        if seed is None or returned or (number is not None and opening is None) or \
                black == white:  # (a pair merged into one account)
            continue
        owed[frozenset({black, white})] = FirstMeeting(black, opening, seed)
    return owed


class LadderStarts:
    """Where a ladder's games start from: a pair of entrants' first meeting takes the next
    opening of ``book`` (shuffled once with ``seed`` and read round and round, so that every
    opening is used once before any is used again; none without a book) and its own seed; the
    pair's next meeting, whenever the pairing makes it, is the return game: the same opening
    and seed (so the same random start) with colours swapped. The meeting after takes a new
    opening, and so on.

    ``identity`` gives what an entrant is known by across runs (its account; by default its
    index), by which :meth:`owe` is told the return games owed from before (:func:`owed_returns`).

    >>> starts = LadderStarts([Opening(1, ("a2-a3",)), Opening(2, ("b2-b3",))], seed=1)
    >>> first = starts.game(1, 0, 1, seed=11)
    >>> again = starts.game(2, 0, 1, seed=22)  # the pairing gave 0 black again: swapped
    >>> again.black, again.white, again.opening == first.opening, again.seed
    (1, 0, True, 11)
    >>> starts.game(3, 1, 0, seed=33).opening == first.opening  # the other opening now
    False
    """

    def __init__(self, book: Sequence[Opening], seed: int,
                 identity: Callable[[int], Hashable] = lambda index: index) -> None:
        shuffled = order_openings(book, len(book), "random", seed=seed) if book else []
        self._openings = itertools.cycle(shuffled)
        self._identity = identity
        self._returns: dict[frozenset, FirstMeeting] = {}  # by pair of identities

    def owe(self, owed: Mapping[frozenset, FirstMeeting]) -> None:
        """Owe the return games of ``owed``'s first meetings, by pair of identities (those of
        the games played before this run, before it pairs anyone)."""
        self._returns.update(owed)

    def game(self, number: int, black: int, white: int, seed: int) -> ScheduledGame:
        """Game ``number``, which the pairing made between ``black`` and ``white`` with
        ``seed``: the return game of their last meeting if that was a first one, else a first
        game with the next opening."""
        pair = frozenset({self._identity(black), self._identity(white)})
        first = self._returns.pop(pair, None)
        if first is not None:
            if self._identity(black) == first.black:
                black, white = white, black
            return ScheduledGame(number, None, black, white, first.seed, first.opening)
        opening = next(self._openings, None)
        self._returns[pair] = FirstMeeting(self._identity(black), opening, seed)
        return ScheduledGame(number, None, black, white, seed, opening)


class Ladder:
    """The pairing state of a ladder seeded by ``seed``, up to ``limit`` games (0: no limit),
    given the (black, white) entrant indexes of the games already played, the last of them
    numbered ``last_game``; with ``rating`` (an entrant's rating now), a rated pool's pairing;
    with ``starts``, the games' openings, seeds and colours paired as it says."""

    def __init__(self, seed: int, limit: int, played: Iterable[tuple[int, int]],
                 last_game: int, rating: Callable[[int], float] | None = None,
                 starts: LadderStarts | None = None) -> None:
        self.seed = seed
        self.limit = limit
        self.rating = rating
        self.starts = starts
        self.met: Counter = Counter()
        self.played: Counter = Counter()
        self.blacks: Counter = Counter()
        self.last: dict[int, frozenset] = {}
        self._next_game = last_game + 1
        for black, white in played:
            self.count(black, white)

    def count(self, black: int, white: int) -> None:
        """A game between ``black`` and ``white`` was played (written)."""
        self.met[frozenset({black, white})] += 1
        self.played.update((black, white))
        self.blacks[black] += 1
        self.last[black] = self.last[white] = frozenset({black, white})

    def games(self, idle: Sequence[int], present: int, room: int) -> list[ScheduledGame]:
        """At most ``room`` new games between the ``idle`` entrants, ``present`` being how many
        entrants are there at all (idle or busy)."""
        if room <= 0 or len(idle) < 2:
            return []
        # No rematch straight away while someone else is present, only busy: wait for them.
        avoid = frozenset(pair for pair in self.last.values()
                          if present > 2 and all(self.last[who] == pair for who in pair))
        rng = random.Random(game_seed(self.seed, self._next_game))
        games = []
        if self.rating is None:
            pairs = ladder_pairings(idle, self.met, self.played, self.blacks, rng, avoid)
        else:
            pairs = rated_pairings(idle, self.rating, self.blacks, rng, avoid)
        for black, white in pairs[:room]:
            number = self._next_game
            self._next_game += 1
            seed = game_seed(self.seed, number)
            games.append(self.starts.game(number, black, white, seed) if self.starts
                         else ScheduledGame(number, None, black, white, seed))
        return games
