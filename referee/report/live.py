"""The games in progress of a run, move by move, as the live report shows them: each with its
moves, clocks, current board and, where the engines analyse their moves, the last move's
analysis and the game's evaluation chart. :class:`~referee.report.observers.LiveView` feeds it;
the report's server (:mod:`referee.host.report_server`) serves it as ``live.json``.
"""

from __future__ import annotations

import threading
from typing import Any

from engine import Game, GameError, Position
from engine.drawing import svg
from engine.search import Analysis

from ..records.analysis import to_row
from .evaluation import evaluation_chart, ply_texts


class LiveGame:
    """One game in progress: its number as the pages show it, its players, its position by
    the rules, the moves and clocks."""

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

    def start(self, game: LiveGame, key: int | None = None) -> None:
        """Follow ``game``, known to :meth:`move`, :meth:`analyse` and :meth:`finish` by
        ``key``, the runner's number of the game, when that is not the number it shows (the
        ladder shows its database's)."""
        with self._lock:
            self._games[game.game_no if key is None else key] = game

    def move(self, game_no: int, move: str, clocks: tuple[float, float]) -> None:
        with self._lock:
            if game_no in self._games:
                self._games[game_no].play(move, clocks)

    def analyse(self, game_no: int, ply: int, analysis: Analysis) -> None:
        with self._lock:
            if game_no in self._games:
                self._games[game_no].analyse(ply, analysis)

    def rename(self, old: str, new: str) -> None:
        """The player called ``old`` is called ``new`` from now on (a renamed ladder account)."""
        with self._lock:
            for game in self._games.values():
                game.black = new if game.black == old else game.black
                game.white = new if game.white == old else game.white

    def finish(self, game_no: int) -> None:
        with self._lock:
            self._games.pop(game_no, None)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()

    def snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return [self._games[number].state() for number in sorted(self._games)]
