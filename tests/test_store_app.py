# The scoreboard with its match on flash: a board that boots resumes the match with
# the same screen and says so, bad settings give defaults and name what was wrong, a flash that
# can't write refuses the shot without losing anything, a new match archives the last one.
import json

from firmware import journal, shotclock, views
from firmware.app import new_controller
from firmware.store import Store
from tests.helpers import scratch_dir

NINE = "1 A A A B C 0 C B A".split()  # after setup: P1 breaks, shots of all kinds


def _board(root, keys=(), game="9ball"):
    ctl = new_controller("keypad", "en", game, store=Store(root))
    for k in keys:
        ctl.key("press", k)
    return ctl


def _screen(ctl):
    lines, _, _ = views.render(ctl.model(), "oled")
    return lines


def test_a_power_cut_resumes_the_same_match_and_screen():
    root = scratch_dir("boot")
    a = _board(root, ["5"] + NINE)
    state, shown = a.match.state(), _screen(a)
    a.match.log.close()  # the power goes: nothing else is kept
    b = _board(root)
    assert b.match.state() == state and b.mode == a.mode == "play"
    assert b.msg[:3] == ["resumed", len(a.match.log), 0]  # pyright: ignore
    assert any("Resumed" in line for line in _screen(b))  # pyright: ignore
    b.key("press", "B")  # and it goes on: one more key, the message goes
    assert _screen(b)[:2] == shown[:2] or b.match.state() != state  # pyright: ignore


def test_a_blank_filesystem_starts_on_the_new_match_screen():
    ctl = _board(scratch_dir("blank"))
    assert ctl.mode == "setup" and ctl.msg is None and ctl.match.s is None


def test_settings_of_the_last_match_come_back_and_bad_ones_are_named():
    root = scratch_dir("cfg")
    a = _board(root, ["8", "6", "5"], game="8ball")  # player 1's name changed, then start
    name = a.cfg["p1"]
    assert name != "P1"
    a.match.log.close()
    st = Store(root)
    st.fresh().close()  # the match goes to the archive: the next boot shows the setup
    b = _board(root)
    assert b.mode == "setup" and b.cfg["p1"] == name and b.cfg["game"] == "8ball"
    with open(st.settings_path, "w") as f:
        f.write(json.dumps({"game": "8ball", "r1": "seven"}))
    c = _board(root)
    assert c.msg == ["bad_settings", "r1"] and c.cfg["r1"] == 5 and c.cfg["game"] == "8ball"


def test_a_flash_that_cannot_write_refuses_the_shot_and_loses_nothing(monkeypatch):
    root = scratch_dir("full")
    ctl = _board(root, ["5"] + NINE[:4])
    before = ctl.match.state()
    real = journal.Journal._write

    def full(self, depth, kind, payload):
        raise OSError(28, "no space left on device")

    monkeypatch.setattr(journal.Journal, "_write", full)
    ctl.key("press", "B")
    assert ctl.msg == ["not_saved"] and ctl.match.state() == before
    monkeypatch.setattr(journal.Journal, "_write", real)
    ctl.key("press", "B")
    after = ctl.match.state()
    assert after != before
    ctl.match.log.close()
    assert _board(root).match.state() == after


def test_a_new_match_archives_the_last_one():
    root = scratch_dir("arch")
    a = _board(root, ["5"] + NINE)
    n = len(a.match.log)
    for k in ("#", "#"):  # the menu: New match, twice to confirm, then start
        a.key("press", k)
    while a.model()["items"][a.cursor][0] != "newmatch":
        a.key("press", "8")
    a.key("press", "5")
    a.key("press", "5")
    assert a.mode == "setup"
    a.key("press", "5")
    while a.table.store.due:  # the archive, a step a pass of the app
        a.table.store.work()
    st = Store(root)
    assert st.archived() == [1]
    old = journal.Journal(st.hist + "/1").open()
    assert len(old) == n
    old.close()


def test_the_host_reads_a_long_journal_back_packs_and_all():
    # host_tools.journal_read (scoresheets, pulling records) reads what the board wrote: the
    # packed folders of 64 records and the files after them, undos taken out.
    from firmware.match import Match
    from host_tools.journal_read import read_journal
    from tests.helpers import long_141

    root = scratch_dir("long") + "/m"
    m = Match(journal.Journal(root))
    ref = Match()
    for ev in long_141(300, seed=4, undo_every=11):
        m.apply(ev, False)
        ref.apply(ev, False)
    m.log.close()
    got = read_journal(root)
    assert got.stop is None and got.events == ref.events and got.undos > 20


def test_a_soft_restart_after_an_error_resumes_from_the_journal():
    from tests.apprig import Rig

    root = scratch_dir("soft")
    rig = Rig("oled", "keypad", game="9ball", error_ms=100, store=Store(root))
    rig.keys("5 1 A B A")
    before = rig.ctl.match.state()
    log = rig.ctl.match.log
    log.lines.append("{not json")  # RAM spoiled: what the restart must not trust

    def boom(kind, name):
        raise RuntimeError("boom")

    rig.ctl.key = boom
    rig.press("A", hold=40, settle=0)  # the key acts 5 ms in; the error shows for 100 ms
    assert rig.runner.error == "RuntimeError"
    rig.run(300)
    assert rig.runner.error is None and rig.runner.restarts == 1
    assert rig.ctl.match.state() == before  # read back from flash, not from the spoiled RAM
    assert any("Resumed" in row for row in rig.screen())


def test_a_power_cut_brings_the_shot_clock_back_paused_with_the_time_of_the_last_record():
    # K6, C-K1: the profile and the extensions used are in the journal's events; the running
    # time is not, and the board can't know how long the power was off: the shot comes back
    # paused with the whole time it had at the last record, and the pause key resumes it.
    root = scratch_dir("clock")
    a = new_controller("keypad", "en", "9ball", store=Store(root))
    a.cfg["clock"] = "tv"
    for k in "5 1 # 6".split():
        a.key("press", k)
    a.tick(4000)
    a.key("press", "B")                  # a dry break: P2 has the first shot's 60 s (K5)
    a.tick(10000)
    a.key("press", "#")
    a.key("press", "8")                  # P2's extension: 54 + 30
    assert a.model()["clock"] == [84, True, 1, 0]
    a.tick(30000)
    a.match.log.close()                  # the power goes at 64 s left
    b = new_controller("keypad", "en", "9ball", store=Store(root))
    assert b.match.clock() == shotclock.PROFILES["tv"] and b.match.exts(1) == 0
    # the shot's record: 60 s, and the extension's 30 (the time gone before it is not known)
    assert b.model()["clock"] == [90, False, 1, 0]
    b.tick(500000)
    assert b.model()["clock"] == [90, False, 1, 0]        # (no time goes while paused)
    b.key("press", "#")
    b.key("press", "6")                  # the referee resumes it
    b.tick(501000)
    assert b.model()["clock"] == [89, True, 1, 0]
    assert any("Ext1   89   Ext0" in ln for ln in _screen(b)), _screen(b)  # pyright: ignore
    b.key("press", "#")
    b.key("press", "8")
    assert b.msg[:2] == ["refused", "K3"]                 # the extension stays used
