"""scripts/bench_ladder.py: a small run measures what it says, and ends everything it started,
at its end and on Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from ..processes import interruptible, processes_where, wait_for

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench_ladder.py"


def bench(tmp_path: Path, *options: str) -> subprocess.Popen:
    """The script on a small ladder, its temporary folder (and so its server's) in
    ``tmp_path``."""
    return subprocess.Popen(
        [sys.executable, str(SCRIPT), "--participants", "20", "--pools", "2", "--think",
         "0.05", "--sample", "2", *options],
        env={**os.environ, "TMPDIR": str(tmp_path)}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)


def started_by(tmp_path: Path) -> list[int]:
    """The living processes started by a run in ``tmp_path`` (they inherit its TMPDIR)."""
    marker = f"TMPDIR={tmp_path}\0".encode()
    return processes_where(lambda entry: marker in (entry / "environ").read_bytes())


def test_a_small_run_reports_every_figure_and_leaves_nothing_behind(tmp_path):
    run = bench(tmp_path, "--seconds", "4")
    out, errors = run.communicate(timeout=60)
    assert run.returncode == 0, errors
    begun = re.search(r"in 4 s: (\d+) games begun .*, ([\d,]+) moves", out)
    assert begun and int(begun[1]) > 0 and int(begun[2].replace(",", "")) > 0, out
    assert re.search(r"added latency per move: p50 [\d.]+ ms, p95 [\d.]+ ms", out), out
    assert re.search(r"server CPU: [\d.]+ ms a move", out), out
    assert re.search(r"bytes a game", out), out
    assert re.search(r"server +[\d.]+ MiB", out), out
    assert "client error" not in out and "Traceback" not in out + errors
    assert started_by(tmp_path) == []
    assert list(tmp_path.iterdir()) == []  # the temporary folder is gone


def test_ctrl_c_ends_the_server_and_the_clients(tmp_path):
    run = bench(tmp_path, "--seconds", "60")
    wait_for(lambda: run.stdout.readline().startswith("logins:"), 30, run, "the logins")
    assert len(started_by(tmp_path)) >= 3  # the server and two client processes
    run.send_signal(signal.SIGINT)
    run.communicate(timeout=40)
    assert wait_for(lambda: started_by(tmp_path) == [], 10, what="every process to end")
    assert list(tmp_path.iterdir()) == []
