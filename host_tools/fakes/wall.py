# Read a wall panel's pixels as a player across the hall would (CPython and MicroPython).
# read(rows) -> {"a", "b": the scores as text; "ca", "cb": their colour; "ma", "mb": the marker
# columns ("full", "dashed" or None); "ka", "kb": their colour; "wa", "wb": two-foul marks shown;
# "goal": the race/target text in the middle (wide panels) or A's (stacked), "goal_b": B's
# (stacked); "clock", "cclock": the shot clock's big seconds between the scores and their colour
# (its small ones read as "goal")}. rows: lists of 0xRRGGBB ints (NeoPixel) or bytearrays of
# 0/1 (matrix). art(rows) -> one
# character a pixel: "." off, "#" lit (mono), else the colour's initial (W G R B A Y).
# The fonts are written out here as pictures, apart from the driver's bytes.
BIG = {
    "0": ".##. #..# #..# #..# #..# #..# #..# .##.",
    "1": "..#. .##. #.#. ..#. ..#. ..#. ..#. .###",
    "2": ".##. #..# ...# ..#. .#.. #... #... ####",
    "3": ".##. #..# ...# .##. ...# ...# #..# .##.",
    "4": "#..# #..# #..# #### ...# ...# ...# ...#",
    "5": "#### #... #... ###. ...# ...# #..# .##.",
    "6": ".##. #... #... ###. #..# #..# #..# .##.",
    "7": "#### ...# ...# ..#. ..#. .#.. .#.. .#..",
    "8": ".##. #..# #..# .##. #..# #..# #..# .##.",
    "9": ".##. #..# #..# #..# .### ...# ...# .##.",
    "-": ".... .... .... ###. ###. .... .... ....",
}
SMALL = {  # font rows 3-7 of the band
    "0": "### #.# #.# #.# ###",
    "1": ".#. ##. .#. .#. ###",
    "2": "### ..# ### #.. ###",
    "3": "### ..# .## ..# ###",
    "4": "#.# #.# ### ..# ..#",
    "5": "### #.. ### ..# ###",
    "6": "### #.. ### #.# ###",
    "7": "### ..# .#. .#. .#.",
    "8": "### #.# ### #.# ###",
    "9": "### #.# ### ..# ###",
}


def colour(p, mono=False):
    # A colour name for a pixel value: 0xRRGGBB, or 0/1 on a mono panel ("" off).
    if mono:
        return "on" if p else ""
    r = p >> 16 & 255
    g = p >> 8 & 255
    b = p & 255
    if not (r or g or b):
        return ""
    hi = max(r, g, b)
    if min(r, g, b) * 10 >= hi * 8:
        return "white"
    if b == hi:
        return "blue"
    if g == hi and r * 2 < g:
        return "green"
    q = g * 100 // r
    if q < 20:
        return "red"
    return "amber" if q < 60 else "gold"


_INITIAL = {"": ".", "on": "#", "white": "W", "green": "G", "red": "R", "blue": "B",
            "amber": "A", "gold": "Y"}


def mono(rows):
    # rows of a mono panel are bytes (MatrixDecoder.bitmap), a colour panel's lists of ints
    return isinstance(rows[0], (bytes, bytearray))


def art(rows):
    m = mono(rows)
    return ["".join([_INITIAL[colour(p, m)] for p in row]) for row in rows]


def _cols(pic):
    # picture "row row ..." -> column bitmasks (bit 0 the first row)
    lines = pic.split(" ")
    out = []
    for x in range(len(lines[0])):
        v = 0
        for y in range(len(lines)):
            if lines[y][x] == "#":
                v |= 1 << y
        out.append(v)
    return out


_FONTS = []


def _fonts():
    if not _FONTS:
        _FONTS.append([(k, _cols(v)) for k, v in sorted(BIG.items())])
        _FONTS.append([(k, [c << 3 for c in _cols(v)]) for k, v in sorted(SMALL.items())])
    return _FONTS


def _majority(names):
    best = ""
    n = 0
    for c in names:
        k = names.count(c)
        if c and k > n:
            best = c
            n = k
    return best


def _band(rows, y0, sy, x0, x1, m):
    # Font-row bitmasks of columns x0..x1-1 of the band at y0 (one sample per font row), and the
    # colour names of each column's lit pixels.
    masks = []
    names = []
    for x in range(x0, x1):
        v = 0
        cs = []
        for r in range(8):
            c = colour(rows[y0 + r * sy][x], m)
            if c:
                v |= 1 << r
                cs.append(c)
        masks.append(v)
        names.append(cs)
    return masks, names


def _marker(masks, names):
    v = masks[0]
    if not v:
        return None, ""
    kind = "full" if v == 0xFF else ("dashed" if v == 0x55 else "other")
    return kind, _majority(names[0])


def _scan(masks, names, x0):
    # [(x, text, colour, kind)] of what stands in the columns: kind "big", "small", "mark".
    big, small = _fonts()
    out = []
    x = 0
    n = len(masks)
    while x < n:
        if not masks[x]:
            x += 1
            continue
        hit = None
        for kind, font, gw in (("big", big, 4), ("small", small, 3)):
            for ch, cols in font:
                if x + gw <= n and masks[x:x + gw] == cols:
                    hit = (kind, ch, gw)
                    break
            if hit:
                break
        if hit is None and x + 1 < n and masks[x] == masks[x + 1] == 0x18 and (
                x + 2 == n or not masks[x + 2]):
            hit = ("big", "-", 2)  # the narrow minus of a score below -99
        if hit is None and x + 1 < n and masks[x] == masks[x + 1] == 0x20:
            hit = ("small", "-", 2)  # the dash of a handicap race
        if hit is None:
            out.append((x0 + x, "", _majority(names[x]), "mark" if masks[x] == 0x66 else "?"))
            x += 1
            continue
        cs = []
        for k in range(hit[2]):
            cs += names[x + k]
        out.append((x0 + x, hit[1], _majority(cs), hit[0]))
        x += hit[2]
    return out


def read(rows):
    m = mono(rows)
    h = len(rows)
    w = len(rows[0])
    out = {"a": "", "b": "", "ca": "", "cb": "", "ma": None, "mb": None, "ka": "", "kb": "",
           "wa": False, "wb": False, "goal": "", "goal_b": "", "other": 0, "clock": "",
           "cclock": ""}
    if w >= 32 and h >= 8:
        sy = h // 8
        masks, names = _band(rows, 0, sy, 0, w, m)
        out["ma"], out["ka"] = _marker(masks, names)
        out["mb"], out["kb"] = _marker(masks[w - 1:], names[w - 1:])
        found = _scan(masks[1:w - 1], names[1:w - 1], 1)
        # the scores: the big glyphs either side of the widest space between two of them (as a
        # reader parts "-104  99"), else either side of the middle
        xs = [x for x, t, c, k in found if k == "big"]
        cut = w // 2
        best = 0
        for i in range(len(xs) - 1):
            if xs[i + 1] - xs[i] > best:
                best = xs[i + 1] - xs[i]
                cut = xs[i + 1]
        items = [("a" if (x < cut if k == "big" else x < w // 2) else "b", t, c, k)
                 for x, t, c, k in found]
        # three runs of big glyphs (a run: glyphs a column apart): the middle one is the clock
        runs = [[xs[0]]] if xs else []
        for i in range(1, len(xs)):
            if xs[i] - xs[i - 1] > 5:
                runs.append([])
            runs[-1].append(xs[i])
        if len(runs) >= 3:
            mid = runs[1:-1]
            x0, x1 = mid[0][0], mid[-1][-1]
            cut0 = runs[0][-1]
            items = [("clock" if k == "big" and x0 <= x <= x1 else
                      ("a" if x <= cut0 else "b") if k == "big" else s, t, c, k)
                     for (s, t, c, k), (x, _, _, _) in zip(items, found)]
    else:
        sy = h // 16
        items = []
        for p, key in ((0, "a"), (1, "b")):
            masks, names = _band(rows, p * 8 * sy, sy, 0, w, m)
            out["m" + key], out["k" + key] = _marker(masks, names)
            items += [(key, t, c, k) for x, t, c, k in _scan(masks[1:], names[1:], 1)]
    for side, t, c, k in items:
        if k == "big":
            out[side] += t
            out["c" + side] = out["c" + side] or c
        elif side == "clock":
            out["other"] += 1
        elif k == "small":
            g = "goal" if side == "a" or w >= 32 else "goal_b"
            out[g] += t
        elif k == "mark":
            out["w" + side] = True
        else:
            out["other"] += 1
    return out


def summary(r):
    # One line for a reading: "A 57 > | 3 B" style: scores, who shoots, marks, the goal.
    def side(k):
        t = r[k] or "?"
        if r["c" + k] not in ("", "on", "white"):
            t += "(" + r["c" + k] + ")"
        m = r["m" + k]
        if m:
            t += " [" + m + ("" if r["k" + k] in ("", "on") else " " + r["k" + k]) + "]"
        if r["w" + k]:
            t += " !!"
        return t

    g = r["goal"] + ("/" + r["goal_b"] if r["goal_b"] else "")
    return "A %s | %s | B %s" % (side("a"), g or "-", side("b"))
