"""The engine as a real process, driven over its pipes with pexpect."""

import sys

import pexpect
import pytest

ENGINE = [sys.executable, "-m", "protocol.cli", "--depth", "1", "--seed", "3"]


@pytest.fixture
def process():
    child = pexpect.spawn(ENGINE[0], ENGINE[1:], encoding="utf-8", timeout=30, echo=False)
    yield child
    child.close(force=True)


def ask(child, line: str) -> str:
    """Send one command and return its whole answer (up to the empty line)."""
    child.sendline(line)
    child.expect(r"\r?\n\r?\n")
    return child.before.replace("\r", "").strip()


def test_a_whole_game_over_the_pipes(process):
    assert ask(process, "1 protocol_version") == "=1 2"
    assert ask(process, "set_game loa") == "="
    for _ in range(400):
        side = ask(process, "side_to_move")[2:]
        if side == "none":
            break
        move = ask(process, f"genmove {side}")
        assert move.startswith("= ")
    assert ask(process, "final_score")[2:] in ("B+", "W+", "0")
    process.sendline("quit")
    process.expect(r"=\r?\n\r?\n")
    process.expect(pexpect.EOF)


def test_garbage_bytes_and_bad_utf8_do_not_stop_the_engine(process):
    process.send("\xff\xfe play \x00\x01 b zz\n")
    process.expect(r"\r?\n\r?\n")
    process.sendline("2 name")
    process.expect("=2 olympiad-engine")


def test_end_of_input_ends_the_engine_cleanly():
    child = pexpect.spawn(ENGINE[0], ENGINE[1:], encoding="utf-8", timeout=30, echo=False)
    child.sendline("protocol_version")
    child.expect("= 2")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_bad_command_line_is_a_one_line_usage_error():
    output, status = pexpect.run(f"{sys.executable} -m protocol.cli --game chess",
                                 withexitstatus=True, encoding="utf-8", timeout=30)
    assert status == 2
    assert "unknown game 'chess'" in output
