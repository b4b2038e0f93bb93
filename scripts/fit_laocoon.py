#!/usr/bin/env python3
"""Fit laoCoon's evaluation weights to the outcomes of played games (Texel-style tuning).

Every position of the moving phase of every game in the given referee output folders (the
``results.jsonl`` that ``olympiad-referee match`` and ``scripts/strength.py`` write) is replayed
and its evaluation terms taken from the side to move (``LaocoonPosition.evaluation_terms``,
each the mover's count less the opponent's). A logistic regression of "the side to move went on
to win" on those terms gives the weights; a nuisance term, +1 when the side to move is the
folder's engine 1 (ours in ``strength.py``'s folders) and -1 when it is engine 2, takes up the
difference in strength between the players so that it does not leak into the terms' weights.

Games are split alternately (every other game of the list for fitting, the rest for testing,
so that the positions of one game never sit on both sides, and the two games of a pair of
``strength.py`` fall on different sides); the log-loss and the share of winners predicted on
the test games are printed for the engine's weights and the fitted ones, the engine's scaled
by the one factor that fits them best. The fitted weights are printed in the engine's unit
(divided by that factor, so that a refit of the engine's own weights prints about the same
numbers)::

    python scripts/fit_laocoon.py /tmp/lao-a /tmp/lao-b ...      # referee output folders
    python scripts/fit_laocoon.py --self-play 300 --out /tmp/lao-self /tmp/lao-self
                                   # first play 300 games of the engine against itself
    python scripts/fit_laocoon.py --terms step,room,area ...     # fit a subset, others 0
    python scripts/fit_laocoon.py --from-ply 30 ...              # later positions only
    python scripts/fit_laocoon.py --phase ...        # middle and late game weights (the engine's)
    python scripts/fit_laocoon.py --beside-engine --terms room ... # a correction to the engine

It needs nothing but the project (argparse, not click), so that it runs under PyPy (``pypy3
scripts/fit_laocoon.py ...``), which plays the self-play games about three times as fast.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the fitting, shared

from engine import find_game  # noqa: E402
from engine.games import laocoon  # noqa: E402
from referee.records.folder import read_rows, scan_results  # noqa: E402
from logistic import fit, measures  # noqa: E402


def game_rows(folders: list[Path]) -> list[dict]:
    """The finished laoCoon games of the referee output ``folders`` (each searched for
    ``results.jsonl`` files), with a winner. Lines the referee cannot read as a game's result
    are skipped with a warning (rows from before the referee's termination field, say), so
    that a folder does not silently drop out of the fit."""
    rows = []
    for folder in folders:
        for path in sorted(folder.rglob("results.jsonl")):
            scan = scan_results(path)
            if scan.unreadable:
                print(f"warning: {path}: {len(scan.unreadable)} lines are no game's result "
                      "the referee can read; skipped", file=sys.stderr)
            for row in read_rows(path, scan):  # each game's row, as the referee reads them
                if row.get("game") == "laocoon" and row.get("result") in ("B+", "W+"):
                    row["source"] = str(path)
                    rows.append(row)
    return rows


def self_play(games: int, out: Path, seed: int, seconds: float, random_plies: int) -> None:
    """Play ``games`` games of the alpha-beta engine against itself, ``seconds`` a move,
    each from random ring placements and ``random_plies`` random moving plies (so that the
    games differ), and append them to ``out/results.jsonl`` as the referee writes them
    (engine 1 is black in odd games). Resumes: games already in the file are not replayed."""
    from engine.search.alphabeta import AlphaBeta
    from engine.search.budget import Budget
    out.mkdir(parents=True, exist_ok=True)
    path = out / "results.jsonl"
    done = max(scan_results(path).finished, default=0) if path.exists() else 0
    game = find_game("laocoon")()
    for number in range(done + 1, games + 1):
        rng = random.Random(seed * 100_003 + number)
        searchers = (AlphaBeta(rng.randrange(1 << 30)), AlphaBeta(rng.randrange(1 << 30)))
        position = game.initial_position()
        moves = []
        while position.outcome is None and len(moves) < 300:
            if position.placing or len(moves) < 4 + random_plies:
                move = rng.choice(position.search_moves() if not position.placing
                                  else position.legal_moves())
            else:
                move = searchers[position.to_move].choose(
                    position, Budget(soft=seconds, hard=2 * seconds))
            moves.append(position.move_text(move))
            position.play(move)
        if position.outcome is None or position.outcome.winner is None:
            continue
        black = 1 if number % 2 else 2
        row = {"game_no": number, "game": "laocoon", "result": position.outcome.result,
               "termination": position.outcome.termination.value,
               "reason": position.outcome.reason, "black_index": black,
               "white_index": 3 - black, "moves": moves, "plies": len(moves),
               "options": dict(game.settings)}
        with path.open("a") as stream:
            stream.write(json.dumps(row) + "\n")
        print(f"\r{number}/{games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def samples_of(row: dict, from_ply: int) -> list[tuple[list[float], int]]:
    """(columns, side to move won) for each position of the moving phase of one game, from
    ply ``from_ply`` on, in :func:`columns`."""
    game = find_game("laocoon")(row.get("options") or {})
    position = game.initial_position()
    winner = 0 if row["result"] == "B+" else 1  # engine.core: BLACK 0, WHITE 1
    colour_of_engine1 = 0 if row["black_index"] == 1 else 1
    samples = []
    for ply, text in enumerate(row["moves"]):
        if not position.placing and ply >= from_ply and position.outcome is None:
            side = position.to_move
            samples.append((columns(position, side == colour_of_engine1), int(side == winner)))
        position.play(position.parse_move(text))
    return samples


def columns(position, engine1_to_move: bool) -> list[float]:
    """The regression's columns of one position: the evaluation's terms, the same times the
    phase (``LaocoonPosition.phase`` as a share of its span: 1 in the middle game, 0 late;
    their weights are the middle game's less the late ones), the phase, +1 or -1 as engine 1
    or 2 is to move, and the engine's evaluation."""
    terms = [float(term) for term in position.evaluation_terms()]
    phase = position.phase() / laocoon.PHASE_SPAN
    return (terms + [phase * term for term in terms]
            + [phase, 1.0 if engine1_to_move else -1.0, float(position.evaluate())])


TERM_COUNT = len(laocoon.TERMS)
SLOPES = TERM_COUNT           # the first column of a term times the phase
PHASE = 2 * TERM_COUNT        # the phase's column (the tempo's slope)
NUISANCE = PHASE + 1          # which engine is to move
ENGINE = NUISANCE + 1         # the engine's evaluation


def scaled_engine_fit(samples):
    """The engine's evaluation times the one factor that fits ``samples`` best, with the
    nuisance term fitted beside it: (intercept, factor, nuisance weight)."""
    combined = [([values[ENGINE], values[NUISANCE]], won) for values, won in samples]
    intercept, (scale, strength) = fit(combined, [0, 1], 2)
    return intercept, scale, strength


def main(argv: list[str] | None = None) -> None:
    """Fit the evaluation's weights to the games of the folders and compare them with the
    engine's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="Referee output folders.")
    parser.add_argument("--terms", default="", help="Comma-separated terms to fit (default: all).")
    parser.add_argument("--from-ply", type=int, default=0,
                        help="Take positions from this ply of each game on (default 0).")
    parser.add_argument("--phase", action="store_true",
                        help="Fit two weights a term, the middle game's and the late game's, "
                             "mixed by the phase (the engine's form).")
    parser.add_argument("--beside-engine", action="store_true",
                        help="Fit the chosen terms beside the engine's whole evaluation (one "
                             "weight for it), as corrections to it: fewer weights to fit.")
    parser.add_argument("--self-play", type=int, default=0, metavar="GAMES",
                        help="First play this many games of the engine against itself into --out.")
    parser.add_argument("--out", type=Path, help="Folder for --self-play's results.jsonl.")
    parser.add_argument("--seconds", type=float, default=0.05, help="Self-play time a move.")
    parser.add_argument("--random-plies", type=int, default=4,
                        help="Random moving plies at the start of each self-play game.")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    if options.self_play:
        if options.out is None:
            parser.error("--self-play needs --out")
        self_play(options.self_play, options.out, options.seed, options.seconds,
                  options.random_plies)
    names = laocoon.TERMS
    chosen = ([names.index(name.strip()) for name in options.terms.split(",")]
              if options.terms else list(range(len(names))))
    rows = game_rows(options.folders)
    if len(rows) < 2:
        parser.error("need at least two laoCoon games with a winner in the folders")
    train, test = [], []
    for number, row in enumerate(rows):
        (train if number % 2 else test).extend(samples_of(row, options.from_ply))
    print(f"{len(rows)} games, {len(train)} positions to fit, {len(test)} to test")

    intercept, scale, strength = scaled_engine_fit(train)
    engine = [0.0] * NUISANCE + [strength, scale]
    print(f"engine's evaluation, scaled by {scale:.4f}: test log-loss/accuracy "
          "%.4f / %.1f%%" % _percent(measures(test, intercept, engine)))
    fitted = chosen + [SLOPES + index for index in chosen] + [PHASE] if options.phase else chosen
    if options.beside_engine:
        intercept, weights = fit(train, fitted + [NUISANCE, ENGINE], ENGINE + 1)
        print("fitted beside the engine: test log-loss/accuracy %.4f / %.1f%%"
              % _percent(measures(test, intercept, weights)))
        print(f"in the engine's unit (x{1 / weights[ENGINE]:.1f}), to add to its weights:")
        _print_weights(intercept, weights, 1 / weights[ENGINE], chosen)
        return
    intercept, weights = fit(train, fitted + [NUISANCE], NUISANCE + 1)
    print("fitted: test log-loss/accuracy %.4f / %.1f%%"
          % _percent(measures(test, intercept, weights)))
    print(f"in the engine's unit (x{1 / scale:.1f}); engine's weights in brackets:")
    _print_weights(intercept, weights, 1 / scale, range(len(names)))
    print(f"  {'(engine 1 to move)':18s} {weights[NUISANCE] / scale:7.1f}")


def _print_weights(intercept: float, weights, unit: float, shown) -> None:
    """The fitted weights of the terms ``shown`` and the tempo in the engine's unit, the
    middle game's and the late game's (the same without --phase), the engine's beside them."""
    print(f"  {'':18s} {'middle':>7s} {'late':>7s}  [engine's middle, late]")
    rows = [(laocoon.TERMS[index], weights[index], weights[SLOPES + index],
             laocoon.WEIGHTS[index], laocoon.LATE_WEIGHTS[index]) for index in shown]
    rows.append(("tempo", intercept, weights[PHASE], laocoon.TEMPO, laocoon.LATE_TEMPO))
    for name, late, slope, middle_now, late_now in rows:
        print(f"  {name:18s} {unit * (late + slope):7.1f} {unit * late:7.1f}  "
              f"[{middle_now}, {late_now}]")


def _percent(pair):
    return pair[0], 100 * pair[1]


if __name__ == "__main__":
    main()
