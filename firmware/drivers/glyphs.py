# Turkish letters as bitmaps: 8x8 for the OLED (framebuf font layout), 5x8 for HD44780 CGRAM.
# Drawn from the pixel art in host_tools/glyph_art.py (tests check the two agree).

# The 12 Turkish letters the ASCII fonts lack, and the ASCII letter that stands in for each.
TR = "ıİşŞğĞçÇöÖüÜ"
BASE = "iIsSgGcCoOuU"

# OLED: 8 bytes per letter of TR, columns left to right, bit 0 = top row
# (framebuf MONO_VLSB, the layout of MicroPython's own 8x8 font).
OLED8 = (
    b"\x00\x00\x00\x7c\x7c\x00\x00\x00"  # ı
    b"\x00\x00\x44\x7d\x7d\x44\x00\x00"  # İ
    b"\x00\x48\x5c\xd4\xd4\x74\x20\x00"  # ş
    b"\x00\x12\xb7\xe5\x65\x3d\x18\x00"  # Ş
    b"\x00\x91\xba\xaa\xaa\xfa\x79\x00"  # ğ
    b"\x00\x71\xfa\x8a\xaa\xea\xe1\x00"  # Ğ
    b"\x00\x38\x7c\xc4\xc4\x6c\x28\x00"  # ç
    b"\x00\x1e\xbf\xe1\x61\x33\x12\x00"  # Ç
    b"\x00\x32\x7a\x48\x48\x7a\x32\x00"  # ö
    b"\x00\x39\x7d\x44\x44\x7d\x39\x00"  # Ö
    b"\x00\x3a\x7a\x40\x40\x7a\x3a\x00"  # ü
    b"\x00\x3d\x7d\x40\x40\x7d\x3d\x00"  # Ü
)

# HD44780: letters that need CGRAM (ROM A00 has o-umlaut 0xEF and u-umlaut 0xF5 but no capitals).
LCD_TR = "ıİşŞğĞçÇÖÜ"
# 8 bytes per letter of LCD_TR: rows top to bottom, bit 4 = left column (CGRAM layout).
LCD5 = (
    b"\x00\x00\x0c\x04\x04\x04\x0e\x00"  # ı
    b"\x04\x00\x0e\x04\x04\x04\x0e\x00"  # İ
    b"\x00\x0e\x10\x0e\x01\x1e\x04\x0c"  # ş
    b"\x0f\x10\x0e\x01\x1e\x04\x0c\x00"  # Ş
    b"\x11\x0e\x00\x0f\x11\x0f\x01\x0e"  # ğ
    b"\x11\x0e\x00\x0f\x10\x13\x11\x0e"  # Ğ
    b"\x00\x0e\x10\x10\x11\x0e\x04\x0c"  # ç
    b"\x0e\x11\x10\x11\x0e\x04\x0c\x00"  # Ç
    b"\x0a\x00\x0e\x11\x11\x11\x0e\x00"  # Ö
    b"\x0a\x00\x11\x11\x11\x11\x0e\x00"  # Ü
)
# Character codes in HD44780 ROM A00 for letters it has beyond ASCII.
LCD_ROM = (("ö", 0xEF), ("ü", 0xF5))


def base(ch):
    # ASCII stand-in for a Turkish letter; other ASCII as is; "?" for any other character.
    i = TR.find(ch)
    if i >= 0:
        return BASE[i]
    if " " <= ch <= "~":
        return ch
    return "?"


def fold(s):
    # The text with every Turkish letter replaced by its ASCII stand-in (for displays without them).
    return "".join([base(c) for c in s])
