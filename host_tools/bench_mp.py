# Memory figures measured inside the board-like MicroPython (run by host_tools/bench.py through
# host_tools/mpy.py), with the match on a journal in the VM's filesystem as on a board. Each
# figure is printed as a line to read and as a FIGURE line of JSON for docs/figures.md.
import gc
import json
import time

alloc = gc.mem_alloc  # pyright: ignore[reportAttributeAccessIssue] (MicroPython only)


def figure(d):
    print("FIGURE " + json.dumps(d))  # host_tools/bench.py FIG

# What a board holds while a 14.1 match is played on an OLED with a keypad (the new-match screen,
# the shape checks and the other games' rules are loaded only when needed).
CORE = ("firmware.rules", "firmware.rules_141", "firmware.match", "firmware.journal")
APP = CORE + ("firmware.store", "firmware.table", "firmware.ui", "firmware.lang",
              "firmware.views", "firmware.keys", "firmware.drivers.oled", "ssd1306", "firmware.app")
START = "8 6 5 2".split()  # setup: a player's name, start, player 2 breaks
KEYS = "B A 3 5 A B 0 C * C".split()
MADE = {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True}
MISS = {"t": "shot", "first": 1, "rail": True}
BREAK = {"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True}


WHERE = {"vm": "journal on the VM's filesystem", "lfs": "journal on littlefs (VfsLfs2, 4 KB "
         "blocks, progsize 256, as a Pico mounts it)"}
REPS = 48  # the keys 48 times: 480 presses, 277 events (six packs, 17 snapshots)
SPLIT = ("total", "controller", "rules", "match", "journal", "record", "open", "snap", "pack")


def _play(where):
    # A controller in play (14.1 to 1,000), its match on a Store on the VM's filesystem or on a
    # littlefs filesystem, a few keys in.
    import os

    from firmware.store import Store
    from firmware.table import Table
    from firmware.ui import Controller
    if where == "lfs":
        import vfs  # pyright: ignore[reportMissingImports]

        from host_tools.fileflash import FileFlash

        bdev = FileFlash("bench_flash.bin", 96)
        vfs.VfsLfs2.mkfs(bdev, progsize=256)
        vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/lfs")
        root = "/lfs"
    else:
        root = "bench_s"
        os.mkdir(root)
    c = Controller("keypad", "en", "14.1", Table(Store(root), "14.1"))
    c.cfg["t1"] = c.cfg["t2"] = 1000
    for k in START:
        c.key("press", k)
    for k in KEYS:
        c.key("press", k)
    assert c.mode == "play", c.mode
    return c


def _per_key(c):
    # Bytes allocated by KEYS pressed REPS times, the collector off during each press, split by
    # layer: each function below wrapped to add what it allocated (all below it included) to
    # its slot; a record file's opening is the _create of mode "ab" (a snapshot's is "wb").
    from firmware import journal, rules
    from firmware.journal import Journal
    from firmware.match import Match
    from firmware.table import Table

    acc = {k: 0 for k in SPLIT}
    acc["later"] = 0  # the table's after_screen: the held records written, then tidy()
    saved = []

    def wrap(owner, name, slot):
        # (Fixed arities: a *args wrapper would allocate its tuple at each call.)
        f = getattr(owner, name)
        saved.append((owner, name, f))

        def w1(x):
            a = alloc()
            r = f(x)
            acc[slot] += alloc() - a
            return r

        def w2(x, y):
            a = alloc()
            r = f(x, y)
            if slot != "open" or y == "ab":
                acc[slot] += alloc() - a
            return r

        def w3(x, y, z):
            a = alloc()
            r = f(x, y, z)
            acc[slot] += alloc() - a
            return r

        def w4(x, y, z, m=False):  # (Journal.append: an action's "more follows" too)
            a = alloc()
            r = f(x, y, z, m)
            acc[slot] += alloc() - a
            return r
        setattr(owner, name, w4 if slot == "journal" else w3 if slot == "match" else
                w1 if slot == "later" else w2)

    wrap(rules, "apply", "rules")
    wrap(Match, "apply", "match")  # (self, ev, check)
    wrap(Journal, "append", "journal")  # (self, ev, state)
    wrap(Journal, "_snapped", "snap")  # (self, state)
    wrap(Journal, "_pack", "pack")  # (self, n)
    wrap(journal, "_create", "open")  # (path, mode)
    wrap(Table, "after_screen", "later")  # (self)
    c.table.defer()  # as the app: a key's records written once its screens are out
    head = c.match.log.head
    gc.collect()
    for _ in range(REPS):
        for k in KEYS:
            gc.disable()
            a = alloc()
            c.key("press", k)
            c.saved()  # (what the app asks once the screens are out)
            acc["total"] += alloc() - a
            gc.enable()
            gc.collect()
    for owner, name, f in saved:
        setattr(owner, name, f)
    out = dict(acc)
    out["events"] = c.match.log.head - head
    out["controller"] = acc["total"] - acc["match"] - acc["later"]
    out["match"] = acc["match"] - acc["rules"] - acc["journal"]
    out["journal"] = acc["journal"] + acc["later"]
    out["record"] = out["journal"] - acc["snap"] - acc["pack"] - acc["open"]
    return out


def _counted(f, x):
    # The bytes f(x, False) allocates, the collector off meanwhile.
    gc.collect()
    gc.disable()
    a = alloc()
    f(x, False)
    a = alloc() - a
    gc.enable()
    return a


def _steps():
    # (The journal is imported with the core, not before: it is part of the core's figure; and
    # garbage left from loading this module is collected first, so that it is not subtracted.)
    gc.collect()
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
    figure({"core": core, "app": app})

    from firmware.journal import Journal
    from firmware.match import Match
    m = Match(Journal("bench_j"))
    m.apply({"t": "new", "game": "14.1", "players": ["A", "B"], "target": [10000, 10000]}, False)
    m.apply({"t": "lag", "breaker": 0}, False)
    m.apply(BREAK, False)
    yield
    n = 160
    per_event = 0
    for i in range(n):  # (the collector off during each: a collection would hide bytes)
        per_event += _counted(m.apply, MADE if i % 3 else MISS)
    per_event //= n
    yield
    per_undo = 0
    for _ in range(10):
        per_undo += _counted(m.apply, {"t": "undo"})
    per_undo //= 10
    m.log.close()
    yield
    print("per event: %d bytes allocated (journal write included); per undo: %d bytes"
          % (per_event, per_undo))
    figure({"event": per_event, "undo": per_undo})
    resume = {}
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
        resume[str(n)] = [dt, len(r.log.lines)]
        r.log.close()
        r = None
        yield

    figure({"resume": resume})
    from firmware.ui import Controller
    c = None
    for where in ("vm", "lfs"):
        c = None
        gc.collect()
        c = _play(where)
        yield
        split = _per_key(c)
        print("per key press in play, %s (%d keys, %d events): %d bytes allocated: controller %d,"
              " rules %d, match %d, journal %d (the record %d, its files' opening %d, snapshots "
              "%d, packs %d)" % ((WHERE[where], len(KEYS) * REPS, split["events"]) +
                                 tuple(split[k] // (len(KEYS) * REPS) for k in SPLIT)))
        figure({"key." + where: {k: split[k] // (len(KEYS) * REPS) for k in SPLIT}})
        c.match.log.close()
        yield
    c = Controller("keypad", "en", "14.1")
    for k in START:
        c.key("press", k)
    yield
    from firmware import views
    views.render(c.model(), "oled")  # the first render of a screen also makes its names
    yield
    a = alloc()
    views.render(c.model(), "oled")
    render = alloc() - a
    print("one OLED render: %d bytes" % render)
    figure({"render": render})


for _ in _steps():
    gc.collect()  # between the figures, so that each one starts clean
