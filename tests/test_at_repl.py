# The board handed to the REPL (a Ctrl-C from mpremote or a terminal) and held by an unfinished
# deploy: firmware.app.run shows the REPL's fixed screen on every display kind in the language on
# screen and lets the KeyboardInterrupt go on; boards/main.py keeps the watchdog from resetting
# the board at the REPL, and a board held by /deploy.flag says on its display how to finish the
# deploy, without starting the app or its watchdog. (The same on the virtual Pico, with the real
# mpremote: tests/test_deploy.py.)
import runpy
import sys
import types
from typing import Any

import pytest
from apprig import FakeWdt
from test_boards import _Machine

from firmware import app, notice
from host_tools.fakehw import FakeBoard, decoder, screen_text
from host_tools.mpy import ROOT

KINDS = ("oled", "sh1106", "lcd20", "lcd16", "digits", "neopixel", "matrix")
COLS = {"oled": 16, "sh1106": 16, "lcd20": 20, "lcd16": 16}


def _shown(board) -> Any:
    d: Any = decoder(board.kind)
    d.feed(board.bus.records if board.kind != "neopixel" else board.bus.writes)
    return screen_text(board.kind, d)


def _play_until_ctrl_c(board, passes, lang=None):
    # app.run on the board: the new-match screen, then 2 5 1 (start, P1 breaks) and a made
    # ball, then a Ctrl-C in a sleep between passes.
    keys = [(20, "2"), (60, "5"), (100, "1"), (140, "A")]
    t = [0]
    n = [0]

    def sleep_ms(ms):
        t[0] += 5
        n[0] += 1
        for at, k in keys:
            if n[0] == at:
                board.set_key(k, True)
            elif n[0] == at + 20:
                board.set_key(k, False)
        if n[0] == passes:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        app.run(board.hw, lambda: t[0], sleep_ms, lang=lang)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_ctrl_c_shows_the_repl_screen_on_every_display(kind, lang):
    board = FakeBoard(kind, "keypad", lang, FakeWdt())
    _play_until_ctrl_c(board, 200, lang)
    rows = _shown(board)
    texts = notice._TEXTS["repl"][lang]
    if kind in ("neopixel", "matrix"):
        # a wall panel, the only display: its dashes, as on the new-match screen (no score)
        fresh = FakeBoard(kind, "keypad", lang, FakeWdt())
        app.Runner(fresh.hw, lang=lang).tick(0)
        assert rows == _shown(fresh) and "-" in rows[-1], rows
    elif kind == "digits":
        assert rows == ["U5b rEPL"], rows  # "USb rEPL" (an S and a 5 light the same segments)
    elif kind == "lcd16":
        assert [r.rstrip() for r in rows] == [texts[0], texts[2]]
    else:
        got = [r.rstrip() for r in rows if r.strip()]
        assert got == list(texts[:4]), rows
    for t in texts[:4]:
        assert len(t) <= 16  # fits an OLED row and a 16x2 LCD's


def _raise_after(n):
    c = [0]

    def sleep_ms(ms):
        c[0] += 1
        if c[0] >= n:
            raise KeyboardInterrupt

    return sleep_ms


def test_the_repl_screen_is_in_the_language_on_screen():
    # The language is the one the match is shown in (a menu may have changed it), not the
    # profile's.
    board = FakeBoard("lcd20", "keypad", "en", FakeWdt())
    ctl = app.new_controller("keypad", "en")
    ctl.lang = "tr"
    hw = board.hw
    r = app.Runner(hw, ctl=ctl)
    assert r.app.ctl.lang == "tr"
    runner = app.Runner

    def with_ctl(*a, **kw):
        return r

    app.Runner = with_ctl  # run() makes its Runner: hand it this one
    try:
        with pytest.raises(KeyboardInterrupt):
            app.run(hw, lambda: 0, _raise_after(3))
    finally:
        app.Runner = runner
    assert _shown(board)[0].rstrip() == notice._TEXTS["repl"]["tr"][0]


def test_wall_panel_beside_the_display_shows_no_score():
    board = FakeBoard("oled", "keypad", "en", FakeWdt(), wall="neopixel")
    _play_until_ctrl_c(board, 200)
    d: Any = decoder("neopixel")
    dev: Any = board.wall_dev
    d.feed(dev.writes)
    fresh = FakeBoard("neopixel", "keypad", "en", FakeWdt())
    app.Runner(fresh.hw).tick(0)  # the new-match screen: no score
    f: Any = decoder("neopixel")
    bus: Any = fresh.bus
    f.feed(bus.writes)
    assert d.rows() == f.rows()


# ---------------------------------------------------------------- boards/main.py


@pytest.fixture
def machine(monkeypatch, tmp_path):
    fake: Any = _Machine()
    fake.timers = []
    fake.mem = {0x40058000: (1 << 30) | (7 << 24) | 12345}

    class Timer:
        def __init__(self, id=-1, period=0, callback=None):
            fake.timers.append((id, period, callback))

    class Mem:
        def __getitem__(self, a):
            return fake.mem[a]

        def __setitem__(self, a, v):
            fake.mem[a] = v

    fake.module.Timer = Timer
    fake.module.mem32 = Mem()
    monkeypatch.setitem(sys.modules, "machine", fake.module)
    monkeypatch.setitem(sys.modules, "board", None)  # no /board.py: the Pico's profile
    monkeypatch.chdir(tmp_path)
    import time

    monkeypatch.setattr(time, "ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr(time, "sleep_ms", lambda ms: None, raising=False)
    return fake


def _run_main() -> Any:
    return runpy.run_path(str(ROOT / "boards" / "main.py"))


def _ctrl_c(monkeypatch, machine_name):
    import firmware.app

    def run(hw, *a, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(firmware.app, "run", run)
    impl = types.SimpleNamespace(**vars(sys.implementation))
    if machine_name:
        impl._machine = machine_name
    elif hasattr(impl, "_machine"):
        del impl._machine
    monkeypatch.setattr(sys, "implementation", impl)


def test_main_pauses_an_rp2040s_watchdog_at_the_repl(machine, monkeypatch, capsys):
    _ctrl_c(monkeypatch, "Raspberry Pi Pico with RP2040")
    _run_main()
    assert ("WDT", 8000) in machine.made  # the app's watchdog ran ...
    ctrl = machine.mem[0x40058000]
    assert not ctrl & (1 << 30) and ctrl & (7 << 24) == 7 << 24  # ... and is paused, debug bits kept
    assert not ctrl & (1 << 31)  # never a trigger
    assert machine.timers == []
    assert "at the REPL" in capsys.readouterr().out


def test_main_feeds_another_boards_watchdog_from_a_timer(machine, monkeypatch):
    _ctrl_c(monkeypatch, "ESP32 module with ESP32")
    _run_main()
    (tid, period, cb), = machine.timers
    assert period <= 1000 and machine.wdt is not None
    before = machine.wdt.feeds
    cb(None)
    assert machine.wdt.feeds == before + 1
    assert machine.mem[0x40058000] & (1 << 30)  # no register of another chip written


def test_main_held_by_the_deploy_flag_says_so(machine, monkeypatch, tmp_path):
    import firmware.app

    calls = []
    monkeypatch.setattr(firmware.app, "run", lambda *a, **kw: calls.append(a))
    (tmp_path / "deploy.flag").write_text("")
    (tmp_path / "settings.json").write_text('{"lang": "tr"}')
    (tmp_path / "booting").write_text("OSError")  # the app failed before the deploy came
    _run_main()
    assert calls == []  # no app
    assert not (tmp_path / "booting").exists()  # the deploy's reset brings no safe mode
    assert not any(m[0] == "WDT" for m in machine.made)  # and no watchdog
    from host_tools.fakes.oled import Ssd1306Decoder, read_text

    d = Ssd1306Decoder()
    d.feed(machine.bus.records)
    rows = [r.rstrip() for r in read_text(d.bitmap()) if r.strip()]
    assert rows == list(notice._TEXTS["held"]["tr"][:4])
    assert "make deploy" in " ".join(rows)


def test_held_screens_fit_every_display():
    for lang in ("en", "tr"):
        for what in ("repl", "held"):
            for kind, cols in COLS.items():
                r = notice.screen("oled" if kind == "sh1106" else kind, what, lang)
                lines = r[0] if isinstance(r, tuple) else r
                assert all(len(s) <= cols for s in lines), (what, lang, kind, lines)
            assert len(str(notice.screen("digits", what, lang)).replace(".", "")) <= 8
