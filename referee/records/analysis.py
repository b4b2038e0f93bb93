"""Reading an engine's ``genmove_analyze`` answer (``docs/protocol.md``): the move line, and
what the engine said it thought, as an :class:`~engine.search.analysis.Analysis` (the value
the engine writes it from); and that value in the results row and the SGF record.

The move line is the referee's business alone (:mod:`referee.play.game` checks it as it checks
a ``genmove`` answer); the lines after it are the engine's view, which never decides anything
by itself. :func:`split_answer` therefore never fails: a malformed analysis is no analysis.

>>> answer = "b1-b3\\nscore 0.25\\nproven win 3 plies\\npv b1-b3 a2-c2\\nhash 9"
>>> move, analysis = split_answer(answer)
>>> move, analysis.score, analysis.proven, analysis.proven_plies, analysis.pv
('b1-b3', 0.25, 'win', 3, ('b1-b3', 'a2-c2'))
>>> split_answer("b1-b3\\nscore 7")
('b1-b3', None)
>>> read_text(sgf_value(analysis)) == analysis == from_row(to_row(analysis))
True
"""

from __future__ import annotations

import math
import re
from dataclasses import fields
from typing import Any, Mapping

from engine.search.analysis import PROOFS, Analysis

from .sgf import SgfRecord

COMMAND = "genmove_analyze"
# The SGF property of a move node that holds the mover's analysis, in the protocol's lines
# (not one of FF[4]'s properties; readers that do not know it keep or skip it).
SGF_PROPERTY = "EA"
# Numbers as the protocol writes them: ASCII digits, a sign and a point; no exponents, no nan.
_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,15}(?:\.[0-9]{0,15})?|\.[0-9]{1,15})")
_COUNT = re.compile(r"[0-9]{1,15}")
# A principal variation longer than this is cut: enough for any view, short of a flood.
MAX_PV = 64


class MalformedAnalysis(ValueError):
    """A line of a known kind whose value is not what the protocol says."""


def split_answer(answer: str) -> tuple[str, Analysis | None]:
    """A ``genmove_analyze`` answer's move line (stripped) and its analysis (``None`` when it
    has none, or when it is malformed: an engine's view never costs it the game)."""
    move, *lines = answer.split("\n")
    try:
        return move.strip(), read_lines(lines)
    except MalformedAnalysis:
        return move.strip(), None


def read_lines(lines: list[str]) -> Analysis | None:
    """The analysis in ``lines`` (those after the move); ``None`` if they hold none of the
    known kinds. Unknown lines are skipped; raises :class:`MalformedAnalysis` for a malformed
    known one or a kind given twice."""
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
    return Analysis(found.get("score"), proven, plies, found.get("depth"), found.get("nodes"),
                    found.get("time"), found.get("pv", ()))


def read_text(text: str) -> Analysis | None:
    """The analysis in the lines of ``text`` (:func:`sgf_value`'s form); ``None`` if there is
    none or it is malformed."""
    try:
        return read_lines(text.split("\n"))
    except MalformedAnalysis:
        return None


def sgf_value(analysis: Analysis) -> str:
    """The analysis as the SGF record keeps it: the protocol's lines (before escaping)."""
    return "\n".join(analysis.lines())


def to_row(analysis: Analysis) -> dict[str, Any]:
    """The fields that are known, for a results row (``pv`` as a list)."""
    row = {}
    for spec in fields(analysis):
        value = getattr(analysis, spec.name)
        if value is not None and value != ():
            row[spec.name] = list(value) if spec.name == "pv" else value
    return row


def from_row(row: Mapping[str, Any] | None) -> Analysis | None:
    """The analysis of a results row's entry (``None`` stays ``None``); an entry that cannot
    be one is ``None`` too (a hand-edited row must not stop a report)."""
    if not isinstance(row, Mapping):
        return None
    try:
        return read_text(sgf_value(Analysis(**{**row, "pv": tuple(row.get("pv", ()))})))
    except (TypeError, ValueError):
        return None


def analyses_in(record: SgfRecord) -> list[Analysis | None]:
    """Each move's analysis in an SGF record's main line (its ``EA`` property, as
    :func:`referee.records.game_sgf.sgf_text` writes it), ``None`` where a move has none.

    >>> from .sgf import read_sgf
    >>> analyses_in(read_sgf("(;GM[loa];B[b1-b3]EA[score 0.5\\npv b1-b3];W[a2-c2])"))
    [Analysis(score=0.5, proven=None, proven_plies=None, depth=None, nodes=None, \
seconds=None, pv=('b1-b3',)), None]
    """
    found = []
    for node in record.nodes:
        if any(colour in node for colour in "BW"):
            text = node.get(SGF_PROPERTY, [""])[0]
            found.append(read_text(text) if text else None)
    return found


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

