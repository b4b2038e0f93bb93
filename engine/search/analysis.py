"""What a search thought of the move it chose: the value behind ``genmove_analyze``.

An :class:`Analysis` is shared by the engine, which writes it after its move
(``docs/protocol.md``), and the referee, which reads it back from the answer
(:mod:`referee.records.analysis`) and keeps it in its records: the expected result for the side
that moved (``score``, from -1, lost, to 1, won), a proof when there is one (``proven``: win,
loss or draw, within ``proven_plies``), the ``depth``, the ``nodes``, the ``seconds`` spent and
the principal variation ``pv`` (move texts, the chosen move first). Every part is optional.

>>> print("\\n".join(Analysis(score=0.25, depth=4, nodes=1200, seconds=0.5,
...                           pv=("b1-b3", "a2-c2")).lines()))
score 0.25
depth 4
nodes 1200
time 0.5
pv b1-b3 a2-c2
>>> Analysis(score=1.0, proven="win", proven_plies=3).lines()
['score 1', 'proven win 3 plies']
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
    """A search's view of its chosen move; see the module docstring. The searches round
    ``score`` and ``seconds`` to three decimals."""

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
            lines.append(f"score {decimal_text(self.score)}")
        if self.proven is not None:
            plies = f" {self.proven_plies} plies" if self.proven_plies is not None else ""
            lines.append(f"proven {self.proven}{plies}")
        if self.depth is not None:
            lines.append(f"depth {self.depth}")
        if self.nodes is not None:
            lines.append(f"nodes {self.nodes}")
        if self.seconds is not None:
            lines.append(f"time {decimal_text(self.seconds)}")
        if self.pv:
            lines.append("pv " + " ".join(self.pv))
        return lines

    def mover_score(self) -> float | None:
        """The score for the side that moved: ``score``, else what a proof says (a win 1, a
        loss -1, a draw 0), else ``None``.

        >>> Analysis(proven="loss").mover_score(), Analysis(0.5, "win").mover_score()
        (-1.0, 0.5)
        """
        if self.score is not None:
            return self.score
        return {"win": 1.0, "loss": -1.0, "draw": 0.0}.get(self.proven or "")


def decimal_text(number: float) -> str:
    """A number as the protocol writes numbers: positional, at most six decimals, no
    trailing zeros.

    >>> decimal_text(0.25), decimal_text(0.00001), decimal_text(3), decimal_text(-1.0)
    ('0.25', '0.00001', '3', '-1')
    """
    text = f"{number:.6f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def squashed(score: float) -> float:
    """An evaluation in the game's units as a score from -1 to 1 (see :data:`SCORE_SCALE`),
    to three decimals.

    >>> squashed(0), squashed(300), squashed(-3000)
    (0.0, 0.762, -1.0)
    """
    return round(math.tanh(score / SCORE_SCALE), 3)
