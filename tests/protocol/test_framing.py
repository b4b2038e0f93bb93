"""GTP framing (SPEC 1.1): ids, comments, control characters, answers and failures."""

import io

import pytest

from protocol.gtp import CommandError, GtpEngine, clean_line, format_answer


def test_success_and_failure_answers_end_with_an_empty_line(engine):
    assert engine.ask("protocol_version") == "= 2\n\n"
    assert engine.ask("nonsense") == "? unknown command: nonsense\n\n"


def test_the_id_is_echoed_on_success_and_failure(engine):
    assert engine.ask("42 protocol_version") == "=42 2\n\n"
    assert engine.ask("7 nonsense") == "?7 unknown command: nonsense\n\n"


def test_an_id_alone_is_a_syntax_error(engine):
    assert engine.ask("12") == "?12 syntax error: no command after the id\n\n"


@pytest.mark.parametrize("line", ["", "   ", "# only a comment", "\t\t", "\x01\x02", "\r"])
def test_lines_that_are_empty_after_cleaning_are_ignored(engine, line):
    assert engine.ask(line) is None


def test_comments_tabs_carriage_returns_and_control_characters_are_cleaned(engine):
    assert engine.ask("3\tname\t# who are you\r") == "=3 olympiad-engine\n\n"
    assert engine.ask("pro\x00tocol_\x1bversion\x7f") == "= 2\n\n"


def test_command_names_are_case_sensitive(engine):
    assert engine.ask("NAME").startswith("? unknown command")


def test_multi_line_answers_have_no_empty_line_inside(engine):
    answer = engine.ask("showboard")
    assert answer.startswith("=\n") and answer.endswith("\n\n")
    assert "\n\n" not in answer[:-2]


def test_clean_line_keeps_words_and_drops_the_rest():
    assert clean_line("\x05 play\tb  b1-b3 # comment\r\n") == "play b  b1-b3"


def test_format_answer_drops_empty_lines_and_starts_diagrams_on_a_new_line():
    assert format_answer(True, None, "a\n\nb") == "= a\nb\n\n"
    assert format_answer(True, "5", "\nrow") == "=5\nrow\n\n"
    assert format_answer(False, None, "") == "?\n\n"


def test_known_command_and_list_commands_cover_every_spec_command(engine):
    spec = ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
            "list_games", "set_game", "boardsize", "clear_board", "komi", "play", "genmove",
            "undo", "legal_moves", "side_to_move", "final_score", "showboard",
            "time_settings", "time_left"]
    listed = engine.ask("list_commands")[2:].split()
    for command in spec:
        assert command in listed
        assert engine.ask(f"known_command {command}") == "= true\n\n"
    assert engine.ask("known_command fly") == "= false\n\n"
    assert engine.ask("known_command").startswith("? syntax error")


def test_a_handler_bug_becomes_an_internal_error_and_the_loop_goes_on():
    gtp = GtpEngine()
    gtp.add_command("boom", lambda args: 1 / 0)
    gtp.add_command("fail", lambda args: (_ for _ in ()).throw(CommandError("cannot do it")))
    assert gtp.respond("boom") == "? internal error: ZeroDivisionError: division by zero\n\n"
    assert gtp.respond("fail") == "? cannot do it\n\n"
    assert gtp.respond("protocol_version") == "= 2\n\n"


def test_serve_stops_at_quit_after_answering_it():
    gtp = GtpEngine()
    out = io.StringIO()
    gtp.serve(io.StringIO("protocol_version\n9 quit\nprotocol_version\n"), out)
    assert out.getvalue() == "= 2\n\n=9\n\n"


def test_serve_stops_at_end_of_input():
    out = io.StringIO()
    GtpEngine().serve(io.StringIO("protocol_version"), out)
    assert out.getvalue() == "= 2\n\n"
