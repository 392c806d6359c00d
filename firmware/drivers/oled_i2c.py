# The OLED panels on I2C: micropython-lib's SSD1306_I2C (firmware/lib/ssd1306.py, unchanged)
# with show_pages(p0, p1, x0, x1), which sends only a window of the frame, and the SH1106.
# firmware.drivers.oled draws its text into the frame buffer and sends the rows it changed
# through show_pages.
from ssd1306 import SSD1306_I2C

from firmware.mem import const

_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_PAGE = const(0xB0)
_COL_LOW = const(0x00)
_COL_HIGH = const(0x10)


class SSD1306W_I2C(SSD1306_I2C):
    # The SSD1306 with windows: in its horizontal addressing mode the column and page address
    # commands (0x21, 0x22) bound where the data that follows goes, so pages p0..p1, columns
    # x0..x1 of the buffer go as one transaction of commands and one of data.
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        # control byte 0 (a run of commands), column address x0 x1, page address p0 p1
        self._win = bytearray((0, _SET_COL_ADDR, 0, 0x7F, _SET_PAGE_ADDR, 0, 7))
        SSD1306_I2C.__init__(self, width, height, i2c, addr, external_vcc)

    def show_pages(self, p0, p1, x0=0, x1=-1):
        w = self.width
        if x1 < 0:
            x1 = w - 1
        off = (128 - w) // 2 if w < 128 else 0  # a narrow panel's columns are centred
        win = self._win
        win[2] = off + x0
        win[3] = off + x1
        win[5] = p0
        win[6] = p1
        self.i2c.writeto(self.addr, win)
        mv = memoryview(self.buffer)
        v = [b"\x40"]  # type: list
        for p in range(p0, p1 + 1):
            v.append(mv[p * w + x0 : p * w + x1 + 1])
        self.i2c.writevto(self.addr, v)


class SH1106_I2C(SSD1306_I2C):
    # SH1106 128x64: 132 columns of RAM (the panel shows columns 2..129) and no horizontal
    # addressing mode or column/page window commands (0x20-0x22), so a frame is sent page by
    # page: 0xB0|page, low and high column nibbles (0x00|c, 0x10|c>>4), then that page's bytes.
    # The SSD1306 init sequence is accepted by SH1106 modules (the commands it does not know
    # are ignored; 0x8D 0x14 is harmless), so only show() changes.
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False, col_offset=2):
        self.col_offset = col_offset
        self._pcmd = bytearray(4)  # control byte 0, page, column low and high nibbles
        SSD1306_I2C.__init__(self, width, height, i2c, addr, external_vcc)

    def show(self):
        self.show_pages(0, self.pages - 1)

    def show_pages(self, p0, p1, x0=0, x1=-1):
        # Pages p0..p1 (8-pixel rows) of the buffer, columns x0..x1 (-1: the last) of each; a
        # page's three commands go in one transaction (control byte 0: commands).
        w = self.width
        if x1 < 0:
            x1 = w - 1
        c = self.col_offset + x0
        mv = memoryview(self.buffer)
        cmd = self._pcmd
        cmd[2] = _COL_LOW | (c & 0x0F)
        cmd[3] = _COL_HIGH | (c >> 4)
        for p in range(p0, p1 + 1):
            cmd[1] = _SET_PAGE | p
            self.i2c.writeto(self.addr, cmd)
            self.write_data(mv[p * w + x0 : p * w + x1 + 1])
