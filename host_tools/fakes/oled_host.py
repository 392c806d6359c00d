# host_tools.fakes.oled's SSD1306/SH1106 decoder and text reading for the tests on CPython
# (host_tools.fakehw), a run of bytes or a row at a time instead of a byte or a pixel: the same
# RAM, bitmap and text. host_tools/fakes/oled.py itself stays as small as the 64 KB heap of its
# tests on MicroPython needs.
from host_tools.fakes import UNKNOWN, oled


class Ssd1306Decoder(oled.Ssd1306Decoder):
    def transaction(self, buf):
        # oled's, with each run of data bytes that goes on along a page without reaching its
        # last column (page addressing) or the window's (horizontal) written at once.
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
            if dc:
                i = self._run(buf, i, n)
            while i < n:
                self._byte(buf[i], dc)
                i += 1

    def _run(self, buf, i, n):
        # The data bytes from buf[i] that _data would write one by one at the next columns of
        # the page, written at once; returns the index of the first byte left for _data.
        col = self.col
        if self.page >= self.pages or col >= self.ram_w:
            return i
        if self.sh1106 or self.mode == 2:
            k = min(n - i, self.ram_w - 1 - col)
        elif self.mode == 0:
            k = min(n - i, self.col1 - col)
        else:
            return i
        if k <= 0:
            return i
        a = self.page * self.ram_w + col
        self.ram[a:a + k] = buf[i:i + k]
        self.col = col + k
        self.data_bytes += k
        return i + k

    def bitmap(self):
        # oled's, each row its RAM bytes through a table of the row's bit (xor inverted).
        if not self.on or self.entire_on:
            return super().bitmap()
        w = self.width
        h = self.height
        inv = 1 if self.inverted else 0
        out = []
        for y in range(h):
            ry = y if self.com_remap else h - 1 - y
            ry = (ry + self.start_line + self.offset) % 64
            base = (ry >> 3) * self.ram_w
            if self.seg_remap:  # x from RAM column x + offset
                cols = self.ram[base + self.col_offset:base + self.col_offset + w]
            else:  # x from RAM column ram_w - 1 - offset - x
                end = base + self.ram_w - self.col_offset
                cols = self.ram[end - w:end][::-1]
            out.append(bytearray(cols.translate(_bit_table(ry & 7, inv))))
        return out


_bits = {}  # (bit, inv) -> the 256 bytes of each byte's bit `bit`, xor inv


def _bit_table(bit, inv):
    t = _bits.get((bit, inv))
    if t is None:
        t = _bits[(bit, inv)] = bytes([(v >> bit & 1) ^ inv for v in range(256)])
    return t


def _line(bitmap, r, scale=1):
    # Text row r read in 8x8 cells (scale 2: 16x16 over rows r and r + 1), as
    # oled.read_row(bitmap, r, scale): the cells' rows of pixels (0/1 bytes, every other one at
    # scale 2) as big numbers, pixel row i shifted by i, add up to their column bytes. At scale 2
    # a cell whose 2x2 blocks do not each agree reads as UNKNOWN.
    w = len(bitmap[0])
    n = w // (8 * scale)
    rows = [bitmap[8 * r + scale * i] for i in range(8)]
    whole = [True] * n
    if scale == 2:
        for i in range(8):
            a = rows[i]
            b = bitmap[8 * r + 2 * i + 1]
            for k in range(n):
                x = 16 * k
                if a[x:x + 16] != b[x:x + 16] or a[x:x + 16:2] != a[x + 1:x + 16:2]:
                    whole[k] = False
        rows = [a[::2] for a in rows]
    v = 0
    for i in range(8):
        v |= int.from_bytes(rows[i], "big") << i
    cols = v.to_bytes(len(rows[0]), "big")
    out = []
    for k in range(n):
        cell = cols[8 * k:8 * k + 8]
        ch = oled.lookup(cell) if whole[k] else UNKNOWN
        if ch is None:
            ch = oled.lookup(bytes([c ^ 0xFF for c in cell]))
        out.append(UNKNOWN if ch is None else ch)
    return "".join(out)


def read_text(bitmap):
    # oled.read_text(bitmap) (double-size rows found by themselves), its 8x8 rows read by _line.
    rows = len(bitmap) // 8
    out = []
    r = 0
    while r < rows:
        line = _line(bitmap, r)
        if r + 1 < rows and UNKNOWN in line:
            b = _line(bitmap, r, 2)
            if UNKNOWN not in b:
                out.append(b.rstrip())
                out.append("")
                r += 2
                continue
        out.append(line.rstrip())
        r += 1
    return out
