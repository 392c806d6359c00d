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
      | text | png PATH [SCALE] | device | wall | stats | log [SEQ] | passes [FROM_US]
      | serial [N] (default socket: build/vpico/flash.ctl); text, png and wall-rows (the wall
      panel as seen) are drawn here from the device state for the board's display kind
"""

from __future__ import annotations

import os
import sys
import time

from host_tools.vpico import ROOT, VPico

DEFAULT_FLASH = ROOT / "build" / "vpico" / "flash.bin"


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    if argv[0] == "run":
        flash, fresh, instant, link = DEFAULT_FLASH, False, False, None
        devices: dict = {}
        a = argv[1:]
        while a:
            o = a.pop(0)
            if o == "--flash":
                flash = a.pop(0)
            elif o == "--fresh":
                fresh = True
            elif o == "--i2c-instant":
                instant = True
            elif o == "--link":
                link = a.pop(0)
            elif o in ("--display", "--wall"):
                devices[o[2:]] = a.pop(0)
            elif o == "--wall-size":
                w, h = a.pop(0).lower().split("x")
                devices["wall_size"] = (int(w), int(h))
            else:
                print("unknown option " + o, file=sys.stderr)
                return 2
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
    ctl = str(DEFAULT_FLASH.with_suffix(".ctl"))
    if argv[0] == "--ctl":
        ctl, argv = argv[1], argv[2:]
    b = VPico(flash=ctl[:-4] + ".bin" if ctl.endswith(".ctl") else ctl)
    b.ctl = ctl
    c, a = argv[0], argv[1:]
    if c in ("text", "png", "wall-rows"):
        try:  # the running board's device set
            st = b.stats()
            b.display, b.wall = st["kind"], st["wallKind"]
            if c == "text":
                print("\n".join(b.text()))
            elif c == "png" and a:
                print(b.png(a[0], int(a[1]) if len(a) > 1 else 4))
            elif c == "wall-rows":
                rows = b.wall_rows()
                if rows is None:
                    print("no wall panel", file=sys.stderr)
                    return 1
                for row in rows:
                    print(" ".join("%06x" % p if b.wall == "neopixel" else str(p) for p in row))
            else:
                print("png PATH [SCALE]", file=sys.stderr)
                return 2
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
