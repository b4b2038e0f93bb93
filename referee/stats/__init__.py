"""Statistics of a match or tournament: pure functions of :class:`~referee.results.GameResult`."""

from .legacy import (EloEstimate, Standing, crosstable, elo_difference, elo_estimate,
                     format_standings, standings, terminations, wilson_interval)

__all__ = ["EloEstimate", "Standing", "crosstable", "elo_difference", "elo_estimate",
           "format_standings", "standings", "terminations", "wilson_interval"]
