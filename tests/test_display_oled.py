# mp: yes
# OLED screens through the real ssd1306 driver (and SH1106 subclass) on a fake I2C bus, read back.
# host_tools.fakes first: it puts firmware/lib (and on CPython the framebuf stand-in) on sys.path.
from host_tools import fakes  # noqa: I001
from host_tools.fakes import oled as fo


from firmware.drivers.oled import Oled  # noqa: E402
from firmware.drivers.oled_i2c import SH1106_I2C, SSD1306W_I2C  # noqa: E402

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
    disp = SH1106_I2C(128, 64, i2c) if sh else SSD1306W_I2C(128, 64, i2c)
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


def steps_a_changed_character_sends_only_its_columns():
    i2c, disp, oled = make()
    oled.show(ENGLISH)
    yield
    lines = list(ENGLISH)
    lines[1] = "Bob      -2/100"  # one character, column 10
    m = i2c.mark()
    assert oled.show(lines) == 1
    # the window (control byte 0, columns 80-87, page 1) in one transaction, then 8 bytes
    assert i2c.records[m:] == [(0x3C, bytes([0, 0x21, 80, 87, 0x22, 1, 1])),
                               (0x3C, b"\x40" + bytes(disp.buffer[128 + 80:128 + 88]))]
    yield
    assert screen(i2c) == lines
    yield
    # rows 2 and 3 changed in the same columns: one window over both pages
    lines[2] = "Inning 12 Xun 4"
    lines[3] = "High run 25"
    m = i2c.mark()
    assert oled.show(lines) == 2
    # (the window's command, then both pages' 8 columns in one transaction)
    assert [r[1][:7] for r in i2c.since(m)] == [bytes([0, 0x21, 80, 87, 0x22, 2, 3]),
                                                b"\x40" + bytes(disp.buffer[256 + 80:256 + 86])]
    assert len(i2c.since(m)[1][1]) == 1 + 2 * 8
    yield
    assert screen(i2c) == lines


def steps_changes_apart_in_a_row_go_in_two_windows():
    # The shooter's mark moves from the left end of the names row to the right end.
    i2c, disp, oled = make()
    oled.show([">Ann         Bob"])
    yield
    m = i2c.mark()
    assert oled.show([" Ann         Bob<"[:15] + "<"]) == 1
    sent = i2c.since(m)
    assert [r[1][:7] for r in sent[0::2]] == [bytes([0, 0x21, 0, 7, 0x22, 0, 0]),
                                              bytes([0, 0x21, 120, 127, 0x22, 0, 0])]
    assert [len(r[1]) for r in sent[1::2]] == [9, 9]
    yield
    assert screen(i2c)[0] == " Ann         Bo<"


def test_changes_apart_in_a_row_go_in_two_windows():
    _drain(steps_changes_apart_in_a_row_go_in_two_windows())


def test_a_changed_character_sends_only_its_columns():
    _drain(steps_a_changed_character_sends_only_its_columns())


# Screens one after another: each shown over the one before (what changed sent, in windows),
# the panel must then hold exactly what a fresh display drawing it whole holds.
SEQUENCE = [
    (["  0  0  ", "", " Ann         Bob", "Balls 15    /100", "Run       0    0", "A=Made B=Miss"],
     (0,), ()),
    (["  0  1  ", "", " Ann         Bob<", "Balls 14    /100", "Run       0    1", "A=Made B=Miss"],
     (0,), ()),
    (["  9 10  ", "x", ">Ann         Bob", "Balls: 1 2", "Run       0    0", "A=Made B=Miss"],
     (0,), (3,)),
    (["  9 10  ", "", ">Ann         Bob", "Balls: 1", "Run 12", "Şut: Ayşe"], (0,), (3,)),
    (["İ 9 10", "", ">Ann         Bob ", "Balls: 1", "Run 12", "Sut: Ayse"], (0,), ()),
    (["İ 9 10", "", "", "Balls: 1", "Run 12345678901234567", "Sut: Ayse"], (0, 2), ()),
    (["  9 10  ", "", "ab", "", "Run 12345678901234568", "Sut: Ayse"], (), (0, 4)),
    (["  9 11  ", "", "ab", "", "Run 1234567890123", "Sut"], (), (0, 4)),
    (["1 9 11 2", "", "xab  y", "", "R.n 1234567890.2", "Sut"], (), (0, 4)),
    (["1 9 11 2", "", "xab  y", "", "R.n 1234567890.2", "Sut"], (0,), (0, 4)),
    (["  9 11 3", "", "xab  y", "", "R.n 1234567890.2", "Sut"], (0,), (0, 4)),
]


def _panel_is(i2c, lines, big, inverse):
    # The decoded panel equals a fresh display's frame buffer for the same screen. (A function:
    # no stale bitmap in a generator frame under MicroPython.)
    fresh_i2c, fresh, oled = make()
    oled.show(lines, big, inverse)
    bm = fo.decode_ssd1306(i2c.records)
    for y in range(64):
        row = bm[y]
        for x in range(128):
            if row[x] != fresh.pixel(x, y):
                return (x, y)
    return None


def steps_screens_over_screens_leave_what_a_fresh_draw_shows():
    i2c, disp, oled = make()
    for lines, big, inverse in SEQUENCE:
        oled.show(lines, big, inverse)
        yield
        assert _panel_is(i2c, lines, big, inverse) is None, lines
        yield


def test_screens_over_screens_leave_what_a_fresh_draw_shows():
    _drain(steps_screens_over_screens_leave_what_a_fresh_draw_shows())


def steps_more_big_letters_than_the_driver_keeps():
    # The driver keeps 16 glyphs at double size: drawn again from those kept, or made again
    # once it started over, each looks as a fresh draw's.
    i2c, disp, oled = make()
    for text in ("ABCDEFGH", "IJKLMNOP", "QRSTUVWX", "HGFEDCBA"):
        oled.show([text], (0,), ())
        yield
    assert _panel_is(i2c, ["HGFEDCBA"], (0,), ()) is None


def test_more_big_letters_than_the_driver_keeps():
    _drain(steps_more_big_letters_than_the_driver_keeps())


def steps_a_big_digit_sends_its_16_columns():
    i2c, disp, oled = make()
    oled.show(SEQUENCE[0][0], (0,))
    yield
    m = i2c.mark()
    # the big row's two pages, rows 3 and 4 (row 2's new "<" is past the edge: not sent)
    assert oled.show(SEQUENCE[1][0], (0,)) == 2 + 2
    sent = i2c.since(m)
    assert sent[0][1] == bytes([0, 0x21, 80, 95, 0x22, 0, 1])  # big column 5: pixels 80-95
    assert len(sent[1][1]) == 1 + 2 * 16  # two pages of 16 columns, in one transaction
    assert i2c.nbytes(m) < 160  # whole rows: 5 * 129 and more
    yield
    assert screen(i2c)[2:5] == [s[:16] for s in SEQUENCE[1][0][2:5]]


def test_a_big_digit_sends_its_16_columns():
    _drain(steps_a_big_digit_sends_its_16_columns())


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
    # one transaction of commands (control byte, page, column low, column high) + one page
    assert i2c.nbytes(m) == 4 + 129
    yield
    assert screen(i2c, sh=True) == lines
    yield
    lines[3] = "Iğdır ÖĞÜŞÇ 7"  # characters added at the end of a row that is not ASCII: whole
    lines[7] = "Geri al: 8"  # one ASCII character changed: its 8 columns, after the offset
    m = i2c.mark()
    assert oled.show(lines) == 2
    assert i2c.nbytes(m) == 4 + 129 + 4 + 9
    assert i2c.records[-2][1] == bytes([0, 0xB7, 0x00 | ((2 + 72) & 15), 0x10 | ((2 + 72) >> 4)])
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
