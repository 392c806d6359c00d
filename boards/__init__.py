# Board profiles: one module per board, the only code that imports `machine` (see README.md).
from firmware.app import Hardware
from firmware.mem import unload


def build(p, machine):
    # Make the buses, the display, the input and the watchdog of profile p with this board's
    # `machine` module (passed in by the profile module, which imports it): an app.Hardware.
    from firmware import hw

    kind = p["display"]
    # a second display besides the display: a wall panel "neopixel" | "matrix", the MAX7219
    # "digits" | None
    wall = p.get("wall")
    Pin = machine.Pin
    spi = None
    if kind in _SPI or wall in _SPI:
        sid, sck, mosi, cs, hz = p["spi"]
        spi = machine.SPI(sid, baudrate=hz, polarity=0, phase=0, sck=Pin(sck), mosi=Pin(mosi))
    if kind == "digits":
        # 8 digits show the scores, the shooter, fouls and ball in hand, not the setup's names,
        # a choice's options or why a key was refused: they need a display beside them
        d = hw.display(kind, spi=spi, cs=Pin(p["spi"][3], Pin.OUT, value=1))
        d.show("no LCd  ")
        raise ValueError(NO_DIGITS_ALONE)
    if kind in _WALLS:
        scr = _panel(hw, p, kind, Pin, spi)  # a board with the wall panel only
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
                      debounce_ms=p["debounce_ms"], long_ms=p["long_ms"],
                      contact_ms=p["contact_ms"])
    else:
        pins = [Pin(n, Pin.IN, Pin.PULL_UP) for _, n in p["buttons"]]
        names = [name for name, _ in p["buttons"]]
        inp = hw.keys("buttons", pins=pins, names=names, debounce_ms=p["debounce_ms"],
                      long_ms=p["long_ms"], contact_ms=p["contact_ms"])
    # the wall panel: beside the display, or the display itself (then also the app's wall, so
    # that its marks blink)
    wl = scr if kind in _WALLS else (_panel(hw, p, wall, Pin, spi) if wall else None)
    # the piezo buzzer (the shot clock's beeps) on its PWM pin, made after the bus too; its
    # driver is loaded only for a profile with a "buzzer_pin"
    bz = None
    if p.get("buzzer_pin") is not None:
        from firmware.drivers.buzzer import Buzzer

        bz = Buzzer(machine.PWM(Pin(p["buzzer_pin"])))
    if hasattr(machine, "RTC"):  # the clock of the records' times, set by NTP (firmware/net.py)
        from firmware import rtc

        rtc.device = machine.RTC()
    wdt = machine.WDT(timeout=p["wdt_ms"]) if p["wdt_ms"] else None
    unload("hw")  # the wiring code is not needed again
    return Hardware(scr, inp, kind, p["input"], wdt, machine.reset, p["lang"], wall=wl, buzzer=bz)


_SPI = ("digits", "matrix")
_WALLS = ("neopixel", "matrix")
NO_DIGITS_ALONE = ('display "digits": the MAX7219 digits need a display beside them; set '
                   '"display" to "oled", "sh1106", "lcd20" or "lcd16" and "wall" to "digits"')


def _panel(hw, p, kind, Pin, spi):
    # A wall panel: a NeoPixel matrix on its data pin (MicroPython's neopixel module), or a
    # MAX7219 dot-matrix chain on the SPI bus with its own chip select.
    w, h = p["wall_size"]
    opts = p.get("wall_wiring") or None
    if kind == "neopixel":
        import neopixel

        np = neopixel.NeoPixel(Pin(p["neopixel_pin"], Pin.OUT), w * h)
        return hw.display(kind, np=np, size=(w, h), brightness=p["wall_brightness"], wiring=opts)
    if kind == "matrix":
        return hw.display(kind, spi=spi, cs=Pin(p["matrix_cs"], Pin.OUT, value=1), size=(w, h),
                          brightness=p["wall_brightness"], wiring=opts)
    if kind == "digits":  # on the SPI bus with the digits' chip select
        return hw.display(kind, spi=spi, cs=Pin(p["spi"][3], Pin.OUT, value=1),
                          brightness=p["wall_brightness"])
    raise ValueError("wall kind: " + str(kind))
