# PNG screenshots of what the views show on the OLED and the character LCD (through the real drivers on fake buses).
"""Render a screen model (docs/ui-contract.md) to PNG files the way a person sees the display:

    oled_png(model, path)           views -> drivers.oled.Oled on ssd1306 over FakeI2C -> decoded bitmap
    lcd_png(model, path, "lcd20")   views -> drivers.lcd.Lcd over FakeI2C -> decoded character grid
    model_of(match, lang, hints)    a screen model for a firmware.match.Match (as the Controller builds it)

`python -m host_tools.screens [OUTDIR]` writes the README screenshots (default docs/screens/).
"""

# ruff: noqa: I001  (host_tools.fakes must be imported before ssd1306: it sets up sys.path)
from __future__ import annotations

import sys
from pathlib import Path

from host_tools import fakes  # first: puts firmware/lib and the framebuf stand-in on sys.path
from host_tools import shots
from host_tools.fakes import oled as fo
from host_tools.fakes.lcd import decode_lcd

import ssd1306  # noqa: E402  (vendored micropython-lib driver, firmware/lib)

from firmware import views  # noqa: E402
from firmware.drivers.lcd import Lcd  # noqa: E402
from firmware.drivers.oled import Oled  # noqa: E402
from firmware.match import Match  # noqa: E402

PLAY_KEYS = [["A", "made"], ["B", "miss"], ["C", "foul"], ["D", "undo"]]


def oled_bitmap(model):
    lines, big, inv = views.render(model, "oled")
    i2c = fakes.FakeI2C()
    Oled(ssd1306.SSD1306_I2C(128, 64, i2c)).show(lines, big, inv)
    return fo.decode_ssd1306(i2c.records)


def oled_png(model, path, scale=4):
    return shots.save_png(oled_bitmap(model), str(path), scale)


def lcd_lines(model, kind="lcd20"):
    cols, rows = (20, 4) if kind == "lcd20" else (16, 2)
    i2c = fakes.FakeI2C()
    Lcd(i2c, cols=cols, rows=rows, sleep_ms=lambda ms: None).show(views.render(model, kind))
    return decode_lcd(i2c.records, cols, rows)


def lcd_png(model, path, kind="lcd20", scale=4):
    lines = lcd_lines(model, kind)
    return shots.save_lcd_png(lines, str(path), scale, cols=len(lines[0]) if lines else None)


def model_of(m, lang="en", hints=None, **kw):
    st = m.state()
    mode = "over" if st["winner"] is not None else ("choice" if st["pending"] else "play")
    d = {"mode": mode, "lang": lang, "s": m.s, "state": st, "entry": [], "shift": False,
         "msg": None, "hints": PLAY_KEYS if hints is None else hints, "items": [], "cursor": 0,
         "fault": None}
    d.update(kw)
    return d


def _match(game, players, *evs, **kw):
    m = Match()
    ev = {"t": "new", "game": game, "players": list(players)}
    ev.update(kw)
    m.apply(ev)
    for e in evs:
        e = dict(e)
        e.setdefault("t", "shot")
        m.apply(e)
    return m


def _lag(b):
    return {"t": "lag", "breaker": b}


_BREAK141 = {"first": 1, "break_rails": 2, "cue_rail": True, "rail": True}
_MISS = {"first": 1, "rail": True}


def _pot(n):
    return {"first": 1, "call": 1, "pots": list(range(1, n + 1)), "made": True, "rail": True}


def examples():
    """[(file name, model, display kind)] for the README."""
    m141 = _match("14.1", ("Ann", "Bob"), _lag(0), _BREAK141, _pot(5), _MISS, _pot(2), _MISS,
                  _pot(4), target=[100, 75])
    m8 = _match("8ball", ("Ayşe", "Gökhan"), _lag(0),
                {"first": 1, "pots": [0, 8], "break_rails": 4, "rail": True})
    m9 = _match("9ball", ("Ann", "Bob"), _lag(0),
                {"first": 1, "pots": [2, 5], "break_rails": 4, "rail": True})
    warn = _match("14.1", ("Şükrü", "İlkay"), _lag(0), _BREAK141, _pot(3), _MISS,
                  {"first": None}, _MISS, {"first": None})
    over = _match("9ball", ("Ann", "Bob"), _lag(0),
                  {"first": 1, "pots": [9], "break_rails": 4, "rail": True}, race=[1, 1])
    return [
        ("oled-14-1-play-en.png", model_of(m141), "oled"),
        ("oled-8ball-choice-tr.png",
         model_of(m8, "tr", [["1", "spot8"], ["2", "rerack"], ["D", "undo"]]), "oled"),
        ("oled-9ball-push-out-en.png",
         model_of(m9, "en", [["A", "made"], ["B", "miss"], ["C", "foul"], ["*", "push"]]), "oled"),
        ("oled-foul-warning-tr.png", model_of(warn, "tr"), "oled"),
        ("oled-match-over-en.png", model_of(over, "en", [["D", "undo"], ["##", "menu"]]), "oled"),
        ("lcd20x4-foul-warning-tr.png", model_of(warn, "tr"), "lcd20"),
        ("lcd20x4-14-1-play-en.png", model_of(m141), "lcd20"),
        ("lcd16x2-8ball-choice-en.png",
         model_of(m8, "en", [["1", "spot8"], ["2", "rerack"], ["D", "undo"]]), "lcd16"),
    ]


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path(__file__).resolve().parent.parent / "docs" / "screens"
    out.mkdir(parents=True, exist_ok=True)
    for name, md, kind in examples():
        path = out / name
        if kind == "oled":
            oled_png(md, path)
        else:
            lcd_png(md, path, kind)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
