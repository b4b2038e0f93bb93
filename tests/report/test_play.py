"""A person plays the greedy engine in a real browser, in each of the ten games.

``olympiad-referee play`` runs as a process with the greedy engine; Debian's headless Chromium
opens its page and plays a whole game by clicks (small boards where the game allows, a move
limit where it would be long). The test chooses each move with the rules, preferring the
compound kinds (captures, Surakarta's loop captures, laoCoon's ring step with its disc, moves
that name a cell twice and placements, Argon's two stones, Kolem's placements and steps, Cookie
Disco's rolls, a domino), then clicks the cells that move names, one by one, where the page
marks them: the page only offers what the server's rules allow, and says at each step what the
next click asks for and what the move is so far. In each game one move is left half made
across a redraw of the page, and goes on. Then the game's SGF record and results row are
checked against the rules, and the engine process must be gone with the command.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import BLACK, find_game, game_names
from engine.drawing import board_geometry
from referee.records.sgf import read_sgf
from referee.records.results import game_of_row as game_of
from referee.report.png import find_browser

from ..processes import another_thread, interrupt, interruptible
from ..results import rows_written
from ..test_drawing import game_tests
from .browser import Browser, game_of_page, until

CHROMIUM = find_browser()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found (chromium, chromium-browser or google-chrome "
                             "on PATH); .ci/run installs Debian's chromium")

ENGINE = f"{sys.executable} -m protocol.cli --algorithm greedy --seed 7"
ENGINE_NAME = "olympiad-greedy 0.1.0"  # its name and version, as it answers them
BAD_ENGINE = Path(__file__).resolve().parent.parent / "referee" / "bad_engine.py"
# The page redraws this often (seconds), so that a move may be left half made across a redraw.
REDRAW = 0.3
# How a game is played by clicks when its test module (tests/games/test_NAME.py) does not say
# (PLAY_BY_CLICKS): as it comes, with a move limit, any move, no kind of move required.
PLAIN_CLICKS = (["--max-moves", "30"], "", [])


def play_by_clicks(game: str) -> tuple[list[str], str | list[str], list[str]]:
    """How a whole game of ``game`` is played by clicks: the command-line settings (a small
    board where the game has one, a move limit where a game would be long), the moves the test
    prefers (a pattern on the move text, or several: the first that some legal move matches),
    and patterns of the kinds of move the person must make by clicks."""
    return getattr(game_tests(game), "PLAY_BY_CLICKS", PLAIN_CLICKS)


@pytest.fixture(scope="module")
def browser():
    chromium = Browser(CHROMIUM)
    yield chromium
    chromium.close()


class PlayCommand:
    """``olympiad-referee play`` as a process, its page's address read from what it prints."""

    def __init__(self, out: Path, game: str, *extra: str, engine: str = ENGINE) -> None:
        self.out = out
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee", "play", "--game", game, "--engine", engine,
             "--no-browser", "--out", str(out), "--time", "120", "--redraw", str(REDRAW),
             "--away", "1", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
            preexec_fn=interruptible)
        line = self.process.stderr.readline()
        found = re.search(r"play at (http://127\.0\.0\.1:\d+/)", line)
        assert found, line + self.process.stderr.read()
        self.url = found.group(1)

    def descendants(self) -> set[int]:
        """The processes started below the command (the engine, its keeper), by parent ids."""
        parents = {}
        for pid in alive():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:  # ended meanwhile
                continue
            parents[pid] = int(stat[stat.rindex(")") + 2:].split()[1])
        found, frontier = set(), {self.process.pid}
        while frontier:
            frontier = {pid for pid, parent in parents.items() if parent in frontier}
            found |= frontier
        return found

    def stop(self) -> str:
        """End the command (if it has not ended) and return what it wrote to standard error."""
        return interrupt(self.process)


def alive() -> set[int]:
    return {int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()}


def page_state(browser: Browser) -> dict:
    return browser.evaluate("page.state && {ply: page.state.ply, moves: page.state.moves, "
                            "your_turn: page.state.your_turn, ended: page.state.ended, "
                            "holder: page.state.holder}")


def wait_for_turn(browser: Browser, after: int) -> dict:
    """Wait until the person is to move at a ply past ``after``, or the game has ended."""
    until(browser, f"page.state && page.state.holder && page.state.ply > {after} && "
                   f"(page.state.your_turn || page.state.ended !== null)")
    return page_state(browser)


def expected_words(position, cells_of, chosen: list[str]) -> tuple[str, str]:
    """What the page should say once ``chosen`` are clicked: the move so far and the prompt
    (the rules' words for the next click, and the moves the cells already make)."""
    following = [text for text in position.legal_move_texts()
                 if cells_of(text)[:len(chosen)] == chosen]
    going_on = [text for text in following if len(cells_of(text)) > len(chosen)]
    ready = [text for text in following if len(cells_of(text)) == len(chosen)]
    made = ""
    if chosen:
        end = 0
        for name in chosen:
            end = following[0].index(name, end) + len(name)
        made = following[0][:end]
    words = position.step_prompt(made, going_on) if going_on else ""
    if ready:
        words = f"{words}, or play {' or '.join(ready)}" if words else f"play {ready[0]}"
    if chosen:
        words += " (Escape or a click beside the board starts again)"
    return (f"{made} …" if made else ""), words


def redrawn(browser: Browser) -> None:
    """Wait until the page has drawn the board again with no change in the game."""
    browser.evaluate("window.before = document.querySelector('#board svg')")
    until(browser, "document.querySelector('#board svg') !== window.before", 5 * REDRAW + 5)


def click_move(browser: Browser, position, text: str, pause: bool = False) -> bool:
    """Make the move ``text`` on the page: click each cell it names where the page marks it,
    checking what the page says at each step, then the move's button if the cells leave a
    choice; whether it took the button. ``pause``: after the first cell of a move with more
    to come, wait for the page to redraw (the move must survive it)."""
    geometry = board_geometry(position)

    def cells_of(move: str) -> list[str]:
        return [geometry.name(cell) for cell in geometry.cells_in(move) if cell is not None]

    def says(chosen: list[str]) -> None:
        made, words = expected_words(position, cells_of, chosen)
        assert browser.evaluate("[document.getElementById('made').textContent, "
                                "document.getElementById('step').textContent]") == [made, words]

    cells = cells_of(text)
    # The page marks exactly the cells that begin a legal move.
    until(browser, "document.querySelector('#board .spot.next') !== null")
    offered = browser.evaluate("[...document.querySelectorAll('#board .spot.next')]"
                               ".map((spot) => spot.dataset.at)")
    assert sorted(offered) == sorted({cells_of(move)[0] for move in position.legal_move_texts()
                                      if cells_of(move)})
    says([])
    for index, cell in enumerate(cells):
        selector = f'#board .spot.next[data-at="{cell}"]'
        assert browser.evaluate(f"!!document.querySelector({json.dumps(selector)})"), \
            f"{text}: the page does not offer {cell} after {cells[:index]}"
        browser.click(selector)
        chosen = " ".join(cells[:index + 1])
        until(browser, f"document.body.dataset.chosen === {json.dumps(chosen)} || "
                       f"page.state.ply !== {position.ply}")
        done = index + 1 == len(cells) and not any(
            len(cells_of(move)) > len(cells) and cells_of(move)[:len(cells)] == cells
            for move in position.legal_move_texts())
        if done:  # the page hands the move in at once
            break
        says(cells[:index + 1])
        if pause and index == 0 and len(cells) > 1:
            redrawn(browser)
            assert browser.evaluate("document.body.dataset.chosen") == cells[0]
            assert browser.evaluate("document.querySelectorAll('#board .spot.chosen').length") == 1
            says(cells[:1])
    if browser.evaluate(f"page.state.ply === {position.ply}"):
        button = f'#complete button[data-move="{text}"]'
        until(browser, f"!!document.querySelector({json.dumps(button)}) || "
                       f"page.state.ply !== {position.ply}")
        if browser.evaluate(f"page.state.ply === {position.ply}"):
            browser.click(button)
            return True
    return False


def drag(browser: Browser, origin: str, target: str) -> None:
    """Press on the cell ``origin`` and let go on ``target``, as a person drags a piece."""
    def middle(cell: str) -> list[float]:
        return browser.evaluate(f"(() => {{ const r = document.querySelector("
                                f"'#board .spot[data-at=\"{cell}\"]').getBoundingClientRect(); "
                                f"return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
    x, y = middle(origin)
    browser.send("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left",
                 clickCount=1)
    until(browser, f"document.body.dataset.chosen === '{origin}'")
    x, y = middle(target)
    browser.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button="left")
    browser.send("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left",
                 clickCount=1)


def choose(position, prefer: str | list[str], rng: random.Random) -> str:
    """A legal move, of the preferred kind when there is one (the first kind some move is of,
    given several)."""
    texts = position.legal_move_texts()
    for pattern in [prefer] if isinstance(prefer, str) else prefer:
        preferred = [text for text in texts if re.search(pattern, text)]
        if preferred:
            return rng.choice(preferred)
    return rng.choice(texts)


def check_record(out: Path, played: list[str]) -> None:
    """The results row and the SGF record hold the game the page showed, and the rules agree
    with how it ended."""
    rows = rows_written(out)
    assert len(rows) == 1
    row = rows[0]
    assert row["moves"] == played
    sgf = read_sgf((out / "games" / "game-0001.sgf").read_text())
    moves = [node.get("B", node.get("W"))[0] for node in sgf.nodes if "B" in node or "W" in node]
    assert moves == played
    position = game_of(row).position_after(moves)
    if position.outcome is not None:
        assert (row["result"], row["termination"]) == (position.outcome.result,
                                                        position.outcome.termination.value)
    else:
        assert row["termination"] in ("move_limit", "resign"), row


@pytest.mark.parametrize("game", game_names())
def test_a_whole_game_by_clicks(browser, tmp_path, game):
    """A game to its end (or the move limit) by clicks; then Ctrl-C ends the command, whose
    engine has stopped with the run."""
    extra, prefer, kinds = play_by_clicks(game)
    command = PlayCommand(tmp_path / "out", game, *extra)
    rng = random.Random(game)
    try:
        browser.open(command.url)
        state = wait_for_turn(browser, -1)
        engine = command.descendants()
        assert engine  # the engine and its keeper
        assert browser.evaluate("page.state.players").count(ENGINE_NAME) == 1
        paused = False
        while not state["ended"]:
            position = game_of_page(browser)
            text = choose(position, prefer, rng)
            pause = not paused and len(board_geometry(position).cells_in(text)) > 1
            click_move(browser, position, text, pause)
            paused |= pause
            state = wait_for_turn(browser, position.ply)
            assert state["moves"][position.ply] == text
        assert paused
        assert browser.errors == []
    finally:
        browser.open("about:blank")
        errors = command.stop()
    assert command.process.returncode == 130, errors
    assert not engine & alive()
    check_record(command.out, state["moves"])
    first = find_game(game).first_player
    mine = state["moves"][first != BLACK::2]  # the person plays black
    for kind in kinds:
        assert any(re.search(kind, text) for text in mine), (kind, mine)


def test_the_page_refuses_flips_takes_back_resigns_and_starts_again(browser, tmp_path):
    """Around the moves: an illegal click and a typed illegal move are refused with the rules'
    reason, the board flips and hides its coordinates, both clocks show, a takeback undoes a
    move and its reply, resigning ends the game, the record can be saved, and a new game has
    the colours swapped; both games are in the records."""
    command = PlayCommand(tmp_path / "out", "breakthrough", "--boardsize", "4x5",
                          "--colour", "white")
    try:
        browser.open(command.url)
        wait_for_turn(browser, -1)
        clocks = browser.evaluate("[...document.querySelectorAll('.clock')].map((clock) => "
                                  "[clock.dataset.colour, clock.querySelector('.time').textContent,"
                                  " clock.classList.contains('running')])")
        assert [(colour, running) for colour, _, running in clocks] == [("black", False),
                                                                        ("white", True)]
        assert all(re.fullmatch(r"[12]:[0-5]\d\.\d", time) for _, time, _ in clocks), clocks
        # A click the rules do not allow is refused with their reason; so is a typed move.
        browser.click('#board .spot.next[data-at="a2"]')
        until(browser, "document.body.dataset.chosen === 'a2'")
        browser.click('#board [data-square="a4"]')
        until(browser, "document.getElementById('message').textContent.startsWith('a2-a4: ')")
        # The half-made move stays until Escape starts the move again.
        assert browser.evaluate("document.body.dataset.chosen") == "a2"
        browser.key("Escape", 27)
        until(browser, "document.body.dataset.chosen === ''")
        browser.evaluate("document.getElementById('typed-move').value = 'b2-b4'")
        browser.click("#typed button")
        until(browser, "document.getElementById('message').textContent.startsWith('b2-b4: ')")
        # Flipped, a1 is at the top; the coordinates can be hidden.
        low = browser.evaluate("document.querySelector('[data-square=\"a1\"]')"
                               ".getBoundingClientRect().y")
        browser.click("#flip")
        until(browser, f"document.querySelector('[data-square=\"a1\"]')"
                       f".getBoundingClientRect().y < {low}")
        browser.click("#coordinates")
        assert browser.evaluate("getComputedStyle(document.querySelector('#board .coordinate'))"
                                ".display") == "none"
        # A move and the reply to it, taken back.
        click_move(browser, game_of_page(browser), "a2-a3")
        wait_for_turn(browser, 0)
        browser.click("#takeback")
        until(browser, "page.state.ply === 0 && page.state.your_turn")
        drag(browser, "b2", "b3")
        wait_for_turn(browser, 0)
        browser.click("#resign")
        until(browser, "page.state.ended !== null && page.state.run_over")
        assert "RE[B+]" in browser.evaluate("fetch('/record').then((answer) => answer.text())")
        browser.click("#new-game")
        until(browser, "page.state.game_no === 2 && page.state.person === 'black' && "
                       "page.state.your_turn")
        assert browser.evaluate("page.state.ply") == 1  # white, the engine, moved first
        browser.click("#resign")
        until(browser, "page.state.ended !== null && page.state.run_over")
        assert [error for error in browser.errors if "409" not in error] == []
        time.sleep(0.1)
    finally:
        browser.open("about:blank")
        errors = command.stop()
    assert command.process.returncode == 130, errors
    assert not command.descendants()
    rows = rows_written(command.out)
    assert [(row["white"], row["result"], row["termination"]) for row in rows] == [
        ("human", "B+", "resign"), (ENGINE_NAME, "W+", "resign")]
    assert rows[0]["moves"][0] == "b2-b3" and len(rows[0]["moves"]) == 2


@pytest.mark.parametrize("how", ["page closed", "Ctrl-C", "Ctrl-C to a thread"])
def test_the_engine_is_gone_when_the_page_or_the_command_closes_mid_game(browser, tmp_path,
                                                                          how):
    """Closing the page in the middle of a game, or Ctrl-C, resigns it for the person (the
    game is recorded) and ends the command; the engine is gone. The kernel may deliver Ctrl-C
    to any of the command's threads (``kill`` on a thread's id delivers it there)."""
    command = PlayCommand(tmp_path / "out", "clobber", "--boardsize", "4")
    try:
        browser.open(command.url)
        wait_for_turn(browser, -1)
        engine = command.descendants()
        assert engine
        if how == "page closed":
            browser.open("about:blank")
        elif how == "Ctrl-C":
            command.process.send_signal(signal.SIGINT)
        else:
            os.kill(another_thread(command.process.pid), signal.SIGINT)
        command.process.wait(10)
    finally:
        browser.open("about:blank")
        errors = command.stop()
    assert not engine & alive()
    assert command.process.returncode == (0 if how == "page closed" else 130), errors
    row = json.loads((command.out / "results.jsonl").read_text())
    assert (row["termination"], row["reason"]) == ("resign", "black resigned")


def test_a_release_is_judged_in_the_position_the_press_was_made_in(browser, tmp_path):
    """The button goes down on a piece while the engine thinks and comes up on another after
    the engine has moved: a cell that may begin a move now, but the press was made in the
    position before, so nothing is chosen."""
    slow = f"{sys.executable} {BAD_ENGINE} --stall genmove=1.5"
    command = PlayCommand(tmp_path / "out", "breakthrough", "--boardsize", "4x5", engine=slow)

    def middle(square: str) -> list[float]:
        return browser.evaluate(f"(() => {{ const r = document.querySelector("
                                f"'#board [data-square=\"{square}\"]').getBoundingClientRect(); "
                                f"return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
    errors = len(browser.errors)
    try:
        browser.open(command.url)
        until(browser, "page.state && page.state.to_move === 'white'")  # the engine thinks
        x, y = middle("a4")
        browser.send("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left",
                     clickCount=1)
        wait_for_turn(browser, 0)
        x, y = middle("b4")
        assert browser.evaluate("!!document.querySelector('#board .spot.next[data-at=\"b4\"]')")
        browser.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button="left")
        browser.send("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left",
                     clickCount=1)
        browser.evaluate("page.pending")
        assert browser.evaluate("document.body.dataset.chosen") == ""
        assert browser.errors[errors:] == []
    finally:
        browser.open("about:blank")
        command.stop()
