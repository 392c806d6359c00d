# Decode a MAX7219 chain's SPI frames (8x8 dot-matrix modules, 4-in-1 32x8) into the pixels lit.
# (CPython and MicroPython.) MatrixDecoder(width, height, reverse=False, flip=False).feed(records)
# shifts each CS frame through the chain (the last word written stays in the module nearest
# DIN) into one Max7219Decoder per module; bitmap() -> rows of 0/1 as seen; frames and words
# count what went over the bus.
from host_tools.fakes.max7219 import Max7219Decoder, frames_of


class MatrixDecoder:
    def __init__(self, width=32, height=8, reverse=False, flip=False):
        self.width = width
        self.height = height
        self.n = (width // 8) * (height // 8)
        self.reverse = reverse
        self.flip = flip
        self.mods = [Max7219Decoder() for _ in range(self.n)]  # chain order: 0 = farthest
        self.frames = 0

    def feed(self, records):
        for f in frames_of(records):
            self.frames += 1
            words = len(f) // 2
            # the frame's last word ends in the module nearest DIN (chain position n - 1)
            for j in range(words):
                pos = self.n - words + j
                if pos >= 0:
                    self.mods[pos].word(f[2 * j], f[2 * j + 1])
        return self

    def module(self, q):
        # the decoder of the module at reading position q (left to right, top to bottom)
        return self.mods[self.n - 1 - q if self.reverse else q]

    def bitmap(self):
        w = self.width
        h = self.height
        mx = w // 8
        rows = [bytearray(w) for _ in range(h)]
        for q in range(self.n):
            m = self.module(q)
            for r in range(8):
                if m.test:
                    d = 0xFF
                elif m.shutdown or r > m.scan_limit:
                    d = 0
                else:
                    d = m.digit[r]
                for c in range(8):
                    if d & (0x80 >> c):
                        x = (q % mx) * 8 + c
                        y = (q // mx) * 8 + r
                        if self.flip:
                            x = w - 1 - x
                            y = h - 1 - y
                        rows[y][x] = 1
        return rows

    def intensity(self):
        return [m.intensity for m in self.mods]
