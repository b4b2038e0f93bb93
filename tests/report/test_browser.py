"""The report in a real browser: Debian's Chromium, headless, opens ``report.html`` from disk,
steps through every game with the keys and the buttons, and the test reads the DOM: the pieces
on the board are where the rules put them at that ply, and the page logged no error. A short
match of each of the ten games goes through the same steps. The live page is opened over HTTP
from the report server. Screenshots of each game's board are kept (the path is printed at the
end of the run)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from engine import BLACK, WHITE, find_game, game_names
from engine.search import Analysis
from referee.records.folder import REPORT_NAME
from referee.report.folder import write_report
from referee.report.png import find_browser
from referee.records.results import game_of_row as game_of
from referee.host.report_server import ReportServer
from referee.report.live import LiveGame, LiveGames

from ..results import rows_written
from ..test_drawing import expected_pieces
from .browser import Browser
from .conftest import PYTHON, run_match

CHROMIUM = find_browser()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found (chromium, chromium-browser or google-chrome "
                             "on PATH); .ci/run installs Debian's chromium")

# Where each piece of a colour is on the board, and how many are in hand, read in the page.
DOM_PIECES = """(() => {
  const found = {black: [], white: [], black_hand: 0, white_hand: 0};
  for (const piece of document.querySelectorAll("#board .piece")) {
    const colour = piece.classList.contains("black") ? "black" : "white";
    if (piece.classList.contains("hand")) found[colour + "_hand"] += 1;
    else found[colour].push(piece.getAttribute("data-at"));
  }
  found.black.sort(); found.white.sort();
  return found;
})()"""


def rules_pieces(position) -> dict:
    """The same, from the rules' own state (as the drawing tests read it)."""
    found = {}
    for colour, word in ((BLACK, "black"), (WHITE, "white")):
        cells, found[f"{word}_hand"] = expected_pieces(position, colour)
        found[word] = sorted(cells)
    return found


@pytest.fixture(scope="module")
def browser():
    chromium = Browser(CHROMIUM)
    yield chromium
    chromium.close()


def shown_ply(browser: Browser) -> int:
    return int(browser.evaluate("document.getElementById('board').dataset.ply"))


def step_through(browser: Browser, out: Path, row: dict, screenshots: Path) -> None:
    """Open game ``row`` of ``out``'s report, go to its start, step to its end with the right
    arrow key, checking the board against the rules at every ply."""
    url = (out / REPORT_NAME).resolve().as_uri()
    browser.open(f"{url}#game-{row['game_no']}")
    browser.wait_for(f"document.getElementById('board').dataset.game === '{row['game_no']}'")
    assert shown_ply(browser) == row["plies"]   # a game opens at its end
    browser.key("Home", 36)
    position = game_of(row).initial_position()
    for ply in range(row["plies"] + 1):
        assert shown_ply(browser) == ply
        assert browser.evaluate(DOM_PIECES) == rules_pieces(position), f"ply {ply}"
        assert browser.evaluate("location.hash") == f"#game-{row['game_no']}-ply-{ply}"
        if ply < row["plies"]:
            position.play(position.parse_move(row["moves"][ply]))
            browser.key("ArrowRight", 39)
    browser.key("ArrowRight", 39)   # past the end: stays there
    assert shown_ply(browser) == row["plies"]
    assert browser.evaluate("document.getElementById('v-final').hidden") is False
    final = browser.evaluate("document.getElementById('v-final').textContent")
    assert row["termination"] in final and row["reason"] in final
    browser.screenshot(screenshots / f"{out.name}-game-{row['game_no']}.png", "#board")


def test_the_report_opens_from_disk_and_every_game_replays(browser, breakthrough_match,
                                                           screenshots):
    write_report(breakthrough_match)
    url = (breakthrough_match / REPORT_NAME).resolve().as_uri()
    browser.open(url)
    names = browser.evaluate("[...document.querySelectorAll('#standings table:not(.headline) "
                             "tr')].slice(1).map(row => row.cells[1].textContent)")
    assert sorted(names) == sorted(json.loads((breakthrough_match / "summary.json")
                                              .read_text())["engines"])
    browser.screenshot(screenshots / "breakthrough-summary.png")
    rows = rows_written(breakthrough_match)
    for row in rows:
        step_through(browser, breakthrough_match, row, screenshots)
    assert browser.errors == []


def test_buttons_a_ply_link_flip_and_copy(browser, breakthrough_match):
    write_report(breakthrough_match)
    row = rows_written(breakthrough_match)[0]
    url = (breakthrough_match / REPORT_NAME).resolve().as_uri()
    browser.open(f"{url}#game-1-ply-5")
    browser.wait_for("document.getElementById('board').dataset.ply === '5'")
    browser.click("#back")
    assert shown_ply(browser) == 4
    browser.click("#forward")
    browser.click("#forward")
    assert shown_ply(browser) == 6
    browser.click("#first")
    assert shown_ply(browser) == 0
    browser.click("#last")
    assert shown_ply(browser) == row["plies"]
    browser.click("#moves li[data-ply='3'] button")
    assert shown_ply(browser) == 3
    assert browser.evaluate("document.getElementById('ply-link').getAttribute('href')") \
        == "#game-1-ply-3"
    browser.click("#flip")
    assert browser.evaluate("document.getElementById('board').classList.contains('flipped')")
    browser.click("#copy")
    status = browser.wait_for("document.getElementById('copy-status').textContent")
    assert status in ("copied", "select and copy: " + " ".join(row["moves"]))
    browser.key("Escape", 27)  # clears the fragment; the page follows on 'hashchange', later
    assert browser.wait_for("document.getElementById('summary').hidden === false") is True
    assert browser.errors == []


@pytest.mark.parametrize("name", game_names())
def test_a_short_match_of_every_game_replays(browser, name, tmp_path, screenshots):
    out = run_match(tmp_path / name, name, 1, 12)
    write_report(out)
    for row in rows_written(out):
        step_through(browser, out, row, screenshots)
    assert browser.errors == []


def test_the_served_page_shows_games_in_progress_move_by_move(browser, breakthrough_match,
                                                              screenshots):
    write_report(breakthrough_match)
    live = LiveGames()
    live.running = True
    live.start(LiveGame(9, "ours", "random", find_game("breakthrough")(), (20.0, 20.0)))
    server = ReportServer(breakthrough_match, live, port=0)
    try:
        browser.open(server.url)
        card = "document.querySelector('#live-games figure[data-game=\"9\"]')"
        browser.wait_for(f"{card} && {card}.dataset.ply === '0'")
        live.move(9, "a2-a3", (19.0, 20.0))
        browser.wait_for(f"{card}.dataset.ply === '1'")
        pieces = browser.evaluate(f"{card}.querySelectorAll('.piece.white[data-at=\"a3\"]')"
                                  ".length")
        assert pieces == 1
        browser.screenshot(screenshots / "live-game-9.png", "#live-games")
        browser.evaluate("window.beforeReload = true")
        path = breakthrough_match / REPORT_NAME
        os.utime(path, ns=(time.time_ns(), path.stat().st_mtime_ns + 1_000_000_000))
        browser.wait_for("window.beforeReload === undefined && document.readyState === "
                         "'complete'")
        assert "live" in browser.wait_for("document.getElementById('live-status').textContent")
    finally:
        browser.open("about:blank")  # no more polling of a server that is gone
        server.stop()
    assert browser.errors == []


ANALYSING = (f"{PYTHON} -m protocol.cli --depth 2 --seed 3",
             f"{PYTHON} -m protocol.cli --playouts 60 --seed 5")
POLYLINE_POINTS = ("[...document.querySelectorAll('#evaluation polyline.view.{side}')]"
                   ".map(line => line.getAttribute('points').trim().split(' ').length)")


def test_the_evaluation_graph_and_the_pv_of_a_run_played_with_genmove_analyze(
        browser, tmp_path, screenshots):
    # Alpha-beta against MCTS, both answering genmove_analyze: both views on one chart.
    out = run_match(tmp_path / "analysed", "breakthrough", 1, 16, "--engine", ANALYSING[0],
                    "--engine", ANALYSING[1], engines=())
    write_report(out)
    row = rows_written(out)[0]
    assert all(entry is not None for entry in row["analysis"])
    url = (out / REPORT_NAME).resolve().as_uri()
    browser.open(f"{url}#game-1-ply-3")
    browser.wait_for("document.getElementById('board').dataset.ply === '3'")
    assert browser.evaluate("document.getElementById('evaluation').hidden") is False
    black_points = browser.evaluate(POLYLINE_POINTS.format(side="black"))
    white_points = browser.evaluate(POLYLINE_POINTS.format(side="white"))
    assert black_points == [(row["plies"] + 1) // 2] and white_points == [row["plies"] // 2]
    for ply in (1, 2, 3):
        browser.click(f"#moves li[data-ply='{ply}'] button")
        text = browser.evaluate("document.getElementById('analysis-info').textContent")
        side = ("black", "white")[ply % 2]  # Breakthrough: white moves first
        pv = " ".join(row["analysis"][ply - 1]["pv"])
        assert text.startswith(f"{side}'s engine: score ") and text.endswith(f"pv {pv}")
        assert browser.evaluate("document.querySelector('#evaluation svg').dataset.ply") \
            == str(ply)
    browser.screenshot(screenshots / "analysed-evaluation.png", "#viewer")
    assert browser.errors == []


def test_the_live_view_shows_the_last_analysis_and_the_graph(browser, breakthrough_match):
    write_report(breakthrough_match)
    live = LiveGames()
    live.running = True
    live.start(LiveGame(7, "ours", "theirs", find_game("breakthrough")(), (20.0, 20.0)))
    server = ReportServer(breakthrough_match, live, port=0)
    try:
        browser.open(server.url)
        card = "document.querySelector('#live-games figure[data-game=\"7\"]')"
        browser.wait_for(f"{card} && {card}.dataset.ply === '0'")
        live.move(7, "a2-a3", (19.0, 20.0))
        live.analyse(7, 1, Analysis(score=0.25, depth=3, pv=("a2-a3", "h7-h6")))
        live.move(7, "h7-h6", (19.0, 19.0))
        live.analyse(7, 2, Analysis(score=-0.5, depth=12, nodes=123456789, seconds=1.5,
                                    pv=("h7-h6", "a3-a4") * 6))
        browser.wait_for(f"{card}.dataset.ply === '2'")
        text = browser.wait_for(f"{card}.querySelector('.analysis').textContent")
        assert text.startswith("black's engine: score -0.50 · depth 12 · ")
        assert browser.evaluate(f"{card}.querySelectorAll('svg.evaluation polyline').length") \
            == 2
        # The card keeps the board's width (a long line wraps) and the small chart's title fits
        # in it, its legend not over the title.
        assert browser.evaluate(f"{card}.querySelector('.analysis').offsetWidth") <= 280
        title = f"{card}.querySelector('svg.evaluation text.title').getBBox()"
        assert browser.evaluate(f"{title}.x + {title}.width") <= 280
        overlaps = """[...CARD.querySelectorAll('svg.evaluation text:not(.title)')].some(text => {
            const a = text.getBBox(), b = CARD.querySelector('svg.evaluation text.title').getBBox();
            return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height
                && b.y < a.y + a.height; })"""
        assert browser.evaluate(overlaps.replace("CARD", card)) is False
    finally:
        browser.open("about:blank")  # no more polling of a server that is gone
        server.stop()
    assert browser.errors == []
