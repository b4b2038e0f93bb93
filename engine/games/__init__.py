"""The game modules, one per game; :mod:`engine.registry` finds them (this package imports
none of them, so a new module here is all a new game needs)."""
