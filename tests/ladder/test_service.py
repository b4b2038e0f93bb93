"""The ladder service over real sockets on 127.0.0.1: who gets in and who is refused, accounts
disabled and renamed while it runs, a renewed certificate taken without a restart, and whole
runs with real clients and engines: pools paired and rated, every game recorded once, a kill -9
of the server costing only the games in progress (aborted, unrated), and the ratings those
games gave being Glicko-2's.
"""

from __future__ import annotations

import datetime
import json
import sqlite3
import ssl
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from referee.host import ladder, wire
from referee.host.certificate import peer_certificate
from referee.host.ladder import LadderService
from referee.host.ladder_file import read_ladder
from referee.records.database import LadderDatabase
from referee.records.sgf import read_collection
from referee.report.png import find_browser
from referee.stats.glicko import Glicko, update

from ..report.browser import Browser
from ..event.helpers import RANDOM_ENGINE, SLOW_ENGINE, free_port, make_certificate
from .service import finished_games, join, serve, wait_until, write_ladder

CHROMIUM = find_browser()
ANCHOR = {"pool": "clobber", "name": "house", "engine": RANDOM_ENGINE, "rating": 1400}


def hello(url: str, context: ssl.SSLContext | None = None, **fields) -> dict:
    """The server's answer to a ``hello`` with ``fields``."""
    with connect(url, ssl=context, open_timeout=10) as connection:
        connection.send(wire.encode("hello", protocol=wire.PROTOCOL, **fields))
        return wire.decode(connection.recv(timeout=10))


def test_logins_are_refused_with_one_line_saying_why(tmp_path):
    lines: list[str] = []
    settings = read_ladder(write_ladder(tmp_path, anchors=(ANCHOR,)))
    with LadderService(settings, lines.append) as service:
        url = service.url
        welcome = hello(url, pool="clobber", name="Fuego", password="right")
        assert welcome == {"type": "welcome", "name": "Fuego",
                           "event": "Test ladder, pool clobber"}
        assert hello(url, pool="domineering", name="Fuego", password="right")["name"] == "Fuego"
        refusals = {
            "wrong password": {"pool": "clobber", "name": "Fuego", "password": "wrong"},
            "no pool 'go' here; the pools are breakthrough, clobber, domineering":
                {"pool": "go", "name": "Fuego", "password": "right"},
            "this ladder logs in with a pool, a name and a password (connect --pool POOL "
            "--name NAME, the password in OLYMPIAD_PASSWORD)": {"token": "a-token"},
            "the name FUEG0 is too like the existing account Fuego: choose another":
                {"pool": "clobber", "name": "FUEG0", "password": "x"},
            "a name has only ASCII letters, digits, \"-\", \"_\" and \".\"":
                {"pool": "clobber", "name": "<script>", "password": "x"},
        }
        for reason, fields in refusals.items():
            assert hello(url, **fields) == {"type": "refused", "reason": reason}
        house = service.records.account_by_name("house")
        assert house is not None and service.pools["clobber"].connected() == {house.id}
    assert not any("Traceback" in line for line in lines)


def test_the_operator_disables_accounts_and_closes_registration_while_it_runs(
        tmp_path, monkeypatch):
    monkeypatch.setattr(ladder, "WATCH_SECONDS", 0.1)
    lines: list[str] = []
    service_file = write_ladder(tmp_path)
    with LadderService(read_ladder(service_file), lines.append, service_file) as service:
        with connect(service.url, open_timeout=10) as connection:
            connection.send(wire.encode("hello", protocol=wire.PROTOCOL, pool="clobber",
                                        name="Leela", password="pw"))
            assert wire.decode(connection.recv(timeout=10))["type"] == "welcome"
            leela = service.records.account_by_name("Leela")
            wait_until(lambda: leela.id in service.pools["clobber"].connected(), 10)
            service.records.set_disabled(leela.id, True)  # as `ladder admin disable` does
            with pytest.raises(ConnectionClosed):
                while True:
                    connection.recv(timeout=10)
            assert connection.close_reason == ("your account was disabled or merged by the "
                                               "operator")
        assert leela.id not in service.pools["clobber"].connected()
        assert hello(service.url, pool="clobber", name="Leela", password="pw") == {
            "type": "refused", "reason": "account disabled"}
        service_file.write_text(service_file.read_text().replace(
            'name = "Test ladder"', 'name = "Test ladder"\nregistration = "invitation"'))
        service.reload()
        assert lines[-1] == ("registration is by invitation: a new account needs one (ladder "
                             "admin ... invite)")
        assert hello(service.url, pool="clobber", name="Newcomer", password="pw") == {
            "type": "refused",
            "reason": "registration is closed: a new account needs an invitation from the "
                      "operator (connect --invitation TOKEN, or OLYMPIAD_INVITATION)"}
        invitation = service.accounts.invite()
        assert hello(service.url, pool="clobber", name="Newcomer", password="pw",
                     invitation=invitation)["type"] == "welcome"


def players_in_progress(pages: str, pool: str) -> set[str]:
    """The players of ``pool``'s games in progress, as the pages' live JSON gives them."""
    games = get_json(f"{pages}/api/live?pool={pool}")["games"]
    return {game[colour] for game in games for colour in ("black", "white")}


def test_a_renamed_account_is_called_by_its_new_name_while_it_runs(
        tmp_path, monkeypatch, processes):
    monkeypatch.setattr(ladder, "WATCH_SECONDS", 0.1)
    lines: list[str] = []
    settings = read_ladder(write_ladder(tmp_path, pages=free_port()))
    with LadderService(settings, lines.append) as service:
        processes += [join(service.url, "domineering", name, SLOW_ENGINE)
                      for name in ("Ada", "Bo")]
        pages = service.pages.url
        wait_until(lambda: players_in_progress(pages, "domineering") == {"Ada", "Bo"}, 60)
        ada = service.records.account_by_name("Ada")
        service.accounts.rename(ada, "Grace")  # as `ladder admin rename` does
        wait_until(lambda: players_in_progress(pages, "domineering") == {"Grace", "Bo"}, 10)
        renamed = lines.index("domineering: Ada is now called Grace")
        wait_until(lambda: any(" - " in line for line in lines[renamed:]), 60)
        finished = next(line for line in lines[renamed:] if " - " in line)
        assert "Grace" in finished and "Ada" not in finished, finished


def test_a_full_disk_stops_the_service_in_one_line_and_keeps_every_finished_game(
        tmp_path, processes):
    lines: list[str] = []
    settings = read_ladder(write_ladder(tmp_path))
    with LadderService(settings, lines.append) as service:
        processes += [join(service.url, "domineering", name, RANDOM_ENGINE)
                      for name in ("Ada", "Bo")]
        wait_until(lambda: finished_games(settings.database) >= 3, 60)
        with sqlite3.connect(settings.database) as reader:
            size = reader.execute("PRAGMA page_count").fetchone()[0] * reader.execute(
                "PRAGMA page_size").fetchone()[0]
        reader.close()
        service.records.limit_size(size)  # no room from now on
        wait_until(lambda: service.failure is not None, 60)
        assert service.wait_until_stopped(), lines  # a pool failed, the service stops
        kept = finished_games(settings.database)
    failed = [line for line in lines if " failed: " in line]
    assert failed and failed[0].startswith("pool domineering failed: DatabaseWriteFailed: "), \
        lines
    assert "Traceback" not in "\n".join(lines)
    with sqlite3.connect(settings.database) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        statuses = dict(connection.execute("SELECT status, count(*) FROM games GROUP BY status"))
    connection.close()
    assert kept >= 3 and statuses["finished"] == kept
    if "playing" in statuses:  # the disk had no room to mark it aborted at the stop either
        assert any(line.endswith("the games in progress are marked aborted at the next start")
                   for line in lines), lines
        with LadderDatabase(settings.database) as records:  # as the next start does
            assert records.abort_unfinished() == statuses["playing"]
            assert records.games_in_progress() == ()
    assert set(statuses) <= {"finished", "aborted", "playing"}


def test_the_games_in_progress_show_their_database_numbers(tmp_path, processes):
    """A pool's runner numbers its games from 1 at each start, apart from the other pools;
    the games in progress show the number of their page (``/game/ID``), the database's."""
    settings = read_ladder(write_ladder(tmp_path))
    with LadderService(settings, lambda line: None) as service:
        players = {"clobber": ("Ada", "Bo"), "domineering": ("Cy", "Di")}
        processes += [join(service.url, pool, name, SLOW_ENGINE)
                      for pool, names in players.items() for name in names]
        live = [service.pools[pool].live for pool in players]
        pools = [service.pools[pool].pool.id for pool in players]

        def numbers_agree() -> bool:  # once both pools finished a game, none begins at 1
            shown = sorted(state["game_no"] for games in live for state in games.snapshot())
            playing = [game.id for game in service.records.games_in_progress()]
            return all(service.records.finished_games(pool) for pool in pools) and \
                len(playing) == 2 and shown == playing
        wait_until(numbers_agree, 30, every=0.02)


def test_a_renewed_certificate_is_offered_without_a_restart(tmp_path):
    cert_path, key_path = make_certificate(tmp_path)
    lines: list[str] = []
    settings = read_ladder(write_ladder(tmp_path, tls=True))
    with LadderService(settings, lines.append) as service:
        port = service.server.port
        first = peer_certificate("127.0.0.1", port, 10)
        make_certificate(tmp_path, days=90)  # renewed, in the same files
        service.reload()
        renewed = peer_certificate("127.0.0.1", port, 10)
        assert renewed.not_after > first.not_after
        said = [line for line in lines if "certificate" in line]  # not the door's lines
        assert said[-1].startswith(f"loaded the certificate {cert_path} again (valid until")
        key_path.write_text("not a key")
        service.reload()
        said = [line for line in lines if "certificate" in line]
        assert said[-1].startswith("error: ") and said[-1].endswith(
            "; still presenting the certificate loaded before")
        assert peer_certificate("127.0.0.1", port, 10).not_after == renewed.not_after
        context = ssl.create_default_context(cafile=str(cert_path))
        assert hello(service.url, context, pool="clobber", name="Leela",
                     password="pw")["type"] == "welcome"  # the certificate names 127.0.0.1


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


def check_pages(pages: str, database) -> None:
    """The pages' JSON, each pool's archive of today and its page in Chromium, against the
    games the database holds."""
    connection = sqlite3.connect(database)
    pools = {entry["name"]: entry for entry in get_json(f"{pages}/api/pools")["pools"]}
    assert set(pools) == {"clobber", "domineering", "breakthrough"}
    assert get_json(f"{pages}/health")["status"] == "ok"
    today = datetime.datetime.now(datetime.timezone.utc).date()
    for name in pools:
        pool_id = connection.execute("SELECT id FROM pools WHERE name = ?", (name,)).fetchone()[0]
        table = get_json(f"{pages}/api/pool/{name}")
        counted = {account: (games, wins, draws, losses, rating) for account, games, wins, draws,
                   losses, rating in connection.execute(
                       "SELECT name, games, wins, draws, losses, rating FROM standings JOIN "
                       "accounts ON accounts.id = account WHERE pool = ?", (pool_id,))}
        assert {entry["account"]: (entry["games"], entry["wins"], entry["draws"],
                                   entry["losses"], entry["rating"])
                for entry in table["standings"]} == counted
        moves = [json.loads(text) for (text,) in connection.execute(
            "SELECT moves FROM games WHERE pool = ? AND status = 'finished' AND "
            "date(finished) = ? ORDER BY finished, id", (pool_id, today.isoformat()))]
        with urllib.request.urlopen(f"{pages}/pool/{name}/{today}.sgf", timeout=10) as answer:
            archive = read_collection(answer.read().decode())
        assert sorted(len(record.moves) for record in archive) == sorted(map(len, moves))
        for account in counted:
            page = get_json(f"{pages}/api/account/{account}")
            assert sum(entry["games"] for pool in page["pools"]
                       for entry in pool["opponents"]) >= counted[account][0]
    connection.close()
    if CHROMIUM is None:
        return
    browser = Browser(CHROMIUM)
    try:
        browser.open(f"{pages}/pool/clobber")
        names = browser.evaluate("[...document.querySelectorAll('table.standings td.name a')]"
                                 ".map(a => a.textContent)")
        assert sorted(names) == ["Ada", "Bo", "house"]
        assert browser.errors == []
    finally:
        browser.close()


def replayed_ratings(path) -> dict[int, Glicko]:
    """Every account's rating from replaying the finished games' results with Glicko-2 in the
    order they were rated (anchors held at their rating), per (pool, account)."""
    connection = sqlite3.connect(path)
    rows = connection.execute(
        "SELECT games.id, games.pool, games.black, games.white, games.result, "
        "min(ratings.id) FROM games JOIN ratings ON ratings.game = games.id "
        "WHERE status = 'finished' GROUP BY games.id ORDER BY min(ratings.id)").fetchall()
    house = {row[0] for row in connection.execute(
        "SELECT id FROM accounts WHERE name = 'house'")}
    connection.close()
    ratings: dict[tuple[int, int], Glicko] = {}
    for _, pool, black, white, result, _ in rows:
        before = [ratings.get((pool, black), Glicko()), ratings.get((pool, white), Glicko())]
        for account in house & {black, white}:
            before[(black, white).index(account)] = Glicko(ANCHOR["rating"], 30.0)
        scores = {"B+": (1.0, 0.0), "W+": (0.0, 1.0)}.get(result, (0.5, 0.5))
        for colour, account in enumerate((black, white)):
            if account not in house:
                ratings[pool, account] = update(before[colour],
                                                [(before[1 - colour], scores[colour])])
    return ratings


def test_a_ladder_of_three_pools_survives_a_kill_9_and_rates_every_game(tmp_path, processes):
    port, pages_port = free_port(), free_port()
    service_file = write_ladder(tmp_path, anchors=(ANCHOR,), port=port, pages=pages_port)
    database = tmp_path / "ladder.db"
    server, url = serve(service_file)
    processes.append(server)
    players = {"clobber": ("Ada", "Bo"), "domineering": ("Cy", "Di"),
               "breakthrough": ("Ed", "Flo")}
    clients = [join(url, pool, name, SLOW_ENGINE) for pool, names in players.items()
               for name in names]
    processes += clients
    wait_until(lambda: finished_games(database) >= 6, 90)
    with sqlite3.connect(database) as connection:  # a game is under way: kill the server
        wait_until(lambda: connection.execute(
            "SELECT count(*) FROM games WHERE status = 'playing'").fetchone()[0] > 0)
    server.kill()
    before = finished_games(database)
    server, _ = serve(service_file)
    processes.append(server)
    server.wait_for(r"\d+ game\(s\) left in progress by the last run marked aborted")
    wait_until(lambda: finished_games(database) >= before + 6, 90)
    for client in clients:  # the participants leave: their games end within the grace window
        client.stop()
    wait_until(lambda: not sqlite3.connect(database).execute(
        "SELECT count(*) FROM games WHERE status = 'playing'").fetchone()[0], 60)
    check_pages(f"http://127.0.0.1:{pages_port}", database)
    server.popen.terminate()
    assert server.wait(30) == 0, server.output
    assert "Traceback" not in server.output

    connection = sqlite3.connect(database)
    statuses = dict(connection.execute("SELECT status, count(*) FROM games GROUP BY status"))
    assert statuses["aborted"] >= 1 and set(statuses) == {"finished", "aborted"}
    assert connection.execute("SELECT count(*) FROM ratings JOIN games ON games.id = "
                              "ratings.game WHERE status = 'aborted'").fetchone()[0] == 0
    accounts = dict(connection.execute("SELECT name, id FROM accounts"))
    assert set(accounts) == {"house", *(name for names in players.values() for name in names)}
    for pool, names in players.items():  # each pool's games are between its own players
        pool_id = connection.execute("SELECT id FROM pools WHERE name = ?", (pool,)).fetchone()[0]
        seated = {accounts[name] for name in names} | ({accounts["house"]}
                                                        if pool == "clobber" else set())
        for black, white, termination, *engines in connection.execute(
                "SELECT black, white, termination, black_engine, black_version, white_engine, "
                "white_version FROM games WHERE pool = ? AND status = 'finished'", (pool_id,)):
            assert {black, white} <= seated and black != white
            said = {account: (name, version) for account, name, version
                    in zip((black, white), engines[::2], engines[1::2])}
            # A client that left as its game began had no engine to answer: nothing is said.
            expected = {("olympiad-engine", "bad"), *([("", "")] if termination == "disconnect"
                                                     else [])}
            assert all(said[account] in expected for account in said
                       if account != accounts["house"]), (termination, said)
            assert said.get(accounts["house"], ("olympiad-random",))[0] == "olympiad-random"
    standings = {(pool, account): (rating, deviation, games, wins, draws, losses)
                 for pool, account, rating, deviation, games, wins, draws, losses in
                 connection.execute("SELECT pool, account, rating, deviation, games, wins, "
                                    "draws, losses FROM standings")}
    for (pool, account), glicko in replayed_ratings(database).items():
        rating, deviation, *_ = standings[pool, account]
        assert rating == pytest.approx(glicko.rating, abs=0.01)
        assert deviation == pytest.approx(glicko.deviation, abs=0.01)
    house_ratings = {rating for (rating,) in connection.execute(
        "SELECT rating FROM ratings WHERE account = ?", (accounts["house"],))}
    assert house_ratings <= {1400.0}
    for (pool, account), (_, _, games, wins, draws, losses) in standings.items():
        counted = connection.execute(
            "SELECT count(*), sum(result = 'B+' AND black = :a OR result = 'W+' AND white = :a),"
            " sum(result = '0') FROM games WHERE pool = :p AND status = 'finished' AND "
            "(black = :a OR white = :a)", {"a": account, "p": pool}).fetchone()
        assert (games, wins, draws) == (counted[0], counted[1], counted[2] or 0)
        assert losses == games - wins - draws
    connection.close()
