# Text screen on a FrameBuffer OLED (ssd1306, sh1106): 8x8 and 2x text, Turkish letters, diffs only.
import framebuf

from firmware.drivers import TR_CP
from firmware.mem import const

# OLED: 8 bytes per letter of TR (firmware/drivers/__init__.py), columns left to right, bit 0 =
# top row (framebuf MONO_VLSB, the layout of MicroPython's own 8x8 font).
OLED8 = (
    b"\x00\x00\x00\x7c\x7c\x00\x00\x00"  # ı
    b"\x00\x00\x44\x7d\x7d\x44\x00\x00"  # İ
    b"\x00\x48\x5c\xd4\xd4\x74\x20\x00"  # ş
    b"\x00\x12\xb7\xe5\x65\x3d\x18\x00"  # Ş
    b"\x00\x91\xba\xaa\xaa\xfa\x79\x00"  # ğ
    b"\x00\x71\xfa\x8a\xaa\xea\xe1\x00"  # Ğ
    b"\x00\x38\x7c\xc4\xc4\x6c\x28\x00"  # ç
    b"\x00\x1e\xbf\xe1\x61\x33\x12\x00"  # Ç
    b"\x00\x39\x7d\x44\x44\x7d\x39\x00"  # Ö
    b"\x00\x3d\x7d\x40\x40\x7d\x3d\x00"  # Ü
    b"\x00\x32\x7a\x48\x48\x7a\x32\x00"  # ö
    b"\x00\x3a\x7a\x40\x40\x7a\x3a\x00"  # ü
)

# A nibble's 4 bits each doubled (bit 0 -> bits 0-1, ...): one 8-pixel glyph column at double
# size is the spread of its low nibble over the top page and of its high nibble below.
_SPREAD = b"\x00\x03\x0c\x0f\x30\x33\x3c\x3f\xc0\xc3\xcc\xcf\xf0\xf3\xfc\xff"

# The characters whose double-size glyphs are made once, when the driver starts: the scores'
# ("-", ".", "/" and the digits: ASCII 0x2D-0x39), the big row's usual text.
_BIG0 = const(0x2D)
_NBIG = const(13)


class Oled:
    # disp: a FrameBuffer-like display (oled_i2c.SSD1306W_I2C, oled_i2c.SH1106_I2C, ...): it
    # needs fill_rect, text, blit, pixel and show; the rows a screen changed go out through its
    # show_pages(p0, p1, x0, x1) where it has one (partial), else the whole frame through show().
    def __init__(self, disp, width=0, height=0, partial=True):
        self.disp = disp
        self.width = width or disp.width
        self.height = height or disp.height
        self.cols = self.width // 8  # 16 on 128x64
        self.rows = self.height // 8  # 8 on 128x64
        self.partial = partial and hasattr(disp, "show_pages")
        self._keys = [""] * self.rows  # the text each row shows now
        self._bytes = [b""] * self.rows  # ... as UTF-8 (what a change is compared with)
        # ... and how: 0 unknown, 1 plain, 2 inverse, +4 big, 8 the lower half of a big row
        # (kept apart from the text, so comparing makes no new string)
        self._mode = bytearray(self.rows)
        self._gbuf = bytearray(8)
        self._gfb = framebuf.FrameBuffer(self._gbuf, 8, 8, framebuf.MONO_VLSB)
        self._bbuf = bytearray(32)  # one glyph at double size, 16x16, blitted whole
        self._bfb = framebuf.FrameBuffer(self._bbuf, 16, 16, framebuf.MONO_VLSB)
        # the double-size glyphs of ASCII _BIG0.. (_NBIG of them), 32 bytes each, as _bbuf
        # holds one: a score's digit is then a copy and a blit, never made while a key waits
        # (making one took 1 ms on the virtual Pico)
        self._bigd = bytearray(32 * _NBIG)
        for j in range(_NBIG):
            self._gfb.fill(0)
            self._gfb.text(chr(_BIG0 + j), 0, 0, 1)
            self._spread(1)
            self._bigd[32 * j:32 * j + 32] = self._bbuf
        self._bigv = memoryview(self._bigd)
        self._run = [0, -1, 0, 0]  # pages p0..p1, pixel columns x0..x1 waiting to be sent

    def invalidate(self):
        # Forget what is on the panel: the next show() redraws every row.
        for i in range(self.rows):
            self._mode[i] = 0

    def clear(self):
        self.disp.fill(0)
        self.disp.show()
        for i in range(self.rows):
            self._keys[i] = ""
            self._bytes[i] = b""
            self._mode[i] = 1

    def show(self, lines, big=(), inverse=()):
        # lines: up to `rows` strings, one per text row (16 chars on 128x64; longer is cut).
        # big: indexes of rows drawn at double size (8 chars); such a row also covers the next one,
        # whose entry in lines is ignored. inverse: indexes of rows drawn light on dark.
        # Returns how many text rows were redrawn (0: nothing was sent to the panel).
        # A row drawn as before whose old and new text are both ASCII is redrawn and sent only
        # from its first to its last changed character (a made ball changes a digit or two of a
        # few rows: the bus carries a tenth of the bytes of whole rows).
        rows = self.rows
        keys = self._keys
        enc = self._bytes
        mode = self._mode
        run = self._run
        run[0] = 0
        run[1] = -1
        d = self.disp
        nl = len(lines)
        changed = 0
        i = 0
        while i < rows:
            text = lines[i] if i < nl else ""
            inv = i in inverse
            m = 2 if inv else 1
            span = 1
            if i in big and i + 1 < rows:
                m += 4
                span = 2
            if keys[i] != text or mode[i] != m or (span == 2 and mode[i + 1] != 8):
                b = text.encode()
                nb = len(b)
                ascii = nb == len(text)  # (a byte a character)
                plain = ascii and span == 1
                n = self.cols // span
                old = enc[i]
                if (mode[i] != m or (span == 2 and mode[i + 1] != 8) or not ascii
                        or len(old) != len(keys[i])):
                    old = None  # drawn otherwise before, or not ASCII: the whole row
                cw = 8 * span
                k = 0
                while k < n:
                    # the next run of changed characters from k (the whole row if it can't
                    # be compared; nothing if it looks the same: trailing spaces, or past the
                    # edge)
                    k0, k1 = (k, n) if old is None else _diff(old, b, n, k, 4 // span)
                    if k1 <= k0:
                        break
                    if k == 0:
                        changed += span
                    if plain:  # characters k0..k1-1 in one call (a control character, which
                        # no view makes, then shows as the font's block, not "?")
                        fg = 0 if inv else 1
                        d.fill_rect(k0 * 8, i * 8, (k1 - k0) * 8, 8, 1 - fg)
                        if nb > k0:
                            d.text(text[k0:k1] if k0 or nb > k1 else text, k0 * 8, i * 8, fg)
                    else:
                        self._draw_row(i, text, b, span, inv, k0, k1)
                    self._add(i, i + span - 1, k0 * cw, k1 * cw - 1)
                    k = k1
                keys[i] = text
                enc[i] = b
                mode[i] = m
                if span == 2:
                    keys[i + 1] = ""
                    enc[i + 1] = b""
                    mode[i + 1] = 8
            i += span
        self._send()
        if changed and not self.partial:
            self.disp.show()
        return changed

    def _add(self, p0, p1, x0, x1):
        # Pages p0..p1, columns x0..x1 to send: joined to the waiting window when they continue
        # it and the window over both (their columns' union) sends at most 32 bytes more than
        # the two would (what a window's two transactions more take), else that window goes
        # out first.
        r = self._run
        if r[1] >= r[0]:
            if r[1] + 1 == p0:
                u0 = min(x0, r[2])
                u1 = max(x1, r[3])
                if (u1 - u0 + 1) * (p1 - r[0] + 1) - (r[3] - r[2] + 1) * (r[1] - r[0] + 1) - (
                        x1 - x0 + 1) * (p1 - p0 + 1) <= 32:
                    r[1] = p1
                    r[2] = u0
                    r[3] = u1
                    return
            self._send()
        r[0] = p0
        r[1] = p1
        r[2] = x0
        r[3] = x1

    def _send(self):
        # Send the waiting window of the frame buffer to the panel.
        run = self._run
        p0 = run[0]
        p1 = run[1]
        if p1 < p0:
            return
        run[1] = p0 - 1
        if self.partial:
            self.disp.show_pages(p0, p1, run[2], run[3])

    def _draw_row(self, row, text, b, span, inv, k0, k1):
        # Draw text (b: its UTF-8) in text row `row` (span 2: at double size over two rows),
        # its characters k0..k1-1 only, where it is not plain ASCII (show draws that). The text
        # is walked by its UTF-8 bytes: indexing or iterating a str would make each character
        # shown a name the VM interns for good (and a small heap's pool of names grows by 4.6 KB
        # past 620). Runs of plain ASCII go through fb.text in one call; other letters are
        # blitted; big spaces are left blank.
        d = self.disp
        fg = 0 if inv else 1
        y = row * 8
        cw = 8 * span
        cols = self.cols // span
        if k1 > cols:
            k1 = cols
        d.fill_rect(k0 * cw, y, (k1 - k0) * cw, 8 * span, 1 - fg)
        nb = len(b)
        i = k0  # byte index
        k = k0  # column: character index
        run = k0  # column where the pending ASCII run began
        while i < nb and k < k1:
            c = b[i]
            if 0x20 <= c < 0x7F:
                if span == 2 and c != 0x20:
                    self._big_ascii(c, text, k, y, fg)
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

    def _big_ascii(self, c, text, k, y, fg):
        # ASCII character c (text[k]) at double size in column k of a big row: a score's
        # character copied from those made at the start, any other made now.
        j = c - _BIG0
        if fg and 0 <= j < _NBIG:
            self._bbuf[0:32] = self._bigv[32 * j:32 * j + 32]
            self.disp.blit(self._bfb, k * 16, y)
            return
        self._gfb.fill(0)
        self._gfb.text(text[k:k + 1], 0, 0, 1)
        self._big(k, y, fg)

    def _big(self, k, y, fg):
        # The glyph in the scratch buffer at double size in column k (of 8) of a big row.
        self._spread(fg)
        self.disp.blit(self._bfb, k * 16, y)

    def _spread(self, fg):
        # The 8x8 glyph in _gbuf at double size into _bbuf (16x16): each of its 8 column bytes
        # spread over two columns of two pages (a pixel loop would take 64 reads and a
        # rectangle per lit pixel: milliseconds on a board).
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

    def _load(self, cp):
        # Put the 8x8 glyph of the Turkish letter with code point cp, else "?", into the scratch
        # buffer.
        if cp in TR_CP:
            o = TR_CP.index(cp) * 8
            b = self._gbuf
            for j in range(8):
                b[j] = OLED8[o + j]
            return
        self._gfb.fill(0)
        self._gfb.text("?", 0, 0, 1)


def _diff(old, new, cols, k, gap):
    # (k0, k1): the next run of changed character columns at or after k, of the first cols,
    # of two ASCII texts (as bytes): it ends where gap columns in a row are unchanged (a
    # window of its own costs two I2C transactions more, on the virtual Pico about what 32
    # bytes more take: 4 columns of a row, 2 of a big one). A missing character counts as a
    # space (a row is cleared to blank before its text is drawn). (cols, cols) when nothing
    # more changed. Allocates nothing but the pair.
    n0 = len(old)
    n1 = len(new)
    if n0 > cols:
        n0 = cols
    if n1 > cols:
        n1 = cols
    m = n0 if n0 < n1 else n1
    while k < m and old[k] == new[k]:  # (the unchanged start: both texts go on)
        k += 1
    n = n0 if n0 > n1 else n1
    while k < n and (old[k] if k < n0 else 0x20) == (new[k] if k < n1 else 0x20):
        k += 1
    if k >= n:
        return cols, cols
    k0 = k
    same = 0
    k += 1
    while k < n:
        if (old[k] if k < n0 else 0x20) != (new[k] if k < n1 else 0x20):
            same = 0
        else:
            same += 1
            if same == gap:
                return k0, k + 1 - gap
        k += 1
    return k0, n - same
