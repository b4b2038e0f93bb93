"""The referee on a Dask cluster (``match --cluster``), as a user runs it: an embedded
``LocalCluster`` of two worker processes records games as local threads do; a worker killed
with SIGKILL during a run costs no game and records none twice; a scheduler that goes away ends
the run with one line, leaving a folder that resumes; a run without ``--cluster`` never imports
Dask; bad addresses are one line."""

from __future__ import annotations

import concurrent.futures
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")
import psutil  # noqa: E402  (a dependency of distributed)

from referee.commands import cli
from referee.run.cluster import ClusterError, connect

from ..processes import wait_for
from ..results import rows_written

PYTHON = shlex.quote(sys.executable)


def engine(marker: int, depth: int | None = None) -> str:
    """Our engine (random moves, or a depth-limited search); ``--seed MARKER`` tags its
    processes for :func:`engines_alive`."""
    play = f"--depth {depth}" if depth else "--algorithm random"
    return f"{PYTHON} -m protocol.cli {play} --seed {marker}"


def match_command(out: Path, marker: int, games: int, *extra: str, depth: int | None = None,
                  ) -> list[str]:
    return [sys.executable, "-m", "referee", "match", "--game", "breakthrough",
            "--games", str(games), "--time", "60", "--seed", "7", "--out", str(out),
            "--engine", engine(marker, depth), "--engine", engine(marker + 1, depth), *extra]


def engines_alive(marker: int) -> list[int]:
    """The engine processes started with ``--seed MARKER`` or ``MARKER + 1``."""
    seeds = {str(marker), str(marker + 1)}
    alive = []
    for process in psutil.process_iter(["cmdline"]):
        words = process.info["cmdline"] or []
        if "protocol.cli" in words and "--seed" in words and words[-1] in seeds:
            alive.append(process.pid)
    return alive


def still_running(pids: list[int]) -> list[int]:
    """Those of ``pids`` that have not ended (a zombie has)."""
    return [pid for pid in pids if psutil.pid_exists(pid)
            and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]


def wait_until_gone(pids: list[int]) -> None:
    """Wait, at most 10 s, until none of ``pids`` is running."""
    wait_for(lambda: not still_running(pids), 10.0, what=f"processes {pids} to end")


def game_numbers(out: Path) -> list[int]:
    return sorted(row["game_no"] for row in rows_written(out))


def test_local_cluster_records_games_as_local_threads_do(tmp_path):
    local, cluster = tmp_path / "local", tmp_path / "cluster"
    subprocess.run(match_command(local, 310, 6, "--concurrency", "2"), check=True,
                   capture_output=True, timeout=120)
    ran = subprocess.run(match_command(cluster, 310, 6, "--cluster", "local:2"), check=True,
                         capture_output=True, text=True, timeout=120)
    assert "Dask cluster local:2: 2 workers, 2 threads; dashboard http" in ran.stdout
    by_thread = {row["game_no"]: row for row in rows_written(local)}
    by_cluster = {row["game_no"]: row for row in rows_written(cluster)}
    assert sorted(by_cluster) == sorted(by_thread) == list(range(1, 7))
    for number, row in by_cluster.items():
        assert row.keys() == by_thread[number].keys()
        for key in ("black", "white", "seed", "pair", "opening", "size", "options"):
            assert row[key] == by_thread[number][key], key
        assert row["result"] in ("B+", "W+", "0") and row["plies"] > 0
    assert sorted(path.name for path in (cluster / "games").iterdir()) == \
        sorted(path.name for path in (local / "games").iterdir())
    summaries = [json.loads((out / "summary.json").read_text()) for out in (local, cluster)]
    assert summaries[0].keys() == summaries[1].keys()
    assert summaries[1]["games"] == 6
    wait_until_gone(engines_alive(310))


def cluster_workers(referee: subprocess.Popen) -> list[psutil.Process]:
    """The worker processes of the referee's embedded cluster (multiprocessing children)."""
    return [child for child in psutil.Process(referee.pid).children()
            if "spawn_main" in " ".join(child.cmdline())]


def test_a_worker_killed_mid_run_costs_no_game_and_records_none_twice(tmp_path):
    out = tmp_path / "out"
    referee = subprocess.Popen(match_command(out, 320, 12, "--cluster", "local:2", depth=2),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: len(rows_written(out)) >= 3, process=referee)
        workers = cluster_workers(referee)
        assert len(workers) == 2
        playing = [worker for worker in workers if worker.children()] or workers
        victim = playing[0]
        engines = [child.pid for child in victim.children()]
        victim.send_signal(signal.SIGKILL)
        stdout, stderr = referee.communicate(timeout=120)
    finally:
        if referee.poll() is None:
            referee.kill()
    assert referee.returncode == 0, stderr
    assert game_numbers(out) == list(range(1, 13))  # each game once, none missing
    assert len(list((out / "games").iterdir())) == 12
    wait_until_gone(engines)  # the killed worker's engines went with it
    wait_until_gone(engines_alive(320))


@pytest.fixture
def scheduler(tmp_path):
    """A ``dask scheduler`` and a ``dask worker`` of two processes, started as a user would
    but listening on the loopback address only; yields (scheduler process, its address)."""
    info = tmp_path / "scheduler.json"
    started = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                 "--host", "127.0.0.1", "--port", "0",
                                 "--dashboard-address", "127.0.0.1:0",
                                 "--scheduler-file", str(info)], stderr=subprocess.DEVNULL)]
    try:
        wait_for(lambda: info.exists() and info.read_text().strip(), what="the scheduler")
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:"), address
        started.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
             "--nworkers", "2", "--host", "127.0.0.1", "--no-dashboard"],
            stderr=subprocess.DEVNULL))
        yield started[0], address
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
            process.wait()


def test_a_lost_scheduler_is_one_line_and_the_folder_resumes(tmp_path, scheduler):
    process, address = scheduler
    out = tmp_path / "out"
    command = match_command(out, 330, 12, depth=1)
    referee = subprocess.Popen([*command, "--cluster", address], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: len(rows_written(out)) >= 3, process=referee)
        process.kill()
        stdout, stderr = referee.communicate(timeout=60)
    finally:
        if referee.poll() is None:
            referee.kill()
    assert referee.returncode == 1
    assert stderr.strip().splitlines() == [
        f"olympiad-referee: error: lost the Dask scheduler at {address}; finished games are "
        f"saved: run the same command to resume"]
    finished = game_numbers(out)
    assert len(finished) >= 3 and len(set(finished)) == len(finished)
    subprocess.run([*command, "--concurrency", "2"], check=True, capture_output=True,
                   timeout=120)  # resumed here, without the cluster
    assert game_numbers(out) == list(range(1, 13))


def test_a_run_without_cluster_does_not_import_dask(tmp_path):
    script = ("import sys\nfrom referee.commands import cli\n"
              "try:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "print('distributed' in sys.modules, 'dask' in sys.modules)")
    ran = subprocess.run([sys.executable, "-c", script,
                          *match_command(tmp_path / "out", 340, 1)[3:]],
                         capture_output=True, text=True, check=True, timeout=120)
    assert len(rows_written(tmp_path / "out")) == 1
    assert ran.stdout.splitlines()[-1] == "False False"


@pytest.mark.parametrize("address, message", [
    ("local:0", "--cluster local:0: expected local or local:N, N worker processes (at least 1)"),
    ("tcp://127.0.0.1", "--cluster tcp://127.0.0.1: missing port number in address"),
    ("nonsense://x:1", "--cluster nonsense://x:1: unknown address scheme 'nonsense'"),
])
def test_a_bad_address_is_one_line(address, message, tmp_path, capsys):
    with pytest.raises(ClusterError) as raised:
        connect(address)
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)
    with pytest.raises(SystemExit) as status:
        cli.main(["match", "--game", "breakthrough", "--engine", engine(350),
                  "--engine", engine(351), "--cluster", address, "--out", str(tmp_path / "o")])
    assert status.value.code == 2
    assert capsys.readouterr().err.startswith(f"olympiad-referee: error: {message}")
    assert not os.path.exists(tmp_path / "o" / "results.jsonl")


def test_a_local_cluster_listens_on_the_loopback_address_only():
    executor = connect("local:1")
    try:
        listening = [connection.laddr for connection in
                     psutil.Process().net_connections(kind="inet")
                     if connection.status == psutil.CONN_LISTEN]
        dashboard = urllib.parse.urlsplit(executor.client.dashboard_link)
        assert dashboard.hostname == "127.0.0.1"
        assert dashboard.port in [address.port for address in listening]
        assert {address.ip for address in listening} == {"127.0.0.1"}
    finally:
        executor.shutdown(cancel=True)


def test_a_scheduler_lost_while_a_result_is_fetched_is_the_same_one_line(scheduler):
    """The scheduler dies while the driver fetches a finished game (frozen, then killed, while
    the fetch waits for its answer): the broken connection is the lost scheduler, one line,
    not a traceback."""
    process, address = scheduler
    executor = connect(address)
    try:
        future = executor.submit(sum, [1, 2])
        # Known finished here, not yet fetched.
        wait_for(lambda: future.task.status == "finished", what="the task to finish")
        process.send_signal(signal.SIGSTOP)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            outcome = pool.submit(executor.wait, [future], 30)
            time.sleep(1.0)  # the fetch is waiting on the frozen scheduler
            process.kill()
            with pytest.raises(ClusterError) as raised:
                outcome.result(timeout=60)
        assert str(raised.value) == (f"lost the Dask scheduler at {address}; finished games "
                                     f"are saved: run the same command to resume")
    finally:
        executor.shutdown(cancel=True)
