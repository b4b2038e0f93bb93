"""Shared by the report tests: short real matches refereed by the CLI, and the folder that
keeps the browser tests' screenshots (its path is printed at the end of the run)."""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

import pytest

from referee.commands import cli

PYTHON = shlex.quote(sys.executable)
ENGINES = (f"{PYTHON} -m protocol.cli --depth 1 --seed 3",
           f"{PYTHON} -m protocol.cli --algorithm random --seed 5")
SCREENSHOTS: list[Path] = []


def run_match(out: Path, game: str, games: int, max_moves: int, *extra: str,
              engines: tuple[str, ...] = ENGINES) -> Path:
    """Referee a short match in this process (the engines are processes) into ``out``."""
    arguments = ["match", "--game", game, "--games", str(games), "--time", "20",
                 "--max-moves", str(max_moves), "--seed", "11", "--out", str(out), *extra]
    for engine in engines:
        arguments += ["--engine", engine]
    with pytest.raises(SystemExit) as exit_info:
        cli.main(arguments)
    assert exit_info.value.code == 0
    return out


@pytest.fixture(scope="session")
def breakthrough_match(tmp_path_factory) -> Path:
    """Four games of Breakthrough between our engine at depth 1 and a random mover."""
    return run_match(tmp_path_factory.mktemp("report") / "breakthrough", "breakthrough", 4, 40)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """A folder that outlives the run, for a person to look at the boards the tests saw."""
    folder = Path(tempfile.mkdtemp(prefix="report-screenshots-"))
    SCREENSHOTS.append(folder)
    return folder


def pytest_terminal_summary(terminalreporter) -> None:
    for folder in SCREENSHOTS:
        count = len(list(folder.glob("*.png")))
        terminalreporter.write_line(f"report tests: {count} screenshots of boards in {folder}")
