# make bench: speed on CPython and memory on the board-like MicroPython, printed and written into
# docs/figures.md (host_tools/figures.py) as each figure is measured.
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from firmware.match import Match
from firmware.ui import Controller
from host_tools import figures, mpy

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
    per_event = dt / (n * reps) * 1e6
    print("CPython: %.1f us per event (replaying the %d-event scenario corpus %d times)"
          % (per_event, n, reps))
    m = Match()
    m.apply({"t": "new", "game": "14.1", "players": ["A", "B"], "target": [10000, 10000]})
    m.apply({"t": "lag", "breaker": 0})
    m.apply({"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True})
    for _ in range(1000):
        m.apply({"t": "shot", "first": 1, "rail": True})
    t = time.perf_counter()
    for _ in range(100):
        m.apply({"t": "undo"})
    per_undo = (time.perf_counter() - t) / 100 * 1e6
    print("CPython: %.0f us per undo at the end of a 1000-event match" % per_undo)
    c = Controller("keypad", "en", "14.1")
    c.resume([{"t": "new", "game": "14.1", "players": ["A", "B"], "target": [100000, 100000]},
              {"t": "lag", "breaker": 0},
              {"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True}])
    keys = ["A", "A", "3", "5", "A", "B", "0", "C", "*"] * 300
    t = time.perf_counter()
    for k in keys:
        c.key("press", k)
    assert len(c.match.log) > 1500, len(c.match.log)
    per_key = (time.perf_counter() - t) / len(keys) * 1e6
    print("CPython: %.0f us per key press through the controller (a shot every 1.3 keys)"
          % per_key)
    load = " (load average %.1f on %d cores)" % (os.getloadavg()[0], os.cpu_count() or 1)
    figures.update({"cpy.event": "%.1f µs" % per_event + load,
                    "cpy.undo": "%.0f µs" % per_undo + load, "cpy.key": "%.0f µs" % per_key + load})


def sizes():
    total = 0
    with tempfile.TemporaryDirectory() as d:
        for src in sorted((ROOT / "firmware").rglob("*.py")):
            out = Path(d) / "x.mpy"
            subprocess.run(mpy.mpy_cross_cmd(src, out), check=True)
            total += out.stat().st_size
    version = subprocess.run([mpy.mpy_cross(), "--version"], capture_output=True,
                             text=True).stdout.split()[1]
    print("firmware .mpy (mpy-cross %s): %d bytes (budget %d, tests/test_mpy_cross.py)" % (
        version, total, mpy.MPY_BUDGET))
    figures.update({"mpy.total": "{:,} bytes (mpy-cross {})".format(total, version)})


def micropython():
    res = mpy.run_module("host_tools.bench_mp", heap="136K")
    lines = res.stdout.splitlines()
    sys.stdout.write("".join("MicroPython: " + line + "\n" for line in lines
                             if not line.startswith(FIG)))
    if res.returncode:
        sys.stderr.write(res.stderr)
        return
    figures.update(mp_figures([json.loads(x[len(FIG):]) for x in lines if x.startswith(FIG)]))


FIG = "FIGURE "  # host_tools/bench_mp.py's lines for the table: FIGURE {"name": value, ...}


def _b(n):
    return "{:,} bytes".format(n) if n < 1000 else "%.1f KB" % (n / 1024)


def mp_figures(found):
    # docs/figures.md's values from bench_mp's FIGURE lines.
    f = {}
    for d in found:
        f.update(d)
    out = {"mp.core": "{:,} bytes".format(f["core"]), "mp.app": "{:,} bytes".format(f["app"]),
           "mp.event": "%d B" % f["event"], "mp.undo": _b(f["undo"]).replace(" bytes", " B"),
           "mp.render": _b(f["render"]).replace(" bytes", " B")}
    for n, (us, replayed) in f["resume"].items():
        out["mp.resume." + n] = "%.2f ms, %d events replayed" % (us / 1000, replayed)
    k = f["key.vm"]
    out["mp.key.vm"] = ("%d B: controller %d, rules %d, journal %d (the record %d, opening its "
                        "files %d, snapshots %d, packs %d)" % tuple(
                            k[x] for x in ("total", "controller", "rules", "journal", "record",
                                           "open", "snap", "pack")))
    k = f["key.lfs"]
    out["mp.key.lfs"] = ("%d B: the journal %d (the record %d, opening its files %d, snapshots "
                         "%d, packs %d)" % tuple(k[x] for x in ("total", "journal", "record",
                                                                "open", "snap", "pack")))
    return out


def _long_141(n):
    from tests.helpers import long_141

    return "".join(json.dumps(ev) + "\n" for ev in long_141(n, seed=21, undo_every=29)).encode()


def core_heap():
    # The smallest -X heapsize at which the rules core with the journal plays a 14.1 match of n
    # events read a line at a time (host_tools/core_mp.py), and tests.mp_replay's (shape checks
    # and refusal texts too) for 5,000 events.
    heaps = []
    for n in (10, 100, 1000, 5000):
        data = _long_141(n)
        heaps.append(mpy.smallest_heap(lambda h, d=data: mpy.run_module(
            "host_tools.core_mp", heap=h, files={"long.jsonl": d}), step=512))
    print("MicroPython, rules core + journal, smallest heap for a 14.1 match of 10 / 100 / 1,000 /"
          " 5,000 events: %s bytes" % " / ".join("{:,}".format(f) for f in heaps))
    figures.update({"heap.core.%d" % n: figures.kb(f) for n, f in zip((10, 100, 1000, 5000),
                                                                       heaps)})
    data = _long_141(5000)
    n = mpy.smallest_heap(lambda h: mpy.run_module("tests.mp_replay", ["long.jsonl"], heap=h,
                                                   files={"long.jsonl": data}), step=512)
    print("MicroPython, tests.mp_replay of a 5,000-event 14.1 match: smallest heap %d bytes" % n)
    figures.update({"heap.replay": figures.kb(n)})


def app_heap():
    # The whole app (host_tools.appheap, as tests/test_app_mp.py runs it) with the match on
    # littlefs: the smallest heap at which each long match plays from setup to match over, run
    # from the .mpy tree as a stock firmware runs it, then with the firmware frozen into the VM
    # as a custom image has it (tests/test_app_frozen.py).
    from host_tools.appheap import Run
    from tests.matchkeys import match_keys
    from tests.test_app_mp import LONG, _chunks

    exe = mpy.frozen_vm()
    for game in ("9ball", "8ball", "14.1"):
        setup, undos, events = LONG[game]
        keys, ctl = match_keys(game, setup, undos, events)
        want = ctl.match.state()

        def job(h, keys=keys, game=game, want=want):
            r = Run("oled", "keypad", "en", game, ["run 20"] + _chunks(keys) + ["state"],
                    heap=h, store="lfs")
            ok = r.res.fits and r.states and r.states[-1] == want and r.status[-1][:2] == (
                0, "None")
            return mpy.Result(0 if ok else 1, "", "")

        n = mpy.smallest_heap(job, lo=48 * 1024, hi=192 * 1024)
        f = 0
        if exe is not None:
            saved = dict(os.environ)
            os.environ.update(MICROPYTHON=str(exe), MICROPYTHON_FROZEN="1")
            try:
                f = mpy.smallest_heap(job, lo=16 * 1024, hi=192 * 1024)
            finally:
                os.environ.clear()
                os.environ.update(saved)
        print("MicroPython, whole app (OLED, keypad, journal on littlefs), %s: %d events, %d "
              "keys, smallest heap %d bytes from .mpy files, %s frozen" % (
                  game, len(ctl.match.log), len(keys), n,
                  "%d bytes" % f if exe else "(no frozen VM)"))
        size = "%s events" % "{:,}".format(len(ctl.match.log))
        if game == "8ball":
            size += ", %d keys" % len(keys)
        got = {"heap.app." + game: "%s (%s)" % (figures.kb(n), size)}
        if exe is not None:
            got["heap.frozen." + game] = figures.kb(f)
        figures.update(got)


def commits(f: dict) -> str:
    """The figure of the commits of a match that erased one sector, and two or more."""
    n = f["commit_erases"]
    one = n[1] if len(n) > 1 else 0
    more = sum(n[2:])
    total = sum(n)
    return "%d of %d commits erase one sector (%.1f%%), %d two (%.1f%%)" % (
        one, total, 100 * one / total, more, 100 * more / total)


def flash():
    from host_tools import norflash

    w = norflash.wear_figures()
    for line in norflash.report(w):
        print(line)
    m141, m9 = w["m141"], w["m9"]
    figures.update({
        "nor.m141.erases": "%d (%s events: %.2f an event, at most %d of one block)" % (
            m141["erases"], "{:,}".format(m141["events"]), m141["erases_per_event"],
            m141["max_block"]),
        "nor.m141.bytes": "%.0f bytes" % m141["bytes_per_event"],
        "nor.m141.commits": commits(m141),
        "nor.m9.erases": "%d (%d events)" % (m9["erases"], m9["events"]),
        "nor.m9.bytes": "%.0f bytes" % m9["bytes_per_event"],
        "nor.space": "%d of %d blocks" % (m141["blocks_used"], w["block_count"]),
        "nor.wear": "%.1f%% of {:,} cycles".format(w["cycles"]) % (100 * m141["wear_levelled"]),
        "nor.wear.one_file": "%.1f%%" % (100 * w["one_file"]["wear_levelled"])})


if __name__ == "__main__":
    from host_tools import cli

    cli.parser("host_tools.bench", "make bench: speed on CPython and memory on the board-like "
               "MicroPython, printed as the README reports them.").parse_args()
    cpython()
    sizes()
    micropython()
    core_heap()
    app_heap()
    flash()
