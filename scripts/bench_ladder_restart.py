"""How long the ladder service takes to serve again when started on a large database.

Starts ``olympiad-referee ladder serve`` on a copy-free service file naming the database made by
``scripts/bench_ladder_db.py`` (its pools of the project's games, on 127.0.0.1, free ports),
and times, from the process's start: the line saying where participants connect, the first
``hello`` welcomed, and the pages' ``/health`` answering 200. Then stops it (SIGTERM). Run it
more than once: the first run after generating the file reads it from the disk, the next from
the page cache.

    python scripts/bench_ladder_restart.py --path ladder-bench.db --runs 3
"""

from __future__ import annotations

import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import click
from websockets.sync.client import connect

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import game_names  # noqa: E402
from referee.host import wire  # noqa: E402
from referee.records.database import LadderDatabase  # noqa: E402

WAIT_SECONDS = 120.0


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


@click.command()
@click.option("--path", type=click.Path(exists=True, dir_okay=False, path_type=pathlib.Path),
              default="ladder-bench.db", show_default=True,
              help="The database (made by scripts/bench_ladder_db.py).")
@click.option("--runs", default=3, show_default=True)
def main(path: pathlib.Path, runs: int) -> None:
    """Time the service's start on a large database."""
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


if __name__ == "__main__":
    main()
