"""``olympiad-referee play`` (a person plays an engine in the browser) and a person's seat in
a match (``match --engine human``).

The person is an engine of the run like any other (``human``, :mod:`referee.play.human`): the
referee plays the game with its own loop and rules, clocks and records (SGF and results in
``--out``), and the person's moves come from the page served on 127.0.0.1
(:mod:`referee.host.play_page`). ``play`` is a match of one game; when the person asks for a new
game on the page, the same run goes on with one more game, colours swapped (the schedule
alternates them). It ends when the person has been away (no page open) for ``--away`` seconds
(resigning the game in progress), or on Ctrl-C (which resigns the game in progress too); the
engine is stopped either way.

``match --engine human`` seats a person in a match or event the same way (one game at a time).
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import webbrowser
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from typing import Iterator, Sequence

import click

from .. import wakeful
from ..plan.setup import DEFAULT_COMMAND_TIMEOUT
from ..play.channel import Channel
from ..play.entrants import EngineSpec, Starter, own_name, start_engine
from ..play.human import AWAY, HUMAN, HumanChannel, Seat
from ..host.play_page import REDRAW, SeatObserver, SeatServer
from ..run.observer import RunObserver
from ..play.seats import POOL
from .match import PROGRAM, MatchSettings, program_name, run_match


def seat_starter(seat: Seat, timeout: float) -> Starter:
    """Starts the engines of a run with a person at ``seat``: the ``human`` engine is the
    seat's channel, every other engine a process as usual."""
    channel = HumanChannel(seat)

    def start(spec: EngineSpec) -> Channel:
        return channel if spec.command == HUMAN else start_engine(spec, timeout)
    return start


def open_browser(url: str) -> None:
    """Open ``url`` in the person's browser where there is a graphical one (never a text
    browser in the terminal the game's progress is printed on)."""
    if sys.platform in ("darwin", "win32") or os.environ.get("DISPLAY") \
            or os.environ.get("WAYLAND_DISPLAY"):
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()


def engine_name(spec: EngineSpec, timeout: float) -> str:
    """The engine's name on the page and in the records: its own ``name`` and ``version``
    (GTP answers), else its program's file name; never its whole command line."""
    own = own_name(spec, timeout)
    return " ".join(word for word in own if word) if own else program_name(spec.command)


@contextmanager
def seated(engines: Sequence[EngineSpec], port: int, browser: bool,
           timeout: float = DEFAULT_COMMAND_TIMEOUT, offers_new_games: bool = False,
           away: float = AWAY, redraw: float = REDRAW
           ) -> Iterator[tuple[Seat | None, list[RunObserver], Starter | None]]:
    """For a run whose engines include ``human``: the seat, served on 127.0.0.1 (its address
    printed, the browser opened when ``browser``), its observer and the starter; nothing
    otherwise. ``offers_new_games``: the person may ask for another game (``play``); ``away``:
    the seconds without a page open after which the person has left; ``redraw``: the page's
    longest wait for a change."""
    humans = [spec for spec in engines if spec.command == HUMAN]
    if not humans:
        yield None, [], None
        return
    if len(humans) > 1:
        raise click.UsageError("one person at a time: --engine human is given twice")
    seat = Seat(offers_new_games, away)
    try:
        server = SeatServer(seat, port, redraw=redraw)
    except OSError as error:
        raise click.UsageError(f"cannot serve the page on port {port}: "
                               f"{error.strerror or error} (0 picks a free one)") from None
    click.echo(f"{PROGRAM}: play at {server.url}", err=True)
    if browser:
        open_browser(server.url)
    try:
        yield seat, [SeatObserver(seat)], seat_starter(seat, timeout)
    finally:
        server.stop()


def play_games(settings: MatchSettings, seat: Seat, observers: list[RunObserver],
               starter: Starter) -> int:
    """One game, then one more each time the person asks for it; the exit status.

    Each game's run goes on in a thread of its own, so that Ctrl-C reaches this one at once:
    the person resigns the game in progress (it is recorded as any game) and the command ends
    with status 130; a second Ctrl-C stops the engine at once, the game unrecorded.
    """
    run = functools.partial(run_match, observers=observers, starter=starter)
    with ThreadPoolExecutor(1, thread_name_prefix="play") as games:
        while True:
            future = games.submit(run, settings)
            try:
                status = wakeful.result(future)
            except KeyboardInterrupt:
                return _stop(seat, future)
            if status != 0 or not seat.wait_for_next_game():
                return status
            settings = replace(settings, games=settings.games + 1)


def _stop(seat: Seat, game: Future) -> int:
    """After a Ctrl-C: the person resigns the game in progress, which ends the run; a second
    Ctrl-C kills the engine and the run ends at once."""
    seat.close()
    click.echo(f"{PROGRAM}: stopping: you resign the game in progress (Ctrl-C again to stop "
               f"now, the game unrecorded)", err=True)
    try:
        wakeful.result(game)
    except KeyboardInterrupt:
        POOL.stop()
        click.echo(f"{PROGRAM}: stopping now", err=True)
        wakeful.result(game)
    return 130
