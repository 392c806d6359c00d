# The wired app (firmware.app.Runner: keys -> controller -> views -> driver) under MicroPython,
# on bare fake buses and pins, so that the VM's heap holds what a board's would: the app and its
# data. The buses print what they carry, and the host decodes it (tests/test_app_mp.py).
# Usage: python -m host_tools.mpy -m tests.mp_app KIND LAYOUT LANG GAME ERROR_MS CMD ...
#   KIND oled|sh1106|lcd20|lcd16|digits, LAYOUT keypad|buttons; each CMD is one of
#   "keys K K ..." (press and release each, "long:K" held 1 s), "run MS", "state" (prints
#   "S <state JSON>"), "mark" (prints "M"), "boom" (the controller's next key raises), "heap".
# Output lines: "I addr hex" an I2C write, "W hex" an SPI write, "C level" chip select,
# "S json", "M", "H used", "R restarts error healthy feeds".
import gc
import json
import sys
from binascii import hexlify

STEP = 5  # ms between loop passes, as on the board
KEYMAP = "123A456B789C*0#D"
BUTTONS = ("P1", "P2", "FOUL", "UNDO", "MISS", "OK")


def _hex(buf):
    return hexlify(buf).decode()


class Bus:
    # machine.I2C and machine.SPI as the drivers use them: each write printed, nothing kept.
    def scan(self):
        return [0x27, 0x3C]

    def writeto(self, addr, buf, stop=True):
        print("I", addr, _hex(buf))

    def writevto(self, addr, vector, stop=True):
        print("I", addr, "".join(_hex(b) for b in vector))

    def write(self, buf):
        print("W", _hex(buf))

    def init(self, *args, **kw):
        pass


class Pin:
    # An output pin (MAX7219 chip select: printed) or an input the test holds low (a key).
    def __init__(self, level=1, cs=False):
        self.level = level
        self.cs = cs

    def init(self, *args, **kw):
        pass

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        if self.cs and v != self.level:
            print("C", v)
        self.level = v
        return None

    def __call__(self, v=None):
        return self.value(v)


class Col:
    # A keypad column: reads 0 while a held key joins it to the row driven low.
    def __init__(self, rows, c):
        self.rows = rows
        self.c = c
        self.down = -1  # keymap index of the held key, or -1

    def __call__(self, v=None):
        d = self.down
        return 0 if d >= 0 and d % 4 == self.c and not self.rows[d // 4].level else 1


class Board:
    def __init__(self, kind, layout, lang, game, error_ms):
        from firmware import hw
        from firmware.app import Runner

        bus = Bus()
        if kind == "digits":
            screen = hw.display(kind, spi=bus, cs=Pin(1, cs=True))
        else:
            screen = hw.display(kind, i2c=bus, sleep_ms=lambda ms: None)
        if layout == "keypad":
            rows = [Pin() for _ in range(4)]
            self.cols = [Col(rows, c) for c in range(4)]
            inp = hw.keys(layout, rows=rows, cols=self.cols, keymap=KEYMAP)
        else:
            self.pins = [Pin() for _ in BUTTONS]
            inp = hw.keys(layout, pins=self.pins, names=BUTTONS)
        self.wdt = self  # counts feeds
        self.feeds = 0
        self.layout = layout
        self.runner = Runner(hw.Hardware(screen, inp, kind, layout, self, None, lang), lang=lang,
                             game=game, error_ms=error_ms, log=False)
        self.now = 0
        self.healthy = 0

    def feed(self):
        self.feeds += 1

    def set_key(self, name, down):
        if self.layout == "keypad":
            i = KEYMAP.index(name) if down else -1
            for c in self.cols:
                c.down = i
        else:
            self.pins[BUTTONS.index(name)].level = 0 if down else 1

    def run(self, ms):
        # One step per loop pass: the VM collects between steps, as a board's GC would as needed.
        end = self.now + ms
        while self.now < end:
            if self.runner.tick(self.now):
                self.healthy += 1
            self.now += STEP
            yield

    def press(self, name, hold):
        self.set_key(name, True)
        yield from self.run(hold)
        self.set_key(name, False)
        yield from self.run(60)

    def command(self, cmd):
        op, _, arg = cmd.partition(" ")
        if op == "keys":
            for k in arg.split():
                if k.startswith("long:"):
                    yield from self.press(k[5:], 1000)
                else:
                    yield from self.press(k, 80)
        elif op == "run":
            yield from self.run(int(arg))
        elif op == "state":
            print("S", json.dumps(self.runner.app.ctl.match.state()))
        elif op == "mark":
            print("M")
        elif op == "boom":
            def boom(kind, name):
                raise RuntimeError("boom")

            self.runner.app.ctl.key = boom
        elif op == "heap":
            gc.collect()
            print("H", gc.mem_alloc())  # pyright: ignore[reportAttributeAccessIssue]
        else:
            raise ValueError("mp_app: unknown command " + cmd)
        r = self.runner
        print("R", r.restarts, r.error, self.healthy, self.feeds)


# The app's modules, imported one per step (the test VM collects only between steps).
MODULES = ("firmware.rules", "firmware.match",
           "firmware.lang", "firmware.views", "firmware.ui", "firmware.hw", "firmware.app")


# ... and those of each display and input kind (firmware.hw imports them when building).
_OLED = ("ssd1306", "firmware.drivers.glyphs", "firmware.drivers.oled")
_LCD = ("firmware.drivers.glyphs", "firmware.drivers.lcd")
KIND_MODULES = {"oled": _OLED, "sh1106": _OLED + ("firmware.drivers.sh1106",), "lcd20": _LCD,
                "lcd16": _LCD, "digits": ("firmware.drivers.digits",),
                "keypad": ("firmware.input.debounce", "firmware.input.keypad"),
                "buttons": ("firmware.input.debounce", "firmware.input.buttons")}


def main(args):
    kind, layout, lang, game, error_ms = args[:5]
    for m in MODULES + KIND_MODULES[kind] + KIND_MODULES[layout]:
        __import__(m)
        yield
    board = Board(kind, layout, lang, game, int(error_ms))
    yield
    for cmd in args[5:]:
        yield from board.command(cmd)


def argv():
    if getattr(sys, "argv", None):
        return sys.argv[1:]
    import mp_argv  # pyright: ignore[reportMissingImports]  (written by mp_node.mjs)

    return mp_argv.ARGV[1:]


# Under MicroPython the module is imported as .mpy and run in steps (ENTRY); on CPython directly.
ENTRY = "from tests.mp_app import main, argv\n_mp_steps = main(argv())"
if __name__ == "__main__":
    for _ in main(argv()):
        pass
