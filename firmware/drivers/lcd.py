# HD44780 LCD (20x4, 16x2) on a PCF8574 I2C backpack: Turkish letters in CGRAM, changed cells only.
# Backpack wiring (the common one): P0=RS, P1=RW, P2=E, P3=backlight, P4..P7=D4..D7.
# ROM A00 (the usual Japanese ROM) has o- and u-umlaut (0xEF, 0xF5) but no other Turkish letter,
# so the other ten (ı İ ş Ş ğ Ğ ç Ç Ö Ü) are loaded into the 8 CGRAM slots, as many as a screen
# needs; a screen needing more than 8 shows the rest as their ASCII base letter.
from firmware.drivers import BASE, TR_CP
from firmware.mem import const

# Characters are handled as code points, found by walking a line's UTF-8 bytes: indexing or
# iterating a str in MicroPython interns each character it gives, so every letter ever shown
# would stay in the VM's pool of names (4.6 KB more past 620 names).
# 8 bytes per letter with a CGRAM glyph, the first ten of TR (firmware/drivers/__init__.py):
# rows top to bottom, bit 4 = left column (CGRAM layout), drawn from host_tools/glyph_art.py
# (tests check the two agree).
LCD5 = (
    b"\x00\x00\x0c\x04\x04\x04\x0e\x00"  # ı
    b"\x04\x00\x0e\x04\x04\x04\x0e\x00"  # İ
    b"\x00\x0e\x10\x0e\x01\x1e\x04\x0c"  # ş
    b"\x0f\x10\x0e\x01\x1e\x04\x0c\x00"  # Ş
    b"\x11\x0e\x00\x0f\x11\x0f\x01\x0e"  # ğ
    b"\x11\x0e\x00\x0f\x10\x13\x11\x0e"  # Ğ
    b"\x00\x0e\x10\x10\x11\x0e\x04\x0c"  # ç
    b"\x0e\x11\x10\x11\x0e\x04\x0c\x00"  # Ç
    b"\x0a\x00\x0e\x11\x11\x11\x0e\x00"  # Ö
    b"\x0a\x00\x11\x11\x11\x11\x0e\x00"  # Ü
)
_CG = const(10)  # letters of TR with a CGRAM glyph; the other two are in ROM A00, at:
_ROM = b"\xef\xf5"  # ö, ü


_RS = const(0x01)
_E = const(0x04)
_BL = const(0x08)
_CLEAR = const(0x01)
_ENTRY_INC = const(0x06)
_DISPLAY_ON = const(0x0C)
_DISPLAY_OFF = const(0x08)
_FUNC_4BIT_2LINE = const(0x28)
_FUNC_4BIT_1LINE = const(0x20)
_SET_CGRAM = const(0x40)
_SET_DDRAM = const(0x80)
_SPACE = const(0x20)


def _tr(cp):
    # cp's index in TR_CP; -1 if it is no Turkish letter.
    return TR_CP.index(cp) if cp in TR_CP else -1


def _default_sleep_ms(ms):
    import time

    f = getattr(time, "sleep_ms", None)
    if f is not None:
        f(ms)
    else:
        time.sleep(ms / 1000)


class Lcd:
    # i2c: a machine.I2C (or SoftI2C); addr 0x27 (PCF8574T) or 0x3F (PCF8574AT).
    # sleep_ms: the wait used during the power-on init (tests pass a no-op).
    def __init__(self, i2c, addr=0x27, cols=20, rows=4, backlight=True, sleep_ms=None):
        self.i2c = i2c
        self.addr = addr
        self.cols = cols
        self.rows = rows
        self._bl = _BL if backlight else 0
        self._sleep = sleep_ms or _default_sleep_ms
        self._row_addr = (0x00, 0x40, cols, 0x40 + cols)
        self._shown = bytearray(cols * rows)  # character code in each cell, row by row
        self._slots = [-1] * 8  # code point of the letter in each CGRAM slot (-1 = free)
        self._cps = [-1] * cols  # a line's code points (-1 past its end), see _decode
        self._out = bytearray()
        self._init()

    # -- bus level
    def _nibble(self, nib, rs):
        b = (nib << 4) | self._bl | rs
        self._out.append(b | _E)
        self._out.append(b)  # E falling edge latches the nibble

    def _byte(self, value, rs=0):
        self._nibble(value >> 4, rs)
        self._nibble(value & 0x0F, rs)

    def _flush(self):
        if self._out:
            self.i2c.writeto(self.addr, self._out)
            self._out = bytearray()

    def _init(self):
        sl = self._sleep
        sl(50)
        self.i2c.writeto(self.addr, bytes((self._bl,)))
        for wait in (5, 1, 1):  # three times "8-bit mode", whatever state the LCD was in
            self._nibble(0x3, 0)
            self._flush()
            sl(wait)
        self._nibble(0x2, 0)  # 4-bit mode
        self._byte(_FUNC_4BIT_2LINE if self.rows > 1 else _FUNC_4BIT_1LINE)
        self._byte(_DISPLAY_OFF)
        self._byte(_CLEAR)
        self._flush()
        sl(2)
        self._byte(_ENTRY_INC)
        self._byte(_DISPLAY_ON)
        self._flush()
        for i in range(len(self._shown)):
            self._shown[i] = _SPACE
        for i in range(8):
            self._slots[i] = -1

    def backlight(self, on):
        self._bl = _BL if on else 0
        self.i2c.writeto(self.addr, bytes((self._bl,)))

    def invalidate(self):
        # Forget what is shown: the next show() writes every cell and reloads the glyphs.
        for i in range(len(self._shown)):
            self._shown[i] = 0xFF
        for i in range(8):
            self._slots[i] = -1

    # -- screen level
    def _decode(self, text):
        # The code points of text's first `cols` characters into self._cps, -1 past its end (0x3F,
        # "?", for a character of 3 or 4 UTF-8 bytes: none of those can be shown).
        cps = self._cps
        b = text.encode()
        nb = len(b)
        i = 0
        for k in range(self.cols):
            if i >= nb:
                cps[k] = -1
                continue
            c = b[i]
            if c < 0x80:
                cps[k] = c
                i += 1
            elif c < 0xE0 and i + 1 < nb:
                cps[k] = ((c & 0x1F) << 6) | (b[i + 1] & 0x3F)
                i += 2
            else:
                cps[k] = 0x3F
                i += 3 if c < 0xF0 else 4
        return cps

    def _pick_slots(self, lines):
        # Turkish letters this screen needs from CGRAM (first 8 by first appearance) into slots:
        # keep those already loaded, load the others into free slots. Returns the letters kept.
        want = []
        for text in lines:
            for cp in self._decode(text):
                if 0 <= _tr(cp) < _CG and cp not in want:
                    want.append(cp)
        want = want[:8]
        slots = self._slots
        for i in range(8):
            if slots[i] not in want:
                slots[i] = -1
        for cp in want:
            if cp in slots:
                continue
            i = slots.index(-1)
            slots[i] = cp
            k = TR_CP.index(cp) * 8
            self._byte(_SET_CGRAM | (i << 3))
            for j in range(8):
                self._byte(LCD5[k + j], _RS)
        return want

    def _code(self, cp):
        # The LCD's character code for code point cp (-1: a blank past the line's end).
        if 0x20 <= cp <= 0x7D and cp != 0x5C:
            return cp
        if cp < 0:
            return _SPACE
        if cp in self._slots:
            return self._slots.index(cp)
        k = _tr(cp)
        if k >= _CG:
            return _ROM[k - _CG]
        if cp == 0x5C:
            return 0x2F  # "\\" as "/": the ROM has a yen sign there
        if cp == 0x7E:
            return 0x2D  # "~" as "-": the ROM has an arrow there
        if k >= 0:
            return BASE[k]  # a letter with no CGRAM slot left on this screen
        return 0x3F  # "?"

    def show(self, lines):
        # lines: up to `rows` strings (longer ones are cut). Returns how many cells were written.
        self._pick_slots(lines)
        cols = self.cols
        shown = self._shown
        written = 0
        row_codes = bytearray(cols)
        for r in range(self.rows):
            cps = self._decode(lines[r] if r < len(lines) else "")
            for c in range(cols):
                row_codes[c] = self._code(cps[c])
            base = r * cols
            c = 0
            while c < cols:
                if shown[base + c] == row_codes[c]:
                    c += 1
                    continue
                # a run of changed cells; one unchanged cell inside is cheaper to rewrite than
                # a new address command
                end = c + 1
                while end < cols and (
                    shown[base + end] != row_codes[end]
                    or (end + 1 < cols and shown[base + end + 1] != row_codes[end + 1])
                ):
                    end += 1
                self._byte(_SET_DDRAM | (self._row_addr[r] + c))
                for k in range(c, end):
                    self._byte(row_codes[k], _RS)
                    if shown[base + k] != row_codes[k]:
                        shown[base + k] = row_codes[k]
                        written += 1
                c = end
        self._flush()
        return written
