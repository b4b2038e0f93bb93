"""The game modules, one per game; :mod:`engine.registry` finds them (this package imports
none of them, so a new module here is all a new game needs).

The folders named in the environment variable ``OLYMPIAD_GAMES`` (separated as in ``PATH``)
are part of this package too, after its own folder: a game module kept outside the project is
found, imported as ``engine.games.NAME`` and played as if it were here, by every process that
inherits the variable (the engine, the referee and the engines it starts). A module with the
name of one of the package's own is never reached (docs/adding-a-game.md).
"""

import os

GAMES_PATH_VARIABLE = "OLYMPIAD_GAMES"

__path__ += [folder for folder in os.environ.get(GAMES_PATH_VARIABLE, "").split(os.pathsep)
             if folder]
