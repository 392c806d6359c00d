# Raspberry Pi Pico / Pico W / Pico 2 profile: the pin map, and build() makes the hardware from it.
# The only file (with boards/esp32_devkit.py) that imports `machine`; wiring table in boards/README.md.
from firmware import hw

PROFILE = {
    "board": "pico",
    "display": "oled",  # "oled" (SSD1306) | "sh1106" | "lcd20" | "lcd16" | "digits" (MAX7219)
    "input": "keypad",  # "keypad" (4x4 matrix) | "buttons" (4 to 6 push buttons)
    "lang": "en",  # "en" | "tr"
    # I2C0 for the OLED (0x3C) or the LCD backpack (0x27; 0x3F for a PCF8574AT)
    "i2c": (0, 4, 5, 400000),  # id, SDA GP4, SCL GP5, Hz
    "oled_addr": 0x3C,
    "lcd_addr": 0x27,
    # SPI0 for the MAX7219 digits: id, SCK GP18, MOSI (DIN) GP19, CS (LOAD) GP17, Hz
    "spi": (0, 18, 19, 17, 1000000),
    # 4x4 keypad: rows are driven (open drain), columns read with pull-ups
    "rows": (6, 7, 8, 9),
    "cols": (10, 11, 12, 13),
    "keymap": "123A456B789C*0#D",
    # buttons to GND, internal pull-ups; drop the last two pairs for a 4-button panel
    "buttons": (("P1", 14), ("P2", 15), ("FOUL", 16), ("UNDO", 20), ("MISS", 21), ("OK", 22)),
    "debounce_ms": 30,
    "long_ms": 800,
    "wdt_ms": 8000,  # watchdog timeout (the RP2040 allows at most 8388 ms); 0 = no watchdog
}


def build(profile=PROFILE):
    # Make the buses, the display, the input and the watchdog of this profile: a hw.Hardware.
    import machine

    p = profile
    kind = p["display"]
    if kind == "digits":
        sid, sck, mosi, cs, hz = p["spi"]
        spi = machine.SPI(sid, baudrate=hz, polarity=0, phase=0, sck=machine.Pin(sck),
                          mosi=machine.Pin(mosi))
        scr = hw.display(kind, spi=spi, cs=machine.Pin(cs, machine.Pin.OUT, value=1))
    else:
        iid, sda, scl, hz = p["i2c"]
        i2c = machine.I2C(iid, sda=machine.Pin(sda), scl=machine.Pin(scl), freq=hz)
        addr = p["lcd_addr"] if kind.startswith("lcd") else p["oled_addr"]
        scr = hw.display(kind, i2c=i2c, addr=addr)
    # Input pins are made after the bus: SPI0 also claims its default MISO (GP16) and making
    # GP16 an input again hands it back to the button wired there.
    Pin = machine.Pin
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
    return hw.Hardware(scr, inp, kind, p["input"], wdt, machine.reset, p["lang"])
