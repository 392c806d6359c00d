# The shot clock on the board (RULES.md K1-K6, O7, C-K1-C-K3): the new-match screen's clock
# row, the countdown the keys start, pause and extend, the time foul the board proposes at
# zero, and what the screens show; time comes in as the app's ticks (Controller.tick).
from firmware import events, setup, shotclock, store, views
from firmware.ui import Controller
from tests.test_ui import press

WPA = shotclock.PROFILES["wpa"]
TV = shotclock.PROFILES["tv"]


def row(c, field):
    # Move the new-match screen's cursor to field's row (keypad: 8 down).
    for _ in range(len(c.model()["items"])):
        if c.model()["items"][c.cursor][0] == field:
            return
        c.key("press", "8")
    raise AssertionError("no row " + field)


def oled(c):
    return list(views.render(c.model(), "oled")[0])  # type: ignore[index]


# ---------------------------------------------------------------- O7: the new-match screen


def test_O7_setup_clock_row_steps_off_wpa_tv_custom_with_their_figures():
    c = Controller("keypad", "en", "9ball")
    row(c, "clock")
    shown = []
    for _ in range(4):
        shown.append([ln for ln in oled(c) if "Clock" in ln][0])
        c.key("press", "6")
    assert shown == [">Clock: Off", ">Clock:WPA 35/60", ">Clock: TV 30/60", ">Clock:Own 35/60"]
    assert c.cfg["clock"] is None                      # four steps: round to off again
    c = Controller("keypad", "tr", "8ball")
    row(c, "clock")
    c.key("press", "6")
    assert any(ln.startswith(">Saat: WPA 35/60") for ln in oled(c)), oled(c)


def test_O7_setup_puts_the_profile_in_the_new_event():
    for n, want in ((1, "wpa"), (2, "tv")):
        c = Controller("keypad", "en", "14.1")
        row(c, "clock")
        press(c, " ".join(["6"] * n) + " 5")
        ev = c.match.events[0]
        assert ev["clock"] == want and c.match.clock() == shotclock.profile(want)
        events.check(ev)
    c = Controller("keypad", "en", "14.1")
    press(c, "5")
    assert "clock" not in c.match.events[0] and c.match.clock() is None   # off: O7's default


def test_O7_custom_profile_rows_edit_its_seconds():
    c = Controller("keypad", "en", "10ball")
    row(c, "clock")
    press(c, "4")                                      # back from off: custom
    fields = [it[0] for it in c.model()["items"]]
    assert fields[fields.index("clock") + 1:][:5] == list(setup.CK)
    row(c, "c_shot")
    press(c, "6")                                      # 35 -> 40
    row(c, "c_exts")
    press(c, "6 6")                                    # 1 -> 3
    row(c, "c_warn")
    press(c, "6 6 6")                                  # 10 -> 0: no warning beep
    it = c.model()["items"]
    assert [i for i in it if i[0] == "clock"] == [["clock", "set", ["custom", 40, 60]]]
    press(c, "5")
    ev = c.match.events[0]
    assert ev["clock"] == {"shot": 40, "first": 60, "ext": 25, "exts": 3, "warn": 0}
    events.check(ev)
    assert c.match.exts(0) == 3


def test_O7_the_clock_setting_is_kept_in_settings_json_and_checked():
    c = dict(store.defaults(), clock="custom", ck=[40, 50, 20, 2, 5])
    assert store.validate(c) == (c, None)
    for bad in ({"clock": "fast"}, {"ck": [40, 50]}, {"ck": [0, 50, 20, 2, 5]},
                {"ck": [40, 50, 20, 10, 5]}, {"ck": "wpa"}):
        out, problem = store.validate(dict(store.defaults(), **bad))
        assert problem == list(bad)[0] and out == store.defaults(), bad


# ---------------------------------------------------------------- K1, K5, K6: the keys start it


def match(game="9ball", clock=None, keys="", layout="keypad"):
    """A match of game with the clock option started from the new-match screen, then keys."""
    c = Controller(layout, "en", game)
    c.cfg["clock"] = clock
    if layout == "keypad":
        press(c, "2 5")
    else:
        press(c, " ".join(["P1"] * (len(c.model()["items"]) - 1)) + " FOUL")
    press(c, keys)
    return c


def at(c, now, keys=""):
    """The app's pass at now (ms), then keys pressed in it."""
    c.tick(now)
    press(c, keys)
    return c.model()["clock"]


def test_K1_the_break_waits_racked_then_the_shot_key_starts_the_next_countdown():
    c = match("9ball", "wpa", "1")                    # P1 breaks: the rack's first shot
    assert at(c, 0) == [WPA["shot"], False, 1, 1]     # K1: waits until the balls are racked
    assert at(c, 20000) == [35, False, 1, 1]          # (paused: no time goes)
    assert at(c, 20000, "# 6") == [35, True, 1, 1]    # the referee starts it
    assert at(c, 30000) == [25, True, 1, 1]
    assert at(c, 31000, "1 A") == [60, True, 1, 1]    # the 1 on the break: the first shot (K5)
    assert at(c, 36000) == [55, True, 1, 1]
    assert at(c, 36000, "1 A") == [35, True, 1, 1]    # a ball made: the shooter's next shot
    assert at(c, 40000, "B") == [35, True, 1, 1]      # a miss: the other player's, at once


def test_K5_first_shot_time_after_the_break_and_after_a_push_out_in_the_tv_profile():
    c = match("9ball", "tv", "1 # 6")
    assert at(c, 1000, "B") == [TV["first"], True, 1, 1]    # a dry break: 60 s (K5)
    assert c.model()["state"]["push_out"]
    assert at(c, 2000, "# # 5") == [None, False, 1, 1]  # the menu's push out: P1 chooses (K6)
    assert c.mode == "choice"
    assert at(c, 9000, "1") == [60, True, 1, 1]         # P1 shoots: 60 s from the answer
    assert at(c, 12000, "B") == [30, True, 1, 1]        # then the standard time (K2)
    c = match("9ball", "wpa", "1 # 6")
    press(c, "B # # 5")                                 # WPA: a push out gives no first shot
    assert at(c, 0, "1") == [35, True, 1, 1]


def test_K5_a_choice_after_the_break_starts_the_first_shot_when_answered():
    c = match("8ball", "wpa", "1 # 6")
    c.tick(5000)
    press(c, "C")                                       # E3: a bad break, P2 chooses
    assert c.mode == "choice" and c.model()["clock"][0] is None   # K6: no countdown
    assert at(c, 90000, "1") == [60, True, 1, 1]        # accepted: the first shot's 60 s
    c = match("8ball", "wpa", "1 # 6 C")
    assert at(c, 0, "3") == [35, False, 1, 1]           # re-racked: a break again, racked first


def test_K6_fouls_need_no_key_and_match_over_stops_the_clock():
    c = match("9ball", "wpa", "1 # 6 B")
    assert at(c, 3000, "C") == [35, True, 1, 1]         # a foul: ball in hand, running (K4's
    assert c.model()["state"]["bih"] == "table"         # penalty needs no extra key)
    c = Controller("keypad", "en", "9ball")
    c.cfg["clock"] = "wpa"
    c.cfg["r1"] = c.cfg["r2"] = 1
    press(c, "2 5 1 # 6 9 A")                           # the 9 on the break: match over
    assert c.mode == "over" and c.model()["clock"][0] is None and c.clock is not None
    assert not c.clock.running() and c.tick(10 ** 6) == shotclock.QUIET


def test_K6_referee_pause_resume_and_restart():
    c = match("14.1", "wpa", "1 # 6")
    assert at(c, 10000) == [25, True, 1, 1]
    assert at(c, 10000, "# 6") == [25, False, 1, 1]      # a ruling, a time-out: paused
    assert at(c, 70000) == [25, False, 1, 1]
    assert at(c, 70000, "# 6") == [25, True, 1, 1]       # resumed where it was
    assert at(c, 73000) == [22, True, 1, 1]
    assert at(c, 73000, "# 7") == [35, True, 1, 1]       # restarted: the whole time again


def test_K3_extension_key_adds_its_seconds_once_a_rack():
    c = match("10ball", "tv", "1 # 6 B")                 # P2 at the table, 60 s (first shot)
    assert at(c, 50000, "# 8") == [40, True, 1, 0]       # 10 s left + 30
    assert c.match.events[-1] == {"t": "ext"}
    assert at(c, 51000, "# 8") == [39, True, 1, 0]
    assert c.msg[:2] == ["refused", "K3"]                # one a rack
    assert at(c, 52000, "D") == [60, False, 1, 1]        # undo gives it back, paused


def test_undo_restores_the_shot_countdown_paused():
    c = match("9ball", "wpa", "1 # 6")
    c.tick(20000)
    press(c, "B")                                        # P2 now, the first shot: 60 s
    assert at(c, 25000) == [55, True, 1, 1]
    assert at(c, 26000, "1 A D") == [60, False, 1, 1]    # undone: P2's first shot again, paused
    assert at(c, 26000, "# 6") == [60, True, 1, 1]


def test_clock_keys_without_a_clock_are_refused_as_O7():
    c = match("9ball", None, "1")
    assert c.model()["clock"] is None and c.tick(5000) == shotclock.QUIET
    press(c, "# 6")
    assert c.msg[:2] == ["refused", "O7"]
    assert c.match.events[-1]["t"] == "lag"


# ---------------------------------------------------------------- K4: time out


def test_K4_at_zero_the_board_proposes_the_time_foul_and_one_key_records_it():
    c = match("9ball", "wpa", "1 # 6 B")                 # P2: 60 s
    assert at(c, 30000, "# 9") == [30, True, 1, 1]
    assert c.msg == ["not_up"] and c.match.events[-1]["t"] == "shot"   # not before zero
    assert at(c, 60000) == [0, True, 1, 1]
    assert c.match.events[-1]["t"] == "shot" and "foul" not in (c.match.get("note") or {})
    assert any("Time up K4: #9" in ln for ln in oled(c)), oled(c)    # proposed, not recorded
    assert at(c, 61000, "# 9") == [35, True, 1, 1]       # confirmed: P1 with ball in hand
    assert c.match.events[-1] == {"t": "shot", "foul": "K4"}
    assert c.match.get("note")["foul"] == "K4" and c.match.get("bih") == "table"
    assert c.match.get("shooter") == 0 and c.match.player(1, "fouls") == 1
    assert any("Foul K4" in ln for ln in oled(c)), oled(c)


def test_K4_time_foul_refused_during_a_choice_in_both_languages():
    c = match("9ball", "wpa", "1 # 6 B # # 5")           # P2's push out: P1 chooses
    c.clock.start(0)                                     # (a countdown forced on: refused)
    c.tick(40000)
    c.mode = "play"
    press(c, "# 9")
    assert c.msg[:2] == ["refused", "N7"]
    for lang in ("en", "tr"):
        c.lang = lang
        assert views.render(c.model(), "oled")[0]


def test_K4_recorded_on_its_own_where_the_profile_says_auto():
    prof = dict(shotclock.PROFILES["wpa"], auto=True)
    events.check({"t": "new", "game": "9ball", "players": ["A", "B"], "clock": {
        k: prof[k] for k in ("shot", "first", "ext", "exts", "warn", "push", "auto")}})
    try:
        events.check({"t": "new", "game": "9ball", "players": ["A", "B"], "clock": dict(
            {k: prof[k] for k in shotclock.FIELDS}, auto=1)})
    except events.BadEvent as e:
        assert "auto" in str(e)
    else:
        raise AssertionError("auto: 1 accepted")
    c = Controller("keypad", "en", "9ball")
    c.resume([{"t": "new", "game": "9ball", "players": ["A", "B"],
               "clock": {"shot": 20, "first": 30, "ext": 10, "exts": 1, "warn": 5,
                         "auto": True}}, {"t": "lag", "breaker": 0}])
    press(c, "# 6")
    c.tick(100)
    press(c, "B")                                        # B: 30 s
    assert c.match.get("shooter") == 1
    c.tick(30099)
    assert c.match.get("shooter") == 1                   # not yet
    c.tick(30100)
    assert c.match.events[-1] == {"t": "shot", "foul": "K4"} and c.match.get("shooter") == 0
    assert c.model()["clock"] == [20, True, 1, 1]


def test_K2_the_buzzer_schedule_comes_from_tick():
    c = match("14.1", "wpa", "1 # 6")
    heard = []
    for t in range(0, 36000, 250):
        b = c.tick(t)
        if b:
            heard.append((t, b))
    W, T, E = shotclock.WARN, shotclock.TICK, shotclock.END
    assert heard == [(25000, W), (30000, T), (31000, T), (32000, T), (33000, T), (34000, T),
                     (35000, E)]


# ---------------------------------------------------------------- the buttons and the help


def test_buttons_reach_the_clock_by_the_menu():
    c = match("9ball", "wpa", "P1", layout="buttons")
    rows = None
    press(c, "long:UNDO")
    rows = [it[1] for it in c.model()["items"]]
    assert rows[rows.index("c_pause"):][:4] == ["c_pause", "c_restart", "ext", "time"]
    while c.model()["items"][c.cursor][1] != "c_pause":
        press(c, "P1")
    press(c, "FOUL")                                     # "Clock stop/go": it starts
    assert c.mode == "play" and at(c, 0) == [35, True, 1, 1]
    press(c, "long:UNDO")
    while c.model()["items"][c.cursor][1] != "ext":
        press(c, "P1")
    press(c, "FOUL")
    assert c.mode == "play" and at(c, 0) == [60, True, 0, 1] and c.match.exts(0) == 0


def test_K3_K4_K6_buttons_held_ok_stops_and_starts_held_miss_extends_foul_at_zero_is_K4():
    c = match("9ball", "wpa", "P1", layout="buttons")    # P1 breaks: racked, the clock waits
    assert at(c, 0, "long:OK") == [35, True, 1, 1]        # K6: held OK starts it...
    assert at(c, 5000, "long:OK") == [30, False, 1, 1]    # ... and stops it
    assert at(c, 9000) == [30, False, 1, 1]
    assert at(c, 9000, "long:OK long:MISS") == [55, True, 0, 1]   # K3: P1's extension
    assert c.match.events[-1] == {"t": "ext"} and c.match.exts(0) == 0
    press(c, "FOUL")                                     # time left: FOUL is the foul key
    assert c.match.events[-1]["t"] == "shot" and "K4" not in c.match.events[-1].values()
    assert c.match.get("shooter") == 1 and c.match.s["note"]["foul"] != "K4"
    c = match("9ball", "wpa", "P1", layout="buttons")
    at(c, 0, "long:OK")
    c.tick(35000)
    assert "Time up K4: FOUL" in oled(c)                  # the board proposes it...
    press(c, "FOUL")                                     # ... and FOUL records it (K4)
    assert c.match.events[-1] == {"t": "shot", "foul": "K4"} and c.match.get("shooter") == 1
    c = match("9ball", None, "P1", layout="buttons")     # no clock: held OK and MISS are
    press(c, "long:MISS")                                # the safe and the miss they are
    assert c.match.events[-1]["t"] == "shot" and c.match.get("shooter") == 1


def test_help_lists_the_clock_keys():
    c = match("9ball", "wpa", "1 # *")
    it = c.model()["items"]
    assert [r[:2] for r in it if r[1] in ("c_pause", "c_restart", "ext", "time")] == [
        ["#6", "c_pause"], ["#7", "c_restart"], ["#8", "ext"], ["#9", "time"]]
    c = match("9ball", None, "1 # *")
    assert not [r for r in c.model()["items"] if r[1] in ("c_pause", "ext")]
    c = match("9ball", "wpa", "P1", layout="buttons")
    press(c, "long:UNDO")
    while c.model()["items"][c.cursor][1] != "help":
        press(c, "P1")
    press(c, "FOUL")
    items = c.model()["items"]
    assert ["UNDO", "h_clock", None] in items
    assert ["MISS", "ext", None] in items and ["OK", "c_pause", None] in items


# ---------------------------------------------------------------- the screens


def test_screens_show_the_seconds_and_each_players_extensions():
    c = match("8ball", "wpa", "1 # 6")
    c.tick(12000)
    press(c, "# 8")                                      # P1's extension: 23 + 25
    want = "Ext0   48   Ext1"
    assert want in oled(c), oled(c)
    assert views.render(c.model(), "lcd20")[2] == "Ext0     48     Ext1"  # type: ignore[index]
    assert views.render(c.model(), "lcd16", 0)[1] == want
    press(c, "# 6")
    assert "Ext0  (48)  Ext1" in oled(c)                 # paused: in brackets
    c.lang = "tr"
    assert "Ek0   (48)   Ek1" in oled(c), oled(c)
    w = views.render(c.model(), "wall")
    assert len(w) == 10 and w[9] == 48
    c = match("8ball", None, "1")
    assert len(views.render(c.model(), "wall")) == 9 and not [
        ln for ln in oled(c) if "Ext" in ln]
