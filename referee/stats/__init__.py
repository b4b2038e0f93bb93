"""Statistics of a match or tournament: pure functions of :class:`~referee.records.results.GameResult`.

One module per model, as fastchess lays them out: :mod:`.counts` (trinomial and pentanomial
counts), :mod:`.elo` (Elo, nElo, LOS of games and of game pairs), :mod:`.sprt` (the GSPRT),
:mod:`.ratings` (Bradley-Terry over many engines); :mod:`.summary` puts them together into
the ``summary.json`` object and :mod:`.output` prints it. The command ``stats`` is in
:mod:`.command`. :mod:`.legacy` keeps the one older figure ``scripts/strength.py`` still uses.
"""

from .legacy import elo_estimate
from .output import format_summary
from .sprt import SprtError, SprtSettings, parse_sprt
from .summary import history, summarize

__all__ = ["SprtError", "SprtSettings", "elo_estimate", "format_summary", "history",
           "parse_sprt", "summarize"]
