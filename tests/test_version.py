"""Both programs say their version, as a command-line tool should."""

import subprocess
import sys

import pytest

from engine import __version__


@pytest.mark.parametrize("module, program", [("protocol.cli", "olympiad-engine"),
                                             ("referee", "olympiad-referee")])
def test_version_names_the_program_and_the_package_version(module, program):
    done = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{program} {__version__}\n"
