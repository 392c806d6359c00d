# mp: yes
# OLED screens through the real ssd1306 driver (and SH1106 subclass) on a fake I2C bus, read back.
# host_tools.fakes first: it puts firmware/lib (and on CPython the framebuf stand-in) on sys.path.
from host_tools import fakes  # noqa: I001
from host_tools.fakes import oled as fo

import ssd1306  # noqa: E402  (vendored micropython-lib driver, firmware/lib)

from firmware.drivers.oled import Oled  # noqa: E402
from firmware.drivers.sh1106 import SH1106_I2C  # noqa: E402

ENGLISH = [
    "Ann      57/100",
    "Bob      -3/100",
    "Inning 12 Run 4",
    "High run 23",
    "Ann: foul 2!",
    "",
    "",
    "1 ok  7 undo",
]
TURKISH = [
    "Şükrü Çağ  57",
    "İlkay Öz   -3",
    "Sıra: Ayşe",
    "Iğdır ÖĞÜŞÇ",
    "ıİşŞğĞçÇöÖüÜ",
    "",
    "",
    "Geri al: 7",
]


def make(sh=False):
    i2c = fakes.FakeI2C()
    disp = SH1106_I2C(128, 64, i2c) if sh else ssd1306.SSD1306_I2C(128, 64, i2c)
    return i2c, disp, Oled(disp)


def screen(i2c, sh=False):
    return fo.read_text(fo.decode_ssd1306(i2c.records, sh1106=sh))


def _drain(steps):
    for _ in steps:
        pass


# Each test is a steps_ generator: under MicroPython every yield lets the VM collect garbage,
# and decoding a screen (a 64x128 bitmap, then 128 cells read) makes about 22 KB of it.


def steps_english_screen_reads_back():
    i2c, disp, oled = make()
    assert oled.cols == 16 and oled.rows == 8
    assert oled.show(ENGLISH) == 8
    yield
    assert screen(i2c) == ENGLISH


def test_english_screen_reads_back():
    _drain(steps_english_screen_reads_back())


def steps_turkish_letters_read_back():
    i2c, disp, oled = make()
    oled.show(TURKISH)
    yield
    assert screen(i2c) == TURKISH


def test_turkish_letters_read_back():
    _drain(steps_turkish_letters_read_back())


def steps_decoded_bitmap_is_the_frame_buffer():
    i2c, disp, oled = make()
    oled.show(TURKISH)
    yield
    bm = fo.decode_ssd1306(i2c.records)
    assert len(bm) == 64 and len(bm[0]) == 128
    for y in range(64):
        row = bm[y]
        for x in range(128):
            assert row[x] == disp.pixel(x, y), (x, y)


def test_decoded_bitmap_is_the_frame_buffer():
    _drain(steps_decoded_bitmap_is_the_frame_buffer())


def test_identical_screen_sends_nothing():
    i2c, disp, oled = make()
    oled.show(ENGLISH)
    m = i2c.mark()
    assert oled.show(list(ENGLISH)) == 0
    assert i2c.nbytes(m) == 0


def steps_changed_line_sends_only_its_page():
    i2c, disp, oled = make()
    oled.show(ENGLISH)
    m = i2c.mark()
    disp.show()
    full = i2c.nbytes(m)
    yield
    lines = list(ENGLISH)
    lines[1] = "Bob      -2/100"
    m = i2c.mark()
    assert oled.show(lines) == 1
    sent = i2c.nbytes(m)
    assert sent < full // 4, (sent, full)
    yield
    assert screen(i2c) == lines


def test_changed_line_sends_only_its_page():
    _drain(steps_changed_line_sends_only_its_page())


def steps_two_separate_changes_send_two_windows():
    i2c, disp, oled = make()
    oled.show(ENGLISH)
    yield
    lines = list(ENGLISH)
    lines[0] = "Ann      58/100"
    lines[7] = "2 miss"
    m = i2c.mark()
    assert oled.show(lines) == 2
    assert i2c.nbytes(m) < 2 * (129 + 12) + 1
    yield
    assert screen(i2c) == lines


def test_two_separate_changes_send_two_windows():
    _drain(steps_two_separate_changes_send_two_windows())


def steps_big_rows_read_back():
    i2c, disp, oled = make()
    lines = ["Ann", "57", "", "Bob", "-3", "", "Şut: Ann", ""]
    oled.show(lines, big=(1, 4))
    yield
    got = screen(i2c)
    assert got == ["Ann", "57", "", "Bob", "-3", "", "Şut: Ann", ""], got
    yield
    assert fo.read_text(fo.decode_ssd1306(i2c.records), big=(1, 4))[1] == "57"
    yield
    # only the big row changes: two pages go out
    lines[1] = "58"
    m = i2c.mark()
    assert oled.show(lines, big=(1, 4)) == 2
    assert i2c.nbytes(m) < 2 * 128 + 20
    yield
    assert screen(i2c)[1] == "58"


def test_big_rows_read_back():
    _drain(steps_big_rows_read_back())


def steps_big_turkish_letters():
    i2c, disp, oled = make()
    oled.show(["", "ÇĞİÖŞÜ"], big=(1,))
    yield
    assert screen(i2c)[1] == "ÇĞİÖŞÜ"


def test_big_turkish_letters():
    _drain(steps_big_turkish_letters())


def steps_inverse_row_reads_back():
    i2c, disp, oled = make()
    lines = ["Ann  57", "Bob  -3 şğ"]
    oled.show(lines, inverse=(1,))
    yield
    bm = fo.decode_ssd1306(i2c.records)
    assert bm[8][127] == 1  # the row's background is lit
    del bm
    yield
    assert screen(i2c)[:2] == lines


def test_inverse_row_reads_back():
    _drain(steps_inverse_row_reads_back())


def steps_long_lines_are_cut_and_unknown_letters_shown_as_question_mark():
    i2c, disp, oled = make()
    oled.show(["0123456789abcdefXYZ", "café ~"])
    yield
    got = screen(i2c)
    assert got[0] == "0123456789abcdef"
    assert got[1] == "caf? ~"


def test_long_lines_are_cut_and_unknown_letters_shown_as_question_mark():
    _drain(steps_long_lines_are_cut_and_unknown_letters_shown_as_question_mark())


def test_invalidate_redraws_everything():
    i2c, disp, oled = make()
    oled.show(ENGLISH)
    oled.invalidate()
    assert oled.show(ENGLISH) == 8


def _lit(records):
    # Any pixel lit on the panel. (A function, so that under MicroPython no stale reference in
    # a generator's frame keeps the 10 KB bitmap alive.)
    return any([any(r) for r in fo.decode_ssd1306(records)])


def steps_poweroff_is_dark():
    i2c, disp, oled = make()
    oled.show(ENGLISH)
    disp.poweroff()
    yield
    assert not _lit(i2c.records)
    yield
    disp.poweron()
    assert screen(i2c) == ENGLISH


def test_poweroff_is_dark():
    _drain(steps_poweroff_is_dark())


def steps_sh1106_subclass_pages_with_column_offset():
    i2c, disp, oled = make(sh=True)
    oled.show(TURKISH)
    yield
    assert screen(i2c, sh=True) == TURKISH
    yield
    d = fo.Ssd1306Decoder(sh1106=True).feed(i2c.records)
    assert d.ram[0] == 0 and d.ram[1] == 0  # columns 0 and 1 are off-panel
    del d
    yield
    lines = list(TURKISH)
    lines[2] = "Sıra: Şükrü"
    m = i2c.mark()
    assert oled.show(lines) == 1
    assert i2c.nbytes(m) == 3 * 2 + 129  # page, column low, column high + one page of data
    yield
    assert screen(i2c, sh=True) == lines


def test_sh1106_subclass_pages_with_column_offset():
    _drain(steps_sh1106_subclass_pages_with_column_offset())


def test_fake_i2c_scan_and_missing_device():
    i2c = fakes.FakeI2C(devices=(0x3C,))
    assert i2c.scan() == [0x3C]
    try:
        i2c.writeto(0x3D, b"\x00")
    except OSError:
        return
    raise AssertionError("no OSError for a missing device")
