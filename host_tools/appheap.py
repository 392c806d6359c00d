# The whole app under MicroPython on a small heap: runs tests/mp_app.py (the app on bare fake
# buses in the VM) and decodes what it printed: the screens at each "mark" as a person sees
# them, the match states, the runner's status, and the heap it needed (Run.res).
# Used by tests/test_app_mp.py and host_tools/bench.py.
import json
import shutil
from pathlib import Path

from firmware import boot
from host_tools import mpy
from host_tools.fakehw import decoder, screen_text

HEAP = "136K"  # the short test matches with the match in RAM: the OLED 9-ball one and the SH1106
# Turkish 14.1 one need 121-124 KB, most of it the code from .mpy files (the 64 KB budget is met
# with the firmware frozen: tests/test_app_frozen.py); a heap that can't grow fails on fragmentation a
# few KB either side


# The app's modules, which mp_app loads as boards/main.py does (firmware.boot.APP), and each
# kind's, which firmware.hw imports when building.
_OLED = ("ssd1306", "firmware.drivers.oled_i2c", "firmware.drivers.oled")
_LCD = ("firmware.drivers.lcd",)
MODULES = {"app": boot.APP,
           "oled": _OLED, "sh1106": _OLED, "lcd20": _LCD,
           "lcd16": _LCD, "digits": ("firmware.drivers.digits", "firmware.views_digits"),
           "keypad": ("firmware.keys",), "buttons": ("firmware.keys",)}


class Run:
    # One mp_app run, decoded: screens at each "mark", states, status lines, the heap.
    def __init__(self, kind, layout, lang, game, cmds, error_ms=2000, heap=HEAP, store="-",
                 flash=None):
        # store "lfs": the match on littlefs in the run's flash.bin (flash: its bytes from an
        # earlier run, the board after a power cut); self.flash: the bytes it left.
        mods = ",".join(MODULES["app"] + MODULES[kind] + MODULES[layout])
        self.res = mpy.run_module("tests.mp_app", [mods, kind, layout, lang, game, str(error_ms),
                                                   store, *cmds], heap=heap, keep=True,
                                  files={"flash.bin": flash} if flash else None)
        fl = Path(self.res.workdir) / "flash.bin"
        self.flash = fl.read_bytes() if fl.exists() else None
        shutil.rmtree(self.res.workdir, ignore_errors=True)
        assert self.res.returncode == 0 or self.res.memory_error, (self.res.stdout[-3000:] +
                                                                   self.res.stderr)
        dec = decoder(kind)
        self.screens, self.states, self.status = [], [], []
        self.qstrs = 0  # names the VM interned (a pool of them grows by 4.6 KB past 620)
        records = []
        for line in self.res.stdout.splitlines():
            tag, _, rest = line.partition(" ")
            if tag in ("I", "W"):
                addr, n, data = rest.split()
                data = bytes.fromhex(data[: 2 * int(n)])
                records.append((int(addr), data) if tag == "I" else ("w", data))
            elif tag == "C":
                records.append(("cs", int(rest)))
            elif tag == "M":
                dec.feed(records)
                records = []
                self.screens.append(screen_text(kind, dec))
            elif tag == "S":
                self.states.append(json.loads(rest))
            elif line.startswith("qstr pool:"):
                self.qstrs = int(line.split("n_qstr=")[1].split(",")[0])
            elif tag == "R":
                restarts, error, healthy, feeds = rest.split()
                self.status.append((int(restarts), error, int(healthy), int(feeds)))

    def fits(self):
        return self.res.fits
