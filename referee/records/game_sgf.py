"""A finished game's SGF record, written from its results row and clocks (reading SGF is
:mod:`.sgf`'s).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .analysis import SGF_PROPERTY as ANALYSIS_PROPERTY
from .analysis import from_row, sgf_value
from .sgf import GAME_NUMBERS


def _sgf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def recorded_clock(seconds: float) -> float:
    """A clock's time left as the records keep it: never below 0, to the millisecond.

    >>> recorded_clock(-0.2), recorded_clock(12.34567)
    (0.0, 12.346)
    """
    return round(max(0.0, seconds), 3)


def sgf_text(row: Mapping[str, Any], clocks: Sequence[float | None] | None = None) -> str:
    """The SGF record of a game from its results row: a root node with the players, result
    and rules, then one node per move holding our move text (``B[b1-b3]``), with the time left
    (``BL``/``WL``) when ``clocks`` gives it (opening moves have none) and the mover's analysis
    (``EA``, in the lines of ``genmove_analyze``, see ``docs/analysis.md``) when the row's
    ``analysis`` has one for the move. The last opening move's
    comment says where the opening ends (``C[end of opening 3]``); the termination and its
    reason are the last node's comment.

    >>> row = {"game": "loa", "game_no": 1, "black": "a", "white": "b", "result": "B+",
    ...        "termination": "resign", "reason": "white resigned", "moves": ["b1-b3"],
    ...        "size": [8, 8], "options": {}, "first_player": "black"}
    >>> print(sgf_text(row), end="")
    (;FF[4]CA[UTF-8]GM[9]AP[olympiad-referee]SZ[8]GN[loa game 1]PB[a]PW[b]RE[B+]
    ;B[b1-b3]C[resign: white resigned])
    """
    root = ["FF[4]", "CA[UTF-8]", f"GM[{GAME_NUMBERS.get(row['game'], row['game'])}]",
            "AP[olympiad-referee]"]
    if row.get("size"):
        cols, rows = row["size"]
        root.append(f"SZ[{cols}]" if cols == rows else f"SZ[{cols}:{rows}]")
    root.append(f"GN[{_sgf_escape(row['game'])} game {row['game_no']}]")
    if row.get("finished"):
        root.append(f"DT[{row['finished'][:10]}]")
    root += [f"PB[{_sgf_escape(row['black'])}]", f"PW[{_sgf_escape(row['white'])}]",
             f"RE[{row['result']}]"]
    settings = " ".join(f"{key}={value}" for key, value in row.get("options", {}).items())
    if settings:
        root.append(f"GC[{_sgf_escape('options: ' + settings)}]")
    nodes = [";" + "".join(root)]
    analyses = [from_row(entry) for entry in row.get("analysis") or ()]
    colour = 0 if row["first_player"] == "black" else 1
    comments = {len(nodes) - 1 + len(row["moves"]): row["termination"] + ": " + row["reason"]}
    if row.get("opening_plies"):
        opening = f"end of opening {row['opening']}" if row.get("opening") else "end of opening"
        ply = len(nodes) - 1 + row["opening_plies"]
        comments[ply] = opening + ("; " + comments[ply] if ply in comments else "")
    for ply, move in enumerate(row["moves"]):
        letter = "BW"[colour]
        node = f";{letter}[{_sgf_escape(move)}]"
        if clocks and clocks[ply] is not None:
            node += f"{letter}L[{recorded_clock(clocks[ply]):.3f}]"
        if ply < len(analyses) and analyses[ply] is not None:
            node += f"{ANALYSIS_PROPERTY}[{_sgf_escape(sgf_value(analyses[ply]))}]"
        nodes.append(node)
        colour ^= 1
    for place, comment in comments.items():
        nodes[place] += f"C[{_sgf_escape(comment)}]"
    return "(" + "\n".join(nodes) + ")\n"
