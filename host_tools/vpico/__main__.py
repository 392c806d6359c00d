"""CLI of the virtual Pico.

  python -m host_tools.vpico run [--flash FILE] [--fresh] [--i2c-instant] [--link PATH]
      boot a board, print PTY, CTL and LOG, keep it running until Ctrl-C (default flash:
      build/vpico/flash.bin, kept between runs; --fresh: a blank chip)
  python -m host_tools.vpico [--ctl SOCKET] COMMAND ...
      one control-socket command: press KEY [MS] | down KEY | up KEY | wait MS | time | screen
      | text | png PATH [SCALE] | stats | log [SEQ] | passes [FROM_US] | serial [N]
      (default socket: build/vpico/flash.ctl)
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
            else:
                print("unknown option " + o, file=sys.stderr)
                return 2
        os.makedirs(os.path.dirname(os.path.abspath(flash)), exist_ok=True)
        b = VPico(flash=flash, fresh=fresh, i2c_instant=instant).start()
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
    if c == "text":
        print("\n".join(b.text()))
        return 0
    if c == "png" and a:
        a[0] = os.path.abspath(a[0])
    try:
        sys.stdout.write(b.cmd(" ".join([c] + a), timeout=600.0, retry_s=2.0))
    except (RuntimeError, OSError) as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
