"""What the engines thought, as the report shows it: one line of text a ply, and a chart of
both engines' scores over a game.

Both engines' views go on one chart from one side's point of view, black's: black's engine's
scores as it gave them (at the plies it moved), white's engine's turned over (at its plies), so
that where the two lines part the engines disagree. A move without a score leaves a gap.
Pure functions: analyses in, text and SVG out (see :mod:`.charts` for the house style).

>>> entries = [{"score": 0.25, "depth": 6, "pv": ["b1-b3", "a2-c2"]}, None,
...            {"proven": "win", "proven_plies": 3}]
>>> [analysis_text(entry) for entry in entries]
['score +0.25 · depth 6 · pv b1-b3 a2-c2', '', 'proven win in 3 plies']
>>> for_black(entries, [0, 1, 0])
([(1, 0.25), (3, 1.0)], [])
>>> chart = evaluation_chart(entries, [0, 1, 0])
>>> chart.count("<polyline"), 'data-plies="3"' in chart
(1, True)
>>> evaluation_chart([None, None], [0, 1])
''
"""

from __future__ import annotations

from html import escape
from typing import Any, Mapping, Sequence

from ..records.analysis import from_row

LEFT, RIGHT, TOP, BOTTOM = 40, 14, 26, 22
SIDES = ("black", "white")
TITLE_WIDTH = 260  # about the title's width, in the charts' font
LEGEND_WIDTH = 250  # the legend's two entries


def analysis_text(entry: Mapping[str, Any] | None) -> str:
    """One line for the viewer: the score, the proof, depth, nodes, time, the principal
    variation; empty for a move without analysis."""
    analysis = from_row(entry)
    if analysis is None:
        return ""
    parts = []
    if analysis.score is not None:
        parts.append(f"score {analysis.score:+.2f}")
    if analysis.proven is not None:
        plies = f" in {analysis.proven_plies} plies" if analysis.proven_plies is not None else ""
        parts.append(f"proven {analysis.proven}{plies}")
    if analysis.depth is not None:
        parts.append(f"depth {analysis.depth}")
    if analysis.nodes is not None:
        parts.append(f"{analysis.nodes:,} nodes")
    if analysis.seconds is not None:
        parts.append(f"{analysis.seconds:.2f} s")
    if analysis.pv:
        parts.append("pv " + " ".join(analysis.pv))
    return " · ".join(parts)


def ply_texts(entries: Sequence[Mapping[str, Any] | None], movers: Sequence[int]) -> list[str]:
    """:func:`analysis_text` of each ply, naming whose engine it was; empty where none.

    >>> ply_texts([None, {"score": -0.5}], [0, 1])
    ['', "white's engine: score -0.50"]
    """
    texts = []
    for entry, mover in zip(entries, movers):
        text = analysis_text(entry)
        texts.append(f"{SIDES[mover]}'s engine: {text}" if text else "")
    return texts


def for_black(entries: Sequence[Mapping[str, Any] | None],
              movers: Sequence[int]) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """Black's engine's and white's engine's scores as (ply, score for black), at the plies
    each moved (``movers[k]`` made ply ``k + 1``)."""
    views: tuple[list, list] = ([], [])
    for ply, (entry, mover) in enumerate(zip(entries, movers), 1):
        analysis = from_row(entry)
        score = None if analysis is None else analysis.mover_score()
        if score is not None:
            views[mover].append((ply, score if mover == 0 else -score))
    return views


def _narrow(width: int) -> bool:
    """Whether a chart ``width`` wide lacks the room for its title and legend on one line (a
    game in progress's small chart): the title then starts at the left edge, the legend goes
    under the plot."""
    return width - RIGHT - LEGEND_WIDTH < LEFT + TITLE_WIDTH


def _legend(width: int, height: int) -> list[str]:
    """Which line is which engine's: on the title's line at the right, or under the plot."""
    x, y = width - RIGHT - LEGEND_WIDTH, 16
    if _narrow(width):
        x, y = max(0, (width - LEGEND_WIDTH) // 2), height - 6
    return [f'<line class="view {side}" x1="{x + 125 * index}" x2="{x + 125 * index + 18}" '
            f'y1="{y - 4}" y2="{y - 4}"/><text class="tick" x="{x + 125 * index + 22}" '
            f'y="{y}">{escape(side)}\'s engine</text>' for index, side in enumerate(SIDES)]


def evaluation_chart(entries: Sequence[Mapping[str, Any] | None], movers: Sequence[int],
                     width: int = 640, height: int = 180) -> str:
    """The chart of both engines' scores for black over the game's plies (-1 to 1), or an
    empty text when no move has a score. The SVG carries its plot's place (``data-left``,
    ``data-width``, ``data-plies``) so that the viewer can mark the ply on show."""
    views = for_black(entries, movers)
    if not any(views):
        return ""
    plies = max(len(movers), 1)
    plot_w, plot_h = width - LEFT - RIGHT, height - TOP - BOTTOM

    def px(ply: float) -> float:
        return LEFT + plot_w * ply / plies

    def py(score: float) -> float:
        return TOP + plot_h * (1 - (max(-1.0, min(1.0, score)) + 1) / 2)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart evaluation" '
             f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
             f'aria-label="evaluation for black" data-left="{LEFT}" data-width="{plot_w}" '
             f'data-plies="{plies}">',
             f'<text class="title" x="{4 if _narrow(width) else LEFT}" y="16">'
             f'Evaluation for black (1: black wins)'
             f'</text>']
    for score in (1, 0.5, 0, -0.5, -1):
        y = py(score)
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{width - RIGHT}" y1="{y:.1f}" '
                     f'y2="{y:.1f}"/><text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" '
                     f'text-anchor="end">{score:g}</text>')
    for side, view in zip(SIDES, views):
        if view:
            points = " ".join(f"{px(ply):.1f},{py(score):.1f}" for ply, score in view)
            parts.append(f'<polyline class="view {side}" points="{points}">'
                         f'<title>{side}\'s engine</title></polyline>')
    parts += _legend(width, height)
    parts.append(f'<line class="cursor" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" '
                 f'y2="{height - BOTTOM}"/>')
    parts.append("</svg>")
    return "".join(parts)
