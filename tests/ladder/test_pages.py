"""The ladder's pages, API, archives and health endpoint, served for real on 127.0.0.1 over a
real SQLite file, checked against the games the fixture wrote; and what a stranger may send."""

from __future__ import annotations

import datetime
import multiprocessing
import random
import socket
import threading
import time

import pytest

from engine import find_game
from referee.host.ladder_alltime import AllTimeRatings, FitStopped, fit_apart
from referee.stats.alltime import fit_pool
from referee.host.ladder_pages import LadderPages
from referee.records.database import LadderDatabase, PairResult
from referee.records.sgf import read_collection
from referee.report.ladder_html import alltime_table, pool_page
from referee.report.live import LiveGame, LiveGames

from .conftest import DAY, HOSTILE, NOON, Ladder, get, get_json, write_game


def tally(ladder: Ladder, pool: str, name: str) -> tuple[int, int, int]:
    """``name``'s wins, draws and losses in ``pool`` by the games written."""
    wins = draws = losses = 0
    for where, black, white, winner, _ in ladder.finished.values():
        if where == pool and name in (black, white):
            colour = 0 if name == black else 1
            if winner is None:
                draws += 1
            elif winner == colour:
                wins += 1
            else:
                losses += 1
    return wins, draws, losses


def test_the_pools_with_who_is_connected_and_todays_games(ladder, pages):
    answer = get_json(pages.url + "/api/pools")
    today = datetime.datetime.now(datetime.timezone.utc).date()
    for pool in answer["pools"]:
        written = sum(1 for where, *_, finished in ladder.finished.values()
                      if where == pool["name"] and finished.date() == today)
        assert pool["games_today"] == written
    assert [(pool["name"], pool["board"], pool["time_control"], pool["connected"])
            for pool in answer["pools"]] == [("bt", None, "60+1", 1), ("bt-small", [6, 6], "30", 0)]
    status, page, headers = get(pages.url + "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert 'href="/pool/bt"' in page and 'href="/pool/bt-small"' in page and "6x6" in page
    assert "<h1>The &lt;Test&gt; Ladder</h1>" in page  # the service file's name, escaped


def test_standings_and_all_time_ratings_of_a_pool(ladder, pages):
    answer = get_json(pages.url + "/api/pool/bt")
    lines = {line["account"]: line for line in answer["standings"]}
    assert set(lines) == {"alpha", "beta", "gamma", "_under"}
    for name, line in lines.items():
        assert (line["wins"], line["draws"], line["losses"]) == tally(ladder, "bt", name)
        assert line["games"] == sum(tally(ladder, "bt", name))
        assert line["connected"] == (name == "alpha")
    ratings = [line["rating"] for line in answer["standings"]]
    assert ratings == sorted(ratings, reverse=True)
    alltime = answer["alltime"]
    assert alltime["games"] == 24 and alltime["anchor"] == "alpha"
    by_name = {rating["account"]: rating for rating in alltime["ratings"]}
    assert by_name["alpha"]["elo"] == 2000.0 and by_name["alpha"]["error"] == 0.0
    assert all(rating["error"] > 0 for name, rating in by_name.items() if name != "alpha")
    assert {rating["account"]: rating["games"] for rating in alltime["ratings"]} == \
        {name: line["games"] for name, line in lines.items()}
    assert [game["id"] for game in answer["in_progress"]] == [ladder.playing]
    newest = sorted((finished, number) for number, (where, *_, finished)
                    in ladder.finished.items() if where == "bt")[::-1][:20]
    assert [game["id"] for game in answer["recent"]] == [number for _, number in newest]

    status, page, _ = get(pages.url + "/pool/bt")
    assert status == 200
    standings = page[page.index('id="standings"'):page.index('id="alltime"')]
    for name, line in lines.items():
        assert f'href="/account/{name}"' in standings
        assert f"{line['wins']}-{line['draws']}-{line['losses']}" in standings
    assert standings.count('class="connected"') == 1
    assert "anchored at alpha" in page and 'data-live="/api/live?pool=bt"' in page
    # The archive linked is the latest day with a game (the fixture's run over two days), and
    # it is there; a pool without a finished game links none.
    latest = max(when for where, *_, when in ladder.finished.values() if where == "bt").date()
    assert f'href="/pool/bt/{latest}.sgf"' in page
    assert get(pages.url + f"/pool/bt/{latest}.sgf")[0] == 200
    assert ".sgf" not in pool_page(ladder.pools["bt"], [], frozenset(), None, [], "/api/live")


def test_an_account_page_results_per_opponent_and_engines(ladder, pages):
    answer = get_json(pages.url + "/api/account/beta")
    assert [part["pool"] for part in answer["pools"]] == ["bt"]
    part = answer["pools"][0]
    for record in part["opponents"]:
        expected = [0, 0, 0]
        for where, black, white, winner, _ in ladder.finished.values():
            if where == "bt" and {black, white} == {"beta", record["opponent"]}:
                mine = 0 if black == "beta" else 1
                expected[1 if winner is None else 0 if winner == mine else 2] += 1
        assert [record["wins"], record["draws"], record["losses"]] == expected
    assert len(part["ratings"]) == sum(tally(ladder, "bt", "beta"))
    assert {engine["name"] for engine in answer["engines"]} == {HOSTILE, "beta-bot"}
    status, page, _ = get(pages.url + "/account/beta")
    assert status == 200 and page.count("<polyline") == 1  # the rating chart
    last = part["ratings"][-1]  # the rating now, as the pool's standings give it
    assert (f"rating {last['rating']:.0f} ± {last['deviation']:.0f} after "
            f"{len(part['ratings'])} rated games") in page
    opponents = page[page.index('<table class="opponents">'):]
    assert all(f'href="/account/{record["opponent"]}"' in opponents[:opponents.index("</table>")]
               for record in part["opponents"])
    assert "&lt;script&gt;x&lt;/script&gt;" in page and HOSTILE not in page
    assert get(pages.url + "/account/_under")[0] == 200


def test_a_game_page_holds_the_replay_and_the_analysis(ladder, pages):
    first = min(ladder.finished)
    game = get_json(pages.url + f"/api/game/{first}")
    assert (game["pool"], game["black"], game["white"]) == ladder.finished[first][:3]
    assert len(game["moves"]) == len(game["times"]) == len(game["analysis"]) > 0
    status, page, _ = get(pages.url + f"/game/{first}")
    assert status == 200 and f'data-game="{first}"' in page
    assert "OlympiadReport.loaded(" in page and f'"game_no": {first}' in page
    assert '"evaluation": "<svg' in page  # the first game has analysis
    status, page, _ = get(pages.url + f"/game/{ladder.playing}")
    assert status == 200 and "in progress" in page and "data-game" not in page
    assert get_json(pages.url + f"/api/game/{ladder.aborted}")["status"] == "aborted"


def test_the_days_games_as_one_sgf_collection(ladder, pages):
    status, text, headers = get(pages.url + f"/pool/bt/{DAY}.sgf")
    assert status == 200 and headers["Content-Type"].startswith("application/x-go-sgf")
    assert f'filename="bt-{DAY}.sgf"' in headers["Content-Disposition"]
    records = read_collection(text)
    expected = sorted((finished, number) for number, (where, *_, finished)
                      in ladder.finished.items() if where == "bt" and finished.date() == DAY)
    assert len(records) == len(expected) == 12
    for record, (_, number) in zip(records, expected):
        where, black, white, winner, _ = ladder.finished[number]
        assert (record.root["PB"], record.root["PW"]) == ([black], [white])
        assert record.root["RE"] == [{0: "B+", 1: "W+", None: "0"}[winner]]
        moves = get_json(pages.url + f"/api/game/{number}")["moves"]
        assert [text for _, text in record.moves] == moves
        game = find_game(record.game_name)()
        assert len(list(game.replay(moves))) == len(moves)
    day = get_json(pages.url + f"/api/pool/bt/{DAY}")
    assert [game["id"] for game in day["games"]] == [number for _, number in expected]
    assert get(pages.url + "/pool/bt/2020-01-01.sgf")[0] == 404  # no game that day
    assert get_json(pages.url + "/api/pool/bt/2020-01-01")["games"] == []


@pytest.mark.parametrize("path", [
    "/pool/nothing", "/pool/%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/account/nobody",
    "/account/..", "/account/%2e%2e", "/game/999999", "/game/abc", "/game/-1",
    "/pool/bt/2026-02-30.sgf", "/pool/bt/yesterday.sgf", "/pool/bt/2026-03-01",
    "/api/pool/bt/2026-03-01.sgf", "/pool/bt/2026-03-01/x.sgf", "/api/account/" + "a" * 101,
    "/api/live?pool=nothing", "/static/../../etc/passwd", "/pool/", "/api/game/1/2"])
def test_unknown_names_and_odd_paths_are_404(pages, path):
    status, body, _ = get(pages.url + path)
    assert status == 404, body
    assert "<script>" not in body and "<" not in body


def test_a_missing_page_says_what_is_missing(pages):
    """The JSON of a 404 is the reason alone (it read ``refused no pool called nothing``)."""
    assert get(pages.url + "/api/pool/nothing")[1] == '{"error": "no pool called nothing"}'


def test_hostile_queries_are_refused_with_one_escaped_line(pages):
    status, body, _ = get(pages.url + "/api/live?pool=%3Cscript%3E")
    assert status == 400 and "<script>" not in body
    assert get(pages.url + "/pool/bt?" + "x=1&" * 3000)[0] == 414
    assert get(pages.url + "/pool/bt?" + "&".join(f"f{n}=1" for n in range(100)))[0] == 400
    assert get(pages.url + "/api/pool/bt?junk=%ff%fe")[0] == 400
    assert get(pages.url + "/api/pool/bt?pool=alpha&other=<b>")[0] == 200  # undeclared: dropped
    with socket.create_connection(("127.0.0.1", pages.httpd.server_address[1]), 5) as raw:
        raw.sendall(b"POST /api/pools HTTP/1.1\r\nContent-Length: 3\r\n\r\n{}x")
        assert raw.recv(100).startswith(b"HTTP/1.0 405")


def test_health_says_ok_and_fails_with_503_when_the_database_cannot_be_read(ladder, pages,
                                                                            tmp_path):
    health = get_json(pages.url + "/health")
    assert health["status"] == "ok" and health["games_in_progress"] == 1
    assert health["uptime"] >= 0
    records = LadderDatabase(tmp_path / "gone.db")
    server = LadderPages(records, port=0, ratings=AllTimeRatings(records, look=60))
    try:
        assert get(server.url + "/health")[0] == 200
        records.close()  # and the file overwritten: the next read fails
        (tmp_path / "gone.db").write_bytes(b"not a database" * 512)
        for suffix in ("-wal", "-shm"):
            (tmp_path / f"gone.db{suffix}").unlink(missing_ok=True)
        status, body, _ = get(server.url + "/health")
        assert status == 503 and '"failing"' in body
        assert get(server.url + "/api/pools")[0] == 500  # one line, no traceback
    finally:
        server.stop()


def test_the_games_in_progress_move_in_the_live_json(ladder, tmp_path):
    live = LiveGames()
    game = find_game("breakthrough")()
    live.start(LiveGame(ladder.playing, "alpha", "beta", game, (60.0, 60.0)))
    pool = ladder.pools["bt"].id
    records = ladder.records
    server = LadderPages(records, live=lambda wanted: live if wanted == pool else None, port=0,
                         ratings=AllTimeRatings(records, look=60))
    try:
        before = get_json(server.url + "/api/live?pool=bt")["games"]
        assert [(state["game_no"], state["ply"], state["pool"]) for state in before] == \
            [(ladder.playing, 0, "bt")]
        move = game.initial_position().legal_move_texts()[0]
        live.move(ladder.playing, move, (59.0, 60.0))
        after = get_json(server.url + "/api/live")["games"]
        assert after[0]["moves"] == [move] and after[0]["board"].startswith("<svg")
        assert get_json(server.url + "/api/live?pool=bt-small")["games"] == []
        assert 'data-live="/api/live"' in get(server.url + "/live")[1]
    finally:
        server.stop()


def test_the_all_time_table_is_refitted_after_new_games(tmp_path):
    """The thread fits a pool first, then again once ``games`` more have finished in it."""
    with LadderDatabase(tmp_path / "ladder.db") as records:
        made = Ladder(records)
        for name in ("a", "b", "c"):
            made.accounts[name] = records.add_account(name + "x", name + "x", "x", NOON)
        made.pools["p"] = records.add_pool("p", "breakthrough", {}, None, "60")
        rng = random.Random(3)
        for black, white, winner in (("a", "b", 0), ("b", "c", 0), ("c", "a", 0), ("b", "a", 1)):
            write_game(made, "p", black, white, winner, NOON, rng)
        ratings = AllTimeRatings(records, games=2, seconds=3600, look=0.02)
        ratings.start()
        try:
            first = wait_for(lambda: ratings.table(made.pools["p"].id))
            assert first.games == 4 and len(first.ratings) == 3 and first.anchor is None
            write_game(made, "p", "a", "c", 0, NOON, rng)
            time.sleep(0.2)  # one new game: below ``games``, not refitted
            assert ratings.table(made.pools["p"].id) is first
            write_game(made, "p", "a", "c", 0, NOON, rng)
            later = wait_for(lambda: (table := ratings.table(made.pools["p"].id)).games == 6
                             and table)
            assert later.ratings[0].account == "ax"
        finally:
            ratings.stop()


def wait_for(condition, seconds: float = 10.0):
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.02)
    return value


def test_the_all_time_note_says_when_it_was_computed():
    """A table fitted before the pool's latest games says so, rather than seem to count them."""
    assert alltime_table(fit_pool([], computed=NOON)) == (
        '<p class="note">no game had finished when last computed (2026-03-01 12:00 UTC; again '
        'as games finish)</p>')
    apart = [PairResult(1, "one", 2, "two", 1, 0, 0), PairResult(3, "three", 4, "four", 0, 0, 2)]
    assert "the 3 games finished when last computed (2026-03-01 12:00 UTC; " in \
        alltime_table(fit_pool(apart, computed=NOON))


def test_fit_pool_of_a_worked_example():
    """The ratings module's worked example, as a pool's per-pair results: 120.41 Elo steps."""
    pairs = [PairResult(1, "one", 2, "two", 2, 0, 1), PairResult(2, "two", 3, "three", 2, 0, 1),
             PairResult(1, "one", 3, "three", 4, 0, 1)]
    table = fit_pool(pairs, anchor=(2, 1500.0))
    assert [(rating.account, round(rating.elo, 2)) for rating in table.ratings] == \
        [("one", 1620.41), ("two", 1500.0), ("three", 1379.59)]
    assert table.games == 11 and table.anchor == "two"
    assert fit_pool(pairs, anchor=(9, 1500.0)).anchor is None  # not in the pool: mean 0
    assert fit_pool([]).ratings == ()


def test_a_fit_apart_is_the_same_fit_and_a_stop_ends_its_process():
    pairs = [PairResult(1, "one", 2, "two", 2, 0, 1), PairResult(2, "two", 3, "three", 2, 0, 1),
             PairResult(1, "one", 3, "three", 4, 0, 1)]
    when = datetime.datetime(2026, 3, 1, tzinfo=datetime.timezone.utc)
    assert fit_apart(pairs, (2, 1500.0), when, threading.Event()) == fit_pool(pairs, (2, 1500.0),
                                                                              when)
    stopping = threading.Event()
    stopping.set()
    with pytest.raises(FitStopped):
        fit_apart(pairs, None, when, stopping)
    assert not multiprocessing.active_children()
