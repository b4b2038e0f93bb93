"""The page a person plays on: a small HTTP server on 127.0.0.1 over one person's seat
(:class:`~referee.play.human.Seat`).

The page (``play.js``) knows no rules. It asks the server for the state (the board drawn by the
project's drawing layer, the moves, the clocks, whose turn) and, as the person clicks, for the
cells that may follow the cells clicked so far (:func:`choices`): these come from the rules'
``legal_moves``, each move's text split into the cells it names by the board's own geometry, so
every compound move (a capture, laoCoon's ring step and disc, Argon's two stones, Domineering's
domino, Cookie Disco's roll) is built by clicking its cells in the order the move names them.
A click that no legal move allows is explained by the rules' own reason (:func:`why_not`).

Everything the page sends goes through the seat, which refuses and logs what it does not take
(a forged or illegal move, a stale ply, a tab that lost the seat); the server refuses requests
that are not the page's own: another ``Host`` (DNS rebinding) or another ``Origin``. Before
anything else, each request passes the gate (:mod:`.http_gate`, with :data:`ROUTES` and
:data:`LIMITS`): what a request may hold, bounded and typed, or a 4xx. Requests:

=======================  ==================================================================
``GET /``                the page
``POST /claim``          a token for this tab, which holds the seat from now on
``GET /state``           the state (``since=VERSION`` waits up to ``redraw`` seconds for a
                         change; ``token``, ``flipped``)
``GET /choices``         the cells that may follow ``cell=...`` (repeated) at ``ply``
``GET /why``             why the cells ``cell=...`` make no legal move
``GET /record``          the game so far as SGF
``POST /move``           ``{"token", "ply", "move"}``; also ``/resign``, ``/takeback``
                         (``{"token", "ply"}``), ``/new`` and ``/leave`` (``{"token"}``)
=======================  ==================================================================
"""

from __future__ import annotations

import threading
import time
from http import HTTPStatus
from importlib import resources
from typing import Any, Callable

from engine import COLOUR_NAMES, GameError, IllegalMoveError, Position
from engine.drawing import board_geometry, svg

from ..play.human import HUMAN, Seat, SeatRefused, log
from ..records.game_sgf import sgf_text
from ..records.results import FinishedGame
from ..run.observer import Run, RunObserver
from ..stats.summary import Summary
from .http_gate import (Field, Gate, GatedHandler, GatedServer, Limits, Request, Route, flag,
                        number, plain_text, token)
from .summed_log import LOG_INTERVAL

LOOPBACK = "127.0.0.1"
# Seconds a request for the state waits for a change before it answers all the same (the page
# redraws then); by default, and at most (a page must ask within the seat's LEASE).
REDRAW = 10.0
MAX_REDRAW = 20.0
# The largest request body the page sends (a move and a token).
MAX_BODY = 4096
# How the cells of a click may be joined into a move's text, to ask the rules why it is refused.
_JOINS = ("-", "x", "+", ">")


def move_cells(position: Position, flipped: bool) -> tuple[list[tuple[str, tuple[str, ...]]],
                                                             dict[str, tuple[float, float]]]:
    """Every legal move's text with the names of the cells it names, in order (a cell may come
    twice: laoCoon's ``b5+b5=a6``), and where each of those cells lies in the picture
    (``flipped`` as drawn)."""
    geometry = board_geometry(position, flipped)
    moves, spots = [], {}
    for text in position.legal_move_texts():
        cells = [cell for cell in geometry.cells_in(text) if cell is not None] if geometry else []
        names = tuple(geometry.name(cell) for cell in cells)
        for cell, name in zip(cells, names):
            if name not in spots:
                spots[name] = tuple(round(value, 2) for value in geometry.centre(cell))
        moves.append((text, names))
    return moves, spots


def text_so_far(text: str, cells: tuple[str, ...], depth: int) -> str:
    """The start of the move ``text`` that names its first ``depth`` ``cells`` and stops after
    the last of them (``d4-e5`` of ``d4-e5+c3`` at depth 2; ``""`` at depth 0).

    >>> text_so_far("0,1>2,-1", ("0,1", "2,-1"), 1), text_so_far("a1-a10", ("a1", "a10"), 2)
    ('0,1', 'a1-a10')
    """
    end = 0
    for name in cells[:depth]:
        end = text.index(name, end) + len(name)
    return text[:end]


def choices(position: Position, chosen: list[str], flipped: bool = False) -> dict[str, Any]:
    """What may follow the cells ``chosen`` so far: ``next``, the cells that continue some
    legal move (name: centre in the picture), ``complete``, the moves those cells already
    make (several when moves differ only in what is not a cell, one with ``next`` empty when
    the move is made), ``at``, where the cells chosen lie, ``made``, the move's text so far,
    and ``prompt``, what the next click
    asks for in the game's words (:meth:`~engine.Position.step_prompt`).

    >>> from engine import find_game
    >>> position = find_game("domineering")({}, (3, 3)).initial_position()
    >>> sorted(choices(position, ["a1"])["next"]), choices(position, ["a1", "a2"])["complete"]
    (['a2'], ['a1-a2'])
    """
    moves, spots = _moves_of(position, flipped)
    depth = len(chosen)
    following = [(text, cells) for text, cells in moves if list(cells[:depth]) == chosen]
    going_on = [(text, cells) for text, cells in following if len(cells) > depth]
    made = text_so_far(*following[0], depth) if following else ""
    return {"next": {name: spots[name] for name in sorted({cells[depth] for _, cells in going_on})},
            "complete": [text for text, cells in following if len(cells) == depth],
            "made": made, "at": {name: spots[name] for name in chosen if name in spots},
            "prompt": position.step_prompt(made, [text for text, _ in going_on]) if going_on
            else ""}


# The moves of the last few positions asked about, by position and moves played.
_CACHE: dict[tuple, tuple] = {}


def _moves_of(position: Position, flipped: bool):
    """:func:`move_cells`, worked out once per position and picture: a person clicks several
    times on each."""
    key = (id(position), repr(position.game), tuple(map(repr, position.moves)), flipped)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) >= 8:
            _CACHE.clear()
        found = _CACHE[key] = move_cells(position, flipped)
    return found


def why_not(position: Position, chosen: list[str]) -> str:
    """Why the cells ``chosen`` make no legal move, in the rules' words where the cells joined
    as the game writes moves make a move the rules refuse."""
    if position.outcome is not None:
        return "the game is over"
    texts = [chosen[0]] if len(chosen) == 1 else [join.join(chosen) for join in _JOINS]
    for text in texts:
        try:
            position.parse_move(text)
        except IllegalMoveError as error:
            return str(error)
        except GameError:
            continue
    if len(chosen) == 1:
        return f"{chosen[0]}: no legal move starts there"
    return f"{' then '.join(chosen)}: not a legal move in this position"


class SeatObserver(RunObserver):
    """Tells the seat what the referee knows and the channel does not: the players, both
    clocks after every move, the last move of a game, how each game ended."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def run_started(self, run: Run) -> None:
        self.run = run

    def game_started(self, game) -> None:
        specs = (self.run.engines[game.black], self.run.engines[game.white])
        controls = [spec.control for spec in specs]
        person = next((colour for colour, spec in enumerate(specs) if spec.command == HUMAN),
                      None)
        self.seat.game_started(game.game_no, (specs[0].name, specs[1].name),
                               (controls[0].time, controls[1].time), person)

    def move_played(self, game_no: int, ply: int, move: str,
                    clocks: tuple[float, float]) -> None:
        try:
            self.seat.moved(ply, move, clocks)
        except GameError:
            pass  # the seat follows the referee's game only while it is set up for it

    def game_finished(self, game: FinishedGame, summary: Summary) -> None:
        outcome = game.result.outcome
        self.seat.finished(game.result.game_no, outcome.result, outcome.termination.value,
                           outcome.reason)

    def run_finished(self, summary: Summary, stopped: str | None) -> None:
        self.seat.finish_run()


def state(seat: Seat, token: str | None, flipped: bool) -> dict[str, Any]:
    """What the page shows, as JSON data."""
    holds = seat.seen(token)
    with seat.lock:
        position = seat.position
        game = seat.game
        moves = list(seat.moves)
        over = position is not None and position.outcome is not None
        your_turn = holds and seat.waiting is not None
        running = None if position is None or over or seat.ended else position.to_move
        return {
            "version": seat.version, "holder": holds, "closed": seat.closed,
            "game": game.name if game else None, "title": game.title if game else "",
            "options": dict(game.settings) if game else {},
            "size": list(game.size) if game and game.size else None,
            "game_no": seat.game_no, "players": list(seat.players),
            "person": None if seat.person is None else COLOUR_NAMES[seat.person],
            "ply": len(moves), "moves": moves,
            "to_move": None if position is None or over else COLOUR_NAMES[position.to_move],
            "your_turn": your_turn,
            "board": None if position is None else svg(position, moves[-1] if moves else None,
                                                       flipped),
            "choices": choices(position, [], flipped) if your_turn else None,
            "clocks": list(seat.clocks),
            "running": None if running is None else COLOUR_NAMES[running],
            "clock_elapsed": round(time.monotonic() - seat.clock_started, 3),
            "ended": seat.ended, "run_over": seat.run_over, "analysis": seat.analysis,
            "offers_new_games": seat.offers_new_games,
        }


def record(seat: Seat) -> str:
    """The game so far (or just ended) as an SGF record."""
    with seat.lock:
        game = seat.game
        ended = seat.ended or {"result": "?", "termination": "unfinished",
                               "reason": f"{len(seat.moves)} moves played"}
        row = {"game": game.name if game else "", "game_no": seat.game_no,
               "black": seat.players[0], "white": seat.players[1], "result": ended["result"],
               "termination": ended["termination"], "reason": ended["reason"],
               "moves": list(seat.moves), "size": list(game.size) if game and game.size else None,
               "options": dict(game.settings) if game else {},
               "first_player": COLOUR_NAMES[game.first_player] if game else "black"}
    return sgf_text(row)


def _page() -> bytes:
    """The page: its HTML with the play page's style and script (files of :mod:`referee.report`,
    where the pages live) inline."""
    folder = resources.files("referee.report")
    css = folder.joinpath("play.css").read_text(encoding="utf-8")
    script = folder.joinpath("play.js").read_text(encoding="utf-8")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="icon" href="data:,"><title>olympiad-referee play</title>'
            f"<style>{css}</style></head><body>"
            f"{_BODY}<script>{script}</script></body></html>\n").encode()


_BODY = """
<header><h1 id="title">olympiad-referee play</h1><p id="players"></p></header>
<main>
  <section id="board-side">
    <div class="clock" id="clock-top"><span class="name"></span><span class="time"></span></div>
    <div id="board"></div>
    <div class="clock" id="clock-bottom"><span class="name"></span><span class="time"></span></div>
  </section>
  <section id="panel">
    <p id="status" role="status"></p>
    <p id="prompt" aria-live="polite"><span id="made"></span> <span id="step"></span></p>
    <button id="play-here" hidden>play here</button>
    <p id="message" role="alert"></p>
    <div id="complete"></div>
    <form id="typed"><input id="typed-move" autocomplete="off" placeholder="or type a move">
      <button type="submit">play</button></form>
    <div id="buttons">
      <button id="flip">flip board</button><button id="coordinates">coordinates</button>
      <button id="takeback">take back</button><button id="resign">resign</button>
      <button id="save">save record</button><button id="new-game">new game</button>
    </div>
    <div id="analysis" hidden><h2>Engine</h2><p id="score"></p><p id="pv"></p></div>
    <h2>Moves</h2><ol id="moves"></ol>
  </section>
</main>
"""


# Each request the page makes, and what it may hold (see the module docstring); anything else
# is refused at the gate (:mod:`.http_gate`).
MAX_PLY = 1_000_000
MAX_VERSION = 2 ** 53  # the largest whole number the page's JavaScript holds exactly
_TOKEN = Field(token, "")
_PLY = Field(number(-1, MAX_PLY), -1)
_FLIPPED = Field(flag, False)
_CELLS = {"ply": Field(number(-1, MAX_PLY)), "flipped": _FLIPPED,
          "cell": Field(plain_text(16), repeated=True, most=16)}
ROUTES = {
    "/": Route("GET"),
    "/state": Route("GET", {"since": Field(number(0, MAX_VERSION)), "token": Field(token),
                            "flipped": _FLIPPED}),
    "/choices": Route("GET", _CELLS),
    "/why": Route("GET", _CELLS),
    "/record": Route("GET"),
    "/claim": Route("POST", body={}),
    "/move": Route("POST", body={"token": _TOKEN, "ply": _PLY, "move": Field(plain_text(200), "")}),
    "/resign": Route("POST", body={"token": _TOKEN, "ply": _PLY}),
    "/takeback": Route("POST", body={"token": _TOKEN, "ply": _PLY}),
    "/new": Route("POST", body={"token": _TOKEN}),
    "/leave": Route("POST", body={"token": _TOKEN}),
}
LIMITS = Limits(body=MAX_BODY, connections=32)


def _handler(seat: Seat, allowed_hosts: Callable[[], set[str]], limits: Limits,
             redraw: float) -> type[GatedHandler]:
    """The request handler class for one seat; ``allowed_hosts()`` gives the ``Host`` values
    (``127.0.0.1:PORT``, ``localhost:PORT``) this server answers to; a request for the state
    waits up to ``redraw`` seconds for a change."""
    page = _page()

    class Handler(GatedHandler):
        server_version = "olympiad-referee-play"
        gate = Gate(ROUTES, limits, allowed_hosts)
        logger = log
        log_refusals = True

        def answer(self, request: Request) -> None:
            if request.method == "GET":
                self._get(request.path, request.query)
            else:
                self._post(request.path, request.body)

        def _get(self, path: str, query: dict[str, Any]) -> None:
            if path == "/":
                self.send(HTTPStatus.OK, page, "text/html; charset=utf-8")
            elif path == "/state":
                if query["since"] is not None:
                    seat.wait_for_change(query["since"], redraw)
                self.send_json(state(seat, query["token"], query["flipped"]))
            elif path in ("/choices", "/why"):
                self._cells(path, query)
            elif path == "/record":
                self.send(HTTPStatus.OK, record(seat).encode(), "application/x-go-sgf",
                          {"Content-Disposition": 'attachment; filename="game.sgf"'})

        def _cells(self, path: str, query: dict[str, Any]) -> None:
            chosen, flipped = query["cell"], query["flipped"]
            with seat.lock:
                position = seat.position
                if position is None or query["ply"] != len(seat.moves):
                    self.send_json({"error": "stale ply: reload the state"},
                                   HTTPStatus.CONFLICT)
                    return
                if path == "/choices":
                    self.send_json(choices(position, chosen, flipped))
                else:
                    self.send_json({"reason": why_not(position, chosen) if chosen else ""})

        def _post(self, path: str, body: dict[str, Any]) -> None:
            token = body.get("token", "")
            try:
                if path == "/claim":
                    answer: dict[str, Any] = {"token": seat.claim()}
                elif path == "/move":
                    answer = {"move": seat.submit(token, body["ply"], body["move"])}
                elif path == "/resign":
                    seat.resign(token, body["ply"])
                    answer = {}
                elif path == "/takeback":
                    seat.take_back(token, body["ply"])
                    answer = {}
                elif path == "/new":
                    seat.ask_next_game(token)
                    answer = {}
                else:
                    seat.leave(token)
                    answer = {}
            except SeatRefused as refused:
                self.send_json({"error": str(refused)}, HTTPStatus.CONFLICT)
                return
            self.send_json(answer)

    return Handler


class SeatServer:
    """The page of ``seat`` served on 127.0.0.1 at ``port`` (0: any free port) from a daemon
    thread, within ``limits``, redrawn at least every ``redraw`` seconds, its refusals logged
    summed over ``log_interval`` seconds; raises ``OSError`` when the port cannot be bound."""

    def __init__(self, seat: Seat, port: int = 0, limits: Limits = LIMITS,
                 redraw: float = REDRAW, log_interval: float = LOG_INTERVAL) -> None:
        self.seat = seat
        self.httpd = GatedServer((LOOPBACK, port), _handler(seat, self._hosts, limits, redraw),
                                 log_interval)
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(0.1,),
                                        name="seat server", daemon=True)
        self._thread.start()

    def _hosts(self) -> set[str]:
        port = self.httpd.server_address[1]
        return {f"{LOOPBACK}:{port}", f"localhost:{port}"}

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.httpd.server_address[1]}/"

    def stop(self) -> None:
        self.seat.close()
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join()
