"""docs/adding-a-game.md is true: its module, taken from the page and saved in a folder named in
``OLYMPIAD_GAMES`` with nothing else changed, is a game that the registry finds and perft
counts as worked by hand, a real engine process plays over the protocol, the referee records
in a match between two engine processes, ``render`` draws, the report replays, the book maker
makes openings for and the play page's server plays.

Every process here is started with the variable, as a person would run them; none is left
behind."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import engine.games
from engine import find_game, game_names
from engine.games import GAMES_PATH_VARIABLE
from engine.perft import perft
from engine.registry import _tables
from referee.plan.openings import load_book
from referee.plan.setup import Setup
from referee.records.sgf import read_sgf
from referee.report.replay import unpack

from .playouts import check_playout
from .processes import interrupt, interruptible
from .results import rows_written

DOC = Path(__file__).resolve().parent.parent / "docs" / "adding-a-game.md"
PYTHON = shlex.quote(sys.executable)
ENGINE = f"{PYTHON} -m protocol.cli --game kayles"
TIMEOUT = 60  # seconds for any one command


def doc_module() -> str:
    """The page's Python block: the whole game module."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    return blocks[0]


@pytest.fixture(scope="module")
def games_folder(tmp_path_factory) -> Path:
    """A folder holding the page's module as ``kayles.py``, and nothing else."""
    folder = tmp_path_factory.mktemp("games")
    (folder / "kayles.py").write_text(doc_module(), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def environment(games_folder) -> dict[str, str]:
    """The environment of every process started here: this one's, with the games folder."""
    return {**os.environ, GAMES_PATH_VARIABLE: str(games_folder)}


def run(environment: dict[str, str], *arguments: str, stdin: str = "",
        cwd: Path | None = None) -> subprocess.CompletedProcess:
    """A command of this project (``python -m ...``) to its end, bounded in time."""
    return subprocess.run([sys.executable, "-m", *arguments], input=stdin, capture_output=True,
                          text=True, env=environment, cwd=cwd, timeout=TIMEOUT)


def referee(environment: dict[str, str], *arguments: str) -> str:
    """``olympiad-referee ARGUMENTS``, which must succeed; what it printed."""
    done = run(environment, "referee", *arguments)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def kayles_in_this_process(games_folder, monkeypatch):
    """The games folder added to the package's path here, as ``OLYMPIAD_GAMES`` does it at
    import; the package and the registry as they were afterwards."""
    monkeypatch.setattr(engine.games, "__path__", [*engine.games.__path__, str(games_folder)])
    _tables.cache_clear()
    yield
    sys.modules.pop("engine.games.kayles", None)
    monkeypatch.undo()
    _tables.cache_clear()


@pytest.fixture(scope="module")
def match(environment, tmp_path_factory) -> Path:
    """Two games of Kayles refereed between two engine processes (depth 2 and random)."""
    out = tmp_path_factory.mktemp("match") / "kayles"
    referee(environment, "match", "--game", "kayles", "--games", "2", "--time", "20",
            "--seed", "3", "--out", str(out), "--engine", f"{ENGINE} --depth 2",
            "--engine", f"{ENGINE} --algorithm random --seed 5")
    return out


def test_the_new_module_is_a_game_with_nothing_else_changed(kayles_in_this_process):
    assert game_names()[-1] == "kayles"  # no spec_section: after SPEC's games
    game = find_game("KAYLES")(size=(3, 1))
    position = game.initial_position()
    assert [perft(position, depth) for depth in (1, 2, 3)] == [3, 2, 0]
    assert position.legal_move_texts() == ["a1", "b1", "c1"]
    for seed in range(3):  # the generic contract every game keeps (tests/test_all_games.py)
        check_playout(find_game("kayles")(), seed)


def test_an_engine_process_plays_it_over_the_protocol(environment):
    commands = ["list_games", "boardsize 3 1", "play w a1", "play b b1", "final_score", "undo",
                "play b a1", "play w b1", "genmove w", "final_score", "quit"]
    done = run(environment, "protocol.cli", "--game", "kayles", "--depth", "2",
               stdin="".join(f"{command}\n" for command in commands))
    answers = done.stdout.split("\n\n")[:len(commands)]
    assert done.returncode == 0 and "kayles" in answers[0].split()
    assert answers[1:] == ["=", "? illegal move: white is not to move (black is)", "=", "= B+",
                           "=", "=", "? illegal move: b1: a stone may not touch another stone",
                           "= c1", "= W+", "="]


def test_without_the_variable_there_is_no_such_game(environment):
    assert "kayles" not in game_names()
    without = {key: value for key, value in environment.items() if key != GAMES_PATH_VARIABLE}
    done = run(without, "protocol.cli", "--game", "kayles", stdin="quit\n")
    assert done.returncode != 0 and "unknown game 'kayles'" in done.stderr


def test_the_referee_records_a_match_of_it(match, kayles_in_this_process):
    rows = rows_written(match)
    assert [row["game"] for row in rows] == ["kayles", "kayles"]
    for row in rows:
        record = read_sgf((match / "games" / f"game-{row['game_no']:04d}.sgf").read_text())
        assert [text for _, text in record.moves] == row["moves"]
        position = find_game("kayles")().position_after(row["moves"])
        assert (row["termination"], row["result"], row["reason"]) == (
            "normal", position.outcome.result, position.outcome.reason)


def test_render_draws_it(environment, match, tmp_path):
    row = rows_written(match)[0]
    picture = tmp_path / "kayles.svg"
    referee(environment, "render", str(match / "games" / "game-0001.sgf"), "--out", str(picture))
    text = picture.read_text()
    assert 'class="board kayles"' in text and f'data-last-move="{row["moves"][-1]}"' in text
    stones = re.findall(r'class="mark"[^>]*data-at="([a-z]\d+)">#<', text)
    assert sorted(stones) == sorted(row["moves"])


def test_the_report_replays_it(environment, match):
    referee(environment, "report", "--all-replays", str(match))
    row = rows_written(match)[0]
    script = (match / "report-assets" / "game-0001.js").read_text()
    game = json.loads(script[script.index("(") + 1:script.rindex(")")])
    boards = game["boards"]
    assert len(boards["frames"]) == len(row["moves"]) + 1
    for ply in range(len(row["moves"]) + 1):
        stones = re.findall(r'class="mark"[^>]*data-at="([a-z]\d+)">#<', unpack(boards, ply))
        assert sorted(stones) == sorted(row["moves"][:ply]), f"ply {ply}"


def test_the_book_maker_makes_openings_for_it_with_its_own_bound(environment, tmp_path,
                                                                 kayles_in_this_process):
    book = tmp_path / "book.txt"
    # On the default 8 cells a depth-2 search proves nearly every 2-ply opening; not on 20.
    referee(environment, "openings", "--game", "kayles", "--boardsize", "20x1", "--plies", "2",
            "--count", "3", "--seed", "1", "--out", str(book))
    assert "(none: without an evaluation only a proven result scores)" in book.read_text()
    openings = load_book(book, Setup("kayles", size=(20, 1)))
    assert len(openings) == 3
    for opening in openings:
        position = find_game("kayles")(size=(20, 1)).position_after(list(opening.moves))
        assert position.outcome is None and len(opening.moves) == 2


class PlayPage:
    """``olympiad-referee play`` of Kayles against a random engine process, its page's server
    asked over HTTP on 127.0.0.1 as the page's script asks it."""

    def __init__(self, environment: dict[str, str], out: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee", "play", "--game", "kayles", "--engine",
             f"{ENGINE} --algorithm random --seed 7", "--no-browser", "--out", str(out),
             "--time", "120"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=environment, start_new_session=True, preexec_fn=interruptible)
        line = self.process.stderr.readline()
        found = re.search(r"play at (http://127\.0\.0\.1:\d+/)", line)
        assert found, line + self.stop()
        self.url = found.group(1)

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=TIMEOUT) as answer:
            return answer.read()

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.url + path, json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return json.loads(answer.read())

    def state_when(self, token: str, condition) -> dict:
        """The page's state once ``condition(state)`` holds (bounded)."""
        deadline = time.monotonic() + TIMEOUT
        while not condition(state := json.loads(self.get(f"state?token={token}"))):
            assert time.monotonic() < deadline and self.process.poll() is None, state
            time.sleep(0.05)
        return state

    def stop(self) -> str:
        """End the command with Ctrl-C and return what it wrote to standard error."""
        return interrupt(self.process)


def test_the_play_page_serves_it(environment, tmp_path):
    page = PlayPage(environment, tmp_path / "out")
    try:
        assert b"<html" in page.get("").lower()
        token = page.post("claim", {})["token"]
        state = page.state_when(token, lambda state: state["your_turn"])
        assert state["game"] == "kayles" and state["person"] == "black"
        assert 'class="board kayles"' in state["board"]
        assert page.post("move", {"token": token, "ply": 0, "move": "c1"}) == {"move": "c1"}
        state = page.state_when(token, lambda state: state["ply"] >= 2 or state["ended"])
        assert state["moves"][0] == "c1"
        assert re.search(r'class="mark"[^>]*data-at="c1">#<', state["board"])
    finally:
        errors = page.stop()
    assert page.process.returncode == 130, errors
