"""``python -m referee``: the same as ``olympiad-referee``."""

from .commands.cli import main

main()
