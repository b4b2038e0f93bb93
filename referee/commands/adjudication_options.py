"""``match``'s adjudication flags (``docs/adjudication.md``): one family, ``--adjudicate-*``,
each also a config-file key (``adjudicate-resign-plies = 4``). The move limit belongs to the
family too: ``--adjudicate-move-limit`` is another name of ``--max-moves``."""

from __future__ import annotations

from typing import Any, Callable

import click

from ..plan.adjudication import (DEFAULT_DRAW_SCORE, DEFAULT_EXACT_TIME, DEFAULT_RESIGN_SCORE,
                                 EXACT_MODES, Adjudication, AdjudicationError)
from .arguments import DecimalRange, WholeRange

_OPTIONS = [
    click.option("--adjudicate-exact", type=click.Choice(EXACT_MODES), default=None,
                 help="End a game the referee's solvers prove (all results, or decisive: "
                      "wins and losses only)."),
    click.option("--adjudicate-exact-time", type=DecimalRange(0, min_open=True),
                 default=DEFAULT_EXACT_TIME, show_default=True, metavar="SECONDS",
                 help="The solvers' time in each position, spent while the engine to move "
                      "thinks."),
    click.option("--adjudicate-exact-wait", is_flag=True,
                 help="Wait after each answer for the rest of the solvers' time: proofs come "
                      "plies sooner, at the cost of wall time."),
    click.option("--adjudicate-resign-plies", type=WholeRange(0), default=0, show_default=True,
                 metavar="N", help="A side loses when its last N scores are all <= -SCORE "
                                   "(and its opponent's last N >= SCORE); 0: off."),
    click.option("--adjudicate-resign-score", type=DecimalRange(0, 1, min_open=True),
                 default=DEFAULT_RESIGN_SCORE, show_default=True, metavar="SCORE",
                 help="The resign threshold, on the engines' -1..1 scale."),
    click.option("--adjudicate-resign-one-side", is_flag=True,
                 help="The losing engine's own scores suffice for a resignation."),
    click.option("--adjudicate-draw-plies", type=WholeRange(0), default=0, show_default=True,
                 metavar="N", help="A draw when N consecutive plies' scores are all within "
                                   "the band; 0: off."),
    click.option("--adjudicate-draw-score", type=DecimalRange(0, 1, max_open=True),
                 default=DEFAULT_DRAW_SCORE, show_default=True, metavar="BAND",
                 help="The draw band: |score| <= BAND."),
    click.option("--adjudicate-draw-after", type=WholeRange(0), default=0, show_default=True,
                 metavar="P", help="Only plies after ply P count for a draw."),
]


def adjudication_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The family's flags added to ``command``."""
    for option in reversed(_OPTIONS):
        command = option(command)
    return command


def adjudication_from(values: dict[str, Any]) -> Adjudication:
    """The rules the flags ask for; a combination that cannot be used is a usage error."""
    try:
        return Adjudication(
            exact=values["adjudicate_exact"], exact_time=values["adjudicate_exact_time"],
            exact_wait=values["adjudicate_exact_wait"],
            resign_plies=values["adjudicate_resign_plies"],
            resign_score=values["adjudicate_resign_score"],
            resign_sides="one" if values["adjudicate_resign_one_side"] else "both",
            draw_plies=values["adjudicate_draw_plies"],
            draw_score=values["adjudicate_draw_score"],
            draw_after=values["adjudicate_draw_after"])
    except AdjudicationError as error:
        raise click.UsageError(str(error)) from None
