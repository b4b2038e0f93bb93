"""The game modules; importing this package registers each of them, in SPEC.md's order."""

from . import loa  # noqa: F401
from . import breakthrough  # noqa: F401
from . import knightthrough  # noqa: F401
from . import clobber  # noqa: F401
from . import domineering  # noqa: F401
from . import surakarta  # noqa: F401
from . import kolem  # noqa: F401
from . import argon  # noqa: F401
from . import laocoon  # noqa: F401
from . import cookiedisco  # noqa: F401
