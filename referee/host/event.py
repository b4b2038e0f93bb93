"""Hosting an event from its settings to its end: the run folder, the server, the spectators'
page and the runner, each started in that order and stopped in the reverse.

The run folder is a match's (:mod:`referee.records`): locked for this server, its saved
settings compared with the event file's (a resumed event under other settings is refused),
``results.jsonl`` read back so that finished games are kept once. The spectators' page is the
live report (:mod:`referee.report`) of that folder, served read-only.
"""

from __future__ import annotations

import datetime
import ssl
from pathlib import Path
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
from ..run.runner import Runner
from .certificate import CertificateError, read_pem_file, utc_text
from .event_file import EventSettings
from .event_server import EventServer
from .report_server import ReportServer
from .roster import Roster

# The server warns at start about a certificate that expires within this many days.
EXPIRY_WARNING_DAYS = 14


# What chooses an event's folder, as the folder's messages name it.
OUT_SETTING = "folder (out in the event file)"


class EventError(Exception):
    """The event cannot start (folder, settings, certificate, address); one line."""


def tls_context(settings: EventSettings, log: Callable[[str], None]) -> ssl.SSLContext | None:
    """The server's TLS context from the event's certificate and key (``None``: plain); ``log``
    takes a warning about each certificate of the file that has expired or soon will (the
    server still starts: the organiser may be renewing it)."""
    listen = settings.listen
    if listen.certificate is None:
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(listen.certificate, listen.key)
    except (OSError, ssl.SSLError) as error:
        raise EventError(f"cannot load the TLS certificate {listen.certificate} and key "
                         f"{listen.key}: {getattr(error, 'strerror', None) or error}") from None
    now = datetime.datetime.now(datetime.timezone.utc)
    for warning in expiry_warnings(listen.certificate, now):
        log(warning)
    return context


def expiry_warnings(path: Path, now: datetime.datetime) -> list[str]:
    """A line for each certificate in ``path`` that has expired at ``now`` or expires within
    :data:`EXPIRY_WARNING_DAYS`, naming the file, the certificate and the date."""
    try:
        certificates = read_pem_file(str(path))
    except CertificateError as error:
        return [f"warning: cannot read the dates of the certificate {path}: {error}"]
    warnings = []
    for certificate in certificates:
        names = f" (for {', '.join(certificate.names)})" if certificate.names else ""
        what = f"warning: the certificate {path}{names}"
        date = utc_text(certificate.not_after)
        if certificate.not_after <= now:
            warnings.append(f"{what} expired on {date}: participants' clients will refuse it; "
                            f"renew it and restart the event")
        elif certificate.not_after - now <= datetime.timedelta(days=EXPIRY_WARNING_DAYS):
            warnings.append(f"{what} expires on {date}: renew it before then")
    return warnings


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
        context = tls_context(settings, self.log)
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
                                      settings.listen.port, context, self.log,
                                      hello_seconds=settings.hello, door=settings.door)
        except OSError as error:
            raise EventError(f"cannot listen: {error.strerror or error}") from None
        slots = settings.concurrency or len(settings.entrants) // 2
        seating = RemoteSeating([roster.channels[name] for name in settings.names])
        self.runner = Runner(run, ThreadExecutor(max(1, slots)), self._results,
                             Observers(observers), seating, ladder, settings.no_show)

    @property
    def url(self) -> str:
        """The address participants connect to, as this machine sees it."""
        scheme = "wss" if self.settings.listen.certificate else "ws"
        host = self.settings.listen.host
        host = f"[{host}]" if ":" in host else host
        return f"{scheme}://{host}:{self.server.port}/"

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
