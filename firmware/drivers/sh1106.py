# SH1106 128x64 OLED over I2C: the vendored SSD1306 driver with page addressing and column offset 2.
# The SH1106 has 132 columns of RAM (the panel shows columns 2..129) and no horizontal
# addressing mode or column/page window commands (0x20-0x22), so a frame is sent page by page:
# 0xB0|page, low and high column nibbles (0x00|c, 0x10|c>>4), then that page's bytes.
# The SSD1306 init sequence is accepted by SH1106 modules (the commands it does not know are
# ignored; 0x8D 0x14 is harmless), so only show() changes.
from ssd1306 import SSD1306_I2C

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

_SET_PAGE = const(0xB0)
_COL_LOW = const(0x00)
_COL_HIGH = const(0x10)


class SH1106_I2C(SSD1306_I2C):
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False, col_offset=2):
        self.col_offset = col_offset
        self._pcmd = bytearray(4)  # control byte 0, page, column low and high nibbles
        SSD1306_I2C.__init__(self, width, height, i2c, addr, external_vcc)

    def show(self):
        self.show_pages(0, self.pages - 1)

    def show_pages(self, p0, p1, x0=0, x1=-1):
        # Send pages p0..p1 (8-pixel rows) of the buffer, columns x0..x1 (-1: the last) of
        # each; a page's three commands go in one transaction (control byte 0: commands).
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
