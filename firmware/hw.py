# Hardware bundle and display adapters: drivers built from buses and pins passed in (no `machine` here).
# Board profiles (boards/*.py) make the machine.I2C/SPI/Pin objects and call display() and keys();
# the host simulator and the tests call them with fakes, so all share this wiring code.

# Display kinds of a profile and the view kind (views.render) each one shows.
DISPLAYS = ("oled", "sh1106", "lcd20", "lcd16", "digits")


def view_kind(display):
    # "oled" and "sh1106" both show OLED screens; the others are their own view kind.
    if display == "sh1106":
        return "oled"
    if display not in DISPLAYS:
        raise ValueError("display kind: " + str(display))
    return display


class OledScreen:
    # Adapter: show((lines, big, inverse)) on a firmware.drivers.oled.Oled.
    def __init__(self, drv):
        self.drv = drv

    def show(self, rendered):
        return self.drv.show(rendered[0], rendered[1], rendered[2])

    def invalidate(self):
        self.drv.invalidate()


class TextScreen:
    # Adapter: show(lines) on an Lcd, show(text) on Digits; both drivers take it as it is.
    def __init__(self, drv):
        self.drv = drv

    def show(self, rendered):
        return self.drv.show(rendered)

    def invalidate(self):
        self.drv.invalidate()


def display(kind, i2c=None, spi=None, cs=None, addr=0, sleep_ms=None):
    # The screen adapter for a display kind. OLEDs and LCDs need i2c (addr 0 = the usual one),
    # digits need spi and its chip-select pin. Drivers are imported here, only the one used.
    if kind == "oled" or kind == "sh1106":
        from firmware.drivers.oled import Oled

        if kind == "oled":
            import ssd1306  # micropython-lib driver, /lib on a board, firmware/lib on the host

            d = ssd1306.SSD1306_I2C(128, 64, i2c, addr or 0x3C)
        else:
            from firmware.drivers.sh1106 import SH1106_I2C

            d = SH1106_I2C(128, 64, i2c, addr or 0x3C)
        return OledScreen(Oled(d))
    if kind == "lcd20" or kind == "lcd16":
        from firmware.drivers.lcd import Lcd

        if kind == "lcd20":
            return TextScreen(Lcd(i2c, addr or 0x27, 20, 4, sleep_ms=sleep_ms))
        return TextScreen(Lcd(i2c, addr or 0x27, 16, 2, sleep_ms=sleep_ms))
    if kind == "digits":
        from firmware.drivers.digits import Digits

        return TextScreen(Digits(spi, cs))
    raise ValueError("display kind: " + str(kind))


def keys(layout, rows=(), cols=(), pins=(), names=(), keymap="123A456B789C*0#D",
         debounce_ms=30, long_ms=800, stuck_ms=5000):
    # The input object: a Keypad (rows: outputs, cols: pulled-up inputs) or Buttons (pins: pulled-up
    # inputs, one per name). Both have poll(now_ms) and get().
    if layout == "keypad":
        from firmware.input.keypad import Keypad

        return Keypad(rows, cols, keymap, debounce_ms=debounce_ms, long_ms=long_ms,
                      stuck_ms=stuck_ms)
    if layout == "buttons":
        from firmware.input.buttons import Buttons

        return Buttons(pins, names, debounce_ms=debounce_ms, long_ms=long_ms, stuck_ms=stuck_ms)
    raise ValueError("input kind: " + str(layout))


class Hardware:
    # What the app gets: display adapter, input, watchdog (or None), reset (or None), and the kinds.
    def __init__(self, display, input, kind, layout, wdt=None, reset=None, lang="en"):
        self.display = display
        self.input = input
        self.kind = kind  # display kind of the profile ("oled", "sh1106", "lcd20", ...)
        self.view = view_kind(kind)  # what views.render is asked for
        self.layout = layout  # "keypad" or "buttons"
        self.wdt = wdt
        self.reset = reset
        self.lang = lang
