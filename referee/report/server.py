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
machine. It listens on 127.0.0.1 unless told otherwise; ``--host 0.0.0.0`` makes it reachable
from the network, to anyone who can reach the port (there is no password and no TLS).
"""

from __future__ import annotations

import logging
import mimetypes
import threading
from http import HTTPStatus
from pathlib import Path
from typing import Any

from engine import Game, GameError, Position
from engine.drawing import svg
from engine.search import Analysis

from ..records.analysis import to_row
from .evaluation import evaluation_chart, ply_texts
from .gate import Gate, GatedHandler, GatedServer, Limits, Request, Route

from ..records.folder import ASSETS_DIR, REPORT_NAME

DEFAULT_PORT = 8000
DEFAULT_HOST = "127.0.0.1"


class LiveGame:
    """One game in progress: its players, its position by the rules, the moves and clocks."""

    def __init__(self, game_no: int, black: str, white: str, game: Game,
                 clocks: tuple[float | None, float | None]) -> None:
        self.game_no = game_no
        self.black = black
        self.white = white
        self.position: Position | None = game.initial_position()
        self.first_player = game.first_player
        self.moves: list[str] = []
        self.movers: list[int] = []
        self.analyses: list[dict[str, Any] | None] = []
        self.clocks = list(clocks)
        self._drawn: tuple[int, str | None] | None = None  # (ply, board) last drawn
        self._charted: tuple[int, str] | None = None  # (analysed plies, chart) last drawn

    def play(self, move: str, clocks: tuple[float, float]) -> None:
        """One more move; a move the position refuses (should the runner and this view ever
        disagree) leaves the board out from then on, the moves still listed."""
        self.moves.append(move)
        self.analyses.append(None)
        self.movers.append(self.movers[-1] ^ 1 if self.movers else self.first_player)
        self.clocks = list(clocks)
        if self.position is not None:
            try:
                self.position.play(self.position.parse_move(move))
            except GameError:
                self.position = None

    def analyse(self, ply: int, analysis: Analysis) -> None:
        """The engine's analysis of ply ``ply`` (1-based, already played)."""
        if 0 < ply <= len(self.analyses):
            self.analyses[ply - 1] = to_row(analysis)

    def state(self) -> dict[str, Any]:
        """The game as ``live.json`` gives it; the board (``None`` once a move did not replay)
        is drawn again only after a move."""
        ply = len(self.moves)
        if self._drawn is None or self._drawn[0] != ply:
            board = None if self.position is None else svg(
                self.position, self.moves[-1] if self.moves else None)
            self._drawn = (ply, board)
        analysed = sum(entry is not None for entry in self.analyses)
        if analysed and (self._charted is None or self._charted[0] != analysed):
            self._charted = (analysed, evaluation_chart(self.analyses, self.movers, 280, 120))
        return {"game_no": self.game_no, "black": self.black, "white": self.white, "ply": ply,
                "moves": list(self.moves), "clocks": self.clocks, "board": self._drawn[1],
                "analysis": ply_texts(self.analyses[-1:], self.movers[-1:])[0]
                if self.analyses else "",
                "evaluation": self._charted[1] if self._charted else ""}


class LiveGames:
    """The games in progress of a run, shared between the runner's threads and the server."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[int, LiveGame] = {}
        self.running = False

    def start(self, game: LiveGame) -> None:
        with self._lock:
            self._games[game.game_no] = game

    def move(self, game_no: int, move: str, clocks: tuple[float, float]) -> None:
        with self._lock:
            if game_no in self._games:
                self._games[game_no].play(move, clocks)

    def analyse(self, game_no: int, ply: int, analysis: Analysis) -> None:
        with self._lock:
            if game_no in self._games:
                self._games[game_no].analyse(ply, analysis)

    def finish(self, game_no: int) -> None:
        with self._lock:
            self._games.pop(game_no, None)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()

    def snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return [self._games[number].state() for number in sorted(self._games)]


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
        host, port = self.httpd.server_address[:2]
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{port}/{REPORT_NAME}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join()
