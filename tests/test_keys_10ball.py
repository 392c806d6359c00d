# 10-ball through the keys (RULES.md T1-T12, C-T1, O6), on the keypad and the buttons: the
# new-match rows, every shot called (A: the first ball entered made as called, B with balls
# entered: pocketed, not as called), the T5 and T7 choices, the 10 on the break, a won rack.
import pytest
from test_keys_rulings import _menu_row, _ok
from test_ui import ctl, note, press, st

from firmware.ui import Controller


def _last(c):
    return c.match.log.event(len(c.match.log) - 1)


def _setup_to(c, field):
    # The cursor on the new-match row field (keypad 8 / buttons P1 move down).
    for _ in range(20):
        if c.model()["items"][c.cursor][0] == field:
            return c.model()["items"][c.cursor]
        press(c, "8" if c.layout == "keypad" else "P1")
    raise AssertionError(field)


@pytest.mark.parametrize("layout", ["keypad", "buttons"])
def test_T12_O6_the_new_match_screen_offers_10ball_break_alternate_and_the_10_on_the_break(
        layout):
    c = Controller(layout, "en", "9ball")
    step = "6" if layout == "keypad" else "P2"
    _setup_to(c, "game")
    press(c, step)
    items = c.model()["items"]
    assert items[0][2] == "10ball"
    rows = {it[0]: it[2] for it in items}
    assert rows["break"] == "alternate"                  # T12: alternate by default
    assert rows["ten_on_break"] == "spot" and "nine_on_break" not in rows   # O6, T4
    _setup_to(c, "ten_on_break")
    press(c, step)
    assert c.model()["items"][c.cursor][2] == "win"
    press(c, "5" if layout == "keypad" else "FOUL")        # start
    ev = c.match.log.event(0)
    assert ev["game"] == "10ball" and ev["ten_on_break"] == "win" and ev["break"] == "alternate"
    assert c.mode == "lag" and st(c)["on_table"] == list(range(1, 11))   # T1


def test_C_T1_A_with_nothing_entered_is_the_lowest_called_and_made():
    c = ctl("10ball", "1 A A")                 # a legal break pocketing the 1, then A
    ev = _last(c)
    assert ev["call"] == 2 and ev["made"] is True and ev["pots"] == [2]
    assert st(c)["shooter"] == 0 and 2 not in st(c)["on_table"]          # T6: continues


def test_T2_the_first_ball_entered_is_the_called_one():
    c = ctl("10ball", "1 B 3 # 0 A")            # dry break; P2 calls the 3, the 10 goes too
    ev = _last(c)
    assert ev["call"] == 3 and ev["made"] and ev["first"] == 1
    assert 10 in st(c)["on_table"] and st(c)["shooter"] == 1             # T6: the 10 spotted
    c = ctl("10ball", "1 B # 0 3 A")            # the 10 called first: the rack is won (T2)
    assert note(c)["end"] == "T2" and note(c)["won"] == 1
    assert _last(c)["call"] == 10


def test_T7_B_with_balls_entered_is_pocketed_not_as_called_and_the_other_chooses():
    c = ctl("10ball", "1 B 1 B")                # dry break; P2 pockets the 1, not as called
    ev = _last(c)
    assert ev["pots"] == [1] and "made" not in ev
    assert st(c)["pending"] == {"by": 0, "options": ["shoot", "pass"]} and c.mode == "choice"
    assert c.model()["hints"][:2] == [["1", "shoot"], ["2", "pass"]]
    press(c, "2")                               # pass: P2 must shoot from there
    assert st(c)["shooter"] == 1 and 1 not in st(c)["on_table"]
    press(c, "D")                               # undo the choice: asked again
    assert c.mode == "choice"
    press(c, "1")
    assert st(c)["shooter"] == 0


def test_T7_the_10_pocketed_not_as_called_is_spotted():
    c = ctl("10ball", "1 B 1 # 0 B")
    assert st(c)["pending"]["by"] == 0 and 10 in st(c)["on_table"] and 1 not in st(c)["on_table"]


def test_T7_on_the_buttons_the_menu_row_pockets_the_lowest_not_as_called():
    c = ctl("10ball", "P1 P2", "buttons")       # P1 breaks dry; P2 to shoot
    assert st(c)["shooter"] == 1
    _menu_row(c, "not_called")
    _ok(c)
    assert _last(c)["pots"] == [1] and "made" not in _last(c)
    assert st(c)["pending"] == {"by": 0, "options": ["shoot", "pass"]}
    assert c.model()["hints"][0] == ["P1", "shoot"]
    press(c, "P2")                              # not P2's choice
    assert c.model()["msg"] == ["not_yours", 0] and st(c)["pending"]
    press(c, "FOUL P1")                         # next option: pass
    assert st(c)["shooter"] == 1 and not st(c)["pending"]
    c = ctl("10ball", "P1 P2", "buttons")
    press(c, "P2")                              # the shooter's button: the lowest as called
    assert _last(c)["call"] == 1 and _last(c)["made"] and st(c)["shooter"] == 1


def test_T7_has_no_menu_row_on_the_break_and_none_in_other_games():
    c = ctl("10ball", "# #")
    assert "not_called" not in [it[1] for it in c.model()["items"]]
    c = ctl("9ball", "1 B # #")
    assert "not_called" not in [it[1] for it in c.model()["items"]]


@pytest.mark.parametrize("layout", ["keypad", "buttons"])
def test_T5_push_out_from_the_menu_then_shoot_or_pass(layout):
    c = ctl("10ball", "1 B" if layout == "keypad" else "P1 P2", layout)
    assert st(c)["push_out"]
    _menu_row(c, "push")
    _ok(c)
    assert _last(c)["call"] == "push" and st(c)["pending"] == {"by": 0,
                                                              "options": ["shoot", "pass"]}
    press(c, "2" if layout == "keypad" else "FOUL P1")       # pass it back
    assert st(c)["shooter"] == 1 and not st(c)["push_out"]


def test_T8_safety_with_balls_entered_ends_the_inning_with_no_choice():
    c = ctl("10ball", "1 B 2 *")
    assert _last(c)["call"] == "safety" and not st(c)["pending"] and st(c)["shooter"] == 0
    assert 2 not in st(c)["on_table"]


def test_T4_O6_the_10_on_the_break_is_spotted_or_wins():
    c = ctl("10ball", "1 # 0 A")                # spotted (the default): P1 keeps shooting
    assert 10 in st(c)["on_table"] and st(c)["shooter"] == 0 and "call" not in _last(c)
    c = Controller("keypad", "en", "10ball")
    c.cfg["ten"] = "win"
    press(c, "5 1 # 0 A")
    assert note(c)["end"] == "O6" and note(c)["won"] == 0


def test_T10_a_wrong_first_ball_named_is_a_foul_ball_in_hand():
    c = ctl("10ball", "1 B 3 # A C")            # P2 hit the 3 first
    assert note(c)["foul"] == "T10" and st(c)["bih"] == "table" and st(c)["shooter"] == 0


def test_T2_a_held_button_wins_the_rack_on_the_10_called():
    c = ctl("10ball", "P1 P2", "buttons")
    press(c, "long:P1")                         # P2 misses, P1 makes the 10 as called
    assert note(c)["end"] == "T2" and note(c)["won"] == 0
    assert _last(c)["call"] == 10 and _last(c)["made"]
    press(c, "UNDO")                            # one undo takes the whole action back
    assert st(c)["shooter"] == 1 and st(c)["on_table"] == list(range(1, 11))
    c = ctl("10ball", "", "buttons")
    press(c, "P1 long:P1")                      # on the break: the 10 spotted (T4), then won
    assert note(c)["end"] == "T2" and note(c)["won"] == 0


def test_T11_three_fouls_lose_the_rack():
    c = ctl("10ball", "1 C C C C")  # P1: a bad break (T3), then a foul each in turn
    assert c.match.warned(0) and st(c)["shooter"] == 0      # (C-N3: warned after the second)
    press(c, "C")                             # P1's third foul in a row: P2 wins the rack
    assert note(c)["end"] == "T11" and note(c)["won"] == 1


def test_help_says_how_10ball_shots_are_keyed():
    c = ctl("10ball", "1 # *")
    rows = {(it[0], it[1]) for it in c.model()["items"]}
    assert {("#0", "ball_10"), ("A", "h_called"), ("B", "not_called"), ("##", "push")} <= rows
    c = ctl("10ball", "P1 long:UNDO", "buttons")
    items = c.model()["items"]
    press(c, " ".join(["P1"] * [it[1] for it in items].index("help")) + " FOUL")
    assert ("UNDO", "not_called") in {(it[0], it[1]) for it in c.model()["items"]}


def test_ball_keys_go_to_10_only():
    c = ctl("10ball", "1 B # 1")
    assert c.model()["msg"] == ["bad_key", "#1"] and c.entry == []
    press(c, "# 0")
    assert c.entry == [10]
