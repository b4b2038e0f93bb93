"""The game commands of SPEC 1.2 and every failure they give; a failed command changes nothing."""

import pytest


def ok(answer: str) -> str:
    assert answer.startswith("="), answer
    return answer[1:].strip()


def test_identification(engine):
    assert ok(engine.ask("name")) == "olympiad-engine"
    assert ok(engine.ask("version"))
    assert "loa" in ok(engine.ask("list_games")).split("\n")


def test_set_game_by_alias_and_in_any_case(engine):
    ok(engine.ask("set_game LINES_OF_ACTION"))
    assert ok(engine.ask("side_to_move")) == "black"


@pytest.mark.parametrize("line, error", [
    ("set_game", "? syntax error: expected a game name and KEY=VALUE options"),
    ("set_game chess", "? unknown game 'chess' (games: "),
    ("set_game loa depth", "? syntax error: option 'depth' is not KEY=VALUE"),
    ("set_game loa colour=red", "? syntax error: unknown option 'colour' for loa"),
    ("boardsize 9", "? unacceptable size: loa is played on a fixed board"),
    ("boardsize nine", "? syntax error: expected boardsize N or boardsize COLS ROWS"),
    ("komi x", "? syntax error: komi must be a number"),
    ("play b", "? syntax error: expected play COLOUR MOVE"),
    ("play red b1-b3", "? syntax error: unknown colour 'red'"),
    ("play w a2-a4", "? illegal move: white is not to move (black is)"),
    ("play b b1-b2", "? illegal move: b1-b2: a line with 2 pieces allows 2 squares"),
    ("play b b1-z9", "? syntax error: "),
    ("play b pass", "? illegal move: pass: passing is only legal when no other move exists"),
    ("genmove", "? syntax error: expected genmove COLOUR"),
    ("genmove w", "? illegal move: white is not to move (black is)"),
    ("undo", "? cannot undo: no move has been played"),
    ("final_score", "? cannot score: game is not over"),
    ("time_settings 10 0", "? syntax error: expected time_settings MAIN BYO_YOMI STONES"),
    ("time_settings -1 0 0", "? syntax error: main time must be a finite number >= 0"),
    ("time_settings 10 0 x", "? syntax error: byo-yomi stones must be a whole number"),
    ("time_left b nan 0", "? syntax error: seconds must be a finite number >= 0"),
    ("kata-time_settings", "? syntax error: expected kata-time_settings SYSTEM [ARGUMENTS]"),
    ("kata-time_settings bronstein 60 2", "? syntax error: time system 'bronstein' is not one"),
    ("kata-time_settings fischer 60", "? syntax error: expected kata-time_settings fischer MAIN "
                                      "INCREMENT"),
    ("kata-time_settings fischer 60 -1", "? syntax error: increment must be a finite number"),
    ("kata-time_settings canadian 60 10 x", "? syntax error: byo-yomi stones must be a whole"),
])
def test_failures_start_with_the_gtp_words_and_change_nothing(engine, line, error):
    before = engine.ask("showboard"), engine.ask("legal_moves")
    answer = engine.ask(line)
    assert answer.startswith(error) and answer.endswith("\n\n") and answer.count("\n") == 2
    assert (engine.ask("showboard"), engine.ask("legal_moves")) == before


def test_play_undo_and_the_board(engine):
    ok(engine.ask("play B B1B3"))
    assert ok(engine.ask("side_to_move")) == "white"
    assert "X" in engine.ask("showboard")
    ok(engine.ask("undo"))
    assert ok(engine.ask("side_to_move")) == "black"


def test_genmove_plays_a_legal_move_that_is_then_on_the_board(engine):
    legal = ok(engine.ask("legal_moves")).split()
    move = ok(engine.ask("genmove black"))
    assert move in legal
    ok(engine.ask("undo"))
    ok(engine.ask(f"play b {move}"))


def test_genmove_analyze_plays_like_genmove_and_says_what_it_found(engine):
    assert ok(engine.ask("known_command genmove_analyze")) == "true"
    assert "genmove_analyze" in ok(engine.ask("list_commands")).split("\n")
    legal = ok(engine.ask("legal_moves")).split()
    move, *lines = ok(engine.ask("genmove_analyze black")).split("\n")
    assert move in legal and ok(engine.ask("side_to_move")) == "white"
    found = dict(line.split(" ", 1) for line in lines)
    assert set(found) == {"score", "depth", "nodes", "time", "pv"}
    assert found["depth"] == "1" and found["pv"].split()[0] == move
    assert -1 <= float(found["score"]) <= 1
    assert engine.ask("genmove_analyze black").startswith("? illegal move: black is not to move")


def test_a_whole_game_to_its_end_and_the_answers_after_it(engine):
    for ply in range(400):
        if ok(engine.ask("side_to_move")) == "none":
            break
        colour = ok(engine.ask("side_to_move"))
        ok(engine.ask(f"genmove {colour}"))
    assert ok(engine.ask("side_to_move")) == "none"
    assert ok(engine.ask("final_score")) in ("B+", "W+", "0")
    assert engine.ask("legal_moves") == "=\n\n"
    assert engine.ask("genmove b") == "? game is over\n\n"
    assert engine.ask("play b b1-b3").startswith("? illegal move: the game is over")
    assert "game over" in engine.ask("showboard")
    ok(engine.ask("undo"))
    assert ok(engine.ask("side_to_move")) in ("black", "white")


def test_clear_board_and_set_game_keep_the_time_settings(engine):
    ok(engine.ask("time_settings 30 0 0"))
    ok(engine.ask("play b b1-b3"))
    ok(engine.ask("clear_board"))
    assert ok(engine.ask("legal_moves")).split()[0] == "b1-b3"
    ok(engine.ask("set_game loa"))
    session_clock = engine.handlers["time_left"].__self__.player.clock
    assert session_clock.main == 30


def test_kata_time_settings_announces_an_increment_which_no_time_left_then_overrides(engine):
    assert ok(engine.ask("kata-list_time_settings")).split() == [
        "none", "absolute", "canadian", "fischer"]
    clock = engine.handlers["time_left"].__self__.player.clock
    ok(engine.ask("kata-time_settings fischer 3 0.2"))
    assert (clock.main, clock.byo_yomi, clock.stones, clock.increment) == (3, 0, 0, 0.2)
    ok(engine.ask("time_left black 3 0"))
    clock.record_spent(0, 0.5)
    ok(engine.ask("time_left black 2.5 0"))  # as if no increment had come: it is still 0.2
    assert clock.increment == 0.2
    failed = engine.ask("kata-time_settings fischer 60 x")
    assert failed.startswith("? syntax error") and (clock.main, clock.increment) == (3, 0.2)
    ok(engine.ask("kata-time_settings canadian 60 10 5"))
    assert (clock.main, clock.byo_yomi, clock.stones, clock.increment) == (60, 10, 5, 0)
    ok(engine.ask("kata-time_settings absolute 45"))
    assert (clock.main, clock.byo_yomi, clock.stones, clock.unlimited) == (45, 0, 0, False)
    ok(engine.ask("kata-time_settings none"))
    assert clock.unlimited


def test_time_left_reaches_the_clock(engine):
    ok(engine.ask("time_settings 60 0 0"))
    ok(engine.ask("time_left white 12.5 0"))
    clock = engine.handlers["time_left"].__self__.player.clock
    assert clock.left[1] == (12.5, 0)


def test_komi_is_accepted_and_ignored(engine):
    assert engine.ask("komi 6.5") == "=\n\n"
