"""CLI of the virtual Pico.

  python -m host_tools.vpico run [--flash FILE] [--fresh] [--i2c-instant] [--link PATH]
          [--display oled|sh1106|lcd20|lcd16|digits|neopixel|matrix] [--wall neopixel|matrix]
          [--wall-size WxH]
      boot a board, print PTY, CTL and LOG, keep it running until Ctrl-C (default flash:
      build/vpico/flash.bin, kept between runs; --fresh: a blank chip); --display, --wall,
      --wall-size: its devices, as the profile options of the same names (the firmware's
      board.py must say the same: make deploy OPTIONS='{"display": "lcd20"}')
  python -m host_tools.vpico [--ctl SOCKET] COMMAND ...
      one control-socket command (presses take turns: one starts 60 ms after the one before
      it was released): press KEY [MS] | down KEY | up KEY | wait MS | time | screen
      | text | png PATH [SCALE] | device | wall | tones [PIN] | stats | log [SEQ]
      | passes [FROM_US] | feeds [FROM_US] | serial [N] (default socket:
      build/vpico/flash.ctl); text, png and wall-rows (the wall panel as seen) are drawn here
      from the device state for the board's display kind
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from host_tools.vpico import DISPLAYS, ROOT, WALLS, VPico

DEFAULT_FLASH = ROOT / "build" / "vpico" / "flash.bin"


def _number(text: str) -> str:
    # MS, SEQ, FROM_US, N: a number, passed on to the control socket as written
    try:
        float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % text) from None
    return text


def _wall_size(text: str) -> tuple[int, int]:
    try:
        w, h = text.lower().split("x")
        return int(w), int(h)
    except ValueError:
        raise argparse.ArgumentTypeError("not WxH (32x8): %r" % text) from None


# The control-socket commands: name, its arguments (metavar, optional, type), what it does.
COMMANDS = (
    ("press", (("KEY", False, str), ("MS", True, _number)),
     "hold KEY (0-9 A-D * #, P1 P2 FOUL UNDO MISS OK; 0+C: both) for MS ms (default 80)"),
    ("down", (("KEY", False, str),), "press KEY (no release)"),
    ("up", (("KEY", False, str),), "release KEY"),
    ("wait", (("MS", False, _number),), "let MS ms of emulated time pass"),
    ("time", (), "the emulated microseconds since power-on"),
    ("screen", (("raw", True, str),), "the display as the panel shows it (raw: its RAM)"),
    ("text", (), "the display's text, drawn here for the board's display kind"),
    ("png", (("PATH", False, str), ("SCALE", True, int)), "the display as a PNG (scale 4)"),
    ("device", (), "the display's chip state (JSON)"),
    ("wall", (), "the wall panel's state (JSON)"),
    ("wall-rows", (), "the wall panel as seen, a row of pixels a line"),
    ("tones", (("PIN", True, _number),), "the PWM tones on PIN (any pin): JSON, us and Hz"),
    ("stats", (), "the emulator's counters (JSON)"),
    ("log", (("SEQ", True, _number),), "the events from SEQ on, a JSON object a line"),
    ("passes", (("FROM_US", True, _number),), "the keypad's row-by-row scans since FROM_US"),
    ("feeds", (("FROM_US", True, _number),), "the watchdog's feeds (the app's loop passes) "
     "since FROM_US"),
    ("serial", (("N", True, _number),), "the last N bytes of the USB serial output"),
)


def _parser() -> argparse.ArgumentParser:
    from host_tools import cli

    ap = cli.parser("host_tools.vpico", "The virtual Pico: boot one (run), or send a running "
                    "one a control-socket command.")
    ap.add_argument("--ctl", metavar="SOCKET",
                    help="the board's control socket (default build/vpico/flash.ctl)")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    run = sub.add_parser("run", help="boot a board, print PTY, CTL and LOG, keep it running "
                         "until Ctrl-C", description="Boot a virtual Pico, print its PTY, CTL "
                         "and LOG, keep it running until Ctrl-C.")
    run.add_argument("--flash", default=DEFAULT_FLASH, metavar="FILE",
                     help="its flash, kept between runs (default build/vpico/flash.bin)")
    run.add_argument("--fresh", action="store_true", help="a blank flash chip")
    run.add_argument("--i2c-instant", action="store_true",
                     help="I2C transfers take no emulated time")
    run.add_argument("--link", metavar="PATH", help="a symlink to its PTY while it runs")
    run.add_argument("--display", choices=DISPLAYS, help="its display (default oled; the "
                     "firmware's board.py must say the same: make deploy OPTIONS=...)")
    run.add_argument("--wall", choices=WALLS, help="its wall panel")
    run.add_argument("--wall-size", type=_wall_size, metavar="WxH",
                     help="the wall panel's pixels (default 32x8)")
    for name, params, what in COMMANDS:
        c = sub.add_parser(name, help=what, description=what[:1].upper() + what[1:] + ".")
        for metavar, optional, kind in params:
            c.add_argument(metavar.lower(), metavar=metavar, type=kind,
                           nargs="?" if optional else None,
                           choices=("raw",) if metavar == "raw" else None)
    return ap


def main(argv: list[str]) -> int:
    ap = _parser()
    ns = ap.parse_args(argv)
    if ns.command == "run":
        if ns.ctl:
            ap.error("--ctl goes with a command to a running board, not with run")
        flash, fresh, instant, link = ns.flash, ns.fresh, ns.i2c_instant, ns.link
        devices: dict = {k: getattr(ns, k) for k in ("display", "wall", "wall_size")
                         if getattr(ns, k) is not None}
        os.makedirs(os.path.dirname(os.path.abspath(flash)), exist_ok=True)
        b = VPico(flash=flash, fresh=fresh, i2c_instant=instant, **devices).start()
        if link:
            if os.path.lexists(link):
                os.unlink(link)
            os.symlink(b.pty, link)
        print("PTY", b.pty)
        print("CTL", b.ctl)
        print("LOG", b.logfile, flush=True)
        try:
            while b.proc is not None and b.proc.poll() is None:
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            b.stop()
            if link and os.path.islink(link):
                os.unlink(link)
        return 0
    ctl = ns.ctl or str(DEFAULT_FLASH.with_suffix(".ctl"))
    b = VPico(flash=ctl[:-4] + ".bin" if ctl.endswith(".ctl") else ctl)
    b.ctl = ctl
    c = ns.command
    values = [getattr(ns, m.lower()) for n, params, _ in COMMANDS if n == c for m, _, _ in params]
    a = [str(v) for v in values if v is not None]
    if c in ("text", "png", "wall-rows"):
        try:  # the running board's device set
            st = b.stats()
            b.display, b.wall = st["kind"], st["wallKind"]
            if c == "text":
                print("\n".join(b.text()))
            elif c == "png":
                print(b.png(a[0], int(a[1]) if len(a) > 1 else 4))
            elif c == "wall-rows":
                rows = b.wall_rows()
                if rows is None:
                    print("no wall panel", file=sys.stderr)
                    return 1
                for row in rows:
                    print(" ".join("%06x" % p if b.wall == "neopixel" else str(p) for p in row))
        except (RuntimeError, OSError) as e:
            print(e, file=sys.stderr)
            return 1
        return 0
    try:
        sys.stdout.write(b.cmd(" ".join([c] + a), timeout=600.0, retry_s=2.0))
    except (RuntimeError, OSError) as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    from host_tools import cli

    cli.run(main, sys.argv[1:])
