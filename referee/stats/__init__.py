"""Statistics of a match or tournament: pure functions of counts, counted from
:class:`~referee.records.results.GameResult` values.

One module per model, as fastchess lays them out: :mod:`.tally` (the running counts of a run),
:mod:`.elo` (Elo, nElo, LOS of games and of game pairs), :mod:`.sprt` (the GSPRT),
:mod:`.ratings` (Bradley-Terry over many engines), :mod:`.glicko` (Glicko-2, the rating that
moves after every game); :mod:`.summary` puts them together into a
:class:`Summary` value (written as ``summary.json``) and :mod:`.output` prints it.
"""

from .output import format_summary
from .sprt import SprtError, SprtSettings
from .summary import Summary, history, summarize, summary_of
from .tally import Tally

__all__ = ["SprtError", "SprtSettings", "Summary", "Tally", "format_summary", "history",
           "summarize", "summary_of"]
