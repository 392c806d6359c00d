# ESP32 DevKit (ESP32-WROOM-32) profile: the pin map, and build() makes the hardware from it.
# The only file (with boards/pico.py) that imports `machine`; wiring table in boards/README.md.
# Pins avoid the strapping pins (0, 2, 5 is only CS, idle high; 12, 15), the flash pins (6-11)
# and the input-only 34-39 (no pull-ups).
PROFILE = {
    "board": "esp32_devkit",
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
    "neopixel_pin": 16,  # NeoPixel DIN: GPIO16 (through a 74AHCT125 to 5 V logic if it needs it)
    "matrix_cs": 17,  # MAX7219 matrix CS (LOAD): GPIO17; DIN and CLK on the SPI bus below
    # piezo buzzer of the shot clock, on a PWM pin (boards/README.md): None = none; 19 (GPIO19)
    "buzzer_pin": None,
    "input": "keypad",  # "keypad" (4x4 matrix) | "buttons" (4 to 6 push buttons)
    "lang": "en",  # "en" | "tr"
    # hardware I2C 0: id, SDA GPIO21, SCL GPIO22, Hz
    "i2c": (0, 21, 22, 400000),
    "oled_addr": 0x3C,
    "lcd_addr": 0x27,
    # VSPI (SPI id 2): id, SCK GPIO18, MOSI (DIN) GPIO23, CS (LOAD) GPIO5, Hz. GPIO5 is a
    # strapping pin that must be high at reset: the MAX7219 LOAD input idles high, which suits it.
    "spi": (2, 18, 23, 5, 1000000),
    # 4x4 keypad: rows driven (open drain), columns with pull-ups. GPIO12 (MTDI, flash voltage
    # strap) is left out on purpose: a key held at power-up could pull it high.
    "rows": (13, 14, 27, 26),
    "cols": (25, 33, 32, 4),
    "keymap": "123A456B789C*0#D",
    # buttons to GND, internal pull-ups; drop the last two pairs for a 4-button panel
    "buttons": (("P1", 13), ("P2", 14), ("FOUL", 27), ("UNDO", 26), ("MISS", 25), ("OK", 33)),
    "debounce_ms": 30,  # a release (and a long-press key's press) holds this long
    "contact_ms": 1,  # a key with no long-press meaning acts once its contact held this long
    "long_ms": 800,
    "wdt_ms": 8000,  # watchdog timeout; 0 = no watchdog
}


def build(profile=PROFILE):
    # Make this board's hardware from the profile (the steps are shared: boards.build).
    import machine

    import boards

    return boards.build(profile, machine)
