"""Reading an engine's ``genmove_analyze`` answer (``docs/protocol.md``): the move line, and
what the engine said it thought, as a value.

The move line is the referee's business alone (:mod:`.game` checks it as it checks a
``genmove`` answer); the lines after it are the engine's view, which never decides anything by
itself. :func:`split_answer` therefore never fails: a malformed analysis is no analysis.

>>> move, analysis = split_answer("b1-b3\\nscore 0.25\\nproven win 3 plies\\npv b1-b3 a2-c2\\nhash 9")
>>> move, analysis.score, analysis.proven, analysis.proven_plies, analysis.pv
('b1-b3', 0.25, 'win', 3, ('b1-b3', 'a2-c2'))
>>> split_answer("b1-b3\\nscore 7")
('b1-b3', None)
>>> MoveAnalysis.from_text(analysis.text()) == analysis
True
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields
from typing import Any, Mapping

from .sgf import SgfRecord

COMMAND = "genmove_analyze"
# The SGF property of a move node that holds the mover's analysis, in :meth:`MoveAnalysis.text`
# form (not one of FF[4]'s properties; readers that do not know it keep or skip it).
SGF_PROPERTY = "EA"
PROOFS = ("win", "loss", "draw")
# Numbers as the protocol writes them: ASCII digits, a sign and a point; no exponents, no nan.
_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,15}(?:\.[0-9]{0,15})?|\.[0-9]{1,15})")
_COUNT = re.compile(r"[0-9]{1,15}")
# A principal variation longer than this is cut: enough for any view, short of a flood.
MAX_PV = 64


class MalformedAnalysis(ValueError):
    """A line of a known kind whose value is not what the protocol says."""


@dataclass(frozen=True)
class MoveAnalysis:
    """What an engine said of its move: ``score`` for the side that moved (-1..1), ``proven``
    (``win``, ``loss``, ``draw``) within ``proven_plies``, ``depth``, ``nodes``, ``seconds``
    and the principal variation ``pv`` (move texts as the engine wrote them). Every field is
    optional; an analysis with none is no analysis (:func:`split_answer` gives ``None``)."""

    score: float | None = None
    proven: str | None = None
    proven_plies: int | None = None
    depth: int | None = None
    nodes: int | None = None
    seconds: float | None = None
    pv: tuple[str, ...] = ()

    @classmethod
    def from_lines(cls, lines: list[str]) -> MoveAnalysis | None:
        """The analysis in ``lines`` (those after the move); ``None`` if they hold none of the
        known kinds. Unknown lines are skipped; raises :class:`MalformedAnalysis` for a
        malformed known one or a kind given twice."""
        found: dict[str, Any] = {}
        for line in lines:
            kind, _, rest = line.strip().partition(" ")
            reader = _READERS.get(kind)
            if reader is None:
                continue
            if kind in found:
                raise MalformedAnalysis(f"{kind} given twice")
            found[kind] = reader(rest.split())
        if not found:
            return None
        proven, plies = found.get("proven", (None, None))
        return cls(found.get("score"), proven, plies, found.get("depth"), found.get("nodes"),
                   found.get("time"), found.get("pv", ()))

    @classmethod
    def from_text(cls, text: str) -> MoveAnalysis | None:
        """The analysis in the lines of ``text`` (:meth:`text`'s form); ``None`` if there is
        none or it is malformed."""
        try:
            return cls.from_lines(text.split("\n"))
        except MalformedAnalysis:
            return None

    def mover_score(self) -> float | None:
        """The score for the side that moved: ``score``, else what a proof says (a win 1, a
        loss -1, a draw 0), else ``None``.

        >>> MoveAnalysis(proven="loss").mover_score(), MoveAnalysis(0.5, "win").mover_score()
        (-1.0, 0.5)
        """
        if self.score is not None:
            return self.score
        return {"win": 1.0, "loss": -1.0, "draw": 0.0}.get(self.proven or "")

    def text(self) -> str:
        """The analysis in the protocol's lines (the SGF record keeps it so)."""
        lines = []
        if self.score is not None:
            lines.append(f"score {_decimal(self.score)}")
        if self.proven is not None:
            plies = "" if self.proven_plies is None else f" {self.proven_plies} plies"
            lines.append(f"proven {self.proven}{plies}")
        for kind, value in (("depth", self.depth), ("nodes", self.nodes),
                            ("time", self.seconds)):
            if value is not None:
                lines.append(f"{kind} {_decimal(value)}")
        if self.pv:
            lines.append("pv " + " ".join(self.pv))
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        """The fields that are known, for a results row (``pv`` as a list)."""
        row = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if value is not None and value != ():
                row[spec.name] = list(value) if spec.name == "pv" else value
        return row

    @classmethod
    def from_dict(cls, row: Mapping[str, Any] | None) -> MoveAnalysis | None:
        """The analysis of a results row's entry (``None`` stays ``None``); an entry that
        cannot be one is ``None`` too (a hand-edited row must not stop a report)."""
        if not isinstance(row, Mapping):
            return None
        try:
            return cls.from_text(cls(**{**row, "pv": tuple(row.get("pv", ()))}).text())
        except (TypeError, ValueError):
            return None


def split_answer(answer: str) -> tuple[str, MoveAnalysis | None]:
    """A ``genmove_analyze`` answer's move line (stripped) and its analysis (``None`` when it
    has none, or when it is malformed: an engine's view never costs it the game)."""
    move, *lines = answer.split("\n")
    try:
        return move.strip(), MoveAnalysis.from_lines(lines)
    except MalformedAnalysis:
        return move.strip(), None


def _decimal(number: float) -> str:
    """A number as the protocol writes it: positional, at most six decimals, no trailing zeros.

    >>> _decimal(0.25), _decimal(1e-05), _decimal(3), _decimal(-1.0)
    ('0.25', '0.00001', '3', '-1')
    """
    text = f"{number:.6f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _one(words: list[str], what: str) -> str:
    if len(words) != 1:
        raise MalformedAnalysis(f"{what}: expected one value, got {len(words)}")
    return words[0]


def _score(words: list[str]) -> float:
    text = _one(words, "score")
    if not _NUMBER.fullmatch(text) or not -1 <= float(text) <= 1:
        raise MalformedAnalysis(f"score {text!r} is not a number from -1 to 1")
    return float(text)


def _proven(words: list[str]) -> tuple[str, int | None]:
    if not words or words[0].lower() not in PROOFS:
        raise MalformedAnalysis(f"proven {' '.join(words)!r}: expected win, loss or draw")
    if len(words) == 1:
        return words[0].lower(), None
    if len(words) in (2, 3) and _COUNT.fullmatch(words[1]) and words[2:] in ([], ["plies"]):
        return words[0].lower(), int(words[1])
    raise MalformedAnalysis(f"proven {' '.join(words)!r}: expected RESULT [N plies]")


def _count(kind: str):
    def read(words: list[str]) -> int:
        text = _one(words, kind)
        if not _COUNT.fullmatch(text):
            raise MalformedAnalysis(f"{kind} {text!r} is not a whole number")
        return int(text)
    return read


def _seconds(words: list[str]) -> float:
    text = _one(words, "time")
    if not _NUMBER.fullmatch(text) or float(text) < 0 or not math.isfinite(float(text)):
        raise MalformedAnalysis(f"time {text!r} is not a number of seconds")
    return float(text)


def _pv(words: list[str]) -> tuple[str, ...]:
    if not words:
        raise MalformedAnalysis("pv without moves")
    return tuple(word[:40] for word in words[:MAX_PV])


_READERS = {"score": _score, "proven": _proven, "depth": _count("depth"),
            "nodes": _count("nodes"), "time": _seconds, "pv": _pv}


def analyses_in(record: SgfRecord) -> list[MoveAnalysis | None]:
    """Each move's analysis in an SGF record's main line (its ``EA`` property, as
    :func:`referee.records.folder.sgf_text` writes it), ``None`` where a move has none.

    >>> from .sgf import read_sgf
    >>> analyses_in(read_sgf("(;GM[loa];B[b1-b3]EA[score 0.5\\npv b1-b3];W[a2-c2])"))
    [MoveAnalysis(score=0.5, proven=None, proven_plies=None, depth=None, nodes=None, \
seconds=None, pv=('b1-b3',)), None]
    """
    found = []
    for node in record.nodes:
        if any(colour in node for colour in "BW"):
            text = node.get(SGF_PROPERTY, [""])[0]
            found.append(MoveAnalysis.from_text(text) if text else None)
    return found
