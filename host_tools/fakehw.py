# The app's hardware bundle on fake buses and pins (CPython and MicroPython): tests/apprig.py, sim.
from firmware import hw
from firmware.app import Hardware
from host_tools import fakes  # puts firmware/lib (and on CPython framebuf) on sys.path
from host_tools.fakepins import FakeMatrix, FakePin

BUTTONS = ("P1", "P2", "FOUL", "UNDO", "MISS", "OK")


def _no_sleep(ms):
    return None


class FakeBoard:
    # self.hw: app.Hardware for a display kind ("oled" | "sh1106" | "lcd20" | "lcd16" | "digits")
    # on a fake bus (self.bus) and an input layout ("keypad" | "buttons") on fake pins
    # (self.matrix, or self.pins in BUTTONS order); set_key() closes or opens a key's switch.
    def __init__(self, kind, layout, lang="en", wdt=None):
        self.kind = kind
        self.layout = layout
        if kind == "digits":
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
        self.hw = Hardware(scr, inp, kind, layout, wdt, None, lang)

    def set_key(self, name, down):
        if self.layout == "keypad":
            if down:
                self.matrix.press(name)
            else:
                self.matrix.release(name)
        else:
            self.pins[BUTTONS.index(name)].set(0 if down else 1)


def decoder(kind):
    # A decoder of what the display kind's bus carries (importing only the one it needs).
    if kind == "digits":
        from host_tools.fakes.max7219 import Max7219Decoder

        return Max7219Decoder()
    if kind.startswith("lcd"):
        from host_tools.fakes.lcd import LcdDecoder

        return LcdDecoder(20, 4) if kind == "lcd20" else LcdDecoder(16, 2)
    from host_tools.fakes.oled import Ssd1306Decoder

    return Ssd1306Decoder(sh1106=kind == "sh1106")


def screen_text(kind, dec):
    # What the display shows, from a decoder fed its bus: OLED text rows, the LCD grid, or the
    # digits as one string in a list.
    if kind == "digits":
        return [dec.text()]
    if kind.startswith("lcd"):
        return dec.grid()
    from host_tools.fakes import oled as fo

    return fo.read_text(dec.bitmap())
