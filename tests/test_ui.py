# The Controller from key presses to events and screens (RULES.md IDs).
from firmware.match import Log
from firmware.ui import Controller


def ctl(game, keys="", layout="keypad", lang="en"):
    """A Controller whose match of game was started from the setup screen (its defaults: P1 v
    P2, race 5, target 100), then the keys (space-separated; "long:K" a long press) pressed."""
    c = Controller(layout, lang, game)
    if layout == "keypad":
        press(c, "2 5")           # up from the first row wraps to "start"
    else:
        press(c, " ".join(["P1"] * (len(c.model()["items"]) - 1)) + " FOUL")
    assert c.mode == "lag", c.mode
    press(c, keys)
    return c


def press(c, keys):
    for k in keys.split():
        kind = "press"
        if k.startswith("long:"):
            kind, k = "long", k[5:]
        c.key(kind, k)


def st(c):
    return c.match.state()


def note(c):
    return c.match.s["note"] or {}


# ---------------------------------------------------------------- 1: 8-ball, the ball hit first

def _p2_solids():
    # 8-ball: P2 breaks in 3 and 11, then calls and makes the 2: P2 has solids, P2 to shoot.
    c = ctl("8ball", "2 3 # 1 A 2 A")
    assert st(c)["groups"] == ["stripes", "solids"] and st(c)["shooter"] == 1
    return c


def test_C_E2_opponents_ball_pocketed_not_as_called_is_no_foul():
    c = _p2_solids()
    press(c, "# 2 B")               # the 12 went in, not as called: a legal shot (C-E2)
    s = st(c)
    assert "foul" not in note(c), note(c)
    assert s["shooter"] == 0 and s["bih"] is None and s["pending"] is None
    assert 12 not in s["on_table"]                       # it stays down (E8)
    assert s["players"][1]["fouls"] == 0
    ev = c.match.events[-1]
    assert ev["first"] == 1 and ev["pots"] == [12]        # the lowest of P2's solids left


def test_C_E2_safety_with_the_opponents_ball_down_is_no_foul():
    c = _p2_solids()
    press(c, "# 2 *")
    assert "foul" not in note(c) and st(c)["shooter"] == 0 and st(c)["bih"] is None


def test_C_E2_own_ball_entered_after_the_opponents_is_the_one_hit_first():
    c = _p2_solids()
    press(c, "# 2 5 B")             # the 12 and the 5 down, nothing as called
    assert c.match.events[-1]["first"] == 5 and "foul" not in note(c)


def test_E7_referee_says_the_opponents_ball_was_hit_first():
    c = _p2_solids()
    press(c, "# 2 # A")             # "#A": the last ball entered (12) was hit first
    md = c.model()
    assert md["entry"] == [] and md["hit"] == 12
    press(c, "B")
    assert note(c)["foul"] == "E7" and st(c)["bih"] == "table" and st(c)["shooter"] == 0
    assert c.match.events[-1]["first"] == 12 and not c.match.events[-1].get("pots")


def test_E7_first_hit_then_the_balls_pocketed_then_foul_key():
    c = _p2_solids()
    press(c, "# 2 # A # 2 C")       # 12 hit first and pocketed: foul E7, the 12 stays down
    ev = c.match.events[-1]
    assert ev["first"] == 12 and ev["pots"] == [12] and note(c)["foul"] == "E7"
    assert "call" not in ev and "made" not in ev
    assert 12 not in st(c)["on_table"]


def test_C_E1_eight_hit_first_on_an_open_table():
    c = ctl("8ball", "1 B")         # P1 breaks dry: open table, P2 to shoot
    press(c, "8 # A B")
    assert note(c)["foul"] == "C-E1" and st(c)["bih"] == "table"


def test_first_hit_mark_is_cleared_with_the_entry():
    c = _p2_solids()
    press(c, "# 2 # A")
    assert c.model()["hints"][-1] == ["D", "clear"]
    press(c, "D")
    assert c.model()["hit"] is None and c.model()["entry"] == []
    press(c, "# A")                 # nothing entered: nothing to mark
    assert c.msg == ["bad_key", "#A"]


def test_E7_first_hit_shown_with_the_entry_and_in_help():
    from test_views import lcd_text, oled_text

    c = _p2_solids()
    press(c, "# 2 # A 5")
    t = oled_text(c.model())
    assert "Balls: 5" in t and "1st hit 12" in t
    four = lcd_text(c.model(), 20, 4)
    assert "Balls: 5" in four[2] and "1st hit 12" in four[3]
    c.lang = "tr"
    assert "İlk temas 12" in oled_text(c.model())
    c.lang = "en"
    press(c, "D # *")               # help: what the keys do
    assert c.mode == "help" and ["#A", "hit", None] in c.model()["items"]
    for _ in range(c.model()["items"].index(["#A", "hit", None])):
        press(c, "8")
    assert ">#A Hit first" in oled_text(c.model())


# ---------------------------------------------------------------- 2: a scratch on a legal break

def test_S4_legal_break_with_a_scratch_is_a_foul_not_a_breaking_violation():
    for keys in ("0 C", "0 B"):
        c = ctl("14.1", "1 " + keys)
        s = st(c)
        assert s["pending"] is None, (keys, s["pending"])    # no accept/re-rack choice
        assert s["players"][0]["score"] == -1 and note(c)["foul"] == "G5.2"
        assert s["shooter"] == 1 and s["bih"] == "kitchen" and not s["breaking"]
        assert s["balls_left"] == 15                          # the table as it lies


def test_S4_legal_break_with_a_ball_and_a_scratch():
    c = ctl("14.1", "1 3 0 C")
    s = st(c)
    assert s["pending"] is None and s["players"][0]["score"] == -1
    assert s["bih"] == "kitchen" and s["shooter"] == 1 and note(c)["spot"] == 1   # S8


def test_S4_breaking_violation_stays_on_C_alone():
    c = ctl("14.1", "1 C")
    assert st(c)["pending"] == {"by": 1, "options": ["accept", "rerack"]}
    assert st(c)["players"][0]["score"] == -2 and note(c)["foul"] == "S4"


def test_C_S2_scratch_on_a_legal_break_counts_toward_S11():
    c = ctl("14.1", "1 0 C")                # P1: legal break, scratch: first foul
    assert st(c)["players"][0]["fouls"] == 1
    press(c, "B C B C")                     # P2 misses, P1 fouls, P2 misses, P1 fouls: S11
    assert note(c)["rack"] == "S11" and st(c)["players"][0]["score"] == -1 - 1 - 16


def test_E3_scratch_on_the_8ball_break_gives_the_A7_choice():
    for keys in ("0 C", "0 B", "3 0 C"):
        c = ctl("8ball", "1 " + keys)
        s = st(c)
        assert s["pending"] == {"by": 1, "options": ["kitchen", "rerack"]}, keys
        assert note(c)["foul"] == "G5.2"
    c = ctl("8ball", "1 C")                 # a bad break: accept, kitchen or re-rack
    assert st(c)["pending"]["options"] == ["accept", "kitchen", "rerack"]


def test_N4_scratch_on_the_9ball_break_is_a_foul_ball_in_hand_anywhere():
    for keys in ("0 C", "3 0 C", "C"):
        c = ctl("9ball", "1 " + keys)
        s = st(c)
        assert s["pending"] is None and s["shooter"] == 1 and s["bih"] == "table", keys
        assert s["players"][0]["fouls"] == 1


# ---------------------------------------------------------------- 3: setup values always shown

def test_O1_setup_shows_a_race_equal_to_its_row_number():
    from test_views import lcd_text, oled_text

    c = Controller("keypad", "en", "8ball")
    press(c, "8 8 8 4 4 4 4 8 4 4 4")      # race 1 to 1, race 2 to 2
    assert c.cfg["r1"] == 1 and c.cfg["r2"] == 2
    t = oled_text(c.model())
    assert " Race 1: 1" in t and ">Race 2: 2" in t
    assert "Race 2: 2" in "\n".join(lcd_text(c.model(), 20, 4))
    assert lcd_text(c.model(), 16, 2)[0].startswith(">Race 2: 2")
    c.lang = "tr"
    t = oled_text(c.model())
    assert " Yarış 1: 1" in t and ">Yarış 2: 2" in t
    c = Controller("keypad", "en", "14.1")
    assert " Target 1: 100" in oled_text(c.model())


def test_menu_rows_that_name_their_rule_are_not_repeated():
    from test_views import oled_text

    c = ctl("9ball", "1 # # 8")    # (9-ball: the push out row first)
    t = oled_text(c.model())
    assert ">Touch G5.4\n" in t and " Double G5.11\n" in t and "G5.4: G5.4" not in t


# ---------------------------------------------------------------- 4: 5 starts; names differ

def test_setup_5_starts_the_match_from_any_row():
    for row in range(9):
        c = Controller("keypad", "en", "8ball")
        press(c, " ".join(["8"] * row) + " 5")
        assert c.mode == "lag", row
        assert c.match.s["names"] == ["P1", "P2"], (row, c.match.s["names"])
    c = Controller("keypad", "en", "8ball")
    assert ["5", "start"] in c.model()["hints"]


def test_setup_ok_button_starts_the_match_from_any_row():
    c = Controller("buttons", "en", "8ball")
    press(c, "P1 FOUL")                     # on the Player 1 row
    assert c.mode == "lag" and c.match.s["names"] == ["P1", "P2"]
    assert ["FOUL", "start"] in Controller("buttons", "en", "8ball").model()["hints"]


def test_setup_two_players_never_share_a_name():
    from firmware import setup

    c = Controller("keypad", "en", "14.1")
    for keys in ("8", "8"):                 # the Player 1 row, then the Player 2 row
        press(c, keys)
        for k in ["6"] * 30 + ["4"] * 30:
            press(c, k)
            assert c.cfg["p1"] != c.cfg["p2"], c.cfg
    n = len(setup.NAMES)
    c = Controller("keypad", "en", "14.1")
    press(c, "8 " + " ".join(["6"] * n))    # round the names once: all but P2 seen
    seen = set()
    for _ in range(n):
        press(c, "6")
        seen.add(c.cfg["p1"])
    assert seen == set(setup.NAMES) - {"P2"}


# ---------------------------------------------------------------- 5: one UNDO per action

def _undo_takes_back(c, keys, undo):
    before = st(c)
    n = len(c.match.log)
    press(c, keys)
    assert len(c.match.log) > n + 1, "the action sent more than one event"
    press(c, undo)
    assert st(c) == before and len(c.match.log) == n
    assert c.msg[0] in ("undone", "undone_x")  # (with what it undid when known)


def _p2_cleared(layout="buttons", race=5):
    # 8-ball: P1 breaks dry, P2 runs the solids, then misses the 8: P1 (stripes) to shoot.
    c = Controller(layout, "en", "8ball")
    c.cfg["r1"] = c.cfg["r2"] = race
    c.resume([{"t": "new", "game": "8ball", "players": ["P1", "P2"], "race": [race, race]},
              {"t": "lag", "breaker": 0},
              {"t": "shot", "first": 1, "break_rails": 4, "rail": True, "cue_rail": True},
              {"t": "shot", "first": 1, "pots": [1, 2, 3, 4, 5, 6, 7], "call": 1, "made": True,
               "rail": True},
              {"t": "shot", "first": 8, "rail": True}])
    assert st(c)["shooter"] == 0 and st(c)["groups"] == ["stripes", "solids"]
    return c


def test_one_UNDO_takes_back_a_long_press_of_the_other_players_button():
    c = _p2_cleared()
    _undo_takes_back(c, "long:P2", "UNDO")  # P1 missed, P2 made the 8 (E11)
    press(c, "UNDO")                        # the next UNDO: P2's miss of the 8
    assert st(c)["shooter"] == 1 and len(c.match.log) == 4


def test_E11_won_rack_credits_only_the_winning_ball():
    c = _p2_cleared()
    before = st(c)["players"][1]
    press(c, "long:P2")
    p = st(c)["players"][1]
    assert p["racks"] == 1 and p["run"] in (0, 1) and p["high_run"] == before["high_run"] == 7
    press(c, "UNDO")
    press(c, "long:P1")                     # P1's stripes are all on the table: refused
    assert c.msg[:3] == ["refused", "E11", "group_left"] and len(c.match.log) == 5


def test_one_UNDO_takes_back_a_long_press_on_a_9ball_break():
    c = ctl("9ball", "P1", "buttons")       # P1 to break
    _undo_takes_back(c, "long:P2", "UNDO")  # a dry break, then P2 makes the 9


def test_one_UNDO_takes_back_a_match_won_with_a_long_press():
    c = _p2_cleared(race=1)
    _undo_takes_back(c, "long:P2", "UNDO")
    assert st(c)["winner"] is None


def test_one_D_takes_back_the_menus_won_rack():
    c = _p2_cleared("keypad")               # P1 to shoot
    press(c, "B")                           # P1 misses: P2 (solids down) to shoot the 8
    before = st(c)
    press(c, "# #")
    items = c.model()["items"]
    i = [k for k in range(len(items)) if items[k][1] == "won_rack"][0]
    press(c, " ".join(["8"] * i) + " 5")    # the shooter made the 8: one event, E11
    assert st(c)["players"][1]["racks"] == 1 and c.match.s["note"]["end"] == "E11"
    press(c, "D")
    assert st(c) == before


def test_undo_after_a_restart_still_takes_back_the_whole_action():
    c = _p2_cleared()
    n = len(c.match.log)
    press(c, "long:P2")                     # P2 won the rack: P1's miss and P2's 8, one action
    assert len(c.match.log) == n + 2
    r = Controller("buttons", "en", "8ball")
    r.restore(c.match.log)                  # a soft restart: the log keeps the action's size
    press(r, "UNDO")
    assert len(r.match.log) == n and r.msg[0] in ("undone", "undone_x")


def test_undo_right_after_the_lag_takes_back_the_lag():
    c = ctl("8ball", "1", "keypad")
    press(c, "D")
    assert c.mode == "lag" and len(c.match.log) == 1 and c.msg == ["undone_x", "lag_n"]
    press(c, "1 D")
    assert c.mode == "lag" and len(c.match.log) == 1
    press(c, "D")                           # D in the lag: back to the settings
    assert c.mode == "setup"


# ---------------------------------------------------------------- 6: the A10 question

def _rackq(layout="keypad", lang="en"):
    # 14.1: P1 breaks dry, P2 makes 14 balls: where do the cue ball and the 15th ball lie?
    c = ctl("14.1", "1 B" if layout == "keypad" else "P1 P2", layout, lang)
    keys = "1 2 3 4 5 6 7 8 9 # 0 # 1 # 2 # 3 # 4"
    if layout == "buttons":             # no ball keys: build the shot on the keypad's model
        c.entry = list(range(1, 15))
        c.made()
    else:
        press(c, keys + " A")
    assert c.mode == "rackq"
    return c


def test_A10_C_S4_rack_question_reads_plainly_on_the_oled():
    from test_views import oled_text

    c = _rackq()
    rows = oled_text(c.model()).split("\n")
    assert rows[0] == "In rack area?"
    assert "1=Cue ball: no" in rows and "2=15th ball: no" in rows
    assert "S10 Re-rack 14" in rows and rows[-1] == "A=OK D=Back"
    press(c, "2")
    t = oled_text(c.model())
    assert "2=15th ball: yes" in t and "C-S4c Rack 14," in t and "15th to head" in t
    press(c, "1")
    t = oled_text(c.model())
    assert "1=Cue ball: yes" in t and "C-S4b Rack 15," in t
    press(c, "2")                       # the 15th ball in the kitchen: the cue on the head spot
    t = oled_text(c.model())
    assert "2=15th: Kitchen" in t and "C-S4d Rack 14,\ncue on head spot" in t, t
    press(c, "2")
    assert "C-S4d Rack 14,\ncue in hand" in oled_text(c.model())
    for r in oled_text(c.model()).split("\n"):
        assert "cue_in_rack" not in r and "ball_in_rack" not in r
    press(c, "A")                       # sent: the case shown is the one the rules gave
    assert c.mode == "play" and c.match.s["note"]["rack"] == "C-S4d"


def test_A10_C_S4_rack_question_in_turkish():
    from test_views import oled_text

    c = _rackq(lang="tr")
    press(c, "2")
    rows = oled_text(c.model()).split("\n")
    assert rows[0] == "Üçgende ne var?"
    assert "1=Beyaz: yok" in rows and "2=15. top: var" in rows
    assert "C-S4c 14 diz," in rows and rows[-1] == "A=Tamam D=Geri"


def test_A10_C_S4_rack_question_on_the_lcds():
    from test_views import lcd_text

    for lang, want in (("en", ["1=Cue ball: no", "2=15th ball: yes", "C-S4c Rack 14, 15th",
                                "to head spot A=OK"]),
                       ("tr", ["1=Beyaz: yok", "2=15. top: var", "C-S4c 14 diz, 15'i",
                               "baş noktaya A=Tamam"])):
        c = _rackq(lang=lang)
        press(c, "2")
        four = [r.rstrip() for r in lcd_text(c.model(), 20, 4)]
        assert four == want, four
        two = [r.rstrip() for r in lcd_text(c.model(), 16, 2)]
        assert two[1].startswith("C-S4c A="), two
    c = _rackq()
    press(c, "2")
    assert [r.rstrip() for r in lcd_text(c.model(), 20, 4)] == \
        ["1=Cue ball: no", "2=15th ball: yes", "C-S4c Rack 14, 15th", "to head spot A=OK"]
    assert [r.rstrip() for r in lcd_text(c.model(), 16, 2)] == ["Cue no 15th yes", "C-S4c A=OK"]
    c = _rackq(lang="tr")
    press(c, "1")
    assert [r.rstrip() for r in lcd_text(c.model(), 16, 2)] == ["Beyaz var 15.yok", "C-S4d A=Tamam"]


def test_A10_rack_question_with_buttons_fits():
    from test_views import lcd_text, oled_text

    for lang in ("en", "tr"):
        c = _rackq("buttons", lang)
        for keys in ("", "P2", "P1", "P2", "P2"):
            press(c, keys)
            md = c.model()
            t = oled_text(md)
            assert ("P1=" in t and "P2=" in t and "FOUL=" in t), t
            four = lcd_text(md, 20, 4)
            assert "FOUL=" in four[2] + four[3] and md["items"][2][2][:5] in four[1] + four[2]
            if not (lang == "tr" and md["items"][2][2] in ("C-S4b", "C-S4c", "C-S4dh")):
                assert four[0].startswith("P1=") and four[1].startswith("P2="), four
            else:   # the case and the key need 3 rows: the answers take one
                assert four[0].startswith("Beyaz "), four
        press(c, "FOUL")
        assert c.mode == "play" and c.match.s["note"]["rack"] == "C-S4d"


# ---------------------------------------------------------------- what a referee keys and sees

def test_N1_a_ball_already_pocketed_is_refused_as_it_is_keyed():
    # 9-ball: P1 breaks in the 2; keying the 2 again is refused at once (N1), nothing entered.
    c = ctl("9ball", "1 2 A")
    assert 2 not in st(c)["on_table"]
    press(c, "2")
    assert c.entry == [] and c.msg[:3] == ["refused", "N1", "not_on_table"], c.msg
    press(c, "3")  # a ball on the table is entered as before
    assert c.entry == [3] and c.msg is None


def test_E1_a_pocketed_stripe_is_refused_as_it_is_keyed():
    c = _p2_solids()  # the 11 went in on the break
    press(c, "# 1")
    assert c.entry == [] and c.msg[:3] == ["refused", "E1", "not_on_table"], c.msg


def test_S1_a_14_1_target_can_be_as_low_as_10():
    c = Controller("keypad", "en", "14.1")
    press(c, "8 8 8")  # down to target 1
    assert c.model()["items"][c.cursor][0] == "target1"
    for _ in range(8):
        press(c, "4")  # 100 75 60 50 40 25 20 15 10
    assert c.cfg["t1"] == 10
    press(c, "2 2 2 2 5 1")  # start from any row; P1 breaks
    assert c.match.s["target"][0] == 10


def test_E11_the_screen_says_when_a_player_is_on_the_8():
    from firmware import views
    from tests.helpers import a_cleared

    for lang, on8, solids, stripes in (("en", "On8", "Sol", "Str"), ("tr", "8'de", "Düz", "Çiz")):
        c = Controller("keypad", lang, "8ball")
        c.resume(a_cleared().events)  # A's solids are down: the 8 is A's ball
        rows = views.render(c.model(), "oled")[0]  # pyright: ignore
        # above the key hints, under the game lines (which keep their rows while tags come
        # and go): each player's group tag on their side
        a, b = rows[-2][:8], rows[-2][8:]  # pyright: ignore
        assert on8 in a and solids not in a, rows
        assert stripes in b, rows  # B still has stripes to make
        lcd = views.render(c.model(), "lcd20")
        assert on8 in lcd[0] and solids not in lcd[0] and stripes in lcd[1], lcd  # pyright: ignore


def test_N4_C_S2_screens_name_the_games_own_break_rule():
    # A 9-ball break with no rail or a scratch is a break foul, N4, not the general G3/G5.2; a
    # 14.1 breaking violation (S4, -2) is not called a foul (C-S2).
    from firmware import views

    for keys in ("C", "0 C"):
        c = ctl("9ball", "1 " + keys)
        assert c.match.s["note"]["foul"] == "N4", c.match.s["note"]
        assert "Foul N4" in views.render(c.model(), "oled")[0]  # pyright: ignore
    c = ctl("14.1", "1 C")
    rows = views.render(c.model(), "oled")[0]  # pyright: ignore
    assert "Viol. S4 -2 pt" in rows and not any(r.startswith("Foul") for r in rows), rows  # pyright: ignore
    c = ctl("14.1", "1 0 C")  # a legal break with a scratch is a foul (S4 second paragraph)
    assert any(r.startswith("Foul") for r in views.render(c.model(), "oled")[0]), c.match.s  # pyright: ignore


def test_A11_undo_says_what_it_undid():
    from firmware import views

    for keys, what in (("1 A", "Made"), ("1 B", "Miss"), ("1 B *", "Safety"), ("1 B C", "Foul"),
                       ("1 B 0 C", "Scratch")):
        c = ctl("9ball", keys)
        press(c, "D")
        assert c.msg == ["undone_x", {"Made": "made", "Miss": "miss", "Safety": "safe",
                                      "Foul": "foul", "Scratch": "scratch"}[what]], (keys, c.msg)
        rows = views.render(c.model(), "oled")[0]  # pyright: ignore
        assert any(("Undone: " + what) in r for r in rows), (keys, rows)  # pyright: ignore
    c = ctl("9ball", "1")
    press(c, "D")  # the lag
    assert c.msg == ["undone_x", "lag_n"] and c.mode == "lag"


# ---------------------------------------------------------------- the controller without storage

class _BareTable:
    # What the controller asks of its table (docs/ui-contract.md), with no store, no journal and
    # no file: the match's log is in RAM (firmware.match.Log); each call is noted.
    def __init__(self, saves=True):
        self.cfg = {"game": "9ball", "p1": "Ann", "p2": "Bob", "t1": 100, "t2": 100, "r1": 2,
                    "r2": 2, "break": None, "three": True, "nine": "win", "bright": None,
                    "clock": None, "ck": [35, 60, 25, 1, 10]}
        self.wall = False
        self.saves = saves
        self.calls = []

    def take(self, log):
        self.calls.append("take")
        return log

    def open(self, lang, keep=None):
        self.calls.append(("open", lang, keep))
        return Log()

    def started(self, players):
        self.calls.append(("started", players))
        return ["started"]

    def close(self, look=False):
        self.calls.append(("close", look))

    def setting(self, key, d):
        self.calls.append(("setting", key, d))

    def save(self, lang, bright=0):
        self.calls.append(("save", lang))
        return self.saves


def test_keys_turn_into_events_with_no_storage_at_all():
    # O1-O4 from the new-match screen, the lag, a break with the 9 (N3 win of the rack), undo
    # (A11): all through the input map, the table asked only for the log and the start.
    t = _BareTable()
    c = Controller("keypad", "en", table=t)
    press(c, "2 5")  # up from the first row wraps to "start"
    assert c.msg == ["started"] and c.mode == "lag"
    assert t.calls == ["take", ("open", "en", None), ("started", ["Ann", "Bob"])]
    press(c, "1 9 A")  # P1 breaks, the 9 made on the break: P1 wins the rack (N3)
    assert [e["t"] for e in c.match.events] == ["new", "lag", "shot"]
    assert st(c)["players"][0]["racks"] == 1 and c.match.events[-1]["pots"] == [9]
    press(c, "D")
    assert c.msg[0] == "undone_x" and len(c.match.log) == 2
    press(c, "D")  # back to the lag, then the new-match screen: the table lets the log go
    assert c.mode == "lag"
    press(c, "D")
    assert c.mode == "setup" and t.calls[-2:] == [("close", False), "take"]


def test_settings_go_to_the_table_and_a_failed_save_is_said():
    t = _BareTable(saves=False)
    c = Controller("buttons", "en", table=t)
    press(c, "P2")  # the game row: one step on
    assert t.calls[-1] == ("setting", "game", 1)
    while c.model()["items"][c.cursor][0] != "lang":
        press(c, "P1")
    press(c, "P2")  # the language: changed on screen, saved by the table (which fails)
    assert c.lang == "tr" and t.calls[-1] == ("save", "tr") and c.msg == ["cfg_not_saved"]
    assert ["UNDO", "back"] not in c.model()["hints"]  # (nothing to go back to from setup)


def test_the_four_button_layout_is_the_buttons_without_miss_and_ok():
    four = Controller("four", "en", "9ball")
    six = Controller("buttons", "en", "9ball")
    for c in (four, six):
        press(c, " ".join(["P1"] * (len(c.model()["items"]) - 1)) + " FOUL P1 long:UNDO")
        while c.model()["items"][c.cursor][1] != "help":
            press(c, "P1")
        press(c, "FOUL")
        assert c.mode == "help" and c.layout == "buttons" and c.model()["layout"] == "buttons"
    rows = [[r[0] for r in c.model()["items"]] for c in (four, six)]
    assert "MISS" not in rows[0] and "OK" not in rows[0]
    assert [k for k in rows[1] if k not in ("MISS", "OK")] == rows[0]
