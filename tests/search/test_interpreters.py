"""The engine gives the same answers under PyPy as under CPython, and ``--interpreter`` starts it
there (docs/pypy.md). Skipped, saying why, where no ``pypy3`` is installed."""

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pexpect
import pytest

from protocol.cli import _without_interpreter

ANSWERS = pathlib.Path(__file__).with_name("answers.py")
PYPY = shutil.which("pypy3")
needs_pypy = pytest.mark.skipif(PYPY is None, reason="no pypy3 on PATH (Debian: apt-get install "
                                "pypy3); the engine's PyPy support is not checked")


@needs_pypy
def test_fixed_depth_moves_perft_and_solver_verdicts_agree_between_interpreters():
    runs = [subprocess.Popen([interpreter, str(ANSWERS)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
            for interpreter in (sys.executable, PYPY)]
    (cpython, cpython_errors), (pypy, pypy_errors) = (run.communicate(timeout=120) for run in runs)
    assert runs[0].returncode == 0, cpython_errors
    assert runs[1].returncode == 0, pypy_errors
    answers = json.loads(cpython)
    for game in ("clobber", "domineering"):  # each solved (not None), won and lost among them
        assert set(answers[game]["solve"]) == {True, False}
    assert pypy == cpython


@needs_pypy
def test_the_engine_serves_gtp_under_pypy_when_asked():
    child = pexpect.spawn(sys.executable, ["-m", "protocol.cli", "--interpreter", "pypy3",
                                           "--game", "clobber", "--depth", "2", "--seed", "1"],
                          encoding="utf-8", timeout=60)
    child.sendline("1 genmove b")
    child.expect(r"=1 [a-j]\d+x[a-j]\d+")
    # The launcher became the engine (no process left in between): the process is PyPy's.
    assert "pypy" in os.readlink(f"/proc/{child.pid}/exe")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_an_unknown_interpreter_is_a_one_line_usage_error():
    done = subprocess.run([sys.executable, "-m", "protocol.cli", "--interpreter", "no-such-python"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "no interpreter 'no-such-python' on PATH" in done.stderr


def test_the_new_process_is_not_asked_to_change_interpreter_again():
    arguments = ["--game", "loa", "--interpreter", "pypy3", "--depth=2", "--interpreter=pypy3"]
    assert _without_interpreter(arguments) == ["--game", "loa", "--depth=2"]
    done = subprocess.run([sys.executable, "-m", "protocol.cli", "--interp", "pypy3"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "unrecognized arguments: --interp" in done.stderr
