# Test rig (CPython): the app on a fake keypad/buttons and a fake bus, with simulated time.
from firmware.app import Runner
from host_tools.fakehw import FakeBoard, decoder, screen_text

STEP = 5  # ms between loop passes


class FakeWdt:
    def __init__(self):
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class Rig(FakeBoard):
    # kind: "oled" | "sh1106" | "lcd20" | "lcd16" | "digits"; layout: "keypad" | "buttons".
    def __init__(self, kind="oled", layout="keypad", lang="en", game="14.1", error_ms=500,
                 store=None, wdt_reset=False, net=None):
        self._dec = None
        self._fed = 0
        self.wdt = FakeWdt()
        super().__init__(kind, layout, lang, self.wdt)
        self.hw.wdt_reset = wdt_reset  # booted after a watchdog reset (boards/main.py)
        self.runner = Runner(self.hw, lang=lang, game=game, error_ms=error_ms, log=False,
                             store=store, net=net)
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

    def press(self, name, hold=80, settle=60):
        # Close the switch for hold ms and release it; the event comes on the debounced release.
        self.set_key(name, True)
        self.run(hold)
        self.set_key(name, False)
        self.run(settle)

    def long(self, name):
        self.press(name, hold=1000)

    def keys(self, text):
        # Space-separated key names; "long:X" for a long press.
        for tok in text.split():
            if tok.startswith("long:"):
                self.long(tok[5:])
            else:
                self.press(tok)

    def decoder(self):
        # A decoder fed with every bus record so far (incremental: each record is fed once).
        d = self._dec
        if d is None:
            d = self._dec = decoder(self.kind)
        recs = self.bus.records
        if len(recs) > self._fed:
            d.feed(recs[self._fed:])
            self._fed = len(recs)
        return d

    def screen(self):
        # What the display shows, decoded from the bus bytes: OLED text rows, LCD grid, digits.
        return screen_text(self.kind, self.decoder())

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
