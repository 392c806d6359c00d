# Board profiles and boards/main.py against a fake `machine` module: every display and input builds and plays.
import runpy
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from apprig import FakeWdt

from firmware import views
from host_tools import fakes
from host_tools.fakekeys import FakeMatrix
from host_tools.fakes.max7219 import decode_max7219

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ["pico", "esp32_devkit"]


class _Machine:
    # A stand-in for `machine`: records the buses, pins and watchdog a profile makes.
    def __init__(self):
        self.pins = {}
        self.made = []
        self.wdt = None
        self.resets = 0
        self.bus: Any = None
        m = self
        matrix = FakeMatrix()
        self.matrix = matrix

        class Pin:
            IN, OUT, OPEN_DRAIN, PULL_UP = 0, 1, 2, 1

            def __init__(self, n, mode=-1, pull=-1, value=None):
                self.n = n
                self.mode = mode
                self.pull = pull
                self.level = 1 if value is None else value
                m.pins[n] = self

            def value(self, v=None):
                if v is None:
                    return self.level
                self.level = 1 if v else 0

            def __call__(self, v=None):
                return self.value(v)

        class I2C(fakes.FakeI2C):
            def __init__(self, id, sda=None, scl=None, freq=0):
                fakes.FakeI2C.__init__(self)
                m.made.append(("I2C", id, sda.n, scl.n, freq))
                m.bus = self

        class SPI(fakes.FakeSPI):
            def __init__(self, id, baudrate=0, polarity=0, phase=0, sck=None, mosi=None):
                fakes.FakeSPI.__init__(self)
                m.made.append(("SPI", id, sck.n, mosi.n, baudrate))
                m.bus = self

        def WDT(timeout=0):
            m.wdt = FakeWdt()
            m.made.append(("WDT", timeout))
            return m.wdt

        def reset():
            m.resets += 1

        mod: Any = types.ModuleType("machine")
        mod.Pin, mod.I2C, mod.SPI, mod.WDT, mod.reset = Pin, I2C, SPI, WDT, reset
        self.module = mod


@pytest.fixture
def machine(monkeypatch):
    fake = _Machine()
    monkeypatch.setitem(sys.modules, "machine", fake.module)
    return fake


def _profile(board, **changes):
    mod = __import__("boards." + board, None, None, ["PROFILE"])
    p = dict(mod.PROFILE)
    p.update(changes)
    return mod, p


def _digits(spi):
    # What the MAX7219 shows: the driver writes one 2-byte word a chip select (this machine's
    # pins are not bound to the bus: a write is a frame)
    return decode_max7219([b for k, b in spi.records if k == "w"])


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("display", ["oled", "lcd20", "lcd16"])
def test_the_digits_beside_a_display(machine, board, display):
    # "wall": "digits": the scores, the shooter's point and the status marks on the digits, the
    # rest on the display beside them; the menu's brightness sets the digits'.
    from firmware.app import App, new_controller

    mod, prof = _profile(board, display=display, wall="digits")
    hw = mod.build(prof)
    assert [x[0] for x in machine.made] == ["SPI", "I2C", "WDT"]
    ctl = new_controller("keypad", "en", "14.1")
    app = App(hw, ctl)
    for k in "51C":  # start, P1 breaks, a foul on the break
        ctl.key("press", k)
    app.step(0)
    assert _digits(hw.wall.spi) == views.render(ctl.model(), "digits")
    assert ctl.table.wall and ctl.cfg["bright"] == prof["wall_brightness"]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("display", ["oled", "sh1106", "lcd20", "lcd16", "digits"])
@pytest.mark.parametrize("layout", ["keypad", "buttons"])
def test_build_every_combination(machine, board, display, layout):
    from firmware.app import App, new_controller

    mod, prof = _profile(board, display=display, input=layout)
    if display == "digits":
        # the digits alone can't show the setup's names, a choice's options or a refusal: the
        # board refuses to start without a display beside them, saying so on them and in words
        with pytest.raises(ValueError, match='"wall" to "digits"'):
            mod.build(prof)
        assert _digits(machine.bus) == "no LCd  "
        return
    hw = mod.build(prof)
    assert hw.kind == display and hw.layout == layout and hw.wdt is machine.wdt
    assert hw.reset is machine.module.reset
    assert "firmware.hw" not in sys.modules  # the wiring code is let go once the board is built
    kinds = [x[0] for x in machine.made]
    assert kinds == (["SPI"] if display == "digits" else ["I2C"]) + ["WDT"]
    if layout == "keypad":
        rows = [machine.pins[n] for n in prof["rows"]]
        assert all(p.mode == p.OPEN_DRAIN for p in rows)
        assert all(machine.pins[n].pull == 1 for n in prof["cols"])
    else:
        assert all(machine.pins[n].pull == 1 for _, n in prof["buttons"])
    app = App(hw, new_controller(layout, "en", "8ball"))
    mark = machine.bus.mark()
    app.step(0)  # renders the first screen
    app.step(5)  # and sends it
    assert machine.bus.nbytes(mark) > 0  # the first screen went out on the bus
    assert machine.wdt.feeds == 2


@pytest.mark.parametrize("board", BOARDS)
def test_pins_are_distinct_and_safe(board):
    mod, p = _profile(board)
    i2c = list(p["i2c"][1:3])
    spi = list(p["spi"][1:4])
    keypad = list(p["rows"]) + list(p["cols"])
    buttons = [n for _, n in p["buttons"]]
    for group in (keypad, buttons):
        used = i2c + spi + group
        assert len(set(used)) == len(used), used
    if board == "esp32_devkit":
        bad = {0, 2, 6, 7, 8, 9, 10, 11, 12, 15}  # strapping and flash pins
        assert not bad & set(i2c + keypad + buttons + spi[:2])
        assert not {34, 35, 36, 37, 38, 39} & set(p["rows"])  # input-only pins can't drive rows
        assert not {34, 35, 36, 37, 38, 39} & set(list(p["cols"]) + buttons)  # no pull-ups there
    else:
        assert not {23, 24, 25, 29} & set(keypad + buttons)  # Pico W: wireless chip


def test_main_reads_board_py(machine, monkeypatch):
    import firmware.app

    calls = []
    monkeypatch.setattr(firmware.app, "run", lambda hw, *a, **kw: calls.append((hw, kw)))
    board: Any = types.ModuleType("board")
    board.BOARD = "esp32_devkit"
    board.OPTIONS = {"display": "lcd16", "input": "buttons", "game": "9ball", "wdt_ms": 0}
    monkeypatch.setitem(sys.modules, "board", board)
    import time

    monkeypatch.setattr(time, "ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr(time, "sleep_ms", lambda ms: None, raising=False)
    runpy.run_path(str(ROOT / "boards" / "main.py"))
    (hw, kw), = calls
    assert hw.kind == "lcd16" and hw.layout == "buttons" and hw.wdt is None
    assert kw["game"] == "9ball"
    assert machine.made[0] == ("I2C", 0, 21, 22, 400000)


def test_main_defaults_to_pico(machine, monkeypatch):
    import firmware.app

    calls = []
    monkeypatch.setattr(firmware.app, "run", lambda hw, *a, **kw: calls.append(hw))
    monkeypatch.setitem(sys.modules, "board", None)  # no /board.py: ImportError
    import time

    monkeypatch.setattr(time, "ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr(time, "sleep_ms", lambda ms: None, raising=False)
    runpy.run_path(str(ROOT / "boards" / "main.py"))
    assert calls[0].kind == "oled" and calls[0].layout == "keypad"
    assert machine.made == [("I2C", 0, 4, 5, 400000), ("WDT", 8000)]


def test_only_boards_import_machine():
    offenders = []
    for path in list((ROOT / "firmware").rglob("*.py")) + list((ROOT / "host_tools").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "import machine" in text or "from machine" in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
