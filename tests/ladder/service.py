"""What the ladder service's tests share: a service file, real participants' clients and a
way to read the database a running server writes.

Everything runs on 127.0.0.1: the server (in the test's process or as an ``olympiad-referee
ladder serve`` process), the clients (real ``olympiad-referee connect`` processes) and their
engines.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from referee.records.database import LadderDatabase

from ..event.helpers import REPO, Process, _toml, referee

POOLS = {
    "clobber": {"game": "clobber", "boardsize": "5x4", "time": 10},
    "domineering": {"game": "domineering", "boardsize": "5x5", "time": 10},
    "breakthrough": {"game": "breakthrough", "boardsize": "5", "time": 10},
}


def write_ladder(folder: Path, pools: dict[str, dict[str, Any]] = POOLS,
                 anchors: tuple[dict[str, Any], ...] = (), port: int = 0, pages: int = 0,
                 tls: bool = False, **settings: Any) -> Path:
    """A service file in ``folder`` (its database beside it), pages on port ``pages`` (0:
    none)."""
    lines = [f"{key} = {_toml(value)}" for key, value in
             {"name": "Test ladder", "database": "ladder.db", "grace": 5, **settings}.items()]
    lines += ["[listen]", 'host = "127.0.0.1"', f"port = {port}"]
    if tls:
        lines += ['certificate = "cert.pem"', 'key = "key.pem"']
    lines += ["[pages]", f"port = {pages}"]
    for name, pool in pools.items():
        lines += ["[[pool]]", f'name = "{name}"',
                  *(f"{key} = {_toml(value)}" for key, value in pool.items())]
    for anchor in anchors:
        lines += ["[[anchor]]", *(f"{key} = {_toml(value)}" for key, value in anchor.items())]
    path = folder / "ladder.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def password_of(name: str) -> str:
    return f"password of {name}"


def join(url: str, pool: str, name: str, engine: str, ca: Path | None = None) -> Process:
    """A participant's client: ``name`` (its password from :func:`password_of`) in ``pool``."""
    words = ["connect", url, "--pool", pool, "--name", name, "--engine", engine]
    if ca is not None:
        words += ["--ca", str(ca)]
    return referee(*words, cwd=REPO, env={"OLYMPIAD_PASSWORD": password_of(name)})


def serve(service_file: Path) -> tuple[Process, str]:
    """The service as a process, and the address it says participants connect to."""
    server = referee("ladder", "serve", str(service_file), cwd=service_file.parent)
    url = server.wait_for(r"participants connect to (\S+);").group(1)
    return server, url


def finished_games(path: Path) -> int:
    """How many games the database at ``path`` holds as finished (read beside the server)."""
    with LadderDatabase(path) as records:
        return sum(standing.games for pool in records.pools()
                   for standing in records.standings(pool.id)) // 2


def wait_until(condition, seconds: float = 60.0, every: float = 0.2) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"not so within {seconds} s")
        time.sleep(every)
