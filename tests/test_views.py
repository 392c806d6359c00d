# Views through the real drivers on fake buses: what a person sees on the OLED, LCD and LED digits.
# ruff: noqa: I001  (host_tools.fakes must come first: it puts firmware/lib on sys.path)
from host_tools import fakes
from host_tools.fakes import oled as fo
from host_tools.fakes.lcd import decode_lcd
from host_tools.fakes.max7219 import decode_max7219

import ssd1306  # vendored micropython-lib driver (firmware/lib)

from firmware import views
from firmware.drivers.digits import Digits
from firmware.drivers.lcd import Lcd
from firmware.drivers.oled import Oled
from views_models import DRY_BREAK, FOUL, m8_choice, m9_over, m9_push, m141_run, m141_two_fouls, model

from tests.builders import lag, new, play, pot141, shot


def oled_text(md):
    """Render for the OLED, draw with ssd1306 on a fake I2C bus, read the rows back."""
    lines, big, inv = views.render(md, "oled")
    i2c = fakes.FakeI2C()
    Oled(ssd1306.SSD1306_I2C(128, 64, i2c)).show(lines, big, inv)
    seen = fo.read_text(fo.decode_ssd1306(i2c.records), big=big)
    want = [x.rstrip() for x in lines]  # pyright: ignore
    for b in big:  # pyright: ignore
        want[b + 1] = ""  # pyright: ignore[reportOperatorIssue]
    assert seen == want  # every character (Turkish letters too) came through the bus
    return "\n".join(seen)


def lcd_text(md, cols=20, rows=4):
    lines = views.render(md, "lcd20" if cols == 20 else "lcd16")
    i2c = fakes.FakeI2C()
    Lcd(i2c, cols=cols, rows=rows, sleep_ms=lambda ms: None).show(lines)
    return decode_lcd(i2c.records, cols, rows)


def digits_text(md):
    spi = fakes.FakeSPI()
    d = Digits(spi, fakes.FakePin(1, bus=spi))
    d.show(views.render(md, "digits"))
    return decode_max7219(spi.records)


def test_14_1_warning_after_second_foul_in_both_languages():
    m = m141_two_fouls()
    en = oled_text(model(m, "en"))
    tr = oled_text(model(m, "tr"))
    assert "WARNING Şükrü" in en and "2 fouls: 3rd -15" in en and "F2!" in en
    assert "UYARI Şükrü" in tr and "2 faul: 3. -15" in tr and "Faul G3 -1 puan" in tr
    assert "İlkay" in tr
    # the warning stays while the count is 2, not only right after the foul
    m.apply(shot(first=1, rail=True))  # İlkay misses; Şükrü to shoot, still on two fouls
    assert "UYARI Şükrü" in oled_text(model(m, "tr"))
    assert "UYARI Şükrü" in "\n".join(lcd_text(model(m, "tr")))


def test_14_1_innings_run_high_run_average():
    md = model(m141_run())
    lines, big, _ = views.render(md, "oled")
    # the scores at double size (Ann 2 of 100, Bob 9 of 75), the shooter marked under them
    assert big == [0] and lines[0] == "  2  9  " and lines[2].endswith("Bob<"), lines  # pyright: ignore
    t = oled_text(md)
    assert "Balls 4   100/75" in t and "Inning    2    2" in t and "Run       0    4" in t
    assert "High      2    5" in t
    lcd = lcd_text(md)
    assert ">Bob" in lcd[1] and "9/75" in lcd[1] and "2/100" in lcd[0]
    tr = oled_text(model(m141_run(), "tr"))
    assert "Istaka    2    2" in tr and "Seri      0    4" in tr and "En iyi    2    5" in tr
    # the averages: on the match-over screen (and the scoresheet)
    over = model(m141_run(), "tr")
    over["state"]["winner"] = 1
    assert "Top/ıs 1.00 4.50" in oled_text(over) and "En iyi    2    5" in oled_text(over)


def test_8ball_pending_choice_shows_options_and_keys():
    hints = [["1", "spot8"], ["2", "rerack"], ["D", "undo"]]
    tr = oled_text(model(m8_choice(), "tr", hints=hints))
    assert "Gökhan seçer:" in tr and "1=8 piramide" in tr and "2=Yeniden diz" in tr
    assert "D=Geri al" in tr
    en = oled_text(model(m8_choice(), "en", hints=hints))
    assert "Gökhan chooses:" in en and "1=Spot 8" in en and "2=Re-rack" in en
    two = lcd_text(model(m8_choice(), "en", hints=hints), 16, 2)
    assert two[0].startswith("Gökhan:") and "1=Spot 8" in two[0] + two[1]
    assert "2=Re-rack" in two[0] + two[1]


def test_refusal_names_the_rule():
    md = model(m9_push(), "en", msg=["refused", "N1", "not_on_table", 12])
    t = oled_text(md)
    assert "Refused N1" in t and "Ball 12 not on" in t
    tr = oled_text(model(m9_push(), "tr", msg=["refused", "N1", "not_on_table", 12]))
    assert "Olmaz! N1" in tr and "12 masada yok" in tr
    two = lcd_text(md, 16, 2)
    assert "N1" in two[1]
    md = model(m8_choice(), "tr", msg=["refused", "E4", "pending", "Gökhan", "spot8, rerack"])
    t = oled_text(md)
    # the choice whole, then a row each for the refusal and the foul before it (the refusal's
    # second row would be the foul's)
    assert "Gökhan seçer:" in t and "Olmaz! E4" in t and "Faul G5.2" in t


def test_9ball_push_out_available_and_balls_on_table():
    t = oled_text(model(m9_push(), hints=[["A", "made"], ["B", "miss"], ["*", "push"]]))
    assert "Push out allowed" in t and "Table  1 3 4 6-9" in t and "Lowest 1" in t
    assert "*=Push out" in t
    assert "Top sürme hakkı" in oled_text(model(m9_push(), "tr"))


def test_match_over_shows_the_winner():
    md = model(m9_over(), hints=[["D", "undo"], ["##", "menu"]])
    lines, big, inv = views.render(md, "oled")
    assert big == [2] and lines[2] == "Ann"  # pyright: ignore
    t = oled_text(md)
    assert "Match over" in t and "*Ann" in t and "Brk&run    1   0" in t  # (the 9 on the break)
    assert lines[4] == "C-N1 9 on break"  # why the deciding rack ended  # pyright: ignore
    assert "Ann wins" in lcd_text(md)[2] and lcd_text(md)[3].startswith("C-N1 9 on break")
    assert "Maç bitti" in oled_text(model(m9_over(), "tr"))


def test_lcd16_scores_and_shooter():
    two = lcd_text(model(m141_run()), 16, 2)
    assert two[0] == "Ann 2     >Bob 9"
    assert two[1].rstrip() == "A=Made B=Miss"
    m = play(new("8ball", ("Çağla", "Ümit")), lag(1), DRY_BREAK)
    two = lcd_text(model(m, "tr"), 16, 2)
    assert two[0] == ">Çağ 0/5 Ümi 0/5"  # names cut to fit, Turkish letters from CGRAM


def test_lcd20_rows():
    four = lcd_text(model(m141_run(), "tr"))
    assert four[0].startswith(" Ann") and four[0].endswith("2/100")
    assert four[1].startswith(">Bob") and four[2] == "Top 4         Seri 4"


def test_digits_show_the_two_scores_with_a_minus_sign():
    # A's status position, A's score, B's score, B's status ("_": one foul); the shooter's point
    m = play(new("14.1", ("Ann", "Bob")), lag(0), shot(first=1, break_rails=2, cue_rail=True, rail=True), FOUL)
    assert digits_text(model(m)) == "   0. -1_"
    m.apply(pot141(3))
    assert digits_text(model(m)) == "   3. -1_"
    assert digits_text(model(m9_push())) == "  0.-- 0 "


def test_digits_show_fouls_and_ball_in_hand():
    assert digits_text(model(m141_two_fouls())) == "= -2  3. "  # "=": two fouls, the warning
    m = play(new("8ball", ("Ann", "Bob")), lag(0), DRY_BREAK, shot(first=3, pots=[3], made=True, rail=True),
             shot(first=4, rail=True), FOUL)
    assert digits_text(model(m)) == "_ 0-- 0.H"  # Ann's foul: Bob has ball in hand
    m = m141_two_fouls()
    m.apply(shot(first=1, rail=True))  # B misses: A (warned) shoots, no ball in hand
    m.apply(FOUL)  # A's third foul (C-S7)
    assert "=" not in digits_text(model(m))
    assert digits_text(model(m9_over())) == "  1-- 0 "  # match over: no point, no marks


def test_8ball_groups_and_notes():
    m = play(new("8ball", ("Ann", "Bob")), lag(0), DRY_BREAK, shot(first=3, pots=[3], made=True, rail=True))
    t = oled_text(model(m))
    # Ann's break is dry, Bob makes the 3: Bob has the solids
    assert " Ann        Bob<" in t and "Str          Sol" in t and "Sol:     1 2 4-7" in t
    lcd = lcd_text(model(m))
    assert " Ann         Str 0/5" in lcd[0] and ">Bob         Sol 0/5" in lcd[1], lcd
    assert "Çiz:        9-15" in oled_text(model(m, "tr"))
    m.apply(shot(first=4, rail=True))       # Bob misses
    m.apply(FOUL)                          # Ann fouls: Bob has ball in hand anywhere
    t = oled_text(model(m))
    assert "In hand: table" in t and "Foul G3" in t
    assert "Elde top: masa" in oled_text(model(m, "tr"))


def test_key_fault_and_entry():
    md = model(m9_push(), "tr", fault=["stuck", "5"], entry=[3, 4], shift=True)
    t = oled_text(md)
    assert "Tuş 5 takıldı" in t and "Toplar: 3 4 1_" in t
    assert digits_text(md) == "Err    5"


def test_rack_instruction_14_1():
    m = play(new("14.1", ("Ann", "Bob")), lag(0), shot(first=1, break_rails=2, cue_rail=True, rail=True),
             pot141(14))
    t = oled_text(model(m))
    assert "S10 Re-rack 14" in t
    assert "S10 14 topu diz" in oled_text(model(m, "tr"))


def test_controller_screens():
    from firmware.ui import Controller

    c = Controller(lang="tr", game="9ball")
    t = oled_text(c.model())
    assert t.startswith("Yeni maç") and ">Oyun: 9 top" in t
    n = len(c.model()["items"])
    for _ in range(n - 1):
        c.key("press", "8")
    c.key("press", "5")        # start
    md = c.model()
    assert md["mode"] == "lag"
    assert "Kura: kim açar?" in oled_text(md)
    c.key("press", "1")
    t = oled_text(c.model())
    assert "P1 açar" in t and "A=Girdi" in t


def test_8_9_ball_match_over_shows_fouls_and_break_and_runs():
    # C-S5 statistics at match over: each player's fouls over the match and the racks won from
    # the own break without a shot by the other player (break and run).
    from firmware.match import Match

    m = Match()
    for ev in (new("9ball", ("Ann", "Bob"), race=[2, 2]), lag(0),
               shot(first=1, pots=[9], break_rails=4, rail=True),        # Ann: 9 on the break
               shot(first=1, pots=[2], break_rails=4, rail=True),        # Ann breaks again
               shot(first=1, rail=True),                                # Ann misses
               shot(first=None, rail=True),                             # Bob fouls (G3)
               shot(first=1, pots=[9], rail=True)):                     # Ann: 9 in, match
        m.apply(ev)
    assert m.s["winner"] == 0, m.s  # pyright: ignore
    rows = oled_text(model(m)).split("\n")
    # Ann: the first rack from her break, the 9 on it; the second she broke, then Bob shot
    assert rows[4] == "N2 9 made", rows  # and why the match's last rack ended
    assert rows[5] == "Fouls      0   1" and rows[6] == "Brk&run    1   0", rows
    tr = oled_text(model(m, "tr")).split("\n")
    assert tr[5] == "Faul       0   1" and tr[6] == "Aç-bitir   1   0", tr


def _hints_row(md):
    lines, _, _ = views.render(md, "oled")
    return lines[-1]  # pyright: ignore[reportIndexIssue]


def test_key_hints_follow_their_hints_language_and_width_though_kept():
    # The hints' lines are kept from one render to the next (views._hint_lines): a change of
    # the hints (even in the same list), of the language or of the width still shows.
    hints = [["A", "made"], ["B", "miss"]]
    md = model(play(new("14.1", ("Ann", "Bob")), lag(0)), hints=hints)
    assert _hints_row(md) == "A=Made B=Miss"
    assert _hints_row(md) == "A=Made B=Miss"
    hints[1][1] = "foul"  # the same list, changed in place
    assert _hints_row(md) == "A=Made B=Foul"
    hints.append(["D", "undo"])
    assert views._hint_lines(md, 20) == ["A=Made B=Foul D=Undo"]
    assert views._hint_lines(md, 16) == ["A=Made B=Foul", "D=Undo"]
    md["lang"] = "tr"
    tr = _hints_row(md)
    assert tr.startswith("A=") and "Made" not in tr and "Foul" not in tr, tr


def test_10ball_push_out_the_T7_choice_and_the_rack_won_in_both_languages():
    from firmware import lang
    from firmware.ui import Controller

    for code in ("en", "tr"):
        c = Controller("keypad", code, "10ball")
        for k in "5 1 3 A".split():     # start, P1 breaks and pockets the 3 (T4)
            c.key("press", k)
        t = oled_text(c.model())
        assert lang.t(code, "push_ok") in t, t                     # T5
        assert lang.t(code, "lowest").format(1) in t and "4-10" in t, t   # the balls on the table (T1)
        for k in "1 B".split():          # the 1 in, not as called (T7): P2 chooses
            c.key("press", k)
        md = c.model()
        t = oled_text(md)
        assert md["state"]["pending"]["options"] == ["shoot", "pass"]
        for o in ("shoot", "pass"):
            assert lang.t(code, o) in t, t
        assert lang.t(code, o) in "\n".join(lcd_text(md))
        for k in "1 # 0 A".split():      # P2 shoots and makes the 10 as called (T2)
            c.key("press", k)
        end = "T2 " + lang.t(code, "end_T2")
        assert end in oled_text(c.model()) and end in "\n".join(lcd_text(c.model()))
        assert views.render(c.model(), "lcd16")
