"""Figures of the exact firmware on the virtual Pico (host_tools/vpico), in emulated time.

    python -m host_tools.bench_vpico [--keys 2,5,1,B,A,...]

A blank virtual Pico; `make deploy`'s code puts the build on it (copy time, wall); then, read
from the emulator's own log of GPIO edges and I2C transactions (emulated microseconds):
  - boot to first screen: power-on to the last I2C byte of the first complete screen;
  - press to pixels, for each key of a 14.1 match: from the GPIO edge of the key's contact to
    the last I2C byte of the new screen (bus time included), how many screen updates the press
    caused, and from the release;
  - boot to a resumed match after a power cut (the journal on flash).
The emulator counts no flash (XIP) cache stalls: a real Pico computes somewhat slower.
"""

from __future__ import annotations

import statistics
import sys
import time

from host_tools import deploy, vpico

# Setup: up to Start, ok; P1 breaks; a dry break, made balls, misses, a foul, a safety...
KEYS = "2 5 1 B A A B 1 2 A C B * B A B".split()
WINDOW_MS = 600  # emulated time given to each key: its screen is up long before


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
    seq = b.stats()["seq"]
    b.press(key)
    b.wait(WINDOW_MS)
    ev = b.log(seq)
    down = next(e["t"] for e in ev if e.get("ev") == "down" and e["key"] == key)
    up = next(e["t"] for e in ev if e.get("ev") == "up" and e["key"] == key)
    frames = frames_after(ev, down)
    if not frames:
        return {"key": key, "updates": 0}
    last = frames[-1][1]
    return {"key": key, "updates": len(frames), "ms": (last - down) / 1000,
            "from_release_ms": (last - up) / 1000, "bytes": sum(f[2] for f in frames)}


def main(argv: list[str]) -> int:
    keys = KEYS
    if argv[:1] == ["--keys"]:
        keys = argv[1].split(",")
    why = vpico.missing()
    if why:
        print("bench_vpico: " + why, file=sys.stderr)
        return 1
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
        b.wait_text("New match", timeout=120)
        b.wait(300)
        us, nbytes = first_screen_us(b)
        print("  boot to first screen: %.0f ms emulated (%d bus bytes)" % (us / 1000, nbytes))
        t = time.monotonic()
        n = b.boots()
        res = deploy.deploy(b.pty, "pico", tree=tree, out=lines.append)
        b.wait_boot(n + res["resets"])
        print("  deploy again, nothing to copy: %.1f s wall" % (time.monotonic() - t))
        b.wait_text("New match", timeout=120)
        rows = []
        for k in keys:
            rows.append(press_to_pixels(b, k))
        print("  press to pixels (GPIO edge of the contact -> last I2C byte of the new screen):")
        for r in rows:
            if r["updates"]:
                print("    %-2s %6.1f ms  (%5.1f ms from the release)  %d update(s), %d bytes"
                      % (r["key"], r["ms"], r["from_release_ms"], r["updates"], r["bytes"]))
            else:
                print("    %-2s  no screen update" % r["key"])
        ms = [r["ms"] for r in rows if r["updates"]]
        if ms:
            print("  press to pixels: median %.1f ms (%.1f-%.1f), %d of %d presses with more "
                  "than one update" % (statistics.median(ms), min(ms), max(ms),
                                       sum(r["updates"] > 1 for r in rows), len(rows)))
        b.power_cut()
        b.wait_text("Resumed", timeout=120)
        b.wait(300)
        us, nbytes = first_screen_us(b)
        print("  power cut, boot to the resumed match: %.0f ms emulated (%d bus bytes)"
              % (us / 1000, nbytes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
