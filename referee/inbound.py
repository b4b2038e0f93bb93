"""The gate for what arrives from outside: bytes from a socket, a browser or an engine become
text and values here, checked, before any other code sees them.

What passes is strict UTF-8 text holding no lone surrogate (so it can always be encoded again,
into a record, a log line or a page), of bounded size, and, for JSON, of bounded nesting (checked
before the parser runs, so that no input can make it recurse deeply), with numbers of bounded
size and no ``NaN`` or ``Infinity``. What fails raises :class:`Refused`, a ``ValueError`` whose
one-line message says what was wrong; the caller decides what that costs the sender (a refused
login, a forfeit, an HTTP 400).

:func:`printable` is the other half: text the project writes out that came from outside, made
safe to write whatever it holds. The one definition of what is not printable is here, and
:func:`printable_line` is its test for a field refused, rather than cleaned, for what it holds
(a name, a path). :func:`lenient_text` reads the bytes of a peer that is forgiven
what it writes (an engine's answers and standard error) as printable text instead of refusing
them.

>>> load_json(b'{"move": "a1", "n": [1, 2.5]}', max_bytes=100)
{'move': 'a1', 'n': [1, 2.5]}
>>> load_json('[' * 40 + ']' * 40, max_bytes=100)
Traceback (most recent call last):
...
referee.inbound.Refused: nested deeper than 16 levels
>>> load_json('"\\\\ud800"', max_bytes=100)
Traceback (most recent call last):
...
referee.inbound.Refused: text holds a lone surrogate (not Unicode text)
>>> printable("boom \\udc80\\x00!")
'boom \\ufffd\\ufffd!'
>>> lenient_text(b"= b1\\xed\\xa0\\x80\\xc0\\x80\\x1b[2J")
'= b1\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd[2J'
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

# JSON nests no deeper than this by default: every message of the project's protocols is an
# object holding lists or objects at most two levels down.
MAX_DEPTH = 16
# The most digits a JSON number may have: past this it is no count, clock or index of ours,
# and Python's int() refuses over 4,300 digits with an error of its own.
MAX_DIGITS = 24

_SURROGATE = re.compile("[\ud800-\udfff]")
# What text from outside may not carry into a record, a log line or a page: lone surrogates;
# control characters other than tab and newline (C0, DEL and C1: NUL, escape sequences, and
# U+009B, which some terminals take as an escape sequence's start); the line and paragraph
# separators U+2028 and U+2029 (one line of a log that some readers show as two); and the
# bidirectional embeddings, overrides and isolates U+202A-U+202E and U+2066-U+2069 (text that
# reads in another order than it is stored: "Trojan Source").
_NOT_PRINTABLE = "\ud800-\udfff\x00-\x08\x0b-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069"
_UNPRINTABLE = re.compile(f"[{_NOT_PRINTABLE}]")
# ... and in one line of text (a name, a path, a field): tab and newline too.
_NOT_ONE_LINE = re.compile(f"[\t\n{_NOT_PRINTABLE}]")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class Refused(ValueError):
    """Input the gate does not let through; the message says why, in one line."""


def text_of(data: bytes | str, max_bytes: int, what: str = "input") -> str:
    """``data`` as text: at most ``max_bytes`` bytes of strict UTF-8 (which has no encoded
    surrogates), or a ``str`` holding no lone surrogate."""
    if isinstance(data, str):
        if len(data) > max_bytes:  # a character is at least a byte: a cheap bound first
            raise Refused(f"{what} over {max_bytes} bytes")
        if _SURROGATE.search(data):
            raise Refused(f"{what} holds a lone surrogate (not Unicode text)")
        data = data.encode("utf-8")
    if len(data) > max_bytes:
        raise Refused(f"{what} over {max_bytes} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refused(f"{what} is not UTF-8 (byte {error.start})") from None


def load_json(data: bytes | str, max_bytes: int, max_depth: int = MAX_DEPTH,
              what: str = "input") -> Any:
    """The JSON value ``data`` holds, through the gate (see the module docstring)."""
    text = text_of(data, max_bytes, what)
    _check_depth(text, max_depth)
    try:
        value = json.loads(text, parse_int=_whole, parse_float=_decimal,
                           parse_constant=_no_constant)
    except Refused:
        raise
    except ValueError as error:
        raise Refused(f"{what} is not JSON: {error}") from None
    _check_strings(value)
    return value


def printable(text: str) -> str:
    """``text`` with every lone surrogate, control character (but tab and newline), line or
    paragraph separator and bidirectional override or isolate replaced by U+FFFD: text from
    outside made safe for a record, a log line or a page.

    >>> printable("tab\\there \\x9b31m \\u2028 \\u202eevil\\u202c \\u2067x\\u2069 \\u200f")
    'tab\\there \\ufffd31m \\ufffd \\ufffdevil\\ufffd \\ufffdx\\ufffd \\u200f'
    """
    return _UNPRINTABLE.sub("\ufffd", text)


def printable_line(text: str) -> bool:
    """Whether ``text`` is one line that :func:`printable` leaves as it is: no tab, no newline
    and nothing it replaces. The test of a field refused for what it holds (a name, a path).

    >>> printable_line("Ada's engine 2.0"), printable_line("evil\u202e"), printable_line("a\x85b")
    (True, False, False)
    """
    return not _NOT_ONE_LINE.search(text)


def lenient_text(data: bytes) -> str:
    """``data`` as printable text whatever it holds: bytes that are not UTF-8 (encoded
    surrogates, CESU-8, overlong forms such as modified UTF-8's ``\\xc0\\x80``) and what
    :func:`printable` replaces become U+FFFD. For a peer forgiven its bytes, as the
    referee forgives an engine (and an engine the referee: ``docs/protocol.md``), where
    :func:`text_of` would refuse them."""
    return printable(data.decode("utf-8", "replace"))


def _check_depth(text: str, max_depth: int) -> None:
    """Refuse ``text`` when its brackets (outside strings) nest deeper than ``max_depth``."""
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > max_depth:
            raise Refused(f"nested deeper than {max_depth} levels")


def _check_strings(value: Any) -> None:
    """Refuse a lone surrogate anywhere in ``value`` (JSON's ``\\ud800`` escapes make them)."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise Refused("text holds a lone surrogate (not Unicode text)")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key)
            _check_strings(item)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise Refused(f"a number of over {MAX_DIGITS} digits")
    return int(digits)


def _decimal(digits: str) -> float:
    if len(digits) > 2 * MAX_DIGITS:
        raise Refused(f"a number of over {2 * MAX_DIGITS} characters")
    value = float(digits)
    if not math.isfinite(value):
        raise Refused(f"a number out of range: {digits[:20]}")
    return value


def _no_constant(name: str) -> float:
    raise Refused(f"{name} is not a number JSON allows")
