# One wall panel frame on the board-like VM: the heap it takes and its time, per driver and step.
# Run: python -m host_tools.mpy -m host_tools.wall_heap   (the drivers on buses that keep nothing)
import gc
import time

from firmware.drivers.matrix import Matrix
from firmware.drivers.neopanel import NeoPanel


class _Pin:
    def __call__(self, v=None):
        return 1

    def init(self, *a):
        pass


class _Strip:
    # neopixel.NeoPixel as the driver uses it: buf, bpp, ORDER, write() (sends nothing)
    ORDER = (1, 0, 2, 3)

    def __init__(self, n):
        self.bpp = 3
        self.buf = bytearray(3 * n)
        self.writes = 0

    def write(self):
        self.writes += 1


class _Bus:
    def __init__(self):
        self.n = 0

    def write(self, buf):
        self.n += len(buf)


def measure(dev, views, label, sent):
    dev.show(views[0])
    gc.collect()
    free = gc.mem_free()  # pyright: ignore[reportAttributeAccessIssue]
    for i in range(1, len(views)):
        b0 = sent()
        gc.collect()
        a = gc.mem_alloc()  # pyright: ignore[reportAttributeAccessIssue]
        t = time.ticks_us()  # pyright: ignore[reportAttributeAccessIssue]
        n = dev.show(views[i])
        t = time.ticks_diff(time.ticks_us(), t)  # pyright: ignore[reportAttributeAccessIssue]
        used = gc.mem_alloc() - a  # pyright: ignore[reportAttributeAccessIssue]
        print("%s frame %d: changed %d, sent %d bytes, heap %d bytes, %d us (free %d)" % (
            label, i, n, sent() - b0, used, t, free))


def main():
    frames = ([1, 57, 3, 0, 100, 100, 0, 0, -1], [1, 58, 3, 0, 100, 100, 0, 0, -1],
              [1, 58, 3, 0, 100, 100, 0, 0, -1], [1, 58, 3, 1, 100, 100, 1, 2, -1],
              [1, 100, 125, 1, 150, 150, 3, 2, -1])
    strip = _Strip(256)
    gc.collect()
    a = gc.mem_alloc()  # pyright: ignore[reportAttributeAccessIssue]
    d = NeoPanel(strip, 32, 8)
    gc.collect()
    print("neopixel driver object: %d bytes" % (gc.mem_alloc() - a))  # pyright: ignore
    measure(d, frames, "neopixel 32x8", lambda: strip.writes * len(strip.buf))
    del d
    bus = _Bus()
    gc.collect()
    a = gc.mem_alloc()  # pyright: ignore[reportAttributeAccessIssue]
    m = Matrix(bus, _Pin(), 32, 8)
    gc.collect()
    print("matrix driver object: %d bytes" % (gc.mem_alloc() - a))  # pyright: ignore
    measure(m, frames, "matrix 32x8", lambda: bus.n)


main()
