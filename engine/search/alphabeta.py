"""Iterative-deepening alpha-beta (negamax) for games with an evaluation function.

The position supplies ``evaluate()``: a score for the side to move, positive when it stands
better, well inside ``±WIN``. The search adds a transposition table (keyed by
``Position.key()``), the previous iteration's best move first, killer moves and the history
heuristic for ordering, and principal-variation search (null windows after the first move).
A proven win or loss is scored ``±(WIN - plies)`` so that the shortest win is preferred.

At the depth limit a quiescence search follows the position's ``noisy_moves()`` (captures and
the like, up to :data:`QUIESCENCE_PLIES` deep) from the evaluation as a stand-pat score, so
that an exchange is never cut in the middle.

Two guards keep a fixed depth usable in every game: a node with more than :data:`WIDE_NODE`
moves (laoCoon's swap turn offers tens of thousands) is a horizon, evaluated statically below
the root and searched one ply deep at the root; and a draw
counts :data:`CONTEMPT` below zero for the side the search plays for, so that it does not
settle for a repetition in a level position against a weaker opponent. Because the contempt
depends on the side searched for, each side keeps its own transposition table.

A game whose position sets ``repetition_is_a_draw`` has every position that recurs (one of the
game so far, or one earlier in the line searched) scored as a draw, with the contempt: in a
game that may go round in circles until the move limit, a repetition is where that leads, and
the side that stands better then looks for a line that goes somewhere else.

A game whose position sets ``late_move_reductions`` to N has each node's moves after the first
N (the table's move and the killers come first) searched one ply shallower with a null window,
and searched again at full depth only when they beat the best score so far: in laoCoon a
search of depth 5 or 6 then takes about 40 % fewer nodes, half a ply more in the same time.

Games that know more than an evaluation take part through three hooks of
:class:`~engine.core.Position`: ``search_moves()`` (the moves worth searching, best first:
Clobber and Domineering leave out moves in regions already worth 0) replaces the legal moves
at the root, ``deep_moves()`` (by default the same; laoCoon narrows its disc placements)
inside the tree, where a node whose narrowed moves all lose searches every other legal move
too before it counts as lost (at the root likewise for the moves ``search_moves`` left out),
and ``solve()`` (an exact endgame solver) is asked first at the root, with up to
:data:`SOLVE_SHARE` of the soft time limit: a proven win is played at once. If no win is
proven, half the solver's time is added to the search's share (the hard limit bounds both).
"""

from __future__ import annotations

import random

from ..core import OutOfBudget
from ..core import Position
from .analysis import Analysis, squashed
from .budget import Budget

WIN = 1_000_000
MATE_BOUND = WIN - 10_000
EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 500_000  # entries per side's table
WIDE_NODE = 2_000
QUIESCENCE_PLIES = 6
CONTEMPT = 25
SOLVE_SHARE = 0.6
# A new iteration starts only before this share of the soft limit (the hard limit cuts one that
# runs long; its best move so far is kept). At 0.45 the engine left half its clock unused in
# Domineering against the 10x-time UCT (2.3 s of 6 s a game).
NEXT_ITERATION = 0.6
# Late move reductions (in games that ask for them by ``late_move_reductions``) start at this
# remaining depth: below it a reduced search would go straight to the quiescence search.
REDUCE_FROM_DEPTH = 3


class _OutOfTime(Exception):
    """The hard time limit struck in the middle of an iteration."""


class AlphaBeta:
    """A reusable alpha-beta searcher; its transposition table persists between moves."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)
        self.tables: tuple[dict, dict] = ({}, {})  # one per side searched for (contempt)
        self.table: dict = self.tables[0]
        self.history: dict = {}
        self.killers: list[list] = []
        self.nodes = 0
        self.depth_reached = 0
        self.score = 0
        self.solved = False  # the last move was proven winning by the game's solver
        self._budget = Budget()
        self._side = 0
        self._line: set | None = None  # the positions a repetition returns to, if it counts
        self._narrows = False  # the game's deep_moves may leave out some of its search_moves
        self._full_moves = WIN  # moves a node searches at full depth before reducing the rest

    def choose(self, position: Position, budget: Budget):
        """The best move found for the side to move within ``budget`` (the game is not over)."""
        moves = position.legal_moves()
        self._side = position.to_move
        self.table = self.tables[self._side]
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        self.history.clear()
        self._budget = budget
        self.nodes = self.depth_reached = self.score = 0
        self.solved = False
        self._line = position.earlier_keys() if position.repetition_is_a_draw else None
        self._narrows = type(position).deep_moves is not Position.deep_moves
        self._full_moves = position.late_move_reductions or WIN  # WIN: more than any node has
        if len(moves) == 1 and budget.depth is None:
            return moves[0]
        winning = self._solved_move(position, budget)
        if winning is not None:
            self.solved = True
            return winning
        # Half the solver's time is given back to the search: enough for an iteration or two
        # after a failed proof, without draining the clock move after move (with the whole of
        # it given back, Clobber at 3 s + 0.2 s a move came down to 0.16 s left on its clock).
        solving = budget.elapsed() / 2
        moves = position.search_moves()
        self.random.shuffle(moves)  # ties between equal moves go to a seeded choice
        best = moves[0]
        max_depth = budget.depth if budget.depth is not None else 64
        if len(moves) > WIDE_NODE:
            max_depth = 1
        working = position.copy()
        for depth in range(1, max_depth + 1):
            self.killers = [[None, None] for _ in range(depth + 2)]
            try:
                score, move = self._root(working, moves, best, depth)
            except _OutOfTime as partial:
                if partial.args and partial.args[0] is not None:
                    best = partial.args[0]
                break
            best, self.score, self.depth_reached = move, score, depth
            if abs(score) >= MATE_BOUND:
                break  # a proven result does not get better with depth
            if (budget.soft is not None
                    and budget.elapsed() - solving >= NEXT_ITERATION * budget.soft):
                break  # the next iteration would not finish in time
        return best

    def analysis(self, position: Position, move) -> Analysis:
        """What the last :meth:`choose` found, ``move`` (its choice) about to be played in
        ``position``: the score for the mover, a proof (the solver's, or a score within
        :data:`MATE_BOUND`, whose distance in plies it gives), the depth and nodes, and the
        principal variation read from the transposition table."""
        seconds = round(self._budget.elapsed(), 3)
        if self.solved:
            return Analysis(1.0, "win", None, None, self.nodes, seconds,
                            (position.move_text(move),))
        if not self.depth_reached:  # a forced move: nothing was searched
            return Analysis(seconds=seconds, pv=(position.move_text(move),))
        proven = plies = None
        if abs(self.score) >= MATE_BOUND:
            proven, plies = ("win" if self.score > 0 else "loss"), WIN - abs(self.score)
        score = 1.0 if proven == "win" else -1.0 if proven == "loss" else squashed(self.score)
        return Analysis(score, proven, plies, self.depth_reached, self.nodes, seconds,
                        self._variation(position, move, self.depth_reached))

    def _variation(self, position: Position, move, length: int) -> tuple[str, ...]:
        """``move`` and the table's best replies after it, up to ``length`` moves, stopping at
        the end of the game, a missing entry, or a move no longer legal."""
        working = position.copy()
        texts = []
        while move is not None and len(texts) < length:
            texts.append(working.move_text(move))
            working.play(move)
            if working.outcome is not None:
                break
            entry = self.table.get(working.key())
            move = entry[3] if entry is not None else None
            if move is not None and move not in working.legal_moves():
                move = None
        return tuple(texts)

    def _solved_move(self, position: Position, budget: Budget):
        """A move the game's exact solver proves winning within :data:`SOLVE_SHARE` of the
        soft limit, or ``None`` (no solver, too big, not solved in time, or lost)."""
        if budget.soft is None:
            return None
        limit = SOLVE_SHARE * budget.soft

        def stop() -> bool:
            return budget.elapsed() >= limit
        try:
            if not position.solve(stop):
                return None
            for move in position.search_moves():
                position.play(move)
                try:
                    lost = position.solve(stop) is False
                finally:
                    position.undo()
                if lost:
                    return move
        except OutOfBudget:
            pass
        return None

    def _root(self, position: Position, moves: list, first, depth: int):
        ordered = [first] + [move for move in moves if move != first]
        alpha, beta = -WIN - 1, WIN + 1
        best = None
        widened = False
        for index, move in enumerate(ordered):
            position.play(move)
            try:
                if index == 0:
                    score = -self._search(position, depth - 1, -beta, -alpha, 1)
                else:
                    score = -self._search(position, depth - 1, -alpha - 1, -alpha, 1)
                    if score > alpha:
                        score = -self._search(position, depth - 1, -beta, -alpha, 1)
            except _OutOfTime:
                raise _OutOfTime(best) from None
            finally:
                position.undo()
            if score > alpha:
                alpha, best = score, move
            if (index == len(ordered) - 1 and alpha <= -MATE_BOUND and self._narrows
                    and not widened):
                # As in _node: the moves search_moves left out may hold the one escape.
                widened = True
                ordered.extend(_left_out(position, ordered))
        return alpha, best

    def _search(self, position: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 63 and self._budget.past_hard():
            raise _OutOfTime
        if position.outcome is not None:
            return self._final_score(position, ply)
        line = self._line
        if line is None:
            return self._node(position, depth, alpha, beta, ply)
        key = position.key()
        if key in line:
            return self._draw_score(position)
        line.add(key)
        try:
            return self._node(position, depth, alpha, beta, ply)
        finally:
            line.remove(key)

    def _node(self, position: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score of a position still in play that is not a repetition."""
        if depth <= 0:
            return self._quiesce(position, alpha, beta, ply, QUIESCENCE_PLIES)

        key = position.key()
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            entry_depth, flag, value, table_move = entry
            if entry_depth >= depth:
                value = _from_table(value, ply)
                if flag == EXACT:
                    return value
                if flag == LOWER and value >= beta:
                    return value
                if flag == UPPER and value <= alpha:
                    return value

        moves = position.deep_moves()
        if len(moves) > WIDE_NODE:
            return position.evaluate()  # too wide to search: a horizon, like depth 0
        history = self.history
        moves.sort(key=lambda move: history.get(move, 0), reverse=True)
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        for killer in (killers[1], killers[0]):
            if killer is not None and killer in moves:
                moves.remove(killer)
                moves.insert(0, killer)
        if table_move is not None and table_move in moves:
            moves.remove(table_move)
            moves.insert(0, table_move)

        original_alpha = alpha
        best_score, best_move = -WIN - 1, moves[0]
        widened = False
        # Late moves (never the widened ones, which must prove a loss) are first searched one
        # ply shallower, and again at full depth only if they beat alpha there.
        full = self._full_moves
        reducible = len(moves) if depth >= REDUCE_FROM_DEPTH else 0
        for index, move in enumerate(moves):
            position.play(move)
            try:
                if index == 0:
                    score = -self._search(position, depth - 1, -beta, -alpha, ply + 1)
                else:
                    reduced = full <= index < reducible
                    score = -self._search(position, depth - 1 - reduced, -alpha - 1, -alpha,
                                          ply + 1)
                    if reduced and score > alpha:
                        score = -self._search(position, depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self._search(position, depth - 1, -beta, -alpha, ply + 1)
            finally:
                position.undo()
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        history[move] = history.get(move, 0) + depth * depth
                        if ply < len(self.killers) and self.killers[ply][0] != move:
                            self.killers[ply] = [move, self.killers[ply][0]]
                        break
            if (index == len(moves) - 1 and best_score <= -MATE_BOUND and self._narrows
                    and not widened):
                # Every one of the narrowed moves loses: a loss is proven only once the moves
                # left out lose too, so they are searched after all (the loop takes them up):
                # every legal move, not only search_moves, which may narrow too (laoCoon's
                # keeps one far disc placement for all, and proved false wins).
                widened = True
                moves.extend(_left_out(position, moves))

        flag = UPPER if best_score <= original_alpha else LOWER if best_score >= beta else EXACT
        self.table[key] = (depth, flag, _to_table(best_score, ply), best_move)
        return best_score


    def _final_score(self, position: Position, ply: int) -> int:
        """The score of an ended game for its side to move, ``ply`` plies below the root."""
        winner = position.outcome.winner
        if winner is None:
            return self._draw_score(position)
        return WIN - ply if winner == position.to_move else ply - WIN

    def _draw_score(self, position: Position) -> int:
        """A draw for the side to move: the contempt below zero for the side searched for."""
        return -CONTEMPT if position.to_move == self._side else CONTEMPT

    def _quiesce(self, position: Position, alpha: int, beta: int, ply: int, plies: int) -> int:
        """The evaluation, or better for the side to move if a noisy move improves it."""
        if position.outcome is not None:
            return self._final_score(position, ply)
        standing = position.evaluate()
        if standing >= beta or plies == 0:
            return standing
        moves = position.noisy_moves()
        if not moves:
            return standing
        alpha = max(alpha, standing)
        for move in moves:
            self.nodes += 1
            if not self.nodes & 63 and self._budget.past_hard():
                raise _OutOfTime
            position.play(move)
            try:
                score = -self._quiesce(position, -beta, -alpha, ply + 1, plies - 1)
            finally:
                position.undo()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha


def _left_out(position: Position, moves: list) -> list:
    """The legal moves of ``position`` that ``moves`` (a narrowed list) left out."""
    searched = set(moves)
    return [move for move in position.legal_moves() if move not in searched]


def _to_table(score: int, ply: int) -> int:
    """A score made independent of the distance from the root, for storing."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    """A stored score seen from ``ply`` plies below the root."""
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score
