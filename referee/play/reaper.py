"""The keeper of one engine's processes: ``python -m referee.play.reaper [LIMITS] -- COMMAND...``.

The referee starts every engine through this small process, so that nothing the engine starts
outlives it. The keeper makes itself a *child subreaper* (Linux's ``PR_SET_CHILD_SUBREAPER``,
no root needed): a process the engine starts and abandons, whatever session or process group it
put itself in (``setsid``, ``nohup``, a double fork), is then adopted by the keeper rather than
by ``init``, and stays within its reach. The keeper starts the engine with the limits asked for
(address space: ``RLIMIT_AS``; CPU cores: the affinity mask), waits, and when the engine ends,
or the keeper is told to stop (``SIGTERM``, ``SIGHUP``, ``SIGINT``), or the referee that
started it dies, kills every process left below it and exits with the engine's status (dying
by the same signal when the engine was killed by one).

Where the kernel has no subreapers (not Linux), the keeper says so once on standard error and
still kills the engine's process group; descendants that left the group can then escape.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import signal
import sys
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
# How often (seconds) the keeper checks that the referee that started it is still there.
PARENT_POLL_SECONDS = 0.25
# Rounds of killing before the keeper gives up on descendants that keep forking.
KILL_ROUNDS = 50
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def make_subreaper() -> bool:
    """Become the subreaper of every process started below this one; false where unavailable."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def descendants(root: int) -> list[int]:
    """The processes below ``root`` (children, their children...), read from ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces; the parent follows the state.
        parent = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def reap_all() -> None:
    """Collect every child that has ended, without waiting for those still running."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_below(root: int) -> None:
    """Kill every process below ``root`` until none is left (or the rounds run out)."""
    for _ in range(KILL_ROUNDS):
        below = descendants(root)
        if not below:
            return
        for pid in below:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        reap_all()


def start_engine(command: list[str], memory: int | None, cpus: set[int] | None) -> int:
    """Fork and exec the engine with its limits; the child's pid."""
    pid = os.fork()
    if pid:
        return pid
    try:
        for number in STOP_SIGNALS:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if cpus is not None:
            os.sched_setaffinity(0, cpus)
        os.execvp(command[0], command)
    except OSError as error:
        os.write(2, f"cannot start {command[0]!r}: {error.strerror or error}\n".encode())
    os._exit(127)


def keep(command: list[str], memory: int | None = None, cpus: set[int] | None = None) -> int:
    """Run the engine and look after its processes; the status to exit with (a negative one:
    killed by that signal)."""
    parent = os.getppid()
    if not make_subreaper():
        sys.stderr.write("olympiad-referee: this system has no child subreapers; processes an "
                         "engine starts in a session of their own may outlive it\n")
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD, *STOP_SIGNALS})
    engine = start_engine(command, memory, cpus)
    # The engine holds the referee's pipes now; the keeper lets go of them, so that the referee
    # sees the end of the engine's output as soon as the engine and its descendants are gone.
    null = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(null, descriptor)
    status: int | None = None
    while status is None:
        received = signal.sigtimedwait({signal.SIGCHLD, *STOP_SIGNALS}, PARENT_POLL_SECONDS)
        if received is not None and received.si_signo in STOP_SIGNALS:
            kill_below(os.getpid())
            return -received.si_signo
        if os.getppid() != parent:
            kill_below(os.getpid())
            return -signal.SIGKILL
        while True:
            try:
                pid, wait_status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            if pid == engine:
                status = os.waitstatus_to_exitcode(wait_status)
    kill_below(os.getpid())
    return status


def parse_cpus(text: str) -> set[int]:
    """A CPU list as ``taskset`` and cgroups write it: ``0,2-3`` is {0, 2, 3}.

    >>> sorted(parse_cpus("0,2-3"))
    [0, 2, 3]
    """
    cpus: set[int] = set()
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"{text!r} is not a CPU list such as 0,2-3")
        cpus.update(range(int(first), int(last if dash else first) + 1))
    return cpus


def command_line(command: list[str], memory: int | None = None,
                 cpus: str | None = None) -> list[str]:
    """The command that starts ``command`` under a keeper, with these limits."""
    words = [sys.executable, "-m", "referee.play.reaper"]
    if memory is not None:
        words += ["--memory", str(memory)]
    if cpus is not None:
        words += ["--cpus", cpus]
    return [*words, "--", *command]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m referee.play.reaper",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--memory", type=int, help="address-space limit in bytes")
    parser.add_argument("--cpus", type=parse_cpus, help="CPU cores the engine may run on")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    if not command:
        parser.error("no engine command")
    status = keep(command, arguments.memory, arguments.cpus)
    if status < 0:
        signal.signal(-status, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        os.kill(os.getpid(), -status)
    sys.exit(status)


if __name__ == "__main__":
    main()
