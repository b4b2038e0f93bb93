"""A pool's starts over real sockets on 127.0.0.1: a pool with a two-opening book and two
deterministic house anchors plays each opening twice, colours swapped, and records it (the
database, the day's SGF, the game's page and JSON); a laoCoon pool without a book draws a
layout per pair of games and records it; a bad book stops the service at its start, in one
line, before the database is touched."""

from __future__ import annotations

import json
import re
import threading
import urllib.request

import pytest

from referee.host.ladder import LadderError, LadderService
from referee.host.ladder_file import read_ladder
from referee.plan.openings import load_book
from referee.records.database import Game, LadderDatabase
from referee.records.sgf import read_collection

from ..event.helpers import PYTHON, free_port
from .service import wait_until, write_ladder

BOOK = "# game: breakthrough\n# size: 5x5\na2-a3 a4-b3\ne2-e3 e4-d3\n"
OPENINGS = {1: ("a2-a3", "a4-b3"), 2: ("e2-e3", "e4-d3")}
POOLS = {
    "bt": {"game": "breakthrough", "boardsize": "5", "time": 20, "openings": "book.txt"},
    "lao": {"game": "laocoon", "options": {"variant": "random"}, "time": 20, "max-moves": 12},
}
ANCHORS = tuple({"pool": pool, "name": f"{pool}-{depth}", "rating": 1500,
                 "engine": f"{PYTHON} -m protocol.cli --depth {depth} --seed {depth}"}
                for pool in POOLS for depth in (1, 2))
GAMES = 4


def first_games(records: LadderDatabase, name: str) -> list[Game]:
    """The first :data:`GAMES` finished games of pool ``name`` (fewer until they are)."""
    pool = next(pool for pool in records.pools() if pool.name == name)
    return sorted(records.recent_games(100, pool=pool.id), key=lambda game: game.id)[:GAMES]


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode()


def check_pairs(games: list[Game]) -> None:
    """Games 1 and 2, then 3 and 4, share their start with colours swapped; the four differ."""
    for first, second in (games[:2], games[2:]):
        assert (second.black, second.white) == (first.white, first.black)
        assert second.ending.opening == first.ending.opening
        assert second.ending.start_options == first.ending.start_options
    assert len({game.ending.moves for game in games}) == GAMES


def sgf_records(pages: str, pool: str, games: list[Game]) -> dict[int, object]:
    """The SGF records of ``games`` in their days' archives of ``pool``, by game id."""
    days = {game.ending.finished.date().isoformat() for game in games}
    records = {}
    for day in days:
        for record in read_collection(fetch(f"{pages}/pool/{pool}/{day}.sgf")):
            records[int(record.root["GN"][0].split()[-1])] = record
    return {game.id: records[game.id] for game in games}


def test_a_pool_plays_each_opening_twice_colours_swapped_and_records_it(tmp_path):
    (tmp_path / "book.txt").write_text(BOOK)
    port = free_port()
    settings = read_ladder(write_ladder(tmp_path, POOLS, ANCHORS, pages=port))
    lines: list[str] = []
    with LadderService(settings, lines.append) as service:
        wait_until(lambda: all(len(first_games(service.records, name)) == GAMES
                               for name in POOLS), 120)
        pages = f"http://127.0.0.1:{port}"
        books = first_games(service.records, "bt")
        check_pairs(books)
        assert sorted(game.ending.opening for game in books) == [1, 1, 2, 2]
        for game in books:
            assert game.ending.opening_plies == 2 and game.ending.start_options == {}
            assert game.ending.moves[:2] == OPENINGS[game.ending.opening]
        for game, record in sgf_records(pages, "bt", books).items():
            opening = next(book.ending.opening for book in books if book.id == game)
            assert tuple(text for _, text in record.moves[:2]) == OPENINGS[opening]
            assert record.nodes[2]["C"][0].startswith(f"end of opening {opening}")
        shown = json.loads(fetch(f"{pages}/api/game/{books[0].id}"))
        assert (shown["opening"], shown["opening_plies"], shown["start_options"]) == (
            books[0].ending.opening, 2, {})
        page = fetch(f"{pages}/game/{books[0].id}")
        assert f"opening {books[0].ending.opening} (2 plies)" in page
        assert re.search(r'"opening_plies": ?2\b', page)  # the viewer marks the opening

        layouts = first_games(service.records, "lao")
        check_pairs(layouts)
        assert all(game.ending.opening is None and game.ending.opening_plies == 0
                   for game in layouts)
        assert layouts[0].ending.start_options != layouts[2].ending.start_options
        assert f"start layout={layouts[0].ending.start_options['layout']}" in fetch(
            f"{pages}/game/{layouts[0].id}")
        archive = tmp_path / "lao.sgf"
        archive.write_text("".join(fetch(f"{pages}/pool/lao/{day}.sgf") for day in {
            game.ending.finished.date().isoformat() for game in layouts}))
        # The archives' starts read back as a book of layouts (the day's other games, which
        # may be short, are in it too: their moves are not read as openings) ...
        starts = [opening.start_options
                  for opening in load_book(archive, settings.pool("lao").setup, 0)]
        assert all(game.ending.start_options in starts for game in layouts)
        # ... and each record's moves replay from its own start.
        for game in layouts:
            record = sgf_records(pages, "lao", [game])[game.id]
            position = settings.pool("lao").setup.make_game(
                game.ending.start_options).initial_position()
            played = []
            for _, text in record.moves:
                move = position.parse_move(text)
                played.append(position.move_text(move))
                position.play(move)
            assert tuple(played) == game.ending.moves
    assert "Traceback" not in "\n".join(lines)


def test_a_return_game_owed_when_the_service_stops_is_played_after_its_restart(tmp_path):
    """The service stops right after the pair's first meeting is written (its log line holds
    the pool's recorder, so that the return game cannot begin before the stop); restarted, it
    plays that return game first: the same opening and seed, colours swapped."""
    (tmp_path / "book.txt").write_text(BOOK)
    settings = read_ladder(write_ladder(tmp_path, {"bt": POOLS["bt"]}, ANCHORS[:2]))
    written, release = threading.Event(), threading.Event()

    def hold_after_the_first_game(line: str) -> None:
        if line.startswith("bt: ") and not written.is_set():
            written.set()
            release.wait(30)

    with LadderService(settings, hold_after_the_first_game) as service:
        assert written.wait(60)
        service.pools["bt"].stop()  # no new game: the pair's next meeting is after the restart
        release.set()
    with LadderService(settings, print) as service:
        wait_until(lambda: len(first_games(service.records, "bt")) == 2, 60)
        first, second = first_games(service.records, "bt")
    assert (second.black, second.white) == (first.white, first.black)
    assert second.ending.opening == first.ending.opening is not None
    assert second.ending.seed == first.ending.seed is not None
    assert second.ending.moves[:2] == first.ending.moves[:2]


@pytest.mark.parametrize("book, message", [
    ("# game: breakthrough\na2-a3\na2-a9\n", "book.txt:3: a2-a9: "),
    ("# game: loa\na2-a3\n", "book.txt:1: the book is for loa, the run plays breakthrough"),
    ("# no openings, only a comment\n", "book.txt: the book has no openings"),
    (None, "book.txt: cannot read the book: "),
])
def test_a_bad_book_stops_the_service_at_its_start_in_one_line(tmp_path, book, message):
    if book is not None:
        (tmp_path / "book.txt").write_text(book)
    settings = read_ladder(write_ladder(tmp_path, {"bt": POOLS["bt"]}))
    with pytest.raises(LadderError) as refused:
        with LadderService(settings, print):
            pass
    said = str(refused.value)
    assert said.startswith(f"pool bt: openings: {tmp_path}/{message}"), said
    assert "\n" not in said and not settings.database.exists()
