"""The engines of a run: how each is started and named, and the processes kept between games.

An :class:`EngineSpec` is plain, picklable data (it travels to a cluster's workers): the
command line, a display name, the working folder, the protocol commands sent once after
start-up (engine options), and its own time control when it differs from the run's.

:class:`EnginePool` keeps the engine processes of each thread between its games, so a worker
does not restart its engines for every game; an engine that crashed, timed out or broke the
protocol is replaced for the next game. :meth:`EnginePool.stop` kills every engine of the
process at once (the second Ctrl-C, an SPRT verdict) and refuses to start new ones.
"""

from __future__ import annotations

import os
import shlex
import shutil
import threading
import time
from dataclasses import dataclass
from typing import Callable, Sequence

from ..inbound import printable_line
from ..plan.time_control import TimeControl
from ..text import one_line
from .channel import (Channel, ChannelClosed, ChannelError, ChannelTimeout, EngineChannel,
                      GtpFailure, StartTimeout)


@dataclass(frozen=True)
class EngineSpec:
    """One engine of a run: how to start it, its name and its time control (the one place a
    run holds time controls); ``memory`` and ``cpus`` are the limits its processes run under
    (:mod:`.reaper`), ``None`` for none."""

    command: str
    name: str
    cwd: str | None = None
    init: tuple[str, ...] = ()
    control: TimeControl = TimeControl()
    memory: int | None = None  # address-space limit, bytes
    cpus: str | None = None  # the CPU cores it may run on, as taskset writes them: 0,2-3

    def argv(self) -> list[str]:
        """The command's words, the program resolved against ``cwd`` when it is a relative
        path (``./engine``), since the program is looked up before the folder changes."""
        words = shlex.split(self.command)
        if self.cwd and "/" in words[0] and not os.path.isabs(words[0]):
            words[0] = os.path.join(self.cwd, words[0])
        return words


class EngineSetupError(Exception):
    """An engine refused one of its start-up commands: the run's configuration is wrong."""


def versioned_names(answers: Sequence[tuple[str, str]]) -> list[str]:
    """Names from ``(name, version)`` answers: the version only where it tells engines of one
    name apart (a new build against the old), so that names stay short.

    >>> versioned_names([("olympiad", "0.2"), ("olympiad", "0.1"), ("other", "3")])
    ['olympiad 0.2', 'olympiad 0.1', 'other']
    >>> versioned_names([("olympiad", "0.1"), ("olympiad", "0.1")])
    ['olympiad', 'olympiad']
    """
    versions: dict[str, set[str]] = {}
    for name, version in answers:
        versions.setdefault(name, set()).add(version)
    return [f"{name} {version}".strip() if len(versions[name]) > 1 else name
            for name, version in answers]


def unique_names(names: Sequence[str], commands: Sequence[str]) -> list[str]:
    """The engines' names made unique: engines that share a name get the words by which their
    command lines differ (after the words all of them begin with) in brackets, and a number
    when that is not enough either.

    >>> unique_names(["Olympiad 0.1", "Olympiad 0.1", "Other"],
    ...              ["python3 /a/olympiad.py", "python3 /a/olympiad.py --depth 2", "other"])
    ['Olympiad 0.1', 'Olympiad 0.1 (--depth 2)', 'Other']
    >>> unique_names(["x", "x"], ["a", "a"])
    ['x #1', 'x #2']
    """
    def words(command: str) -> list[str]:
        try:
            return shlex.split(command)
        except ValueError:
            return command.split()

    named = list(names)
    for name in set(names):
        sharing = [index for index, other in enumerate(names) if other == name]
        if len(sharing) < 2:
            continue
        lines = [words(commands[index]) for index in sharing]
        common = 0
        while all(len(line) > common and line[common] == lines[0][common] for line in lines):
            common += 1
        for index, line in zip(sharing, lines):
            if line[common:]:
                named[index] = f"{name} ({shlex.join(line[common:])})"
    return [name if named.count(name) == 1 else f"{name} #{index}"
            for index, name in enumerate(named, 1)]


def own_name(spec: EngineSpec, timeout: float) -> tuple[str, str] | None:
    """What the engine calls itself: its ``name`` and ``version`` answers (the version ``""``
    when it gives none); ``None`` when it does not start or does not answer ``name`` with one
    short line. The engine is started for this alone, and stopped (with whatever it started)
    after."""
    if cannot_start(spec):
        return None
    try:
        channel = EngineChannel(shlex.join(spec.argv()), cwd=spec.cwd, memory=spec.memory,
                                cpus=spec.cpus)
    except ChannelError:
        return None
    try:
        name, version = identity(channel, timeout)
        return (name, version) if name else None
    except ChannelError:
        return None
    finally:
        channel.kill()


def identity(channel: Channel, timeout: float) -> tuple[str, str]:
    """The engine's ``name`` and ``version`` answers, each within ``timeout`` seconds (``""``
    for a failure or for what is not one short line of printable text). Raises
    :class:`ChannelError` when the engine cannot answer at all."""
    words = []
    for command in ("name", "version"):
        try:
            answer = channel.send(command, time.monotonic() + timeout).strip()
        except GtpFailure:
            answer = ""
        words.append(answer if _worth_showing(answer) else "")
    return words[0], words[1]


# The longest name or version worth showing.
_SHORT_LINE = 40


def _worth_showing(answer: str) -> bool:
    """Whether a ``name`` or ``version`` answer is worth showing: one line of printable text
    (:func:`~referee.inbound.printable_line`), not too long to read."""
    return 0 < len(answer) <= _SHORT_LINE and printable_line(answer)


def cannot_start(spec: EngineSpec) -> str | None:
    """Why ``spec``'s program cannot be started at all (not found, not executable), or ``None``.

    >>> cannot_start(EngineSpec("/nonexistent/engine --fast", "x"))
    "'/nonexistent/engine' not found"
    """
    try:
        words = spec.argv()
    except ValueError as error:
        return f"cannot read the command line: {error}"
    if not words:
        return "an empty command"
    if spec.cwd is not None and not os.path.isdir(spec.cwd):
        return f"working folder {spec.cwd!r} not found"
    program = words[0]
    if "/" not in program:
        return None if shutil.which(program) else f"{program!r} not found on PATH"
    if not os.path.exists(program):
        return f"{program!r} not found"
    if os.path.isdir(program) or not os.access(program, os.X_OK):
        return f"{program!r} is not an executable program"
    return None


class DeadChannel(Channel):
    """Stands in for an engine that could not be started or failed its start-up commands:
    every command fails with ``kind`` (gone: :class:`ChannelClosed`; silent:
    :class:`StartTimeout`; an answer that was not GTP: :class:`IllFormedAnswer`), saying
    ``why``, so that its games end as its start did."""

    def __init__(self, command: str, why: str, kind: type[ChannelError] = ChannelClosed) -> None:
        self.command = command
        self.why = why
        self.kind = kind

    def send(self, command: str, deadline: float | None = None) -> str:
        raise self.kind(self.why)


def start_engine(spec: EngineSpec, timeout: float) -> Channel:
    """The engine of ``spec``, started and sent its start-up commands (each within
    ``timeout`` seconds); a dead stand-in saying why when it does not start, dies, stays silent
    or answers what is not GTP meanwhile (:func:`_failed_start`).
    ``protocol_version`` comes first: its answer says the engine is up, so that the time it
    takes to start is never charged to its clock in the first game.
    Raises :class:`EngineSetupError` when the engine refuses a start-up command."""
    try:
        channel = EngineChannel(shlex.join(spec.argv()), cwd=spec.cwd, memory=spec.memory,
                                cpus=spec.cpus)
    except ChannelClosed as error:
        return DeadChannel(spec.command, str(error))
    for command in ("protocol_version", *spec.init):
        try:
            channel.send(command, time.monotonic() + timeout)
        except GtpFailure as failure:
            if command == "protocol_version" and not spec.init[:1] == (command,):
                continue  # a "?" is an answer all the same: the engine is up
            channel.kill()
            raise EngineSetupError(f"{spec.name} refused its start-up command {command!r}: "
                                   f"{one_line(str(failure))}") from None
        except ChannelError as error:
            channel.kill()
            return _failed_start(spec.command, command, error, timeout)
    return channel


def _failed_start(engine: str, command: str, error: ChannelError,
                  timeout: float) -> DeadChannel:
    """The stand-in for the engine ``engine``, whose start-up command ``command`` failed with
    ``error``: its games are lost by a timeout (the process was alive but silent; the reason
    names the command and the seconds), a crash (it exited) or a protocol error."""
    if isinstance(error, ChannelTimeout):
        return DeadChannel(engine, f"no answer to its start-up command {command!r} within "
                                   f"{timeout:g} s", StartTimeout)
    return DeadChannel(engine, f"{one_line(str(error))} (answering {command!r})", type(error))


Starter = Callable[[EngineSpec], Channel]


class EnginePool:
    """Engine processes per thread, kept between games; see the module docstring."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: dict[tuple[int, EngineSpec], Channel] = {}
        self._stopping = False

    def get(self, spec: EngineSpec, starter: Starter) -> Channel:
        """This thread's engine for ``spec``, started with ``starter`` on first use."""
        key = (threading.get_ident(), spec)
        with self._lock:
            channel = self._live.get(key)
            if self._stopping:
                return DeadChannel(spec.command, "the run is stopping")
        if channel is None:
            channel = starter(spec)
            with self._lock:
                if self._stopping:  # stop() came while the engine was starting
                    channel.kill()
                else:
                    self._live[key] = channel
        return channel

    def retire(self, spec: EngineSpec) -> None:
        """Kill this thread's engine for ``spec`` (it misbehaved); the next game starts afresh."""
        with self._lock:
            channel = self._live.pop((threading.get_ident(), spec), None)
        if channel is not None:
            channel.kill()

    def close_all(self) -> None:
        """Ask every idle engine to quit (the run is over); kill those that do not."""
        with self._lock:
            channels, self._live = list(self._live.values()), {}
        for channel in channels:
            channel.close()

    def release(self, threads: Callable[[int], bool], kill: bool) -> None:
        """Close (``kill``: at once) the engines of the threads whose ident ``threads`` picks,
        leaving the others alone: a long-lived cluster worker lets go of one run's engines
        while other tasks on it go on."""
        with self._lock:
            keys = [key for key in self._live if threads(key[0])]
            channels = [self._live.pop(key) for key in keys]
        for channel in channels:
            if kill:
                channel.kill()
            else:
                channel.close()

    def stop(self, refuse: bool = True) -> None:
        """Kill every engine now; with ``refuse``, start no more until :meth:`reopen`."""
        with self._lock:
            self._stopping = self._stopping or refuse
            channels, self._live = list(self._live.values()), {}
        for channel in channels:
            channel.kill()

    @property
    def stopping(self) -> bool:
        return self._stopping

    def reopen(self) -> None:
        """Allow engines to start again (a new run in the same process)."""
        with self._lock:
            self._stopping = False
