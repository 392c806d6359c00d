# A fake of MicroPython's neopixel.NeoPixel that records each write, and its pixels read back.
# (CPython and MicroPython.) NeoPixel(pin, n, bpp=3, keep=0): .buf, .ORDER, [i] = (r, g, b),
# fill(), write() appends bytes(buf) to .writes (keep N: the last N only) and counts in .count.
# grid(frame, width, height, ...) places a strip's bytes on the panel as a person sees it: rows
# of 0xRRGGBB ints, walking the wiring pixel by pixel (written apart from the driver's
# arithmetic).


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # G R B W, as MicroPython's

    def __init__(self, pin, n, bpp=3, timing=1, keep=0):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = []  # bytes of buf at each write() (the last `keep` only, if keep)
        self.keep = keep
        self.count = 0  # write() calls
        self.records = self.writes  # (what the simulator feeds its decoder, as a bus's)
        self.timing = timing

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        o = i * self.bpp
        for k in range(self.bpp):
            self.buf[o + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        o = i * self.bpp
        return tuple([self.buf[o + self.ORDER[k]] for k in range(self.bpp)])

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        self.count += 1
        self.writes.append(bytes(self.buf))
        if self.keep and len(self.writes) > self.keep:
            self.writes.pop(0)

    def last(self):
        return self.writes[-1] if self.writes else bytes(len(self.buf))


def path(width, height, pw=0, ph=0, cols=True, zigzag=True, flip_x=False, flip_y=False):
    # (x, y) of each strip position in turn: the strip walked panel by panel (left to right, then the
    # next row of panels), line by line, turning at each line's end when zigzag.
    pw = pw or width
    ph = ph or height
    for py in range(0, height, ph):
        for px in range(0, width, pw):
            lines = range(pw) if cols else range(ph)
            along = ph if cols else pw
            for ln in lines:
                steps = list(range(along))
                if zigzag and ln % 2 == 1:
                    steps.reverse()
                for s in steps:
                    lx, ly = (ln, s) if cols else (s, ln)
                    if flip_x:
                        lx = pw - 1 - lx
                    if flip_y:
                        ly = ph - 1 - ly
                    yield px + lx, py + ly


def grid(frame, width, height, bpp=3, order=NeoPixel.ORDER, **wiring):
    # rows of 0xRRGGBB ints (small ints: no heap on MicroPython) from a strip's bytes
    rows = [[0] * width for _ in range(height)]
    i = 0
    for x, y in path(width, height, **wiring):
        o = i * bpp
        rows[y][x] = frame[o + order[0]] << 16 | frame[o + order[1]] << 8 | frame[o + order[2]]
        i += 1
    return rows


def rgb(v):
    # 0xRRGGBB -> (r, g, b)
    return (v >> 16 & 255, v >> 8 & 255, v & 255)
