"""``olympiad-referee ladder ...``: the ladder service and what its operator types; see
``docs/ladder.md``."""

from __future__ import annotations

import click

from .ladder_serve import serve_command


@click.group("ladder")
def ladder() -> None:
    """The always-on ladder: serve it, and look after its accounts and records."""


ladder.add_command(serve_command)
