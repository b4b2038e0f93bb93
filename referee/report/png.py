"""A board picture as PNG: the SVG drawing, taken as a screenshot by a headless Chromium.

The pictures are SVG (:func:`engine.drawing.svg`); a PNG is for places that take no SVG (chat,
slides, issue trackers). Rather than a second renderer whose output could differ from what the
report shows, the browser that draws the report draws the picture: Chromium's ``--headless
--screenshot`` loads the SVG file in a window of exactly the picture's size and saves that
window. It is the Chromium the report's browser tests use (Debian's ``chromium``), run with a
profile of its own in a temporary folder, so that a browser the user has open is never touched.
When no Chromium is installed there is no PNG: :func:`find_browser` says so first.

>>> picture_size('<svg xmlns="http://www.w3.org/2000/svg" width="347.84" height="375.2">')
(348, 376)
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

# Where a Chromium is looked for, in order, on PATH.
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# Seconds the browser may take to start, draw and save one picture.
TIMEOUT = 60.0
_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([0-9.]+)"[^>]*?\bheight="([0-9.]+)"')


class PictureError(Exception):
    """The browser could not turn the picture into a PNG; the message says why."""


def find_browser() -> str | None:
    """The path of a Chromium on PATH, or ``None``."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def picture_size(svg_text: str) -> tuple[int, int]:
    """The picture's width and height in whole pixels (rounded up), from its root element."""
    match = _SIZE.search(svg_text)
    if match is None:
        raise PictureError("the picture gives no width and height")
    return math.ceil(float(match[1])), math.ceil(float(match[2]))


def write_png(svg_text: str, out: Path, browser: str) -> None:
    """Draw ``svg_text`` with the Chromium at ``browser`` and write the PNG to ``out``
    (nothing is written when the browser fails)."""
    width, height = picture_size(svg_text)
    with tempfile.TemporaryDirectory(prefix="olympiad-png-") as folder:
        picture, shot = Path(folder, "picture.svg"), Path(folder, "picture.png")
        picture.write_text(svg_text, encoding="utf-8")
        command = [browser, "--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                   "--disable-background-networking", "--disable-component-update",
                   f"--user-data-dir={Path(folder, 'profile')}",
                   f"--window-size={width},{height}", f"--screenshot={shot}", picture.as_uri()]
        if os.geteuid() == 0:
            command.insert(1, "--no-sandbox")  # Chromium refuses to run as root with one
        try:
            done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise PictureError(f"{browser} drew nothing in {TIMEOUT:g} s") from None
        except OSError as error:
            raise PictureError(f"cannot run {browser}: {error.strerror}") from None
        data = shot.read_bytes() if shot.exists() else b""
        if not data.startswith(PNG_MAGIC):
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise PictureError(f"{browser} wrote no PNG (status {done.returncode}"
                               + (f": {said[-1][:120]})" if said else ")"))
    out.write_bytes(data)
