# Host-only display checks: glyph art vs firmware bytes, distinct glyphs, PNGs, framebuf stand-in.
from host_tools import fakes  # noqa: I001  (first: sets sys.path for firmware/lib, hostlib)
from host_tools import glyph_art, shots
from host_tools.fakes import lcd as fl
from host_tools.fakes import max7219 as fm
from host_tools.fakes import oled as fo

import framebuf  # noqa: E402  (host_tools/hostlib/framebuf.py on CPython)
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from PIL import Image  # noqa: E402

from firmware import drivers  # noqa: E402
from firmware.drivers import lcd, oled  # noqa: E402
from firmware.drivers.digits import Digits  # noqa: E402
from firmware.drivers.lcd import Lcd  # noqa: E402
from firmware.drivers.oled import Oled  # noqa: E402
from firmware.drivers.oled_i2c import SSD1306W_I2C  # noqa: E402


def test_glyph_bytes_match_the_pixel_art():
    # one table of the Turkish letters (firmware/drivers/__init__.py) for both text drivers
    assert drivers.TR_CP == tuple(ord(c) for c in drivers.TR) and len(drivers.TR) == 12
    assert oled.OLED8 == b"".join(glyph_art.oled8(c) for c in drivers.TR)
    assert lcd.LCD5 == b"".join(glyph_art.lcd5(c) for c in drivers.TR[:10])
    assert set(drivers.TR[:10]) == set(glyph_art.LCD_TR)  # the ten HD44780 ROM A00 lacks
    assert drivers.BASE.decode() == shots.BASE and len(shots.BASE) == 12


def test_every_oled_glyph_is_distinct_from_the_font_and_each_other():
    table = fo.glyph_table()
    assert len(table) == 95 + 12  # no two characters share a bitmap
    assert "".join(shots.base(c) for c in "Şükrü Çağ İĞ€") == "Sukru Cag IG?"


def test_lcd_glyphs_are_distinct():
    rows = [lcd.LCD5[i * 8 : i * 8 + 8] for i in range(len(lcd.LCD5) // 8)]
    assert len(set(rows)) == len(rows)
    assert all(b < 32 for b in lcd.LCD5)


def test_hostlib_framebuf_font_is_micropythons():
    buf = bytearray(8)
    fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
    fb.text("A", 0, 0, 1)
    assert bytes(buf).hex() == "007c7e0b0b7e7c00"  # as MicroPython v1.27 draws it
    fb.fill(0)
    fb.text("\u00e7", 0, 0, 1)  # non-ASCII: UTF-8 bytes drawn as glyph 127, like MicroPython
    assert bytes(buf).hex() == "aa55aa55aa55aa55"


@given(st.binary(min_size=3 * 21, max_size=3 * 21), st.integers(-4, 24), st.integers(-4, 24),
       st.integers(0, 26), st.integers(0, 26), st.integers(0, 1))
def test_hostlib_framebuf_fill_rect_of_mono_vlsb_sets_the_pixels_one_by_one_would(
        old, x, y, w, h, c):
    # fill_rect writes a page's byte at a time: the same bits as pixel() on each point of the
    # rectangle clipped to the frame (a 20x20 view with stride 21, as a frame's window is)
    a = bytearray(old)
    b = bytearray(old)
    framebuf.FrameBuffer(a, 20, 20, framebuf.MONO_VLSB, 21).fill_rect(x, y, w, h, c)
    slow = framebuf.FrameBuffer(b, 20, 20, framebuf.MONO_VLSB, 21)
    for yy in range(y, y + h):
        for xx in range(x, x + w):
            slow.pixel(xx, yy, c)
    assert a == b  # (the stride's 21st column untouched too)


def test_hostlib_framebuf_shapes_blit_scroll():
    buf = bytearray(16 * 16 // 8)
    fb = framebuf.FrameBuffer(buf, 16, 16, framebuf.MONO_HLSB)
    fb.rect(0, 0, 16, 16, 1)
    assert fb.pixel(0, 0) == 1 and fb.pixel(15, 15) == 1 and fb.pixel(1, 1) == 0
    fb.fill(0)
    fb.line(0, 0, 15, 15, 1)
    assert all(fb.pixel(i, i) == 1 for i in range(16))
    src = framebuf.FrameBuffer(bytearray(b"\xff"), 8, 1, framebuf.MONO_HLSB)
    fb.fill(0)
    fb.blit(src, 4, 3)
    assert [fb.pixel(x, 3) for x in range(3, 13)] == [0] + [1] * 8 + [0]
    fb.scroll(0, 2)
    assert fb.pixel(4, 5) == 1
    assert fb.pixel(4, 99) is None


def test_oled_png(tmp_path):
    i2c = fakes.FakeI2C()
    oled = Oled(SSD1306W_I2C(128, 64, i2c))
    lines = ["Şükrü      57", "Çağrı       3", "", "", "", "Sıra: Şükrü", "Ön: 7 Geri al", ""]
    oled.show(lines, big=(2,), inverse=(7,))
    bm = fo.decode_ssd1306(i2c.records)
    p = shots.save_png(bm, tmp_path / "oled.png", scale=4)
    img = Image.open(p)
    assert img.size == (512, 256)
    assert "#" in fo.render_bitmap_ascii(bm)


def test_lcd_png(tmp_path):
    i2c = fakes.FakeI2C()
    lcd = Lcd(i2c, sleep_ms=lambda ms: None)
    lcd.show(["Şükrü  57  Çağrı  3", "Sıra: İlkay Öz"])
    lines = fl.decode_lcd(i2c.records)
    p = shots.save_lcd_png(lines, tmp_path / "lcd.png", scale=3)
    assert Image.open(p).size == ((20 * 9 + 1) * 3, (4 * 9 + 1) * 3)


def test_digits_png(tmp_path):
    spi = fakes.FakeSPI()
    d = Digits(spi, fakes.FakePin(1, spi))
    d.scores(57, -3)
    segs = fm.Max7219Decoder().feed(spi.records).segments()
    p = shots.save_digits_png(segs, tmp_path / "digits.png", scale=2)
    assert Image.open(p).size[0] > 600
