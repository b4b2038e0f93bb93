"""Which adjudication rules a run uses, and their parameters (``docs/adjudication.md``).

Every rule is off by default. The rules themselves are applied by
:mod:`referee.play.adjudication`; this value is what the command line, the config file and
``match.json`` hold.

>>> Adjudication().active, Adjudication(draw_plies=8).active
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass

EXACT_MODES = ("all", "decisive")
RESIGN_SIDES = ("both", "one")
DEFAULT_EXACT_TIME = 0.2  # per position, while the engine to move thinks (docs)
DEFAULT_RESIGN_SCORE = 0.9
DEFAULT_DRAW_SCORE = 0.05


class AdjudicationError(ValueError):
    """Settings that cannot be used together; the message is one line."""


@dataclass(frozen=True)
class Adjudication:
    """The rules in force: ``exact`` (``None``, ``"all"`` or ``"decisive"``: proven draws left
    to be played) with ``exact_time`` seconds of solving per position, spent while the engine
    to move thinks (``exact_wait``: the referee waits after the answer for what is left of
    them, at the cost of wall time); resignation after
    ``resign_plies`` moves of each engine beyond ``resign_score`` (``resign_sides`` ``"one"``:
    the losing engine's own scores suffice); a draw after ``draw_plies`` consecutive plies
    within ``draw_score`` of 0, all after ply ``draw_after``. A count of 0 turns a rule off."""

    exact: str | None = None
    exact_time: float = DEFAULT_EXACT_TIME
    exact_wait: bool = False
    resign_plies: int = 0
    resign_score: float = DEFAULT_RESIGN_SCORE
    resign_sides: str = "both"
    draw_plies: int = 0
    draw_score: float = DEFAULT_DRAW_SCORE
    draw_after: int = 0

    def __post_init__(self) -> None:
        if self.exact not in (None, *EXACT_MODES):
            raise AdjudicationError(f"exact adjudication {self.exact!r}: expected "
                                    f"{' or '.join(EXACT_MODES)}")
        if self.resign_sides not in RESIGN_SIDES:
            raise AdjudicationError(f"resign sides {self.resign_sides!r}: expected "
                                    f"{' or '.join(RESIGN_SIDES)}")
        if not 0 < self.resign_score <= 1 or not 0 <= self.draw_score < 1:
            raise AdjudicationError("scores run from -1 to 1: the resign score must be in "
                                    "(0, 1], the draw band in [0, 1)")
        if self.draw_plies == 1:
            raise AdjudicationError("a draw needs both engines' scores: at least 2 plies")
        if self.exact_time <= 0 or min(self.resign_plies, self.draw_plies, self.draw_after) < 0:
            raise AdjudicationError("the exact solver's time must be > 0 and the ply counts "
                                    ">= 0")

    @property
    def active(self) -> bool:
        """Whether any rule is on."""
        return bool(self.exact or self.resign_plies or self.draw_plies)
