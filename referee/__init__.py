"""The referee: engine-versus-engine matches under the project's rules (SPEC section 3).

:mod:`.channel` talks GTP to an engine process, :mod:`.game` referees one game, :mod:`.match`
schedules and plays the games of a match, :mod:`.records` writes and reads what a match leaves on
disk, :mod:`.stats` turns results into standings and :mod:`.cli` is ``olympiad-referee``.
"""
