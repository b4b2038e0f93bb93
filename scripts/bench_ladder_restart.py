"""What a restart of the ladder service costs: its start on a large database, and the logins
of the participants coming back.

``--path FILE``: starts ``olympiad-referee ladder serve`` on a copy-free service file naming the
database made by ``scripts/bench_ladder_db.py`` (its pools of the project's games, on
127.0.0.1, free ports), and times, from the process's start: the line saying where participants
connect, the first ``hello`` welcomed, and the pages' ``/health`` answering 200. Then stops it
(SIGTERM). Run it more than once: the first run after generating the file reads it from the
disk, the next from the page cache.

``--participants N``: a service of one Clobber pool on a fresh database, and N simulated
participants in this process (one asyncio WebSocket connection each, from an address of its
own in 127.0.0.0/8, as participants come from many machines; each plays uniformly random legal
moves after a pause of 0 to twice ``--think`` seconds). They first log in 16 at a time (making
their accounts); then the server is stopped (SIGTERM, or SIGKILL with ``--kill``) and started
again on the same port, twice: the first time the participants come back with the resume
tickets of their last login, the second time with their passwords (as clients did before
tickets). They come back as ``olympiad-referee connect`` does: all at once, each waiting
:data:`~referee.host.client.CONNECT_SECONDS` for the server's answer to its hello and trying
again after :data:`~referee.host.client.FIRST_BACKOFF` seconds (with jitter) when the
connection drops or the answer does not come. For each restart it prints the seconds from the
new process's start until every participant was welcomed again, the server's CPU seconds
(user + system, from ``/proc``) over that time (and how much of it went before the server
listened), its resident memory then, and the hellos it took.

    python scripts/bench_ladder_restart.py --path ladder-bench.db --runs 3
    python scripts/bench_ladder_restart.py --participants 1000
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import pathlib
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import click
from websockets.asyncio.client import connect as connect_async
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_ladder import cpu_seconds, load, resident_mib, start_server  # noqa: E402
from engine import game_names  # noqa: E402
from engine.search import Player  # noqa: E402
from protocol.cli import build_engine  # noqa: E402
from referee.host import wire  # noqa: E402
from referee.host.client import CONNECT_SECONDS, FIRST_BACKOFF, MOST_BACKOFF  # noqa: E402
from referee.records.database import LadderDatabase  # noqa: E402

WAIT_SECONDS = 120.0
FIRST_LOGINS_AT_ONCE = 16
PASSWORD = "bench-password"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def service_file(folder: pathlib.Path, database: pathlib.Path) -> tuple[pathlib.Path, int,
                                                                        int, str]:
    """A service file serving the database's pools of the project's games: its path, the
    participants' and the pages' ports, and a pool's name."""
    with LadderDatabase(database) as records:
        pools = [pool for pool in records.pools() if pool.game in game_names()]
    if not pools:
        raise click.UsageError(f"{database} has no pool of the project's games")
    port, pages = free_port(), free_port()
    lines = ['name = "Restart bench"', f"database = {json.dumps(str(database))}",
             "[listen]", 'host = "127.0.0.1"', f"port = {port}",
             "[pages]", 'host = "127.0.0.1"', f"port = {pages}"]
    for pool in pools:
        main, _, increment = pool.time_control.partition("+")
        lines += ["[[pool]]", f'name = "{pool.name}"', f'game = "{pool.game}"',
                  f"time = {main}", f"increment = {increment or 0}"]
    path = folder / "ladder.toml"
    path.write_text("\n".join(lines) + "\n")
    return path, port, pages, pools[0].name


def until(check, began: float) -> float:
    """Seconds from ``began`` until ``check()`` is true (polled every 10 ms)."""
    while time.monotonic() - began < WAIT_SECONDS:
        try:
            if check():
                return time.monotonic() - began
        except OSError:
            pass
        time.sleep(0.01)
    raise click.ClickException(f"not serving after {WAIT_SECONDS:g} s")


def welcomed(port: int, pool: str) -> bool:
    with connect(f"ws://127.0.0.1:{port}/", open_timeout=5) as connection:
        connection.send(wire.encode("hello", protocol=wire.PROTOCOL, pool=pool,
                                    name="bench-restart", password="bench"))
        return json.loads(connection.recv(timeout=30))["type"] == "welcome"


def healthy(pages: int) -> bool:
    with urllib.request.urlopen(f"http://127.0.0.1:{pages}/health", timeout=5) as answer:
        return answer.status == 200


def time_start(path: pathlib.Path, runs: int) -> None:
    """Time the service's start on the large database at ``path``, ``runs`` times."""
    with LadderDatabase(path) as records:
        games = sum(standing.games for pool in records.pools()
                    for standing in records.standings(pool.id)) // 2
    click.echo(f"{path}: {games:,} finished games, {path.stat().st_size / 2**20:,.0f} MiB")
    with tempfile.TemporaryDirectory() as folder:
        settings, port, pages, pool = service_file(pathlib.Path(folder), path.resolve())
        for run in range(1, runs + 1):
            began = time.monotonic()
            server = subprocess.Popen([sys.executable, "-m", "referee", "ladder", "serve",
                                       str(settings)], stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, cwd=folder,
                                      start_new_session=True)
            try:
                line = server.stdout.readline()
                announced = time.monotonic() - began
                if "participants connect to" not in line:
                    raise click.ClickException(f"the server did not start: {line.strip()}")
                hello = until(lambda: welcomed(port, pool), began)
                health = until(lambda: healthy(pages), began)
            finally:
                server.send_signal(signal.SIGTERM)
                try:
                    server.wait(60)
                except subprocess.TimeoutExpired:
                    os.killpg(server.pid, signal.SIGKILL)
                    server.wait()
            click.echo(f"run {run}: announced {announced:.2f} s, first hello welcomed "
                       f"{hello:.2f} s, /health 200 {health:.2f} s")


# A restart's logins: the participants, simulated in one asyncio loop on a thread of its own.


class Crowd:
    """The simulated participants and what they saw: who was welcomed in each round (a round
    per server run), how many hellos they sent, and whether they present their tickets."""

    def __init__(self, url: str, participants: int, think: float) -> None:
        self.url = url
        self.participants = participants
        self.think = think
        self.round = 0
        self.use_tickets = True
        self.back: list[set[int]] = [set()]
        self.hellos = [0]
        self.refusals: collections.Counter = collections.Counter()
        self.lock = threading.Lock()

    def start(self) -> None:
        """Start the participants, on a thread of their own (ended with the script)."""
        threading.Thread(target=lambda: asyncio.run(self._all()), daemon=True).start()

    def next_round(self, use_tickets: bool) -> None:
        with self.lock:
            self.round += 1
            self.back.append(set())
            self.hellos.append(0)
            self.use_tickets = use_tickets

    def count_back(self) -> int:
        with self.lock:
            return len(self.back[self.round])

    async def _all(self) -> None:
        first_logins = asyncio.Semaphore(FIRST_LOGINS_AT_ONCE)
        await asyncio.gather(*(self._participant(number, first_logins)
                               for number in range(self.participants)))

    async def _participant(self, number: int, first_logins: asyncio.Semaphore) -> None:
        """One participant for as long as the script runs: logs in, plays, and comes back
        after every drop as the real client does (backoff doubling while it cannot connect,
        from the first again once it can)."""
        engine = build_engine(Player(algorithm="random", seed=number))
        pauses = random.Random(number)
        address = (f"127.1.{number // 250}.{number % 250 + 1}", 0)
        ticket, backoff = None, FIRST_BACKOFF
        async with first_logins:
            connection, ticket, reached = await self._log_in(number, ticket, address)
        while True:
            if connection is not None:
                await self._play(connection, engine, pauses)
            backoff = FIRST_BACKOFF if reached else min(2 * backoff, MOST_BACKOFF)
            await asyncio.sleep(backoff * random.uniform(0.75, 1.25))
            connection, ticket, reached = await self._log_in(number, ticket, address)

    async def _log_in(self, number: int, ticket: str | None, address: tuple[str, int]):
        """A connection welcomed by the server (``None`` if refused, dropped or not answered
        in time), the ticket the participant holds then, and whether it reached the server.
        The hello has the ticket in place of the password if there is one and the round uses
        tickets."""
        fields = {"pool": "clobber", "name": f"bench-{number:04d}"}
        if ticket and self.use_tickets:
            fields["ticket"] = ticket
        else:
            fields["password"] = PASSWORD
            if self.use_tickets:
                fields["ticket"] = ""
        try:
            connection = await connect_async(self.url, compression=None,
                                             max_size=wire.MAX_MESSAGE_BYTES,
                                             open_timeout=CONNECT_SECONDS, local_addr=address)
        except (OSError, InvalidHandshake, TimeoutError):
            return None, ticket, False
        try:
            with self.lock:
                self.hellos[self.round] += 1
            await connection.send(wire.encode("hello", protocol=wire.PROTOCOL, **fields))
            reply = json.loads(await asyncio.wait_for(connection.recv(), CONNECT_SECONDS))
        except (ConnectionClosed, TimeoutError):
            await connection.close()
            return None, ticket, True
        if reply["type"] != "welcome":
            await connection.close()
            if reply.get("retry") != "password":
                self.refusals[reply.get("reason")] += 1
            return None, None, True
        with self.lock:
            self.back[self.round].add(number)
        return connection, reply.get("ticket"), True

    async def _play(self, connection, engine, pauses: random.Random) -> None:
        """Answer the server's commands until the connection closes."""
        try:
            async for text in connection:
                message = json.loads(text)
                if message["type"] != "command":
                    continue
                line = message["line"]
                answer = (engine.respond(line + "\n") or "").rstrip("\n")
                if line.startswith("genmove"):
                    await asyncio.sleep(pauses.uniform(0, 2 * self.think))
                await connection.send(wire.encode("answer", id=message["id"], text=answer))
        except ConnectionClosed:
            pass


def storm_service(folder: pathlib.Path) -> pathlib.Path:
    """The service file of one Clobber pool on a free port of 127.0.0.1, no pages."""
    lines = ['name = "Restart bench"', 'database = "ladder.db"', "grace = 60",
             "[listen]", 'host = "127.0.0.1"', f"port = {free_port()}", "[pages]", "port = 0",
             "[[pool]]", 'name = "clobber"', 'game = "clobber"', 'boardsize = "6x5"',
             "time = 300", "increment = 5"]
    path = folder / "ladder.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def wait_back(crowd: Crowd, server: subprocess.Popen, began: float, wait: float) -> float:
    """Seconds from ``began`` until every participant is welcomed in this round (or ``wait``
    passed: then as long as that)."""
    while crowd.count_back() < crowd.participants:
        if server.poll() is not None:
            raise click.ClickException("the server ended")
        if time.monotonic() - began > wait:
            break
        time.sleep(0.05)
    return time.monotonic() - began


def storm(participants: int, think: float, kill: bool, wait: float) -> None:
    """The restart's logins: see the module docstring."""
    with tempfile.TemporaryDirectory(prefix="bench-restart-") as name:
        folder = pathlib.Path(name)
        service = storm_service(folder)
        server, url = start_server(service, folder / "server-0.log")
        crowd = Crowd(url, participants, think)
        try:
            began = time.monotonic()
            crowd.start()
            wait_back(crowd, server, began, wait)
            click.echo(f"{participants} participants: first logins (making the accounts, "
                       f"{FIRST_LOGINS_AT_ONCE} at a time) {time.monotonic() - began:.0f} s, "
                       f"{cpu_seconds(server.pid):.0f} s of server CPU; server "
                       f"{resident_mib(server.pid):.0f} MiB; load {load()}")
            for run, use_tickets in enumerate((True, False), start=1):
                time.sleep(5)  # games under way
                if kill:
                    server.kill()
                else:
                    server.terminate()
                server.wait(60)
                crowd.next_round(use_tickets)
                began = time.monotonic()
                server, _ = start_server(service, folder / f"server-{run}.log")
                starting = cpu_seconds(server.pid)
                seconds = wait_back(crowd, server, began, wait)
                cpu, memory = cpu_seconds(server.pid), resident_mib(server.pid)
                back = crowd.count_back()
                click.echo(f"restart ({'SIGKILL' if kill else 'SIGTERM'}), back with "
                           f"{'tickets' if use_tickets else 'passwords'}: {back} of "
                           f"{participants} in {seconds:.1f} s, {cpu:.1f} s of server CPU "
                           f"({starting:.1f} s of it until it listened), server "
                           f"{memory:.0f} MiB, {crowd.hellos[run]} hellos; load {load()}")
        finally:
            server.kill()
            server.wait(60)
        for reason, count in crowd.refusals.most_common(5):
            click.echo(f"refused {count} times: {reason}")


@click.command()
@click.option("--path", type=click.Path(exists=True, dir_okay=False, path_type=pathlib.Path),
              help="A large database (made by scripts/bench_ladder_db.py): time the start on it.")
@click.option("--runs", default=3, show_default=True, help="Starts to time on --path.")
@click.option("--participants", type=click.IntRange(0, 60000), default=0,
              help="Time the logins of this many participants coming back after a restart.")
@click.option("--think", type=float, default=2.0, show_default=True,
              help="Mean seconds a simulated engine takes per move (uniform from 0 to twice).")
@click.option("--kill", is_flag=True, help="Stop the server with SIGKILL, as a crash would.")
@click.option("--wait", type=float, default=300.0, show_default=True,
              help="Seconds to wait for everyone to be back after a restart.")
def main(path: pathlib.Path | None, runs: int, participants: int, think: float, kill: bool,
         wait: float) -> None:
    """Time the service's restart: its start on a large database, its participants' logins."""
    if path is None and not participants:
        raise click.UsageError("give --path FILE (the start on a large database), "
                               "--participants N (the logins after a restart), or both")
    if path is not None:
        time_start(path, runs)
    if participants:
        storm(participants, think, kill, wait)


if __name__ == "__main__":
    main()
