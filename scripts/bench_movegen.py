#!/usr/bin/env python3
"""Move-generation speed per game: random-playout plies/s and perft nodes/s on one core.

    python scripts/bench_movegen.py              # every game, 3 s each
    python scripts/bench_movegen.py loa --seconds 10
    python scripts/bench_movegen.py clobber@9x7 clobber@8x8    # another board size
    python scripts/bench_movegen.py loa breakthrough clobber --interpreter python3 \\
        --interpreter pypy3 --openspiel --rounds 5

A playout ply is: generate every legal move, pick one at random, play it (with the rule checks
and bookkeeping of a real game). Perft counts leaves from the start position at the deepest
depth that finishes within the time.

With ``--interpreter`` (repeatable) or ``--openspiel`` the script compares instead: each
runner (our engine under each interpreter; OpenSpiel's C++ game driven from this Python, the
same loop of ``legal_actions``, a random choice and ``apply_action``, when ``open-spiel`` is
installed) is a process of its own, kept for the whole run so that a JIT stays warm, and is
given ``--seconds`` slices in turn: round after round, game after game, runner after runner, so
that a change in the machine's load falls on all of them alike. The table gives each runner's
median over the rounds, and its ratio to OpenSpiel's. Standard library only, so that PyPy runs
it with nothing installed.

Rates are per second of the process's own CPU time, not of the wall clock: on a shared machine
a process waiting for a core would otherwise count as slow.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import GameError, find_game, game_names  # noqa: E402
from engine.perft import perft  # noqa: E402

# OpenSpiel's names of the games it shares with us, with our default boards.
OPENSPIEL_GAMES = {"loa": "lines_of_action", "breakthrough": "breakthrough(rows=8,columns=8)",
                   "clobber": "clobber(rows=10,columns=10)"}
MAX_PLIES = 1000  # a playout still going after this many plies is cut off (both runners)
WARM_UP = 5.0     # seconds per game and runner before the measured rounds: PyPy's JIT needs them


def make_game(text: str):
    """The game named by ``text``: a name, or ``NAME@COLSxROWS`` for another board size."""
    name, _, size = text.partition("@")
    if not size:
        return find_game(name)()
    cols, _, rows = size.lower().partition("x")
    return find_game(name)(size=(int(cols), int(rows)))


def playout_rate(game, seconds: float, seed: int = 1) -> tuple[float, int]:
    """Random-playout plies per CPU second, and how many games were played."""
    rng = random.Random(seed)
    plies = games = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        position = game.initial_position()
        while position.outcome is None and position.ply < MAX_PLIES:
            position.play(rng.choice(position.legal_moves()))
        plies += position.ply
        games += 1
    return plies / (time.process_time() - started), games


def openspiel_playout_rate(game, seconds: float, seed: int = 1) -> tuple[float, int]:
    """The same as :func:`playout_rate` for an OpenSpiel game, driven from Python: the loop is
    written again for OpenSpiel's API so that neither side pays for an adapter's calls."""
    rng = random.Random(seed)
    plies = games = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state = game.new_initial_state()
        ply = 0
        while not state.is_terminal() and ply < MAX_PLIES:
            state.apply_action(rng.choice(state.legal_actions()))
            ply += 1
        plies += ply
        games += 1
    return plies / (time.process_time() - started), games


def perft_rate(game, seconds: float) -> tuple[float, int]:
    """Perft leaves per CPU second at the deepest depth that finished within ``seconds``."""
    best_rate, depth = 0.0, 0
    while True:
        started = time.process_time()
        nodes = perft(game.initial_position(), depth + 1)
        elapsed = time.process_time() - started
        depth += 1
        best_rate = nodes / elapsed if elapsed > 0 else best_rate
        if elapsed > seconds / 4 or depth >= 8:
            return best_rate, depth


def serve_slices(openspiel: bool) -> None:
    """A runner: read ``GAME SECONDS`` lines, answer each with the playout rate of a slice."""
    if openspiel:
        import pyspiel
        load, rate = (lambda name: pyspiel.load_game(OPENSPIEL_GAMES[name])), openspiel_playout_rate
    else:
        load, rate = make_game, playout_rate
    games = {}
    for line in sys.stdin:
        name, seconds = line.split()
        if name not in games:
            games[name] = load(name)
        print(f"{rate(games[name], float(seconds))[0]:.1f}", flush=True)


class Runner:
    """One runner process, answering slice requests (:func:`serve_slices`)."""

    def __init__(self, label: str, command: list[str]) -> None:
        self.label = label
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

    def slice(self, game: str, seconds: float) -> float:
        self.process.stdin.write(f"{game} {seconds}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"bench_movegen: runner {self.label} stopped (see its error above)")
        return float(answer)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def compare(games: list[str], interpreters: list[str], openspiel: bool, seconds: float,
            rounds: int) -> None:
    """Print the interleaved comparison table (see the module's docstring)."""
    script = str(pathlib.Path(__file__).resolve())
    runners = [Runner(program, [program, script, "--serve"]) for program in interpreters]
    if openspiel:
        runners.append(Runner("openspiel", [sys.executable, script, "--serve-openspiel"]))
    rates: dict[tuple[str, str], list[float]] = {}
    try:
        for game in games:
            for runner in runners:
                runner.slice(game, WARM_UP)
        for _ in range(rounds):
            for game in games:
                for runner in runners:
                    rates.setdefault((game, runner.label), []).append(runner.slice(game, seconds))
    finally:
        for runner in runners:
            runner.close()
    labels = [runner.label for runner in runners]
    header = "".join(f" {label:>14}" for label in labels)
    ratios = "".join(f" {label + ' / os':>14}" for label in labels if label != "openspiel")
    print(f"playout plies/s, median of {rounds} interleaved {seconds:g} s slices\n")
    print(f"{'game':<14}{header}{ratios if openspiel else ''}")
    for game in games:
        median = {label: statistics.median(rates[game, label]) for label in labels}
        row = "".join(f" {median[label]:>14,.0f}" for label in labels)
        if openspiel:
            row += "".join(f" {median[label] / median['openspiel']:>13.2f}x" for label in labels
                           if label != "openspiel")
        print(f"{game:<14}{row}")


def main() -> None:
    options = argparse.ArgumentParser(description="Print playout plies/s and perft nodes/s "
                                      "for GAMES (default: all), or compare runners.")
    options.add_argument("games", nargs="*")
    options.add_argument("--seconds", type=float, default=3.0, help="per measurement (default 3)")
    options.add_argument("--interpreter", action="append", default=[], metavar="PROGRAM",
                         help="compare our engine under this Python (repeatable)")
    options.add_argument("--openspiel", action="store_true",
                         help="compare with OpenSpiel's game driven from this Python")
    options.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    options.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    options.add_argument("--serve-openspiel", action="store_true", help=argparse.SUPPRESS)
    chosen = options.parse_args()
    if chosen.serve or chosen.serve_openspiel:
        return serve_slices(chosen.serve_openspiel)
    names = []
    for text in chosen.games or game_names():
        try:
            game = make_game(text)
        except (GameError, ValueError) as error:
            options.error(f"{text}: {error} (expected NAME or NAME@COLSxROWS)")
        names.append(game.name + text[text.find("@"):] if "@" in text else game.name)
    if chosen.interpreter or chosen.openspiel:
        if chosen.openspiel:
            try:
                import pyspiel  # noqa: F401
            except ImportError:
                options.error("--openspiel: open-spiel is not installed here "
                              "(pip install open-spiel, into this Python)")
            unknown = [name for name in names if name not in OPENSPIEL_GAMES]
            if unknown:
                options.error(f"--openspiel: OpenSpiel has no {', '.join(unknown)} "
                              f"(expected some of {', '.join(OPENSPIEL_GAMES)})")
        return compare(names, chosen.interpreter or [sys.executable], chosen.openspiel,
                       chosen.seconds, chosen.rounds)
    print(f"{'game':<14} {'playout plies/s':>16} {'games':>6} {'perft nodes/s':>14} {'depth':>6}")
    for name in names:
        game = make_game(name)
        rate, count = playout_rate(game, chosen.seconds)
        nodes, depth = perft_rate(game, chosen.seconds)
        print(f"{name:<14} {rate:>16,.0f} {count:>6} {nodes:>14,.0f} {depth:>6}")


if __name__ == "__main__":
    main()
