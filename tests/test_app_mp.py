# The whole wired app under the board-like MicroPython (a hard heap: host_tools.appheap.HEAP,
# HEAP_LFS below): tests/mp_app.py runs the app on bare fake buses in the VM;
# host_tools.appheap decodes the bytes it sent, and the screens are checked as a person sees them.
from firmware.ui import Controller
from host_tools.appheap import HEAP, Run

# 9-ball, race 1-1 set on the setup screen, player 1 breaks and makes the 9: match over.
NINE = "8 8 8 4 4 4 4 8 4 4 4 4 8 8 8 8 8 5 1 9 A"


def _check_heap(run):
    # Past 620 interned names the VM adds a 4.6 KB pool for the next 620 (tests/README.md).
    assert run.fits(), "the app ran out of a %s heap (%d names)\n%s" % (
        HEAP, run.qstrs, run.res.stderr[-2000:])


def test_whole_match_on_the_oled():
    r = Run("oled", "keypad", "en", "9ball", ["run 20", "mark", "keys " + NINE, "mark", "state"])
    setup, over = r.screens
    assert any("9-ball" in row for row in setup), setup
    assert r.states[-1]["winner"] == 0 and r.states[-1]["players"][0]["racks"] == 1
    assert "Match over" in over and "P1" in over, over
    restarts, error, healthy, feeds = r.status[-1]
    assert restarts == 0 and error == "None" and feeds == healthy > 0
    _check_heap(r)


def test_whole_10ball_match_on_the_oled():
    # 10-ball, race 1-1 (NINE's setup keys): the 10 on the break is spotted (O6, T4), then the
    # breaker makes it as called (T2): match over.
    keys = NINE[:-4] + " 1 # 0 A # 0 A"
    r = Run("oled", "keypad", "en", "10ball", ["run 20", "mark", "keys " + keys, "mark",
                                                "state"])
    setup, over = r.screens
    assert any("10-ball" in row for row in setup), setup
    assert r.states[-1]["winner"] == 0 and r.states[-1]["players"][0]["racks"] == 1
    assert "Match over" in over and "T2 10 made" in over, over
    _check_heap(r)


def test_soft_restart_keeps_the_match():
    r = Run("oled", "keypad", "tr", "8ball",
            ["keys 2 5 1 1 A B", "state", "boom", "keys A", "mark", "run 400", "state", "mark"],
            error_ms=300)
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


def test_straight_pool_on_the_sh1106_in_turkish():
    # 14.1 has the fullest OLED screen (innings, runs, the foul note); the SH1106 sends it page
    # by page. The same keys through the controller on CPython give the same state.
    keys = "2 5 1 A A A B C 0 C"
    r = Run("sh1106", "keypad", "tr", "14.1", ["keys " + keys, "state", "mark"])
    c = Controller("keypad", "tr", "14.1")
    for k in keys.split():
        c.key("press", k)
    assert r.states[-1] == c.match.state()
    screen = r.screens[-1]
    # the scores at double size (P1 2, P2 -1 after the scratch), the names with P2 to shoot,
    # the ball in hand in the kitchen (S4), the foul's note (wrapped), and both on one foul in
    # the tags row above the key hints
    assert screen[0].split() == ["2", "-1"] and screen[2].rstrip().endswith("P2<"), screen
    assert screen[3] == "Elde: açış alanı" and screen[4].startswith("Faul G5.2"), screen
    assert screen[6].split() == ["F1", "F1"], screen
    _check_heap(r)


INTERN_PROBE = """
import micropython
from firmware.drivers.lcd import Lcd
from firmware.drivers.oled_i2c import SSD1306W_I2C
from firmware.drivers.oled import Oled
from tests.mp_app import Bus
oled = Oled(SSD1306W_I2C(128, 64, Bus(), 0x3C))
lcd = Lcd(Bus(), 0x27, 20, 4, sleep_ms=lambda ms: None)
text = bytes(range(32, 127)).decode() + "ıİşŞğĞçÇöÖüÜé€\\x01"
micropython.qstr_info()
for start in range(0, len(text), 16):
    oled.show([text[start:start + 16]] * 8, (2,), (3,))
    lcd.show([text[start:start + 20]] * 4)
micropython.qstr_info()
"""


def test_drawing_text_interns_no_names():
    # Indexing a str in MicroPython interns the character it gives: every letter a screen ever
    # showed would stay in the VM's name pool (4.6 KB more past 620 names). The OLED and LCD
    # drivers walk the bytes instead: every printable character and Turkish letter adds none.
    from host_tools import mpy

    res = mpy.run(INTERN_PROBE, heap="64K")
    assert res.returncode == 0, res.stderr
    counts = [line.split("n_qstr=")[1].split(",")[0] for line in res.stdout.splitlines()
              if line.startswith("qstr pool")]
    assert len(counts) == 2 and counts[0] == counts[1], res.stdout[-2000:]


# Whole matches from setup to match over with the match kept on littlefs (the journal
# on vfs.VfsLfs2 with 4,096-byte blocks, as on a Pico, its flash a file outside the heap). The
# keys come from tests/matchkeys.py, made on a CPython controller, which gives the same state.
HEAP_LFS = "144K"  # the whole app with littlefs and the journal needs 134-142 KB (docs/figures.md); the
# smallest heap is not a sharp line (fragmentation): some heaps above it fail too
LONG = {"14.1": ({"target1": 150, "target2": 150}, 50, 800),  # 150 points, 50 undos, 800+ events
        "9ball": ({"race1": 11, "race2": 11}, 0, 0), "8ball": ({"race1": 9, "race2": 9}, 0, 0),
        "10ball": ({"race1": 9, "race2": 9}, 0, 0)}


def _chunks(keys, n=40):
    return ["keys " + " ".join(keys[i:i + n]) for i in range(0, len(keys), n)]


def _long(game):
    from tests.matchkeys import match_keys

    setup, undos, events = LONG[game]
    return match_keys(game, setup, undos, events)


def _check_long(r, ctl):
    assert r.res.fits, "ran out of a %d-byte heap\n%s" % (r.res.limit, r.res.stderr[-2000:])
    assert r.states[-1] == ctl.match.state() and r.states[-1]["winner"] is not None
    assert "Match over" in r.screens[-1], r.screens[-1]
    restarts, error, healthy, feeds = r.status[-1]
    assert (restarts, error) == (0, "None") and feeds == healthy > 0


def test_whole_matches_with_the_journal_on_littlefs():
    for game in ("9ball", "8ball", "14.1", "10ball"):
        keys, ctl = _long(game)
        if game == "14.1":
            assert len(ctl.match.log) >= 800 and keys.count("D") == 50
        r = Run("oled", "keypad", "en", game, ["run 20"] + _chunks(keys) + ["state", "mark"],
                heap=HEAP_LFS, store="lfs")
        _check_long(r, ctl)


def test_a_power_cut_mid_match_resumes_it_on_the_same_flash():
    keys, ctl = _long("14.1")
    cut = 600
    a = Run("oled", "keypad", "en", "14.1", ["run 20"] + _chunks(keys[:cut]) + ["state", "mark"],
            heap=HEAP_LFS, store="lfs")
    assert a.res.fits and a.flash
    b = Run("oled", "keypad", "en", "14.1", ["run 100", "state", "mark"] + _chunks(keys[cut:]) +
            ["state", "mark"], heap=HEAP_LFS, store="lfs", flash=a.flash)
    assert b.states[0] == a.states[0]  # the same match, to the event
    assert any("Resumed" in row for row in b.screens[0]), b.screens[0]
    assert b.screens[0][:2] == a.screens[-1][:2]  # the same scores on screen
    _check_long(b, ctl)


def test_boot_on_damaged_flash_comes_up_with_a_screen():
    # On littlefs in the board-like VM: /match made a file, a valid 100 KB settings.json, a
    # flipped byte in a record file; the board boots (the next run on the same flash) to a
    # screen saying what it found, and never fails.
    keys = "2 5 1 " + "A B " * 14
    a = Run("oled", "keypad", "en", "14.1", ["run 20", "keys " + keys, "state", "mark"],
            heap=HEAP_LFS, store="lfs")
    assert a.res.fits and a.flash
    for what, says in (("match/e0/6", ("Resumed", "Unreadable match")),
                       ("bigcfg", ("Bad setting: settings",)),
                       ("matchfile", ("Unreadable match",))):
        d = Run("oled", "keypad", "en", "14.1", ["run 20", "damage " + what, "mark"],
                heap=HEAP_LFS, store="lfs", flash=a.flash)
        assert d.res.fits, d.res.stderr[-2000:]
        b = Run("oled", "keypad", "en", "14.1", ["run 100", "mark", "keys 5", "mark"],
                heap=HEAP_LFS, store="lfs", flash=d.flash)
        assert b.res.fits, b.res.stderr[-2000:]
        shown = " ".join(b.screens[0])
        assert any(s in shown for s in says), (what, b.screens[0])
        restarts, error, healthy, feeds = b.status[-1]
        assert (restarts, error) == (0, "None") and feeds == healthy > 0, (what, b.status)
