# Host simulator: the scoreboard app on fake pins and buses, the display drawn from the bytes it got.
"""Run the scoreboard on the PC: the same firmware (firmware/app.py, the Controller, the views,
the real display drivers and the real debounced Keypad/Buttons) on fake pins and buses. Key
presses close fake switches while simulated time runs; the display is drawn in the terminal from
what the fake bus received (OLED pixels in block or braille characters, the LCD character grid,
the 7-segment digits), as large as the terminal allows.

    python -m host_tools.sim [--display oled|sh1106|lcd|lcd16|digits|neopixel|matrix]
                             [--wall neopixel|matrix] [--input keypad|buttons]
                             [--lang en|tr] [--game 14.1|8ball|9ball|10ball]
                             [--keys FILE] [--shots DIR] [--state] [--size COLSxROWS]

--display neopixel|matrix: the wall panel (a 32x8 WS2812B NeoPixel panel, or four MAX7219 8x8
modules) is the display; --wall neopixel|matrix: the wall panel beside the display (a board
with both: the referee's OLED or LCD and the players' panel), drawn beside it or below it.

Interactive (a terminal): one PC key per press; q or Ctrl-C quits.
  keypad:  0-9, a-d (A-D), *, #           capital A-D = long press of A-D
  buttons: 1 = P1, 2 = P2, f = FOUL, u = UNDO, m = MISS, o = OK
           capital F U M O, ! (Shift-1), @ (Shift-2) = long press
  both:    l then a key = long press of it; x then a key = held until "stuck";
           z then a key = chattering contact; the key names below also work in files.
The wall panel is drawn 2 columns a pixel (66x10), with half blocks (34x6) or braille (18x4),
in colour in a terminal. The OLED is drawn in the largest of: 2 columns a pixel (258x66 and the legend), 1 column a
pixel with half blocks (130x34), quadrant blocks (66x34), braille dots (66x18: with the legend
it fits 80x24); the LCDs take 22x6 and 18x4, the digits 59x9. A terminal too small for the
smallest picture gets one line naming the size needed. --size COLSxROWS draws for that size
instead of the terminal's (pipe and headless modes: default 80x24).
Not a terminal (a pipe): each input line is read as key tokens (as in --keys files) and the
screen is printed after each line; end of input ends the run.
--keys FILE plays a key file headless: tokens are key names (A B 0 C * # P1 FOUL ...),
  long:KEY, stuck:KEY, chatter:KEY, wait:MS, shot; a token that is no key name is read one PC key
  per character (so "a1b" works). Lines starting with "# " are comments, but for a line of
  key names only (a lone #, and "# *", the help key, are keys).
--shots DIR writes DIR/NNN.png of the display after each line with keys (or only at `shot`
  tokens if the file has any), and DIR/NNN-wall.png of the wall panel with --wall.
--state prints the final state contract as JSON (and no screen).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

from firmware import events, stjson
from firmware.app import Runner
from host_tools import cli
from host_tools.fakehw import (  # fakes: firmware/lib on sys.path
    BUTTONS,
    WALLS,
    FakeBoard,
    WallDecoder,
    decoder,
)

KEYPAD = "123A456B789C*0#D"
DISPLAYS = {"oled": "oled", "sh1106": "sh1106", "lcd": "lcd20", "lcd20": "lcd20",
            "lcd16": "lcd16", "digits": "digits", "neopixel": "neopixel", "matrix": "matrix"}

# PC key -> (kind, key name), per layout
KEYPAD_KEYS = {c: ("press", c) for c in "0123456789*#"}
KEYPAD_KEYS.update({c.lower(): ("press", c) for c in "ABCD"})
KEYPAD_KEYS.update({c: ("long", c) for c in "ABCD"})
BUTTON_KEYS = {"1": ("press", "P1"), "2": ("press", "P2"), "f": ("press", "FOUL"),
               "u": ("press", "UNDO"), "m": ("press", "MISS"), "o": ("press", "OK"),
               "!": ("long", "P1"), "@": ("long", "P2"), "F": ("long", "FOUL"),
               "U": ("long", "UNDO"), "M": ("long", "MISS"), "O": ("long", "OK")}
PREFIXES = {"l": "long", "L": "long", "x": "stuck", "z": "chatter"}

STEP_MS = 5  # poll period of the simulated loop
PRESS_MS = 100  # how long a short press holds the key
LONG_MS = 1000  # how long a long press holds it (long_ms is 800)
STUCK_MS = 5200  # held past stuck_ms (5000)
SETTLE_MS = 80  # after a release: debounce (30) and a margin
QUIET_MS = 1100  # after chatter: quiet_ms (1000) and a margin


class Sim(FakeBoard):
    # The app on fakes, with simulated time; press() drives a key through the pins.
    def __init__(self, display="oled", layout="keypad", lang="en", game="14.1", wall=None):
        self.display = DISPLAYS[display]
        if self.display in WALLS:
            wall = None  # the panel is the display
        super().__init__(self.display, layout, lang, wall=wall)  # keypad keymap: KEYPAD
        self.wall = wall
        self.now = 0
        self.dec: Any = decoder(self.display)
        self.seen = 0  # bus records already fed to the decoder
        self.wall_dec = WallDecoder(wall) if wall else None
        self.wall_seen = 0
        self.names = tuple(KEYPAD) if layout == "keypad" else BUTTONS
        self.runner = Runner(self.hw, lang=lang, game=game, log=False)
        self.errors = []  # names of app errors seen
        self.tick(2 * STEP_MS)  # two loop passes: the first screen is rendered, then sent

    # -- time and keys
    def tick(self, ms):
        # Run the loop for ms of simulated time; an error screen is waited out (soft restart).
        end = self.now + ms
        while self.now < end or self.runner.error is not None:
            err = self.runner.error
            self.runner.tick(self.now)
            if self.runner.error is not None and self.runner.error != err:
                self.errors.append(self.runner.error)
            self.now += STEP_MS

    def press(self, name, kind="press"):
        # One key event through the real debouncer: hold the switch, release, settle.
        if name not in self.names:
            raise ValueError("no key %r on the %s" % (name, self.layout))
        if kind == "chatter":
            for i in range(60):  # toggling every 5 ms for 300 ms: never settles
                self.set_key(name, i % 2 == 0)
                self.tick(5)
            self.set_key(name, False)
            self.tick(QUIET_MS)
            return
        hold = {"press": PRESS_MS, "long": LONG_MS, "stuck": STUCK_MS}[kind]
        self.set_key(name, True)
        self.tick(hold)
        self.set_key(name, False)
        self.tick(SETTLE_MS)

    # -- what the display shows
    def _feed(self):
        recs = self.bus.records
        if len(recs) > self.seen:
            self.dec.feed(recs[self.seen:])
            self.seen = len(recs)

    def bitmap(self):
        self._feed()
        return self.dec.bitmap()

    def grid(self):
        self._feed()
        return self.dec.grid()

    def segments(self):
        self._feed()
        return self.dec.segments()

    def panel(self):
        # The wall panel's pixels as seen (rows of (r, g, b) or 0/1): the display's if it is
        # one, else the --wall panel's (None without one).
        if self.display in WALLS:
            self._feed()
            return self.dec.rows()
        if self.wall_dec is None:
            return None
        recs = self.wall_dev.records  # pyright: ignore[reportOptionalMemberAccess]
        if len(recs) > self.wall_seen:
            self.wall_dec.feed(recs[self.wall_seen:])
            self.wall_seen = len(recs)
        return self.wall_dec.rows()

    def wall_reading(self):
        # What the wall panel says (host_tools.fakes.wall.read), or None.
        from host_tools.fakes import wall

        rows = self.panel()
        return None if rows is None else wall.read(rows)

    def _pictures(self):
        # [(style, columns, rows)] of the display's terminal pictures, largest first.
        if self.display in ("oled", "sh1106"):
            return [(s,) + oled_size(s) for s in STYLE_NAMES]
        if self.display in WALLS:
            return [(s,) + wall_size(s, self.wall_size) for s in WALL_STYLES]
        art = self.art()
        return [(None, len(art[0]), len(art))]

    def art(self, style=None, colour=False):
        # The display as terminal text (a list of lines); style: one of STYLE_NAMES (OLED;
        # the default is "half", one pixel a column) or WALL_STYLES (a wall panel: "big").
        if self.display in ("oled", "sh1106"):
            return oled_art(self.bitmap(), style or "half")
        if self.display in WALLS:
            return wall_art(self.panel(), style or "big", colour)
        if self.display == "digits":
            return digits_art(self.segments())
        return boxed(self.grid())

    def screen(self, cols=None, rows=None, colour=False):
        # The largest picture of the display within cols x rows (None: no limit), or None.
        for style, w, h in self._pictures():
            if (cols is None or w <= cols) and (rows is None or h <= rows):
                return self.art(style, colour)
        return None

    def need(self):
        # (columns, rows) of the smallest picture.
        _, w, h = self._pictures()[-1]
        return w, h

    def text(self):
        # What the display says, as plain text lines (for tests and --state-less logs); with a
        # wall panel, the panel's reading is the last line.
        out = self._text()
        if self.wall_dec is not None:
            from host_tools.fakes import wall

            out = out + [wall.summary(self.wall_reading())]
        return out

    def _text(self):
        if self.display in ("oled", "sh1106"):
            from host_tools.fakes.oled import read_text

            return read_text(self.bitmap())
        if self.display in WALLS:
            self._feed()
            return self.dec.text()
        if self.display == "digits":
            self._feed()
            return [self.dec.text()]
        return self.grid()

    def shot(self, path):
        from host_tools import shots

        if self.wall_dec is not None:
            shots.save_wall_png(self.panel(), str(path)[:-4] + "-wall.png")
        if self.display in WALLS:
            return shots.save_wall_png(self.panel(), path)
        if self.display in ("oled", "sh1106"):
            return shots.save_png(self.bitmap(), path)
        if self.display == "digits":
            return shots.save_digits_png(self.segments(), path, scale=2)
        g = self.grid()
        return shots.save_lcd_png(g, path, cols=len(g[0]))

    def state(self):
        return self.runner.app.ctl.match.state()


# ---------------------------------------------------------------- terminal pictures

# OLED picture styles, largest first: (cell width in pixels, cell height in pixels, the bit of
# each pixel of a cell by row, the text of each cell value). A terminal cell is about twice as
# tall as wide, so "big" and "half" keep the panel's shape, "quad" draws it half as wide and
# "braille" (2x4 dots a cell) keeps the shape again at 64x16 cells, which fits 80x24.
QUAD = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"
OLED_STYLES = (
    ("big", 1, 1, ((1,),), ("  ", "██")),
    ("half", 1, 2, ((1,), (2,)), " ▀▄█"),
    ("quad", 2, 2, ((1, 2), (4, 8)), QUAD),
    ("braille", 2, 4, ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80)),
     " " + "".join([chr(0x2800 + i) for i in range(1, 256)])),
)
STYLE_NAMES = tuple(s[0] for s in OLED_STYLES)

DISPLAY_NAMES = {"oled": "OLED", "sh1106": "OLED", "lcd20": "LCD 20x4", "lcd16": "LCD 16x2",
                 "digits": "7-segment display", "neopixel": "NeoPixel panel",
                 "matrix": "LED matrix"}

# Wall panel picture styles, largest first: (name, pixels a cell across, down).
WALL_STYLES = ("big", "half", "braille")
_WALL_CELL = {"big": (1, 1), "half": (1, 2), "braille": (2, 4)}
MATRIX_RGB = (255, 40, 30)  # the usual MAX7219 modules' red


def wall_size(style, size=(32, 8)):
    # (columns, rows) of wall_art in a style, the border included.
    cw, ch = _WALL_CELL[style]
    w = -(-size[0] // cw) * (2 if style == "big" else 1)
    return w + 2, -(-size[1] // ch) + 2


def _rgb(p, mono):
    # a pixel (0xRRGGBB; mono: 0/1) as (r, g, b), None when dark
    if mono:
        return MATRIX_RGB if p else None
    return (p >> 16 & 255, p >> 8 & 255, p & 255) if p else None


def _lit(c):
    # a LED's colour as a terminal shows it: dim levels brightened
    return tuple([min(255, v * 3) for v in c])


def _fg(c):
    return "\x1b[38;2;%d;%d;%dm" % _lit(c)


def wall_art(rows, style="big", colour=False):
    # A wall panel's pixels in the terminal: "big" two columns a pixel, "half" half blocks,
    # "braille" 2x4 dots a cell; colour: ANSI 24-bit colours (a terminal), else plain blocks.
    h = len(rows)
    w = len(rows[0]) if h else 0
    mono = isinstance(rows[0], (bytes, bytearray))
    lines = []
    reset = "\x1b[0m" if colour else ""
    if style == "big":
        for row in rows:
            cells = []
            for p in row:
                c = _rgb(p, mono)
                if c is None:
                    cells.append("  " if not colour else "\x1b[38;5;236m··")
                else:
                    cells.append((_fg(c) if colour else "") + "██")
            lines.append("".join(cells) + reset)
        return boxed(lines, 2 * w)
    if style == "half":
        for y in range(0, h, 2):
            cells = []
            for x in range(w):
                top = _rgb(rows[y][x], mono)
                low = _rgb(rows[y + 1][x], mono) if y + 1 < h else None
                ch = " ▀▄█"[(1 if top else 0) + (2 if low else 0)]
                if colour and (top or low):
                    if top and low:
                        ch = _fg(top) + "\x1b[48;2;%d;%d;%dm▀\x1b[49m" % _lit(low)
                    else:
                        ch = _fg(top or low) + ch
                cells.append(ch)
            lines.append("".join(cells) + reset)
        return boxed(lines, w)
    bits = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
    for y in range(0, h, 4):
        cells = []
        for x in range(0, w, 2):
            v = 0
            lit = []
            for dy in range(4):
                for dx in range(2):
                    if y + dy < h and x + dx < w:
                        c = _rgb(rows[y + dy][x + dx], mono)
                        if c:
                            v |= bits[dy][dx]
                            lit.append(c)
            ch = chr(0x2800 + v) if v else " "
            if colour and lit:
                ch = _fg(max(set(lit), key=lit.count)) + ch
            cells.append(ch)
        lines.append("".join(cells) + reset)
    return boxed(lines, -(-w // 2))


_ESC = None


def visible(s):
    # s without its ANSI colour codes (what takes room on the terminal)
    global _ESC
    if _ESC is None:
        import re

        _ESC = re.compile("\x1b\\[[0-9;]*m")
    return _ESC.sub("", s)


def beside(left, right, gap=1):
    # Two blocks of lines side by side (the left one padded to its widest line).
    lw = max([len(visible(s)) for s in left] + [0])
    out = []
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        out.append(a + " " * (lw - len(visible(a)) + gap) + b if b else a)
    return out

LEGEND = {
    "keypad": ["keys 0-9 a-d * #    A-D: long press of a-d    q: quit",
               "l+key: long press   x+key: held (stuck)   z+key: chattering"],
    "buttons": ["1=P1 2=P2 f=FOUL u=UNDO m=MISS o=OK    q: quit",
                "! @ F U M O: long press of P1 P2 FOUL UNDO MISS OK",
                "l+key: long press   x+key: held (stuck)   z+key: chattering"],
}


def boxed(lines, width=None):
    width = width or max([len(s) for s in lines] + [0])
    out = ["┌" + "─" * width + "┐"]
    for s in lines:
        out.append("│" + s + " " * (width - len(s)) + "│")
    out.append("└" + "─" * width + "┘")
    return out


def _style(name):
    for st in OLED_STYLES:
        if st[0] == name:
            return st
    raise ValueError("no OLED style %r (%s)" % (name, ", ".join(STYLE_NAMES)))


def oled_size(style, width=128, height=64):
    # (columns, rows) of oled_art in a style, the border included.
    _, cw, ch, _, glyphs = _style(style)
    return (-(-width // cw)) * len(glyphs[0]) + 2, -(-height // ch) + 2


def oled_art(bitmap, style="half"):
    # The bitmap in cells of cw x ch pixels, each cell the glyph of the sum of its lit pixels'
    # bits; pixels past the edge are dark.
    _, cw, ch, bits, glyphs = _style(style)
    h = len(bitmap)
    w = len(bitmap[0]) if h else 0
    lines = []
    for y in range(0, h, ch):
        rows = [bitmap[y + dy] if y + dy < h else bytes(w) for dy in range(ch)]
        cells = []
        for x in range(0, w, cw):
            v = 0
            for dy in range(ch):
                row = rows[dy]
                for dx in range(cw):
                    if x + dx < w and row[x + dx]:
                        v |= bits[dy][dx]
            cells.append(glyphs[v])
        lines.append("".join(cells))
    return boxed(lines)


def digits_art(segments):
    # Seven-segment digits, 5 columns x 7 rows each; a lit point is a dot after the digit.
    rows = [[] for _ in range(7)]
    on = "█"
    for seg in segments:
        a, b, c, d, e, f, g = [seg & (0x40 >> k) for k in range(7)]
        h = "███" if a else "   "
        m = "███" if g else "   "
        lo = "███" if d else "   "
        cells = [
            " " + h + " ",
            (on if f else " ") + "   " + (on if b else " "),
            (on if f else " ") + "   " + (on if b else " "),
            " " + m + " ",
            (on if e else " ") + "   " + (on if c else " "),
            (on if e else " ") + "   " + (on if c else " "),
            " " + lo + " ",
        ]
        dp = "▪" if seg & 0x80 else " "
        for i in range(7):
            rows[i].append(cells[i] + (dp if i == 6 else " ") + " ")
    return boxed([" " + "".join(r) for r in rows])


def legend(layout, cols, note=""):
    # The key legend and the status line, each wrapped (or the status cut) to cols columns.
    import textwrap

    out = []
    for line in LEGEND[layout]:
        out += textwrap.wrap(line, cols) or [""]
    out.append(note[:cols])
    return out


def too_small(sim, cols, rows, legend_layout=None):
    # The one line shown instead of a picture that does not fit: the size it needs.
    w, h = sim.need()
    if legend_layout:  # the legend wraps to the width: at the terminal's, if the picture fits
        w = max(w, cols)
        h += len(legend(legend_layout, w))
    return "terminal %dx%d is too small: the %s needs %dx%d" % (
        cols, rows, DISPLAY_NAMES[sim.display], w, h)


def fit(sim, cols, rows):
    # The display's picture within cols x rows, or the too-small line (pipe and headless modes).
    if sim.wall_dec is not None:
        return frame(sim, cols, rows, keys=False)
    return sim.screen(cols, rows) or [too_small(sim, cols, rows)]


def frame(sim, cols, rows, note="", colour=False, keys=True):
    # What the terminal shows: the display as large as fits with the key legend and the status
    # line below, all within cols x rows; or, when even the smallest picture does not fit, one
    # line naming the size needed. With a wall panel besides the display: the largest display
    # picture with the largest wall picture that fits beside it, or below it beside the legend,
    # or below it above the legend. keys=False: no legend (pipe and headless modes).
    leg = legend(sim.layout, cols, note) if keys else []
    if sim.wall_dec is None:
        art = sim.screen(cols, rows - len(leg), colour)
        if art is None:
            return [too_small(sim, cols, rows, sim.layout)]
        return art + leg
    for style, w, h in sim._pictures():
        for ws in WALL_STYLES:
            ww, wh = wall_size(ws, sim.wall_size)
            if w + 1 + ww <= cols and max(h, wh) + len(leg) <= rows:
                return beside(sim.art(style), wall_art(sim.panel(), ws, colour)) + leg
            room = cols - ww - 1  # the legend beside the wall panel, if it is not too narrow
            side = (legend(sim.layout, room, note) if keys else []) if room >= 40 else None
            if side is not None and w <= cols and h + max(wh, len(side)) <= rows:
                return sim.art(style) + beside(wall_art(sim.panel(), ws, colour), side)
            if max(w, ww) <= cols and h + wh + len(leg) <= rows:
                return sim.art(style) + wall_art(sim.panel(), ws, colour) + leg
    _, w, h = sim._pictures()[-1]
    ww, wh = wall_size(WALL_STYLES[-1], sim.wall_size)
    w = max(w, ww, cols)
    h += wh + (len(legend(sim.layout, w)) if keys else 0)
    return ["terminal %dx%d is too small: the %s and the %s need %dx%d" % (
        cols, rows, DISPLAY_NAMES[sim.display], DISPLAY_NAMES[sim.wall], w, h)]


def term_size(size=None):
    # (columns, rows): the --size value "COLSxROWS", else the terminal's (80x24 if none).
    if size:
        try:
            c, r = size.lower().split("x")
            return int(c), int(r)
        except ValueError:
            raise ValueError("--size wants COLSxROWS, e.g. 80x24, not %r" % size) from None
    s = shutil.get_terminal_size((80, 24))
    return s.columns, s.lines


# ---------------------------------------------------------------- key tokens


def key_map(layout):
    return KEYPAD_KEYS if layout == "keypad" else BUTTON_KEYS


def parse_tokens(line, layout):
    # One line of a key file -> [(kind, name)] with ("shot", None) and ("wait", ms) items.
    s = line.strip()
    names = KEYPAD if layout == "keypad" else BUTTONS
    alias = {"hash": "#", "star": "*"}
    if not s or s.startswith("# ") and not all(
            [(alias.get(t.lower()) or t) in names for t in s.split()]):
        return []  # a comment: "# " then words ("# *", "# 5": every token a key, are keys)
    out = []
    for tok in s.split():
        low = tok.lower()
        if low == "shot":
            out.append(("shot", None))
            continue
        if low.startswith("wait:"):
            out.append(("wait", int(tok[5:])))
            continue
        kind = "press"
        name = tok
        if ":" in tok and tok.split(":", 1)[0].lower() in ("long", "stuck", "chatter", "press"):
            kind, name = tok.split(":", 1)
            kind = kind.lower()
        name = alias.get(name.lower()) or name
        if name in names or name.upper() in names and len(name) > 1:
            out.append((kind, name if name in names else name.upper()))
            continue
        if kind != "press":
            raise ValueError("no key %r on the %s" % (name, layout))
        out.extend(chars_to_keys(tok, layout))
    return out


def chars_to_keys(text, layout):
    # PC keys (as typed interactively) -> [(kind, name)]; prefixes l/x/z apply to the next key.
    km = key_map(layout)
    out = []
    pending = None
    for ch in text:
        if pending is None and ch in PREFIXES:
            pending = PREFIXES[ch]
            continue
        if ch not in km:
            raise ValueError("no key for %r on the %s" % (ch, layout))
        kind, name = km[ch]
        if pending is not None:
            kind = pending
            pending = None
        out.append((kind, name))
    return out


def play(sim, items, shots_dir=None, counter=None):
    # Press the keys of parsed tokens; ("shot", None) writes a screenshot when shots_dir is set.
    for kind, name in items:
        if kind == "shot":
            if shots_dir:
                take_shot(sim, shots_dir, counter)
        elif kind == "wait":
            sim.tick(name)
        else:
            sim.press(name, kind)


def take_shot(sim, shots_dir, counter):
    os.makedirs(shots_dir, exist_ok=True)
    path = os.path.join(shots_dir, "%03d.png" % counter[0])
    counter[0] += 1
    sim.shot(path)
    return path


def status(sim):
    r = sim.runner
    extra = ""
    if r.restarts:
        extra = "  restarts: %d (%s)" % (r.restarts, ", ".join(sim.errors))
    return "t=%.1fs%s" % (sim.now / 1000, extra)


# ---------------------------------------------------------------- modes


def run_file(sim, path, shots_dir=None):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    parsed = [parse_tokens(line, sim.layout) for line in lines]
    marked = any(k == "shot" for items in parsed for k, _ in items)
    counter = [0]
    for items in parsed:
        play(sim, items, shots_dir, counter)
        if shots_dir and not marked and any(k not in ("shot", "wait") for k, _ in items):
            take_shot(sim, shots_dir, counter)
    return counter[0]


def run_lines(sim, stream, out, size=(80, 24)):
    # Pipe mode: every line of key tokens, then the screen (as large as fits size).
    cols, rows = size
    out.write("\n".join(fit(sim, cols, rows)) + "\n")
    for line in stream:
        try:
            items = parse_tokens(line, sim.layout)
        except ValueError as e:
            out.write("sim: %s\n" % e)
            continue
        if not items:
            continue
        play(sim, items)
        out.write("> " + line.strip() + "\n")
        out.write("\n".join(fit(sim, cols, rows)) + "\n")
        out.flush()


def run_tty(sim, fd=0, size=None):
    # Interactive: the frame redrawn after every key and whenever the terminal changes size
    # (size: a fixed (columns, rows) instead of the terminal's).
    import select
    import termios
    import tty

    old = termios.tcgetattr(fd)
    out = sys.stdout

    def now_size():
        if size:
            return size
        try:
            s = os.get_terminal_size(out.fileno())
            if s.columns > 0 and s.lines > 0:
                return s.columns, s.lines
        except OSError:
            pass
        return term_size()

    pending = None
    note = ""
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?25l")
        while True:
            shown = now_size()
            text = status(sim) + ("  " + note if note else "")
            # no newline after the last line: a full last row must not scroll the frame
            out.write("\x1b[H\x1b[2J" + "\n".join(frame(sim, shown[0], shown[1], text, True)))
            out.flush()
            ready = False
            while not ready:
                ready = bool(select.select([fd], [], [], 0.25)[0])
                if not ready and now_size() != shown:
                    break
            if not ready:
                continue  # the terminal changed size: draw again
            ch = os.read(fd, 1).decode("utf-8", "replace")
            if ch in ("q", "\x03", "\x04", ""):
                break
            note = ""
            if pending is None and ch in PREFIXES:
                pending = PREFIXES[ch]
                note = pending + ": press a key"
                continue
            km = key_map(sim.layout)
            if ch not in km:
                note = "no key for %r" % ch
                pending = None
                continue
            kind, name = km[ch]
            if pending is not None:
                kind = pending
                pending = None
            sim.press(name, kind)
            note = "%s %s" % (kind, name)
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[?25h\n")
        out.flush()


def main(argv=None):
    ap = cli.parser("host_tools.sim", "The scoreboard on the PC: the firmware on fake pins and "
                    "buses, the display drawn in the terminal.",
                    epilog=(__doc__ or "\n\n\n").split("\n\n", 2)[2])
    ap.add_argument("--display", choices=sorted(DISPLAYS), default="oled",
                    help="the display (default oled)")
    ap.add_argument("--wall", choices=WALLS, help="a wall panel beside the display")
    ap.add_argument("--input", choices=("keypad", "buttons"), default="keypad",
                    help="the referee keypad or the six buttons (default keypad)")
    ap.add_argument("--lang", choices=("en", "tr"), default="en",
                    help="the language (default en)")
    ap.add_argument("--game", choices=events.GAMES, default="14.1",
                    help="the game a new match starts with (default 14.1)")
    ap.add_argument("--keys", metavar="FILE", help="play a key file headless")
    ap.add_argument("--shots", metavar="DIR", help="write PNG screenshots (with --keys)")
    ap.add_argument("--state", action="store_true", help="print the final state contract JSON")
    ap.add_argument("--size", metavar="COLSxROWS",
                    help="draw for this terminal size (default: the terminal's, else 80x24)")
    ns = ap.parse_args(argv)
    try:
        size = term_size(ns.size)
    except ValueError as e:
        ap.error(str(e))
    sim = Sim(ns.display, ns.input, ns.lang, ns.game, ns.wall)
    if ns.keys:
        try:
            run_file(sim, ns.keys, ns.shots)
        except (OSError, ValueError) as e:
            print("sim: %s" % e, file=sys.stderr)
            return 2
        if ns.state:
            print(stjson.dumps(sim.state()))
        else:
            print("\n".join(fit(sim, *size)))
        return 0
    if sys.stdin.isatty() and sys.stdout.isatty():
        run_tty(sim, size=size if ns.size else None)
    else:
        run_lines(sim, sys.stdin, sys.stdout, size)
    if ns.state:
        print(stjson.dumps(sim.state()))
    return 0


if __name__ == "__main__":
    cli.run(main)
