# Decode SSD1306/SH1106 I2C bytes into the panel's bitmap; read 8x8 text (ASCII + Turkish) off it.
from host_tools.fakes import UNKNOWN  # noqa: I001  (first: puts framebuf on sys.path)

import framebuf  # noqa: E402  (the real one on MicroPython, hostlib's on CPython)

from firmware.drivers import TR  # noqa: E402
from firmware.drivers.oled import OLED8  # noqa: E402

# Commands followed by argument bytes, and how many.
_SSD_ARGS = {
    0x20: 1,
    0x21: 2,
    0x22: 2,
    0x26: 6,
    0x27: 6,
    0x29: 5,
    0x2A: 5,
    0x81: 1,
    0x8D: 1,
    0xA3: 2,
    0xA8: 1,
    0xAD: 1,
    0xD3: 1,
    0xD5: 1,
    0xD6: 1,
    0xD9: 1,
    0xDA: 1,
    0xDB: 1,
}
_SH_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class Ssd1306Decoder:
    # Interprets the I2C stream of an SSD1306 (or, with sh1106=True, an SH1106: 132-column RAM,
    # page addressing only, panel columns 2..129) and keeps its display RAM and settings.
    def __init__(self, width=128, height=64, sh1106=False, addr=None):
        self.width = width
        self.height = height
        self.sh1106 = sh1106
        self.addr = addr
        self.ram_w = 132 if sh1106 else 128
        self.col_offset = 2 if sh1106 else (128 - width) // 2
        self.pages = 8
        self.ram = bytearray(self.ram_w * self.pages)
        self.mode = 2 if sh1106 else 2  # SSD1306 resets to page addressing
        self.col0 = 0
        self.col1 = 127
        self.page0 = 0
        self.page1 = 7
        self.col = 0
        self.page = 0
        self.on = False
        self.inverted = False
        self.entire_on = False
        self.seg_remap = False
        self.com_remap = False
        self.start_line = 0
        self.offset = 0
        self.contrast = 0x7F
        self.data_bytes = 0
        self.commands = 0
        self._cmd = []
        self._need = 0

    def feed(self, records):
        for r in records:
            if self.addr is not None and r[0] != self.addr:
                continue
            self.transaction(r[1])
        return self

    def transaction(self, buf):
        # One I2C write: control byte(s) then command or data bytes.
        i = 0
        n = len(buf)
        while i < n:
            ctrl = buf[i]
            i += 1
            dc = ctrl & 0x40
            if ctrl & 0x80:  # Co=1: one byte, then another control byte
                if i < n:
                    self._byte(buf[i], dc)
                i += 1
                continue
            while i < n:
                self._byte(buf[i], dc)
                i += 1

    def _byte(self, b, dc):
        if dc:
            self._data(b)
        else:
            self._command_byte(b)

    def _command_byte(self, b):
        if self._need:
            self._cmd.append(b)
            self._need -= 1
            if not self._need:
                self._execute(self._cmd)
            return
        table = _SH_ARGS if self.sh1106 else _SSD_ARGS
        need = table.get(b, 0)
        self._cmd = [b]
        self._need = need
        if not need:
            self._execute(self._cmd)

    def _execute(self, c):
        self.commands += 1
        op = c[0]
        sh = self.sh1106
        if op == 0xAE or op == 0xAF:
            self.on = op == 0xAF
        elif op == 0xA6 or op == 0xA7:
            self.inverted = op == 0xA7
        elif op == 0xA4 or op == 0xA5:
            self.entire_on = op == 0xA5
        elif op == 0xA0 or op == 0xA1:
            self.seg_remap = op == 0xA1
        elif op == 0xC0 or op == 0xC8:
            self.com_remap = op == 0xC8
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op == 0x81:
            self.contrast = c[1]
        elif op == 0xD3:
            self.offset = c[1] & 0x3F
        elif op == 0x20 and not sh:
            self.mode = c[1] & 3
        elif op == 0x21 and not sh:
            self.col0 = c[1] & 0x7F
            self.col1 = c[2] & 0x7F
            self.col = self.col0
        elif op == 0x22 and not sh:
            self.page0 = c[1] & 7
            self.page1 = c[2] & 7
            self.page = self.page0
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif 0x10 <= op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)

    def _data(self, b):
        self.data_bytes += 1
        if self.col < self.ram_w and self.page < self.pages:
            self.ram[self.page * self.ram_w + self.col] = b
        if self.sh1106 or self.mode == 2:  # page addressing: column advances within the page
            if self.col < self.ram_w - 1:
                self.col += 1
            elif not self.sh1106:
                self.col = self.col0
        elif self.mode == 0:  # horizontal
            if self.col >= self.col1:
                self.col = self.col0
                self.page = self.page0 if self.page >= self.page1 else self.page + 1
            else:
                self.col += 1
        else:  # vertical
            if self.page >= self.page1:
                self.page = self.page0
                self.col = self.col0 if self.col >= self.col1 else self.col + 1
            else:
                self.page += 1

    def ram_pixel(self, col, row):
        return (self.ram[(row >> 3) * self.ram_w + col] >> (row & 7)) & 1

    def bitmap(self):
        # What the panel shows: `height` rows of `width` 0/1 bytes. The usual module orientation
        # (what every driver sets up) is segment remap A1 + COM scan C8: RAM column c and RAM row r
        # appear at x = c - offset, y = r. Off: all dark.
        w = self.width
        h = self.height
        out = []
        for y in range(h):
            row = bytearray(w)
            out.append(row)
            if not self.on:
                continue
            if self.entire_on:
                for x in range(w):
                    row[x] = 1
                continue
            ry = y if self.com_remap else h - 1 - y
            ry = (ry + self.start_line + self.offset) % 64
            inv = 1 if self.inverted else 0
            ram = self.ram
            base = (ry >> 3) * self.ram_w  # (ram_pixel, inlined: a bitmap is 8192 of them)
            bit = ry & 7
            for x in range(w):
                if self.seg_remap:
                    cx = x + self.col_offset
                else:
                    cx = self.ram_w - 1 - self.col_offset - x
                row[x] = ((ram[base + cx] >> bit) & 1) ^ inv
        return out


def decode_ssd1306(records, width=128, height=64, sh1106=False, addr=None):
    # I2C records -> bitmap (list of `height` bytearrays of 0/1), as the panel shows it.
    return Ssd1306Decoder(width, height, sh1106, addr).feed(records).bitmap()


def render_bitmap_ascii(bitmap, on="#", off="."):
    return "\n".join(["".join([on if p else off for p in row]) for row in bitmap])


# ---------------------------------------------------------------- reading text off a bitmap

_font = None


def _glyphs():
    # (8 column bytes (MONO_VLSB) per glyph, one bytes object; the glyphs' characters) for
    # MicroPython's 8x8 font and the Turkish glyphs: about 1 KB, where a dict would take 5 KB.
    global _font
    if _font is None:
        buf = bytearray(8)
        fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
        cells = bytearray()
        for c in range(32, 127):
            fb.fill(0)
            fb.text(chr(c), 0, 0, 1)
            cells += buf
        cells += OLED8
        _font = (bytes(cells), "".join([chr(c) for c in range(32, 127)]) + TR)
    return _font


def glyph_table():
    # {8 column bytes (MONO_VLSB): char} for MicroPython's 8x8 font and the Turkish glyphs.
    cells, chars = _glyphs()
    return {cells[k * 8 : k * 8 + 8]: chars[k] for k in range(len(chars))}


def lookup(cell):
    # The character whose glyph is cell (8 column bytes), or None.
    cells, chars = _glyphs()
    i = cells.find(cell)
    while i > 0 and i % 8:
        i = cells.find(cell, i + 1)
    return chars[i // 8] if i >= 0 else None


_cellbuf = bytearray(8)  # read_cell's work buffer: reading a screen allocates little


def _cell(bitmap, x0, y0, scale):
    out = _cellbuf
    for j in range(8):
        col = 0
        for i in range(8):
            x = x0 + j * scale
            y = y0 + i * scale
            p = bitmap[y][x]
            if scale > 1:  # the whole scale x scale block must agree
                for dy in range(scale):
                    for dx in range(scale):
                        if bitmap[y + dy][x + dx] != p:
                            return None
            if p:
                col |= 1 << i
        out[j] = col
    return out


def read_cell(bitmap, x0, y0, scale=1):
    # The character drawn in the 8x8 (or 16x16 at scale 2) cell at x0, y0, light on dark or dark
    # on light; UNKNOWN if it matches no glyph.
    c = _cell(bitmap, x0, y0, scale)
    if c is None:
        return UNKNOWN
    ch = lookup(c)
    if ch is None:
        for j in range(8):
            c[j] ^= 0xFF
        ch = lookup(c)
    return UNKNOWN if ch is None else ch


def read_row(bitmap, row, scale):
    w = len(bitmap[0])
    n = w // (8 * scale)
    return "".join([read_cell(bitmap, k * 8 * scale, row * 8, scale) for k in range(n)])


def read_text(bitmap, big=None):
    # Text rows (trailing blanks stripped) of an OLED bitmap drawn in 8x8 cells. A row pair drawn
    # at double size (firmware.drivers.oled big=...) gives its text on the first row and "" on the
    # second; with big=None such pairs are found automatically (rows that read as nothing else).
    rows = len(bitmap) // 8
    out = []
    r = 0
    while r < rows:
        line = read_row(bitmap, r, 1)
        want_big = big is not None and r in big
        if r + 1 < rows and (want_big or (big is None and UNKNOWN in line)):
            b = read_row(bitmap, r, 2)
            if want_big or UNKNOWN not in b:
                out.append(b.rstrip())
                out.append("")
                r += 2
                continue
        out.append(line.rstrip())
        r += 1
    return out
