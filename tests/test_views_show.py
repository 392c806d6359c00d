# What the displays showed too little of, read back from the real drivers' bytes as a referee
# would: the E3/A7 choice's four options on the LCDs, spotting instructions among other alerts,
# the reason a rack ended and at match over who won and why, negative three-digit scores on the
# digits and the wall, the 20x4's key hints in setup and the menu, and some texts.
import pytest
from test_views_essentials import Screen, records
from views_models import model

from firmware import lang, rules, views
from firmware.app import App
from firmware.ui import Controller
from host_tools.fakehw import FakeBoard, WallDecoder, decoder, screen_text
from host_tools.fakes import wall as fw
from host_tools.fakes.lcd import LcdDecoder
from tests.builders import new, play

ENDS = ("E11", "E12.1", "E12.2", "E12.3", "E12.4", "E12.5", "E12.6", "N2", "C-N1", "N11")


def keyed(game, keys, code="en", layout="keypad"):
    c = Controller(layout, code, game)
    for k in keys.split():
        c.key("press", k)
    return c


def shown(md, kind, layout="keypad"):
    # Every row the display shows for the model (the 16x2: over all its pages).
    return [r.rstrip() for pg in Screen(kind, layout).show(md) for r in pg]


@pytest.mark.parametrize("code", ["en", "tr"])
@pytest.mark.parametrize("kind", ["lcd20", "lcd16", "oled"])
def test_8ball_bad_break_choice_shows_every_option_on_every_display(code, kind):
    # E3/A7: after a bad break the incoming player may accept, take the cue ball in the kitchen,
    # or have the balls re-racked and break, or have the breaker break again; after a scratch
    # on the break the same but accept. Each with its key, and whose choice it is.
    for keys, opts in (("5 1 C", ("accept", "kitchen", "rerack", "rerack_other")),
                       ("5 1 0 C", ("kitchen", "rerack", "rerack_other"))):
        c = keyed("8ball", keys, code)
        md = c.model()
        assert md["mode"] == "choice", md["mode"]
        text = "\n".join(shown(md, kind))
        assert "P2" in text, text
        for i, o in enumerate(opts):
            assert "%d=%s" % (i + 1, lang.t(code, o)) in text, (o, text)


def test_spotting_instructions_get_a_row_before_any_alert_gets_two():
    # N9: 9-ball, the 9 and the cue ball down: spot the 9, ball in hand (20x4).
    rows = shown(keyed("9ball", "5 1 B 9 0 C").model(), "lcd20")
    assert "Spot 9" in rows and "In hand: table" in rows, rows
    # S8: 14.1, a scratch with a ball down while the other player is warned: the foul and the
    # ball to spot each get a row (OLED) besides the warning.
    rows = shown(keyed("14.1", "5 1 B C B 3 0 C").model(), "oled")
    assert "Foul G5.2 -1 pt" in rows and "Spot 1 ball(s)" in rows, rows
    assert "WARNING P2" in rows and "In hand: kitchen" in rows, rows


@pytest.mark.parametrize("code", ["en", "tr"])
def test_the_reason_a_rack_ended_fits_one_row_of_every_display(code):
    for rule in ENDS:
        t = rule + " " + lang.t(code, "end_" + rule)
        assert len(t) <= 16, t


def _e12_5(race):
    # 8-ball: Ann breaks and pockets the 1 (solids), then pockets the 8 with her group on the
    # table (a legal first contact, the 2): E12.5, Bob wins the rack.
    return play(new("8ball", ("Ann", "Bob"), race=[race, race]), {"t": "lag", "breaker": 0},
                {"t": "shot", "first": 1, "pots": [1], "break_rails": 4, "rail": True},
                {"t": "shot", "first": 2, "pots": [8], "rail": True})


@pytest.mark.parametrize("code", ["en", "tr"])
@pytest.mark.parametrize("kind", ["oled", "lcd20", "lcd16"])
def test_why_the_rack_ended_and_at_match_over_who_won_and_why(code, kind):
    why = "E12.5 " + lang.t(code, "end_E12.5")
    m = _e12_5(2)
    assert m.s["note"]["end"] == "E12.5", m.s["note"]
    rows = shown(model(m, code), kind)
    assert why in rows and lang.t(code, "won").format("Bob") in rows, rows
    m = _e12_5(1)
    assert m.s["winner"] == 1
    rows = shown(model(m, code), kind)
    assert why in rows, rows
    assert "Bob" in rows or lang.t(code, "wins").format("Bob") in rows, rows


def test_negative_three_digit_scores_on_the_digits_and_the_wall():
    m = play(new("14.1", ("Ann", "Bob"), target=[150, 150]), {"t": "lag", "breaker": 0})
    m.s["p"][0][rules.SCORE] = -104  # (S11 three times over: reached by hand here)
    m.s["p"][1][rules.SCORE] = 99
    md = model(m)
    b = FakeBoard("digits", "keypad")
    b.hw.display.show(views.render(md, "digits"))
    d = decoder("digits").feed(b.bus.records)
    assert screen_text("digits", d) == ["-104. 99 "]
    for wall in ("neopixel", "matrix"):
        b = FakeBoard("lcd20", "keypad", wall=wall)
        b.hw.wall.show(views.render(md, "wall"))
        dev = b.wall_dev
        w = WallDecoder(wall).feed(records(dev))
        r = w.read()
        assert (r["a"], r["b"]) == ("-104", "99"), fw.art(w.rows())
        m.s["p"][0][rules.SCORE], m.s["p"][1][rules.SCORE] = 99, -104
        b.hw.wall.show(views.render(model(m), "wall"))
        w.feed(records(dev))
        r = w.read()
        assert (r["a"], r["b"]) == ("99", "-104"), fw.art(w.rows())
        m.s["p"][0][rules.SCORE], m.s["p"][1][rules.SCORE] = -104, 99


def test_the_20x4_shows_key_hints_in_setup_and_the_menu():
    c = Controller("keypad", "en", "14.1")
    assert "5=Start" in "\n".join(shown(c.model(), "lcd20"))
    c.key("press", "5")
    c.key("press", "1")
    c.key("press", "#")
    c.key("press", "#")
    assert c.mode == "menu"
    assert "5=OK" in "\n".join(shown(c.model(), "lcd20"))


def test_texts_read_whole():
    # The Turkish kitchen is "açış alanı" (the federation's rules), not "Mutfak".
    c = keyed("8ball", "5 1 0 C", "tr")
    assert "1=Açış alanı" in shown(c.model(), "oled")
    for k in ("kitchen", "bih_kitchen", "rack_C-S4b"):
        assert "mutfak" not in lang.t("tr", k).lower()
    # a setup row one column short keeps its colon
    md = {"mode": "setup", "lang": "en", "state": None, "cursor": 0, "hints": [],
          "items": [["player1", "set", "Furkan"]]}
    assert shown(md, "lcd16")[0] == ">Player 1:Furkan"
    # 14.1 on the OLED: the target named as such, not "Balls 15     /50" ("15 of 50")
    m = play(new("14.1", ("Ann", "Bob"), target=[50, 50]), {"t": "lag", "breaker": 0})
    assert "Balls 15 Goal 50" in shown(model(m), "oled")
    # the lag on the 20x4: both players' keys whole
    rows = shown(keyed("14.1", "5").model(), "lcd20")
    assert "1=P1 breaks" in rows and "2=P2 breaks" in rows, rows
    # the resumed message in one OLED row
    assert len(lang.t("en", "m_resumed").format(1234)) <= 16


def test_the_16x2_turns_its_pages_in_the_app_without_a_key():
    b = FakeBoard("lcd16", "keypad")
    c = keyed("8ball", "5 1 C")
    app = App(b.hw, c)
    d = LcdDecoder(16, 2)
    seen = set()
    for t in range(0, 12000, 500):
        app.step(t)
        d.feed(b.bus.records)
        b.bus.records.clear()
        seen.update([r.rstrip() for r in d.grid()])
    text = "\n".join(seen)
    for o in ("1=Accept", "2=Kitchen", "3=Re-rack", "4=Re-rack,opp."):
        assert o in text, text
    assert len(c.match.log) == 3  # new, lag, the break: nothing sent by the turning


@pytest.mark.parametrize("kind", ["oled", "lcd20", "lcd16"])
def test_a_rack_instruction_stays_whole_beside_a_message(kind):
    # C-S4d (A10): the cue ball in the rack area, the 15th ball not: rack 14, cue ball in hand;
    # then a message on top (an undo's): the instruction keeps all its words.
    from views_models import BREAK_141

    from tests.builders import lag, shot

    m = play(new("14.1", ("Ann", "Bob")), lag(0), BREAK_141,
             shot(first=1, call=1, pots=list(range(1, 15)), made=True, rail=True,
                  cue_in_rack=True, ball_in_rack=False))
    assert m.s["note"]["rack"] == "C-S4d"
    for code in ("en", "tr"):
        rows = shown(model(m, code, msg=["undone_x", "made"]), kind)
        text = " ".join(rows[1::2] if kind == "lcd16" else rows)  # (its pages' second rows)
        assert "C-S4d " + lang.t(code, "rack_C-S4d") in text, text
