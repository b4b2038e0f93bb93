"""The generic property checks run over every registered game (imported by the test files).

:func:`check_playout` plays one seeded random game and checks, at every ply, the contract of
:class:`engine.core.Position`: legal moves unique with unique texts, sorted texts, every text
parses back (in any case) to its move, playing then undoing restores the position exactly,
copies are equal and independent, the game ends with a consistent outcome, and no sooner than
:meth:`~engine.core.Position.fewest_plies_to_end` said at any ply.
"""

from __future__ import annotations

import random

from engine import Game, Outcome, Position, find_game
from engine.bits import squares_of
from engine.grid import square_name

PLY_CAP = 3000


def square_names(bits: int, cols: int) -> set[str]:
    """The names of the squares of the bitboard ``bits`` on a board ``cols`` wide."""
    return {square_name(square, cols) for square in squares_of(bits)}


def snapshot(position: Position):
    """Everything observable about a position, for before/after comparisons."""
    return (position.key(), position.to_move, position.outcome, position.diagram(),
            position.legal_move_texts(), position.ply)


def check_position(position: Position) -> list:
    """Check the per-position contract; returns the legal moves."""
    moves = position.legal_moves()
    texts = [position.move_text(move) for move in moves]
    assert len(set(moves)) == len(moves), "duplicate legal moves"
    assert len(set(texts)) == len(texts), f"two moves print the same: {sorted(texts)}"
    assert position.legal_move_texts() == sorted(texts)
    for move, text in zip(moves, texts):
        assert text == text.lower() and " " not in text, text
        assert position.parse_move(text) == move, text
        assert position.parse_move(text.upper()) == move, text
    if position.outcome is None:
        assert moves, "a game that is not over must offer a move (pass where forced)"
    else:
        assert isinstance(position.outcome, Outcome)
        assert position.outcome.result in ("B+", "W+", "0")
    return moves


def check_playout(game: Game, seed: int, undo_every_ply: bool = True) -> Position:
    """Play one random game of ``game`` checking every invariant; returns the final position."""
    rng = random.Random(seed)
    position = game.initial_position()
    earliest_end = 0  # the ply before which the bounds said the game could not end
    while position.outcome is None and position.ply < PLY_CAP:
        earliest_end = max(earliest_end, position.ply + position.fewest_plies_to_end())
        moves = check_position(position)
        move = rng.choice(moves)
        if undo_every_ply:
            before = snapshot(position)
            copy = position.copy()
            position.play(move)
            assert snapshot(copy) == before, "playing a move changed a copy"
            after = snapshot(position)
            position.undo()
            assert snapshot(position) == before, f"undo of {copy.move_text(move)} did not restore"
            position.play(move)
            assert snapshot(position) == after, "replaying a move gave another position"
        else:
            position.play(move)
    check_position(position)
    if position.outcome is not None:
        assert position.ply >= earliest_end, "the game ended sooner than its bound said it could"
        assert position.fewest_plies_to_end() == 0
    assert position.outcome is not None or game.may_not_end, (
        f"{game.name} did not end in {PLY_CAP} plies")
    return position


def reference_counts(position: Position, reference_moves) -> list[int]:
    """Move-path counts at depths 1 and 2 by a test's literal generator (``reference_moves``
    gives the set of move texts of a position); a position whose game is over counts none."""
    total = 0
    for move in position.legal_moves():
        position.play(move)
        if position.outcome is None:
            total += len(reference_moves(position))
        position.undo()
    return [len(reference_moves(position)), total]


def random_game(name: str, options: dict, plies: int, seed: int) -> tuple[Game, list[str]]:
    """Game ``name`` with ``options`` (and its random start drawn from ``seed``) and the texts of
    up to ``plies`` random legal moves from its start, for records and books built in tests."""
    game = find_game(name)(options)
    game = find_game(name)({**options, **game.draw_start(random.Random(seed))})
    position, moves, rng = game.initial_position(), [], random.Random(seed)
    while len(moves) < plies and position.outcome is None:
        move = rng.choice(position.legal_moves())
        moves.append(position.move_text(move))
        position.play(move)
    return game, moves
