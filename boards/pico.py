# Raspberry Pi Pico / Pico W / Pico 2 profile: the pin map, and build() makes the hardware from it.
# The only file (with boards/esp32_devkit.py) that imports `machine`; wiring table in boards/README.md.
PROFILE = {
    "board": "pico",
    "display": "oled",  # "oled" (SSD1306) | "sh1106" | "lcd20" | "lcd16"
    # | "neopixel" | "matrix" (a wall panel as the only display); the MAX7219 digits only as "wall"
    # A wall panel for the players besides the referee's display: None | "neopixel" (WS2812B
    # matrix) | "matrix" (MAX7219 8x8 modules, 4-in-1 32x8) | "digits" (MAX7219 8-digit module,
    # CS on the "spi" pin below); its size in pixels, brightness 0-15
    # and wiring (boards/README.md: NeoPanel pw, ph, cols, zigzag, flip_x, flip_y; Matrix reverse,
    # flip)
    "wall": None,
    "wall_size": (32, 8),
    "wall_brightness": 4,
    "wall_wiring": None,  # e.g. {"cols": False} for a 16x16 NeoPixel panel (rows zigzag)
    "neopixel_pin": 28,  # NeoPixel DIN: GP28 (through a 74AHCT125 to 5 V logic if it needs it)
    "matrix_cs": 27,  # MAX7219 matrix CS (LOAD): GP27; DIN and CLK on the SPI bus below
    # piezo buzzer of the shot clock, on a PWM pin (boards/README.md): None = none; 26 (GP26)
    "buzzer_pin": None,
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
    "debounce_ms": 30,  # a release (and a long-press key's press) holds this long
    "contact_ms": 1,  # a key with no long-press meaning acts once its contact held this long
    "long_ms": 800,
    "wdt_ms": 8000,  # watchdog timeout (the RP2040 allows at most 8388 ms); 0 = no watchdog
}


def build(profile=PROFILE):
    # Make this board's hardware from the profile (the steps are shared: boards.build).
    import machine

    import boards

    return boards.build(profile, machine)
