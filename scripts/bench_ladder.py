#!/usr/bin/env python3
"""What the ladder service costs with many participants: ``--participants`` simulated engines
over ``--pools`` pools for ``--seconds``, against a real ``olympiad-referee ladder serve``.

    nice python3 scripts/bench_ladder.py                          # 1,000 over 10 pools, 600 s
    nice python3 scripts/bench_ladder.py --participants 100 --seconds 60

The service file is written into a temporary folder: the first ``--pools`` of the ten games on
small boards (:data:`POOLS`), a short clock, plain WebSocket on 127.0.0.1 (port 0), no pages.
The server is its own process, so that its CPU time and memory, read from ``/proc``, are its
alone; it is stopped with SIGTERM at the end, and everything the script started is ended on
Ctrl-C too.

The participants are simulated in ``--processes`` client processes, each an asyncio loop with
one WebSocket connection per participant (the ``websockets`` client), which logs in (``hello``
with its pool, a name and a password: the first login makes the account, as a new participant
does) and answers every ``command`` from an in-process engine that plays a uniformly random
legal move (the project's own rules, :func:`protocol.cli.build_engine`) after a pause drawn
uniformly from 0 to twice ``--think`` seconds (reported as the engine's think time).

**Logins** are the real ones, at the server's scrypt cost (about 0.1 s of CPU each), at most
``--logins-at-once`` per client process in flight (a burst would meet the door's cap on
connections not yet logged in from one address). Accounts are not made beforehand at a lower
cost: the service stores a cheaper hash again at its own cost on the next login, so that would
move the cost, not save it. The logins are a phase of their own, measured apart (their wall
time and server CPU); the measured window starts ``WARM_UP`` seconds after the last welcome.

In the window it measures:

* games per hour: games begun in it (``set_game`` sent to both sides, halved);
* the latency the server adds to a move: at a client, from sending the answer to
  ``time_left`` to receiving the ``genmove`` that follows (reading and checking the answer,
  the clock, the next command, two loopback hops; no engine time). p50 and p95;
* server CPU per move (user + system over the window, per ``genmove`` answered);
* the clients' CPU (their sum, as a share of one core), to show they left the server room;
* the server's resident memory, printed every ``--sample`` seconds with its CPU share;

Afterwards, with the server stopped, it reads the database (through
:class:`~referee.records.database.LadderDatabase`): the games finished and how they ended, and
the file's size per finished game (the write-ahead log is folded in when the server closes it;
the accounts and the aborted games are in the size too, a small share). It sorts the server
log's lines (games, connections, the rest) and shows the first of the rest.
"""

from __future__ import annotations

import asyncio
import collections
import datetime
import json
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import click  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from engine.search import Player  # noqa: E402
from protocol.cli import build_engine  # noqa: E402
from referee.records.database import LadderDatabase  # noqa: E402

# The pools, in the order they are taken: a name, the game and the service file's lines for
# its board and move limit (small boards and a limit, so that random games are short).
POOLS = (
    ("breakthrough", "breakthrough", ['boardsize = "6x6"']),
    ("clobber", "clobber", ['boardsize = "6x5"']),
    ("domineering", "domineering", ['boardsize = "6x6"']),
    ("knightthrough", "knightthrough", ['boardsize = "6x6"']),
    ("argon", "argon", ['boardsize = "5x5"', "max-moves = 120"]),
    ("laocoon", "laocoon", ["max-moves = 120"]),
    ("cookiedisco", "cookiedisco", ["max-moves = 120"]),
    ("kolem", "kolem", ["max-moves = 120"]),
    ("surakarta", "surakarta", ["max-moves = 120"]),
    ("loa", "loa", ["max-moves = 120"]),
)
WARM_UP = 5.0
PASSWORD = "bench-password"
NEVER = float("inf")


@dataclass(frozen=True)
class Plan:
    """What the client processes are told: where, who, how fast, and the window (set by the
    parent once everyone is in, in shared memory)."""

    url: str
    pools: tuple[str, ...]
    think: float
    logins_at_once: int


def write_service(folder: Path, pools: int, clock: tuple[float, float]) -> Path:
    """The service file for the first ``pools`` of :data:`POOLS`, in ``folder``."""
    lines = ['name = "bench"', 'database = "ladder.db"', "grace = 5",
             "[listen]", 'host = "127.0.0.1"', "port = 0", "[pages]", "port = 0"]
    for name, game, extra in POOLS[:pools]:
        lines += ["[[pool]]", f'name = "{name}"', f'game = "{game}"', f"time = {clock[0]:g}",
                  f"increment = {clock[1]:g}", *extra]
    path = folder / "ladder.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def start_server(service: Path, log: Path) -> tuple[subprocess.Popen, str]:
    """The service as a process of its own, and the address participants connect to (from
    its first line); its log goes to ``log``."""
    with log.open("w") as log_file:
        server = subprocess.Popen(
            [sys.executable, "-m", "referee", "ladder", "serve", str(service)],
            cwd=service.parent, stdout=subprocess.PIPE, stderr=log_file, text=True)
    try:
        first = server.stdout.readline()
        if "participants connect to " not in first:
            raise click.ClickException(f"the server did not start: "
                                       f"{first.strip() or log.read_text().strip()}")
    except BaseException:  # Ctrl-C included
        stop(server)
        raise
    return server, first.split("participants connect to ")[1].split(";")[0]


def stop(process: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL if it is not gone within 30 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# The client side: one asyncio loop per process, one coroutine per participant.


class Tally:
    """One client process's counts in the window."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.set_games = 0
        self.errors: list[str] = []


async def log_in(url: str, pool: str, number: int):
    """A connection of participant ``number``, logged in to ``pool`` (its account made by
    its first login); raises if refused."""
    connection = await connect(url, compression=None, max_size=1 << 16, open_timeout=60)
    try:
        await connection.send(json.dumps({"type": "hello", "protocol": 1, "pool": pool,
                                          "name": f"bench-{number:04d}",
                                          "password": PASSWORD}))
        reply = json.loads(await connection.recv())
        if reply["type"] != "welcome":
            raise RuntimeError(f"login refused: {reply.get('reason')}")
    except BaseException:
        await connection.close()
        raise
    return connection


async def participant(plan: Plan, number: int, window, logins: asyncio.Semaphore,
                      welcomed, tally: Tally) -> None:
    """Participant ``number``: logs in to its pool, then answers every command until the
    window's end."""
    engine = build_engine(Player(algorithm="random", seed=number))
    pauses = random.Random(number)
    pool = plan.pools[number % len(plan.pools)]
    answered_time_left = None
    async with logins:
        connection = await log_in(plan.url, pool, number)
    async with connection:
        with welcomed.get_lock():
            welcomed.value += 1
        while time.monotonic() < window[1]:
            try:
                text = await asyncio.wait_for(connection.recv(),
                                              max(0.01, window[1] - time.monotonic()))
            except TimeoutError:
                break
            arrived = time.monotonic()
            message = json.loads(text)
            if message["type"] != "command":
                continue
            line = message["line"]
            counted = window[0] <= arrived < window[1]
            if line.startswith("genmove") and answered_time_left is not None and counted:
                tally.latencies.append(arrived - answered_time_left)
            answered_time_left = None
            answer = (engine.respond(line + "\n") or "").rstrip("\n")
            think = time.monotonic() - arrived
            if line.startswith("genmove"):
                pause = pauses.uniform(0, 2 * plan.think)
                await asyncio.sleep(pause)
                think += pause
                tally.moves += counted
            tally.set_games += counted and line.startswith("set_game")
            await connection.send(json.dumps({"type": "answer", "id": message["id"],
                                              "text": answer, "think": think}))
            if line.startswith("time_left"):
                answered_time_left = time.monotonic()


async def simulate(plan: Plan, numbers: list[int], window, welcomed) -> Tally:
    tally = Tally()
    logins = asyncio.Semaphore(plan.logins_at_once)
    results = await asyncio.gather(
        *(participant(plan, number, window, logins, welcomed, tally) for number in numbers),
        return_exceptions=True)
    tally.errors = [f"{type(error).__name__}: {error}" for error in results
                    if isinstance(error, BaseException)]
    return tally


def client_process(plan: Plan, numbers: list[int], window, welcomed,
                   results: multiprocessing.Queue) -> None:
    """A process of simulated participants, reporting its :class:`Tally` through
    ``results``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends it
    tally = asyncio.run(simulate(plan, numbers, window, welcomed))
    results.put((tally.latencies, tally.moves, tally.set_games, tally.errors))


# Measuring from /proc.


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mib(pid: int) -> float:
    """Resident memory of process ``pid`` (``VmRSS``), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# The run.


def wait_for_logins(welcomed, participants: int, server: subprocess.Popen,
                    workers: list[multiprocessing.Process]) -> None:
    """Until every participant is welcomed (or a client process or the server has ended)."""
    while welcomed.value < participants:
        if server.poll() is not None or not any(worker.is_alive() for worker in workers):
            raise click.ClickException(f"{welcomed.value} of {participants} logged in, then "
                                       f"the server or the clients ended")
        time.sleep(0.2)


def sample(server: int, since: float, cpu_before: float, end: float, every: float) -> None:
    """Print the server's memory and CPU share every ``every`` seconds until ``end``."""
    last_time, last_cpu = since, cpu_before
    while time.monotonic() < end:
        time.sleep(max(0.0, min(every, end - time.monotonic())))
        now, cpu = time.monotonic(), cpu_seconds(server)
        print(f"  {now - since:5.0f} s: server {resident_mib(server):6.1f} MiB, "
              f"{100 * (cpu - last_cpu) / (now - last_time):3.0f} % CPU; load {load()}",
              flush=True)
        last_time, last_cpu = now, cpu


def finished_games(database: Path, since: datetime.datetime) -> collections.Counter:
    """How the games finished since ``since`` ended, by termination."""
    ended: collections.Counter = collections.Counter()
    with LadderDatabase(database) as records:
        days = {since.date(), datetime.datetime.now(datetime.timezone.utc).date()}
        for pool in records.pools():
            for day in days:
                for game in records.games_of_day(pool.id, day):
                    if game.ending.finished >= since:
                        ended[game.ending.outcome.termination.value] += 1
    return ended


def run(participants: int, pools: int, seconds: float, processes: int, think: float,
        clock: tuple[float, float], logins_at_once: int, every: float) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-ladder-") as name:
        folder = Path(name)
        server, url = start_server(write_service(folder, pools, clock), folder / "server.log")
        workers: list[multiprocessing.Process] = []
        try:
            began = datetime.datetime.now(datetime.timezone.utc)
            window = multiprocessing.RawArray("d", [NEVER, NEVER])
            welcomed = multiprocessing.Value("i", 0)
            results: multiprocessing.Queue = multiprocessing.Queue()
            plan = Plan(url, tuple(name for name, _, _ in POOLS[:pools]), think, logins_at_once)
            numbers = list(range(participants))
            print(f"{participants} participants over {pools} pools, {processes} client "
                  f"processes, think 0 to {2 * think:g} s, clock {clock[0]:g} s + {clock[1]:g} s; "
                  f"server {resident_mib(server.pid):.1f} MiB; load {load()}", flush=True)
            workers = [multiprocessing.Process(target=client_process,
                                               args=(plan, numbers[index::processes], window,
                                                     welcomed, results), daemon=True)
                       for index in range(processes)]
            login_began, login_cpu = time.monotonic(), cpu_seconds(server.pid)
            for worker in workers:
                worker.start()
            wait_for_logins(welcomed, participants, server, workers)
            print(f"logins: {participants} in {time.monotonic() - login_began:.0f} s, "
                  f"{cpu_seconds(server.pid) - login_cpu:.0f} s of server CPU; server "
                  f"{resident_mib(server.pid):.1f} MiB", flush=True)
            window[0] = time.monotonic() + WARM_UP
            window[1] = window[0] + seconds
            time.sleep(WARM_UP)
            server_before = cpu_seconds(server.pid)
            clients_before = sum(cpu_seconds(worker.pid) for worker in workers)
            sample(server.pid, window[0], server_before, window[1], every)
            server_cpu = cpu_seconds(server.pid) - server_before
            clients_cpu = sum(cpu_seconds(worker.pid) for worker in workers) - clients_before
            tallies = [results.get(timeout=120) for _ in workers]
        finally:
            for worker in workers:
                if worker.is_alive():
                    worker.terminate()
                worker.join(10)
            stop(server)
        log = (folder / "server.log").read_text().splitlines()
        database = folder / "ladder.db"
        report(tallies, seconds, server_cpu, clients_cpu, database.stat().st_size,
               finished_games(database, began), log)


def report(tallies: list, seconds: float, server_cpu: float, clients_cpu: float, size: int,
           ended: collections.Counter, log: list[str]) -> None:
    latencies = sorted(value for tally in tallies for value in tally[0])
    moves = sum(tally[1] for tally in tallies)
    games = sum(tally[2] for tally in tallies) / 2
    errors = [error for tally in tallies for error in tally[3]]
    print(f"in {seconds:g} s: {games:.0f} games begun ({games * 3600 / seconds:,.0f} an hour), "
          f"{moves:,} moves ({moves / seconds:.0f} a second)")
    if latencies:
        cuts = statistics.quantiles(latencies, n=20)
        print(f"added latency per move: p50 {1000 * statistics.median(latencies):.2f} ms, "
              f"p95 {1000 * cuts[18]:.2f} ms over {len(latencies):,} moves "
              f"(targets: 2 ms, 20 ms)")
    if moves:
        print(f"server CPU: {1000 * server_cpu / moves:.2f} ms a move "
              f"({100 * server_cpu / seconds:.0f} % of a core); clients' CPU: "
              f"{100 * clients_cpu / seconds:.0f} % of a core")
    finished = sum(ended.values())
    print(f"games finished since the start: {finished:,} ("
          + ", ".join(f"{count:,} {how}" for how, count in ended.most_common()) + ")")
    if finished:
        print(f"database: {size / 2 ** 20:.1f} MiB, {size / finished:,.0f} bytes a game")
    connections = [line for line in log if line.endswith(" disconnected")
                   or " connected from " in line]
    other = [line for line in log if " - " not in line and line not in connections]
    print(f"server log: {len(log) - len(connections) - len(other):,} games, "
          f"{len(connections):,} connections and disconnections, {len(other)} other lines"
          + "".join(f"\n    {line}" for line in other[:5]))
    for error in errors[:5]:
        print(f"client error: {error}")


@click.command()
@click.option("--participants", default=1000, show_default=True)
@click.option("--pools", type=click.IntRange(1, len(POOLS)), default=len(POOLS),
              show_default=True, help="How many of the ten pools (games) to use.")
@click.option("--seconds", type=float, default=600.0, show_default=True,
              help="The measured window, after the logins and a 5 s warm-up.")
@click.option("--processes", type=click.IntRange(1), default=2, show_default=True,
              help="Client processes the participants are spread over.")
@click.option("--think", type=float, default=1.0, show_default=True,
              help="Mean seconds a simulated engine takes per move (uniform from 0 to twice).")
@click.option("--time", "main_time", type=float, default=60.0, show_default=True,
              help="Each side's clock (seconds).")
@click.option("--increment", type=float, default=1.0, show_default=True)
@click.option("--logins-at-once", type=click.IntRange(1), default=8, show_default=True,
              help="Logins in flight per client process.")
@click.option("--sample", "every", type=float, default=60.0, show_default=True,
              help="Seconds between the server's memory samples.")
def main(participants: int, pools: int, seconds: float, processes: int, think: float,
         main_time: float, increment: float, logins_at_once: int, every: float) -> None:
    run(participants, pools, seconds, processes, think, (main_time, increment), logins_at_once,
        every)


if __name__ == "__main__":
    main()
