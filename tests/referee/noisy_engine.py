"""A GTP engine for the referee's fuzz tests: it plays the first legal move at once and answers
one chosen command with bytes it is given, as they are.

    python noisy_engine.py --command COMMAND --payloads FOLDER

Each time it is asked ``COMMAND`` (``name``, ``genmove``, ``play``...), it takes the first file
of FOLDER (in name order), deletes it, and writes its bytes in place of the answer it would have
given, with ``{answer}`` in them replaced by that answer's text (``= {answer}\\n`` and garbage
after it: a legal move followed by nonsense); it writes them to standard error as well. Once
FOLDER is empty it answers as it should. The files are taken across processes: an engine
started again by the referee goes on with the next one.

It announces ``genmove_analyze`` (with no analysis of its own, so that every analysis line
comes from a file) and nothing else beyond plain GTP. It uses the project's own rules
(engine/) and GTP engine (protocol/), so it follows every game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from protocol.gtp import GtpEngine, QuitRequest, clean_line  # noqa: E402
from protocol.session import GameSession  # noqa: E402

from tests.referee.bad_engine import FirstMovePlayer  # noqa: E402


class SilentAnalyst(FirstMovePlayer):
    """The first legal move, with no analysis: any analysis line comes from a file."""

    def choose_with_analysis(self, position):
        return self.choose(position), None


def next_payload(folder: Path) -> bytes | None:
    """The bytes of the first file left in ``folder``, which is deleted; ``None`` when empty."""
    for path in sorted(folder.iterdir()):
        data = path.read_bytes()
        path.unlink()
        return data
    return None


def serve(command: str, folder: Path) -> None:
    engine = GtpEngine()
    GameSession(SilentAnalyst(), version="noisy").register(engine)
    for extension in ("kata-time_settings", "kata-list_time_settings"):
        del engine.handlers[extension]
    out = sys.stdout.buffer
    for line in sys.stdin:
        try:
            answer = engine.respond(line)
        except QuitRequest as request:
            out.write(request.args[0].encode())
            out.flush()
            return
        words = clean_line(line).split()
        payload = next_payload(folder) if words[:1] == [command] else None
        if payload is not None:
            text = answer.strip().partition(" ")[2] if answer else ""
            sys.stderr.buffer.write(payload)
            sys.stderr.buffer.flush()
            out.write(payload.replace(b"{answer}", text.encode()))
        elif answer is not None:
            out.write(answer.encode())
        out.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--command", required=True, help="the command answered with bytes")
    parser.add_argument("--payloads", type=Path, required=True,
                        help="the folder of files holding those bytes, one file an answer")
    arguments = parser.parse_args()
    serve(arguments.command, arguments.payloads)


if __name__ == "__main__":
    main()
