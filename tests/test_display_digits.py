# mp: yes
# MAX7219 digits through firmware.drivers.digits on a fake SPI bus and CS pin, read back.
from firmware.drivers.digits import Digits, field, segments
from host_tools import fakes
from host_tools.fakes import max7219 as fm


def make():
    spi = fakes.FakeSPI()
    cs = fakes.FakePin(1, spi)
    return spi, Digits(spi, cs)


def shown(spi):
    return fm.decode_max7219(spi.records)


def test_init_registers():
    spi, d = make()
    m = fm.Max7219Decoder().feed(spi.records)
    assert not m.shutdown and not m.test
    assert m.decode == 0 and m.scan_limit == 7 and m.intensity == 8
    assert shown(spi) == "        "
    assert all([len(f) == 2 for f in spi.frames()])


def test_two_scores():
    spi, d = make()
    d.scores(57, -3)
    assert shown(spi) == "  57  -3"
    d.scores(100, 99)
    assert shown(spi) == " 100  99"


def test_racks_with_separator():
    spi, d = make()
    d.scores(3, 2, "-")
    assert shown(spi) == "  3-2   "


def test_letters_points_and_blank():
    spi, d = make()
    d.show("FAUL 2")
    assert shown(spi) == "FAUL 2  "
    d.show("12.5 HELP")
    assert shown(spi) == "12.5 HELP"
    d.show("")
    assert shown(spi) == "        "


def test_only_changed_digits_are_written():
    spi, d = make()
    d.scores(57, 3)
    m = spi.mark()
    assert d.scores(57, 3) == 0
    assert spi.nbytes(m) == 0
    m = spi.mark()
    assert d.scores(58, 3) == 1
    assert spi.nbytes(m) == 2
    assert shown(spi) == "  58   3"


def test_power_intensity_and_test_mode():
    spi, d = make()
    d.scores(1, 2)
    d.intensity(15)
    d.power(False)
    m = fm.Max7219Decoder().feed(spi.records)
    assert m.intensity == 15 and m.shutdown
    assert m.text() == "        "
    d.power(True)
    d.test(True)
    assert shown(spi) == "8.8.8.8.8.8.8.8."
    d.test(False)
    assert shown(spi) == "   1   2"


def test_code_b_decoding_in_the_decoder():
    m = fm.Max7219Decoder()
    m.word(0x0C, 1)
    m.word(0x0B, 7)
    m.word(0x09, 0xFF)
    regs = ((8, 1), (7, 0x0A), (6, 0x8F), (5, 0x0B), (4, 2), (3, 0x0C), (2, 0x0D), (1, 0x0E))
    for reg, v in regs:
        m.word(reg, v)
    assert m.text() == "1- .E2HLP"


def test_helpers():
    assert field(7, 3) == "  7"
    assert field(12345, 3) == "345"
    assert segments("8") == 0x7F
    assert segments("s") == segments("S") == segments("5")
    assert segments("%") == 0
