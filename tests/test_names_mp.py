# mp: yes
# Real player names on the new-match screen: the club's roster (players.txt on the board), the
# last names used first, names typed on the keypad as on a phone, a saved name kept.
from firmware.store import Store, defaults
from firmware.table import Table
from firmware.ui import Controller
from tests.helpers import scratch_dir


def _store(roster=None):
    st = Store(scratch_dir("names"))
    if roster is not None:
        with open(st.root + "/players.txt", "wb") as f:
            f.write(roster)
    return st


def _keys(c, keys):
    for k in keys.split():
        if k[:5] == "long:":
            c.key("long", k[5:])
        else:
            c.key("press", k)


def _names(c, row):
    # Every name the row steps through with 6, from the one it shows, once around.
    c.cursor = row
    field = "p1" if row == 1 else "p2"
    first = c.cfg[field]
    seen = [first]
    for _ in range(100):
        c.key("press", "6")
        if c.cfg[field] == first:
            return seen
        seen.append(c.cfg[field])
    raise AssertionError("the names never came round: %r" % seen)


def test_the_roster_file_is_read_with_turkish_letters_and_bad_lines_left_out():
    long = "Abdurrahmanoğlu"  # 15 letters: more than a name holds (12)
    st = _store(b"\xef\xbb\xbfAy\xc5\x9fe\r\n\xc4\xb0smail \n\nBad \xff name\n"
                + long.encode() + b"\n\xc3\x87a\xc4\x9flar\nAy\xc5\x9fe\n\xc5\x9eule")
    names, bad = st.names()
    assert names == ["Ayşe", "İsmail", "Çağlar", "Şule"]  # order kept, the repeat once
    assert bad == [[3, "empty"], [4, "utf8"], [5, "long"]]
    assert st.names("none.txt") == ([], [])
    # a line of 20 KB (a file that is no roster) is skipped, never read whole into the heap
    with open(st.root + "/players.txt", "wb") as f:
        f.write(b"Ali\n")
        for _ in range(200):
            f.write(b"x" * 100)
        f.write(b"\nVeli")
    assert st.names() == (["Ali", "Veli"], [[2, "long"]])


def test_setup_steps_through_the_roster_and_says_how_many_lines_it_left_out():
    st = _store(b"Zehra\n\n\xc3\x96mer\nX\xff\n")
    c = Controller(table=Table(st))
    c.cursor = 1
    c.key("press", "6")
    assert c.cfg["p1"] == "Zehra" and c.msg == ["roster_bad", 2]
    assert _names(c, 1) == ["Zehra", "Ömer", "P1"]  # (P2 is player 2's: skipped)
    assert _names(c, 2) == ["P2", "Ömer", "P1"]  # (Zehra is player 1's)


def test_a_name_from_the_settings_is_kept_at_the_first_press_on_its_row():
    st = _store()
    cfg = defaults()
    cfg["p1"], cfg["p2"] = "Nurettin", "Gül"
    st.save_settings(cfg)

    c = Controller(table=Table(st))
    saved = st.load_settings()[0]
    assert saved is not None
    c.cfg.update(saved)  # (as firmware.app.new_controller does at boot)
    assert c.cfg["p1"] == "Nurettin"
    c.cursor = 1
    c.key("press", "6")
    c.key("press", "4")
    assert c.cfg["p1"] == "Nurettin"  # stepped away and back: still there
    assert "Nurettin" in _names(c, 1)


def test_the_last_names_used_come_first_at_the_next_match():
    st = _store(b"Ali\nBurak\nCan\nDeniz\n")
    c = Controller(table=Table(st))
    _keys(c, "8 6 6 6 8 6 6 6")  # player 1 Can, player 2 Deniz (Can is taken: skipped)
    assert (c.cfg["p1"], c.cfg["p2"]) == ("Can", "Deniz")
    c.start()
    assert c.mode == "lag"
    import sys

    assert "firmware.setup" not in sys.modules  # its names (the roster) with it
    assert st.names("recent.txt")[0] == ["Can", "Deniz"]
    c2 = Controller(table=Table(st))  # the next match's setup (the app starts one after a match)
    c2.cfg["p1"], c2.cfg["p2"] = "P1", "P2"
    assert _names(c2, 1)[:4] == ["P1", "Can", "Deniz", "Ali"]


def test_a_name_is_typed_on_the_keypad_with_turkish_letters():
    c = Controller()
    _keys(c, "8 *")
    assert c.mode == "name"
    # Ş: 7 five times; ü: 8 three times; k: 5 twice; r: 7 three times; ü again: 8 8 8
    _keys(c, "7 7 7 7 7 8 8 8 5 5 7 7 7 8 8 8")
    assert c.model()["items"][0][2] == "1: Şükrü"
    _keys(c, "0 4 4 4 4 4")  # a space, then the capital of "i" at a word's start: İ
    assert c.model()["items"][0][2] == "1: Şükrü İ"
    _keys(c, "B B 2 C * 2")  # İ and the space taken back; an a made a capital, then an a
    assert c.model()["items"][0][2] == "1: ŞükrüAa"
    _keys(c, "long:B 2 2 2 2 C")  # all taken back; a capital Ç made a small one
    assert c.model()["items"][0][2] == "1: ç"
    _keys(c, "D")
    assert c.mode == "setup" and c.cfg["p1"] == "P1"  # D: the old name stays
    _keys(c, "* 4 4 4 4 * 4 4 4 4 4 A")  # the capital I (dotless), then a small dotted i
    assert c.mode == "setup" and c.cfg["p1"] == "Ii" and c.cursor == 1


def test_a_typed_name_is_refused_when_empty_too_long_or_the_other_players():
    c = Controller()
    _keys(c, "8 * A")
    assert c.mode == "name" and c.msg == ["name_empty"]
    _keys(c, "7 * 2 * 7 * 2 * 7 * 2 * 7 * 2 * 7 * 2 * 7 * 2 *")
    assert c.model()["items"][0][2] == "1: Papapapapapa"
    _keys(c, "3")
    assert c.msg == ["name_full", 12]
    _keys(c, "long:B 7 * 2 A")  # "Pa" for player 1 ...
    assert c.cfg["p1"] == "Pa"
    c.cursor = 2
    _keys(c, "* 7 * 2 A")  # ... so player 2 may not be "Pa" too
    assert c.mode == "name" and c.msg == ["name_taken", "Pa"]
    _keys(c, "D")
    assert c.cfg["p2"] == "P2"


def test_the_new_event_says_the_language_on_screen_and_only_en_or_tr():
    from firmware import events

    c = Controller(lang="tr")
    c.key("press", "5")
    ev = c.match.log.event(0)
    assert ev["t"] == "new" and ev["lang"] == "tr"
    events.check(ev)
    bad = dict(ev)
    bad["lang"] = "de"
    try:
        events.check(bad)
    except events.BadEvent as e:
        assert "lang must be en or tr" in str(e)
    else:
        raise AssertionError("lang de was taken")
