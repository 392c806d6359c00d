# Heap helpers of the firmware, on MicroPython and CPython: const, unload and collect.
# What each trick of the firmware saves, measured on the board-like VM (32-bit) from the .mpy
# tree and with the firmware frozen, and on the virtual Pico (230 KB heap, the .mpy tree):
#   const (here, for all): folded by mpy-cross from this import too (no global, no lookup); the
#     .mpy total is 307 bytes smaller than with a fallback in each of 13 modules.
#   unload: frees, .mpy / frozen: setup 3,936 / 576 bytes, journal_fix 1,792 / 432, a game's
#     rules 784-1,456 / 192-272, hw 960 / 192, boot 400 / 128, the other language's text at a
#     switch about 4 KB / 64 (frozen, the text stays in flash). Kept: a call costs nothing, the
#     frozen 64 KB board keeps its margin and a stock Pico its code heap.
#   the filling of the holes a collection leaves (app.holes and app.fill, with collect()'s
#     answer whether the heap has room to spare): with the flash's erase times, a key's screen
#     on the virtual Pico in a median 18.8 ms press to pixels, 29.8 without (a made ball's work
#     11.4 ms, 21.0 without: the allocator's walk through the holes), the slowest key in play
#     42 ms, 53 without. Kept; it stays off where less than 48 KB are free (the frozen 64 KB
#     board).
#   the OLED's windows (oled_i2c.SSD1306W_I2C.show_pages): a key's screen sends a median 100
#     bytes in 2.7 ms on the Pico's 400 kHz bus, a whole frame 1,026 bytes in 23 ms. Kept.
#   the drivers' UTF-8 byte walks (oled, lcd): indexing a screen's 107 characters as a str
#     interns 86 names for good (1,080 bytes of name pool, 2 KB of heap), frozen or not. Kept.
#   small frames in the loop pass (app.App.step's parts, the scanners' at-rest reads, their
#     step of a key and their scan key by key, Journal.tidy with nothing to do): a frame over
#     44 bytes is allocated on the heap at each call, through the holes below the free heap,
#     and in an idle pass that cost more than the pass's work. On the Pico in play with no key:
#     58k cycles a millisecond (47% of the CPU); with Journal.tidy's frame alone on the heap,
#     130k, more than the core has; a key's step, on the heap, made its work 3 ms longer. Kept.
#   the scores' double-size glyphs made when the OLED starts (drivers/oled.py, 416 bytes, where
#     up to 16 kept as drawn took 1.6 KB): a score's digit is a copy and a blit; made while a
#     key waited, one took 1 ms on the virtual Pico. Kept.
#   the key hints' lines of the last 3 screens (views._hl, about 300 bytes each): making and
#     packing them again took 2.5 ms of a rack end's or a third foul's render on the virtual
#     Pico. Kept where the heap is over 96 KB (views._HL); a smaller one keeps the last
#     screen's only: on the 64 KB frozen board the other two took 1 KB of a long 14.1 match's
#     smallest heap (63 KB instead of 62).
#   gc.collect() before a language's text loads (lang.texts): the import's own allocations
#     would otherwise take the holes its 4 KB in one piece needs; the views' tests on the
#     board-like VM then run out at 80 KB, with it they run in 72. Kept.
import gc
import sys

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731  (CPython: the value itself)

# mpy-cross folds `_NAME = const(n)` by the name `const`, wherever it was imported from: a
# module that imports it from here gets no global and no lookup for the constant.

_SPARE = const(49152)  # the free heap after a collection with which its holes are filled


def unload(name):
    # Let go of firmware.<name> (needed only for a while: one game's rules, one language's
    # texts, the setup screens, the journal's repairs, the wiring) so that its code can be
    # collected; the next import loads it again.
    sys.modules.pop("firmware." + name, None)
    pkg = sys.modules.get("firmware")
    if pkg is not None and name in pkg.__dict__:
        delattr(pkg, name)


def collect():
    # gc.collect(); True where the heap has room to spare for filling the holes it leaves
    # (app.fill: a small heap keeps its holes for the next key), and id() is an address
    # (MicroPython). After a collection MicroPython's allocator looks for each object of two
    # blocks or more from the lowest free block up, through every hole.
    gc.collect()
    mem_free = getattr(gc, "mem_free", None)
    return mem_free is not None and mem_free() >= _SPARE
