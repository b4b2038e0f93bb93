"""The referee: engine-versus-engine matches under the project's rules (SPEC section 3).

:mod:`.channel` talks GTP to an engine process, :mod:`.clock` keeps a side's time and
:mod:`.game` referees one game. A run goes plan -> play -> record -> read: :mod:`.schedule` plans
the games, :mod:`.runner` plays them on an :mod:`.executor` with :mod:`.entrants`' engine
processes (observers, :mod:`.observer`, watch it: :mod:`.progress` on the terminal),
:mod:`.records` writes and reads what a run leaves on disk, :mod:`.stats` turns results into
figures. :mod:`.match` checks and starts a run for :mod:`.cli`, which is ``olympiad-referee``
(:mod:`.config` reads its TOML files).
"""
