"""Serving the report over HTTP while a run goes on, with the games in progress move by move.

A small standard-library server (``http.server`` in a thread) serves the report's own files
of one output folder (``report.html`` and ``report-assets/``) and ``live.json``: the games in
progress, each with its moves, clocks, current board and, where the engines analyse their moves,
the last move's analysis and the game's evaluation chart, and ``version``, which changes each
time ``report.html`` is rewritten. The page polls ``live.json`` every second, draws the games in
progress and reloads itself when a game has finished (see ``report.js``).

Only those files are served (:data:`ROUTES`, through the gate of :mod:`.gate`: a folder or
any other path is 404, never a listing): the engines' command lines and standard-error tails in
``match.json`` and ``results.jsonl`` stay private even when the server is exposed beyond this
machine. It listens on 127.0.0.1 unless told otherwise (an IPv6 address such as ``::1`` too);
``--host 0.0.0.0`` (or ``::``) makes it reachable from the network, to anyone who can reach the
port (there is no password and no TLS).
"""

from __future__ import annotations

import logging
import mimetypes
import threading
from http import HTTPStatus
from pathlib import Path

from ..records.folder import ASSETS_DIR, REPORT_NAME
from ..report.live import LiveGames
from .http_gate import Gate, GatedHandler, GatedServer, Limits, Request, Route

DEFAULT_PORT = 8000
DEFAULT_HOST = "127.0.0.1"


LIMITS = Limits(connections=128)
ROUTES = {"/": Route("GET"), "/live.json": Route("GET"), f"/{REPORT_NAME}": Route("GET"),
          f"/{ASSETS_DIR}/": Route("GET", folder=True)}
log = logging.getLogger("referee.report")


def _handler(out: Path, live: LiveGames | None, limits: Limits) -> type[GatedHandler]:
    """The request handler class for one folder: the report's files and ``live.json``."""

    class Handler(GatedHandler):
        gate = Gate(ROUTES, limits)
        logger = log

        def answer(self, request: Request) -> None:
            if request.path == "/":
                self.send(HTTPStatus.FOUND, b"", "text/plain", {"Location": f"/{REPORT_NAME}"})
            elif request.path == "/live.json":
                self._live()
            elif request.name:
                self._file(out / ASSETS_DIR / request.name)
            else:
                self._file(out / REPORT_NAME)

        def _file(self, path: Path) -> None:
            """The file at ``path``, or 404 if it is not a plain file (a folder, say)."""
            try:
                if not path.is_file():
                    raise FileNotFoundError(path.name)
                body = path.read_bytes()
            except OSError:
                self.refuse(HTTPStatus.NOT_FOUND, f"no such file: {path.name}")
                return
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            self.send(HTTPStatus.OK, body, kind)

        def _live(self) -> None:
            try:
                version = (out / REPORT_NAME).stat().st_mtime_ns
            except OSError:
                version = 0
            self.send_json({"version": version, "running": bool(live and live.running),
                            "games": live.snapshot() if live else []})

    return Handler


class ReportServer:
    """The report of ``out`` served on ``host:port`` from a daemon thread (port 0: any free
    port), within ``limits``; raises ``OSError`` when the address cannot be bound."""

    def __init__(self, out: Path, live: LiveGames | None = None, host: str = DEFAULT_HOST,
                 port: int = DEFAULT_PORT, limits: Limits = LIMITS) -> None:
        self.live = live
        self.httpd = GatedServer((host, port), _handler(out, live, limits))
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="report server",
                                        daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"{self.httpd.origin}/{REPORT_NAME}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join()
