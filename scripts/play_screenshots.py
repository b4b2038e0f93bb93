#!/usr/bin/env python3
"""Screenshots of the play page (``olympiad-referee play``) in headless Chromium: every game at
its start, in the middle with a move half made (its first cell chosen), and at its end, at a
phone's width (390 px) and a desktop's (1280 px), as PNG files in a folder.

    python scripts/play_screenshots.py /tmp/shots                 # all ten games
    python scripts/play_screenshots.py /tmp/shots laocoon argon   # some of them

The person's moves are seeded random choices handed in through the page; the engine is the
greedy one. Each game is played short (:data:`SHORT`: a small board or a move limit, the
settings the browser tests played it with when these pictures were first taken). The browser
is driven by ``scripts/browser.py``, which the browser tests use too. docs/pictures/play-*.png
are a selection of these pictures.
"""

from __future__ import annotations

import json
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import game_names  # noqa: E402
from engine.drawing import board_geometry  # noqa: E402
from referee.report.png import find_browser  # noqa: E402
from scripts.browser import Browser, game_of_page, until  # noqa: E402

ENGINE = f"{sys.executable} -m protocol.cli --algorithm greedy --seed 7"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 800)}
# Each game's settings for ``olympiad-referee play``: a small board, or a move limit where the
# game would be long (laoCoon: the random variant, on a layout that lasts).
SHORT = {
    "argon": ["--boardsize", "5"],
    "breakthrough": ["--boardsize", "4x5"],
    "clobber": ["--boardsize", "4"],
    "cookiedisco": ["--max-moves", "12"],
    "domineering": ["--boardsize", "4"],
    "knightthrough": ["--boardsize", "4x6"],
    "kolem": ["--max-moves", "30"],
    "laocoon": ["--max-moves", "30", "--option", "variant=random", "--option",
                "layout=pbbpybybyypypyopbybypbpoypybyooobypbybpoooyooobpppooypopybboobbp"],
    "loa": ["--max-moves", "16"],
    "surakarta": ["--max-moves", "60"],
}
# A game not in SHORT: as it comes, with a move limit.
PLAIN = ["--max-moves", "30"]


def shoot(browser: Browser, folder: pathlib.Path, name: str) -> None:
    """The page at each width, as ``NAME-WIDTH.png``."""
    for label, (width, height) in WIDTHS.items():
        browser.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                     deviceScaleFactor=1, mobile=label == "phone")
        time.sleep(0.4)  # the board follows the window's size
        browser.screenshot(folder / f"{name}-{label}.png")


def play(browser: Browser, folder: pathlib.Path, game: str) -> None:
    """One game of ``game`` on the page, with its three pictures."""
    extra = SHORT.get(game, PLAIN)
    limit = int(extra[extra.index("--max-moves") + 1]) if "--max-moves" in extra else 40
    with tempfile.TemporaryDirectory() as out:
        command = subprocess.Popen(
            [sys.executable, "-m", "referee", "play", "--game", game, "--engine", ENGINE,
             "--no-browser", "--out", f"{out}/records", "--away", "1", *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            browser.open(re.search(r"(http://\S+)", command.stderr.readline()).group(1))
            until(browser, "page.state && page.state.your_turn")
            shoot(browser, folder, f"{game}-start")
            rng, middle = random.Random(1), False
            while not browser.evaluate("page.state.ended"):
                position = game_of_page(browser)
                text = rng.choice(position.legal_move_texts())
                if position.ply >= limit // 2 and not middle:
                    text = half_made(browser, position, rng) or text
                    shoot(browser, folder, f"{game}-middle")
                    browser.key("Escape", 27)
                    middle = True
                browser.evaluate(f"submit({json.dumps(text)})")
                until(browser, f"page.state.ply > {position.ply} && "
                               f"(page.state.your_turn || page.state.ended !== null)", 30)
            time.sleep(0.3)
            shoot(browser, folder, f"{game}-end")
        finally:
            browser.open("about:blank")
            command.terminate()
            command.wait(10)


def half_made(browser: Browser, position, rng: random.Random) -> str | None:
    """Choose the first cell of a move that names several; that move's text."""
    geometry = board_geometry(position)
    longer = [text for text in position.legal_move_texts() if len(geometry.cells_in(text)) > 1]
    if not longer:
        return None
    text = rng.choice(longer)
    first = geometry.name(geometry.cells_in(text)[0])
    browser.evaluate(f"choose({json.dumps(first)})")
    until(browser, f"document.body.dataset.chosen === {json.dumps(first)}")
    return text


def main() -> None:
    folder = pathlib.Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    browser = Browser(find_browser() or "chromium")
    try:
        for game in sys.argv[2:] or game_names():
            play(browser, folder, game)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
