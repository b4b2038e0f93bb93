"""A scripted GTP engine that says what it is told to think: for the referee's analysis and
adjudication tests.

    python scoring_engine.py [--answers A;B;C...] [--moves first|last]

It announces ``genmove_analyze`` and answers it with the first (or last) legal move, followed by
the lines of its next scripted answer: ``--answers "score 0.5;score -0.2|pv x;!"`` gives its
first analysed move ``score 0.5``, its second the two lines ``score -0.2`` and ``pv x``, its
third no analysis at all (``!``); after the script, no analysis. The lines are sent as written,
so a test can send malformed ones; a first line ``@TEXT`` sends TEXT as the move line instead of
the move (which is then not played).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from protocol.gtp import GtpEngine  # noqa: E402
from protocol.session import GameSession  # noqa: E402

from tests.referee.bad_engine import FirstMovePlayer  # noqa: E402


class LastMovePlayer(FirstMovePlayer):
    """The last generated legal move, instantly."""

    def choose(self, position):
        return position.legal_moves()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", default="", help="';' between moves, '|' between lines")
    parser.add_argument("--moves", choices=("first", "last"), default="first")
    arguments = parser.parse_args()
    script = [answer.split("|") for answer in arguments.answers.split(";")] \
        if arguments.answers else []
    player = FirstMovePlayer() if arguments.moves == "first" else LastMovePlayer()
    engine = GtpEngine()
    session = GameSession(player, version="scoring")
    session.register(engine)

    def genmove_analyze(args: list[str]) -> str:
        lines = script.pop(0) if script else ["!"]
        if lines[0].startswith("@"):
            move, lines = lines[0][1:], lines[1:]
        else:
            move = session.cmd_genmove(args)
        return "\n".join([move] + ([] if lines == ["!"] else lines))

    engine.add_command("genmove_analyze", genmove_analyze)
    engine.serve()


if __name__ == "__main__":
    main()
