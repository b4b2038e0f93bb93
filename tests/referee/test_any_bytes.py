"""Whatever bytes an engine writes, and whatever text a name holds, the run goes on and its
records can be written and read: an engine answering with bytes that are no answer loses by a
recorded forfeit, every other game of the match is played, every file of the folder is printable
UTF-8 that parses, and ``report`` and ``stats`` read it. The engine is a real process
(``noisy_engine.py``) answering one command with bytes from files; the fuzz test draws them."""

from __future__ import annotations

import re
import shlex
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings, strategies as st

from referee.commands import cli
from referee.inbound import load_json, printable
from referee.records.folder import ResultsFile, save_game, write_summary
from referee.plan.setup import Setup
from referee.play.channel import InProcessChannel
from referee.play.entrants import EngineSpec, identity, own_name
from referee.records.sgf import read_sgf
from referee.run.settings import RunSettings

from ..processes import command_words, processes_where, wait_for
from ..results import rows_written
from .test_inbound import strings_of

PYTHON = shlex.quote(sys.executable)
NOISY = shlex.quote(str(Path(__file__).with_name("noisy_engine.py")))
# The noisy engine is engine 1; a forfeit costs it the game, never its opponent.
FORFEITS = {"illegal_move", "protocol_error", "timeout", "crash", "resign"}
NASTY = [b"\xed\xa0\x80",               # a surrogate encoded as UTF-8
         b"\xed\xa0\xbd\xed\xb8\x80",   # CESU-8: U+1F600 as two encoded surrogates
         b"\xc0\x80",                   # modified UTF-8's NUL
         b"\xff\xfe", b"\x00", b"\x1b[2J\x1b]0;title\x07", b"\x9b31m",
         b"\xe2\x80\xa8",               # U+2028, a line break to str.splitlines, not to JSON lines
         b"[" * 2000, b"\\", b"]", b"</script>", b"\r", b"\n", b"=", b"=7 ", b"? ", b" ",
         b"{answer}", b"score 0.5", b"pv ", b"proven win 3 plies", b"depth 99999999999999999999"]
COMMANDS = ["name", "version", "protocol_version", "set_game", "boardsize", "clear_board",
            "time_settings", "known_command", "time_left", "genmove_analyze", "play"]


def noisy_match(folder: Path, command: str, payloads: list[bytes], games: int) -> Path:
    """Play ``games`` short games of the noisy engine (answering ``command`` with each of
    ``payloads`` in turn) against a well-behaved one, in this process; the run folder."""
    given = folder / "payloads"
    given.mkdir()
    for number, payload in enumerate(payloads):
        (given / f"{number:03d}").write_bytes(payload)
    (folder / "none").mkdir()
    out = folder / "out"
    arguments = ["match", "--game", "breakthrough", "--boardsize", "3x5", "--games", str(games),
                 "--time", "1", "--command-timeout", "1", "--max-moves", "8", "--seed", "1",
                 "--out", str(out)]
    for payloads_folder in (given, folder / "none"):
        arguments += ["--engine", f"{PYTHON} {NOISY} --command {command} "
                                  f"--payloads {shlex.quote(str(payloads_folder))}"]
    with pytest.raises(SystemExit) as exit_info:
        cli.main(arguments)
    assert exit_info.value.code == 0
    return out


def assert_forfeits_by_the_noisy_engine_only(out: Path, games: int) -> None:
    rows = rows_written(out)
    assert [row["game_no"] for row in rows] == list(range(1, games + 1))
    for row in rows:
        noisy = "black" if row["black_index"] == 1 else "white"
        assert row["at_fault"] in (None, noisy), row
        if row["at_fault"] is not None:
            assert row["termination"] in FORFEITS
            assert row["result"] == ("W+" if noisy == "black" else "B+")


def assert_every_file_printable_and_readable(out: Path) -> None:
    """Every file of the folder is UTF-8 holding printable text, and each record parses."""
    for path in out.rglob("*"):
        if not path.is_file() or path.name == ".lock":
            continue
        text = path.read_bytes().decode("utf-8")  # strict: any invalid byte fails the test
        assert printable(text) == text, path
        if path.suffix in (".json", ".jsonl"):
            for line in text.split("\n")[:-1] if path.suffix == ".jsonl" else [text]:
                value = load_json(line, max_bytes=len(line.encode()))  # refuses escaped surrogates
                assert all(printable(string) == string for string in strings_of(value)), path
        elif path.suffix == ".sgf":
            read_sgf(text)


def assert_read_by_report_and_stats(out: Path, capture) -> None:
    for command in ("report", "stats"):
        with pytest.raises(SystemExit) as exit_info:
            cli.main([command, str(out)])
        assert exit_info.value.code == 0, command
    captured = capture.readouterr()
    assert "Traceback" not in captured.err


def assert_no_engine_left(folder: Path) -> None:
    mark = str(folder).encode()
    wait_for(lambda: not processes_where(
        lambda entry: any(mark in word for word in command_words(entry))), 10,
        what="the engines to end")


def check_run(folder: Path, command: str, payloads: list[bytes], games: int, capfd) -> None:
    out = noisy_match(folder, command, payloads, games)
    assert_forfeits_by_the_noisy_engine_only(out, games)
    assert_every_file_printable_and_readable(out)
    assert_read_by_report_and_stats(out, capfd)
    assert_no_engine_left(folder)


# --- every kind of bad bytes, named --------------------------------------------------------

def test_moves_in_bytes_that_are_no_text_lose_and_the_match_goes_on(tmp_path, capfd):
    payloads = [b"= b4-b3\xed\xa0\x80\n\n",                 # the move, then an encoded surrogate
                b"=" + b"\xed\xa0\xbd\xed\xb8\x80 {answer}\n\n",
                b"? boom \xc0\x80\x00\x1b[31m\n\n",          # a failure answer to genmove
                b"=7 {answer}\n\n",                         # an id nobody sent: still its move
                b"= {answer}\npv " + b"[" * 100_000 + b"\nscore 0.5\n\x1b[0m\n\n",
                b"= " + b"x" * (10 << 20)]                  # 10 MB and no end of line
    check_run(tmp_path, "genmove_analyze", payloads, 4, capfd)
    rows = rows_written(tmp_path / "out")
    reasons = " ".join(row["reason"] for row in rows)
    assert "\ufffd" in reasons and "answer longer than" in reasons
    assert any(row.get("analysis") for row in rows)  # the nested pv was kept, cut short


def test_a_name_with_a_bidi_override_or_a_c1_control_is_cleaned(tmp_path):
    """Through a real engine's pipe, and through a channel in this process, the channel cleans
    them (U+FFFD, as a C0 control) before the name is looked at; a mark that only says which
    way the text runs is printable, and kept."""
    payloads = tmp_path / "payloads"
    payloads.mkdir()
    (payloads / "000").write_bytes("= Ev\u202eil\x85one\n\n".encode())
    noisy = EngineSpec(f"{PYTHON} {NOISY} --command name --payloads "
                       f"{shlex.quote(str(payloads))}", "noisy")
    assert own_name(noisy, 10)[0] == "Ev\ufffdil\ufffdone"
    for nasty in ("\x1b", "\u202e", "\x85", "\u2028", "\u2067", "\u200f"):
        channel = InProcessChannel(lambda line, nasty=nasty: f"= Ev{nasty}il\n\n")
        kept = nasty if nasty == "\u200f" else "\ufffd"
        assert identity(channel, 10) == (f"Ev{kept}il",) * 2, nasty


def test_a_name_answer_of_a_megabyte_of_escapes_is_not_a_name(tmp_path, capfd):
    check_run(tmp_path, "name", [b"= " + b"\x1b[2J\xed\xa0\x80" * (1 << 17) + b"\n\n"], 1,
              capfd)
    names = {row["black"] for row in rows_written(tmp_path / "out")}
    assert all(len(name) < 100 for name in names)


# --- any bytes --------------------------------------------------------------------------

payload = st.lists(st.sampled_from(NASTY) | st.binary(max_size=12), max_size=8).map(b"".join)
answers = st.one_of(payload.map(lambda body: body + b"\n\n"),
                    payload.map(lambda lines: b"= {answer}\n" + lines + b"\n\n"),
                    payload)


# Each example is a match: a failure is reported as found, not shrunk (which could take minutes).
@settings(max_examples=5, deadline=None, database=None, phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(COMMANDS), payloads=st.lists(answers, min_size=1, max_size=3))
@example(command="play", payloads=[b"= \x00\xff\n\n", b"? \xed\xb2\x80\n\n"])
def test_an_engine_answering_any_bytes_costs_it_at_most_its_games(command, payloads, capfd):
    with tempfile.TemporaryDirectory() as folder:
        check_run(Path(folder), command, payloads, 3, capfd)


# --- text from elsewhere ------------------------------------------------------------------

def test_a_name_no_file_can_hold_as_given_is_written_and_the_run_resumes(tmp_path, capfd):
    """A name given on the command line with a byte that is not UTF-8 (Python holds it as a
    lone surrogate) and an escape sequence: written as U+FFFD, and the same command resumes."""
    out, none = tmp_path / "out", tmp_path / "none"
    none.mkdir()
    engine = f"{PYTHON} {NOISY} --command none --payloads {shlex.quote(str(none))}"
    for games in (1, 2):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(["match", "--game", "breakthrough", "--boardsize", "3x5", "--games",
                      str(games), "--max-moves", "4", "--out", str(out), "--engine", engine,
                      "--engine", engine, "--engine-option", "1:name=Ev\udcffil\x1b[2J"])
        assert exit_info.value.code == 0
    assert [row["black"] if row["black_index"] == 1 else row["white"]
            for row in rows_written(out)] == ["Ev\ufffdil\ufffd[2J"] * 2
    assert_every_file_printable_and_readable(out)
    assert_read_by_report_and_stats(out, capfd)


def test_records_hold_any_text_from_outside(tmp_path):
    """Whatever a row holds (a participant's reason with a lone surrogate, stderr with escape
    sequences, a person's name), its SGF record, its results row, the summary and the settings
    are written, printable, and read back."""
    nasty = "boom \udc80\ud800\x00\x1b[2J\x7f"
    row = {"game_no": 1, "game": "breakthrough", "black": nasty, "white": "b",
           "black_index": 1, "white_index": 2, "result": "B+", "termination": "resign",
           "reason": nasty, "moves": ["a2-a3"], "plies": 1, "options": {}, "size": [3, 5],
           "black_stderr": nasty, "analysis": [{"pv": [nasty, "]["]}]}
    results = ResultsFile(tmp_path / "results.jsonl")
    save_game(tmp_path, results, row, [1.0])
    results.close()
    write_summary(tmp_path, {"names": [nasty]})
    settings = RunSettings(Setup("breakthrough"), (EngineSpec(nasty, nasty),), seed=1)
    settings.checked(tmp_path)
    assert settings.checked(tmp_path).names == [printable(nasty)]
    assert_every_file_printable_and_readable(tmp_path)
    assert rows_written(tmp_path)[0]["reason"] == printable(nasty)


def test_a_name_that_reads_backwards_shows_u_fffd_in_its_records_page_and_log(tmp_path, capfd):
    """An engine naming itself with a bidirectional override and isolate ("Trojan Source": the
    text after U+202E reads backwards) and a line separator: its name in the match's log lines,
    its records and the report's page holds U+FFFD there instead."""
    out = noisy_match(tmp_path, "name", ["= Evil\u202eexe.txt\u2066\u2028x\n\n".encode()], 1)
    shown = "Evil\ufffdexe.txt\ufffd\ufffdx"
    log = capfd.readouterr().out
    assert f"game 1: {shown} vs " in log and f"Score of {shown} vs " in log
    assert shown in [row["black"] if row["black_index"] == 1 else row["white"]
                     for row in rows_written(out)]
    assert_every_file_printable_and_readable(out)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert shown in page and not re.search("[\u2028-\u202e\u2066-\u2069]", page)
