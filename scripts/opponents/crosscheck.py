#!/usr/bin/env python3
"""Cross-check the C++ opponent against the project's own rules, beyond the compliance check.

    scripts/opponents/build.sh && python scripts/opponents/crosscheck.py

Three checks, each against the Python engine's rules (``engine``):

* rules: random games of Clobber (several board sizes, 1x1 to 26x3), Breakthrough (2x5 to
  26x6) and LOA, with moves sent in every accepted spelling, a few ``genmove`` and ``undo``
  among them; after every ply ``side_to_move``, ``legal_moves`` and ``final_score`` must be the
  rules' own;
* repetition: LOA games steered into back-and-forth moves until the third occurrence of a
  position (SPEC 2.1 rule 10) draws them, then taken back and continued with ``genmove``;
* solver: random small Clobber endgames, where the MCTS-solver's proof must agree with the
  exact combinatorial solver (``Position.solve``), and its move must keep a won position won.

Prints one line per check and exits with status 1 at the first disagreement.
"""

from __future__ import annotations

import pathlib
import random
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import COLOUR_NAMES, find_game  # noqa: E402

ENGINE = ROOT / "scripts" / "opponents" / "build" / "mcts_solver"
MOVE = re.compile(r"([a-z][0-9]+)[-x]([a-z][0-9]+)")


class Mismatch(Exception):
    """The engine and the rules disagree; the message says where."""


class Gtp:
    """The engine on pipes: one command in, one answer out."""

    def __init__(self, *flags: str) -> None:
        self.process = subprocess.Popen([str(ENGINE), *flags], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def send(self, command: str) -> tuple[bool, str]:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.process.stdout.readline()) not in ("\n", ""):
            lines.append(line.rstrip("\n"))
        text = "\n".join(lines)
        return text.startswith("="), text[1:].strip()

    def ok(self, command: str) -> str:
        success, text = self.send(command)
        if not success:
            raise Mismatch(f"{command!r} answered '? {text}'")
        return text

    def close(self) -> str:
        """Quit; return what the engine wrote on standard error."""
        self.send("quit")
        self.process.wait()
        return self.process.stderr.read()


def compare(gtp: Gtp, position, where: str) -> None:
    """The engine's view of the position must be the rules'."""
    side = gtp.ok("side_to_move")
    expected = "none" if position.outcome else COLOUR_NAMES[position.to_move]
    if side != expected:
        raise Mismatch(f"{where}: side_to_move {side!r}, the rules say {expected!r}")
    moves = gtp.ok("legal_moves").split()
    if moves != position.legal_move_texts():
        raise Mismatch(f"{where}: legal_moves {moves[:6]}..., the rules say "
                       f"{position.legal_move_texts()[:6]}...")
    success, score = gtp.send("final_score")
    if position.outcome and score != position.outcome.result:
        raise Mismatch(f"{where}: final_score {score!r}, the rules say {position.outcome.result!r}")
    if not position.outcome and success:
        raise Mismatch(f"{where}: final_score answered {score!r} before the end")


def spellings(text: str, rng: random.Random) -> str:
    """``text`` as the engine must also read it: upper case, ``-``, ``x`` or no separator."""
    match = MOVE.fullmatch(text)
    if not match:
        return rng.choice([text, text.upper()])
    origin, target = match.groups()
    return rng.choice([text, text.upper(), f"{origin}-{target}", f"{origin}x{target}",
                       origin + target])


def random_games(name: str, sizes, games: int, rng: random.Random) -> int:
    """Random games of ``name`` on each size (``None``: the fixed board), compared after
    every ply; the plies played."""
    gtp = Gtp("--sims", "50", "--seed", "3")
    plies = 0
    for size in sizes:
        for _ in range(games):
            gtp.ok(f"set_game {name}")
            game = find_game(name)(size=size)
            if size:
                gtp.ok(f"boardsize {size[0]} {size[1]}")
            position = game.initial_position()
            compare(gtp, position, f"{name} {size} start")
            while position.outcome is None and position.ply < 400:
                colour = COLOUR_NAMES[position.to_move]
                if rng.random() < 0.05:
                    text = gtp.ok(f"genmove {colour}")
                else:
                    text = rng.choice(position.legal_move_texts())
                    gtp.ok(f"play {colour} {spellings(text, rng)}")
                position.play(position.parse_move(text))
                plies += 1
                compare(gtp, position, f"{name} {size} ply {position.ply}")
                if rng.random() < 0.1:
                    gtp.ok("undo")
                    position.undo()
                    compare(gtp, position, f"{name} {size} undo at ply {position.ply}")
    gtp.close()
    return plies


def reverse(text: str) -> str:
    return f"{text[3:]}-{text[:2]}"


def back_and_forth(position, rng: random.Random) -> list[str]:
    """Eight quiet plies (two moves each played, taken back, played, taken back) that are
    legal from ``position``, or ``[]`` when none is found."""
    for _ in range(50):
        trial = position.game.position_after(texts_of(position))
        quiet = [text for text in trial.legal_move_texts() if "x" not in text and text != "pass"]
        if not quiet:
            return []
        first = rng.choice(quiet)
        trial.play(trial.parse_move(first))
        answers = [text for text in trial.legal_move_texts() if "x" not in text and text != "pass"]
        if not answers or trial.outcome:
            continue
        second = rng.choice(answers)
        cycle = [first, second, reverse(first), reverse(second)] * 2
        try:
            position.game.position_after(texts_of(position) + cycle)
        except Exception:  # some move of the cycle is not legal there: try another pair
            continue
        return cycle
    return []


def texts_of(position) -> list[str]:
    """The moves of ``position`` as texts, replayed from the start."""
    replay = position.game.initial_position()
    texts = []
    for move in position.moves:
        texts.append(replay.move_text(move))
        replay.play(move)
    return texts


def repetitions(rng: random.Random) -> int:
    """LOA games driven into third repetitions; the number of repetition draws seen."""
    gtp = Gtp("--sims", "200", "--seed", "3")
    gtp.ok("set_game loa")
    position = find_game("loa")().initial_position()
    draws = 0
    while position.outcome is None and position.ply < 300:
        text = rng.choice(position.legal_move_texts())
        gtp.ok(f"play {COLOUR_NAMES[position.to_move]} {text}")
        position.play(position.parse_move(text))
        compare(gtp, position, f"loa ply {position.ply}")
        for text in back_and_forth(position, rng) if position.outcome is None else []:
            if position.outcome:
                break
            gtp.ok(f"play {COLOUR_NAMES[position.to_move]} {text}")
            position.play(position.parse_move(text))
            compare(gtp, position, f"loa cycle, ply {position.ply}")
        if position.outcome and position.outcome.winner is None:
            draws += 1
            for _ in range(3):
                gtp.ok("undo")
                position.undo()
                compare(gtp, position, f"loa undo at ply {position.ply}")
            text = gtp.ok(f"genmove {COLOUR_NAMES[position.to_move]}")
            position.play(position.parse_move(text))
            compare(gtp, position, f"loa genmove after a repetition, ply {position.ply}")
    gtp.close()
    return draws


def endgames(trials: int, rng: random.Random) -> int:
    """Small Clobber endgames solved by both; the number compared."""
    compared = 0
    for _ in range(trials):
        size = rng.choice([(4, 4), (5, 4), (6, 3), (5, 5)])
        game = find_game("clobber")(size=size)
        position = game.initial_position()
        stones = rng.randint(6, 16)
        while position.outcome is None and position.ply < size[0] * size[1] - stones:
            position.play(rng.choice(position.legal_moves()))
        if position.outcome is not None or len(position.legal_moves()) == 1:
            continue
        truth = position.solve()
        if truth is None:
            continue
        gtp = Gtp("--verbose", "--sims", "200000", "--seed", "1")
        gtp.ok("set_game clobber")
        gtp.ok(f"boardsize {size[0]} {size[1]}")
        for text in texts_of(position):
            gtp.ok(f"play {gtp.ok('side_to_move')} {text}")
        text = gtp.ok(f"genmove {COLOUR_NAMES[position.to_move]}")
        log = gtp.close()
        where = f"clobber {size} after {' '.join(texts_of(position))}"
        if ("proven win" in log) != truth or ("proven loss" in log) == truth:
            raise Mismatch(f"{where}: the solver says {log.strip()!r}, the exact value is "
                           f"{'a win' if truth else 'a loss'}")
        position.play(position.parse_move(text))
        if truth and position.outcome is None and position.solve() is not False:
            raise Mismatch(f"{where}: {text} throws the win away")
        compared += 1
    return compared


def main() -> int:
    if not ENGINE.exists():
        print(f"{ENGINE} is missing: run scripts/opponents/build.sh first", file=sys.stderr)
        return 1
    rng = random.Random(1)
    try:
        plies = random_games("clobber", [(10, 10), (1, 1), (2, 1), (3, 5), (26, 3), (13, 13)],
                             6, rng)
        print(f"clobber: {plies} random plies agree with the rules")
        plies = random_games("breakthrough", [(8, 8), (2, 5), (5, 9), (26, 6)], 6, rng)
        print(f"breakthrough: {plies} random plies agree with the rules")
        plies = random_games("loa", [None], 15, rng)
        print(f"loa: {plies} random plies agree with the rules")
        print(f"loa: {repetitions(rng)} third repetitions drawn, as the rules say")
        print(f"clobber: {endgames(300, rng)} endgames proven as the exact solver says")
    except Mismatch as mismatch:
        print(f"MISMATCH {mismatch}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
