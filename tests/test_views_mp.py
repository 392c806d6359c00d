# mp: yes
# Views under MicroPython too: render screen models of real matches and check the lines (no drivers).
from views_models import (
    m8_choice,
    m9_over,
    m9_push,
    m141_run,
    m141_two_fouls,
    model,
)

from firmware import views


def _text(lines):
    return "\n".join(lines)


def test_helpers():
    assert views.field("ab", 4) == "  ab" and views.field("abcde", 4) == "abcde"
    assert views.fit("Ann", "57/100", 12) == "Ann   57/100"
    assert views.fit("Abcdefghij", "5/5", 8) == "Abcd 5/5"
    assert views.wrap("Ball 12 not on table", 16) == ["Ball 12 not on", "table"]
    assert views.ranges([1, 3, 4, 5, 9, 10]) == "1 3-5 9 10"
    assert views.average(23, 12) == "1.92" and views.average(5, 0) == "0.00"
    assert views.average(2, 3) == "0.67"


def steps_every_oled_line_fits():
    # In steps (a match, then one render each): MicroPython collects garbage between them.
    for make in (m141_run, m141_two_fouls, m8_choice, m9_push, m9_over):
        m = make()
        yield
        for lg in ("en", "tr"):
            lines, big, inv = views.render(model(m, lg), "oled")
            assert len(lines) == 8  # pyright: ignore
            for x in lines:  # pyright: ignore
                assert len(x) <= 16, x
            yield
            for kind, w, h in (("lcd20", 20, 4), ("lcd16", 16, 2)):
                ll = views.render(model(m, lg), kind)
                assert len(ll) == h
                for x in ll:
                    assert len(x) <= w, x  # pyright: ignore
                yield
            digits = views.render(model(m, lg), "digits")
            assert len(digits.replace(".", "")) == 8  # pyright: ignore[reportAttributeAccessIssue]


def test_every_oled_line_fits():
    for _ in steps_every_oled_line_fits():
        pass


def steps_warning_after_second_foul_both_languages():
    m = m141_two_fouls()
    yield
    en = _text(views.render(model(m, "en"), "oled")[0])
    assert "WARNING Şükrü" in en and "F2!" in en and "2 fouls: 3rd -15" in en
    yield
    tr = _text(views.render(model(m, "tr"), "oled")[0])
    assert "UYARI Şükrü" in tr and "Faul G3 -1 puan" in tr


def test_warning_after_second_foul_both_languages():
    for _ in steps_warning_after_second_foul_both_languages():
        pass


def test_pending_choice_lists_keys():
    m = m8_choice()
    hints = [["A", "spot8"], ["B", "rerack"], ["D", "undo"]]
    lines = views.render(model(m, "tr", hints=hints), "oled")[0]
    t = _text(lines)
    assert "Gökhan seçer:" in t and "A=8 piramide" in t and "B=Yeniden diz" in t


def test_push_out_and_table_9ball():
    t = _text(views.render(model(m9_push()), "oled")[0])
    assert "Push out allowed" in t and "1 3 4 6-9" in t
