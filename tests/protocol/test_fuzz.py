"""Random command lines: the engine must answer each one in form and keep serving."""

import random
import re

import pytest

from engine import game_names

ANSWER = re.compile(r"[=?]\d* ?[^\n]*(\n[^\n]+)*\n\n\Z|[=?]\d*\n[^\n]+(\n[^\n]+)*\n\n\Z")
WORDS = ["b", "w", "black", "white", "pass", "resign", "b1-b3", "a2xb3", "c3", "d4-e5+c3",
         "0,1>2,-1", "e5+a1=h8", "-1", "0", "1", "99999999999999999999", "1e309", "nan",
         "x=y", "layout=1", "variant=quick", "=", "", "#", "\t", "\x00", "é", "9 9", "26"]


def random_line(rng: random.Random, commands: list[str]) -> str:
    words = [rng.choice(commands + WORDS)]
    if rng.random() < 0.3:
        words.insert(0, str(rng.randrange(1000)))
    words += [rng.choice(WORDS + game_names()) for _ in range(rng.randrange(4))]
    if rng.random() < 0.1:
        words.append("".join(chr(rng.randrange(0, 0x250)) for _ in range(rng.randrange(20))))
    return " ".join(words)


@pytest.mark.parametrize("seed", range(3))
def test_random_command_lines_always_get_a_well_formed_answer(engine, seed):
    rng = random.Random(seed)
    commands = sorted(engine.handlers) + ["genmove", "play", "set_game", "boardsize"] * 3
    commands.remove("quit")
    for _ in range(400):
        line = random_line(rng, commands)
        answer = engine.ask(line)
        if answer is not None:
            assert ANSWER.match(answer), (line, answer)
            assert "internal error" not in answer, (line, answer)
    assert engine.ask("protocol_version") == "= 2\n\n"
