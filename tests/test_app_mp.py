# mp: yes
# The app (App + Controller + views + SSD1306 driver) on fake pins and I2C under MicroPython: a whole match.
import gc

from tests.apprig import Rig

# 9-ball, race 1-1 set on the setup screen, player 1 breaks and makes the 9: match over.
NINE = "8 8 8 4 4 4 4 8 4 4 4 4 8 8 8 8 8 5 1 9 A"


def _heap(label):
    # Heap in use after a collection (MicroPython only; CPython's gc has no mem_alloc).
    if not hasattr(gc, "mem_alloc"):
        return -1
    gc.collect()
    used = gc.mem_alloc()  # type: ignore
    free = gc.mem_free()  # type: ignore
    print("app heap %s: %d bytes in use after gc, heap %d" % (label, used, used + free))
    return used


def steps_whole_match_on_the_oled():
    rig = Rig("oled", "keypad", "en", "9ball", lean=True)
    yield
    rig.run(20)
    yield
    first = rig.screen()
    yield
    for _ in rig.key_steps(NINE):
        yield
    st = rig.state()
    assert st["winner"] == 0 and st["players"][0]["racks"] == 1, st
    yield
    assert rig.screen() != first
    yield
    assert rig.wdt.feeds == rig.healthy and rig.runner.restarts == 0
    _heap("after a 9-ball match")


def steps_soft_restart_keeps_the_match():
    rig = Rig("oled", "keypad", "tr", "8ball", error_ms=100, lean=True)
    yield
    for _ in rig.key_steps("2 5 1 1 A B"):
        yield
    before = rig.state()
    n = len(rig.ctl.match.log)

    def boom(kind, name):
        raise RuntimeError("x")

    rig.ctl.key = boom
    yield
    rig.press("A")
    assert rig.runner.error == "RuntimeError"
    yield
    assert rig.screen()[0] == "HATA"
    yield
    for _ in range(8):       # the error screen for 100 ms, then the restart
        rig.run(25)
        yield
    assert rig.runner.restarts == 1 and rig.runner.error is None
    assert rig.state() == before and len(rig.ctl.match.log) == n
    _heap("after a soft restart")


def steps_lcd_and_digits_too():
    for kind in ("lcd20", "digits"):
        rig = Rig(kind, "buttons", "en", "14.1", lean=True)
        yield
        rig.run(20)
        n = len(rig.ctl.model()["items"])
        yield
        for _ in rig.key_steps(" ".join(["P1"] * (n - 1) + ["FOUL", "P1", "P1", "P1"])):
            yield
        assert rig.state()["players"][0]["score"] == 2
        rig = None
        yield


def _drain(steps):
    for _ in steps:
        pass


def test_whole_match_on_the_oled():
    _drain(steps_whole_match_on_the_oled())


def test_soft_restart_keeps_the_match():
    _drain(steps_soft_restart_keeps_the_match())


def test_lcd_and_digits_too():
    _drain(steps_lcd_and_digits_too())
