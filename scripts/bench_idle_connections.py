"""What connections that never log in cost the event server: its threads and memory with N
such connections open, and whether a participant still logs in meanwhile.

The server is a real ``olympiad-referee event`` process on 127.0.0.1 (plain WebSocket,
``hello`` allowed 60 s). The idle connections each make the WebSocket handshake and then say
nothing, ten from each of N/10 loopback addresses (127.0.1.1 and up, under the cap per address).
``--repo`` runs the server of another checkout of this project (an older commit, to compare).

    python scripts/bench_idle_connections.py [--counts 0,100,1000] [--repo PATH]
"""

from __future__ import annotations

import base64
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click
from websockets.sync.client import connect

REPO = Path(__file__).resolve().parents[1]
TOKEN = "token-of-the-participant-0123456789"


def start_server(repo: Path, folder: Path) -> tuple[subprocess.Popen, int]:
    event = folder / "event.toml"
    event.write_text('name = "idle"\ngame = "breakthrough"\nboardsize = "5"\ngames = 1\n'
                     'out = "out"\n[listen]\nhost = "127.0.0.1"\nport = 0\n[spectators]\n'
                     'port = 0\n[limits]\nhello = 60\n'
                     f'[[participant]]\nname = "A"\ntoken = "{TOKEN}"\n'
                     '[[participant]]\nname = "B"\ntoken = "another-token-0123456789"\n')
    server = subprocess.Popen([sys.executable, "-m", "referee", "event", str(event)],
                              cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, start_new_session=True)
    for line in server.stdout:
        if "participants connect to" in line:
            return server, int(line.split("ws://127.0.0.1:")[1].split("/")[0])
    raise SystemExit(f"the server did not start: {server.wait()}")


def idle_connection(port: int, number: int) -> socket.socket:
    raw = socket.create_connection(("127.0.0.1", port), timeout=30,
                                   source_address=(f"127.0.{1 + number // 2500}."
                                                   f"{1 + number // 10 % 250}", 0))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
    return raw


def threads_and_memory(pid: int) -> tuple[int, float]:
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    fields = dict(line.split(":", 1) for line in status)
    return int(fields["Threads"]), int(fields["VmRSS"].split()[0]) / 1024


def logs_in(port: int) -> float | None:
    """Seconds a participant takes to be welcomed, or ``None`` when refused."""
    start = time.monotonic()
    with connect(f"ws://127.0.0.1:{port}/", open_timeout=30) as connection:
        connection.send(json.dumps({"type": "hello", "token": TOKEN, "protocol": 1}))
        welcomed = json.loads(connection.recv(timeout=30))["type"] == "welcome"
    return time.monotonic() - start if welcomed else None


@click.command()
@click.option("--counts", default="0,100,1000", help="idle connections to try, in order")
@click.option("--repo", type=click.Path(path_type=Path), default=REPO,
              help="the checkout whose server runs")
def main(counts: str, repo: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"server of {repo}")
    print("| idle connections | server threads | server memory | participant logs in |")
    print("| ---: | ---: | ---: | ---: |")
    for count in (int(word) for word in counts.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            server, port = start_server(repo, Path(folder))
            idle = []
            try:
                idle = [idle_connection(port, number) for number in range(count)]
                for raw in idle:
                    raw.recv(12)
                time.sleep(1)
                threads, memory = threads_and_memory(server.pid)
                welcome = logs_in(port)
                shown = "refused" if welcome is None else f"in {welcome * 1000:.0f} ms"
                print(f"| {count:,} | {threads:,} | {memory:.0f} MiB | {shown} |", flush=True)
            finally:
                for raw in idle:
                    raw.close()
                server.kill()
                server.wait()


if __name__ == "__main__":
    main()
