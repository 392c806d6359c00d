# Memory figures measured inside the board-like MicroPython (run by host_tools/bench.py through
# host_tools/mpy.py), with the match on a journal in the VM's filesystem as on a board.
import gc
import time

from firmware.journal import Journal

alloc = gc.mem_alloc  # pyright: ignore[reportAttributeAccessIssue] (MicroPython only)

# What a board holds while a 14.1 match is played on an OLED with a keypad (the new-match screen,
# the shape checks and the other games' rules are loaded only when needed).
CORE = ("firmware.rules", "firmware.rules_141", "firmware.match", "firmware.journal")
APP = CORE + ("firmware.store", "firmware.ui", "firmware.lang", "firmware.views",
              "firmware.keys", "firmware.drivers.oled", "ssd1306", "firmware.app")
START = "8 6 5 2".split()  # setup: a player's name, start, player 2 breaks
KEYS = "B A 3 5 A B 0 C * C".split()
MADE = {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True}
MISS = {"t": "shot", "first": 1, "rail": True}
BREAK = {"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True}


def _steps():
    base = alloc()
    for m in CORE:
        __import__(m)
    yield
    core = alloc() - base
    for m in APP:
        __import__(m)
    from firmware import lang

    lang.t("en", "made")  # the texts of the language on screen
    yield
    app = alloc() - base
    print("resident: core %d bytes (with the journal), app %d bytes (modules as .mpy, English "
          "texts)" % (core, app))

    from firmware.match import Match
    m = Match(Journal("bench_j"))
    m.apply({"t": "new", "game": "14.1", "players": ["A", "B"], "target": [10000, 10000]}, False)
    m.apply({"t": "lag", "breaker": 0}, False)
    m.apply(BREAK, False)
    yield
    n = 160
    a = alloc()
    for i in range(n):
        m.apply(MADE if i % 3 else MISS, False)
    per_event = (alloc() - a) // n
    yield
    a = alloc()
    for _ in range(10):
        m.apply({"t": "undo"}, False)
    per_undo = (alloc() - a) // 10
    m.log.close()
    yield
    print("per event: %d bytes allocated (journal write included); per undo: %d bytes"
          % (per_event, per_undo))
    for n in (10, 100, 1000, 5000):  # resume from flash: flat in the length of the match
        j = Journal("bench_r%d" % n)
        r = Match(j)
        r.apply({"t": "new", "game": "14.1", "players": ["A", "B"], "target": [100000, 100000]},
                False)
        r.apply({"t": "lag", "breaker": 0}, False)
        r.apply(BREAK, False)
        for i in range(n - 3):
            r.apply(MADE if i % 3 else MISS, False)
        j.close()
        r = j = None
        gc.collect()
        t = time.ticks_us()  # pyright: ignore[reportAttributeAccessIssue]
        r = Match(Journal("bench_r%d" % n).open())
        r.rebuild()
        dt = time.ticks_diff(time.ticks_us(), t)  # pyright: ignore[reportAttributeAccessIssue]
        print("resume at %d events: %d us on this machine, %d events replayed"
              % (n, dt, len(r.log.lines)))
        r.log.close()
        r = None
        yield

    from firmware.store import Store
    from firmware.ui import Controller
    c = Controller("keypad", "en", "14.1", Store("bench_s"))
    for k in START:
        c.key("press", k)
    yield
    a = alloc()
    for k in KEYS:
        c.key("press", k)
    per_key = (alloc() - a) // len(KEYS)
    yield
    from firmware import views
    views.render(c.model(), "oled")  # the first render of a screen also makes its names
    yield
    a = alloc()
    views.render(c.model(), "oled")
    render = alloc() - a
    print("per key press (controller, journal write included): %d bytes allocated; one OLED "
          "render: %d bytes" % (per_key, render))


for _ in _steps():
    gc.collect()  # between the figures, so that each one starts clean
