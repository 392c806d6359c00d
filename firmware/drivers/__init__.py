# Display drivers: OLED text screen, HD44780 LCD, MAX7219 digits, wall panels, and the Turkish
# letters the two text drivers draw.
# The 12 Turkish letters the ASCII font lacks, in one order for both: first the ten the
# HD44780's ROM A00 lacks (lcd.LCD5 has their CGRAM glyphs), then o- and u-umlaut (in that ROM;
# oled.OLED8 has a glyph for all 12). TR_CP: their code points, what both drivers compare
# while walking a text's UTF-8 (no one-letter strings); BASE: the ASCII letter standing in for
# each where none can be shown.
TR = "ıİşŞğĞçÇÖÜöü"
TR_CP = (0x131, 0x130, 0x15F, 0x15E, 0x11F, 0x11E, 0xE7, 0xC7, 0xD6, 0xDC, 0xF6, 0xFC)
BASE = b"iIsSgGcCOUou"
