# The wired app (firmware.app.Runner: keys -> controller -> views -> driver) under MicroPython,
# on bare fake buses and pins, so that the VM's heap holds what a board's would: the app and its
# data (this file stands for the board's profile and main.py). The buses print what they carry,
# as hex with no garbage, and the host decodes it (tests/test_app_mp.py).
# Run by tests/test_app_mp.py: host_tools.mpy.run_module("tests.mp_app", [MODULES, KIND, LAYOUT,
#   LANG, GAME, ERROR_MS, STORE, CMD ...]) (see main()); KIND oled|sh1106|lcd20|lcd16|digits,
#   LAYOUT keypad|buttons, STORE lfs|-; each CMD: "keys K K ..." (press and release each,
#   "long:K" held 1 s), "run MS", "state" (prints "S <state JSON>"), "mark" (prints "M"),
#   "boom" (the controller's next key raises), "damage WHAT" (on the flash: "matchfile" /match
#   made a file, "bigcfg" a valid 100 KB settings.json, a path under /flash: its byte 10
#   flipped). With STORE lfs the flash is the file flash.bin
#   of the run's directory: a second run on the same file is the board after a power cut.
# Output lines: "I addr n hex" an I2C write, "W 0 n hex" an SPI write (n bytes: the hex may run
# on past them), "C level" chip select,
# "S json", "M", and after each command "R restarts error healthy feeds".
import json
import sys

KEYMAP = "123A456B789C*0#D"
BUTTONS = ("P1", "P2", "FOUL", "UNDO", "MISS", "OK")
_HEX = b"0123456789abcdef"
_buf = bytearray(b"0" * 64)
_n = 0  # hex digits waiting in _buf


def _hex(data):
    # data's bytes as hex digits into _buf, written out 64 at a time: nothing is allocated.
    global _n
    n = _n
    i = 0
    k = len(data)
    while i < k:
        x = data[i]
        _buf[n] = _HEX[x >> 4]
        _buf[n + 1] = _HEX[x & 15]
        n += 2
        i += 1
        if n == 64:
            sys.stdout.write(_buf)  # pyright: ignore[reportArgumentType]  (MicroPython takes bytes)
            n = 0
    _n = n


def _record(tag, addr, vector):
    # "tag addr nbytes hex": the last 64 digits are written whole, the host reads nbytes of them.
    global _n
    k = 0
    for b in vector:
        k += len(b)
    print(tag, addr, k, end=" ")
    for b in vector:
        _hex(b)
    if _n:
        sys.stdout.write(_buf)  # pyright: ignore[reportArgumentType]
        _n = 0
    print()


class Bus:
    # machine.I2C and machine.SPI as the drivers use them: each write printed, nothing kept.
    def scan(self):
        return [0x27, 0x3C]

    def writeto(self, addr, buf, stop=True):
        _record("I", addr, (buf,))

    def writevto(self, addr, vector, stop=True):
        _record("I", addr, vector)

    def write(self, buf):
        _record("W", 0, (buf,))

    def init(self, *args, **kw):
        pass


class Pin:
    # An output pin (MAX7219 chip select: printed) or an input the test holds low (a key).
    def __init__(self, cs=False):
        self.level = 1
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

    __call__ = value


class Col:
    # A keypad column: reads 0 while a held key joins it to the row driven low.
    def __init__(self, rows, c):
        self.rows = rows
        self.c = c
        self.down = -1  # keymap index of the held key, or -1

    def __call__(self, v=None):
        d = self.down
        return 0 if d >= 0 and d % 4 == self.c and not self.rows[d // 4].level else 1


def mount_flash():
    # The Pico's filesystem: littlefs on 352 blocks with rp2's progsize 256, mounted at /flash
    # (made on first use, as the rp2 firmware does on a blank board).
    import vfs  # pyright: ignore[reportMissingImports]

    from host_tools.fileflash import FileFlash

    bdev = FileFlash("flash.bin", 352)
    try:
        fs = vfs.VfsLfs2(bdev, progsize=256)
    except OSError:
        vfs.VfsLfs2.mkfs(bdev, progsize=256)
        fs = vfs.VfsLfs2(bdev, progsize=256)
    vfs.mount(fs, "/flash")


class Board:
    # Built in steps (build()), as a board's main.py runs: the display, the keys, the app.
    def build(self, kind, layout, lang, game, error_ms, store="-"):
        from firmware import hw
        from firmware.app import Hardware, Runner
        from firmware.mem import unload

        st = None
        if store == "lfs":
            from firmware.store import Store

            mount_flash()
            st = Store("/flash")

        bus = Bus()
        if kind == "digits":
            screen = hw.display(kind, spi=bus, cs=Pin(True))
        else:
            screen = hw.display(kind, i2c=bus, sleep_ms=lambda ms: None)
        yield
        if layout == "keypad":
            rows = [Pin() for _ in range(4)]
            self.cols = [Col(rows, c) for c in range(4)]
            inp = hw.keys(layout, rows=rows, cols=self.cols, keymap=KEYMAP)
        else:
            self.pins = [Pin() for _ in BUTTONS]
            inp = hw.keys(layout, pins=self.pins, names=BUTTONS)
        yield
        self.feeds = 0  # the board is its own watchdog: feed() counts
        self.layout = layout
        self.now = 0
        self.healthy = 0
        unload("hw")  # as boards/__init__.py does once the hardware is built
        self.runner = Runner(Hardware(screen, inp, kind, layout, self, None, lang), lang=lang,
                             game=game, error_ms=int(error_ms), log=False, store=st)
        yield

    def feed(self):
        self.feeds += 1

    def run(self, ms):
        # One step per loop pass (5 ms, as on the board): the VM collects between steps.
        end = self.now + ms
        while self.now < end:
            if self.runner.tick(self.now):
                self.healthy += 1
            self.now += 5
            yield

    def press(self, name, hold):
        if self.layout == "keypad":
            for c in self.cols:
                c.down = KEYMAP.index(name)
        else:
            self.pins[BUTTONS.index(name)].level = 0
        yield from self.run(hold)
        if self.layout == "keypad":
            for c in self.cols:
                c.down = -1
        else:
            self.pins[BUTTONS.index(name)].level = 1
        yield from self.run(60)

    def command(self, cmd):
        op, _, arg = cmd.partition(" ")
        r = self.runner
        if op == "keys":
            for k in arg.split():
                yield from self.press(k[5:], 1000) if k[:5] == "long:" else self.press(k, 80)
        elif op == "run":
            yield from self.run(int(arg))
        elif op == "state":
            print("S", json.dumps(r.app.ctl.match.state()))
        elif op == "mark":
            print("M")
        elif op == "boom":
            def boom(kind, name):
                raise RuntimeError("boom")

            r.app.ctl.key = boom
        elif op == "damage":
            _damage(arg)
        else:
            raise ValueError("mp_app: unknown command " + cmd)
        print("R", r.restarts, r.error, self.healthy, self.feeds)


def _damage(what):
    from firmware.store import remove_tree

    r = "/flash/"
    if what == "matchfile":
        remove_tree(r + "match")
        with open(r + "match", "wb") as f:
            f.write(b"not a folder")
    elif what == "bigcfg":
        with open(r + "settings.json", "wb") as f:
            f.write(b'{"p1": "')
            for _ in range(100):
                f.write(b"x" * 1024)
            f.write(b'"}')
    else:
        with open(r + what, "rb") as f:
            b = bytearray(f.read())
        b[10] ^= 4
        with open(r + what, "wb") as f:
            f.write(b)


def main():
    # ARGV: MODULES KIND LAYOUT LANG GAME ERROR_MS STORE CMD ...; MODULES, comma-separated,
    # are imported first, as main.py imports the app; STORE "lfs" keeps the match on a littlefs
    # filesystem (the board's), "-" in RAM.
    import mp_argv  # pyright: ignore[reportMissingImports]  (written by host_tools/mpy.py)

    args = mp_argv.ARGV[1:]
    from firmware import boot
    from firmware.mem import unload

    boot.load(args[0].split(","))  # as boards/main.py does
    unload("boot")
    board = Board()
    yield from board.build(*args[1:7])
    for cmd in args[7:]:
        yield from board.command(cmd)
    import micropython

    micropython.qstr_info()  # type: ignore  # "qstr pool: ..., n_qstr=N, ...": names interned


if __name__ == "__main__":
    for _ in main():
        pass
