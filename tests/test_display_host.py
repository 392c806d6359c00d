# Host-only display checks: glyph art vs firmware bytes, distinct glyphs, PNGs, framebuf stand-in.
from host_tools import fakes  # noqa: I001  (first: sets sys.path for firmware/lib, hostlib)
from host_tools import glyph_art, shots
from host_tools.fakes import lcd as fl
from host_tools.fakes import max7219 as fm
from host_tools.fakes import oled as fo
from host_tools.fakes import oled_host

import framebuf  # noqa: E402  (host_tools/hostlib/framebuf.py on CPython)
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from PIL import Image  # noqa: E402

from firmware import drivers  # noqa: E402
from firmware.drivers import lcd, oled  # noqa: E402
from firmware.drivers.digits import Digits  # noqa: E402
from firmware.drivers.lcd import Lcd  # noqa: E402
from firmware.drivers.oled import Oled  # noqa: E402
from firmware.drivers.oled_i2c import SH1106_I2C, SSD1306W_I2C  # noqa: E402
from tests.test_display_oled import ENGLISH, SEQUENCE, TURKISH  # noqa: E402


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


def _blit_pixels(dst, src, x, y, key=-1, palette=None):
    # blit() as MicroPython defines it, through pixel() a point at a time
    for j in range(src.height):
        for i in range(src.width):
            if 0 <= x + i < dst.width and 0 <= y + j < dst.height:
                c = src.pixel(i, j)
                if palette is not None:
                    c = palette.pixel(c, 0)
                if c != key:
                    dst.pixel(x + i, y + j, c)


def _assert_blit_as_pixels(old, src, x, y, key, palette):
    # src blitted onto a 10x6 GS8 view (stride 11) of old leaves the bytes that pixel by pixel
    # leaves
    a = bytearray(old)
    b = bytearray(old)
    framebuf.FrameBuffer(a, 10, 6, framebuf.GS8, 11).blit(src, x, y, key, palette)
    _blit_pixels(framebuf.FrameBuffer(b, 10, 6, framebuf.GS8, 11), src, x, y, key, palette)
    assert a == b


@given(st.binary(min_size=6 * 11, max_size=6 * 11), st.integers(1, 7), st.integers(1, 12),
       st.lists(st.integers(0, 8), min_size=84, max_size=84), st.integers(-8, 12),
       st.integers(-13, 8), st.integers(-1, 8), st.booleans())
def test_hostlib_framebuf_blit_of_gs8_sets_the_pixels_one_by_one_would(
        old, w, h, pixels, x, y, key, pal):
    # a GS8 blit copies runs of bytes (rows, or a column): the same as pixel by pixel, with a
    # key and a palette too (a 10x6 view with stride 11)
    src = framebuf.FrameBuffer(bytearray(pixels), w, h, framebuf.GS8)
    palette = framebuf.FrameBuffer(bytearray(b"\x07\x03\x00\x09\x05\x01\x08\x02\x04"), 9, 1,
                                   framebuf.GS8) if pal else None
    _assert_blit_as_pixels(old, src, x, y, key, palette)


@given(st.binary(min_size=6 * 11, max_size=6 * 11), st.binary(min_size=8, max_size=8),
       st.sampled_from([(4, 8), (8, 5), (3, 3)]), st.integers(-8, 12), st.integers(-10, 8),
       st.integers(-1, 8), st.booleans())
def test_hostlib_framebuf_blit_of_mono_vlsb_onto_gs8_sets_the_pixels_one_by_one_would(
        old, glyph, size, x, y, key, pal):
    # a one-colour glyph in a palette's colour (or its 0s and 1s) onto GS8, keyed or not: the
    # same as pixel by pixel (a 10x6 view with stride 11)
    src = framebuf.FrameBuffer(bytearray(glyph), size[0], size[1], framebuf.MONO_VLSB)
    palette = framebuf.FrameBuffer(bytearray(b"\x00\x05"), 2, 1, framebuf.GS8) if pal else None
    _assert_blit_as_pixels(old, src, x, y, key, palette)


@given(st.binary(min_size=2 * 21, max_size=2 * 21), st.binary(min_size=32, max_size=32),
       st.sampled_from([(8, 8), (16, 16), (4, 8), (8, 5)]), st.integers(-18, 22),
       st.integers(-18, 18))
def test_hostlib_framebuf_blit_of_mono_vlsb_sets_the_pixels_one_by_one_would(
        old, glyph, size, x, y):
    # a MONO_VLSB blit of whole pages in their place copies page bytes: the same as pixel by
    # pixel (a 20x16 view with stride 21)
    src = framebuf.FrameBuffer(bytearray(glyph), size[0], size[1], framebuf.MONO_VLSB)
    a = bytearray(old)
    b = bytearray(old)
    framebuf.FrameBuffer(a, 20, 16, framebuf.MONO_VLSB, 21).blit(src, x, y)
    _blit_pixels(framebuf.FrameBuffer(b, 20, 16, framebuf.MONO_VLSB, 21), src, x, y)
    assert a == b


@given(st.binary(min_size=3 * 21, max_size=3 * 21), st.text("Ab9 _\u00e7~", max_size=4),
       st.integers(-12, 22), st.integers(-10, 24), st.integers(0, 1))
def test_hostlib_framebuf_text_of_mono_vlsb_sets_the_pixels_one_by_one_would(
        old, text, x, y, c):
    # text() sets or clears each glyph column's lit bits in its page bytes: the same as
    # pixel() on each lit point of the font (a 20x20 view with stride 21)
    a = bytearray(old)
    b = bytearray(old)
    framebuf.FrameBuffer(a, 20, 20, framebuf.MONO_VLSB, 21).text(text, x, y, c)
    slow = framebuf.FrameBuffer(b, 20, 20, framebuf.MONO_VLSB, 21)
    for k, ch in enumerate(text.encode("utf-8")):
        ch = ch if 32 <= ch <= 127 else 127
        for j in range(8):
            if x + 8 * k + j >= 20:
                break
            for i in range(8):
                if framebuf.FONT[(ch - 32) * 8 + j] >> i & 1:
                    slow.pixel(x + 8 * k + j, y + i, c)
    assert a == b


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


def _both(records, sh1106=False):
    # The decoders of host_tools.fakes.oled and oled_host fed the same records: their state.
    out = []
    for cls in (fo.Ssd1306Decoder, oled_host.Ssd1306Decoder):
        d = cls(sh1106=sh1106).feed(records)
        out.append((bytes(d.ram), d.col, d.page, d.data_bytes, d.commands, d.bitmap()))
    return out


def test_oled_host_decodes_and_reads_screens_as_oled_does():
    # oled_host (fakehw's, CPython) gives the RAM, bitmap and text of host_tools.fakes.oled for
    # screens of every kind (Turkish, double size, inverse rows, windows over windows) on both
    # controllers
    for sh in (False, True):
        i2c = fakes.FakeI2C()
        oled = Oled(SH1106_I2C(128, 64, i2c) if sh else SSD1306W_I2C(128, 64, i2c))
        screens = [(ENGLISH, (), ()), (TURKISH, (), (2,)), (TURKISH, (1, 4), ())] + SEQUENCE
        for lines, big, inverse in screens:
            oled.show(lines, big, inverse)
            slow, fast = _both(i2c.records, sh)
            assert slow == fast
            assert oled_host.read_text(fast[5]) == fo.read_text(slow[5])
            # pixels flipped in the odd column (both rows) or the odd row of a 2x2 block of a
            # double-size letter
            for flips in (((1, 8), (1, 9)), ((16, 9),), ((35, 32), (35, 33)), ((50, 33),)):
                bm = [bytearray(row) for row in fast[5]]
                for x, y in flips:
                    bm[y][x] ^= 1
                assert oled_host.read_text(bm) == fo.read_text(bm), flips


@given(st.lists(st.tuples(st.sampled_from([0x00, 0x40, 0x80, 0xC0]),
                          st.binary(min_size=0, max_size=140)), max_size=12),
       st.booleans())
def test_oled_host_decodes_any_bytes_as_oled_does(transactions, sh1106):
    # any I2C writes (commands and data, the addressing modes and windows they set): the same
    # RAM, cursor and counts, bitmap and text
    records = [(0x3C, bytes([ctrl]) + data) for ctrl, data in transactions]
    records.insert(0, (0x3C, b"\x00\xaf\xa1\xc8"))  # on, the usual orientation
    slow, fast = _both(records, sh1106)
    assert slow == fast
    assert oled_host.read_text(fast[5]) == fo.read_text(slow[5])
