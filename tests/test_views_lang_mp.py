# mp: yes
# Views under MicroPython, the second part (a module of its own, so that each VM run of these
# tests holds less test code): the LED digits, and the texts of both languages.
from views_models import BREAK_141, FOUL, m9_push, m141_run, model

from firmware import lang, views
from tests.builders import lag, new, play


def steps_digits():
    assert views.render(model(m141_run()), "digits") == "   2  9. "
    yield
    assert views.render(model(m9_push()), "digits") == "  0.-- 0 "
    yield
    m = play(new("14.1", ("Ann", "Bob")), lag(0), BREAK_141, FOUL)
    assert views.render(model(m), "digits") == "   0. -1_"


def test_digits():
    for _ in steps_digits():
        pass


def steps_lang_has_every_text_both_ways():
    # In steps of 20 keys: each lookup makes a little garbage, collected between steps.
    from firmware.refusals import MESSAGES
    for k in MESSAGES:
        assert lang.has("r_" + k), k
    yield
    en = lang.keys("en")
    yield
    assert lang.keys("tr") == en
    yield
    for code in lang.LANGS:
        for i, k in enumerate(en):
            assert lang.t(code, k) and lang.t(code, k) != k, (code, k)
            if i % 20 == 0:
                yield
    assert lang.t("tr", "no such key") == "no such key"


def test_lang_has_every_text_both_ways():
    for _ in steps_lang_has_every_text_both_ways():
        pass


def test_only_the_language_on_screen_is_loaded():
    import sys

    import firmware

    assert lang.t("tr", "made") == "Girdi"
    assert lang.t("en", "made") == "Made"
    for name in ("lang_en", "lang_tr"):  # the text is kept; the modules are let go
        assert "firmware." + name not in sys.modules and name not in firmware.__dict__
    assert lang.t("xx", "made") == "Made"  # an unknown language shows English


def test_the_english_text_is_bytes_and_its_texts_come_out_as_str():
    # English is kept as UTF-8 bytes (found and sliced by offsets: fast lookups); its texts,
    # the one beyond ASCII too, come out as str like the Turkish ones.
    assert isinstance(lang.texts("en"), bytes)  # (not held: Turkish replaces it next, as on
    # a board, where only the language on screen is in RAM)
    for code in lang.LANGS:
        assert lang.t(code, "v_tr") == "Türkçe" and lang.t(code, "v_en") == "English"
        assert lang.has("v_tr", code)
    assert lang.t("en", "made") == "Made" and isinstance(lang.t("en", "mode_rackq"), str)
