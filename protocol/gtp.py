"""The engine side of GTP version 2 framing (SPEC 1.1), knowing nothing about any game.

:class:`GtpEngine` keeps a table of command handlers. A handler takes the list of argument
words and returns the answer text; it raises :class:`CommandError` for a failure answer and
:class:`QuitRequest` to end the session. Any other exception becomes ``? internal error`` so that
no input can stop the loop.

>>> engine = GtpEngine()
>>> engine.add_command("echo", lambda args: " ".join(args))
>>> engine.respond("7 echo hello  world # comment")
'=7 hello world\\n\\n'
>>> engine.respond("frobnicate")
'? unknown command: frobnicate\\n\\n'
"""

from __future__ import annotations

import re
import sys
from typing import Callable, TextIO

Handler = Callable[[list[str]], str]

# Control characters other than tab and newline, as the framing rules ask to remove them.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_ID = re.compile(r"[0-9]+")  # ASCII digits only, like every number on the protocol


class CommandError(Exception):
    """A failure answer: ``? message``. The command must have changed nothing."""


class QuitRequest(Exception):
    """Raised by a handler to answer with success and end the session."""


def clean_line(line: str) -> str:
    """A raw input line after the framing rules: control characters and comments dropped,
    tabs turned into spaces, surrounding space stripped (empty means: ignore the line)."""
    line = _CONTROL.sub("", line.replace("\t", " "))
    return line.split("#", 1)[0].strip()


def format_answer(success: bool, command_id: str | None, text: str) -> str:
    """An answer in GTP form: ``=id text`` or ``?id text``, ended by an empty line.

    Empty lines inside ``text`` would end the answer early, so they are dropped; a text that
    starts with a newline (a diagram) starts on the line after the ``=``.
    """
    first, *rest = text.split("\n")
    prefix = ("=" if success else "?") + (command_id or "")
    head = f"{prefix} {first}" if first else prefix
    return "\n".join([head] + [line for line in rest if line.strip()]) + "\n\n"


class GtpEngine:
    """A GTP command loop with a table of handlers."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {}
        self.add_command("protocol_version", lambda args: "2")
        self.add_command("known_command", self._known_command)
        self.add_command("list_commands", lambda args: "\n".join(sorted(self.handlers)))
        self.add_command("quit", self._quit)

    def add_command(self, name: str, handler: Handler) -> None:
        """Make ``name`` a command answered by ``handler(arguments)``."""
        self.handlers[name] = handler

    def _known_command(self, args: list[str]) -> str:
        if len(args) != 1:
            raise CommandError("syntax error: expected one command name")
        return "true" if args[0] in self.handlers else "false"

    @staticmethod
    def _quit(args: list[str]) -> str:
        raise QuitRequest

    def respond(self, line: str) -> str | None:
        """The full answer to one raw input line, or ``None`` for a line to ignore.

        Raises :class:`QuitRequest` after ``quit``, with the answer in its first argument.
        """
        words = clean_line(line).split()
        if not words:
            return None
        command_id = None
        if _ID.fullmatch(words[0]):
            command_id = words.pop(0)
            if not words:
                return format_answer(False, command_id, "syntax error: no command after the id")
        name, args = words[0], words[1:]
        handler = self.handlers.get(name)
        if handler is None:
            return format_answer(False, command_id, f"unknown command: {name}")
        try:
            return format_answer(True, command_id, handler(args))
        except CommandError as error:
            return format_answer(False, command_id, str(error))
        except QuitRequest:
            raise QuitRequest(format_answer(True, command_id, "")) from None
        except Exception as error:  # a bug must not end the session: report it and go on
            detail = f"{type(error).__name__}: {error}".splitlines()[0]
            return format_answer(False, command_id, f"internal error: {detail}")

    def serve(self, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
        """Answer commands from ``stdin`` until ``quit`` or end of input."""
        for line in stdin:
            try:
                answer = self.respond(line)
            except QuitRequest as request:
                stdout.write(request.args[0])
                stdout.flush()
                return
            if answer is not None:
                stdout.write(answer)
                stdout.flush()
