# MicroPython manifest: the scoreboard frozen into a firmware image (its code and names then live
# in flash, outside the heap). Build a board's firmware with
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/this/manifest.py
# (or ../shared/micropython/build-unix.sh OUT manifest.py for the board-like unix VM).
# The board's filesystem then holds only main.py's profile choice (/board.py), the match and
# the settings.
package("firmware", base_path=".", opt=0)
package("boards", base_path=".", opt=0)
module("ssd1306.py", base_path="firmware/lib")
# The MQTT client of a board with Wi-Fi (firmware/net.py), from micropython-lib.
require("umqtt.simple")
