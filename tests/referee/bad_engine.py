"""A scripted GTP engine for the referee's tests: it plays the first legal move at once, and,
when told, misbehaves once.

    python bad_engine.py [--fault KIND] [--at N] [--stall COMMAND=SECONDS] [--orphan HOW=MARK]

KIND is done at this process's N-th ``genmove`` (N-th ``play`` for ``refuse``; default 1):

* ``illegal``: a well-formed move that is not legal here; ``unparsable``: text that is no move;
  ``pass``: ``pass`` where passing is illegal; ``resign``: ``resign``;
* ``garbage``: output that is not GTP; ``failure``: ``? ...`` to ``genmove``;
* ``hang``: starts an answer and never finishes it; ``silent``: says nothing, ever;
* ``exit``: exits mid-game; ``flood``: megabytes on standard output, never ending an answer;
* ``flood-stderr``: megabytes on standard error, then a normal answer (the game goes on);
* ``refuse``: answers ``? illegal move`` to a legal ``play``.

``--stall COMMAND=SECONDS`` waits that long before every answer to ``COMMAND`` (``play``,
``time_left``, ``boardsize``...): thinking on the referee's time, if the referee lets it.
``--orphan HOW=MARK`` starts, at start-up, a ``sleep 1000.MARK`` that tries to outlive the engine:
``setsid`` (in a session of its own) or ``nohup`` (ignoring the hang-up signal); a test finds it in
the process list by MARK (digits).

It uses the project's own rules (engine/) and GTP engine (protocol/), so it follows every game.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import GameError, IllegalMoveError  # noqa: E402
from engine.search.budget import TimeKeeper  # noqa: E402
from protocol.gtp import CommandError, GtpEngine, QuitRequest  # noqa: E402
from protocol.session import GameSession  # noqa: E402

FAULTS = ("illegal", "unparsable", "pass", "resign", "garbage", "failure", "hang", "silent",
          "exit", "flood", "flood-stderr", "refuse")
FLOOD_BYTES = 3 << 20


class FirstMovePlayer:
    """Stands in for the engine's player: the first generated legal move, instantly."""

    def __init__(self) -> None:
        self.clock = TimeKeeper()

    def new_game(self) -> None:
        pass

    def choose(self, position):
        return position.legal_moves()[0]


def illegal_move_text(position) -> str:
    """A well-formed from-to move that is not legal in ``position``."""
    cols, rows = position.game.size or (8, 8)
    squares = [f"{chr(97 + col)}{row + 1}" for row in range(rows) for col in range(cols)]
    for origin in squares:
        for target in squares:
            try:
                position.parse_move(f"{origin}-{target}")
            except IllegalMoveError:
                return f"{origin}-{target}"
            except GameError:
                continue
    raise RuntimeError("no illegal from-to move found")


class BadEngine:
    """The GTP engine with one planned fault."""

    def __init__(self, fault: str | None, at: int, stalls: dict[str, float] | None = None) -> None:
        self.fault, self.at = fault, at
        self.stalls = stalls or {}
        self.genmoves = self.plays = 0
        self.raw: str | None = None
        self.engine = GtpEngine()
        self.session = GameSession(FirstMovePlayer(), version="bad")
        self.session.register(self.engine)
        self.engine.add_command("genmove", self.genmove)
        for extension in ("genmove_analyze", "kata-time_settings", "kata-list_time_settings"):
            del self.engine.handlers[extension]  # an engine of plain GTP only
        self.engine.add_command("play", self.play)

    def genmove(self, args: list[str]) -> str:
        self.genmoves += 1
        if self.genmoves == self.at and self.fault not in (None, "refuse"):
            return self.misbehave()
        return self.session.cmd_genmove(args)

    def play(self, args: list[str]) -> str:
        self.plays += 1
        if self.fault == "refuse" and self.plays == self.at:
            raise CommandError("illegal move: I refuse")
        return self.session.cmd_play(args)

    def misbehave(self) -> str:
        fault = self.fault
        if fault == "illegal":
            return illegal_move_text(self.session.position)
        if fault in ("unparsable", "pass", "resign"):
            return {"unparsable": "zz99!", "pass": "pass", "resign": "resign"}[fault]
        if fault == "failure":
            raise CommandError("I have no idea")
        if fault == "garbage":
            self.raw = "this is not GTP\n\n"
        elif fault == "hang":
            sys.stdout.write("= ")
            sys.stdout.flush()
            time.sleep(3600)
        elif fault == "silent":
            time.sleep(3600)
        elif fault == "exit":
            os._exit(3)
        elif fault == "flood":
            line = "x" * 1023 + "\n"
            for _ in range(FLOOD_BYTES // len(line)):
                sys.stdout.write(line)
            sys.stdout.flush()
            time.sleep(3600)
        elif fault == "flood-stderr":
            sys.stderr.write(("e" * 1023 + "\n") * (FLOOD_BYTES // 1024))
            sys.stderr.flush()
            return self.session.cmd_genmove(["b" if self.session.position.to_move == 0 else "w"])
        return ""

    def serve(self) -> None:
        for line in sys.stdin:
            words = line.split()
            if words and words[0] in self.stalls:
                time.sleep(self.stalls[words[0]])
            try:
                answer = self.engine.respond(line)
            except QuitRequest as request:
                sys.stdout.write(request.args[0])
                sys.stdout.flush()
                return
            if self.raw is not None:
                answer, self.raw = self.raw, None
            if answer is not None:
                sys.stdout.write(answer)
                sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fault", choices=FAULTS)
    parser.add_argument("--at", type=int, default=1, help="which genmove (or play) misbehaves")
    parser.add_argument("--stall", action="append", default=[], metavar="COMMAND=SECONDS",
                        help="wait before answering COMMAND")
    parser.add_argument("--orphan", metavar="HOW=MARK", help="start a sleep that outlives us")
    arguments = parser.parse_args()
    stalls = {command: float(seconds) for command, _, seconds in
              (word.partition("=") for word in arguments.stall)}
    if arguments.orphan:
        start_orphan(*arguments.orphan.split("="))
    BadEngine(arguments.fault, arguments.at, stalls).serve()


def start_orphan(how: str, mark: str) -> None:
    """``sleep 1000.MARK`` in a session of its own (``setsid``) or deaf to the hang-up signal
    (``nohup``), its output away from the referee's pipes; never waited for."""
    subprocess.Popen([how, "sleep", f"1000.{mark}"], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

if __name__ == "__main__":
    main()
