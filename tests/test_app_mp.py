# The whole wired app under MicroPython on a 64 KB heap (issue 3): tests/mp_app.py runs the
# app on bare fake buses in the VM; here the bytes it sent are decoded and checked as seen.
import json

from firmware.ui import Controller
from host_tools import mpy
from host_tools.fakehw import decoder, screen_text
from tests import mp_app

HEAP = "64K"
# 9-ball, race 1-1 set on the setup screen, player 1 breaks and makes the 9: match over.
NINE = "8 8 8 4 4 4 4 8 4 4 4 4 8 8 8 8 8 5 1 9 A"


# The app's modules and each kind's, which mp_app imports one per step before it builds the
# board (firmware.hw imports the kind's own when building).
_OLED = ("ssd1306", "firmware.drivers.oled")
_LCD = ("firmware.drivers.lcd",)
MODULES = {"app": ("firmware.rules", "firmware.match", "firmware.lang", "firmware.views",
                   "firmware.ui", "firmware.hw", "firmware.app"),
           "oled": _OLED, "sh1106": _OLED + ("firmware.drivers.sh1106",), "lcd20": _LCD,
           "lcd16": _LCD, "digits": ("firmware.drivers.digits",),
           "keypad": ("firmware.keys",), "buttons": ("firmware.keys",)}


class Run:
    # One mp_app run, decoded: screens at each "mark", states, status lines, the heap.
    def __init__(self, kind, layout, lang, game, cmds, error_ms=2000):
        mods = ",".join(MODULES["app"] + MODULES[kind] + MODULES[layout])
        self.res = mpy.run_argv(["-c", mp_app.ENTRY, mods, kind, layout, lang, game, str(error_ms),
                                 *cmds], heap=HEAP)
        assert self.res.returncode == 0, self.res.stdout[-3000:] + self.res.stderr
        dec = decoder(kind)
        self.screens, self.states, self.status = [], [], []
        records = []
        for line in self.res.stdout.splitlines():
            tag, _, rest = line.partition(" ")
            if tag in ("I", "W"):
                addr, n, data = rest.split()
                data = bytes.fromhex(data[: 2 * int(n)])
                records.append((int(addr), data) if tag == "I" else ("w", data))
            elif tag == "C":
                records.append(("cs", int(rest)))
            elif tag == "M":
                dec.feed(records)
                records = []
                self.screens.append(screen_text(kind, dec))
            elif tag == "S":
                self.states.append(json.loads(rest))
            elif tag == "R":
                restarts, error, healthy, feeds = rest.split()
                self.status.append((int(restarts), error, int(healthy), int(feeds)))

    def fits(self):
        return self.res.fits


def _check_heap(run):
    assert run.fits(), "the app needed a %d-byte heap, more than %s" % (run.res.heap, HEAP)


def test_whole_match_on_the_oled():
    r = Run("oled", "keypad", "en", "9ball", ["run 20", "mark", "keys " + NINE, "mark", "state"])
    setup, over = r.screens
    assert any("9-ball" in row for row in setup), setup
    assert r.states[-1]["winner"] == 0 and r.states[-1]["players"][0]["racks"] == 1
    assert "Match over" in over and "P1" in over, over
    restarts, error, healthy, feeds = r.status[-1]
    assert restarts == 0 and error == "None" and feeds == healthy > 0
    _check_heap(r)


def test_soft_restart_keeps_the_match():
    r = Run("oled", "keypad", "tr", "8ball",
            ["keys 2 5 1 1 A B", "state", "boom", "keys A", "mark", "run 200", "state", "mark"],
            error_ms=100)
    before, after = r.states
    error_screen, back = r.screens
    assert error_screen[0] == "HATA", error_screen
    assert r.status[-1][:2] == (1, "None")  # one restart, running again
    assert after == before
    assert back != error_screen and any(back)
    _check_heap(r)


def test_lcd_and_digits_too():
    # The buttons: P1 down the setup list to "start", FOUL = ok, P1 breaks, then two balls made.
    n = len(Controller("buttons", "en", "14.1").model()["items"])
    keys = " ".join(["P1"] * (n - 1) + ["FOUL", "P1", "P1", "P1"])
    for kind in ("lcd20", "digits"):
        r = Run(kind, "buttons", "en", "14.1", ["run 20", "keys " + keys, "state", "mark"])
        assert r.states[-1]["players"][0]["score"] == 2, (kind, r.states)
        assert any(r.screens[-1]), r.screens
        _check_heap(r)
