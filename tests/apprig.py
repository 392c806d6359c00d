# mp: yes
# Test rig (CPython and MicroPython): the app on a fake keypad/buttons and a fake bus, with simulated time.
from firmware import hw
from firmware.app import Runner
from host_tools import fakes  # puts firmware/lib (and on CPython framebuf) on sys.path
from host_tools.fakepins import FakeMatrix, FakePin

BUTTONS = ("P1", "P2", "FOUL", "UNDO", "MISS", "OK")
STEP = 5  # ms between loop passes


class FakeWdt:
    def __init__(self):
        self.feeds = 0

    def feed(self):
        self.feeds += 1


def _no_sleep(ms):
    return None


class Rig:
    # kind: "oled" | "sh1106" | "lcd20" | "lcd16" | "digits"; layout: "keypad" | "buttons".
    def __init__(self, kind="oled", layout="keypad", lang="en", game="14.1", error_ms=500,
                 lean=False):
        self.kind = kind
        self.lean = lean  # decode as we go and drop the bus records (less heap)
        self._dec = None
        self._fed = 0
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
        self.wdt = FakeWdt()
        self.hw = hw.Hardware(scr, inp, kind, layout, self.wdt, None, lang)
        self.runner = Runner(self.hw, lang=lang, game=game, error_ms=error_ms, log=False)
        self.now = 0
        self.healthy = 0  # healthy ticks so far

    @property
    def ctl(self):
        return self.runner.app.ctl

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            if self.runner.tick(self.now):
                self.healthy += 1
            self.now += STEP
        if self.lean:
            self.decoder()

    def _set(self, name, down):
        if self.layout == "keypad":
            if down:
                self.matrix.press(name)
            else:
                self.matrix.release(name)
        else:
            self.pins[BUTTONS.index(name)].set(0 if down else 1)

    def press(self, name, hold=80, settle=60):
        # Close the switch for hold ms and release it; the event comes on the debounced release.
        self._set(name, True)
        self.run(hold)
        self._set(name, False)
        self.run(settle)

    def long(self, name):
        self.press(name, hold=1000)

    def keys(self, text):
        # Space-separated key names; "long:X" for a long press.
        for _ in self.key_steps(text):
            pass

    def key_steps(self, text):
        # keys(), yielding after each key (MicroPython's test VM collects between steps).
        for tok in text.split():
            if tok.startswith("long:"):
                self.long(tok[5:])
            else:
                self.press(tok)
            yield

    def decoder(self):
        # A decoder fed with every bus record so far (incremental: each record is fed once).
        d = self._dec
        if d is None:
            if self.kind == "digits":
                from host_tools.fakes.max7219 import Max7219Decoder

                d = Max7219Decoder()
            elif self.kind.startswith("lcd"):
                from host_tools.fakes.lcd import LcdDecoder

                d = LcdDecoder(20, 4) if self.kind == "lcd20" else LcdDecoder(16, 2)
            else:
                from host_tools.fakes.oled import Ssd1306Decoder

                d = Ssd1306Decoder(sh1106=self.kind == "sh1106")
            self._dec = d
        recs = self.bus.records
        if len(recs) > self._fed:
            d.feed(recs[self._fed:])
            self._fed = len(recs)
        if self.lean:  # forget fed records (MicroPython: keep the heap for the app)
            self.bus.records = []
            self._fed = 0
        return d

    def screen(self):
        # What the display shows, decoded from the bus bytes: OLED text rows, LCD grid, digits.
        d = self.decoder()
        if self.kind == "digits":
            return [d.text()]  # type: ignore
        if self.kind.startswith("lcd"):
            return d.grid()  # type: ignore
        from host_tools.fakes import oled as fo

        return fo.read_text(d.bitmap())  # type: ignore

    def state(self):
        return self.ctl.match.state()


def start(rig):
    # Start the preselected game with the default settings and let player 1 break.
    if rig.layout == "keypad":
        rig.keys("2 5 1")  # up from the first row wraps to "start"; 5 = ok; 1 = player 1 breaks
        return
    n = len(rig.ctl.model()["items"])
    for _ in range(n - 1):
        rig.press("P1")  # down to "start"
    rig.keys("FOUL P1")  # FOUL = ok; P1 breaks
