"""`make sim BOARD=pico`: the exact firmware on the virtual Pico, its display drawn in the terminal.

    python -m host_tools.sim_vpico [--flash FILE] [--fresh] [--no-deploy]
        [--display oled|sh1106|lcd20|lcd16|digits|neopixel|matrix] [--wall neopixel|matrix]
        [--input keypad|buttons] [--game 14.1|8ball|9ball]

Boots the virtual Pico (host_tools/vpico) on a flash kept in build/vpico/sim.bin (its own: not
the build/vpico/flash.bin of `python -m host_tools.vpico run`; kept between runs, so the match on
it resumes, which it says as it starts; --fresh: a blank board), deploys the current build to
it with `make deploy`'s code (only what changed: nothing, most times; the options given go into
its board.py, as `make deploy OPTIONS=...`), and lets the board run its own /main.py. The
display (and the wall panel beside it) is drawn from the emulated chips' state with the host
simulator's pictures; PC keys press the emulated keypad: 0-9 a-d * # (capital A-D: a long
press), or the buttons: 1 2 f u m o (capitals, ! @: long), q quits. Piped
input: each line's tokens (key names; long:KEY) are pressed in turn, then the display's text is
printed. The host simulator (`make sim`) stays the quick default; this one runs the real
MicroPython.
"""

from __future__ import annotations

import os
import select
import shutil
import sys
import termios
import tty
from typing import Any

from host_tools import cli, deploy, sim, vpico
from host_tools.vpico import ROOT

DEFAULT_FLASH = ROOT / "build" / "vpico" / "sim.bin"  # (vpico run's is flash.bin)

KEYS = {c: (c, 80) for c in "0123456789*#"}
KEYS.update({c.lower(): (c, 80) for c in "ABCD"})
KEYS.update({c: (c, 1000) for c in "ABCD"})
BUTTON_KEYS = {c: (name, 1000 if kind == "long" else 80)
               for c, (kind, name) in sim.BUTTON_KEYS.items()}
NOTE = "q: quit   (the real firmware, emulated)"


class BoardView(sim.Sim):
    """The host simulator's terminal pictures (sim.frame) of what the virtual Pico's chips hold:
    the Sim methods that read its fakes read the board instead."""

    def __init__(self, b: vpico.VPico, layout: str):  # (no Sim.__init__: no app on the host)
        self.b = b
        self.display = b.display
        self.layout = layout
        self.wall = b.wall if b.display not in vpico.WALLS else None
        self.wall_size = b.wall_size
        self.wall_dec: Any = True if self.wall else None  # (sim.frame: a wall beside)

    def bitmap(self):
        return vpico.screen_bitmap(self.b.screen()[0])

    def grid(self):
        return self.b.decoder().grid()

    def segments(self):
        return self.b.decoder().segments()

    def panel(self):
        return self.b.wall_rows()


def draw(view: BoardView, colour: bool = True) -> str:
    cols, rows = shutil.get_terminal_size((80, 24))
    return "\n".join(sim.frame(view, cols, rows, note=NOTE, colour=colour))


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


def interactive(b: vpico.VPico, layout: str) -> int:
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        last = None
        view = BoardView(b, layout)
        keys = KEYS if layout == "keypad" else BUTTON_KEYS
        while True:
            pic = draw(view)
            if pic != last:
                sys.stdout.write("\x1b[H\x1b[2J" + pic)
                sys.stdout.flush()
                last = pic
            if select.select([fd], [], [], 0.05)[0]:
                c = os.read(fd, 1).decode("latin1")
                if c in ("q", "\x03", "\x04"):
                    return 0
                if c in keys:
                    b.press(*keys[c])
            b.wait(20)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        print()


def flash_note(flash, fresh: bool) -> str:
    # What the board starts from: a blank flash, or the one kept from the last run.
    if fresh or not os.path.exists(flash):
        return "sim_vpico: a blank flash in %s" % flash
    return ("sim_vpico: the flash kept in %s (its match resumes; --fresh for a blank one)"
            % flash)


def main(argv: list[str]) -> int:
    ap = cli.parser("host_tools.sim_vpico", "make sim BOARD=pico: the exact firmware on the "
                    "virtual Pico, its display drawn in the terminal.")
    ap.add_argument("--flash", default=DEFAULT_FLASH, metavar="FILE",
                    help="the board's flash, kept between runs (default build/vpico/sim.bin)")
    ap.add_argument("--fresh", action="store_true", help="start from a blank flash")
    ap.add_argument("--no-deploy", dest="deploy", action="store_false",
                    help="run what is on the flash (no deploy of the current build first)")
    ap.add_argument("--display", choices=vpico.DISPLAYS, help="the display (default oled)")
    ap.add_argument("--wall", choices=vpico.WALLS, help="a wall panel beside the display")
    ap.add_argument("--input", choices=("keypad", "buttons"), help="the keys (default keypad)")
    ap.add_argument("--game", choices=("14.1", "8ball", "9ball"), help="the game it starts with")
    ns = ap.parse_args(argv)
    flash, fresh, do_deploy = ns.flash, ns.fresh, ns.deploy
    # the options given go into the board's board.py, as make deploy OPTIONS=...
    opts: dict = {k: getattr(ns, k) for k in ("display", "wall", "input", "game")
                  if getattr(ns, k) is not None}
    why = vpico.missing()
    if why:
        print("sim_vpico: " + why, file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(flash)), exist_ok=True)
    print(flash_note(flash, fresh), file=sys.stderr)
    display = opts.get("display", "oled")
    layout = opts.get("input", "keypad")
    with vpico.VPico(flash=flash, fresh=fresh, display=display, wall=opts.get("wall")) as b:
        if do_deploy:
            n = b.boots()
            res = deploy.deploy(b.pty, "pico", options=opts or None,
                                out=lambda s: print(s, file=sys.stderr))
            b.wait_boot(n + res["resets"])
        b.wait_text(lambda rows: any(r.strip() for r in rows), timeout=120)
        b.wait(300)
        return interactive(b, layout) if sys.stdin.isatty() else piped(b)


if __name__ == "__main__":
    try:
        cli.run(main, sys.argv[1:])
    except deploy.DeployError as e:
        sys.exit("sim_vpico: " + str(e))
