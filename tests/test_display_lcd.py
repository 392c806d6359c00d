# mp: yes
# HD44780 LCD screens through firmware.drivers.lcd on a fake I2C bus (PCF8574), read back.
from firmware.drivers.lcd import Lcd
from host_tools import fakes
from host_tools.fakes import lcd as fl


def nosleep(ms):
    pass


def make(cols=20, rows=4):
    i2c = fakes.FakeI2C()
    return i2c, Lcd(i2c, cols=cols, rows=rows, sleep_ms=nosleep)


def grid(i2c, cols=20, rows=4):
    return [s.rstrip() for s in fl.decode_lcd(i2c.records, cols, rows)]


ENGLISH = ["Ann   57/100  run 4", "Bob   -3/100", "> Ann  inning 12", "1 made 2 miss 7 undo"]
TURKISH = ["Şükrü  57  Çağrı  3", "Sıra: İlkay Öz", "Faul: 2 (uyarı!)", "Topu yerleştir: Ğ"]


def test_init_puts_the_lcd_in_4bit_two_line_mode():
    i2c, lcd = make()
    d = fl.LcdDecoder().feed(i2c.records)
    assert d.four_bit and d.two_lines and d.display_on and d.backlight
    assert not d.cursor and not d.blink
    assert grid(i2c) == ["", "", "", ""]


def test_english_20x4():
    i2c, lcd = make()
    lcd.show(ENGLISH)
    assert grid(i2c) == ENGLISH


def test_16x2_and_long_lines_are_cut():
    i2c, lcd = make(16, 2)
    lcd.show(["Ann 57 Bob 3 and more", "9-ball race 5"])
    assert grid(i2c, 16, 2) == ["Ann 57 Bob 3 and", "9-ball race 5"]


def test_turkish_letters_via_cgram_and_rom():
    i2c, lcd = make()
    lcd.show(TURKISH)
    assert grid(i2c) == TURKISH
    d = fl.LcdDecoder().feed(i2c.records)
    codes = d.codes()
    assert codes[0][1] == 0xF5  # ü from ROM A00
    assert codes[0][0] < 8  # Ş from CGRAM


def test_all_turkish_letters_and_fallback_past_eight():
    i2c, lcd = make()
    # ı İ ş Ş ğ Ğ ç Ç need 8 slots; Ö and Ü come 9th and 10th: shown as O and U
    lcd.show(["ıİşŞğĞçÇÖÜ öü"])
    assert grid(i2c)[0] == "ıİşŞğĞçÇOU öü"
    lcd.show(["ÖÜ ıİ"])
    assert grid(i2c)[0] == "ÖÜ ıİ"


def test_identical_screen_sends_nothing():
    i2c, lcd = make()
    lcd.show(TURKISH)
    m = i2c.mark()
    assert lcd.show(list(TURKISH)) == 0
    assert i2c.nbytes(m) == 0


def test_one_changed_cell_sends_one_address_and_one_character():
    i2c, lcd = make()
    lcd.show(ENGLISH)
    lines = list(ENGLISH)
    lines[0] = "Ann   58/100  run 4"
    m = i2c.mark()
    assert lcd.show(lines) == 1
    assert i2c.nbytes(m) == 8  # 2 bytes x 2 nibbles for the address, the same for the character
    assert grid(i2c) == lines


def test_cgram_slot_is_reused_for_a_new_letter():
    i2c, lcd = make()
    lcd.show(["Şut", "Ayşe"])
    lcd.show(["Ağa", "Ayşe"])
    assert grid(i2c)[:2] == ["Ağa", "Ayşe"]
    lcd.show(["Çağ", "Ayşe Ç"])
    assert grid(i2c)[:2] == ["Çağ", "Ayşe Ç"]


def test_invalidate_and_clear_by_other_code_redraws():
    i2c, lcd = make()
    lcd.show(ENGLISH)
    lcd.invalidate()
    assert lcd.show(ENGLISH) == 80  # every cell, blanks too
    assert grid(i2c) == ENGLISH


def test_backlight_bit():
    i2c, lcd = make()
    lcd.backlight(False)
    assert not fl.LcdDecoder().feed(i2c.records).backlight
    lcd.backlight(True)
    assert fl.LcdDecoder().feed(i2c.records).backlight


def test_other_backslash_tilde_and_unknown_letters():
    i2c, lcd = make(16, 2)
    lcd.show(["a\\b~c", "café"])
    assert grid(i2c, 16, 2) == ["a/b-c", "caf?"]
