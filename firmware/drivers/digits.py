# MAX7219 8-digit 7-segment display over SPI (CS pin passed in): own font, changed digits only.
from firmware.mem import const

_DECODE_MODE = const(0x09)
_INTENSITY = const(0x0A)
_SCAN_LIMIT = const(0x0B)
_SHUTDOWN = const(0x0C)
_DISPLAY_TEST = const(0x0F)
_DP = const(0x80)

# Segment bits (no-decode mode): DP A B C D E F G = bit 7..0.
_CHARS = " 0123456789-_=AbCcdEFGHhIiJLnoOPqrStUuyY'"
_SEGS = (
    b"\x00\x7e\x30\x6d\x79\x33\x5b\x5f\x70\x7f\x7b\x01\x08\x09"
    b"\x77\x1f\x4e\x0d\x3d\x4f\x47\x5e\x37\x17\x06\x04\x3c\x0e\x15\x1d\x7e"
    b"\x67\x73\x05\x5b\x0f\x3e\x1c\x3b\x3b\x02"
)


def segments(ch):
    # Segment byte of one character; lower case stands in for upper case and vice versa where
    # only one exists; anything unknown is blank.
    i = _CHARS.find(ch)
    if i < 0:
        i = _CHARS.find(ch.upper())
        if i < 0:
            i = _CHARS.find(ch.lower())
    return _SEGS[i] if i >= 0 else 0


def field(value, width):
    # value right-aligned in width positions (str.rjust is not in MicroPython); cut on the left.
    s = str(value)
    if len(s) >= width:
        return s[len(s) - width :]
    return " " * (width - len(s)) + s


class Digits:
    # spi: a machine.SPI (mode 0, up to 10 MHz); cs: a machine.Pin output, idle high. Beside
    # another display (the app's wall: view, level, brightness(), tick()) it shows the digits'
    # view of the screen model.
    view = "digits"

    def __init__(self, spi, cs, intensity=8, ndigits=8):
        self.spi = spi
        self.cs = cs
        self.n = ndigits
        self._buf = bytearray(2)
        self._shown = bytearray(ndigits)  # segment byte per position, left to right
        self._valid = False
        cs(1)
        self._write(_DISPLAY_TEST, 0)
        self._write(_DECODE_MODE, 0)  # our own font for every digit
        self._write(_SCAN_LIMIT, ndigits - 1)
        self.intensity(intensity)
        self.show("")
        self._write(_SHUTDOWN, 1)

    def _write(self, reg, data):
        b = self._buf
        b[0] = reg
        b[1] = data
        self.cs(0)
        self.spi.write(b)
        self.cs(1)

    def intensity(self, level):
        self.level = level & 0x0F
        self._write(_INTENSITY, self.level)

    brightness = intensity

    def tick(self, now):
        return None

    def power(self, on):
        self._write(_SHUTDOWN, 1 if on else 0)

    def test(self, on):
        self._write(_DISPLAY_TEST, 1 if on else 0)

    def invalidate(self):
        # Forget what is shown: the next show() writes every digit.
        self._valid = False

    def show(self, text):
        # text: up to 8 characters left to right; a "." lights the point of the character before it
        # (it takes no position). Shorter text is blank on the right.
        # Returns how many digits were written.
        n = self.n
        shown = self._shown
        pos = 0
        written = 0
        i = 0
        ln = len(text)
        while pos < n:
            seg = 0
            if i < ln:
                ch = text[i]
                i += 1
                if ch != ".":
                    seg = segments(ch)
                if i < ln and text[i] == ".":
                    seg |= _DP
                    i += 1
            if not self._valid or shown[pos] != seg:
                self._write(n - pos, seg)  # digit register 1 is the rightmost position
                shown[pos] = seg
                written += 1
            pos += 1
        self._valid = True
        return written

    def scores(self, a, b, sep=""):
        # Two numbers: without sep each fills half, right-aligned ("  57  -3"); with sep they hug it
        # ("   3-2  " for racks 3 and 2 with sep="-").
        half = (self.n - len(sep)) // 2
        rest = self.n - len(sep) - half
        right = str(b)
        if sep:
            right = right[:rest]
        else:
            right = field(right, rest)
        return self.show(field(a, half) + sep + right)
