# MAX7219 8x8 dot-matrix chain (4-in-1 32x8 modules) as a wall panel on SPI with its CS pin.
# spi: a machine.SPI (mode 0, up to 10 MHz); cs: a machine.Pin output, idle high. Modules are read
# left to right, then the next row of modules; the first word of a frame goes to module 0 (the
# farthest from DIN, as on FC-16 4-in-1 boards; reverse=True: the nearest). Register r is row
# r - 1, bit 7 its left pixel; flip=True turns the whole panel over (mounted upside down). Only
# the rows that changed are written: one frame per row register, with no-ops for the modules
# whose row is the same. The wall's marks blink (tick()).
from firmware.drivers.wall import Wall, frame
from firmware.mem import const

_NOOP = const(0x00)
_DECODE_MODE = const(0x09)
_INTENSITY = const(0x0A)
_SCAN_LIMIT = const(0x0B)
_SHUTDOWN = const(0x0C)
_DISPLAY_TEST = const(0x0F)


class Matrix(Wall):
    def __init__(self, spi, cs, width=32, height=8, brightness=4, reverse=False, flip=False):
        Wall.__init__(self, width, height, True)
        self.spi = spi
        self.cs = cs
        self.mx = width // 8  # modules across
        self.n = self.mx * (height // 8)  # modules in the chain
        self.reverse = reverse
        self.flip = flip
        self._frames = (frame(width, height), frame(width, height))
        self._k = 0
        self._out = bytearray(2 * self.n)  # one frame: a word per module
        self._valid = False
        self.level = brightness & 15
        cs(1)
        self._all(_DISPLAY_TEST, 0)
        self._all(_DECODE_MODE, 0)
        self._all(_SCAN_LIMIT, 7)
        self._all(_INTENSITY, self.level)
        self.show(None)
        self._all(_SHUTDOWN, 1)

    def _all(self, reg, data):
        out = self._out
        for i in range(self.n):
            out[2 * i] = reg
            out[2 * i + 1] = data
        self._send()

    def _send(self):
        self.cs(0)
        self.spi.write(self._out)
        self.cs(1)

    def brightness(self, level):
        # 0 (dimmest) to 15: the MAX7219's intensity register.
        self.level = level & 15
        self._all(_INTENSITY, self.level)

    def power(self, on):
        self._all(_SHUTDOWN, 1 if on else 0)

    def invalidate(self):
        self._valid = False

    def show(self, view):
        # Draw view; returns how many row frames were sent (0: nothing).
        self._view = view
        buf = self._frames[self._k][0]
        self.draw(self._frames[self._k][1], view)
        prev = self._frames[1 - self._k][0]
        valid = self._valid
        if valid and buf == prev:
            return 0
        out = self._out
        n = self.n
        mx = self.mx
        sent = 0
        for r in range(8):
            changed = False
            for q in range(n):
                # module q (reading order), its row r: byte (my * 8 + r) * mx + q % mx
                if self.flip:
                    m = n - 1 - q
                    b = ((m // mx) * 8 + 7 - r) * mx + m % mx
                else:
                    b = ((q // mx) * 8 + r) * mx + q % mx
                j = 2 * (n - 1 - q if self.reverse else q)
                if valid and buf[b] == prev[b]:
                    out[j] = _NOOP
                    out[j + 1] = 0
                    continue
                d = buf[b]
                if self.flip:
                    d = _rev(d)
                out[j] = r + 1
                out[j + 1] = d
                changed = True
            if changed:
                self._send()
                sent += 1
        self._k = 1 - self._k
        self._valid = True
        return sent


def _rev(b):
    # The byte's bits in reverse order.
    r = 0
    for _ in range(8):
        r = (r << 1) | (b & 1)
        b >>= 1
    return r
