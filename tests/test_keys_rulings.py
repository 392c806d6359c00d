# Rulings the keys give (RULES.md IDs): a called scratch or ball off is the cue ball in pots/off
# in every game, off keeps the cue ball, an open table asks the group, won rack invents nothing,
# C-S4(d) with the 15th ball in the kitchen, A6, G5.14, G22, undo's label, help by situation.
from test_ui import ctl, note, press, st

from firmware.match import Match


def _menu_row(c, act, foul=None):
    # Open the menu and put the cursor on the row whose action is act (the called foul: foul).
    press(c, "# #" if c.layout == "keypad" else "long:UNDO")
    items = c.model()["items"]
    i = [k for k in range(len(items)) if items[k][1] == act][0]
    press(c, " ".join([("8" if c.layout == "keypad" else "P1")] * i))
    if foul:
        for _ in range(40):
            if c.model()["items"][c.cursor][2] == foul:
                break
            press(c, "6" if c.layout == "keypad" else "P2")
        assert c.model()["items"][c.cursor][2] == foul


def _ok(c):
    press(c, "5" if c.layout == "keypad" else "FOUL")


def _events(c, n):
    return [c.match.log.event(i) for i in range(n, len(c.match.log))]


# ---------------------------------------------------------------- G5.2, G5.3 called = facts

def test_S7_called_G5_2_in_14_1_gives_ball_in_hand_in_the_kitchen():
    for layout in ("keypad", "buttons"):
        c = ctl("14.1", "1 B" if layout == "keypad" else "P1 P2", layout)
        _menu_row(c, "called_foul", "G5.2")
        _ok(c)
        s = st(c)
        assert s["bih"] == "kitchen" and note(c)["foul"] == "G5.2", (layout, s["bih"])
        assert s["players"][1]["score"] == -1 and s["shooter"] == 0
        assert 0 in c.match.log.event(len(c.match.log) - 1)["pots"]


def test_G5_2_called_event_acts_as_the_cue_ball_in_pots_in_every_game():
    # The core: {"foul": "G5.2"} gives the state {"pots": [0]} gives, {"foul": "G5.3"} the
    # state of {"off": [0]}, on the break and after it (A7: kitchen or re-rack, not accept).
    for game in ("14.1", "8ball", "9ball"):
        for brk in (True, False):
            for called, facts in (({"foul": "G5.2"}, {"pots": [0]}),
                                  ({"foul": "G5.3"}, {"off": [0]})):
                states = []
                for extra in (called, facts):
                    m = Match()
                    m.apply({"t": "new", "game": game, "players": ["A", "B"]})
                    m.apply({"t": "lag", "breaker": 0})
                    if not brk:
                        m.apply({"t": "shot", "first": 1, "break_rails": 4, "cue_rail": True,
                                 "rail": True})
                    ev = {"t": "shot", "first": 1, "rail": True}
                    if brk:
                        ev["break_rails"] = 0
                    ev.update(extra)
                    m.apply(ev)
                    states.append(m.state())
                assert states[0] == states[1], (game, brk, called)
                if game == "8ball" and brk:
                    assert states[0]["pending"]["options"] == ["kitchen", "rerack"]  # A7


def test_S9_G5_3_called_with_an_object_ball_off_keeps_those_facts():
    m = Match()
    m.apply({"t": "new", "game": "14.1", "players": ["A", "B"]})
    m.apply({"t": "lag", "breaker": 0})
    m.apply({"t": "shot", "first": 1, "break_rails": 4, "cue_rail": True, "rail": True})
    m.apply({"t": "shot", "first": 1, "rail": True, "off": [3], "foul": "G5.3"})
    assert m.state()["bih"] is None and m.s["note"]["spot"] == 1   # S9: the cue ball as it lies


def test_S9_cue_ball_and_object_ball_off_give_ball_in_hand():
    for keys in ("0 3", "3 0"):
        c = ctl("14.1", "1 B " + keys)
        _menu_row(c, "off")
        _ok(c)
        s = st(c)
        assert s["bih"] == "kitchen" and note(c)["foul"] == "G5.3" and note(c)["spot"] == 1, keys
        assert sorted(c.match.log.event(len(c.match.log) - 1)["off"]) == [0, 3]


def test_S4_called_scratch_on_the_8ball_break_is_a_break_scratch():
    c = ctl("8ball", "1")
    _menu_row(c, "called_foul", "G5.2")
    _ok(c)
    assert st(c)["pending"]["options"] == ["kitchen", "rerack"]     # A7, not accept


# ---------------------------------------------------------------- E6: the open table asks

def test_E6_open_table_made_asks_the_group_keypad():
    c = ctl("8ball", "1 B")                  # P1 breaks dry: P2 on an open table
    press(c, "A")
    assert c.mode == "groupq" and st(c)["groups"] is None and len(c.match.log) == 3
    press(c, "2")                             # stripes
    assert st(c)["groups"] == ["solids", "stripes"] and st(c)["shooter"] == 1
    assert c.match.log.event(3) == {"t": "shot", "first": 9, "pots": [9], "call": 9,
                                    "made": True, "rail": True}
    press(c, "A")                             # groups set: no question
    assert c.mode == "play" and 10 not in st(c)["on_table"]


def test_E6_open_table_made_asks_the_group_buttons():
    c = ctl("8ball", "P1 P2", "buttons")
    press(c, "P2")
    assert c.mode == "groupq"
    assert [h[1] for h in c.model()["hints"]] == ["solids", "next", "back"]
    press(c, "P1")                            # not P2's answer to give
    assert c.mode == "groupq" and len(c.match.log) == 3
    press(c, "FOUL P2")                       # next: stripes; P2 confirms
    assert st(c)["groups"] == ["solids", "stripes"] and c.mode == "play"
    press(c, "P2 UNDO UNDO")                  # undo one shot a press
    press(c, "P2 UNDO")                       # the question left, nothing sent
    assert c.mode == "play" and len(c.match.log) == 3


# ---------------------------------------------------------------- won rack invents nothing

def test_E11_won_rack_on_an_open_table_is_refused():
    for layout, keys in (("keypad", "1 B"), ("buttons", "P1 P2")):
        c = ctl("8ball", keys, layout)
        n = len(c.match.log)
        if layout == "buttons":
            press(c, "long:P2")
        else:
            _menu_row(c, "won_rack")
            _ok(c)
        assert c.msg[:3] == ["refused", "E11", "group_left"] and len(c.match.log) == n
        assert st(c)["groups"] is None and st(c)["players"][1]["high_run"] == 0


# ---------------------------------------------------------------- A10, C-S4(d)

def test_C_S4_d_fifteenth_ball_in_the_kitchen_puts_the_cue_ball_on_the_head_spot():
    from test_ui import _rackq

    for layout in ("keypad", "buttons"):
        c = _rackq(layout)
        one, two, ok = ("1", "2", "A") if layout == "keypad" else ("P1", "P2", "FOUL")
        press(c, " ".join([one, two, two]))   # the cue ball in the rack, the 15th in the kitchen
        assert c.model()["items"][2][2] == "C-S4dh"
        press(c, ok)
        ev = c.match.log.event(len(c.match.log) - 1)
        assert ev.get("cue_in_rack") and ev.get("ball_in_kitchen") and "ball_in_rack" not in ev
        s = st(c)
        assert s["bih"] is None and note(c)["rack"] == "C-S4dh" and s["balls_left"] == 15
        assert s["shooter"] == 1                               # the shooter continues


def test_C_S4_d_fifteenth_ball_in_front_of_the_head_string_gives_the_kitchen():
    from test_ui import _rackq

    c = _rackq()
    press(c, "1 A")
    assert st(c)["bih"] == "kitchen" and note(c)["rack"] == "C-S4d"


# ---------------------------------------------------------------- A6, G5.14, G22

def test_A6_breaking_violation_with_a_scratch_on_the_keypad():
    c = ctl("14.1", "1 0 # C")
    s = st(c)
    assert s["players"][0]["score"] == -2 and note(c)["foul"] == "S4"   # -2 only
    assert s["pending"] == {"by": 1, "options": ["accept", "rerack"]}
    press(c, "1")                              # accepted: ball in hand in the kitchen
    assert st(c)["bih"] == "kitchen" and st(c)["shooter"] == 1
    c = ctl("14.1", "1 B 0 # C")               # not on the break: refused, nothing sent
    assert c.msg == ["bad_key", "#C"] and len(c.match.log) == 3


def test_G5_14_intentional_foul_14_1_gives_ball_in_hand_in_the_kitchen():
    c = ctl("14.1", "1 B")
    _menu_row(c, "called_foul", "G5.14")
    _ok(c)
    s = st(c)
    assert s["bih"] == "kitchen" and s["players"][1]["score"] == -1 and note(c)["foul"] == "G5.14"
    c = ctl("9ball", "1 B")
    _menu_row(c, "called_foul", "G5.14")
    _ok(c)
    assert st(c)["bih"] == "table" and note(c)["foul"] == "G5.14"    # N8: as any foul


def test_G22_and_G5_14_are_on_the_help_screen():
    for layout, keys in (("keypad", "1 # *"), ("buttons", "P1")):
        c = ctl("14.1", keys, layout)
        if layout == "buttons":
            _menu_row(c, "help")
            _ok(c)
        assert c.mode == "help"
        acts = [r[1] for r in c.model()["items"]]
        assert "h_g22" in acts and "h_g514" in acts and "mode_rackq" in acts, acts


# ---------------------------------------------------------------- undo names the action

def test_A11_undo_names_a_miss_a_wrong_ball_foul_and_a_breaking_violation():
    c = ctl("8ball", "1 B 4 B")                # P2 misses, pocketing the 4 (not as called)
    press(c, "D")
    assert c.msg == ["undone_x", "miss"]
    c = ctl("8ball", "1 B 2 A 9 # A B")        # P2 solids; then the 9 hit first: E7
    assert note(c)["foul"] == "E7"
    press(c, "D")
    assert c.msg == ["undone_x", "foul"]
    c = ctl("14.1", "1 C")
    press(c, "D")
    assert c.msg == ["undone_x", "bad_break"]


# ---------------------------------------------------------------- help follows the situation

def test_S4_help_on_the_break_names_the_break_keys():
    c = ctl("14.1", "1 # *")
    rows = [r[:2] for r in c.model()["items"]]
    assert ["C", "bad_break"] in rows and ["B", "dry_break"] in rows and \
        ["0 #C", "viol_scratch"] in rows and ["C", "foul"] not in rows
    c = ctl("14.1", "1 B # *")
    rows = [r[:2] for r in c.model()["items"]]
    assert ["C", "foul"] in rows and ["B", "miss"] in rows and ["0 #C", "viol_scratch"] not in rows
    c = ctl("14.1", "P1", "buttons")
    _menu_row(c, "help")
    _ok(c)
    rows = [r[:2] for r in c.model()["items"]]
    assert ["P1", "made"] in rows and ["P2", "miss"] in rows and ["FOUL", "bad_break"] in rows
    assert ["P1/P2", "won_rack"] not in rows                     # refused in 14.1


def test_N7_menu_rows_stay_put_when_the_push_out_is_gone():
    c = ctl("9ball", "1 B B")                  # the push out is no longer allowed
    press(c, "# # 5")                          # the first row: push out, refused (N7)
    assert c.msg[:2] == ["refused", "N7"] and len(c.match.log) == 4


def test_help_on_four_buttons_lists_only_the_buttons_wired():
    from firmware import hw
    from firmware.app import Hardware, layout
    from firmware.ui import Controller
    from host_tools.fakehw import FakePin

    for names in (("P1", "P2", "FOUL", "UNDO"), ("P1", "P2", "FOUL", "UNDO", "MISS", "OK")):
        inp = hw.keys("buttons", pins=[FakePin(1) for _ in names], names=names)
        c = Controller(layout(Hardware(None, inp, "oled", "buttons")), "en", "9ball")
        press(c, " ".join(["P1"] * (len(c.model()["items"]) - 1)) + " FOUL P1")
        _menu_row(c, "help")
        _ok(c)
        labels = [r[0] for r in c.model()["items"]]
        assert ("MISS" in labels and "OK" in labels) == (len(names) == 6), (names, labels)
