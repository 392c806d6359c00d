# Wall panel drawing shared by the NeoPixel and MAX7219 dot-matrix drivers: a wall view -> pixels.
# The view (firmware/wall_view.py) is a list of ints: [game, a, b, shooter, goal a, goal b,
# warned bits, ball in hand, winner]. Drawn into a framebuf.FrameBuffer with palette indices
# (GS8, NeoPixel) or lit/unlit (MONO_HLSB, matrix), by layout:
#   wide (width >= 32, height >= 8), digits the panel's full height:
#     col 0 A's marker | A's score (from the left) | A's foul marks | race/target |
#     B's foul marks | B's score (to the right) | last col B's marker
#   stacked (width >= 16, height >= 16): A in the top half, B in the bottom half, each
#     marker | score | foul marks | race/target (when it fits).
# Marker column: full = shooting, ball in hand = another colour (mono: every other row, blinking),
# winner = gold (mono: blinking). Two-foul warning: two dashes in the foul-mark column (red;
# mono: blinking) and, in colour, the warned player's digits red. The shot clock's seconds (the
# view's tenth field, while a shot has a countdown) take the wide layout's middle instead of the
# race/target: big digits where they fit between the scores, else small; red in the last 10
# seconds (mono: blinking). A stacked panel has no room for them.
import framebuf

from firmware.keys import ticks_diff
from firmware.mem import const

# view fields
_GAME = const(0)  # 0 no match (dashes), 1 points (14.1), 2 racks (8-ball, 9-ball)
_SHOOTER = const(3)  # -1 none
_WARN = const(6)  # bit 0: A warned, bit 1: B warned
_BIH = const(7)  # 0 none, 1 kitchen, 2 table (the shooter's)
_WINNER = const(8)  # -1 none
_CLOCK = const(9)  # the shot clock's seconds (a view of 10 fields)
_LAST = const(10)  # the last seconds shown red (blinking on mono)

# palette indices (GS8 pixel values); COLOURS below gives each its colour
OFF = const(0)
SCORE = const(1)
SHOOT = const(2)
WARNED = const(3)  # a warned player's digits
HAND = const(4)  # ball-in-hand marker (blinks on mono)
MARK = const(5)  # two-foul marks (blink on mono)
INFO = const(6)  # race or target
WIN = const(7)  # the winner's digits
CROWN = const(8)  # the winner's marker (blinks on mono)
# (r, g, b) of each index at full brightness (level 15); level L gives c * (L + 1) // 16
COLOURS = (b"\x00\x00\x00" b"\xc8\xc8\xc8" b"\x00\xff\x00" b"\xff\x00\x00" b"\x00\x50\xff"
           b"\xff\x00\x00" b"\xff\x78\x00" b"\xff\xb4\x00" b"\xff\xb4\x00")
_BLINKS = const(0x130)  # bits of the indices that blink on a mono panel: HAND, MARK, CROWN
_BLINK_MS = const(500)

# 4x8 digits "0123456789-": 4 bytes a glyph, columns left to right, bit 0 the top row
_BIG = (b"\x7e\x81\x81\x7e\x04\x82\xff\x80\xe2\x91\x89\x86\x42\x89\x89\x76\x0f\x08\x08\xff"
        b"\x4f\x89\x89\x71\x7e\x89\x89\x70\x01\xe1\x19\x07\x76\x89\x89\x76\x0e\x91\x91\x7e"
        b"\x18\x18\x18\x00")
# 3x5 digits "0123456789" (race, target): 3 bytes a glyph
_SMALL = (b"\x1f\x11\x1f\x12\x1f\x10\x1d\x15\x17\x11\x15\x1f\x07\x04\x1f\x17\x15\x1d\x1f\x15"
          b"\x1d\x01\x1d\x03\x1f\x15\x1f\x17\x15\x1f")
_DASH = const(10)


def _width(v, gw):
    # Columns a number takes in a font gw wide (1 column between digits).
    n = 1
    if v < 0:
        n = 2
        v = -v
    while v >= 10:
        v //= 10
        n += 1
    return n * (gw + 1) - 1


class Wall:
    # The drawing; subclasses (drivers.neopanel, drivers.matrix) own the frame buffers and send.
    def __init__(self, width, height, mono):
        if width >= 32 and height >= 8:
            self.stacked = False
            band = height
        elif width >= 16 and height >= 16:
            self.stacked = True
            band = height // 2
        else:
            raise ValueError("wall panel too small: %dx%d" % (width, height))
        self.width = width
        self.height = height
        self.band = band
        self.sy = band // 8  # digit scale: rows per font row
        self.mono = mono
        self.phase = 1  # mono blink phase: 1 lit
        self.blinking = False  # the last frame drawn has something that blinks
        self._t = 0  # ticks_ms of the last blink change
        self._ink = bytearray(9)  # palette index -> value drawn
        self._view = None  # the last view shown (tick and brightness redraw it)
        # one glyph at the font's own size (4x8 at most), blitted in one colour: pixel 1 drawn
        # in _gpal[1], 0 left as it is (the key)
        self._g = bytearray(4)
        self._gfb = framebuf.FrameBuffer(self._g, 4, 8, framebuf.MONO_VLSB)
        self._gpal = bytearray(2)
        self._gpfb = framebuf.FrameBuffer(self._gpal, 2, 1, framebuf.GS8)
        self._inks()

    def _inks(self):
        ink = self._ink
        for i in range(9):
            if not self.mono:
                ink[i] = i
            elif i == 0 or (_BLINKS >> i & 1 and not self.phase):
                ink[i] = 0
            else:
                ink[i] = 1

    def show(self, view):
        # Draw and send view (the drivers'); returns what changed (0: nothing was sent).
        return 0

    def tick(self, now):
        # Blink (mono panels): every 500 ms the blinking marks change, if any is shown; the app
        # calls this on passes that draw nothing. Returns what show() returned, or 0.
        if not self.mono or not self.blinking:
            return 0
        if ticks_diff(now, self._t) < _BLINK_MS:
            return 0
        self._t = now
        self.phase ^= 1
        self._inks()
        return self.show(self._view)

    def draw(self, fb, v):
        # The view v into fb (cleared first). Anything that is not a wall view (the app's error
        # screen, text lines) draws dashes.
        fb.fill(0)
        self.blinking = False
        sy = self.sy
        w = self.width
        band = self.band
        ok = v is not None and len(v) >= 9 and isinstance(v[0], int)
        game = v[_GAME] if ok else 0
        slot = 14 if game != 2 else 9  # 3 digits (points) or 2 (racks)
        clk = ok and len(v) > _CLOCK and not self.stacked  # type: ignore[arg-type]
        c0 = 0  # the clock's first column: past A's digits
        for p in (0, 1):
            if self.stacked:
                y = p * band
                right = 1 + slot  # the score's right edge (exclusive)
                mark = right
                side = 0
                lo = mark + 1  # the middle: race or target
                hi = w
            else:
                y = 0
                right = 1 + slot if p == 0 else w - 1
                mark = right if p == 0 else w - 2 - slot
                side = 0 if p == 0 else w - 1
                lo = 2 + slot
                hi = w - 2 - slot
            if game == 0:
                self._glyph(fb, _BIG, 4, _DASH, right - 4, y, sy, self._ink[SCORE])
                continue
            warned = v[_WARN] >> p & 1
            colour = WIN if v[_WINNER] == p else (WARNED if warned else SCORE)
            if not self.stacked:
                # A's score from the left, B's to the right: a column apart from the marker
                # when it fits, the middle free between them
                n = _width(v[1 + p], 4)
                if n > slot:  # below -99: a two-column minus, the other score columns away
                    n -= 2
                gap = 1 if n < slot else 0
                right = 1 + gap + n if p == 0 else w - 1 - gap
                mark = max(mark, right) if p == 0 else min(mark, right - n - 1)
            self._number(fb, v[1 + p], right, y, colour)
            if warned:
                self._blinks()
                c = self._ink[MARK]
                fb.fill_rect(mark, y + sy, 1, 2 * sy, c)
                fb.fill_rect(mark, y + 5 * sy, 1, 2 * sy, c)
            if v[_WINNER] == p:
                self._blinks()
                fb.fill_rect(side, y, 1, band, self._ink[CROWN])
            elif v[_SHOOTER] == p:
                if v[_BIH]:
                    self._blinks()
                    c = self._ink[HAND]
                    if self.mono:
                        for r in range(0, 8, 2):
                            fb.fill_rect(side, y + r * sy, 1, sy, c)
                    else:
                        fb.fill_rect(side, y, 1, band, c)
                else:
                    fb.fill_rect(side, y, 1, band, self._ink[SHOOT])
            if clk:  # (the clock goes between A's digits and B's, a column apart)
                if p == 0:
                    c0 = right + 1
                else:
                    self._clock(fb, v[_CLOCK], c0, right - n - 1)
            elif self.stacked or p == 0:
                self._goal(fb, v, p, lo, hi, y)

    def _clock(self, fb, s, lo, hi):
        # The shot clock's seconds s centred in columns lo..hi-1: big if they fit, else small.
        last = s <= _LAST
        if last:
            self._blinks()
        c = MARK if last else INFO
        n = _width(s, 4)
        if n <= hi - lo:
            return self._number(fb, s, lo + (hi - lo + n) // 2, 0, c)
        n = _width(s, 3)
        if n <= hi - lo:
            self._small(fb, s, lo + (hi - lo + n) // 2, 3 * self.sy, self._ink[c])

    def _blinks(self):
        if self.mono:
            self.blinking = True

    def _goal(self, fb, v, p, lo, hi, y):
        # The race or target, small and centred in columns lo..hi-1 (if it fits): stacked, each
        # player's own; wide, one number, or both as "a-b" when they differ (a handicap).
        a = v[4 + p]
        b = v[5] if not self.stacked and v[4] != v[5] else None
        if a <= 0:
            return
        n = _width(a, 3)
        if b is not None:
            n += 4 + _width(b, 3)  # a, gap, 2-column dash, gap, b
        if n > hi - lo:
            return
        x = lo + (hi - lo - n) // 2
        yy = y + 3 * self.sy
        c = self._ink[INFO]
        if b is None:
            self._small(fb, a, x + n, yy, c)
            return
        x0 = x + _width(a, 3)
        self._small(fb, a, x0, yy, c)
        fb.fill_rect(x0 + 1, yy + 2 * self.sy, 2, self.sy, c)
        self._small(fb, b, x + n, yy, c)

    def _number(self, fb, v, right, y, colour):
        # v in big digits right-aligned at column `right` (exclusive).
        c = self._ink[colour]
        neg = v < 0
        if neg:
            v = -v
        x = right - 4
        while True:
            self._glyph(fb, _BIG, 4, v % 10, x, y, self.sy, c)
            x -= 5
            v //= 10
            if not v:
                break
        if neg and right - x > 15:  # three digits: the narrow minus
            fb.fill_rect(x + 2, y + 3 * self.sy, 2, 2 * self.sy, c)
        elif neg:
            self._glyph(fb, _BIG, 4, _DASH, x, y, self.sy, c)

    def _small(self, fb, v, right, y, c):
        x = right - 3
        while True:
            self._glyph(fb, _SMALL, 3, v % 10, x, y, self.sy, c)
            x -= 4
            v //= 10
            if not v:
                break

    def _glyph(self, fb, font, gw, gi, x, y, s, c):
        # Glyph gi of font (gw columns) at x, y, each font row s pixel rows tall: one blit at
        # the font's size (a fill_rect for each run of lit rows takes three times as long: a
        # millisecond of a frame on the virtual Pico), else those fill_rects.
        if x < 0:
            return
        o = gi * gw
        if s == 1:
            g = self._g
            for cx in range(4):
                g[cx] = font[o + cx] if cx < gw else 0
            self._gpal[1] = c
            fb.blit(self._gfb, x, y, 0, self._gpfb)
            return
        for cx in range(gw):
            bits = font[o + cx]
            r = 0
            while bits:
                if bits & 1:
                    n = 0
                    while bits & 1:
                        bits >>= 1
                        n += 1
                    fb.fill_rect(x + cx, y + r * s, 1, n * s, c)
                    r += n
                else:
                    bits >>= 1
                    r += 1


def frame(width, height):
    # (buffer, FrameBuffer) for one frame of a width x height one-colour panel (drivers.matrix)
    buf = bytearray((width + 7) // 8 * height)
    return buf, framebuf.FrameBuffer(buf, width, height, framebuf.MONO_HLSB)
