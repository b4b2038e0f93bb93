"""A GTP engine for the compliance check's tests: the project's engine with one protocol habit
gone wrong, as engine authors get them wrong.

    python sloppy_engine.py --habit HABIT

HABIT is one of:

* ``no-ids``: answers ``=`` without echoing the command's id;
* ``answers-comments``: answers a comment line with ``=`` instead of ignoring it;
* ``unsorted``: ``legal_moves`` in reverse order;
* ``stays``: answers ``quit`` but does not exit;
* ``banner``: greets with a line of text before reading any command;
* ``no-blank``: ends its answer to ``list_games`` without the empty line;
* ``no-loa``: refuses ``set_game loa`` (a game it does not play).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.search import Player  # noqa: E402
from protocol.cli import build_engine  # noqa: E402
from protocol.gtp import CommandError, QuitRequest  # noqa: E402

HABITS = ("no-ids", "answers-comments", "unsorted", "stays", "banner", "no-blank", "no-loa")


def refuse_loa(select, args: list[str]) -> str:
    if args[:1] == ["loa"]:
        raise CommandError("unknown game: loa")
    return select(args)


def serve(habit: str) -> None:
    engine = build_engine(Player(depth=1, seed=1))
    if habit == "unsorted":
        moves = engine.handlers["legal_moves"]
        engine.add_command("legal_moves", lambda args: " ".join(reversed(moves(args).split())))
    if habit == "no-loa":
        select = engine.handlers["set_game"]
        engine.add_command("set_game", lambda args: refuse_loa(select, args))
    if habit == "banner":
        sys.stdout.write("Sloppy engine 1.0 ready\n")
        sys.stdout.flush()
    for line in sys.stdin:
        if habit == "answers-comments" and line.lstrip().startswith("#"):
            sys.stdout.write("=\n\n")
            sys.stdout.flush()
            continue
        try:
            answer = engine.respond(line)
        except QuitRequest as request:
            sys.stdout.write(request.args[0])
            sys.stdout.flush()
            if habit == "stays":
                continue
            return
        if answer is not None:
            if habit == "no-blank" and line.split()[:1] == ["list_games"]:
                answer = answer.rstrip("\n") + "\n"
            if habit == "no-ids":
                head, _, rest = answer.partition(" ")
                answer = head[0] + (" " + rest if rest else "\n\n" if head.endswith("\n\n") else "")
            sys.stdout.write(answer)
            sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--habit", choices=HABITS, required=True)
    serve(parser.parse_args().habit)


if __name__ == "__main__":
    main()
