"""Fixtures shared by test packages: the processes a test starts (servers, clients), all
killed at its end."""

from __future__ import annotations

import pytest


@pytest.fixture
def processes():
    """Processes a test starts (server, clients); all killed at its end, whatever happens."""
    started = []
    yield started
    for process in started:
        process.stop()
