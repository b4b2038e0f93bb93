"""The ``./olympiad`` bootstrap's failure paths: each ends with one line that says what to do,
and none of them removes a folder that is not a virtual environment. (The path that works,
a fresh clone on a fresh Debian, is what ``.ci/run`` and the README's commands exercise.)"""

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "olympiad"

# A python3 that passes the version check but, like Debian's without python3-venv and
# python3-pip, cannot make a virtual environment with pip (it leaves a half-made one behind).
NO_ENSUREPIP = """#!/bin/sh
case "$1 $2" in
    "-c "*) exit 0 ;;
    "-m venv") for last; do :; done; mkdir -p "$last"; touch "$last/pyvenv.cfg"
               echo "ensurepip is not available" >&2; exit 1 ;;
    *) echo "No module named pip" >&2; exit 1 ;;
esac
"""


def run(tmp_path: Path, python: str, venv: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PYTHON": python,
           "OLYMPIAD_VENV": str(venv)}
    return subprocess.run(["sh", str(SCRIPT), *args], env=env, capture_output=True, text=True,
                          timeout=60)


@pytest.fixture
def no_ensurepip(tmp_path: Path) -> str:
    stub = tmp_path / "python3"
    stub.write_text(NO_ENSUREPIP)
    stub.chmod(0o755)
    return str(stub)


def last_line(done: subprocess.CompletedProcess) -> str:
    return done.stderr.strip().splitlines()[-1]


def test_without_a_way_to_make_a_venv_it_names_the_package_and_leaves_nothing(tmp_path,
                                                                              no_ensurepip):
    venv = tmp_path / "venv"
    done = run(tmp_path, no_ensurepip, venv, "test")
    assert done.returncode == 1
    assert "apt-get install python3-venv" in last_line(done)
    assert not venv.exists()


def test_a_missing_python_is_named(tmp_path):
    done = run(tmp_path, "no-such-python3", tmp_path / "venv", "test")
    assert done.returncode == 1
    assert last_line(done).startswith("olympiad: no no-such-python3 on PATH")


def test_a_folder_that_is_not_a_venv_is_never_removed(tmp_path, no_ensurepip):
    folder = tmp_path / "precious"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    done = run(tmp_path, no_ensurepip, folder, "test")
    assert done.returncode == 1
    assert "is not a virtual environment" in last_line(done)
    assert (folder / "notes.txt").read_text() == "keep me"


def test_help_needs_no_environment(tmp_path, no_ensurepip):
    done = run(tmp_path, no_ensurepip, tmp_path / "venv", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: ./olympiad COMMAND")
    assert not (tmp_path / "venv").exists()


def test_help_lists_every_command_of_the_referee_and_the_engine_and_tests(tmp_path,
                                                                          no_ensurepip):
    from referee.commands import cli
    done = run(tmp_path, no_ensurepip, tmp_path / "venv", "--help")
    listed = re.findall(r"^  ([a-z]+)  ", done.stdout, re.M)
    assert sorted(listed) == sorted([*cli.cli.commands, "engine", "test"])
    assert len(listed) == len(cli.cli.commands) + 2


def test_the_readme_quick_start_is_two_commands_of_the_bootstrap():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```\n(.*?)```", section, re.S)[1]
    lines = block.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("./olympiad match ")
    assert lines[1] == "./olympiad test"
