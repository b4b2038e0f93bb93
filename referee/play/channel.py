"""The controller side of GTP: start an engine, send it commands, read its answers.

A :class:`Channel` sends one command and returns the text of a success answer. A well-formed
failure answer (``? message``) raises :class:`GtpFailure`: the engine is fine, it just said no.
Everything else that can go wrong with the transport raises a :class:`ChannelError`:
:class:`ChannelClosed` (the engine exited, crashed or never started), :class:`ChannelTimeout`
(no complete answer before the deadline) and :class:`IllFormedAnswer` (output that is not a GTP
answer, or an answer too long to be one). After a ``ChannelError`` the engine is in an unknown
state: the caller kills it and starts a new one for the next game.

:class:`EngineChannel` runs a real engine under a pseudo-terminal with :mod:`pexpect` (so that
engines which only flush line by line on a terminal still answer at once) and sends its standard
error to a pipe that a thread drains, keeping only the tail for the record (of each game, as
:meth:`Channel.take_stderr` empties it): a chatty engine can never block on a full pipe. The
engine runs below a keeper process (:mod:`.reaper`) that applies its limits and kills whatever
the engine started when the engine ends or is stopped, so that nothing outlives it.
:class:`InProcessChannel` talks to an engine object in the same process, for fast tests; both
read answers with the same :func:`parse_answer`.

Whatever bytes an engine writes, the referee reads them as text through one gate
(:func:`referee.inbound.lenient_text`): what is not UTF-8 and every control character but tab and
newline become U+FFFD, so that an answer, a name or a line of standard error can always be
written to a record, a log or a page. The engine is forgiven the bytes (its move is then
judged like any other text); it is not forgiven an answer longer than ``max_answer`` bytes,
which is all the channel ever holds of one.

>>> parse_answer(b"=7 b1-b3")
(True, 'b1-b3')
>>> parse_answer(b"? illegal move: a1-a2")
(False, 'illegal move: a1-a2')
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import threading
import time
from typing import Callable

import pexpect

from protocol.gtp import QuitRequest

from .. import wakeful
from ..inbound import lenient_text
from . import reaper

# Seconds the keeper of an engine's processes has to kill them before it is killed itself.
KEEPER_GRACE = 2.0
# An answer longer than this is not one the referee asked for: the engine is flooding.
MAX_ANSWER_BYTES = 1 << 20
# How much of an engine's standard error is kept for the record.
STDERR_TAIL_BYTES = 4096
_READ_CHUNK = 1 << 16
_ANSWER_HEAD = re.compile(rb"([=?])(\d*)(?:[ \n](.*))?", re.DOTALL)


class GtpFailure(Exception):
    """A well-formed failure answer ``? message``; the message is the exception's text."""


class ChannelError(Exception):
    """The engine could not be talked to: its state is unknown from now on."""


class ChannelClosed(ChannelError):
    """The engine exited, crashed, or could not be started."""


class ChannelTimeout(ChannelError):
    """No complete answer arrived before the deadline. ``partial`` is the first line of what
    did arrive of the answer (``""`` when nothing did): an answer not ended by an empty line."""

    def __init__(self, message: str, partial: str = "") -> None:
        super().__init__(message)
        self.partial = partial


class StartTimeout(ChannelTimeout):
    """The engine did not answer a start-up command in time: it never came up, so the time that
    ran out was the command timeout's, not a game clock's."""


class IllFormedAnswer(ChannelError):
    """The engine wrote something that is not a GTP answer."""


class Disconnected(ChannelClosed):
    """A remote engine's connection dropped and did not come back in time."""


def parse_answer(raw: bytes) -> tuple[bool, str]:
    """Split one answer (without its closing empty line, ``\\r`` removed) into success and text.

    Raises :class:`IllFormedAnswer` when it does not start with ``=`` or ``?``.
    """
    match = _ANSWER_HEAD.fullmatch(raw)
    if match is None:
        raise IllFormedAnswer(f"not a GTP answer: {_first_line(raw)!r}")
    text = lenient_text(match.group(3) or b"").strip()
    return match.group(1) == b"=", text


def _first_line(raw: bytes) -> str:
    """The first line of ``raw`` as text, cut to 80 bytes."""
    return lenient_text(raw.lstrip(b"\n")[:80].split(b"\n", 1)[0])


def _success_or_failure(raw: bytes) -> str:
    success, text = parse_answer(raw)
    if not success:
        raise GtpFailure(text)
    return text


class Channel:
    """What the referee needs from an engine; see the module docstring for the errors."""

    command: str = ""

    def send(self, command: str, deadline: float | None = None) -> str:
        """Send ``command`` and return the success answer's text; ``deadline`` is a
        :func:`time.monotonic` instant (``None``: wait as long as it takes)."""
        raise NotImplementedError

    def take_stderr(self) -> str:
        """The last few kilobytes the engine wrote to standard error since the previous call."""
        return ""

    def lag_allowance(self) -> float:
        """Seconds of the last answer's time that were the transport's, not the engine's, and
        are not charged to its clock (a remote engine's network lag, within its allowance)."""
        return 0.0

    def close(self, grace: float = 1.0) -> None:
        """Ask the engine to quit, and kill it if it has not gone within ``grace`` seconds."""

    def kill(self) -> None:
        """End the engine now."""


class InProcessChannel(Channel):
    """A channel to an engine object in this process: ``respond(line)`` returns its full answer
    (``None`` for an ignored line), as :meth:`protocol.gtp.GtpEngine.respond` does."""

    def __init__(self, respond: Callable[[str], str | None], command: str = "in-process") -> None:
        self.respond = respond
        self.command = command
        self.closed = False

    def send(self, command: str, deadline: float | None = None) -> str:
        if self.closed:
            raise ChannelClosed("the engine has quit")
        try:
            answer = self.respond(command + "\n")
        except QuitRequest as request:
            self.closed = True
            answer = request.args[0]
        except Exception as error:
            self.closed = True
            raise ChannelClosed(f"the engine crashed: {type(error).__name__}: {error}") from None
        if deadline is not None and time.monotonic() > deadline:
            raise ChannelTimeout("no answer before the deadline")
        if answer is None:
            raise IllFormedAnswer("no answer")
        return _success_or_failure(answer.rstrip("\n").encode())

    def close(self, grace: float = 1.0) -> None:
        self.closed = True

    def kill(self) -> None:
        self.closed = True


class _EngineSpawn(pexpect.spawn):
    """pexpect's spawn, letting the engine keep one extra file descriptor (its stderr pipe)."""

    def __init__(self, *args, pass_fds: tuple[int, ...] = (), **kwargs) -> None:
        self.pass_fds = pass_fds
        super().__init__(*args, **kwargs)

    def _spawnpty(self, args, **kwargs):
        return super()._spawnpty(args, pass_fds=self.pass_fds, **kwargs)


class EngineChannel(Channel):
    """An engine process started from a shell-style command line, in the folder ``cwd``
    (default: the referee's).

    Raises :class:`ChannelClosed` when the command cannot be started.
    """

    def __init__(self, command: str, max_answer: int = MAX_ANSWER_BYTES,
                 stderr_bytes: int = STDERR_TAIL_BYTES, cwd: str | None = None,
                 memory: int | None = None, cpus: str | None = None) -> None:
        self.command = command
        self.cwd = cwd
        self.memory = memory
        self.cpus = cpus
        self.max_answer = max_answer
        self.stderr_bytes = stderr_bytes
        self._pending = b""
        self._stderr = bytearray()
        self._stderr_lock = threading.Lock()
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise ChannelClosed(f"cannot read the command line: {error}") from None
        if not argv:
            raise ChannelClosed("empty engine command")
        if shutil.which(argv[0]) is None:
            raise ChannelClosed(f"cannot start {argv[0]!r}: no such program (or not executable)")
        self._child = self._spawn(reaper.command_line(argv, memory, cpus))

    def _spawn(self, argv: list[str]) -> _EngineSpawn:
        read_end, write_end = os.pipe()

        def stderr_to_pipe() -> None:  # runs in the child, before exec
            os.dup2(write_end, 2)
            os.close(write_end)

        try:
            child = _EngineSpawn(argv[0], argv[1:], echo=False, use_poll=True, timeout=None,
                                 preexec_fn=stderr_to_pipe, dimensions=(24, 500),
                                 pass_fds=(write_end,), cwd=self.cwd)
        except (pexpect.ExceptionPexpect, OSError) as error:
            os.close(read_end)
            raise ChannelClosed(f"cannot start {self.command!r}: {error}") from None
        finally:
            os.close(write_end)
        child.delaybeforesend = None  # pexpect's default pause of 50 ms before each command
        self._drainer = threading.Thread(target=self._drain_stderr, args=(read_end,),
                                         daemon=True, name=f"stderr of {self.command[:40]}")
        self._drainer.start()
        return child

    def _drain_stderr(self, fd: int) -> None:
        """Read the engine's standard error until it closes, keeping only the tail."""
        try:
            while chunk := os.read(fd, _READ_CHUNK):
                with self._stderr_lock:
                    self._stderr += chunk
                    if len(self._stderr) > 2 * self.stderr_bytes:
                        del self._stderr[:-self.stderr_bytes]
        except OSError:
            pass
        finally:
            os.close(fd)

    def take_stderr(self) -> str:
        if self._child.closed or not self._child.isalive():
            self._drainer.join(0.5)  # what a dead engine wrote last may still be in the pipe
        with self._stderr_lock:
            tail = bytes(self._stderr[-self.stderr_bytes:])
            self._stderr.clear()
        return lenient_text(tail)

    def send(self, command: str, deadline: float | None = None) -> str:
        return _success_or_failure(self.send_raw(command, deadline))

    def send_raw(self, command: str, deadline: float | None = None) -> bytes:
        """Send ``command`` and return its answer as the engine wrote it (``=id text``, ``\\r``
        removed), without the empty line that ends it: for checks of the framing itself."""
        unasked = self._pending.strip(b"\n")
        if unasked:
            raise IllFormedAnswer(f"output nobody asked for: {_first_line(unasked)!r}")
        try:
            self._child.send(command.encode() + b"\n")
        except (OSError, ValueError) as error:
            raise ChannelClosed(f"the engine does not read its input ({error})") from None
        return self._read_answer(deadline)

    def _read_answer(self, deadline: float | None) -> bytes:
        """Read up to the empty line that ends an answer; return the answer without it.

        The wait wakes every :data:`wakeful.WAKE_SECONDS`: a command that talks to its engine
        in the main thread (``check``) then sees a Ctrl-C delivered to another of its threads
        at once, not when the engine answers or the answer's time runs out."""
        buffer = bytearray(self._pending.lstrip(b"\n"))  # grown in place, never copied whole
        searched = 0  # the closing empty line is not before this
        while True:
            end = buffer.find(b"\n\n", searched)
            if end >= 0:
                self._pending = bytes(buffer[end + 2:])
                return bytes(buffer[:end])
            searched = max(0, len(buffer) - 1)
            if len(buffer) > self.max_answer:
                raise IllFormedAnswer(f"answer longer than {self.max_answer} bytes")
            timeout = None if deadline is None else deadline - time.monotonic()
            if timeout is not None and timeout <= 0:
                raise ChannelTimeout("no complete answer in time", _first_line(buffer))
            wait = wakeful.WAKE_SECONDS if timeout is None else min(timeout, wakeful.WAKE_SECONDS)
            try:
                chunk = self._child.read_nonblocking(_READ_CHUNK, wait)
            except pexpect.TIMEOUT:
                continue  # the deadline is checked above
            except pexpect.EOF:
                raise ChannelClosed(f"the engine exited ({self._exit_status()})") from None
            except (OSError, ValueError):  # killed meanwhile by another thread
                raise ChannelClosed("the engine was killed") from None
            chunk = chunk.replace(b"\r", b"")
            buffer += chunk if buffer else chunk.lstrip(b"\n")

    def _exit_status(self) -> str:
        self._wait_for_end(time.monotonic() + KEEPER_GRACE)  # its keeper has the status
        self._child.close(force=True)
        if self._child.signalstatus is not None:
            status = f"killed by signal {self._child.signalstatus}"
        elif self._child.exitstatus == 0:
            return "exit status 0"
        else:
            status = f"exit status {self._child.exitstatus}"
        if self.memory is not None:
            status += f"; its memory limit was {self.memory / 2**20:g} MiB"
        return status

    def alive(self) -> bool:
        """Whether the engine process is still running."""
        return not self._child.closed and self._child.isalive()

    def close(self, grace: float = 1.0) -> None:
        if self._child.closed:
            return
        deadline = time.monotonic() + grace
        try:
            self.send("quit", deadline)
            self._child.expect(pexpect.EOF, timeout=max(0.0, deadline - time.monotonic()))
        except (GtpFailure, ChannelError, pexpect.ExceptionPexpect, OSError):
            pass
        self._wait_for_end(deadline)
        self.kill()

    def _wait_for_end(self, deadline: float) -> bool:
        """Wait until the engine's keeper has ended or ``deadline``; whether it has."""
        while self._child.isalive():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True

    def kill(self) -> None:
        """Stop the engine and every process it started: its keeper (:mod:`.reaper`) is told to,
        and has a moment to; then the process group is killed outright."""
        if self._child.closed:
            return
        try:
            if self._child.isalive():
                os.kill(self._child.pid, signal.SIGTERM)
                self._wait_for_end(time.monotonic() + KEEPER_GRACE)
        except (OSError, pexpect.ExceptionPexpect):
            pass
        try:
            os.killpg(self._child.pid, signal.SIGKILL)
        except OSError:  # already gone
            pass
        self._child.close(force=True)
