"""Exact values of Kolem's small endgames, and how well the engine's search plays them.

A phase-2 position with few pieces is decided by retrograde analysis: every stable position
(each piece touches an opponent piece, none has four neighbours) with 3 to ``--pieces`` pieces
on the board and at least 3 a side, both sides to move, is a node; a move that leaves a side
with 2 pieces or fewer ends the game. Positions without a move are lost, a position with a
move to a lost one is won, one whose moves all lead to won ones is lost, repeated until
nothing changes; what is left is a draw (either side can keep the game going round for ever,
so the move limit ends it). Kolem's rules are the same for both colours in phase 2, so a
position is kept as (the mover's pieces, the other side's).

Then the engine plays ``--positions`` positions of each kind (pieces a side, result for the
mover) with ``--seconds`` a move, and the script counts how often its move keeps the value
(a won position's move wins, a drawn one's does not lose): the figure the endgame weights in
``engine/games/kolem.py`` were tuned on. ``--set NAME=VALUE`` changes a weight for the run::

    python scripts/kolem_endgames.py --pieces 9 --positions 100 --seconds 0.1
    python scripts/kolem_endgames.py --pieces 9 --set WEIGHT_SAFE_MOVE=15

With 9 pieces the table holds 4.8 million positions (2 minutes, 4 GB on CPython).

``--games FOLDER`` reads instead the games of a match's output folder (one of those
``scripts/strength.py --out`` writes, our engine the referee's first) and prints, for each, the
pieces each side had after every capture and every move of an endgame within the table that
changed its exact value: where a game was decided, and by whom::

    python scripts/kolem_endgames.py --pieces 8 --games /tmp/kolem-mid-b3/kolem-uct-10x
"""

from __future__ import annotations

import random
import sys
from collections import Counter, deque
from itertools import combinations
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bits import squares_of  # noqa: E402
from engine.core import BLACK, COLOUR_NAMES, WHITE  # noqa: E402
from engine.games import kolem  # noqa: E402
from engine.games.kolem import (FULL, KING, ORTH, PIECES, SQUARES, Kolem,  # noqa: E402
                                KolemPosition, crowded, orthogonal)
from engine.search.alphabeta import AlphaBeta  # noqa: E402
from engine.search.budget import Budget  # noqa: E402
from referee.records.folder import RESULTS_NAME, read_rows  # noqa: E402

WON, DRAWN, LOST = 1, 0, -1
SIGNS = {WON: "+", DRAWN: "=", LOST: "-"}
FEWEST = 3  # a side with fewer has lost


def stable_positions(movers: int, others: int):
    """Every (mover, other) pair of bitboards with these counts that a phase-2 move can leave:
    each piece touches an opponent piece and none has four neighbours."""
    for chosen in combinations(range(SQUARES), others):
        other = sum(1 << square for square in chosen)
        around = squares_of(orthogonal(other) & ~other)
        for near in combinations(around, movers):
            mover = sum(1 << square for square in near)
            if not other & ~orthogonal(mover) and not crowded(mover | other):
                yield mover, other


def successors(mover: int, other: int):
    """The (mover, other) bitboards after each of the mover's steps and the removals."""
    occupied = mover | other
    for origin in squares_of(mover):
        without = occupied ^ (1 << origin)
        for target in squares_of(KING[origin] & ~occupied & FULL):
            if ORTH[target] & other and not crowded(without | 1 << target):
                moved = mover ^ (1 << origin) ^ (1 << target)
                yield moved & orthogonal(other), other & orthogonal(moved)


def solve(pieces: int) -> dict:
    """``{(mover, other): (result for the mover, plies to the end)}`` for every stable position
    with at most ``pieces`` pieces and at least 3 a side; draws have plies 0."""
    keys = set()
    for total in range(2 * FEWEST, pieces + 1):
        for movers in range(FEWEST, total - FEWEST + 1):
            for mover, other in stable_positions(movers, total - movers):
                keys.add((mover, other))
                keys.add((other, mover))
    table = {key: (DRAWN, 0) for key in keys}
    parents: dict = {key: [] for key in keys}
    waiting = {}  # the moves of an unsettled position not yet known to lose
    settled = ([], [])  # by plies, 0 and 1: the start of the work queue
    for key in keys:
        children, moves, wins = set(), 0, False
        for mover, other in successors(*key):
            moves += 1
            if mover.bit_count() < FEWEST:
                continue  # the mover loses (also when both sides fall below 3)
            if other.bit_count() < FEWEST:
                wins = True
                break
            children.add((other, mover))
        if wins or not children:
            table[key] = (WON, 1) if wins else (LOST, min(moves, 1))
            settled[table[key][1]].append(key)
            continue
        waiting[key] = len(children)
        for child in children:
            parents[child].append(key)
    queue = deque(settled[0] + settled[1])
    while queue:  # in order of plies, so each position is settled at its shortest
        child = queue.popleft()
        result, plies = table[child]
        for parent in parents[child]:
            if table[parent][0] != DRAWN:
                continue
            if result == LOST:
                table[parent] = (WON, plies + 1)
                queue.append(parent)
            else:
                waiting[parent] -= 1
                if not waiting[parent]:
                    table[parent] = (LOST, plies + 1)
                    queue.append(parent)
    return table


def census(table: dict) -> Counter:
    """How many positions of each kind: (mover's pieces, other's pieces, result)."""
    return Counter((mover.bit_count(), other.bit_count(), result)
                   for (mover, other), (result, _) in table.items())


def position_of(mover: int, other: int) -> KolemPosition:
    """The position with white (the mover) to move."""
    return KolemPosition(Kolem(), other, mover, (0, 0), WHITE)


def result_after(table: dict, position: KolemPosition, move) -> int:
    """The exact result for the side that plays ``move`` in ``position``."""
    mover = position.to_move
    position.play(move)
    try:
        if position.outcome is not None:
            return WON if position.outcome.winner == mover else LOST
        return -table[(position.pieces[mover ^ 1], position.pieces[mover])][0]
    finally:
        position.undo()


def kept(table: dict, samples: dict, seconds: float) -> dict:
    """For each kind, how many of its sample positions the engine's move keeps the value of."""
    counts = {}
    for kind, keys in sorted(samples.items()):
        good = 0
        for key in keys:
            position = position_of(*key)
            move = AlphaBeta(seed=1).choose(position, Budget(soft=seconds, hard=2 * seconds))
            good += result_after(table, position, move) >= kind[2]
        counts[kind] = good
    return counts


def value_for(table: dict, position: KolemPosition, colour: int) -> int | None:
    """The exact result for ``colour`` of ``position`` (in play or ended), or ``None`` where the
    table does not reach (phase 1, or more pieces)."""
    if position.outcome is not None:
        winner = position.outcome.winner
        return DRAWN if winner is None else WON if winner == colour else LOST
    if position.placing:
        return None
    mover = position.to_move
    entry = table.get((position.pieces[mover], position.pieces[mover ^ 1]))
    if entry is None:
        return None
    return entry[0] if mover == colour else -entry[0]


def game_story(table: dict, moves: list[str], ours: int) -> list[str]:
    """``ply:ours-theirs`` (the pieces each side has) after every ply that changed them, and
    ``ply:move by`` with the exact value for ``ours`` before and after (``+`` won, ``=``
    drawn, ``-`` lost) where a move changed it; ``ply:value`` where the game enters the table."""
    position = Kolem().initial_position()
    story, pieces, value = [], (PIECES, PIECES), None
    for ply, text in enumerate(moves, 1):
        mover = "ours" if position.to_move == ours else "theirs"
        position.play(position.parse_move(text))
        now = (position.total(ours), position.total(ours ^ 1))
        if now != pieces:
            story.append(f"{ply}:{now[0]}-{now[1]}")
            pieces = now
        new = value_for(table, position, ours)
        if new is not None and value is None:
            story.append(f"{ply}:{SIGNS[new]}")
        elif new is not None and new != value:
            story.append(f"{ply}:{text} by {mover} {SIGNS[value]}{SIGNS[new]}")
        value = new
    return story


@click.command()
@click.option("--pieces", default=9, show_default=True, help="Most pieces on the board.")
@click.option("--positions", default=100, show_default=True, help="Positions of each kind.")
@click.option("--seconds", default=0.1, show_default=True, help="The engine's time a move.")
@click.option("--seed", default=1, show_default=True)
@click.option("--set", "weights", multiple=True, help="NAME=VALUE: a weight of the evaluation.")
@click.option("--games", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A match's output folder (our engine first): tell its games' stories.")
def main(pieces: int, positions: int, seconds: float, seed: int, weights: tuple,
         games: Path | None) -> None:
    for weight in weights:
        name, value = weight.split("=")
        setattr(kolem, name, int(value))
    table = solve(pieces)
    if games is not None:
        for row in read_rows(games / RESULTS_NAME):
            ours = BLACK if row["black_index"] == 1 else WHITE
            click.echo(f"game {row['game_no']}, ours {COLOUR_NAMES[ours]}, {row['result']} "
                       f"in {row['plies']} plies: "
                       + " ".join(game_story(table, row["moves"], ours)))
        return
    counts = census(table)
    for movers, others in sorted({kind[:2] for kind in counts}):
        row = [counts[movers, others, result] for result in (WON, DRAWN, LOST)]
        click.echo(f"{movers} against {others}, {movers} to move: won {row[0]}, "
                   f"drawn {row[1]}, lost {row[2]}")
    rng = random.Random(seed)
    samples: dict = {}
    for key in sorted(table):
        kind = (key[0].bit_count(), key[1].bit_count(), table[key][0])
        if kind[2] != LOST and sum(kind[:2]) >= pieces - 1:
            samples.setdefault(kind, []).append(key)
    samples = {kind: rng.sample(keys, min(positions, len(keys)))
               for kind, keys in samples.items()}
    good = kept(table, samples, seconds)
    for kind, count in good.items():
        name = "won" if kind[2] == WON else "drawn"
        click.echo(f"{kind[0]} against {kind[1]}, {name}: kept {count} of {len(samples[kind])}")
    total = sum(len(keys) for keys in samples.values())
    click.echo(f"kept {sum(good.values())} of {total} ({100 * sum(good.values()) / total:.1f} %)")


if __name__ == "__main__":
    main()
