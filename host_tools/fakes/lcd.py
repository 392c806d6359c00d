# Decode PCF8574 backpack bytes into what an HD44780 LCD shows (Turkish CGRAM glyphs recognised).
from firmware.drivers import TR
from firmware.drivers.lcd import LCD5
from host_tools.fakes import UNKNOWN

LCD_TR = TR[: len(LCD5) // 8]  # the letters with a CGRAM glyph

_LCD_ROM = {
    0x5C: "\u00a5",
    0x7E: "\u2192",
    0x7F: "\u2190",
    0xEF: "\u00f6",
    0xF5: "\u00fc",
    0xE1: "\u00e4",
    0xDF: "\u00b0",
}


class LcdDecoder:
    # Interprets PCF8574 output bytes (P0=RS, P1=RW, P2=E, P3=backlight, P4..P7=D4..D7) as an
    # HD44780 sees them: a nibble is latched on each falling edge of E.
    def __init__(self, cols=20, rows=4, addr=None):
        self.cols = cols
        self.rows = rows
        self.addr = addr
        self.ddram = bytearray(b" " * 128)
        self.cgram = bytearray(64)
        self.ac = 0
        self.to_cgram = False
        self.inc = 1
        self.display_on = False
        self.cursor = False
        self.blink = False
        self.two_lines = False
        self.four_bit = False
        self.backlight = False
        self.shift = 0
        self._hi = None
        self._prev = 0
        self.instructions = 0
        self.data_writes = 0

    def feed(self, records):
        for r in records:
            if self.addr is not None and r[0] != self.addr:
                continue
            for b in r[1]:
                self.pcf_byte(b)
        return self

    def pcf_byte(self, b):
        self.backlight = bool(b & 0x08)
        prev = self._prev
        self._prev = b
        if prev & 0x04 and not b & 0x04 and not prev & 0x02:  # E fell during a write
            self._nibble(prev >> 4, prev & 0x01)

    def _nibble(self, nib, rs):
        if not self.four_bit:
            self._byte(nib << 4, rs)  # 8-bit mode: D0..D3 are not wired, read as 0
            return
        if self._hi is None:
            self._hi = nib
            return
        v = (self._hi << 4) | nib
        self._hi = None
        self._byte(v, rs)

    def _byte(self, v, rs):
        if rs:
            self.data_writes += 1
            if self.to_cgram:
                self.cgram[self.ac & 0x3F] = v & 0x1F
                self.ac = (self.ac + self.inc) & 0x3F
            else:
                self.ddram[self.ac & 0x7F] = v
                self._step()
            return
        self.instructions += 1
        if v & 0x80:
            self.ac = v & 0x7F
            self.to_cgram = False
        elif v & 0x40:
            self.ac = v & 0x3F
            self.to_cgram = True
        elif v & 0x20:
            self.four_bit = not (v & 0x10)
            self.two_lines = bool(v & 0x08)
            self._hi = None
        elif v & 0x10:
            right = 1 if v & 0x04 else -1
            if v & 0x08:
                self.shift += right
            else:
                self.inc_ac(right)
        elif v & 0x08:
            self.display_on = bool(v & 0x04)
            self.cursor = bool(v & 0x02)
            self.blink = bool(v & 0x01)
        elif v & 0x04:
            self.inc = 1 if v & 0x02 else -1
        elif v & 0x02:
            self.ac = 0
            self.to_cgram = False
            self.shift = 0
        elif v & 0x01:
            for i in range(128):
                self.ddram[i] = 0x20
            self.ac = 0
            self.to_cgram = False
            self.inc = 1
            self.shift = 0

    def inc_ac(self, d):
        a = self.ac + d
        if self.two_lines:  # DDRAM is 0x00..0x27 and 0x40..0x67
            if a == 0x28:
                a = 0x40
            elif a == 0x68:
                a = 0x00
            elif a == 0x3F:
                a = 0x27
            elif a == -1:
                a = 0x67
        else:
            a %= 0x50
        self.ac = a & 0x7F

    def _step(self):
        self.inc_ac(self.inc)

    def _row_addrs(self):
        return (0x00, 0x40, self.cols, 0x40 + self.cols)[: self.rows]

    def glyph(self, slot):
        # The 8 CGRAM rows of a custom character slot (0..7).
        return bytes(self.cgram[(slot & 7) * 8 : (slot & 7) * 8 + 8])

    def char(self, code):
        if code < 16:
            g = self.glyph(code)
            t = LCD5
            for i in range(len(LCD_TR)):
                if g == t[i * 8 : i * 8 + 8]:
                    return LCD_TR[i]
            return UNKNOWN
        if code in _LCD_ROM:
            return _LCD_ROM[code]
        if 0x20 <= code < 0x80:
            return chr(code)
        return UNKNOWN

    def codes(self):
        # Character codes in each visible cell, row by row (ignores display shift).
        out = []
        for a in self._row_addrs():
            out.append(bytes(self.ddram[a : a + self.cols]))
        return out

    def grid(self):
        # What a person reads: one string per row (full width); blank when the display is off.
        if not self.display_on:
            return [" " * self.cols for _ in range(self.rows)]
        return ["".join([self.char(c) for c in row]) for row in self.codes()]


def decode_lcd(records, cols=20, rows=4, addr=None):
    # I2C records -> list of `rows` strings as the LCD shows them.
    return LcdDecoder(cols, rows, addr).feed(records).grid()
