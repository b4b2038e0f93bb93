"""What a search thought of the move it chose: the engine's side of ``genmove_analyze``.

An :class:`Analysis` is the searches' report on their last move: the expected result for the
side that moved (from -1, lost, to 1, won), a proof when the search has one, the depth, the
nodes, the seconds spent and the principal variation (the chosen move first). Every part but
the move is optional; :meth:`Analysis.lines` writes the lines that follow the move in the
answer (``docs/protocol.md``).

>>> print("\\n".join(Analysis(score=0.25, depth=4, nodes=1200, seconds=0.5,
...                           pv=("b1-b3", "a2-c2")).lines()))
score 0.250
depth 4
nodes 1200
time 0.500
pv b1-b3 a2-c2
>>> Analysis(score=1.0, proven="win", proven_plies=3).lines()
['score 1.000', 'proven win 3 plies']
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Evaluation units per step of the score's scale: an alpha-beta score s (the game's
# evaluation, most of them within a few hundred) is reported as tanh(s / SCORE_SCALE). It is a
# monotone squashing for graphs and adjudication thresholds, not a calibrated probability.
SCORE_SCALE = 300.0
PROOFS = ("win", "loss", "draw")


@dataclass(frozen=True)
class Analysis:
    """A search's view of its chosen move; see the module docstring."""

    score: float | None = None
    proven: str | None = None
    proven_plies: int | None = None
    depth: int | None = None
    nodes: int | None = None
    seconds: float | None = None
    pv: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The answer's lines after the move, in the order the protocol lists them."""
        lines = []
        if self.score is not None:
            lines.append(f"score {self.score:.3f}")
        if self.proven is not None:
            plies = f" {self.proven_plies} plies" if self.proven_plies is not None else ""
            lines.append(f"proven {self.proven}{plies}")
        if self.depth is not None:
            lines.append(f"depth {self.depth}")
        if self.nodes is not None:
            lines.append(f"nodes {self.nodes}")
        if self.seconds is not None:
            lines.append(f"time {self.seconds:.3f}")
        if self.pv:
            lines.append("pv " + " ".join(self.pv))
        return lines


def squashed(score: float) -> float:
    """An evaluation in the game's units as a score from -1 to 1 (see :data:`SCORE_SCALE`).

    >>> squashed(0), round(squashed(300), 3), round(squashed(-3000), 3)
    (0.0, 0.762, -1.0)
    """
    return math.tanh(score / SCORE_SCALE)
