"""``olympiad-referee ladder ...``: the ladder service (``serve``) and what its operator types
while it runs (``admin``); see ``docs/ladder.md``."""

from __future__ import annotations

import click

from .ladder_admin import ladder_admin
from .ladder_serve import serve_command


@click.group("ladder")
def ladder() -> None:
    """The always-on ladder: serve it, and look after its accounts and records."""


ladder.add_command(serve_command)
ladder.add_command(ladder_admin)
