"""The ladder's database on real SQLite files: every method, a kill in the middle of writing,
readers and a backup while games are written, and a full database."""

from __future__ import annotations

import datetime
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine import Outcome, Termination
from referee.records import database
from referee.records.database import (
    DatabaseError,
    DatabaseWriteFailed,
    Ending,
    Engine,
    EngineSeen,
    GameStatus,
    InvitationUnusable,
    LadderDatabase,
    NameTaken,
    OpponentRecord,
    Rating,
    RecordError,
    Seating,
)

WRITER = Path(__file__).with_name("ladder_writer.py")
NOON = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)


@pytest.fixture
def records(tmp_path):
    with LadderDatabase(tmp_path / "ladder.db") as opened:
        yield opened


@pytest.fixture
def pool(records):
    return records.add_pool("go-9", "go", {"komi": "7"}, (9, 9), "300+5")


def account(records, name):
    return records.add_account(name, name.lower(), "hash-" + name, NOON)


def seating(pool, black, white, started=NOON, versions=("1", "1")):
    return Seating(pool.id, black.id, white.id, Engine("gnugo", versions[0]),
                   Engine("fuego", versions[1]), started)


def ending(winner, finished=NOON, plies=4, at_fault=None):
    return Ending(tuple(f"m{ply}" for ply in range(plies)), (0.5,) * plies, (0.01,) * plies,
                  Outcome(winner, Termination.NORMAL, "no moves left"), finished, at_fault)


def rated(black, white, rating):
    return [Rating(black.id, rating, 100.0, 0.06), Rating(white.id, 3000 - rating, 100.0, 0.06)]


def consistent(path) -> tuple[int, int]:
    """The finished games of a database file and twice that from its standings, after
    checking its integrity: the two agree when every game was written whole."""
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = connection.execute(
            "SELECT count(*) FROM games WHERE status = 'finished'").fetchone()[0]
        counted = connection.execute("SELECT total(games) FROM standings").fetchone()[0]
    connection.close()
    return 2 * games, int(counted)


# --- the file

def test_a_new_file_is_in_wal_mode_with_the_latest_schema(tmp_path):
    path = tmp_path / "ladder.db"
    LadderDatabase(path).close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA user_version").fetchone()[0] == len(
            database.MIGRATIONS)
    connection.close()


def test_foreign_keys_are_enforced(records, pool):
    alice = account(records, "alice")
    with pytest.raises(RecordError, match="FOREIGN KEY"):
        records.start_game(Seating(pool.id, alice.id, 999, Engine("a", "1"), Engine("b", "1"),
                                   NOON))


def test_a_later_migration_runs_once_and_keeps_the_records(tmp_path, monkeypatch):
    path = tmp_path / "ladder.db"
    with LadderDatabase(path) as records:
        account(records, "alice")
    monkeypatch.setattr(database, "MIGRATIONS", database.MIGRATIONS + (
        "ALTER TABLE accounts ADD COLUMN country TEXT; "
        "UPDATE accounts SET country = 'NL'",))
    for _ in range(2):
        with LadderDatabase(path) as records:
            assert records.account_by_name("alice").name == "alice"
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT country FROM accounts").fetchall() == [("NL",)]
        assert connection.execute("PRAGMA user_version").fetchone()[0] == len(
            database.MIGRATIONS)
    connection.close()


def test_migration_3_keeps_the_games_before_it_and_records_starts_after_it(tmp_path,
                                                                           monkeypatch):
    path = tmp_path / "ladder.db"
    with monkeypatch.context() as old:  # a file of schema 2, a game finished as it wrote them
        old.setattr(database, "MIGRATIONS", database.MIGRATIONS[:2])
        with LadderDatabase(path) as records:
            pool = records.add_pool("go-9", "go", {"komi": "7"}, (9, 9), "300+5")
            alice, bob = account(records, "alice"), account(records, "bob")
            before = records.start_game(seating(pool, alice, bob))
        with sqlite3.connect(path) as connection:
            connection.execute(
                "UPDATE games SET status = 'finished', finished = '2026-03-01 12:00:00', "
                "moves = '[\"c3\"]', times = '[500]', lag = '[10]', result = 'B+', "
                "termination = 'normal', reason = 'no moves left' WHERE id = ?", (before,))
        connection.close()
    with LadderDatabase(path) as records:
        kept = records.game(before).ending
        assert (kept.moves, kept.outcome.winner, kept.times) == (("c3",), 0, (0.5,))
        assert (kept.opening, kept.opening_plies, kept.start_options) == (None, 0, {})
        end = ending(1, plies=6)
        started = Ending(end.moves, end.times, end.lag, end.outcome, end.finished,
                         opening=3, opening_plies=2, start_options={"layout": "AB"})
        after = records.add_game(seating(pool, bob, alice), started)
        assert records.game(after).ending == started
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == len(
            database.MIGRATIONS)
    connection.close()


def test_a_newer_schema_and_a_file_that_is_no_database_are_refused(tmp_path):
    newer = tmp_path / "newer.db"
    LadderDatabase(newer).close()
    with sqlite3.connect(newer) as connection:
        connection.execute("PRAGMA user_version = 99")
    connection.close()
    with pytest.raises(DatabaseError, match="schema version 99, newer than this program's"):
        LadderDatabase(newer)
    garbage = tmp_path / "notes.db"
    garbage.write_text("not a database, just some notes\n" * 100)
    with pytest.raises(DatabaseError, match="is not a ladder database"):
        LadderDatabase(garbage)


# --- accounts

def test_accounts_are_added_and_found_by_name_and_by_key(records):
    alice = account(records, "Alice")
    assert records.account_by_name("Alice") == alice
    assert records.account_by_name("alice") is None
    assert records.account_by_key("alice") == alice
    assert records.account_by_key("bob") is None
    assert alice.password_hash == "hash-Alice" and "hash" not in repr(alice)
    with pytest.raises(NameTaken, match="the name ALICE or one like it is taken"):
        records.add_account("ALICE", "alice", "h")
    with pytest.raises(NameTaken):
        records.add_account("Alice", "other-key", "h")


def test_password_disable_and_rename_change_the_account(records):
    alice, bob = account(records, "alice"), account(records, "bob")
    records.set_password_hash(alice.id, "new-hash")
    records.set_disabled(alice.id, True)
    changed = records.account_by_name("alice")
    assert (changed.password_hash, changed.disabled) == ("new-hash", True)
    records.set_disabled(alice.id, False)
    assert not records.account_by_name("alice").disabled
    records.rename(alice.id, "alicia", "alicia")
    assert records.account_by_name("alicia").id == alice.id
    assert records.account_by_name("alice") is None
    with pytest.raises(NameTaken):
        records.rename(bob.id, "Alicia", "alicia")
    with pytest.raises(RecordError, match="no account 999"):
        records.set_disabled(999, True)


def test_changes_that_end_resume_tickets_bump_the_generation_and_a_rehash_does_not(records):
    alice, bob = account(records, "alice"), account(records, "bob")

    def generation(name):
        return records.account_by_name(name).generation

    assert alice.generation == generation("alice") == 0
    records.rehash_password(alice.id, "same password, higher cost")
    assert generation("alice") == 0
    records.set_password_hash(alice.id, "new password")
    records.set_disabled(alice.id, True)
    records.set_disabled(alice.id, False)
    records.rename(alice.id, "alicia", "alicia")
    assert generation("alicia") == 4
    records.merge(bob.id, alice.id)
    assert records.account_by_key("bob").generation == 1 and generation("alicia") == 4


def test_the_ticket_secret_is_made_once_and_replaced_on_demand(tmp_path):
    path = tmp_path / "ladder.db"
    with LadderDatabase(path) as records:
        assert records.ticket_secret(b"first") == b"first"
        assert records.ticket_secret(b"second") == b"first"
    with LadderDatabase(path) as records:  # kept in the file
        assert records.ticket_secret(b"third") == b"first"
        records.set_ticket_secret(b"rotated")
        assert records.ticket_secret(b"fourth") == b"rotated"


def test_a_file_of_schema_2_gets_generations_and_secrets_and_keeps_its_accounts(
        tmp_path, monkeypatch):
    path = tmp_path / "ladder.db"
    with monkeypatch.context() as patched:
        patched.setattr(database, "MIGRATIONS", database.MIGRATIONS[:2])
        with LadderDatabase(path) as records:
            alice = account(records, "alice")
    with LadderDatabase(path) as records:
        assert records.account_by_name("alice") == alice  # generation 0
        assert records.ticket_secret(b"made") == b"made"


def test_an_invitation_is_used_once_with_the_account_it_makes(records):
    records.add_invitation("digest")
    first = records.add_account("alice", "alice", "h", invitation_hash="digest")
    with pytest.raises(InvitationUnusable):
        records.add_account("bob", "bob", "h", invitation_hash="digest")
    with pytest.raises(InvitationUnusable):
        records.add_account("carol", "carol", "h", invitation_hash="unknown")
    assert records.account_by_name("alice") == first
    assert records.account_by_name("bob") is None and records.account_by_name("carol") is None


def test_a_merge_moves_games_and_history_and_both_names_reach_the_survivor(records, pool):
    old, new, carol, dave = (account(records, name) for name in ("old", "new", "carol", "dave"))
    records.add_game(seating(pool, old, carol), ending(0), rated(old, carol, 1600))
    records.add_game(seating(pool, carol, new), ending(0), rated(carol, new, 1700))
    records.add_game(seating(pool, new, dave), ending(None), rated(new, dave, 1450))
    records.merge(old.id, new.id)
    assert records.account_by_name("old") == records.account_by_name("new")
    assert records.account_by_name("old").id == new.id
    line = {standing.account: standing for standing in records.standings(pool.id)}
    assert set(line) == {"new", "carol", "dave"}
    assert (line["new"].games, line["new"].wins, line["new"].draws, line["new"].losses) == \
        (3, 1, 1, 1)
    assert line["new"].rating == 1450
    assert [point.rating for point in records.rating_history(new.id, pool.id)] == \
        [1600, 1300, 1450]
    assert records.results_by_opponent(new.id, pool.id) == (
        OpponentRecord("carol", 2, 1, 0, 1), OpponentRecord("dave", 1, 0, 1, 0))
    records.merge(new.id, dave.id)  # a merged name follows its survivor's merges
    assert records.account_by_name("old").id == dave.id
    with pytest.raises(RecordError, match="cannot merge account"):
        records.merge(old.id, carol.id)
    with pytest.raises(RecordError, match="cannot merge account"):
        records.merge(carol.id, carol.id)


# --- pools and games

def test_pools_are_kept_with_their_options(records):
    first = records.add_pool("go-9", "go", {"komi": "7", "rules": "area"}, (9, 9), "300+5")
    second = records.add_pool("amazons", "amazons", {}, None, "600")
    assert records.pools() == (first, second)
    assert records.pools()[0].options == {"komi": "7", "rules": "area"}
    with pytest.raises(RecordError, match="a pool is already called go-9"):
        records.add_pool("go-9", "go", {}, None, "60")


def test_a_game_goes_from_in_progress_to_finished_whole(records, pool):
    alice, bob = account(records, "alice"), account(records, "bob")
    game = records.start_game(seating(pool, alice, bob, versions=("3.8", "1.1")))
    assert [playing.id for playing in records.games_in_progress()] == [game]
    assert records.game(game).status == GameStatus.PLAYING and records.game(game).ending is None
    end = Ending(("c3", "d4", "pass"), (1.5, 2.25, 0.125), (0.02, 0.0, 0.5),
                 Outcome(1, Termination.TIMEOUT, "black ran out of time"),
                 NOON + datetime.timedelta(minutes=5), at_fault=0,
                 analysis=(None, {"score": 0.4, "pv": ["d4", "e5"]}, None))
    records.finish_game(game, end, rated(alice, bob, 1400))
    stored = records.game(game)
    assert stored.ending == end and stored.status == GameStatus.FINISHED
    assert (stored.black, stored.white) == ("alice", "bob")
    assert (stored.black_engine, stored.white_engine) == (Engine("gnugo", "3.8"),
                                                           Engine("fuego", "1.1"))
    assert records.games_in_progress() == ()
    with pytest.raises(RecordError, match=f"game {game} is not in progress"):
        records.finish_game(game, end)
    assert records.game(game + 1) is None


def test_ratings_only_for_the_players_of_the_game(records, pool):
    alice, bob, carol = (account(records, name) for name in ("alice", "bob", "carol"))
    game = records.start_game(seating(pool, alice, bob))
    with pytest.raises(RecordError, match="did not play it"):
        records.finish_game(game, ending(0), [Rating(carol.id, 1500, 350, 0.06)])
    assert records.game(game).status == GameStatus.PLAYING
    assert records.standings(pool.id) == ()


def test_abort_unfinished_leaves_games_unrated_and_off_the_pages(records, pool):
    alice, bob = account(records, "alice"), account(records, "bob")
    records.add_game(seating(pool, alice, bob), ending(0), rated(alice, bob, 1600))
    playing = [records.start_game(seating(pool, bob, alice)) for _ in range(2)]
    assert records.abort_unfinished() == 2
    assert records.abort_unfinished() == 0
    for game in playing:
        assert records.game(game).status == GameStatus.ABORTED
        assert records.game(game).abort_reason == database.ABORT_REASON
    assert len(records.recent_games()) == 1 and records.games_in_progress() == ()
    assert [standing.games for standing in records.standings(pool.id)] == [1, 1]
    with pytest.raises(RecordError):
        records.finish_game(playing[0], ending(0))


def test_standings_order_by_rating_and_leave_out_disabled_accounts(records, pool):
    alice, bob, carol = (account(records, name) for name in ("alice", "bob", "carol"))
    last = NOON + datetime.timedelta(hours=3)
    records.add_game(seating(pool, alice, bob), ending(0), rated(alice, bob, 1600))
    records.add_game(seating(pool, bob, alice), ending(0, last), rated(bob, alice, 1550))
    records.add_game(seating(pool, carol, bob), ending(None))  # an unrated game
    table = records.standings(pool.id)
    assert [(line.account, line.rating) for line in table] == [
        ("bob", 1550), ("alice", 1450), ("carol", None)]
    assert [(line.games, line.wins, line.draws, line.losses) for line in table] == [
        (3, 1, 1, 1), (2, 1, 0, 1), (1, 0, 1, 0)]
    assert [line.last_seen for line in table] == [last, last, NOON]  # latest, not last added
    records.set_disabled(bob.id, True)
    assert [line.account for line in records.standings(pool.id)] == ["alice", "carol"]


def test_an_accounts_pages(records, pool):
    alice, bob, carol = (account(records, name) for name in ("alice", "bob", "carol"))
    hour = datetime.timedelta(hours=1)
    records.add_game(seating(pool, alice, bob, NOON, ("1", "1")), ending(0, NOON),
                     rated(alice, bob, 1510))
    records.add_game(seating(pool, bob, alice, NOON, ("1", "2")), ending(0, NOON + hour),
                     rated(bob, alice, 1480))
    records.add_game(seating(pool, carol, alice, NOON, ("1", "2")), ending(None, NOON + 2 * hour),
                     rated(carol, alice, 1500))
    records.start_game(seating(pool, alice, carol))  # in progress: on none of the pages
    history = records.rating_history(alice.id, pool.id)
    assert [(point.rating, point.finished) for point in history] == [
        (1510, NOON), (1520, NOON + hour), (1500, NOON + 2 * hour)]
    assert records.results_by_opponent(alice.id, pool.id) == (
        OpponentRecord("bob", 2, 1, 0, 1), OpponentRecord("carol", 1, 0, 1, 0))
    assert records.engines_seen(alice.id) == (
        EngineSeen(Engine("fuego", "2"), 2, NOON + hour, NOON + 2 * hour),
        EngineSeen(Engine("gnugo", "1"), 1, NOON, NOON))
    recent = records.recent_games(2, account=alice.id)
    assert [(game.black, game.white) for game in recent] == [("carol", "alice"),
                                                             ("bob", "alice")]


def test_recent_games_and_the_games_of_a_day(records, pool):
    other = records.add_pool("hex", "hex", {}, (11, 11), "60")
    alice, bob = account(records, "alice"), account(records, "bob")
    midnight = datetime.datetime(2026, 3, 2, tzinfo=datetime.timezone.utc)
    second = datetime.timedelta(seconds=1)
    games = [records.add_game(seating(where, alice, bob), ending(0, finished))
             for where, finished in [(pool, midnight - second), (pool, midnight),
                                     (other, midnight + second), (pool, midnight + 2 * second),
                                     (pool, midnight + datetime.timedelta(days=1))]]
    assert [game.id for game in records.games_of_day(pool.id, midnight.date())] == [
        games[1], games[3]]
    assert [game.id for game in records.games_of_day(pool.id, NOON.date())] == [games[0]]
    assert [game.id for game in records.recent_games(3)] == [games[4], games[3], games[2]]
    assert [game.id for game in records.recent_games(2, pool=pool.id)] == [games[4], games[3]]


def test_a_batch_keeps_all_its_writes_or_none(records, pool):
    alice, bob = account(records, "alice"), account(records, "bob")
    with pytest.raises(RecordError):
        with records.batch():
            records.add_game(seating(pool, alice, bob), ending(0))
            records.finish_game(999, ending(0))
    assert records.recent_games() == ()
    with records.batch():
        for _ in range(3):
            records.add_game(seating(pool, alice, bob), ending(0))
    assert len(records.recent_games()) == 3


# --- withstanding

def test_games_whose_add_returned_survive_a_kill_in_the_middle_of_writing(tmp_path):
    path = tmp_path / "ladder.db"
    with LadderDatabase(path) as records:
        records.add_pool("go-9", "go", {}, (9, 9), "60")
        account(records, "black"), account(records, "white")
    writer = subprocess.Popen([sys.executable, str(WRITER), str(path)], stdout=subprocess.PIPE,
                              text=True)
    finished: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(finished) < 40 and time.monotonic() < deadline:
            word, game = writer.stdout.readline().split()
            if word == "finished":
                finished.append(int(game))
        time.sleep(random.uniform(0, 0.005))
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.communicate()
    assert len(finished) == 40
    twice, counted = consistent(path)
    assert twice == counted and len(finished) <= twice // 2
    with LadderDatabase(path) as records:
        records.abort_unfinished()
        for game in finished:
            assert records.game(game).status == GameStatus.FINISHED
        assert len(records.rating_history(records.account_by_name("black").id, 1)) == twice // 2


def game_writer(records, pool, count):
    """A thread adding ``count`` rated games between two new accounts, as fast as it can."""
    alice, bob = account(records, "alice"), account(records, "bob")

    def write():
        for number in range(count):
            records.add_game(seating(pool, alice, bob), ending(number % 2, plies=60),
                             rated(alice, bob, 1500 + number))

    return threading.Thread(target=write)


def test_readers_read_whole_games_while_they_are_written(records, pool):
    writer = game_writer(records, pool, 150)
    failures: list[Exception] = []
    reads = [0]

    def read():
        try:
            while writer.is_alive():
                table = records.standings(pool.id)
                assert sum(line.games for line in table) % 2 == 0
                assert all(line.wins + line.draws + line.losses == line.games for line in table)
                for game in records.recent_games(5):
                    assert len(game.ending.moves) == 60
                reads[0] += 1
        except Exception as error:  # noqa: BLE001  (handed to the test's thread)
            failures.append(error)

    readers = [threading.Thread(target=read) for _ in range(3)]
    writer.start()
    for reader in readers:
        reader.start()
    for thread in [writer, *readers]:
        thread.join(60)
    assert not failures and reads[0] > 0
    assert sum(line.games for line in records.standings(pool.id)) == 300


def test_a_backup_taken_while_games_are_written_is_whole(records, pool, tmp_path):
    writer = game_writer(records, pool, 150)
    writer.start()
    copies = []
    try:
        while writer.is_alive() or not copies:
            copy = tmp_path / f"copy-{len(copies)}.db"
            records.backup(copy)
            copies.append(copy)
    finally:
        writer.join(60)
    for copy in copies:
        twice, counted = consistent(copy)
        assert twice == counted <= 300
    with LadderDatabase(copies[-1]) as restored:
        assert len(restored.recent_games(1000)) == consistent(copies[-1])[0] // 2
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_full_database_fails_one_write_and_keeps_every_earlier_game(records, pool):
    alice, bob = account(records, "alice"), account(records, "bob")
    records.limit_size(records.path.stat().st_size + 64 * 1024)
    added = []
    with pytest.raises(DatabaseWriteFailed) as failure:
        for _ in range(1000):
            added.append(records.add_game(seating(pool, alice, bob), ending(0, plies=200),
                                          rated(alice, bob, 1600)))
    message = str(failure.value)
    assert "database or disk is full" in message and "\n" not in message
    assert added and [game.id for game in records.recent_games(1000)][::-1] == added
    assert records.games_in_progress() == ()  # nothing of the failed game was kept
    assert sum(line.games for line in records.standings(pool.id)) == 2 * len(added)
    with pytest.raises(DatabaseWriteFailed):
        records.add_game(seating(pool, alice, bob), ending(0, plies=200))
    records.limit_size(None)
    records.add_game(seating(pool, alice, bob), ending(0, plies=200), rated(alice, bob, 1600))
    twice, counted = consistent(records.path)
    assert twice == counted == 2 * (len(added) + 1)
