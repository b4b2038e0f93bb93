"""The input gate (``referee.inbound``): whatever bytes arrive, the answer is a value whose text
can be written anywhere, or a :class:`Refused` with a one-line reason; never another error."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from referee.inbound import Refused, load_json, printable, text_of


def strings_of(value):
    """Every string in a JSON value, its keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_of(item)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=200),
                 st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass")),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                              lambda inner: st.lists(inner, max_size=3)
                              | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                              max_leaves=20).map(lambda value: json.dumps(value).encode())))
def test_any_bytes_give_a_writable_value_or_a_refusal(data):
    try:
        value = load_json(data, max_bytes=150)
    except Refused as refusal:
        assert "\n" not in str(refusal)
        return
    for text in strings_of(value):
        text.encode("utf-8")  # never a lone surrogate past the gate


@pytest.mark.parametrize("data, reason", [
    (b"\xed\xa0\x80", "not UTF-8"),                       # a surrogate encoded as UTF-8
    (b'{"a": "\\udc80"}', "lone surrogate"),               # one made by a JSON escape
    (b'{"\\ud800": 1}', "lone surrogate"),                 # in a key
    (b"[" * 2000 + b"]" * 2000, "nested deeper"),
    (b"1" * 5000, "digits"),
    (b"NaN", "not a number JSON allows"),
    (b"1e999", "out of range"),
    (b"x" * 10001, "over 10000 bytes"),
    (b"{", "not JSON"),
])
def test_what_is_refused_and_why(data, reason):
    with pytest.raises(Refused, match=reason):
        load_json(data, max_bytes=10000)


def test_brackets_inside_strings_are_not_nesting():
    assert load_json(json.dumps({"pv": "[" * 100}), max_bytes=1000) == {"pv": "[" * 100}


def test_text_from_a_str_is_checked_too():
    with pytest.raises(Refused, match="surrogate"):
        text_of("a\ud800", 10)
    assert text_of("é", 2) == "é"
    with pytest.raises(Refused, match="over 1 bytes"):
        text_of("é", 1)


def test_printable_keeps_tabs_and_newlines_and_replaces_the_rest():
    assert printable("a\tb\nc\x1b[31m\ud800") == "a\tb\nc\ufffd[31m\ufffd"
    printable("\udcff" * 3).encode("utf-8")


@pytest.mark.parametrize("character", [
    "\x80", "\x9b", "\x9f",                               # C1 controls (U+009B: a CSI)
    "\u2028", "\u2029",                                    # line and paragraph separators
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",        # embeddings and overrides
    "\u2066", "\u2067", "\u2068", "\u2069"])                 # isolates
def test_printable_replaces_c1_separators_and_bidirectional_controls(character):
    assert printable(f"name{character}x") == "name\ufffdx"


def test_printable_keeps_their_printable_neighbours():
    """The characters next to those replaced, and the direction marks, are kept."""
    text = "\xa0\xe9\u2027\u202f\u2065\u206a\u200e\u200f\u061c\u05d0"
    assert printable(text) == text
