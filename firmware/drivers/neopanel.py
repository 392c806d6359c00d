# WS2812B (NeoPixel) matrix wall panel: the wall view in colour through a neopixel.NeoPixel passed in.
# np: MicroPython's neopixel.NeoPixel(pin, width * height) (its buf, bpp and ORDER are used: the
# colours go straight into its buffer, and write() is skipped when the frame is the same).
# Wiring: panels of pw x ph pixels chained left to right, then top to bottom; in each the strip
# runs along columns (cols=True, as 8x32 panels are wired) or rows (16x16 panels), zigzag
# (serpentine) or every line the same way, from the top left corner (flip_x: from the right,
# flip_y: from the bottom).
# A frame goes from the drawing (palette indices, row by row) to the strip with framebuf blits
# only, no loop over pixels: each strip line (a panel's column, or row) is one blit into the
# strip-ordered indices (those running backwards from a flipped copy of the frame), then one blit
# a colour byte maps every index through that byte's palette into the NeoPixel buffer (a loop
# over the changed pixels would take up to 4.5 ms of a key's screen on the virtual Pico).
from array import array

from framebuf import GS8, FrameBuffer

from firmware.drivers.wall import COLOURS, Wall


class NeoPanel(Wall):
    def __init__(self, np, width=32, height=8, pw=0, ph=0, cols=True, zigzag=True,
                 flip_x=False, flip_y=False, brightness=4):
        Wall.__init__(self, width, height, False)
        self.np = np
        pw = self.pw = pw or width
        ph = self.ph = ph or height
        self.cols = cols
        self.zigzag = zigzag
        self.flip_x = flip_x
        self.flip_y = flip_y
        bpp = self.bpp = getattr(np, "bpp", 3)
        self._order = getattr(np, "ORDER", (1, 0, 2, 3))
        n = width * height
        buf = self._buf = bytearray(n)  # the frame drawn: a palette index a pixel, row by row
        self._fb = FrameBuffer(buf, width, height, GS8)
        self._prev = bytearray(n)  # the frame on the panel
        self._pfb = FrameBuffer(self._prev, width, height, GS8)
        idx = bytearray(n)  # the frame in strip order, a column of n pixels (the colours' source)
        self._col = FrameBuffer(idx, 1, n, GS8)
        # ... and what the lines are blitted into: that column, or a row (lines along rows)
        self._ifb = self._col if cols else FrameBuffer(idx, n, 1, GS8)
        self._out = FrameBuffer(np.buf, bpp, n, GS8)  # column k: byte k of every LED
        self._pal = [bytearray(9) for _ in range(bpp)]  # each byte's palette, at the level
        self._pfbs = [FrameBuffer(b, 9, 1, GS8) for b in self._pal]
        # The blits, worked out once. Each strip line (a panel's column or row): the view of a
        # panel it is a column or row of (0.. the frame's panels, nxy.. the flipped copy's, for
        # a line that runs backwards: there its panel is mirrored), and where that view goes.
        nx = width // pw
        nxy = nx * (height // ph)
        runs = n // (ph if cols else pw)
        self._vi = bytearray(runs)
        self._dx = array("h", bytes(2 * runs))
        self._dy = array("h", bytes(2 * runs))
        k = 0
        for p in range(nxy):
            px = p % nx
            py = p // nx
            for j in range(pw if cols else ph):
                x = px * pw + (j if cols else 0)
                y = py * ph + (0 if cols else j)
                a = self.index(x, y)
                v = p
                d = a
                if self.index(x + (0 if cols else 1), y + (1 if cols else 0)) != a + 1:
                    v = nxy + (px + (nxy // nx - 1 - py) * nx if cols else nx - 1 - px + py * nx)
                    d = a - (ph if cols else pw) + 1
                self._vi[k] = v
                self._dx[k] = -j if cols else d
                self._dy[k] = d if cols else -j
                k += 1
        back = max(self._vi) >= nxy
        # the frame flipped along the strip's lines (cols: upside down) when a line runs
        # backwards, made of the frame's rows (cols) or columns, each blitted to its mirror place
        mv = memoryview(buf)
        lines = []
        srcs = [mv]
        self._ffb = None
        if back:
            flip = bytearray(n)
            self._ffb = FrameBuffer(flip, width, height, GS8)
            srcs.append(memoryview(flip))
            for i in range(height if cols else width):
                lines.append(FrameBuffer(mv[i * width:], width, 1, GS8) if cols else
                             FrameBuffer(mv[i:], 1, height, GS8, width))
        self._lines = lines
        views = []
        for src in srcs:
            for p in range(nxy):
                views.append(FrameBuffer(src[(p // nx) * ph * width + (p % nx) * pw:], pw, ph,
                                         GS8, width))
        self._views = views
        self._valid = False
        self.level = 0
        self.brightness(brightness)

    def index(self, x, y):
        # The strip position of pixel (x, y).
        pw = self.pw
        ph = self.ph
        panel = (y // ph) * (self.width // pw) + x // pw
        lx = x % pw
        ly = y % ph
        if self.flip_x:
            lx = pw - 1 - lx
        if self.flip_y:
            ly = ph - 1 - ly
        if self.cols:
            i = lx * ph + (ph - 1 - ly if self.zigzag and lx & 1 else ly)
        else:
            i = ly * pw + (pw - 1 - lx if self.zigzag and ly & 1 else lx)
        return panel * pw * ph + i

    def brightness(self, level):
        # 0 (dimmest) to 15; redraws what is shown.
        level &= 15
        self.level = level
        order = self._order
        for k in range(3):
            if k < self.bpp:
                pal = self._pal[order[k]]
                for i in range(9):
                    pal[i] = COLOURS[i * 3 + k] * (level + 1) // 16
        self._valid = False
        if self._view is not None:
            self.show(self._view)

    def invalidate(self):
        self._valid = False

    def show(self, view):
        # Draw view; returns 1 when the frame was sent, 0 when it was the same (nothing sent).
        self._view = view
        self.draw(self._fb, view)
        if self._valid and self._buf == self._prev:
            return 0
        lines = self._lines
        f = self._ffb
        w = self.width - 1
        h = self.height - 1
        for i in range(len(lines)):
            if self.cols:
                f.blit(lines[i], 0, h - i)
            else:
                f.blit(lines[i], w - i, 0)
        strip = self._ifb
        views = self._views
        vi = self._vi
        dx = self._dx
        dy = self._dy
        for k in range(len(vi)):
            strip.blit(views[vi[k]], dx[k], dy[k])
        out = self._out
        col = self._col
        pal = self._pfbs
        for c in range(self.bpp):
            out.blit(col, c, 0, -1, pal[c])
        self.np.write()
        self._pfb.blit(self._fb, 0, 0)
        self._valid = True
        return 1
