"""The browser tests' Chromium client: ``scripts/browser.py`` (``scripts/play_screenshots.py``
drives the play page with it too), loaded from its file, since ``scripts/`` is no package."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "browser", Path(__file__).resolve().parents[2] / "scripts" / "browser.py")
_browser = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_browser)

Browser = _browser.Browser
BrowserError = _browser.BrowserError
until = _browser.until
game_of_page = _browser.game_of_page
