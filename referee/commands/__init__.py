"""``olympiad-referee``: each command in a module of its own, gathered by :mod:`.cli`. The
only part of the referee that speaks click; the rest raises its own errors, which the commands
turn into one-line messages."""
