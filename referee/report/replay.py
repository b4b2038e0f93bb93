"""A finished game as the replay viewer steps through it: a board for every ply, the clocks.

The boards come from the project's rules (the game and options of the results row, its moves
played one by one) and its drawing layer, so the viewer shows exactly what the referee judged;
nothing about the rules is written a second time in the page's script. The clocks come from the
game's SGF record, whose move nodes carry the mover's time left (``BL``/``WL``).

A game's boards share most of their text (the board, its labels, most pieces): each distinct
line is stored once (:func:`pack`), so a long game costs little more than its moves.

>>> row = {"game_no": 1, "game": "breakthrough", "options": {}, "start_options": {},
...        "size": [8, 8], "moves": ["a2-a3", "h7-h6"], "black": "x", "white": "y",
...        "result": "0", "termination": "move_limit", "reason": "no result after 2 plies"}
>>> game = replay(row, clocks=[59.5, 58.0], start=(60, 60))
>>> len(game["boards"]["frames"]), game["clocks"]
(3, [[60, 60], [60, 59.5], [58.0, 59.5]])
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine import GameError
from engine.drawing import svg

from ..records.results import game_of_row
from ..records.sgf import SgfError, read_sgf
from .evaluation import evaluation_chart, ply_texts

# The version of the replays' text. A folder's replays are written once, when each game ends,
# and kept; one whose replays were written in another format has them all written again
# (report.folder.walk_rows). Raise it whenever the text of a replay changes (the drawings
# included): tests/report/test_report.py fails until it is raised.
REPLAY_FORMAT = 1


def pack(texts: Sequence[str]) -> dict[str, Any]:
    r"""``texts`` (a game's boards) as their distinct lines, each stored once, and each text as
    runs of consecutive line numbers, ``[first, count, first, count, ...]``: the lines a board
    shares with the others (squares, labels) cost a couple of numbers per ply, not their text.

    >>> packed = pack(["a\nb\nc", "a\nB\nc"])
    >>> packed
    {'lines': ['a', 'b', 'c', 'B'], 'frames': [[0, 3], [0, 1, 3, 1, 2, 1]]}
    >>> [unpack(packed, frame) for frame in range(2)] == ["a\nb\nc", "a\nB\nc"]
    True
    """
    numbers: dict[str, int] = {}
    frames = []
    for text in texts:
        runs: list[int] = []
        for line in text.split("\n"):
            number = numbers.setdefault(line, len(numbers))
            if runs and runs[-2] + runs[-1] == number:
                runs[-1] += 1
            else:
                runs += [number, 1]
        frames.append(runs)
    return {"lines": list(numbers), "frames": frames}


def unpack(packed: Mapping[str, Any], frame: int) -> str:
    """One text back from :func:`pack` (the page's script does the same)."""
    runs = packed["frames"][frame]
    return "\n".join(line for first, count in zip(runs[::2], runs[1::2])
                     for line in packed["lines"][first:first + count])


def sgf_clocks(text: str) -> list[float | None]:
    """The mover's time left after each move of an SGF record (``None`` where a move node has
    no ``BL``/``WL``, as for the untimed moves of an opening); empty for an unreadable record.

    >>> sgf_clocks("(;GM[loa];B[b1-b3]BL[59.5];W[a2-c2])")
    [59.5, None]
    """
    try:
        record = read_sgf(text)
    except SgfError:
        return []
    clocks: list[float | None] = []
    for node in record.nodes:
        for colour in "BW":
            if colour in node:
                clocks.append(_number(node.get(colour + "L", [""])[0]))
    return clocks


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def replay(row: Mapping[str, Any], clocks: Sequence[float | None] = (),
           start: Sequence[float | None] = (None, None)) -> dict[str, Any]:
    """The viewer's data for the game of a results row: its facts, the moves, a board per ply
    (ply 0 is the start) and both clocks at each ply (``None`` where unknown); for a game whose
    engines analysed their moves, a line of text a move (``analysis``, empty where a move has
    none) and the evaluation chart (``evaluation``, :mod:`.evaluation`).

    ``clocks`` are the mover's time left after each move (:func:`sgf_clocks`); ``start``
    black's and white's clocks at the start. A move the rules refuse (a record from an older
    version of the rules) ends the boards there, and ``error`` says why.
    """
    game = game_of_row(row)
    initial = game.initial_position()
    boards, movers = [svg(initial)], [initial.to_move]
    error = None
    try:
        for position, text in game.replay(row["moves"]):
            movers.append(position.to_move)
            boards.append(svg(position, text))
    except GameError as refused:
        error = str(refused)
    movers.pop()  # the side to move after the last move made none
    entries = row.get("analysis") or []
    analysed = {"analysis": ply_texts(entries, movers),
                "evaluation": evaluation_chart(entries, movers)} if entries else {}
    return {
        **analysed,
        "game_no": row["game_no"], "game": game.name, "title": game.title,
        "black": row["black"], "white": row["white"], "result": row["result"],
        "termination": row["termination"], "reason": row["reason"],
        "opening_plies": row.get("opening_plies") or 0,
        "moves": list(row["moves"]), "boards": pack(boards),
        "clocks": clock_pairs(movers, clocks, start), "error": error,
    }


def clock_pairs(movers: Sequence[int], clocks: Sequence[float | None],
                start: Sequence[float | None]) -> list[list[float | None]]:
    """Black's and white's time left at each ply, from who moved and the mover's time left
    after each move; a side keeps its last known time while the other moves.

    >>> clock_pairs([1, 0, 1], [9.5, None, 8.0], (10, 10))
    [[10, 10], [10, 9.5], [10, 9.5], [10, 8.0]]
    """
    pair = list(start)
    pairs = [list(pair)]
    for ply, colour in enumerate(movers):
        left = clocks[ply] if ply < len(clocks) else None
        if left is not None:
            pair[colour] = left
        pairs.append(list(pair))
    return pairs
