# Decode MAX7219 SPI frames into the characters its 8 seven-segment digits show.
from host_tools.fakes import UNKNOWN, FakeSPI

# Segments by letter (a=top, b=top right, c=bottom right, d=bottom, e=bottom left, f=top left,
# g=middle) of what each character looks like; written out independently of the driver's font.
_SEVEN = (
    (" ", ""),
    ("0", "abcdef"),
    ("1", "bc"),
    ("2", "abdeg"),
    ("3", "abcdg"),
    ("4", "bcfg"),
    ("5", "acdfg"),
    ("6", "acdefg"),
    ("7", "abc"),
    ("8", "abcdefg"),
    ("9", "abcdfg"),
    ("-", "g"),
    ("_", "d"),
    ("=", "dg"),
    ("A", "abcefg"),
    ("b", "cdefg"),
    ("C", "adef"),
    ("c", "deg"),
    ("d", "bcdeg"),
    ("E", "adefg"),
    ("F", "aefg"),
    ("G", "acdef"),
    ("H", "bcefg"),
    ("h", "cefg"),
    ("I", "ef"),
    ("i", "e"),
    ("J", "bcde"),
    ("L", "def"),
    ("n", "ceg"),
    ("o", "cdeg"),
    ("P", "abefg"),
    ("q", "abcfg"),
    ("r", "eg"),
    ("t", "defg"),
    ("U", "bcdef"),
    ("u", "cde"),
    ("y", "bcdfg"),
    ("'", "f"),
)
_CODE_B = "0123456789-EHLP "


def _letters(ch):
    for c, letters in _SEVEN:
        if c == ch:
            return letters
    return ""


def _seg_byte(letters):
    v = 0
    for ch in letters:
        v |= 0x40 >> (ord(ch) - ord("a"))
    return v


def frames_of(records):
    # records: a FakeSPI's records (split into frames by CS) or already a list of frames (bytes).
    if records and isinstance(records[0], tuple):
        s = FakeSPI()
        s.records = records
        return s.frames()
    return records


class Max7219Decoder:
    # Register state of one MAX7219 fed 16-bit (register, data) words, one per CS-low frame.
    def __init__(self):
        self.digit = bytearray(8)  # register 1..8 -> index 0..7 (index 0 = rightmost)
        self.decode = 0
        self.intensity = 0
        self.scan_limit = 0
        self.shutdown = True
        self.test = False
        self.writes = 0
        self._rev = None

    def feed(self, records):
        for f in frames_of(records):
            if len(f) >= 2:
                self.word(f[-2], f[-1])  # one device: the last word written stays in it
        return self

    def word(self, reg, data):
        self.writes += 1
        reg &= 0x0F
        if 1 <= reg <= 8:
            self.digit[reg - 1] = data
        elif reg == 0x09:
            self.decode = data
        elif reg == 0x0A:
            self.intensity = data & 0x0F
        elif reg == 0x0B:
            self.scan_limit = data & 7
        elif reg == 0x0C:
            self.shutdown = not (data & 1)
        elif reg == 0x0F:
            self.test = bool(data & 1)

    def _char(self, seg):
        if self._rev is None:
            self._rev = {}
            for ch, letters in _SEVEN:
                self._rev[_seg_byte(letters)] = ch
        return self._rev.get(seg & 0x7F, UNKNOWN)

    def segments(self):
        # Segment bytes as lit, left to right (8 positions).
        out = bytearray(8)
        for pos in range(8):
            k = 7 - pos
            if self.test:
                out[pos] = 0xFF
            elif self.shutdown or k > self.scan_limit:
                out[pos] = 0
            elif self.decode & (1 << k):  # Code B font
                d = self.digit[k]
                out[pos] = (d & 0x80) | _seg_byte(_letters(_CODE_B[d & 0x0F]))
            else:
                out[pos] = self.digit[k]
        return out

    def text(self):
        s = ""
        for seg in self.segments():
            s += self._char(seg)
            if seg & 0x80:
                s += "."
        return s


def decode_max7219(records):
    # SPI records (or frames) -> the characters shown left to right, "." after a lit point.
    return Max7219Decoder().feed(records).text()
