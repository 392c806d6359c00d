# Memory figures measured inside MicroPython (run by host_tools/bench.py through host_tools/mpy.py).
import gc

alloc = gc.mem_alloc  # pyright: ignore[reportAttributeAccessIssue] (MicroPython only)

# What a board holds while a 14.1 match is played on an OLED with a keypad (the new-match screen,
# the shape checks and the other games' rules are loaded only when needed).
CORE = ("firmware.rules", "firmware.rules_141", "firmware.match")
APP = CORE + ("firmware.ui", "firmware.lang", "firmware.views", "firmware.keys",
              "firmware.drivers.oled", "ssd1306", "firmware.app")
KEYS = "8 6 8 4 4 4 4 4 8 4 4 4 4 4 8 8 8 5 2 B A 3 5 A B 0 C * C".split()


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
    print("resident: core %d bytes, app %d bytes (modules as .mpy, English texts)" % (core, app))

    from firmware.match import Match
    m = Match()
    m.apply({"t": "new", "game": "14.1", "players": ["A", "B"], "target": [10000, 10000]}, False)
    m.apply({"t": "lag", "breaker": 0}, False)
    m.apply({"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True}, False)
    yield
    made = {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True}
    miss = {"t": "shot", "first": 1, "rail": True}
    n = 200
    a = alloc()
    for i in range(n):
        m.apply(made if i % 3 else miss, False)
    per_event = (alloc() - a) // n
    yield
    live = alloc()
    a = alloc()
    for _ in range(10):
        m.apply({"t": "undo"}, False)
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
    views.render(c.model(), "oled")  # the first render of a screen also makes its names
    yield
    a = alloc()
    views.render(c.model(), "oled")
    render = alloc() - a
    print("per key press (controller): %d bytes allocated; one OLED render: %d bytes"
          % (per_key, render))


for _ in _steps():
    gc.collect()  # between the figures, so that each one starts clean
