# The whole app's budget, 64 KB of heap, on a board whose firmware image has the
# scoreboard frozen in (manifest.py): the board-like VM built that way (host_tools.mpy.frozen_vm)
# plays the four long matches of tests/test_app_mp.py from setup to match over with the journal
# on littlefs in a 64 KB heap. Loaded from .mpy files the same matches need 134-142 KB
# (docs/figures.md), most of it code: a 64 KB board needs the frozen image.
import pytest

from host_tools import mpy
from host_tools.appheap import Run
from tests.test_app_mp import _check_long, _chunks, _long

HEAP = "64K"


@pytest.fixture()
def frozen(monkeypatch):
    exe = mpy.frozen_vm()
    if exe is None:
        pytest.skip("no i686-linux-gnu-gcc here to build the frozen VM (README: 'The "
                    "MicroPython VM')")
    monkeypatch.setenv("MICROPYTHON", str(exe))
    monkeypatch.setenv("MICROPYTHON_FROZEN", "1")
    return exe


@pytest.mark.parametrize("game", ["9ball", "8ball", "14.1", "10ball"])
def test_whole_match_in_64k_with_the_firmware_frozen(frozen, game):
    keys, ctl = _long(game)
    r = Run("oled", "keypad", "en", game, ["run 20"] + _chunks(keys) + ["state", "mark"],
            heap=HEAP, store="lfs")
    _check_long(r, ctl)
