"""Hosting an event from its settings to its end: the run folder, the server, the spectators'
page and the runner, each started in that order and stopped in the reverse.

The run folder is a match's (:mod:`referee.records`): locked for this server, its saved
settings compared with the event file's (a resumed event under other settings is refused),
``results.jsonl`` read back so that finished games are kept once. The spectators' page is the
live report (:mod:`referee.report`) of that folder, served read-only.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..plan.ladder import Ladder
from ..plan.schedule import ScheduledGame, plan
from ..play.remote import RemoteSeating
from ..records.files import FolderRefused
from ..records.folder import RESULTS_NAME, FolderBusy, ResultsFile, lock_folder
from ..records.settings import SettingsMismatch
from ..report.live import LiveGames
from ..report.observers import LiveView, ReportWriter
from ..run.executor import ThreadExecutor
from ..run.observer import Observers, Run, RunObserver
from ..run.records import FolderRecords
from ..run.runner import Runner
from .event_file import EventSettings
from .event_server import EventServer
from .report_server import ReportServer
from .roster import Roster
from .server_tls import ServerTls, TlsError

# What chooses an event's folder, as the folder's messages name it.
OUT_SETTING = "folder (out in the event file)"


class EventError(Exception):
    """The event cannot start (folder, settings, certificate, address); one line."""


class Event:
    """An event being hosted: ``start`` opens the folder and the server, ``run`` plays it,
    ``close`` ends it. ``log`` takes one line per server event; ``observers`` watch the run
    (the progress lines). Used as a context manager."""

    def __init__(self, settings: EventSettings, log: Callable[[str], None],
                 observers: Sequence[RunObserver] = ()) -> None:
        self.settings = settings
        self.log = log
        self.observers = list(observers)
        self.server: EventServer | None = None
        self.spectators: ReportServer | None = None
        self.runner: Runner | None = None
        self.tls: ServerTls | None = None
        self._lock = None
        self._results: ResultsFile | None = None

    def __enter__(self) -> Event:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        settings = self.settings
        given = settings.run_settings()
        if settings.listen.certificate is not None:
            try:
                self.tls = ServerTls(settings.listen.certificate, settings.listen.key, self.log)
            except TlsError as error:
                raise EventError(str(error)) from None
        try:
            self._lock = lock_folder(settings.out, OUT_SETTING)
            seed = given.checked(settings.out, OUT_SETTING).seed
        except (FolderBusy, FolderRefused, SettingsMismatch) as error:
            raise EventError(str(error)) from None
        except OSError as error:
            raise EventError(f"{settings.out}: {error.strerror or error}") from None
        self._results = ResultsFile(settings.out / RESULTS_NAME)
        roster = Roster(settings.entrants, settings.grace, settings.lag)
        ladder = None
        if settings.format == "ladder":
            planned = [ScheduledGame(row["game_no"], None, row["black_index"] - 1,
                                     row["white_index"] - 1, row.get("seed") or 0)
                       for row in sorted(self._results.rows(),
                                         key=lambda row: row["game_no"])]
            ladder = Ladder(seed, settings.games, [(game.black, game.white) for game in planned],
                            max(self._results.finished, default=0))
        else:
            try:
                planned = plan(len(settings.entrants), settings.games, seed,
                               gauntlet=settings.gauntlet, paired=settings.pairs)
            except ValueError as error:
                raise EventError(str(error)) from None
        run = Run(settings.setup, given.engines, planned, settings.out, seed,
                  anchor=settings.anchor, gauntlet=settings.gauntlet)
        live = LiveGames()
        observers: list[RunObserver] = [*self.observers, ReportWriter(), LiveView(live)]
        host, port = settings.spectators
        try:
            if port:
                self.spectators = ReportServer(settings.out, live, host, port)
            self.server = EventServer(roster, settings.name, settings.listen.host,
                                      settings.listen.port, self.tls.context if self.tls else None,
                                      self.log, hello_seconds=settings.hello, door=settings.door)
        except OSError as error:
            raise EventError(f"cannot listen: {error.strerror or error}") from None
        slots = settings.concurrency or len(settings.entrants) // 2
        seating = RemoteSeating([roster.channels[name] for name in settings.names])
        self.runner = Runner(run, ThreadExecutor(max(1, slots)), FolderRecords(run, self._results),
                             Observers(observers), seating, ladder, settings.no_show)

    @property
    def url(self) -> str:
        """The address participants connect to, as this machine sees it."""
        scheme = "wss" if self.settings.listen.certificate else "ws"
        host = self.settings.listen.host
        host = f"[{host}]" if ":" in host else host
        return f"{scheme}://{host}:{self.server.port}/"

    def reload_certificate(self) -> None:
        """Load the certificate and key again for new connections (on SIGHUP; a failure is a
        log line and keeps the one loaded before)."""
        if self.tls is None:
            self.log("no certificate to load again: the event listens without TLS")
        else:
            self.tls.reload()

    def run(self) -> str | None:
        """Play the event; ``None`` when it is over, else why it stopped (see the runner)."""
        stopped = self.runner.execute()
        if stopped is None:  # a stopped event's clients keep trying, to be back on resume
            self.server.say_goodbye("the event is over")
        return stopped

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()
        if self.spectators is not None:
            self.spectators.stop()
        if self._results is not None:
            self._results.close()
        if self._lock is not None:
            self._lock.close()
