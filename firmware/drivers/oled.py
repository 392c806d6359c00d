# Text screen on a FrameBuffer OLED (ssd1306, sh1106): 8x8 and 2x text, Turkish letters, diffs only.
import framebuf

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

# The 12 Turkish letters the ASCII font lacks (drawn from host_tools/glyph_art.py; tests check),
# and their code points (what the drawing code compares: no one-letter strings).
TR = "ıİşŞğĞçÇöÖüÜ"
_TR_CP = (0x131, 0x130, 0x15F, 0x15E, 0x11F, 0x11E, 0xE7, 0xC7, 0xF6, 0xD6, 0xFC, 0xDC)
# OLED: 8 bytes per letter of TR, columns left to right, bit 0 = top row
# (framebuf MONO_VLSB, the layout of MicroPython's own 8x8 font).
OLED8 = (
    b"\x00\x00\x00\x7c\x7c\x00\x00\x00"  # ı
    b"\x00\x00\x44\x7d\x7d\x44\x00\x00"  # İ
    b"\x00\x48\x5c\xd4\xd4\x74\x20\x00"  # ş
    b"\x00\x12\xb7\xe5\x65\x3d\x18\x00"  # Ş
    b"\x00\x91\xba\xaa\xaa\xfa\x79\x00"  # ğ
    b"\x00\x71\xfa\x8a\xaa\xea\xe1\x00"  # Ğ
    b"\x00\x38\x7c\xc4\xc4\x6c\x28\x00"  # ç
    b"\x00\x1e\xbf\xe1\x61\x33\x12\x00"  # Ç
    b"\x00\x32\x7a\x48\x48\x7a\x32\x00"  # ö
    b"\x00\x39\x7d\x44\x44\x7d\x39\x00"  # Ö
    b"\x00\x3a\x7a\x40\x40\x7a\x3a\x00"  # ü
    b"\x00\x3d\x7d\x40\x40\x7d\x3d\x00"  # Ü
)

# A nibble's 4 bits each doubled (bit 0 -> bits 0-1, ...): one 8-pixel glyph column at double
# size is the spread of its low nibble over the top page and of its high nibble below.
_SPREAD = b"\x00\x03\x0c\x0f\x30\x33\x3c\x3f\xc0\xc3\xcc\xcf\xf0\xf3\xfc\xff"

_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)


class Oled:
    # disp: a FrameBuffer-like display (ssd1306.SSD1306_I2C, sh1106.SH1106_I2C, ...): it needs
    # fill_rect, text, blit, pixel and show; partial updates use show_pages(p0, p1) when the display
    # has it, else the SSD1306 column/page window through write_cmd/write_data.
    def __init__(self, disp, width=0, height=0, partial=True):
        self.disp = disp
        self.width = width or disp.width
        self.height = height or disp.height
        self.cols = self.width // 8  # 16 on 128x64
        self.rows = self.height // 8  # 8 on 128x64
        self.partial = partial
        self._keys = [""] * self.rows  # the text each row shows now
        # ... and how: 0 unknown, 1 plain, 2 inverse, +4 big, 8 the lower half of a big row
        # (kept apart from the text, so comparing makes no new string)
        self._mode = bytearray(self.rows)
        self._gbuf = bytearray(8)
        self._gfb = framebuf.FrameBuffer(self._gbuf, 8, 8, framebuf.MONO_VLSB)
        self._bbuf = bytearray(32)  # one glyph at double size, 16x16, blitted whole
        self._bfb = framebuf.FrameBuffer(self._bbuf, 16, 16, framebuf.MONO_VLSB)

    def invalidate(self):
        # Forget what is on the panel: the next show() redraws every row.
        for i in range(self.rows):
            self._mode[i] = 0

    def clear(self):
        self.disp.fill(0)
        self.disp.show()
        for i in range(self.rows):
            self._keys[i] = ""
            self._mode[i] = 1

    def show(self, lines, big=(), inverse=()):
        # lines: up to `rows` strings, one per text row (16 chars on 128x64; longer is cut).
        # big: indexes of rows drawn at double size (8 chars); such a row also covers the next one,
        # whose entry in lines is ignored. inverse: indexes of rows drawn light on dark.
        # Returns how many text rows were redrawn (0: nothing was sent to the panel).
        rows = self.rows
        keys = self._keys
        mode = self._mode
        changed = 0
        lo = rows
        hi = -1
        i = 0
        while i < rows:
            text = lines[i] if i < len(lines) else ""
            inv = i in inverse
            m = 2 if inv else 1
            span = 1
            if i in big and i + 1 < rows:
                m += 4
                span = 2
            if keys[i] != text or mode[i] != m or (span == 2 and mode[i + 1] != 8):
                self._draw_row(i, text, span, inv)
                keys[i] = text
                mode[i] = m
                if span == 2:
                    keys[i + 1] = ""
                    mode[i + 1] = 8
                changed += span
                if i < lo:
                    lo = i
                hi = i + span - 1
            elif hi >= lo:
                self._flush(lo, hi)  # a run of changed rows ended
                lo = rows
                hi = -1
            i += span
        if hi >= lo:
            self._flush(lo, hi)
        if changed and not self.partial:
            self.disp.show()
        return changed

    def _flush(self, p0, p1):
        # Send pages p0..p1 (text rows) of the frame buffer to the panel.
        d = self.disp
        if not self.partial:
            return
        f = getattr(d, "show_pages", None)
        if f is not None:
            f(p0, p1)
            return
        if not (hasattr(d, "write_cmd") and hasattr(d, "buffer")):
            d.show()
            return
        w = self.width
        x0 = (128 - w) // 2 if w < 128 else 0
        for c in (_SET_COL_ADDR, x0, x0 + w - 1, _SET_PAGE_ADDR, p0, p1):
            d.write_cmd(c)
        d.write_data(memoryview(d.buffer)[p0 * w : (p1 + 1) * w])

    def _draw_row(self, row, text, span, inv):
        # Draw text in text row `row` (span 2: at double size over two rows). The text is walked
        # by its UTF-8 bytes: indexing or iterating a str would make each character shown a name
        # the VM interns for good (and a small heap's pool of names grows by 4.6 KB past 620).
        # Runs of plain ASCII go through fb.text in one call; other letters are blitted.
        d = self.disp
        fg = 0 if inv else 1
        y = row * 8
        d.fill_rect(0, y, self.width, 8 * span, 1 - fg)
        b = text.encode()
        nb = len(b)
        cols = self.cols // span
        i = 0  # byte index
        k = 0  # column: character index
        run = 0  # column where the pending ASCII run began
        while i < nb and k < cols:
            c = b[i]
            if 0x20 <= c < 0x7F:
                if span == 2:
                    self._gfb.fill(0)
                    self._gfb.text(text[k:k + 1], 0, 0, 1)
                    self._big(k, y, fg)
                i += 1
                k += 1
                continue
            n = 1 if c < 0x80 else (2 if c < 0xE0 else (3 if c < 0xF0 else 4))
            cp = ((c & 0x1F) << 6) | (b[i + 1] & 0x3F) if n == 2 and i + 1 < nb else -1
            if span == 1 and k > run:
                d.text(text[run:k], run * 8, y, fg)
            self._load(cp)
            if span == 2:
                self._big(k, y, fg)
            else:
                if inv:
                    g = self._gbuf
                    for j in range(8):
                        g[j] ^= 0xFF
                d.blit(self._gfb, k * 8, y)
            i += n
            k += 1
            run = k
        if span == 1 and k > run:
            d.text(text[run:k], run * 8, y, fg)

    def _big(self, k, y, fg):
        # The glyph in the scratch buffer at double size in column k (of 8) of a big row: each
        # of its 8 column bytes spread over two columns of two pages, then one blit (a pixel
        # loop took 64 reads and a rectangle per lit pixel: milliseconds on a board).
        g = self._gbuf
        b = self._bbuf
        inv = 0 if fg else 0xFF
        for gx in range(8):
            c = g[gx]
            lo = _SPREAD[c & 15] ^ inv
            hi = _SPREAD[c >> 4] ^ inv
            i = 2 * gx
            b[i] = b[i + 1] = lo
            b[i + 16] = b[i + 17] = hi
        self.disp.blit(self._bfb, k * 16, y)

    def _load(self, cp):
        # Put the 8x8 glyph of the Turkish letter with code point cp, else "?", into the scratch
        # buffer.
        if cp in _TR_CP:
            o = _TR_CP.index(cp) * 8
            b = self._gbuf
            for j in range(8):
                b[j] = OLED8[o + j]
            return
        self._gfb.fill(0)
        self._gfb.text("?", 0, 0, 1)
