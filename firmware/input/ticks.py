# ms tick arithmetic that wraps like MicroPython's ticks_ms (period 2**30); native where available.
import time

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

_MASK = const(0x3FFFFFFF)  # ticks period - 1 (period 2**30)
_HALF = const(0x20000000)  # half the period: the largest forward difference


def wrap_diff(a, b):
    # Signed a - b for ticks that wrap at 2**30; stays within small ints on 32-bit ports.
    d = (a - b) & _MASK
    if d >= _HALF:
        d = d - _MASK - 1
    return d


def wrap_add(t, d):
    # t + d on the 2**30 tick circle.
    return (t + d) & _MASK


# MicroPython's own (its port's period); CPython has neither, so the 2**30 ones above.
ticks_diff = getattr(time, "ticks_diff", wrap_diff)
ticks_add = getattr(time, "ticks_add", wrap_add)
