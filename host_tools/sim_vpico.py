"""`make sim BOARD=pico`: the exact firmware on the virtual Pico, its OLED drawn in the terminal.

    python -m host_tools.sim_vpico [--flash FILE] [--fresh] [--no-deploy]

Boots the virtual Pico (host_tools/vpico) on a flash kept in build/vpico/flash.bin, deploys the
current build to it with `make deploy`'s code (only what changed: nothing, most times), and lets
the board run its own /main.py. The panel is drawn from the emulated SSD1306's pixels; PC keys
press the emulated keypad: 0-9 a-d * # (capital A-D: a long press), q quits. Piped input: each
line's tokens (key names; long:KEY) are pressed in turn, then the panel's text is printed.
The host simulator (`make sim`) stays the quick default; this one runs the real MicroPython.
"""

from __future__ import annotations

import os
import select
import shutil
import sys
import termios
import tty

from host_tools import deploy, vpico
from host_tools.sim import STYLE_NAMES, oled_art, oled_size
from host_tools.vpico.__main__ import DEFAULT_FLASH

KEYS = {c: (c, 80) for c in "0123456789*#"}
KEYS.update({c.lower(): (c, 80) for c in "ABCD"})
KEYS.update({c: (c, 1000) for c in "ABCD"})
LEGEND = "keys 0-9 a-d * #   A-D: long press   q: quit   (the real firmware, emulated)"


def draw(b: vpico.VPico) -> str:
    bitmap = vpico.screen_bitmap(b.screen()[0])
    cols, rows = shutil.get_terminal_size((80, 24))
    style = STYLE_NAMES[-1]
    for st in STYLE_NAMES:  # the largest picture that fits, with the legend
        w, h = oled_size(st)
        if w <= cols and h + 2 <= rows:
            style = st
            break
    return "\n".join(oled_art(bitmap, style)) + "\n" + LEGEND[:cols]


def piped(b: vpico.VPico) -> int:
    for line in sys.stdin:
        for tok in line.split():
            ms = 80
            if tok.startswith("long:"):
                tok, ms = tok[5:], 1000
            b.press(tok.upper() if len(tok) == 1 else tok, ms)
            b.wait(ms + 250)
        print("\n".join(b.text()), flush=True)
    return 0


def interactive(b: vpico.VPico) -> int:
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        last = None
        while True:
            pic = draw(b)
            if pic != last:
                sys.stdout.write("\x1b[H\x1b[2J" + pic)
                sys.stdout.flush()
                last = pic
            if select.select([fd], [], [], 0.05)[0]:
                c = os.read(fd, 1).decode("latin1")
                if c in ("q", "\x03", "\x04"):
                    return 0
                if c in KEYS:
                    b.press(*KEYS[c])
            b.wait(20)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        print()


def main(argv: list[str]) -> int:
    flash, fresh, do_deploy = DEFAULT_FLASH, False, True
    while argv:
        o = argv.pop(0)
        if o == "--flash":
            flash = argv.pop(0)
        elif o == "--fresh":
            fresh = True
        elif o == "--no-deploy":
            do_deploy = False
        else:
            print(__doc__)
            return 2
    why = vpico.missing()
    if why:
        print("sim_vpico: " + why, file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(flash)), exist_ok=True)
    with vpico.VPico(flash=flash, fresh=fresh) as b:
        if do_deploy:
            n = b.boots()
            res = deploy.deploy(b.pty, "pico", out=lambda s: print(s, file=sys.stderr))
            b.wait_boot(n + res["resets"])
        b.wait_text(lambda rows: any(rows), timeout=120)
        b.wait(300)
        return interactive(b) if sys.stdin.isatty() else piped(b)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except deploy.DeployError as e:
        sys.exit("sim_vpico: " + str(e))
