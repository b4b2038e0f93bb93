"""How the event server holds up with many participants: a ladder of N simulated participants
on this machine, for N in ``--sizes``.

The server is a real ``olympiad-referee event`` process (plain WebSocket on 127.0.0.1, ladder
format, Breakthrough 5x5, 60 s a side). The participants are simulated: threads in a few
client processes, each a real WebSocket client of the event protocol answering from an
in-process engine that plays a random legal move after ``--think`` seconds (so that the
server, not the engines, is what is measured; ``--think 0`` is a stress test that keeps every
core busy). After a warm-up, for ``--seconds``, it measures:

* games per hour: games started in the window (``set_game`` sent to both sides);
* server CPU per move: the server process's user + system CPU time over the window, divided
  by the moves (``genmove`` answers) played in it;
* added latency per round trip: at a client, from sending the answer to ``time_left`` to
  receiving the ``genmove`` that follows: the server's own turnaround (reading and checking
  the answer, the clock, framing, the threads) on loopback, with no engine time in it.
  Median and 95th percentile.

Then the most participants before the median latency doubles (over the smallest size), as
far as the sizes tried tell.

    nice python3 scripts/bench_event.py [--sizes 10,50,200] [--seconds 20] [--processes 4]
        [--think 0.2]
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import click  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from engine.search import Player  # noqa: E402
from protocol.cli import build_engine  # noqa: E402

WARM_UP = 3.0


def token(number: int) -> str:
    return f"bench-participant-token-{number:04d}"


def write_event(folder: Path, size: int) -> Path:
    lines = ['name = "bench"', 'game = "breakthrough"', 'boardsize = "5"', 'format = "ladder"',
             "games = 0", "time = 60", "seed = 1", 'out = "out"', "no-show = 3600",
             "[listen]", 'host = "127.0.0.1"', "port = 0", "[spectators]", "port = 0"]
    for number in range(size):
        lines += ["[[participant]]", f'name = "p{number:04d}"', f'token = "{token(number)}"']
    path = folder / "event.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def participant(url: str, number: int, start: float, end: float, think: float, out: dict,
                lock: threading.Lock) -> None:
    """One simulated participant: answers every command from an engine object, at once but
    for ``genmove``, which takes ``think`` seconds."""
    engine = build_engine(Player(algorithm="random", seed=number))
    latencies, moves, games = [], 0, 0
    answered_time_left = None
    try:
        with connect(url, compression=None, max_size=1 << 16) as connection:
            connection.send(json.dumps({"type": "hello", "token": token(number),
                                        "protocol": 1}))
            json.loads(connection.recv(timeout=30))
            while time.monotonic() < end:
                try:
                    text = connection.recv(timeout=max(0.01, end - time.monotonic()))
                except TimeoutError:
                    break
                arrived = time.monotonic()
                message = json.loads(text)
                if message["type"] != "command":
                    continue
                line = message["line"]
                in_window = start <= arrived
                if line.startswith("genmove") and answered_time_left is not None and in_window:
                    latencies.append(arrived - answered_time_left)
                began = time.monotonic()
                answer = (engine.respond(line + "\n") or "").rstrip("\n")
                if line.startswith("genmove") and think:
                    time.sleep(think)
                answered_time_left = None
                connection.send(json.dumps({"type": "answer", "id": message["id"],
                                            "text": answer,
                                            "think": time.monotonic() - began}))
                if line.startswith("time_left"):
                    answered_time_left = time.monotonic()
                if line.startswith("genmove") and in_window:
                    moves += 1
                if line.startswith("set_game") and in_window:
                    games += 1
    except Exception as error:  # noqa: BLE001 - counted, not fatal to the bench
        with lock:
            out["errors"].append(f"p{number}: {type(error).__name__}: {error}")
    with lock:
        out["latencies"] += latencies
        out["moves"] += moves
        out["games"] += games / 2  # each game's set_game goes to both of its participants


def client_process(url: str, numbers: list[int], start_at: float, end_at: float, think: float,
                   results: multiprocessing.Queue) -> None:
    """A process of simulated participants (threads), reporting through ``results``."""
    out = {"latencies": [], "moves": 0, "games": 0.0, "errors": []}
    lock = threading.Lock()
    # time.monotonic is system-wide on Linux, so the parent's instants mean the same here.
    threads = [threading.Thread(target=participant, args=(url, number, start_at, end_at, think,
                                                          out, lock), daemon=True)
               for number in numbers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(end_at - time.monotonic() + 30)
    results.put(out)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(size: int, seconds: float, processes: int, think: float) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        event = write_event(Path(folder), size)
        server = subprocess.Popen([sys.executable, "-m", "referee", "event", str(event)],
                                  cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True)
        try:
            first = server.stdout.readline()
            url = first.split("participants connect to ")[1].split(";")[0]
            start_at = time.monotonic() + WARM_UP
            end_at = start_at + seconds
            results: multiprocessing.Queue = multiprocessing.Queue()
            numbers = list(range(size))
            workers = [multiprocessing.Process(target=client_process,
                                               args=(url, numbers[index::processes], start_at,
                                                     end_at, think, results))
                       for index in range(processes)]
            for worker in workers:
                worker.start()
            time.sleep(max(0.0, start_at - time.monotonic()))
            cpu_before = cpu_seconds(server.pid)
            time.sleep(max(0.0, end_at - time.monotonic()))
            cpu_after = cpu_seconds(server.pid)
            outs = [results.get(timeout=120) for _ in workers]
            for worker in workers:
                worker.join(30)
        finally:
            server.send_signal(signal.SIGINT)
            server.send_signal(signal.SIGINT)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
    latencies = sorted(value for out in outs for value in out["latencies"])
    moves = sum(out["moves"] for out in outs)
    errors = [error for out in outs for error in out["errors"]]
    return {
        "participants": size,
        "games_per_hour": sum(out["games"] for out in outs) * 3600 / seconds,
        "moves": moves,
        "cpu_per_move_ms": 1000 * (cpu_after - cpu_before) / moves if moves else None,
        "latency_median_ms": 1000 * statistics.median(latencies) if latencies else None,
        "latency_p95_ms": (1000 * latencies[int(0.95 * (len(latencies) - 1))]
                           if latencies else None),
        "errors": errors[:3],
    }


@click.command()
@click.option("--sizes", default="10,50,200", show_default=True,
              help="Participant counts to try, comma-separated.")
@click.option("--seconds", type=float, default=20.0, show_default=True,
              help="Measured window per size (after a 3 s warm-up).")
@click.option("--processes", type=int, default=4, show_default=True,
              help="Processes the simulated participants are spread over.")
@click.option("--think", type=float, default=0.2, show_default=True,
              help="Seconds a simulated engine takes per move (0: a stress test).")
def main(sizes: str, seconds: float, processes: int, think: float) -> None:
    counts = [int(word) for word in sizes.split(",")]
    print(f"{'participants':>12} {'games/hour':>11} {'moves':>7} {'CPU/move':>9} "
          f"{'latency p50':>12} {'p95':>8}")
    rows = []
    for size in counts:
        row = measure(size, seconds, processes, think)
        rows.append(row)

        def shown(value, unit=" ms"):
            return "-" if value is None else f"{value:.2f}{unit}"

        print(f"{size:>12} {row['games_per_hour']:>11.0f} {row['moves']:>7} "
              f"{shown(row['cpu_per_move_ms']):>9} {shown(row['latency_median_ms']):>12} "
              f"{shown(row['latency_p95_ms']):>8}", flush=True)
        for error in row["errors"]:
            print(f"    error: {error}")
    base = rows[0]["latency_median_ms"]
    within = [row["participants"] for row in rows
              if base and row["latency_median_ms"] and row["latency_median_ms"] < 2 * base]
    print(f"most participants tried with under twice the latency of {rows[0]['participants']}: "
          f"{max(within) if within else '-'}")


if __name__ == "__main__":
    main()
