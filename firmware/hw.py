# Wiring, used once at boot: display drivers and input built from buses and pins passed in (no
# `machine` here). Board profiles (boards/*.py) make the machine.I2C/SPI/Pin objects and call
# display() and keys(), then let this module go (firmware.mem.unload("hw")); the host simulator and
# the tests call them with fakes, so all share this wiring code.

def display(kind, i2c=None, spi=None, cs=None, addr=0, sleep_ms=None, np=None, size=(32, 8),
            brightness=4, wiring=None):
    # The driver for a display kind ("oled", "sh1106", "lcd20", "lcd16", "digits", and the wall
    # panels "neopixel", "matrix"): its show() takes what views.render gives for the kind (see
    # firmware.app.show; the wall panels take the "wall" view). OLEDs and LCDs need i2c (addr 0 =
    # the usual one), digits and the MAX7219 matrix need spi and its chip-select pin, a NeoPixel
    # panel np (a neopixel.NeoPixel of size[0] * size[1] pixels). size: the panel's (width,
    # height) in pixels; brightness 0-15; wiring: a dict of the panel driver's wiring options
    # (NeoPanel: pw, ph, cols, zigzag, flip_x, flip_y; Matrix: reverse, flip). Drivers are
    # imported here, only the one used.
    if kind == "neopixel":
        from firmware.drivers.neopanel import NeoPanel

        return NeoPanel(np, size[0], size[1], brightness=brightness, **(wiring or {}))
    if kind == "matrix":
        from firmware.drivers.matrix import Matrix

        return Matrix(spi, cs, size[0], size[1], brightness=brightness, **(wiring or {}))
    if kind == "oled" or kind == "sh1106":
        from firmware.drivers import oled_i2c  # on micropython-lib's ssd1306 (/lib on a board)
        from firmware.drivers.oled import Oled

        cls = oled_i2c.SSD1306W_I2C if kind == "oled" else oled_i2c.SH1106_I2C
        return Oled(cls(128, 64, i2c, addr or 0x3C))
    if kind == "lcd20" or kind == "lcd16":
        from firmware.drivers.lcd import Lcd

        if kind == "lcd20":
            return Lcd(i2c, addr or 0x27, 20, 4, sleep_ms=sleep_ms)
        return Lcd(i2c, addr or 0x27, 16, 2, sleep_ms=sleep_ms)
    if kind == "digits":
        from firmware.drivers.digits import Digits

        return Digits(spi, cs, intensity=brightness)
    raise ValueError("display kind: " + str(kind))


def keys(layout, rows=(), cols=(), pins=(), names=(), keymap="123A456B789C*0#D",
         debounce_ms=30, long_ms=800, stuck_ms=5000, contact_ms=1):
    # The input object: a Keypad (rows: outputs, cols: pulled-up inputs) or Buttons (pins: pulled-up
    # inputs, one per name). Both have poll(now_ms) and get().
    # Keys with no long-press meaning for the controller act once their contact has held
    # contact_ms (two loop passes at least; releases are debounced for debounce_ms): every keypad
    # key, and the buttons' MISS and OK (P1, P2, FOUL and UNDO have long presses).
    if layout == "keypad":
        from firmware.keys import Keypad

        k = Keypad(rows, cols, keymap, debounce_ms=debounce_ms, long_ms=long_ms,
                   stuck_ms=stuck_ms)
        k.at_contact(keymap, contact_ms)
        return k
    if layout == "buttons":
        from firmware.keys import Buttons

        k = Buttons(pins, names, debounce_ms=debounce_ms, long_ms=long_ms, stuck_ms=stuck_ms)
        k.at_contact(("MISS", "OK"), contact_ms)
        return k
    raise ValueError("input kind: " + str(layout))
