"""scripts/strength.py: the engine measured is the code as it was when the run started."""

import importlib.util
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .processes import processes_where, wait_for

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("strength", ROOT / "scripts" / "strength.py")
strength = importlib.util.module_from_spec(spec)
spec.loader.exec_module(strength)


@pytest.fixture
def source(tmp_path, monkeypatch):
    """A project tree of two packages, each with a byte-code folder, in place of the real one."""
    tree = tmp_path / "tree"
    for package in ("engine", "protocol"):
        (tree / package / "__pycache__").mkdir(parents=True)
        (tree / package / "__init__.py").write_text("VERSION = 1\n")
    monkeypatch.setattr(strength, "ROOT", tree)
    return tree


def test_the_copy_of_the_engine_is_made_once_and_kept_through_later_edits(tmp_path, source):
    out = tmp_path / "out"
    out.mkdir()
    tree = strength.frozen_tree(out)
    assert tree == out / "engine-tree"
    assert (tree / "engine" / "__init__.py").read_text() == "VERSION = 1\n"
    assert not (tree / "engine" / "__pycache__").exists()
    (source / "engine" / "__init__.py").write_text("VERSION = 2\n")  # an edit mid-run
    assert strength.frozen_tree(out) == tree
    assert (tree / "engine" / "__init__.py").read_text() == "VERSION = 1\n"


def test_a_copy_cut_short_is_made_again(tmp_path, source):
    out = tmp_path / "out"
    (out / "engine-tree.partial" / "engine").mkdir(parents=True)  # a run killed mid-copy
    tree = strength.frozen_tree(out)
    assert sorted(path.name for path in tree.iterdir()) == ["engine", "protocol"]
    assert not (out / "engine-tree.partial").exists()


def test_a_run_plays_our_engine_and_the_baseline_from_the_copy(tmp_path):
    out = tmp_path / "run"
    published = (ROOT / "docs" / "strength.md").read_text()
    finished = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "strength.py"), "clobber", "--baselines",
         "random", "--games", "2", "--move-time", "0.05", "--opening-plies", "0",
         "--concurrency", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    # Without --table the table goes into the run's folder, not over the project's own.
    assert "| clobber | random | 2 |" in (out / "strength.md").read_text()
    assert (ROOT / "docs" / "strength.md").read_text() == published
    engines = json.loads((out / "clobber-random" / "match.json").read_text())["engines"]
    assert [engine["dir"] for engine in engines] == [str(out / "engine-tree")] * 2
    assert (out / "engine-tree" / "engine" / "games" / "clobber.py").is_file()


def test_a_run_told_to_stop_stops_its_match_and_engines(tmp_path):
    # SIGTERM reaches only the script (as from kill or a job scheduler), not its process group.
    out = tmp_path / "run"
    script = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "strength.py"), "clobber", "--baselines",
         "uct", "--games", "20", "--move-time", "0.2", "--opening-plies", "0",
         "--concurrency", "1", "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    tree = out / "engine-tree"

    def running_from_the_copy() -> list[int]:
        """The processes whose working folder is the run's copy of the engine."""
        return processes_where(lambda entry: Path(os.readlink(entry / "cwd")) == tree)
    wait_for(lambda: len(running_from_the_copy()) >= 2, process=script, what="the engines")
    script.send_signal(signal.SIGTERM)
    assert script.wait(timeout=60) == 128 + signal.SIGTERM, script.stderr.read()
    wait_for(lambda: not running_from_the_copy(), 10, what="the engines to end")
    assert "Traceback" not in script.stderr.read().decode()
