# Board profiles: one module per board, the only code that imports `machine` (see README.md).
from firmware import unload
from firmware.app import Hardware


def build(p, machine):
    # Make the buses, the display, the input and the watchdog of profile p with this board's
    # `machine` module (passed in by the profile module, which imports it): an app.Hardware.
    from firmware import hw

    kind = p["display"]
    Pin = machine.Pin
    if kind == "digits":
        sid, sck, mosi, cs, hz = p["spi"]
        spi = machine.SPI(sid, baudrate=hz, polarity=0, phase=0, sck=Pin(sck), mosi=Pin(mosi))
        scr = hw.display(kind, spi=spi, cs=Pin(cs, Pin.OUT, value=1))
    else:
        iid, sda, scl, hz = p["i2c"]
        i2c = machine.I2C(iid, sda=Pin(sda), scl=Pin(scl), freq=hz)
        addr = p["lcd_addr"] if kind.startswith("lcd") else p["oled_addr"]
        scr = hw.display(kind, i2c=i2c, addr=addr)
    # Input pins are made after the bus: on the Pico, SPI0 also claims its default MISO (GP16)
    # and making GP16 an input again hands it back to the button wired there.
    if p["input"] == "keypad":
        rows = [Pin(n, Pin.OPEN_DRAIN, value=1) for n in p["rows"]]
        cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in p["cols"]]
        inp = hw.keys("keypad", rows=rows, cols=cols, keymap=p["keymap"],
                      debounce_ms=p["debounce_ms"], long_ms=p["long_ms"])
    else:
        pins = [Pin(n, Pin.IN, Pin.PULL_UP) for _, n in p["buttons"]]
        names = [name for name, _ in p["buttons"]]
        inp = hw.keys("buttons", pins=pins, names=names, debounce_ms=p["debounce_ms"],
                      long_ms=p["long_ms"])
    wdt = machine.WDT(timeout=p["wdt_ms"]) if p["wdt_ms"] else None
    unload("hw")  # the wiring code is not needed again
    return Hardware(scr, inp, kind, p["input"], wdt, machine.reset, p["lang"])
