# PNG screenshots of decoded displays (CPython, Pillow): OLED bitmaps, LCD grids, MAX7219 digits.
"""Turn what the decoders in host_tools.fakes.* recovered into pictures:

save_png(bitmap, path, scale=4)             OLED bitmap (rows of 0/1), white/blue on black
save_lcd_png(lines, path, scale=4)          LCD grid, drawn with the OLED 8x8 font and the
                                            Turkish glyphs, light text on a blue panel
save_digits_png(segments, path, scale=1)    MAX7219: 8 segment bytes (Max7219Decoder.segments())
save_wall_png(rows, path, scale=12)         a wall panel: rows of 0xRRGGBB (NeoPixel) or 0/1
                                            (MAX7219 matrix, drawn red), one round LED a pixel
text_bitmap(lines, cols)                    the 8x8-font bitmap save_lcd_png draws
"""

from __future__ import annotations  # noqa: I001 (the fakes first: they put the host framebuf on the path)

from PIL import Image, ImageDraw

from host_tools.fakes import oled as oled_fake
from firmware.drivers import TR

OLED_ON = (120, 200, 255)
OLED_OFF = (0, 0, 0)
LCD_ON = (235, 245, 255)
LCD_OFF = (30, 60, 200)
LCD_CELL = (40, 75, 215)
SEG_ON = (255, 40, 30)
SEG_OFF = (45, 10, 10)


BASE = "iIsSgGcCOUou"  # the ASCII letter standing in for each Turkish letter of TR


def base(ch):
    # ASCII stand-in for a Turkish letter; other ASCII as is; "?" for any other character.
    i = TR.find(ch)
    if i >= 0:
        return BASE[i]
    if " " <= ch <= "~":
        return ch
    return "?"


def bitmap_image(bitmap, scale=4, on=OLED_ON, off=OLED_OFF, gap=False):
    h = len(bitmap)
    w = len(bitmap[0]) if h else 0
    img = Image.new("RGB", (w * scale, h * scale), off)
    d = ImageDraw.Draw(img)
    ins = 1 if gap and scale >= 3 else 0
    for y, row in enumerate(bitmap):
        for x, p in enumerate(row):
            if p:
                d.rectangle(
                    (x * scale, y * scale, (x + 1) * scale - 1 - ins, (y + 1) * scale - 1 - ins),
                    fill=on,
                )
    return img


def save_png(bitmap, path, scale=4, on=OLED_ON, off=OLED_OFF):
    bitmap_image(bitmap, scale, on, off).save(path)
    return path


def _char_columns():
    table = oled_fake.glyph_table()
    return {ch: cols for cols, ch in table.items()}


def text_bitmap(lines, cols=None, pitch=9):
    """Bitmap of text lines in 8x8 cells on a `pitch`-pixel grid (a 1-pixel gap like LCD cells)."""
    cols = cols or max([len(s) for s in lines] + [1])
    chars = _char_columns()
    w = cols * pitch + 1
    h = len(lines) * pitch + 1
    bm = [bytearray(w) for _ in range(h)]
    for r, text in enumerate(lines):
        for c in range(cols):
            ch = text[c] if c < len(text) else " "
            glyph = chars.get(ch) or chars.get(base(ch)) or chars["?"]
            for gx in range(8):
                col = glyph[gx]
                for gy in range(8):
                    if col >> gy & 1:
                        bm[1 + r * pitch + gy][1 + c * pitch + gx] = 1
    return bm


def save_lcd_png(lines, path, scale=4, cols=None):
    cols = cols or max([len(s) for s in lines] + [1])
    pitch = 9
    bm = text_bitmap(lines, cols, pitch)
    img = bitmap_image(bm, scale, LCD_ON, LCD_OFF)
    d = ImageDraw.Draw(img)
    # faint cell backgrounds, as on a real character LCD
    for r in range(len(lines)):
        for c in range(cols):
            x0 = (1 + c * pitch) * scale
            y0 = (1 + r * pitch) * scale
            for gy in range(8):
                for gx in range(8):
                    if not bm[1 + r * pitch + gy][1 + c * pitch + gx]:
                        px = x0 + gx * scale
                        py = y0 + gy * scale
                        d.rectangle((px, py, px + scale - 2, py + scale - 2), fill=LCD_CELL)
    img.save(path)
    return path


# segment polygons in a 40x70 digit cell (a..g, then the point)
_SEG_BOXES = {
    "a": (8, 2, 32, 8),
    "b": (32, 8, 38, 33),
    "c": (32, 37, 38, 62),
    "d": (8, 62, 32, 68),
    "e": (2, 37, 8, 62),
    "f": (2, 8, 8, 33),
    "g": (8, 32, 32, 38),
}


def digits_image(segments, scale=1):
    n = len(segments)
    cw = 48
    img = Image.new("RGB", (n * cw + 8, 76), (0, 0, 0))
    d = ImageDraw.Draw(img)
    for i, seg in enumerate(segments):
        ox = 6 + i * cw
        for k, name in enumerate("abcdefg"):
            lit = seg & (0x40 >> k)
            x0, y0, x1, y1 = _SEG_BOXES[name]
            d.rectangle((ox + x0, 3 + y0, ox + x1, 3 + y1), fill=SEG_ON if lit else SEG_OFF)
        d.ellipse((ox + 40, 65, ox + 46, 71), fill=SEG_ON if seg & 0x80 else SEG_OFF)
    if scale != 1:
        img = img.resize((img.width * scale, img.height * scale), Image.Resampling.NEAREST)
    return img


def save_digits_png(segments, path, scale=1):
    digits_image(bytes(segments), scale).save(path)
    return path


WALL_OFF = (28, 28, 28)
MATRIX_ON = (255, 40, 30)


def wall_image(rows, scale=12):
    h = len(rows)
    w = len(rows[0]) if h else 0
    img = Image.new("RGB", (w * scale + scale // 2, h * scale + scale // 2), (0, 0, 0))
    d = ImageDraw.Draw(img)
    pad = max(1, scale // 6)
    mono = isinstance(rows[0], (bytes, bytearray))
    for y, row in enumerate(rows):
        for x, p in enumerate(row):
            if mono:
                c = MATRIX_ON if p else WALL_OFF
            elif p:
                # a LED's light as the eye sees it: the dim levels brightened
                c = tuple([min(255, (p >> k & 255) * 3) for k in (16, 8, 0)])
            else:
                c = WALL_OFF
            x0 = x * scale + scale // 4 + pad
            y0 = y * scale + scale // 4 + pad
            d.ellipse((x0, y0, x0 + scale - 2 * pad, y0 + scale - 2 * pad), fill=c)
    return img


def save_wall_png(rows, path, scale=12):
    wall_image(rows, scale).save(path)
    return path
