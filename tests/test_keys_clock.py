# The shot clock on the board (RULES.md K1-K6, O7, C-K1-C-K3): the new-match screen's clock
# row, the countdown the keys start, pause and extend, the time foul the board proposes at
# zero, and what the screens show; time comes in as the app's ticks (Controller.tick).
from firmware import events, setup, shotclock, store, views
from firmware.ui import Controller

WPA = shotclock.PROFILES["wpa"]
TV = shotclock.PROFILES["tv"]


def press(c, keys):
    for k in keys.split():
        kind = "press"
        if k.startswith("long:"):
            kind, k = "long", k[5:]
        c.key(kind, k)


def row(c, field):
    # Move the new-match screen's cursor to field's row (keypad: 8 down).
    for _ in range(len(c.model()["items"])):
        if c.model()["items"][c.cursor][0] == field:
            return
        c.key("press", "8")
    raise AssertionError("no row " + field)


def oled(c):
    return views.render(c.model(), "oled")[0]


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
