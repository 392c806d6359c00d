# The app's hardware bundle on fake buses and pins (CPython and MicroPython): tests/apprig.py, sim.
from firmware import hw
from firmware.app import Hardware
from host_tools import fakes  # puts firmware/lib (and on CPython framebuf) on sys.path
from host_tools.fakekeys import BUTTONS, FakeMatrix
from host_tools.fakepins import FakePin


def _no_sleep(ms):
    return None


WALLS = ("neopixel", "matrix")
WALL_SIZE = (32, 8)


def wall_panel(kind, size=WALL_SIZE, brightness=4, wiring=None):
    # (driver, fake device) of a wall panel kind: a fake neopixel.NeoPixel, or a fake SPI bus
    # with the matrix's (or the digits') CS pin bound to it.
    if kind == "neopixel":
        from host_tools.fakes.neopixel import NeoPixel

        dev = NeoPixel(fakes.FakePin(0), size[0] * size[1])
        return hw.display(kind, np=dev, size=size, brightness=brightness, wiring=wiring), dev
    dev = fakes.FakeSPI()
    if kind == "digits":  # the MAX7219 digits beside the display
        return hw.display(kind, spi=dev, cs=fakes.FakePin(1, bus=dev), brightness=brightness), dev
    return hw.display("matrix", spi=dev, cs=fakes.FakePin(1, bus=dev), size=size,
                      brightness=brightness, wiring=wiring), dev


class FakeBoard:
    # self.hw: app.Hardware for a display kind ("oled" | "sh1106" | "lcd20" | "lcd16" | "digits"
    # | "neopixel" | "matrix") on a fake bus (self.bus: a fake NeoPixel for "neopixel") and an
    # input layout ("keypad" | "buttons") on fake pins (self.matrix, or self.pins in BUTTONS
    # order); set_key() closes or opens a key's switch. wall: a wall panel kind besides the
    # display (its fake device: self.wall_dev); a wall kind as the display is also the wall.
    def __init__(self, kind, layout, lang="en", wdt=None, wall=None, wall_size=WALL_SIZE):
        self.kind = kind
        self.layout = layout
        self.wall_kind = kind if kind in WALLS else wall
        self.wall_size = wall_size
        wl = None
        self.wall_dev = None
        if kind in WALLS:
            scr, self.bus = wall_panel(kind, wall_size)
            wl = scr
            self.wall_dev = self.bus
        elif kind == "digits":
            self.bus = fakes.FakeSPI()
            scr = hw.display(kind, spi=self.bus, cs=fakes.FakePin(1, bus=self.bus))
        else:
            self.bus = fakes.FakeI2C()
            scr = hw.display(kind, i2c=self.bus, sleep_ms=_no_sleep)
        if layout == "keypad":
            self.matrix = FakeMatrix()
            inp = hw.keys("keypad", rows=self.matrix.rows, cols=self.matrix.cols)
        else:
            self.pins = [FakePin(1) for _ in BUTTONS]
            inp = hw.keys("buttons", pins=self.pins, names=BUTTONS)
        if wall and kind not in WALLS:
            wl, self.wall_dev = wall_panel(wall, wall_size)
        self.hw = Hardware(scr, inp, kind, layout, wdt, None, lang, wall=wl)

    def set_key(self, name, down):
        if self.layout == "keypad":
            if down:
                self.matrix.press(name)
            else:
                self.matrix.release(name)
        else:
            self.pins[BUTTONS.index(name)].set(0 if down else 1)


def decoder(kind, size=WALL_SIZE):
    # A decoder of what the display kind's bus carries (importing only the one it needs).
    if kind in WALLS:
        return WallDecoder(kind, size)
    if kind == "digits":
        from host_tools.fakes.max7219 import Max7219Decoder

        return Max7219Decoder()
    if kind.startswith("lcd"):
        from host_tools.fakes.lcd import LcdDecoder

        return LcdDecoder(20, 4) if kind == "lcd20" else LcdDecoder(16, 2)
    from host_tools.fakes.oled_host import Ssd1306Decoder  # (oled's, faster on CPython)

    return Ssd1306Decoder(sh1106=kind == "sh1106")


def screen_text(kind, dec):
    # What the display shows, from a decoder fed its bus: OLED text rows, the LCD grid, or the
    # digits as one string in a list.
    if kind == "digits":
        return [dec.text()]
    if kind in WALLS:
        return dec.text()
    if kind.startswith("lcd"):
        return dec.grid()
    from host_tools.fakes import oled_host

    return oled_host.read_text(dec.bitmap())


class WallDecoder:
    # What a wall panel shows, from its fake device's records: feed(records) takes a FakeSPI's
    # records (matrix) or a fake NeoPixel's writes (a list of bytes); rows() -> the pixels as
    # seen (lists of 0xRRGGBB, or bytearrays of 0/1), read() the reading of host_tools.fakes.wall, text() it as
    # lines (the pixel art and the reading).
    def __init__(self, kind, size=WALL_SIZE, wiring=None):
        self.kind = kind
        self.size = size
        self.wiring = wiring or {}
        self.last = None  # the NeoPixel's last frame
        self.mx = None
        if kind == "matrix":
            from host_tools.fakes.matrix import MatrixDecoder

            self.mx = MatrixDecoder(size[0], size[1], **self.wiring)

    def feed(self, records):
        if self.mx is not None:
            self.mx.feed(records)
        elif records:
            self.last = records[-1]
        return self

    def rows(self):
        w, h = self.size
        if self.mx is not None:
            return self.mx.bitmap()
        from host_tools.fakes.neopixel import grid

        return grid(self.last or bytes(3 * w * h), w, h, **self.wiring)

    def read(self):
        from host_tools.fakes import wall

        return wall.read(self.rows())

    def text(self):
        from host_tools.fakes import wall

        rows = self.rows()
        r = wall.read(rows)
        return wall.art(rows) + [wall.summary(r)]
