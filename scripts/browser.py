"""A headless Chromium driven over the DevTools protocol through a pipe, with the stdlib only.

Chromium's ``--remote-debugging-pipe`` reads protocol messages (JSON, each ended by a NUL byte)
on its file descriptor 3 and writes answers and events on descriptor 4: no websocket, no port,
no driver program whose version must match the browser's. That is why the browser tests need
no test dependency (not selenium with chromedriver, not a websocket client): this file is the
whole client, a few calls of the protocol (Target, Page, Runtime, Input, Log), with
:func:`until` (a condition waited for inside the page) and :func:`game_of_page` (the position the
play page shows). The browser tests (``tests/report``, ``tests/ladder``) and
``scripts/play_screenshots.py`` share it.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import Position, find_game

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe", "--window-size=1200,900"]
TIMEOUT = 30.0
# What Chromium answers an evaluation that a navigation (a reload) interrupted.
NAVIGATING = ("Inspected target navigated or closed", "Execution context was destroyed",
              "Cannot find context with specified id")


class BrowserError(RuntimeError):
    """The browser answered a command with an error, or went away."""


class Browser:
    """One headless Chromium with one page (tab); :meth:`close` ends it and removes its
    profile. Page errors (uncaught exceptions, ``console.error``, failed loads) are collected
    in :attr:`errors`."""

    def __init__(self, program: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="report-test-profile-")
        to_browser, self._write = os.pipe()
        self._read, from_browser = os.pipe()

        def descriptors() -> None:  # in the child: its ends of the pipes as 3 and 4
            reading, writing = os.dup(to_browser), os.dup(from_browser)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self.process = subprocess.Popen(
            [program, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            preexec_fn=descriptors, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.errors: list[str] = []
        target = self.command("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.command("Target.attachToTarget", targetId=target,
                                    flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")

    # --- the protocol ------------------------------------------------------------------------

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise BrowserError("no answer from the browser in time")
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                raise BrowserError("the browser closed its pipe")
            self._buffer += chunk
        text, _, self._buffer = self._buffer.partition(b"\0")
        message = json.loads(text)
        if "method" in message:
            self._note(message)
        return message

    def _note(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        params = event.get("params", {})
        if event["method"] == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append(details.get("exception", {}).get("description")
                               or details.get("text", "exception"))
        elif event["method"] == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.errors.append(" ".join(str(arg.get("value", arg.get("description")))
                                        for arg in params.get("args", [])))
        elif event["method"] == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            self.errors.append(f"{entry.get('text')} ({entry.get('url', '')})")

    def command(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Send one command and wait for its answer (events meanwhile are kept)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            answer = self._message(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error'].get('message')}")
                return answer.get("result", {})

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """A command to the page."""
        return self.command(method, self.session, **params)

    # --- what the tests do -------------------------------------------------------------------

    def open(self, url: str) -> None:
        """Load ``url`` and wait until its load event has fired."""
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete'")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 10.0) -> Any:
        """Poll ``expression`` until it is true; returns its value. A page navigating (a
        reload) while the expression is evaluated counts as not yet."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except BrowserError as error:
                if not any(words in str(error) for words in NAVIGATING):
                    raise
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"still false after {timeout} s: {expression}")
            time.sleep(0.05)

    def key(self, key: str, code: int) -> None:
        """Press and release a key (``ArrowRight``, 39) as a user would."""
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=key,
                      windowsVirtualKeyCode=code)

    def click(self, selector: str) -> None:
        """Click the middle of the element ``selector`` names."""
        box = self.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                            ".getBoundingClientRect(); return [r.x + r.width / 2, "
                            "r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left",
                      clickCount=1)

    def screenshot(self, path: Path, selector: str | None = None) -> None:
        """Save a PNG of the page, or of the element ``selector`` names."""
        params: dict[str, Any] = {"format": "png"}
        if selector:
            box = self.evaluate(f"(() => {{ const r = document.querySelector("
                                f"{json.dumps(selector)}).getBoundingClientRect(); "
                                "return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })()")
            params["clip"] = {"x": box[0], "y": box[1], "width": max(1, box[2]),
                              "height": max(1, box[3]), "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", **params)["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.command("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._write)
        os.close(self._read)
        shutil.rmtree(self.profile, ignore_errors=True)


def until(browser: Browser, condition: str, timeout: float = 20.0) -> None:
    """Wait until the JavaScript ``condition`` holds in the page, checked every few
    milliseconds inside the page (quicker than asking from here again and again)."""
    waited = browser.evaluate(
        f"new Promise((resolve) => {{ const end = performance.now() + {timeout * 1000}; "
        f"const check = () => {{ if ({condition}) resolve(true); "
        f"else if (performance.now() > end) resolve(false); else setTimeout(check, 5); }}; "
        f"check(); }})")
    if not waited:
        raise BrowserError(f"still false after {timeout} s: {condition}")


def game_of_page(browser: Browser) -> Position:
    """The position the play page shows, rebuilt with the rules from the game, options and
    board size the page was given and the moves it lists."""
    state = browser.evaluate("({game: page.state.game, options: page.state.options, "
                             "size: page.state.size, moves: page.state.moves})")
    kind = find_game(state["game"])
    size = tuple(state["size"]) if state["size"] and kind.size_limits else None
    return kind(state["options"], size).position_after(state["moves"])
