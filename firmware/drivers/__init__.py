# Display drivers: OLED text screen, HD44780 LCD, MAX7219 digits, SH1106 (with Turkish glyphs).
