# Pixel art of the Turkish glyphs in firmware/drivers/oled.py (OLED8) and lcd.py (LCD5); edit
# here, run to print the bytes.
"""Source of the glyph bitmaps: '#' = lit pixel. `python -m host_tools.glyph_art` prints the
bytes literals for those two; tests/test_display_host.py checks they agree.

OLED glyphs are 8x8 in MicroPython's font style (capitals on rows 0-6, small letters on rows
2-6, row 7 for descenders and cedillas); the accented capitals are a row shorter so the accent
fits. LCD glyphs are 5x8 HD44780 CGRAM patterns (o/u-umlaut come from ROM A00).
"""

TR = "ıİşŞğĞçÇÖÜöü"  # firmware/drivers/__init__.py's order
LCD_TR = "ıİşŞğĞçÇÖÜ"  # the first ten: the letters HD44780 ROM A00 lacks

OLED = {
    "ı": """
........
........
...##...
...##...
...##...
...##...
...##...
........""",
    "İ": """
...##...
........
..####..
...##...
...##...
...##...
..####..
........""",
    "ş": """
........
........
..####..
.##.....
..####..
.....##.
.#####..
...##...""",
    "Ş": """
..####..
.##.....
..####..
.....##.
.##..##.
..####..
...##...
..##....""",
    "ğ": """
.#....#.
..####..
........
..#####.
.##..##.
..#####.
.....##.
.#####..""",
    "Ğ": """
.#....#.
..####..
........
..####..
.##.....
.##.###.
.##..##.
..#####.""",
    "ç": """
........
........
..####..
.##..##.
.##.....
.##..##.
..####..
...##...""",
    "Ç": """
..####..
.##..##.
.##.....
.##.....
.##..##.
..####..
...##...
..##....""",
    "ö": """
........
.##..##.
........
..####..
.##..##.
.##..##.
..####..
........""",
    "Ö": """
.##..##.
........
..####..
.##..##.
.##..##.
.##..##.
..####..
........""",
    "ü": """
........
.##..##.
........
.##..##.
.##..##.
.##..##.
..####..
........""",
    "Ü": """
.##..##.
........
.##..##.
.##..##.
.##..##.
.##..##.
..####..
........""",
}
LCD = {
    "ı": """
.....
.....
.##..
..#..
..#..
..#..
.###.
.....""",
    "İ": """
..#..
.....
.###.
..#..
..#..
..#..
.###.
.....""",
    "ş": """
.....
.###.
#....
.###.
....#
####.
..#..
.##..""",
    "Ş": """
.####
#....
.###.
....#
####.
..#..
.##..
.....""",
    "ğ": """
#...#
.###.
.....
.####
#...#
.####
....#
.###.""",
    "Ğ": """
#...#
.###.
.....
.####
#....
#..##
#...#
.###.""",
    "ç": """
.....
.###.
#....
#....
#...#
.###.
..#..
.##..""",
    "Ç": """
.###.
#...#
#....
#...#
.###.
..#..
.##..
.....""",
    "Ö": """
.#.#.
.....
.###.
#...#
#...#
#...#
.###.
.....""",
    "Ü": """
.#.#.
.....
#...#
#...#
#...#
#...#
.###.
.....""",
}


def _rows(art, width):
    rows = art.strip().split("\n")
    assert len(rows) == 8 and all(len(r) == width for r in rows), art
    return rows


def oled8(ch):
    """8 bytes, columns left to right, bit 0 = top row (framebuf MONO_VLSB)."""
    r = _rows(OLED[ch], 8)
    return bytes(sum(1 << y for y in range(8) if r[y][x] == "#") for x in range(8))


def lcd5(ch):
    """8 bytes, rows top to bottom, bit 4 = left column (HD44780 CGRAM)."""
    return bytes(int(r.replace("#", "1").replace(".", "0"), 2) for r in _rows(LCD[ch], 5))


def _literal(b, ch):
    return '    b"' + "".join("\\x%02x" % x for x in b) + '"  # ' + ch


def main(argv=None):
    from host_tools import cli

    cli.parser("host_tools.glyph_art", "Print the bytes literals of the Turkish glyphs (OLED8 for "
               "firmware/drivers/oled.py, LCD5 for lcd.py) from their pixel art.").parse_args(argv)
    print("OLED8 = (")
    for ch in TR:
        print(_literal(oled8(ch), ch))
    print(")")
    print("LCD5 = (")
    for ch in LCD_TR:
        print(_literal(lcd5(ch), ch))
    print(")")


if __name__ == "__main__":
    from host_tools import cli

    cli.run(main)
