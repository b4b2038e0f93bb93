"""Property: whatever line arrives, in whatever game and position, the engine answers it with a
well-formed ``=`` or ``?`` and never with ``internal error``.

Each example is a short session: a fresh engine set to one game, then a few lines, some of them
legal moves (so that the fuzz reaches positions deep into the game), the others commands with
hostile arguments: other scripts' digits, superscripts, fractions, huge numbers, exponents,
signs, control characters and any Unicode text. Hypothesis runs derandomized, so the suite is
reproducible; a failure shrinks to the shortest session that shows it.
"""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import game_names
from engine.search import Player
from protocol.cli import build_engine
from protocol.gtp import QuitRequest

ANSWER = re.compile(r"[=?][0-9]* ?[^\n]*(\n[^\n]+)*\n\n\Z|[=?][0-9]*\n[^\n]+(\n[^\n]+)*\n\n\Z")
EXAMPLES_PER_GAME = 60

COMMANDS = ["boardsize", "play", "genmove", "time_settings", "time_left", "komi", "set_game",
            "known_command", "undo", "legal_moves", "side_to_move", "final_score", "showboard",
            "clear_board", "list_games", "name", "version", "protocol_version", "list_commands"]
COLOURS = ["b", "w", "black", "white", "B", "WHITE", "none"]

digits = st.text("0123456789", min_size=1, max_size=6)
huge = st.text("0123456789", min_size=16, max_size=5000)
unicode_digits = st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=4)
mixed_number = st.builds("".join, st.lists(st.sampled_from(
    list("0123456789+-.,_eE") + ["١", "٠", "²", "³", "¹", "⁰", "½", "Ⅻ", "𝟗", "٫", "\u00a0"]),
    min_size=1, max_size=8))
special = st.sampled_from(["nan", "inf", "-inf", "1e309", "1e3", "-1", "+5", "0x10", "1_000",
                           "0.5", ".5", "5.", "", "=", "layout=1", "variant=quick", "x=y"])
control = st.text(st.characters(max_codepoint=0x20), min_size=1, max_size=3)
anything = st.text(st.characters(exclude_characters="\n"), max_size=12)
word = st.one_of(digits, huge, unicode_digits, mixed_number, special, control, anything,
                 st.sampled_from(COLOURS), st.sampled_from(game_names()))


number = st.one_of(digits, huge, unicode_digits, mixed_number, special)
# The commands that take numbers, each with the kinds of its arguments: n a number, c a colour,
# m a move, o a KEY=VALUE option.
SHAPES = [("boardsize", "n"), ("boardsize", "nn"), ("time_settings", "nnn"),
          ("time_left", "cnn"), ("komi", "n"), ("play", "cm"), ("genmove", "c"),
          ("set_game", "go"), ("set_game", "goo")]


@st.composite
def move_text(draw, legal: list[str]) -> str:
    """A legal move as it is, or with one of its digits replaced by a hostile number."""
    if not legal:
        return draw(word)
    text = draw(st.sampled_from(legal))
    places = [i for i, char in enumerate(text) if char.isdigit()]
    if places and draw(st.booleans()):
        place = draw(st.sampled_from(places))
        text = text[:place] + draw(number) + text[place + 1:]
    return text


@st.composite
def shaped_line(draw, legal: list[str]) -> str:
    """A command that takes numbers, with the right number of arguments, each one hostile."""
    name, kinds = draw(st.sampled_from(SHAPES))
    kind_strategies = {"n": number, "c": st.sampled_from(COLOURS), "m": move_text(legal),
                       "g": st.sampled_from(game_names()),
                       "o": st.builds("{}={}".format, st.sampled_from(["layout", "variant", "x"]),
                                      st.one_of(number, word))}
    return " ".join([name] + [draw(kind_strategies[kind]) for kind in kinds])


@st.composite
def command_line(draw, legal: list[str]) -> str:
    """One line: an optional id, then a numeric command in shape or any words."""
    words = []
    if draw(st.integers(0, 3)) == 0:
        words.append(draw(st.one_of(digits, unicode_digits, huge, mixed_number)))
    if draw(st.booleans()):
        words.append(draw(shaped_line(legal)))
    else:
        words.append(draw(st.one_of(st.sampled_from(COMMANDS), word)))
        words += draw(st.lists(st.one_of(word, move_text(legal)), max_size=4))
    return draw(st.sampled_from([" ", "\t", "  "])).join(words)


def check(engine, line: str) -> None:
    try:
        answer = engine.respond(line)
    except QuitRequest as request:
        answer = request.args[0]
    if answer is not None:
        assert ANSWER.match(answer), (line, answer)
        assert "internal error" not in answer, (line, answer)


@pytest.mark.parametrize("game", game_names())
@settings(max_examples=EXAMPLES_PER_GAME, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_line_gets_a_well_formed_answer_and_never_an_internal_error(game, data):
    engine = build_engine(Player(depth=1, seed=3), game)
    session_lines = data.draw(st.integers(1, 8), label="lines")
    for _ in range(session_lines):
        session = engine.handlers["legal_moves"]([]).split()
        if session and data.draw(st.integers(0, 3), label="move") == 0:
            colour = engine.handlers["side_to_move"]([])
            line = f"play {colour} {data.draw(st.sampled_from(session))}"
        else:
            line = data.draw(command_line(session), label="line")
        check(engine, line)


@pytest.mark.parametrize("line, answer", [
    ("boardsize ²", "? syntax error"),
    ("boardsize ١٠", "? syntax error"),
    ("boardsize " + "9" * 5000, "? syntax error"),
    ("time_left b ١٠ 0", "? syntax error"),
    ("time_left b nan 0", "? syntax error"),
    ("time_settings 1e3 0 0", "? syntax error"),
    ("time_settings 10 0 ³", "? syntax error"),
    ("komi ½", "? syntax error"),
    ("komi -7.5", "="),
    ("time_settings 60.5 0 0", "="),
    ("١ name", "? unknown command"),
    ("play w a١-a3", "? syntax error"),
])
def test_numbers_are_ascii_decimal_only(line, answer):
    engine = build_engine(Player(depth=1, seed=3), "breakthrough")
    assert engine.respond(line).startswith(answer), line
