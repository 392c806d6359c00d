# Every text of both languages fits every display (no "Language: Engli", "Chosen: Pass bac",
# "14.1 deva", no rack number lost beside "Open table"): every screen of every game, layout and
# language, reached by walking each setup row through all its values and by random keys in
# play, is drawn on the OLED (16x8), the 20x4 and the 16x2 LCD, and no row, list row, game line
# or key hint is cut. The one-row summaries an alert falls back to on a crowded screen are the
# exception: they are cut by design, and the whole text is shown once there is room.
import pytest
from mash import NAMES, Lcg

from firmware import views
from firmware.ui import Controller


@pytest.fixture
def cuts(monkeypatch):
    found = set()
    summaries = set()
    cut, fit, pack, place = views._cut, views.fit, views.pack, views._place

    def _cut(lines, w, h):
        for row in lines[:h]:
            if len(row) > w and row not in summaries:
                found.add((w, row))
        return cut(lines, w, h)

    def _fit(left, right, w):
        if right and len(left) + 1 + len(right) > w:
            found.add((w, left + " | " + right))
        return fit(left, right, w)

    def _pack(items, w):
        for it in items:
            if len(it) > w:
                found.add((w, it))
        return pack(items, w)

    def _place(alerts, room, keep=False):
        rows, inv = place(alerts, room, keep)
        for a in alerts:
            if a[1] in rows and a[1] not in a[0]:
                summaries.add(a[1])
        return rows, inv

    monkeypatch.setattr(views, "_cut", _cut)
    monkeypatch.setattr(views, "fit", _fit)
    monkeypatch.setattr(views, "pack", _pack)
    monkeypatch.setattr(views, "_place", _place)
    return found


def _draw(c):
    md = c.model()
    for kind in ("oled", "lcd20", "lcd16"):
        views.render(md, kind)


@pytest.mark.parametrize("code", ["en", "tr"])
@pytest.mark.parametrize("layout", ["keypad", "buttons"])
def test_every_text_fits_every_display(cuts, code, layout):
    b = layout == "buttons"
    for game in ("14.1", "8ball", "9ball", "10ball"):
        c = Controller(layout, code, game)
        for _ in range(len(c.model()["items"])):    # every setup row through its values
            for _ in range(16):
                _draw(c)
                c.key("press", "P2" if b else "6")
            c.key("press", "P1" if b else "8")
        c.lang = code     # (the walk stepped the game and the language rows too)
        c.cfg["game"] = game
        c.key("press", "FOUL" if b else "5")
        rng = Lcg(len(game) + 7 * b)
        for _ in range(1200):
            if c.mode == "setup":
                c.key("press", "FOUL" if b else "5")
            c.key("long" if rng.below(10) == 0 else "press", NAMES[rng.below(len(NAMES))])
            c.lang = code   # (the menu's language row stays out of it)
            _draw(c)
    assert not cuts, sorted(cuts)
