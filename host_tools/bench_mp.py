# Memory figures measured inside MicroPython (run by host_tools/bench.py through host_tools/mpy.py).
import gc

alloc = gc.mem_alloc  # pyright: ignore[reportAttributeAccessIssue] (MicroPython only)

CORE = ("firmware.events", "firmware.rules", "firmware.stjson", "firmware.match")
APP = CORE + ("firmware.ui", "firmware.lang", "firmware.views", "firmware.keys",
              "firmware.drivers.oled", "ssd1306", "firmware.hw", "firmware.app")
KEYS = "8 6 6 8 4 4 4 4 4 8 4 4 4 4 4 8 8 8 5 2 B A 3 5 A B 0 C * C".split()


def _steps():
    # Each yield returns to the top level, where the VM collects garbage.
    base = alloc()
    for m in CORE:
        __import__(m)
    yield
    core = alloc() - base
    for m in APP:
        __import__(m)
    yield
    app = alloc() - base
    print("resident: core %d bytes, app %d bytes (modules as .mpy)" % (core, app))

    from firmware.match import Match
    m = Match()
    m.apply({"t": "new", "game": "14.1", "players": ["A", "B"], "target": [10000, 10000]})
    m.apply({"t": "lag", "breaker": 0})
    m.apply({"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True})
    yield
    made = {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True}
    miss = {"t": "shot", "first": 1, "rail": True}
    n = 200
    a = alloc()
    for i in range(n):
        m.apply(made if i % 3 else miss)
    per_event = (alloc() - a) // n
    yield
    live = alloc()
    a = alloc()
    for _ in range(10):
        m.apply({"t": "undo"})
    per_undo = (alloc() - a) // 10
    yield
    print("per event: %d bytes allocated; per undo: %d bytes; a %d-event match: %d bytes "
          "live with the app loaded" % (per_event, per_undo, len(m.log), live - app - base))

    from firmware.ui import Controller
    c = Controller("keypad", "en", "14.1")
    yield
    a = alloc()
    for k in KEYS:
        c.key("press", k)
    per_key = (alloc() - a) // len(KEYS)
    yield
    from firmware import views
    a = alloc()
    views.render(c.model(), "oled")
    render = alloc() - a
    print("per key press (controller): %d bytes allocated; one OLED render: %d bytes"
          % (per_key, render))


_mp_steps = _steps()
