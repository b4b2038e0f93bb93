"""The referee: engine-versus-engine matches under the project's rules (SPEC section 3).

A run flows plan -> play -> run -> record -> read, one sub-package each, and no part imports one
above it: :mod:`.plan` (the setup, schedule and openings), :mod:`.play` (one game: channel,
engine processes, clock, game loop), :mod:`.run` (many games on an executor, watched by
observers), :mod:`.records` (the output folder, results, SGF, configuration), :mod:`.stats`
(figures from results), :mod:`.report` (the HTML report and live view) and :mod:`.commands`
(``olympiad-referee``). :mod:`.text` holds the text helpers all of them use.
"""
