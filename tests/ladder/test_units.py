"""The ladder service's parts that need no server: its service file, rated pairing, the games'
starts and the rest of an engine that misbehaved."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest

from referee.host.ladder_file import LadderFileError, read_ladder
from referee.plan.ladder import Ladder, LadderStarts, owed_returns, rated_pairings
from referee.plan.setup import Opening
from referee.play.pool_seats import MOST_REST_SECONDS, REST_SECONDS, _Rest

from .service import write_ladder


def test_a_service_file_reads_whole(tmp_path):
    settings = read_ladder(write_ladder(tmp_path, anchors=(
        {"pool": "clobber", "name": "house", "engine": "olympiad-engine", "rating": 1400},)))
    assert [pool.name for pool in settings.pools] == ["clobber", "domineering", "breakthrough"]
    assert [pool.board for pool in settings.pools] == ["5x4", "5x5", "5x5"]
    assert settings.pools[0].control.describe() == "10"
    assert settings.database == tmp_path / "ladder.db" and settings.registration == "open"
    assert settings.anchors[0].rating == 1400 and settings.pages == ("127.0.0.1", 0)


def test_a_pool_s_book_is_found_beside_the_service_file(tmp_path):
    settings = read_ladder(write_ladder(tmp_path, {
        "loa": {"game": "loa", "openings": "books/loa.txt", "opening-plies": 0}}))
    pool = settings.pool("loa")
    assert (pool.openings, pool.opening_plies) == (tmp_path / "books/loa.txt", 0)
    assert read_ladder(write_ladder(tmp_path)).pools[0].openings is None


@pytest.mark.parametrize("pools, anchors, settings, message", [
    ({}, (), {}, "no pool ([[pool]] with a name and a game)"),
    ({"a b": {"game": "loa"}}, (), {}, "pool 1: name must be 1 to 40 letters"),
    ({"loa": {"game": "chess"}}, (), {}, "pool loa: game 'chess'"),
    ({"loa": {"game": "loa", "time": -1}}, (), {}, "pool loa: time must be at least 0"),
    ({"loa": {"game": "loa"}}, ({"pool": "go", "name": "house", "engine": "e"},), {},
     "anchor 1: pool 'go' is not a pool of this file"),
    ({"loa": {"game": "loa"}}, ({"pool": "loa", "name": "h", "engine": "e"},), {},
     "anchor 1: a name has 2 to 24 characters"),
    ({"loa": {"game": "loa"}}, (), {"registration": "closed"},
     "registration must be one of open, invitation, not 'closed'"),
    ({"loa": {"game": "loa", "opening-plies": 4}}, (), {},
     'pool loa: opening-plies needs openings (openings = "FILE")'),
    ({"loa": {"game": "loa", "openings": "book.txt", "opening-plies": -1}}, (), {},
     "pool loa: opening-plies must be at least 0, not -1"),
    ({"loa": {"game": "loa", "openings": 3}}, (), {}, "pool loa: openings must be text"),
    ({"loa": {"game": "loa", "tme": 10}}, (), {},  # a typo, that left the default clock
     "unused key 'tme' in pool 1 (the keys read there: boardsize, byoyomi, game, increment, "),
    ({"loa": {"game": "loa", "move-time": 5, "time": 10}}, (), {}, "unused key 'time' in pool 1"),
    ({"loa": {"game": "loa"}}, ({"pool": "loa", "name": "house", "engine": "e", "elo": 9},), {},
     "unused key 'elo' in anchor 1 (the keys read there: engine, name, pool, rating)"),
    ({"loa": {"game": "loa"}}, (), {"regisration": "invitation"}, "unused key 'regisration' in "),
])
def test_a_mistake_in_a_service_file_is_one_line_naming_it(tmp_path, pools, anchors, settings,
                                                          message):
    path = write_ladder(tmp_path, pools, anchors, **settings)
    with pytest.raises(LadderFileError) as refused:
        read_ladder(path)
    assert str(refused.value).startswith(f"{path}: {message}"), str(refused.value)
    assert "\n" not in str(refused.value)


def test_rated_pairing_pairs_each_idle_entrant_once_and_never_an_avoided_pair():
    rng = random.Random(7)
    for _ in range(200):
        idle = rng.sample(range(30), rng.randint(0, 30))
        ratings = {who: rng.gauss(1500, 300) for who in range(30)}
        avoid = frozenset(frozenset(rng.sample(idle, 2)) for _ in range(3) if len(idle) > 1)
        pairs = rated_pairings(idle, ratings.get, Counter(), rng, avoid)
        paired = [who for pair in pairs for who in pair]
        assert len(paired) == len(set(paired)) and set(paired) <= set(idle)
        assert not {frozenset(pair) for pair in pairs} & avoid
        assert len(paired) >= len(idle) - 1 - 2 * len(avoid)


def test_rated_pairing_meets_close_ratings_most():
    """Without spread, neighbours in rating meet; with it, mostly still neighbours."""
    ratings = {who: 1000 + 100 * who for who in range(10)}.get
    assert rated_pairings(range(10), ratings, Counter(), random.Random(1), spread=0) == [
        (0, 1), (2, 3), (4, 5), (6, 7), (8, 9)]
    gaps = [abs(black - white) for seed in range(200) for black, white in
            rated_pairings(range(10), ratings, Counter(), random.Random(seed))]
    assert sum(gap == 1 for gap in gaps) > len(gaps) / 2 and max(gaps) > 1


def test_a_rated_ladder_balances_colours_and_numbers_its_games():
    ladder = Ladder(1, 0, [(0, 1)], 4, rating={0: 1500, 1: 1500, 2: 1500}.get)
    games = ladder.games([0, 1, 2], 3, 1)  # 0 and 1 just met: one of them meets 2
    assert len(games) == 1 and games[0].game_no == 5 and 2 in (games[0].black, games[0].white)
    assert games[0].black != 0  # 0 had black; the other takes it


def test_each_pair_meets_again_on_its_last_start_with_colours_swapped_then_on_a_new_one():
    """Four entrants paired at random: a pair's every other meeting replays the one before it
    (opening, seed, colours swapped); the others take the book's openings in a cycle, every
    opening once before any again."""
    book = [Opening(number, (f"m{number}",)) for number in range(1, 6)]
    ladder = Ladder(3, 0, [], 0, rating=dict.fromkeys(range(4), 1500.0).get,
                    starts=LadderStarts(book, 3))
    rng = random.Random(3)
    meetings: dict[frozenset, list] = defaultdict(list)
    drawn = []
    for _ in range(200):
        for game in ladder.games(rng.sample(range(4), rng.choice((2, 4))), 4, 2):
            ladder.count(game.black, game.white)
            before = meetings[frozenset({game.black, game.white})]
            if len(before) % 2:
                last = before[-1]
                assert (game.black, game.white, game.opening, game.seed) == (
                    last.white, last.black, last.opening, last.seed)
            else:
                drawn.append(game.opening.number)
            before.append(game)
    cycles = [drawn[start:start + len(book)] for start in range(0, len(drawn), len(book))]
    assert len(cycles) > 10 and all(cycle == cycles[0] for cycle in cycles[:-1])
    assert sorted(cycles[0]) == [1, 2, 3, 4, 5] and cycles[0] != [1, 2, 3, 4, 5]
    assert len({game.seed for games in meetings.values() for game in games}) == len(drawn)


def test_a_return_game_owed_from_before_a_restart_is_found_by_account_not_by_index():
    """After a restart the entrants are seated in the order they come back: the return game
    owed to accounts 7 and 8 is matched by account, its colours the other way round from the
    first meeting whatever the pairing says, and owed once."""
    book = [Opening(number, (f"m{number}",)) for number in range(1, 3)]
    owed = owed_returns([(7, 8, 40, 2, 111), (8, 7, 30, 1, 99)], book)  # 40 is a first meeting
    accounts = [9, 8, 7]  # account by entrant index, as they came back
    starts = LadderStarts(book, 1, accounts.__getitem__)
    starts.owe(owed)
    game = starts.game(1, 2, 1, seed=555)  # account 7 black again: swapped
    assert (accounts[game.black], accounts[game.white], game.opening, game.seed) == (
        8, 7, book[1], 111)
    assert starts.game(2, 2, 1, seed=666).seed == 666  # the next meeting is a first one
    assert starts.game(3, 0, 1, seed=777).seed == 777


def test_a_misbehaving_engine_rests_longer_each_time_in_a_row_up_to_a_limit():
    rest = _Rest()
    lengths = []
    for _ in range(10):
        lengths.append(rest.next)
        rest.begin()
    assert lengths[:3] == [REST_SECONDS, 2 * REST_SECONDS, 4 * REST_SECONDS]
    assert max(lengths) == MOST_REST_SECONDS and not rest.over
    rest.end()
    assert rest.next == REST_SECONDS
