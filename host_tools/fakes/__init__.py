# Display bus fakes (I2C, SPI, CS pin) that record bytes; submodules decode them as a person sees.
# Runs on CPython and MicroPython (tests import it under both); split in small modules so that each
# compiles within a 64 KB MicroPython heap.
#
# host_tools.fakes (this file):
#   FakeI2C(devices=(0x3C, 0x27)) .writeto(addr, buf) .writevto(addr, vec) .scan()
#                                .records: [(addr, bytes)], one per transaction
#   FakeSPI()                    .write(buf) .init(...) .records: ("w", bytes) and ("cs", level)
#   FakePin(level=1, bus=None)   host_tools.fakepins' pin; with bus=spi its level changes go into
#                                spi.records, so spi.frames() can split them
# host_tools.fakes.oled:
#   decode_ssd1306(records)      -> bitmap: list of `height` bytearrays of 0/1 pixels (as seen)
#   read_text(bitmap)            -> the 8x8 text rows of an OLED bitmap (big 2x rows recognised)
#   render_bitmap_ascii(bitmap)  -> "#"/"." picture, one line per pixel row
# host_tools.fakes.lcd:
#   decode_lcd(records)          -> list of strings (the LCD grid, Turkish CGRAM glyphs recognised)
# host_tools.fakes.max7219:
#   decode_max7219(records)      -> the 8 characters shown, "." after a lit decimal point
import sys


def setup_paths():
    # Put the board's library folder (firmware/lib, i.e. /lib on a board) on sys.path, and on
    # CPython also host_tools/hostlib (framebuf, micropython stand-ins). Returns the repo root.
    f = __file__  # .../host_tools/fakes/__init__.py
    pkg = f.rsplit("/", 1)[0] if "/" in f else "."
    here = pkg.rsplit("/", 1)[0] if "/" in pkg else "."
    root = here.rsplit("/", 1)[0] if "/" in here else "."
    if not root:
        root = "/"
    paths = [root.rstrip("/") + "/firmware/lib"]
    if sys.implementation.name != "micropython":
        paths.append(here + "/hostlib")
    for p in paths:
        if p not in sys.path:
            sys.path.insert(0, p)
    return root


setup_paths()

from host_tools.fakepins import FakePin  # noqa: E402, F401  (the one fake pin)

UNKNOWN = "\ufffd"  # what decoders report for a cell that matches no known character


# ---------------------------------------------------------------- buses


class FakeI2C:
    # An I2C bus with devices at the given addresses; records every write transaction.
    def __init__(self, devices=(0x3C, 0x27)):
        self.devices = list(devices)
        self.records = []

    def scan(self):
        return sorted(self.devices)

    def _check(self, addr):
        if addr not in self.devices:
            raise OSError(19)  # ENODEV, as machine.I2C when nothing acknowledges

    def writeto(self, addr, buf, stop=True):
        self._check(addr)
        self.records.append((addr, bytes(buf)))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        self._check(addr)
        out = b""
        for b in vector:
            out += bytes(b)
        self.records.append((addr, out))
        return len(out)

    def readfrom(self, addr, n, stop=True):
        self._check(addr)
        return bytes(n)

    def mark(self):
        # Position to pass to since() later.
        return len(self.records)

    def since(self, mark):
        return self.records[mark:]

    def nbytes(self, mark=0):
        # Bytes written since mark (payload only, without the address byte of each transaction).
        n = 0
        for r in self.records[mark:]:
            n += len(r[1])
        return n

    def clear(self):
        self.records = []


class FakeSPI:
    # An SPI bus: records ("w", bytes) for each write, and ("cs", level) from pins bound to it.
    def __init__(self):
        self.records = []

    def init(self, *args, **kw):
        pass

    def write(self, buf):
        self.records.append(("w", bytes(buf)))

    def mark(self):
        return len(self.records)

    def nbytes(self, mark=0):
        n = 0
        for r in self.records[mark:]:
            if r[0] == "w":
                n += len(r[1])
        return n

    def frames(self, mark=0):
        # The bytes written during each CS-low window, in order.
        out = []
        cur = None
        for r in self.records[mark:]:
            if r[0] == "cs":
                if r[1] == 0:
                    cur = b""
                elif cur is not None:
                    out.append(cur)
                    cur = None
            elif cur is not None:
                cur += r[1]
        return out

    def clear(self):
        self.records = []


