"""The ladder's pages in headless Chromium (the report tests' client, scripts/browser.py):
a pool page shows its standings and its game in progress moving, a game page opens the replay
viewer on that game and steps through it, and no page logs an error."""

from __future__ import annotations

import pytest

from engine import find_game
from referee.host.ladder_alltime import AllTimeRatings
from referee.host.ladder_pages import LadderPages
from referee.report.live import LiveGame, LiveGames
from referee.report.png import find_browser

from ..report.browser import Browser

CHROMIUM = find_browser()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (chromium, "
                                "chromium-browser or google-chrome on PATH)")


@pytest.fixture(scope="module")
def browser():
    chromium = Browser(CHROMIUM)
    yield chromium
    chromium.close()


def test_a_pool_page_and_a_game_page_in_a_browser(ladder, browser):
    live = LiveGames()
    live.start(LiveGame(ladder.playing, "alpha", "beta", find_game("breakthrough")(),
                        (60.0, 60.0)))
    pool = ladder.pools["bt"].id
    server = LadderPages(ladder.records, live=lambda wanted: live if wanted == pool else None,
                         port=0, ratings=AllTimeRatings(ladder.records, look=60))
    try:
        browser.open(server.url + "/pool/bt")
        names = browser.evaluate(
            "[...document.querySelectorAll('table.standings td.name a')].map(a => a.textContent)")
        assert sorted(names) == ["_under", "alpha", "beta", "gamma"]
        card = f"document.querySelector('#live-games figure[data-game=\"{ladder.playing}\"]')"
        browser.wait_for(f"{card} && {card}.dataset.ply === '0'")
        live.move(ladder.playing, "a2-a3", (59.0, 60.0))
        browser.wait_for(f"{card} && {card}.dataset.ply === '1'")

        first = min(ladder.finished)
        plies = len(ladder.records.game(first).ending.moves)
        browser.open(server.url + f"/game/{first}")
        board = "document.getElementById('board')"
        browser.wait_for(f"{board}.dataset.game === '{first}'")
        assert int(browser.evaluate(f"{board}.dataset.ply")) == plies  # opens at the end
        assert browser.evaluate(f"{board}.querySelectorAll('.piece').length") > 0
        browser.key("Home", 36)
        browser.key("ArrowRight", 39)
        assert int(browser.evaluate(f"{board}.dataset.ply")) == 1
        assert browser.evaluate("document.getElementById('analysis-info').textContent")
        assert not browser.evaluate("document.getElementById('evaluation').hidden")
        assert browser.errors == []
    finally:
        server.stop()
