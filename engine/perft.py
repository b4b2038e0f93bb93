"""Move-path counting (perft), the standard check of a move generator."""

from __future__ import annotations

from .core import Position


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``position`` (ended games have
    none)."""
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        position.play(move)
        total += perft(position, depth - 1)
        position.undo()
    return total
