"""What the event tests share: event files, a self-signed certificate made on the spot, and
server and client processes whose output the test can wait for.

Everything runs on 127.0.0.1: the server, the clients (real ``olympiad-referee connect``
processes) and their engines (real ``olympiad-engine`` processes or the scripted bad engine).
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..processes import interruptible

PYTHON = shlex.quote(sys.executable)
REPO = Path(__file__).resolve().parents[2]
RANDOM_ENGINE = f"{PYTHON} -m protocol.cli --algorithm random"
BAD_ENGINE = f"{PYTHON} {shlex.quote(str(REPO / 'tests/referee/bad_engine.py'))}"
# An engine slow enough (50 ms a move) for a test to act in the middle of a game.
SLOW_ENGINE = f"{BAD_ENGINE} --stall genmove=0.05"
NAMES = ("Alpha", "Beta", "Gamma", "Delta", "Epsilon")


def token_of(name: str) -> str:
    return f"secret-token-of-{name.lower()}-0123456789"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_certificate(folder: Path, names: tuple[str, ...] = ("localhost", "127.0.0.1"),
                     days: float = 60.0, start_days: float = -1.0) -> tuple[Path, Path]:
    """A self-signed certificate for ``names`` (DNS names and IP addresses), valid from
    ``start_days`` to ``days`` days from now, and its key (PEM files ``cert.pem`` and
    ``key.pem``)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now + datetime.timedelta(days=start_days))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName([_general_name(x509, each)
                                                    for each in names]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def _general_name(x509: Any, name: str) -> Any:
    """``name`` as a subject alternative name: an IP address, else a DNS name."""
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def _toml(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + " }"
    return json.dumps(value) if not isinstance(value, bool) else str(value).lower()


def write_event(folder: Path, names: tuple[str, ...] = NAMES[:2], tls: bool = False,
                port: int = 0, listen: dict | None = None, lag: dict | None = None,
                limits: dict | None = None, **settings: Any) -> Path:
    """An event file in ``folder``: a quick Breakthrough on 5x5 by default."""
    values = {"name": "Test event", "game": "breakthrough", "boardsize": "5", "time": 20,
              "games": 2, "seed": 1, "out": "out", **settings}
    lines = [f"{key.replace('_', '-')} = {_toml(value)}" for key, value in values.items()]
    where = {"host": "127.0.0.1", "port": port, **(listen or {})}
    if tls:
        make_certificate(folder)
        where.update(certificate="cert.pem", key="key.pem")
    lines += ["[listen]", *(f"{key} = {_toml(value)}" for key, value in where.items())]
    lines += ["[spectators]", "port = 0"]
    if lag:
        lines += ["[lag]", *(f"{key} = {_toml(value)}" for key, value in lag.items())]
    if limits:
        lines += ["[limits]", *(f"{key} = {_toml(value)}" for key, value in limits.items())]
    for name in names:
        lines += ["[[participant]]", f'name = "{name}"', f'token = "{token_of(name)}"']
    path = folder / "event.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


class Process:
    """A child process whose output lines (both streams) are collected as they come; ``env``
    adds to the environment it inherits."""

    def __init__(self, argv: list[str], cwd: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.argv = argv
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self.popen = subprocess.Popen(argv, cwd=cwd, env={**os.environ, **(env or {})},
                                      stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True,
                                      start_new_session=True, preexec_fn=interruptible)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.popen.stdout:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()

    def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match:
        """The first output line matching ``pattern``, waiting up to ``timeout`` seconds."""
        regex = re.compile(pattern)
        end = time.monotonic() + timeout
        with self._changed:
            while True:
                for line in self.lines:
                    if match := regex.search(line):
                        return match
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no line matching {pattern!r} in {timeout} s:\n"
                                         + "\n".join(self.lines[-30:]))
                self._changed.wait(left)

    @property
    def output(self) -> str:
        with self._changed:
            return "\n".join(self.lines)

    def wait(self, timeout: float = 60.0) -> int:
        return self.popen.wait(timeout)

    def kill(self) -> None:
        """SIGKILL, as a crash or ``kill -9`` would."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
            self.popen.wait(10)

    def stop(self) -> None:
        if self.popen.poll() is None:
            try:
                os.killpg(self.popen.pid, signal.SIGKILL)
            except OSError:
                pass
            self.popen.wait(10)


def referee(*words: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Process:
    return Process([sys.executable, "-m", "referee", *words], cwd, env)


def start_event(event_file: Path) -> tuple[Process, str]:
    """The event's server, and the address it says participants connect to."""
    server = referee("event", str(event_file), cwd=event_file.parent)
    url = server.wait_for(r"participants connect to (\S+);").group(1)
    return server, url


def connect(url: str, name: str, engine: str = RANDOM_ENGINE, ca: Path | None = None,
            token: str | None = None) -> Process:
    words = ["connect", url, "--token", token or token_of(name), "--engine", engine]
    if ca is not None:
        words += ["--ca", str(ca)]
    return referee(*words, cwd=REPO)


BAD_CLIENT = str(Path(__file__).with_name("bad_client.py"))


def event_with_misbehaving_clients(folder: Path, processes: list, modes: dict[str, str],
                                   **settings: Any) -> tuple[Process, list[dict[str, Any]]]:
    """An event of Alpha and Beta (honest clients) and the participants of ``modes``, each
    played by ``bad_client.py`` in its mode, run to its end: the server and the games'
    rows. Every process started is added to ``processes``."""
    server, url = start_event(write_event(folder, (*NAMES[:2], *modes), **settings))
    processes.append(server)
    processes += [connect(url, name) for name in NAMES[:2]]
    processes += [Process([sys.executable, BAD_CLIENT, url, token_of(name), mode])
                  for name, mode in modes.items()]
    assert server.wait(90) == 0, server.output
    return server, rows(folder / "out")


def rows(out: Path) -> list[dict[str, Any]]:
    path = out / "results.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_for_rows(out: Path, count: int, timeout: float = 60.0) -> list[dict[str, Any]]:
    end = time.monotonic() + timeout
    while len(found := rows(out)) < count:
        if time.monotonic() > end:
            raise AssertionError(f"{len(found)} games finished of {count} in {timeout} s")
        time.sleep(0.1)
    return found


def game_under_way(folder: Path, processes: list, **settings: Any) -> tuple[Process, str]:
    """An event of Alpha against Beta (slow engines, Breakthrough 6x6) whose first game is
    under way: the server and its address; every process started is added to ``processes``."""
    server, url = start_event(write_event(folder, boardsize="6", time=60, **settings))
    processes.append(server)
    clients = [connect(url, name, SLOW_ENGINE) for name in NAMES[:2]]
    processes += clients
    for client in clients:
        client.wait_for("connected to Test event")
    time.sleep(0.8)  # 20-odd plies of 50 ms or more: the game is half-way at most
    assert not rows(folder / "out")
    return server, url
