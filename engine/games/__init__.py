"""The game modules; importing this package registers each of them, in this order."""

from . import loa  # noqa: F401
