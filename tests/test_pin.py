# The referee's PIN (firmware/ui.py mode "pin", read by firmware.app.new_controller from
# /secrets.json): with one, what changes a match (the new-match screen's rows but its
# language, starting, the menu's new match and brightness) asks for it first, on the keypad's
# digits or as a button sequence (P1=1 P2=2 FOUL=3 UNDO=4 MISS=5 OK=6); play is never asked;
# without one nothing is. A bad PIN in the file is said at boot and guards nothing.
import json
from typing import Any

from firmware import views
from firmware.app import new_controller
from firmware.store import Store
from firmware.ui import Controller
from tests.helpers import scratch_dir
from tests.test_ui import press


def _ctl(layout="keypad", pin: "str | None" = "2468", game="9ball"):
    c = Controller(layout, "en", game)
    c.pin = pin
    return c


def _screen(c, kind="oled") -> Any:
    r: Any = views.render(c.model(), kind)
    return r[0] if kind == "oled" else r


def test_the_new_match_screen_asks_the_pin_before_a_change_and_start():
    c = _ctl()
    cfg = dict(c.cfg)
    press(c, "8 6")  # down to the next row, change it: the PIN first
    assert c.mode == "pin" and c.cfg == cfg
    assert "Referee PIN" in _screen(c)[0]
    press(c, "2 4 6")
    assert c.model()["items"][0][2] == "***"
    press(c, "8")
    assert c.unlocked and c.mode == "setup" and c.cursor == 1 and c.msg == ["pin_ok"]
    press(c, "6")  # now it changes
    assert c.cfg != cfg
    press(c, "5 1")  # start, player 1 breaks
    assert c.mode == "play" and not c.unlocked  # locked again once play is on
    press(c, "B")  # play never asks
    assert c.mode == "play" and c.match.get("shooter") == 1


def test_a_wrong_pin_changes_nothing_and_says_so():
    c = _ctl()
    press(c, "5")  # start: asked
    press(c, "1 1 1 1")
    assert c.mode == "setup" and not c.unlocked and c.msg == ["pin_wrong"]
    assert c.match.get("game") is None  # not started
    assert any("Wrong PIN" in r for r in _screen(c))
    press(c, "5 D")  # asked again; D goes back without it
    assert c.mode == "setup" and c.match.get("game") is None


def test_the_language_row_is_not_guarded():
    c = _ctl()
    items = c.model()["items"]
    i = [k for k in range(len(items)) if items[k][0] == "lang"][0]
    press(c, " ".join(["8"] * i) + " 6")
    assert c.lang == "tr" and c.mode == "setup"


def test_the_menus_new_match_asks_the_pin_and_play_goes_on_without_it():
    c = _ctl(pin="13")
    c.unlocked = True
    press(c, "5 1 A B")  # (the match started with the PIN)
    assert not c.unlocked
    state = c.match.state()
    press(c, "# #")
    items = c.model()["items"]
    i = [k for k in range(len(items)) if items[k][0] == "newmatch"][0]
    press(c, " ".join(["8"] * i) + " 5")
    assert c.mode == "pin"
    press(c, "1 3")
    assert c.mode == "menu" and c.cursor == i and c.unlocked
    press(c, "5")  # the new match row again: asks which key confirms
    assert c.confirm
    press(c, "D")  # back to play: locked again
    assert c.mode == "play" and not c.unlocked and c.match.state() == state


def test_buttons_enter_the_pin_as_a_sequence():
    c = _ctl("buttons", pin="3142")  # FOUL P1 UNDO P2
    press(c, "FOUL")  # FOUL is OK on the new-match screen: start, asked
    assert c.mode == "pin"
    for k in ("FOUL", "P1", "UNDO", "P2"):
        press(c, k)
    assert c.unlocked and c.mode == "setup"
    press(c, "FOUL")
    assert c.mode == "lag"
    c = _ctl("buttons", pin="3142")
    press(c, "FOUL long:UNDO")  # a held key goes back
    assert c.mode == "setup" and not c.unlocked


def test_the_pin_screen_fits_every_display_in_both_languages():
    for lang in ("en", "tr"):
        for layout in ("keypad", "buttons"):
            c = _ctl(layout)
            c.lang = lang
            press(c, "5" if layout == "keypad" else "FOUL")
            assert c.mode == "pin"
            for kind, w in (("oled", 16), ("lcd20", 20), ("lcd16", 16)):
                rows = _screen(c, kind)
                assert all(len(r) <= w for r in rows)
                text = " ".join(rows)
                assert ("PIN" in text or "Şifre" in text or "şifresi" in text), rows


def test_no_pin_asks_nothing():
    c = _ctl(pin=None)
    press(c, "8 6 5 1")
    assert c.mode == "play"


def _boot(secrets):
    root = scratch_dir("pin")
    if secrets is not None:
        with open(root + "/secrets.json", "w") as f:
            f.write(secrets if isinstance(secrets, str) else json.dumps(secrets))
    return new_controller("keypad", "en", "9ball", store=Store(root))


def test_the_pin_comes_from_the_secrets_file_and_a_bad_one_is_said():
    assert _boot({"pin": "0042", "broker": "x", "club": "c"}).pin == "0042"
    assert _boot({"pin": 7}).pin == "7"
    assert _boot(None).pin is None and _boot(None).msg is None
    assert _boot({"broker": "x"}).pin is None
    for bad in ({"pin": "12a4"}, {"pin": ""}, {"pin": "123456789"}, {"pin": True}):
        c = _boot(bad)
        assert c.pin is None and c.msg == ["bad_settings", "pin"], bad
    assert _boot("not json").pin is None  # (the network's secrets say so themselves)
