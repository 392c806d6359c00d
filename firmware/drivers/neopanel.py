# WS2812B (NeoPixel) matrix wall panel: the wall view in colour through a neopixel.NeoPixel passed in.
# np: MicroPython's neopixel.NeoPixel(pin, width * height) (its buf, bpp and ORDER are used: the
# colours go straight into its buffer; only changed pixels are rewritten, and write() is skipped
# when the frame is the same). Wiring: panels of pw x ph pixels chained left to right, then top
# to bottom; in each the strip runs along columns (cols=True, as 8x32 panels are wired) or rows
# (16x16 panels), zigzag (serpentine) or every line the same way, from the top left corner
# (flip_x: from the right, flip_y: from the bottom).
from array import array

from firmware.drivers.wall import COLOURS, Wall, frame


class NeoPanel(Wall):
    def __init__(self, np, width=32, height=8, pw=0, ph=0, cols=True, zigzag=True,
                 flip_x=False, flip_y=False, brightness=4):
        Wall.__init__(self, width, height, False)
        self.np = np
        self.pw = pw or width
        self.ph = ph or height
        self.cols = cols
        self.zigzag = zigzag
        self.flip_x = flip_x
        self.flip_y = flip_y
        self.bpp = getattr(np, "bpp", 3)
        self._order = getattr(np, "ORDER", (1, 0, 2, 3))
        self._frames = (frame(width, height, False), frame(width, height, False))
        self._k = 0  # the frame drawn next; the other one is on the panel
        self._pal = bytearray(9 * self.bpp)  # palette in the strip's byte order, at the level
        # the strip position of each frame pixel (row by row), worked out once: index() for
        # each changed pixel of each frame took milliseconds on a board
        n = width * height
        self._pos = array("H", range(n))
        for i in range(n):
            self._pos[i] = self.index(i % width, i // width)
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
        pal = self._pal
        bpp = self.bpp
        order = self._order
        for i in range(9):
            for k in range(3):
                if k < bpp:
                    pal[i * bpp + order[k]] = COLOURS[i * 3 + k] * (level + 1) // 16
        self._valid = False
        if self._view is not None:
            self.show(self._view)

    def invalidate(self):
        self._valid = False

    def show(self, view):
        # Draw view; returns how many pixels changed (0: nothing was sent).
        self._view = view
        buf, fb = self._frames[self._k]
        self.draw(fb, view)
        prev = self._frames[1 - self._k][0]
        valid = self._valid
        if valid and buf == prev:
            return 0
        nb = self.np.buf
        pal = self._pal
        bpp = self.bpp
        pos = self._pos
        npx = len(pos)
        n = 0
        for j in range(len(buf)):
            # the frame is 32-bit words of four pixels (the first in the low byte): an unchanged
            # word is one step
            w = buf[j]
            pw = prev[j]
            if w == pw and valid:
                continue
            i = j * 4
            for _ in range(4):
                if i >= npx:
                    break
                c = w & 255
                if c != pw & 255 or not valid:
                    o = pos[i] * bpp
                    c *= bpp
                    nb[o] = pal[c]
                    nb[o + 1] = pal[c + 1]
                    nb[o + 2] = pal[c + 2]
                    if bpp == 4:
                        nb[o + 3] = pal[c + 3]
                    n += 1
                w >>= 8
                pw >>= 8
                i += 1
        self.np.write()
        self._k = 1 - self._k
        self._valid = True
        return n
