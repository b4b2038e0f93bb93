"""``scripts/opponents/openspiel_gtp.py``, OpenSpiel's MCTS-solver behind our protocol: it passes
``olympiad-referee check``, and in random games its legal moves are ours, move for move, on the
default boards and on others (Breakthrough's board is OpenSpiel's upside down, so a size that is
not square tells a wrong flip). Skipped unless ``scripts/opponents/openspiel.sh`` has installed
OpenSpiel into its venv."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from engine import find_game
from referee.commands.check import Checker

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / "scripts" / "opponents" / "build" / "openspiel-venv" / "bin" / "python"
WRAPPER = ROOT / "scripts" / "opponents" / "openspiel_gtp.py"
COMMAND = f"{PYTHON} {WRAPPER} --move-time 0.05 --seed 3"

pytestmark = pytest.mark.skipif(
    not PYTHON.exists() or subprocess.run([str(PYTHON), "-c", "import pyspiel"],
                                          capture_output=True).returncode != 0,
    reason="OpenSpiel is not installed (scripts/opponents/openspiel.sh)")


class Wrapper:
    """The wrapper as a process, one command at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(COMMAND.split(), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, cwd=ROOT)

    def ask(self, command: str) -> str:
        """The text of a success answer; AssertionError on a failure answer."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.process.stdout.readline().rstrip("\n")) != "":
            lines.append(line)
        assert lines[0].startswith("="), f"{command!r} answered {lines}"
        return "\n".join(lines)[1:].strip()

    def close(self) -> None:
        self.ask("quit")
        self.process.wait(timeout=10)


@pytest.fixture
def wrapper():
    process = Wrapper()
    yield process
    if process.process.poll() is None:
        process.process.kill()
        process.process.wait()


def new_boards(position, boards: set) -> list:
    """The moves of ``position`` to a board (stones only) not in ``boards``, which gets this
    one: OpenSpiel's LOA draws at a board's second occurrence, ours at the third with the same
    side to move, so the game must not repeat a board for the two to agree."""
    boards.add(tuple(position.pieces))
    fresh = []
    for move in position.legal_moves():
        position.play(move)
        if tuple(position.pieces) not in boards:
            fresh.append(move)
        position.undo()
    return fresh


def test_the_wrapper_passes_every_check_but_where_loa_rules_differ():
    """Every check passes, except that the check's LOA game to its end may meet a rule that
    OpenSpiel reads otherwise (its draw at a board's second occurrence, where ours goes on):
    the wrapper then refuses the next move as ``game is over``, as documented."""
    results = list(Checker(COMMAND, ("clobber", "breakthrough", "loa")).run())
    failed = [(result.name, result.detail) for result in results if not result.passed]
    assert all(name == "loa: a game to its end" and "game is over" in detail
               for name, detail in failed), failed
    assert len(results) - len(failed) >= 39


@pytest.mark.parametrize("game, size", [("clobber", None), ("clobber", (5, 7)),
                                        ("breakthrough", None), ("breakthrough", (4, 6)),
                                        ("loa", None)])
def test_its_legal_moves_are_ours_along_a_random_game(wrapper, game, size):
    rules = find_game(game)(size=size)
    position = rules.initial_position()
    wrapper.ask(f"set_game {game}")
    if size is not None:
        wrapper.ask(f"boardsize {size[0]} {size[1]}")
    chooser = random.Random(f"{game}{size}")
    boards = set()
    for _ in range(60):
        if position.outcome is not None:
            break
        ours = sorted(position.move_text(move) for move in position.legal_moves())
        assert wrapper.ask("legal_moves").split() == ours
        move = chooser.choice(new_boards(position, boards) or position.legal_moves())
        wrapper.ask(f"play {'bw'[position.to_move]} {position.move_text(move)}")
        position.play(move)
    if position.outcome is not None:
        assert wrapper.ask("side_to_move") == "none"
        assert wrapper.ask("final_score") == "BW"[position.outcome.winner] + "+"
    else:
        assert wrapper.ask("side_to_move") == ("black", "white")[position.to_move]
    wrapper.close()


def test_bytes_that_are_not_text_get_a_failure_answer_and_the_wrapper_goes_on():
    completed = subprocess.run(COMMAND.split(), input=b"\xff\xfe play\n1 protocol_version\n",
                               capture_output=True, cwd=ROOT, timeout=30)
    answers = completed.stdout.decode("utf-8", "replace").split("\n\n")
    assert answers[0].startswith("? unknown command")
    assert answers[1] == "=1 2"
    assert completed.returncode == 0 and completed.stderr == b""
