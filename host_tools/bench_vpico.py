"""Figures of the exact firmware on the virtual Pico (host_tools/vpico), in emulated time.

    python -m host_tools.bench_vpico [--keys 2,5,1,B,A,...]
    python -m host_tools.bench_vpico --heap [--display KIND] [--wall KIND] [--race N]
    python -m host_tools.bench_vpico --flash-timing

A blank virtual Pico; `make deploy`'s code puts the build on it (copy time, wall); then, read
from the emulator's own log of GPIO edges and I2C transactions (emulated microseconds):
  - boot to first screen: power-on to the last I2C byte of the first complete screen;
  - press to pixels, for each key of a 14.1 match: from the GPIO edge of the key's contact to
    the last I2C byte of the new screen (bus time included), how many screen updates the press
    caused, and from the release; where the time went (input: to the loop pass that took the
    key; work: that pass up to the first byte; bus: to the last byte); the median of all keys
    and of each kind in play (made ball, miss, foul); then again on a board with the NeoPixel
    wall panel too, to the last bit of the wall's frame on GP28 as well;
  - boot to a resumed match after a power cut (the journal on flash);
  - press to pixels again with the flash's erases and programs taking a W25Q16JV's typical time
    (--flash-timing alone: only that), which the emulator otherwise counts as none;
  - the heap at the worst moment of a whole match (--heap alone: only that): a 9-ball race
    (tests/matchkeys.py) keyed on the keypad of a board with the OLED and the NeoPixel wall (or
    --display/--wall), its main.py boards/main.py with one change: the app module's `gc` is a
    stand-in whose collect() notes gc.mem_free() before and after collecting. Between the
    app's collections (one after each screen update) the heap only fills, so the lowest free
    heap before one of them is the lowest of the match, as long as no automatic collection
    ran (none can while that figure stays far from 0); after them, the most live data.
The emulator counts no flash (XIP) cache stalls: a real Pico computes somewhat slower.
Each figure measured with the default keys and boards is written into docs/figures.md
(host_tools/figures.py) as it is measured.
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from host_tools import deploy, figures, sim, vpico
from host_tools.mpy import ROOT

# Setup: up to Start, ok; P1 breaks; a dry break, made balls, misses, a foul, a safety...; then
# the screens that change most: three fouls in a row by P2 (the warning after the second, the
# 15-point penalty and the new rack after the third), and a run of four balls
KEYS: list[str] = list("2 5 1 B A A B 1 2 A C B * B A B C B C B C 3 A 1 2 3 4 A B A".split())
# Emulated time given to each key: its screen and its record (the mark cleared) are out within
# 100 ms of its contact, its release debounced by 115 ms.
WINDOW_MS = 300


def frames_after(events, t0, t1=None):
    """The screen updates (data transactions grouped by the loop pass that sent them) from t0
    to t1: [(first byte us, last byte us, bytes)]."""
    out: dict[int, list] = {}
    for e in events:
        if e.get("ev") != "i2c" or not e.get("data") or e["t0"] < t0:
            continue
        if t1 is not None and e["t0"] >= t1:
            continue
        f = out.setdefault(e["pass"], [e["t0"], e["t1"], 0])
        f[1] = max(f[1], e["t1"])
        f[2] += e["bytes"]
    return [tuple(v) for _, v in sorted(out.items())]


def first_screen_us(b: vpico.VPico) -> tuple[int, int]:
    """(emulated us from power-on to the last byte of this boot's first screen, its bytes):
    the first update that lights pixels (the driver's init sends a blank frame before), with
    those right after it (within 20 ms)."""
    ev = [e for e in b.log() if e.get("ev") == "i2c" and e.get("data")]
    start = next((i for i, e in enumerate(ev) if e.get("lit")), None)
    if start is None:
        return 0, 0
    end, total = ev[start]["t1"], ev[start]["bytes"]
    for e in ev[start + 1:]:
        if e["t0"] - end > 20000:
            break
        end, total = e["t1"], total + e["bytes"]
    return end, total


def press_to_pixels(b: vpico.VPico, key: str) -> dict:
    """One key pressed (held 80 ms): the time from its contact to the last I2C byte of its
    screen, and where it went: input (the contact to the start of the loop pass that took
    the key: the first sample, and the contact held contact_ms), work (that pass's scan,
    judging, rendering and drawing up to the first byte) and bus (the first byte to the last,
    drawing between the windows included); with a wall panel, to the last NeoPixel byte."""
    seq = b.stats()["seq"]
    t0 = b.time_us()
    b.press(key)
    b.wait(WINDOW_MS)
    ev = b.log(seq)
    down = next(e["t"] for e in ev if e.get("ev") == "down" and e["key"] == key)
    up = next(e["t"] for e in ev if e.get("ev") == "up" and e["key"] == key)
    frames = frames_after(ev, down)
    if not frames:
        return {"key": key, "updates": 0}
    last = frames[-1][1]
    first = min(e["t0"] for e in ev if e.get("ev") == "i2c" and e.get("data") and e["t0"] >= down)
    # The key's records are written after its screen, which is then drawn again without its
    # unsaved mark: its pixels are the bytes before the first flash operation after the
    # screen's first byte, and the mark is cleared by the last byte.
    fl = [e["t"] for e in ev if e.get("ev") == "flash" and first <= e["t"] <= last]
    saved = last
    if fl:
        last = max([e["t1"] for e in ev if e.get("ev") == "i2c" and e.get("data")
                    and first <= e["t0"] and e["t1"] <= fl[0]] or [last])
    p = next(e["pass"] for e in ev if e.get("ev") == "i2c" and e.get("data") and e["t0"] >= down)
    start = dict(b.passes(t0)).get(p, down)
    erases = sum(1 for e in ev if e.get("ev") == "flash" and e["op"] == "erase"
                 and down <= e["t"] <= saved)
    r = {"key": key, "updates": len(frames), "ms": (last - down) / 1000, "erases": erases,
         "saved_ms": (saved - down) / 1000, "writes": len(fl),
         "from_release_ms": (last - up) / 1000, "bytes": sum(f[2] for f in frames),
         "input_ms": (start - down) / 1000, "work_ms": (first - start) / 1000,
         "bus_ms": (last - first) / 1000}
    neo = [e for e in ev if e.get("ev") == "neopixel" and e["t1"] >= down]
    if neo:
        r["wall_ms"] = (max(e["t1"] for e in neo) - down) / 1000
        r["wall_updates"] = len(neo)
    return r


# What the keys of KEYS do in play (the first three set the match up and break).
KINDS = {"A": "made ball", "B": "miss", "C": "foul"}


def _spread(v: list[float]) -> str:
    return "%.1f ms median (%.1f-%.1f over %d)" % (statistics.median(v), min(v), max(v), len(v))


def note_presses(rows: list[dict], what: str, prefix: str) -> None:
    """docs/figures.md's rows for a press-to-pixels run of KEYS (another run's keys: none)."""
    if [r["key"] for r in rows] != KEYS:
        return
    ms = [r[what] for r in rows if what in r]
    got = {prefix: "%.1f ms (%d keys, %d with more than one update)" % (
        statistics.median(ms), len(ms),
        sum(r["updates" if what == "ms" else "wall_updates"] > 1 for r in rows if what in r))}
    if prefix == "pico.flash.press":
        play = [r["ms"] for r in rows[3:] if "ms" in r]
        got[prefix] = "%.1f ms, at most %.1f in play (%d keys)" % (
            statistics.median(ms), max(play), len(ms))
        got["pico.flash.saved"] = saved_line(rows)
        slow = [r for r in rows if r.get("erases")]
        got["pico.flash.erase"] = "%s (%d sector erases in %d keys)" % (
            "%.1f-%.1f ms, the mark cleared at %.1f-%.1f ms" % (
                min(r["ms"] for r in slow), max(r["ms"] for r in slow),
                min(r["saved_ms"] for r in slow), max(r["saved_ms"] for r in slow))
            if slow else "no key erased", sum(r.get("erases", 0) for r in rows), len(rows))
        figures.update(got)
        return
    for k, kind in KINDS.items():
        v = [r[what] for r in rows[3:] if r["key"] == k and what in r]
        if v:
            got["%s.%s" % (prefix, kind.split()[0])] = _spread(v)
    if prefix == "pico.press":
        setup = [r["ms"] for r in rows[:3] if "ms" in r]
        play = [r["ms"] for r in rows[3:] if "ms" in r]
        if setup:
            got["pico.press.setup"] = "%.1f-%.1f ms" % (min(setup), max(setup))
        if play and max(play) <= 50:
            got[prefix] += "; every key in play within 50 ms"
    else:
        i = max(range(len(rows)), key=lambda i: rows[i].get(what, 0))
        over = sum(1 for r in rows[3:] if r.get(what, 0) > 50)
        got[prefix + ".max"] = "%.1f ms (key %d of %d, `%s`); %d keys in play over 50 ms" % (
            rows[i][what], i + 1, len(rows), rows[i]["key"], over)
    figures.update(got)


def p99(v: list[float]) -> float:
    """The 99th percentile of v (nearest rank)."""
    s = sorted(v)
    return s[min(len(s) - 1, max(0, -(-99 * len(s) // 100) - 1))]


def saved_line(rows: list[dict]) -> str:
    """Press to the unsaved mark cleared, over the keys whose records were written."""
    v = [r["saved_ms"] for r in rows if r.get("writes")]
    if not v:
        return "no key wrote a record"
    return "median %.1f ms, p99 %.1f, max %.1f (%d keys that wrote records)" % (
        statistics.median(v), p99(v), max(v), len(v))


def print_presses(rows: list[dict], what: str = "ms", prefix: str | None = None) -> None:
    """The press-to-pixels summary: median and range of all keys, then of each kind in play;
    into docs/figures.md as prefix's rows (by default: the OLED board's, or the wall panel's
    for wall_ms; a wall board's OLED times have no row)."""
    ms = [r[what] for r in rows if what in r]
    if not ms:
        return
    if prefix is None and what == "wall_ms":
        prefix = "pico.wall"
    elif prefix is None and not any("wall_ms" in r for r in rows):
        prefix = "pico.press"
    if prefix:
        note_presses(rows, what, prefix)
    more = sum(r["updates" if what == "ms" else "wall_updates"] > 1 for r in rows if what in r)
    print("  press to pixels%s: median %.1f ms (%.1f-%.1f over %d keys), %d of them with more "
          "than one update" % ("" if what == "ms" else " on the wall panel",
                               statistics.median(ms), min(ms), max(ms), len(ms), more))
    for k, kind in KINDS.items():
        v = [r[what] for r in rows[3:] if r["key"] == k and what in r]
        if v:
            print("    %-9s (%s) median %.1f ms, %.1f-%.1f over %d" % (
                kind, k, statistics.median(v), min(v), max(v), len(v)))


def press_keys(b: vpico.VPico, keys: list[str]) -> list[dict]:
    rows = [press_to_pixels(b, k) for k in keys]
    for r in rows:
        if r["updates"]:
            wall = "  wall %5.1f ms" % r["wall_ms"] if "wall_ms" in r else ""
            saved = "  saved %5.1f ms" % r["saved_ms"] if r.get("writes") else ""
            print("    %-2s %6.1f ms  (%5.1f ms from the release; input %4.1f, work %4.1f, bus "
                  "%4.1f)  %d update(s), %4d bytes%s%s"
                  % (r["key"], r["ms"], r["from_release_ms"], r["input_ms"], r["work_ms"],
                     r["bus_ms"], r["updates"], r["bytes"], saved, wall))
        else:
            print("    %-2s  no screen update" % r["key"])
    return rows


# boards/main.py's app.run(...) line, and what the heap bench puts there instead.
RUN_LINE = "app.run(hw, time.ticks_ms, time.sleep_ms,"
WATCH = """
class _Gc:
    # firmware.app's gc for the heap bench: collect() notes the free heap before and after
    def __init__(self, gc):
        self.gc = gc
        self.low = [1 << 30, 1 << 30]
        self.n = 0

    def mem_free(self):
        return self.gc.mem_free()  # (the app's collect() asks it before filling the holes)

    def collect(self):
        gc = self.gc
        f = gc.mem_free()
        gc.collect()
        g = gc.mem_free()
        self.n += 1
        low = self.low
        if f < low[0] or g < low[1]:
            low[0] = min(low[0], f)
            low[1] = min(low[1], g)
            print("HEAP", low[0], low[1], g + gc.mem_alloc(), self.n)


def _watched(app):
    import gc

    from firmware import mem

    mem.gc = app.gc = _Gc(gc)  # (collect() is firmware.mem's)
    return app
"""


def idle_cpu(b: vpico.VPico, ms: int = 2000) -> float:
    """The share of the core's cycles (percent of 125 MHz) the firmware took over ms of
    emulated time: with no key, what the loop's passes cost (the core sleeps the rest)."""
    s0 = b.stats()
    b.wait(ms)
    s1 = b.stats()
    return (s1["cycles"] - s0["cycles"]) / ((s1["t_us"] - s0["t_us"]) * 125.0) * 100


def heap_main() -> str:
    """boards/main.py with firmware.app's gc replaced by the watching stand-in."""
    src = (deploy.ROOT / "boards" / "main.py").read_text()
    if RUN_LINE not in src:
        raise RuntimeError("boards/main.py no longer calls %r" % RUN_LINE)
    src = src.replace(RUN_LINE, "_watched(app).run(hw, time.ticks_ms, time.sleep_ms,")
    return src.replace("\ndef held():", WATCH + "\n\ndef held():")


def heap_match(display: str = "oled", wall: str | None = "neopixel", race: int = 5) -> dict:
    """The free heap at the worst moment of a whole 9-ball match on the real firmware."""
    from tests.matchkeys import match_keys

    keys, ctl = match_keys("9ball", {"race1": race, "race2": race})
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "board"
        shutil.copytree(deploy.build(), tree)
        (tree / "main.py").write_text(heap_main())
        opts: dict = {"display": display, "game": "9ball"}
        if wall:
            opts["wall"] = wall
        with vpico.VPico(display=display, wall=wall) as b:
            res = deploy.deploy(b.pty, "pico", tree=tree, options=opts, out=lambda s: None)
            b.wait_boot(1 + res["resets"])
            b.wait(1500)
            t = time.monotonic()
            boot = _heap_lines(b.serial(65536))
            for k in keys:
                b.press(k)
                b.wait(250)
            wall_s = time.monotonic() - t
            lines = _heap_lines(b.serial(65536))
            st = b.stats()
            host = sim.Sim(display=display, wall=wall, game="9ball")
            for k in keys:
                host.press(k)
            if b.text() != host._text() or (ctl.match.state() or {}).get("winner") is None:
                raise RuntimeError("the board did not play the match to its end: it shows %r, "
                                   "the host simulator %r" % (b.text(), host._text()))
    if not lines:
        raise RuntimeError("the board printed no HEAP lines")
    low_before, low_after, total, n = lines[-1]
    return {"keys": len(keys), "events": len(ctl.match.log), "boot": boot[-1] if boot else None,
            "low_free": low_before, "low_free_after_collect": low_after, "heap": total,
            "collections": n, "wall_s": wall_s, "passes": st["passes"], "display": display,
            "wall": wall, "race": race}


def _heap_lines(text: str) -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in m.groups())
            for m in re.finditer(r"HEAP (\d+) (\d+) (\d+) (\d+)", text)]


def print_heap(r: dict) -> None:
    if (r["display"], r["wall"], r.get("race")) == ("oled", "neopixel", 5):
        figures.update({
            "pico.heap.free": "{:,} of {:,} bytes (just before one of the app's {} collections)"
            .format(r["low_free"], r["heap"], r["collections"]),
            "pico.heap.live": "{:,} bytes".format(r["heap"] - r["low_free_after_collect"])})
    print("  heap at the worst moment of a whole match (9-ball, %d keys, %d events; %s%s): "
          "lowest free %d bytes of %d, just before one of the app's %d collections; most live "
          "data %d bytes (lowest free after one, %d); %.0f s wall"
          % (r["keys"], r["events"], r["display"], " + " + r["wall"] if r["wall"] else "",
             r["low_free"], r["heap"], r["collections"], r["heap"] - r["low_free_after_collect"],
             r["low_free_after_collect"], r["wall_s"]))


def flash_timed(tree: Path, keys: list[str]) -> list[dict]:
    """Press to pixels on a board whose flash takes its typical erase and program times
    (VPico(flash_timing=True): 45 ms a 4 KB sector, 0.4 ms a 256-byte page)."""
    with vpico.VPico(flash_timing=True) as b:
        res = deploy.deploy(b.pty, "pico", tree=tree, out=lambda s: None)
        b.wait_boot(1 + res["resets"])
        b.wait_text("New match", timeout=120)
        b.wait(300)
        erases = sum(1 for e in b.log() if e.get("ev") == "flash" and e["op"] == "erase")
        print("  with the flash's typical erase and program times (W25Q16JV: 45 ms a 4 KB "
              "sector, 0.4 ms a 256-byte page), press to pixels on the OLED:")
        rows = press_keys(b, keys)
        n = sum(1 for e in b.log() if e.get("ev") == "flash" and e["op"] == "erase") - erases
        print_presses(rows, prefix="pico.flash.press")
        print("    press to the unsaved mark cleared: " + saved_line(rows))
        print("    sector erases during those keys: %d" % n)
        return rows


# Figures the virtual-Pico tests measure on their way (deploy and mpremote times, the journal
# cuts a power cut hit): each test module keeps them in build/figures/MODULE.json when its board
# is done (save_test_figures), and `make bench-pico` prints the latest (--tests: only those).
FIGURES = ROOT / "build" / "figures"


def save_test_figures(module: str, figures: dict) -> Path:
    import json

    FIGURES.mkdir(parents=True, exist_ok=True)
    path = FIGURES / (module + ".json")
    path.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def print_test_figures() -> None:
    import json

    paths = sorted(FIGURES.glob("test_*.json"))
    if not paths:
        print("  figures of the tests: none yet (make test writes them to %s)" % FIGURES)
    for path in paths:
        print("  figures of tests/%s.py (the last make test):" % path.stem)
        for k, v in sorted(json.loads(path.read_text(encoding="utf-8")).items()):
            print("    %s: %s" % (k, v))


# The shot clock's bench: a 14.1 match with the WPA clock set on the new-match screen (up to
# Start, Lang, Clock; WPA; Start), P1 breaks, "#6" starts the countdown; then keys in play.
CLOCK_SETUP = "2 2 2 6 5 1 # 6".split()
CLOCK_KEYS = "B A B 1 2 A C B * B".split()
BUZZER_PIN = 26  # boards/README.md: the Pico's piezo on GP26


def clock_started(b: vpico.VPico, key: str) -> int:
    """Press key (the clock's start) and return the emulated us the countdown started at: the
    start of the loop pass that drew the key's screen (its ticks_ms is the clock's start)."""
    seq = b.stats()["seq"]
    from_us = b.time_us()
    b.press(key)
    b.wait(300)
    ev = b.log(seq)
    down = next(e["t"] for e in ev if e.get("ev") == "down" and e["key"] == key)
    p = next(e["pass"] for e in ev if e.get("ev") == "i2c" and e.get("data")
             and e["t0"] >= down)
    return dict(b.passes(from_us))[p]


def second_lags(frames: list, t0: int, first: int, last: int) -> list[float]:
    """For seconds first..last of a countdown started at t0 (us): how long after its true
    boundary the first screen update from then on was out (ms); a second without one is left
    out."""
    lat = []
    for k in range(first, last + 1):
        edge = t0 + k * 1000000
        after = [f for f in frames if f[0] >= edge]
        if after:
            lat.append((after[0][1] - edge) / 1000)
    return lat


def clock_bench(seconds: int = 12) -> dict:
    """The shot clock on the real firmware: how long after each second's true boundary (the
    countdown started at the loop pass that took "#6"; a second later the shown second
    changes) the OLED's last byte of the new second is out, for `seconds` seconds; press to
    pixels of CLOCK_KEYS with the clock running (each to the first screen update after its
    contact); the buzzer's tones at the warning point, the last 5 seconds and zero, decoded
    from GP26 (frequency, length, start after the boundary)."""
    with vpico.VPico() as b:
        res = deploy.deploy(b.pty, "pico", tree=deploy.build(),
                            options={"buzzer_pin": BUZZER_PIN}, out=lambda s: None)
        b.wait_boot(1 + res["resets"])
        b.wait_text("New match", timeout=120)
        b.wait(300)
        for k in CLOCK_SETUP[:-1]:
            b.press(k)
            b.wait(250)
        t0 = clock_started(b, CLOCK_SETUP[-1])
        seq = b.stats()["seq"]
        b.wait(seconds * 1000 + 200 - (b.time_us() - t0) / 1000)
        lat = second_lags(frames_after(b.log(seq), t0 + 300000), t0, 1, seconds)
        rows = []
        for k in CLOCK_KEYS:
            seq = b.stats()["seq"]
            b.press(k)
            b.wait(WINDOW_MS)
            ev = b.log(seq)
            dn = next(e["t"] for e in ev if e.get("ev") == "down" and e["key"] == k)
            fr = frames_after(ev, dn)
            rows.append({"key": k, "ms": (fr[0][1] - dn) / 1000 if fr else None})
        # the last shot's countdown to zero: its start is the last key's pass
        ev = b.log(seq)
        dn = next(e["t"] for e in ev if e.get("ev") == "down" and e["key"] == CLOCK_KEYS[-1])
        b.wait(37000)
        tones = [t for t in b.tones(BUZZER_PIN) if t[0] * 1000 >= dn]
    return {"latency_ms": lat, "presses": rows, "tones": tones, "last_key_us": dn}


def clock_run(seconds: int = 600, out=print) -> list[float]:
    """The shot clock's accuracy over a long run: a 14.1 match with a custom profile whose break
    has `seconds` seconds (settings.json on a flash laid out by littlefs-python), its countdown
    started by "#6"; for each second, how long after its true boundary the OLED's last byte of
    the new second is out (ms), read a minute at a time. About 6 s of wall clock a second."""
    tree = deploy.build()
    files = deploy.laid_out(tree, "pico")
    files["settings.json"] = json.dumps(
        {"clock": "custom", "ck": [seconds, seconds, 25, 1, 10]}).encode()
    lat: list[float] = []
    b = vpico.VPico()
    b.put_files(files)
    with b:
        b.wait_text("New match", timeout=120)
        b.wait(300)
        for k in ("5", "1", "#"):  # start, P1 breaks, the menu's "#"
            b.press(k)
            b.wait(250)
        t0 = clock_started(b, "6")
        done = 0
        while done < seconds:
            seq = b.stats()["seq"]
            n = min(60, seconds - done)
            b.wait((t0 + (done + n) * 1000000 + 200000 - b.time_us()) / 1000)
            frames = frames_after(b.log(seq), t0 + done * 1000000 + 300000)
            lat += second_lags(frames, t0, done + 1, done + n)
            done += n
            out("  %d s: median %.1f ms, max %.1f over %d seconds" % (
                done, statistics.median(lat), max(lat), len(lat)))
    return lat


def print_clock(r: dict) -> None:
    lat = r["latency_ms"]
    print("  shot clock: each second on the OLED %.1f ms median after its boundary "
          "(%.1f-%.1f over %d)" % (statistics.median(lat), min(lat), max(lat), len(lat)))
    ms = [x["ms"] for x in r["presses"] if x["ms"] is not None]
    print("  press to pixels with the clock running: median %.1f ms (%.1f-%.1f over %d keys)"
          % (statistics.median(ms), min(ms), max(ms), len(ms)))
    t0 = r["tones"][0][0] if r["tones"] else 0
    for start, n, hz in r["tones"]:
        print("    tone at +%.1f ms: %.1f Hz, %.1f ms" % (start - t0, hz, n))
    figures.update({
        "pico.clock.second": "%.1f ms median (%.1f-%.1f over %d seconds)" % (
            statistics.median(lat), min(lat), max(lat), len(lat)),
        "pico.clock.press": "%.1f ms median (%.1f-%.1f over %d keys)" % (
            statistics.median(ms), min(ms), max(ms), len(ms)),
        "pico.clock.tones": "; ".join("%.0f Hz %.0f ms at +%.0f ms" % (hz, n, s - t0)
                                      for s, n, hz in r["tones"]),
    })


def main(argv: list[str]) -> int:
    from host_tools import cli

    ap = cli.parser("host_tools.bench_vpico", "make bench-pico: figures of the exact firmware on "
                    "the virtual Pico, in emulated time (a few minutes).")
    ap.add_argument("--keys", type=lambda s: s.split(","), default=KEYS, metavar="K,K,...",
                    help="the 14.1 match's keys for press to pixels (default %s...)"
                    % ",".join(KEYS[:6]))
    only = ap.add_mutually_exclusive_group()
    only.add_argument("--heap", action="store_true",
                      help="only the free heap at the worst moment of a whole 9-ball match")
    only.add_argument("--clock", action="store_true",
                      help="only the shot clock: each second's time after its boundary, press "
                      "to pixels with it running, the buzzer's tones")
    only.add_argument("--flash-timing", action="store_true",
                      help="only press to pixels with the flash's erase and write times")
    only.add_argument("--clock-run", type=int, metavar="SECONDS",
                      help="only the shot clock's accuracy over a long countdown of SECONDS "
                      "(600: ten minutes, about an hour of wall clock)")
    ap.add_argument("--display", choices=vpico.DISPLAYS, help="with --heap: the display "
                    "(default oled)")
    ap.add_argument("--wall", choices=vpico.WALLS + ("none",),
                    help="with --heap: the wall panel (default neopixel)")
    ap.add_argument("--race", type=int, metavar="N", help="with --heap: the race (default 5)")
    ap.add_argument("--tests", action="store_true",
                    help="only print the figures the last make test's virtual-Pico tests saved")
    ns = ap.parse_args(argv)
    if ns.tests:
        print_test_figures()
        return 0
    kw: dict = {k: v for k, v in (("display", ns.display), ("wall", ns.wall), ("race", ns.race))
                if v is not None}
    if kw and not ns.heap:
        ap.error("--display, --wall and --race go with --heap")
    if kw.get("wall") == "none":
        kw["wall"] = None
    keys = ns.keys
    why = vpico.missing()
    if why:
        print("bench_vpico: " + why, file=sys.stderr)
        return 1
    if ns.heap:
        print_heap(heap_match(**kw))
        return 0
    if ns.flash_timing:
        flash_timed(deploy.build(), keys)
        return 0
    if ns.clock:
        print_clock(clock_bench())
        return 0
    if ns.clock_run:
        lat = clock_run(ns.clock_run)
        figures.update({"pico.clock.run": "%.1f ms median, %.1f max (%d of %d seconds seen)" % (
            statistics.median(lat), max(lat), len(lat), ns.clock_run)})
        return 0
    with vpico.VPico() as b:
        tree = deploy.build()
        lines: list[str] = []
        t = time.monotonic()
        res = deploy.deploy(b.pty, "pico", tree=tree, out=lines.append)
        b.wait_boot(1 + res["resets"])
        print("virtual Pico (rp2040js, MicroPython %s, the real firmware.uf2)"
              % ".".join(map(str, res["info"]["version"])))
        print("  deploy to a blank board: %d files, %d bytes in %.1f s wall (copying %.1f s)"
              % (len(res["copied"]), res["bytes"], time.monotonic() - t, res["copy_s"]))
        figures.update({"pico.deploy": "{:.1f} s ({} files, {:,} bytes)".format(
            time.monotonic() - t, len(res["copied"]), res["bytes"])})
        b.wait_text("New match", timeout=120)
        b.power_cut()  # (the deploy started the app with a soft reset: the boot from power-on)
        b.wait_text("New match", timeout=120)
        b.wait(300)
        us, nbytes = first_screen_us(b)
        print("  boot to first screen: %.0f ms emulated (%d bus bytes)" % (us / 1000, nbytes))
        figures.update({"pico.boot": "%.0f ms emulated" % (us / 1000)})
        t = time.monotonic()
        n = b.boots()
        res = deploy.deploy(b.pty, "pico", tree=tree, out=lines.append)
        b.wait_boot(n + res["resets"])
        print("  deploy again, nothing to copy: %.1f s wall" % (time.monotonic() - t))
        figures.update({"pico.deploy.again": "%.1f s" % (time.monotonic() - t)})
        b.wait_text("New match", timeout=120)
        print("  press to pixels (GPIO edge of the contact -> last I2C byte of the new screen):")
        print_presses(press_keys(b, keys))
        b.wait(300)
        busy = idle_cpu(b)
        print("  in play with no key: the loop's passes take %.0f%% of the CPU" % busy)
        figures.update({"pico.idle": "%.0f%% (%.0fk cycles a ms)" % (busy, busy * 1.25)})
        b.power_cut()
        b.wait_text("Resumed", timeout=120)
        b.wait(300)
        us, nbytes = first_screen_us(b)
        print("  power cut, boot to the resumed match: %.0f ms emulated (%d bus bytes)"
              % (us / 1000, nbytes))
        figures.update({"pico.resume": "%.0f ms emulated" % (us / 1000)})
    with vpico.VPico(wall="neopixel") as b:
        res = deploy.deploy(b.pty, "pico", tree=tree, options={"wall": "neopixel"},
                            out=lines.append)
        b.wait_boot(1 + res["resets"])
        b.wait_text("New match", timeout=120)
        b.wait(300)
        print("  with the NeoPixel wall panel (32x8) too: press to pixels on the OLED and to the "
              "last byte of the wall's frame:")
        rows = press_keys(b, keys)
        print_presses(rows)
        print_presses(rows, "wall_ms")
    flash_timed(tree, keys)
    print_heap(heap_match())
    print_test_figures()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
