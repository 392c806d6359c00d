# The boot path on damaged flash: whatever the store holds (a damaged journal, /match a file, bad
# or huge settings), the board comes up with a screen that says what it found, keeps what it
# could not read, and the watchdog never resets it twice in a row (safe mode). And the settings:
# what the firmware writes is valid, every change made in the menu is saved, a settings file
# that can't be saved never makes a saved event say "Not saved".
import json
import os
from typing import Any

import pytest

from firmware import journal, views
from firmware.app import new_controller
from firmware.match import Match
from firmware.store import Store, validate
from tests.apprig import Rig
from tests.helpers import scratch_dir

KINDS = ("oled", "lcd20", "lcd16", "digits")


def _play(root, keys, game="14.1"):
    ctl = new_controller("keypad", "en", game, store=Store(root))
    for k in keys:
        ctl.key("press", k)
        ctl.table.after_screen()
    ctl.match.log.close()
    return ctl


def _141(root, n=14):
    # A 14.1 match: 5 1 B, then A B n times, each event's writing tidied.
    return _play(root, "5 1 B".split() + "A B".split() * n)


def _files(folder):
    out = {}
    for base, _, names in os.walk(folder):
        for n in names:
            p = os.path.join(base, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, folder)] = f.read()
    return out


def _texts(ctl, lang=None):
    # What each display kind shows for the controller's screen, as one string each.
    m = ctl.model()
    if lang:
        m["lang"] = lang
    out = {}
    for kind in KINDS:
        r: Any = views.render(m, kind)
        rows = r[0] if kind == "oled" else ([r] if kind == "digits" else r)
        if kind == "lcd16":  # its pages, which it turns by itself
            pages: Any = [views.render(m, kind, p) for p in range(4)]
            rows = [x for page in pages for x in page]
        w = {"oled": 16, "lcd20": 20, "lcd16": 16, "digits": 8}[kind]
        assert all(len(x) <= w for x in rows), (kind, rows)
        out[kind] = " ".join(rows)
    return out


# ---------------------------------------------------------------- finding 1: no boot loop

@pytest.mark.parametrize("exc", [journal.Damaged("journal: record 24 is unreadable"),
                                 OSError(5, "EIO"), MemoryError(), ValueError("bad")])
def test_a_journal_that_cannot_be_opened_is_kept_in_the_archive(monkeypatch, exc):
    # Whatever Journal.open raises, resume gives the new-match screen naming where the match
    # went, and the journal's files are all there, byte for byte, in hist/<n>.
    root = scratch_dir("keep")
    _141(root)
    before = _files(root + "/match")

    def boom(self):
        raise exc

    monkeypatch.setattr(journal.Journal, "open", boom)
    ctl = new_controller("keypad", "en", "14.1", store=Store(root))
    assert ctl.mode == "setup" and ctl.match.s is None
    assert ctl.msg == ["kept", "hist/1"]
    assert not os.path.exists(root + "/match")
    kept = _files(root + "/hist/1")
    why = kept.pop("damaged").decode()
    assert kept == before and type(exc).__name__ in why
    t = _texts(ctl)
    for kind in ("oled", "lcd20"):
        assert "Unreadable match" in t[kind] and "hist/1" in t[kind], t[kind]
    assert "Unreadable match kept: hist/1" in t["lcd16"], t["lcd16"]  # both rows, till a key
    assert t["digits"] == "JrnL bAd"
    assert "Okunamayan" in _texts(ctl, "tr")["oled"]
    monkeypatch.undo()
    # the next boot has nothing to resume, and a new match starts and saves
    ctl = new_controller("keypad", "en", "14.1", store=Store(root))
    assert ctl.mode == "setup" and ctl.msg is None
    ctl.key("press", "5")
    assert ctl.msg == ["started"] and len(ctl.match.log) == 1


def test_a_flipped_byte_in_a_record_file_boots_to_a_screen():
    # Byte 10 of match/e0/6 flipped: no exception; either a prefix of
    # the match is resumed and said, or the match is kept whole in the archive.
    root = scratch_dir("flip")
    a = _141(root)
    p = root + "/match/e0/6"
    with open(p, "rb") as f:
        b = bytearray(f.read())
    b[10] ^= 0x04
    with open(p, "wb") as f:
        f.write(b)
    ctl = new_controller("keypad", "en", "14.1", store=Store(root))
    if ctl.match.s is None:
        assert ctl.msg == ["kept", "hist/1"] and os.path.isdir(root + "/hist/1")
    else:
        n = len(ctl.match.log)
        assert n == 24  # records 0-23 read; record 24 is the one the flip broke
        ram = new_controller("keypad", "en", "14.1")  # the same keys, the match in RAM
        for k in "5 1 B".split() + "A B".split() * 14:
            ram.key("press", k)
        assert ram.match.s == a.match.s
        shown = Match()
        for ev in ram.match.events[:n]:
            shown.apply(ev, False)
        assert ctl.match.s == shown.s  # a state that was on screen
        assert ctl.msg[0] == "resumed" and ctl.msg[2] > 0  # pyright: ignore  # the loss said
    assert any(_texts(ctl).values())


def test_match_that_is_a_file_is_moved_aside_with_a_message():
    root = scratch_dir("mfile")
    with open(root + "/match", "wb") as f:
        f.write(b"not a folder")
    ctl = new_controller("keypad", "en", "14.1", store=Store(root))
    assert ctl.mode == "setup" and ctl.msg == ["kept", "match.bad"]
    with open(root + "/match.bad", "rb") as f:
        assert f.read() == b"not a folder"
    assert "match.bad" in _texts(ctl)["oled"]
    ctl.key("press", "5")  # a new match starts where the file was
    while ctl.table.store.due:  # (Start's steps: the app's passes)
        ctl.table.store.work()
    assert ctl.msg == ["started"] and os.path.isdir(root + "/match")


def test_a_match_that_reads_but_does_not_replay_is_kept(monkeypatch):
    root = scratch_dir("replay")
    _141(root, 3)
    from firmware import rules

    real = rules.apply

    def broken(s, ev):
        if ev["t"] == "shot":
            raise KeyError("x")
        return real(s, ev)

    monkeypatch.setattr(rules, "apply", broken)
    ctl = new_controller("keypad", "en", "14.1", store=Store(root))
    assert ctl.mode == "setup" and ctl.msg == ["kept", "hist/1"]


@pytest.mark.parametrize("where", ["load_settings", "resume", "new_controller", "App"])
def test_nothing_raised_at_boot_escapes_the_runner(monkeypatch, where):
    # Whatever raises while starting, Runner.__init__ gives the new-match screen naming it.
    import firmware.app as app
    import firmware.store as store

    root = scratch_dir("esc")
    _141(root, 2)

    def boom(*a, **kw):
        raise MemoryError("boom")

    if where == "App":
        real = app.App
        calls = []

        def once(*a, **kw):
            calls.append(1)
            if len(calls) == 1:
                raise MemoryError("boom")
            return real(*a, **kw)
        monkeypatch.setattr(app, "App", once)
    elif where == "new_controller":
        monkeypatch.setattr(app, "new_controller", boom)
    else:
        monkeypatch.setattr(store.Store, where, boom)
    rig = Rig("oled", "keypad", store=Store(root))
    rig.run(100)
    assert rig.ctl.mode == "setup"
    assert rig.ctl.msg == [["safe", "MemoryError"], ["kept", "hist/1"]]
    assert "Safe mode: MemoryError" in " ".join(map(str, rig.screen()))
    rig.press("5")  # Start works: the match that may have failed is out of the way
    assert rig.ctl.msg == ["started"]
    with open(root + "/booting") as f:
        assert f.read() == "MemoryError"  # named for the next boot


# ---------------------------------------------------------------- safe mode

class _Board:
    # A board on the host: Rig boots it on the store folder; a watchdog of 8 s is starved when
    # no healthy step feeds it that long (then the board resets: the next boot knows it).
    WDT_MS = 8000

    def __init__(self, root):
        self.root = root
        self.resets = 0  # watchdog resets in a row
        self.most = 0

    def boot(self, ms=15000):
        try:
            rig = Rig("oled", "keypad", error_ms=2000, store=Store(self.root),
                      wdt_reset=self.resets > 0)
        except Exception:  # noqa: BLE001 - escaped main.py: the REPL, then the watchdog
            return self._reset()
        last = rig.wdt.feeds
        quiet = 0
        while rig.now < ms:
            rig.run(100)
            if rig.wdt.feeds == last:
                quiet += 100
                if quiet >= self.WDT_MS:
                    return self._reset()
            else:
                quiet = 0
                last = rig.wdt.feeds
        self.resets = 0
        return rig

    def _reset(self):
        self.resets += 1
        self.most = max(self.most, self.resets)
        return None


def test_a_failure_that_repeats_across_resets_brings_up_safe_mode(monkeypatch):
    # A resumed match whose screen fails every time (soft restarts drop its events one by one,
    # the new event's screen fails too): the watchdog resets the board; the boot after it comes
    # up in safe mode naming the fault, the match kept in the archive, the new-match screen.
    root = scratch_dir("safe")
    a = _141(root, 3)
    real = views.render

    def broken(model, kind, page=0):
        if model.get("state") is not None:
            raise ValueError("bad screen")
        return real(model, kind, page)

    monkeypatch.setattr(views, "render", broken)
    board = _Board(root)
    assert board.boot() is None and board.resets == 1  # soft restarts, then the watchdog
    with open(root + "/booting") as f:
        assert f.read() == "ValueError"
    rig = board.boot()  # after the watchdog's reset: safe mode, healthy 15 s
    assert rig is not None and board.most == 1
    assert rig.ctl.mode == "setup"
    assert not os.path.exists(root + "/booting")  # healthy 3 s: the mark went
    # kept in the archive (less the newest events the soft restarts took back, as undos)
    assert 0 < journal.Journal(root + "/hist/1").open().depth <= len(a.match.log)
    monkeypatch.undo()
    again = _Board(root)
    again.resets = 1  # even after a watchdog reset: the mark was cleared, a plain boot
    rig = again.boot(ms=100)
    assert rig is not None and rig.ctl.msg is None


def test_safe_mode_screen_names_the_fault_on_every_display():
    root = scratch_dir("safe2")
    _141(root, 2)
    st = Store(root)
    st.booting()
    st.fault("MemoryError")  # the last boot's mark, with its fault
    rig = Rig("oled", "keypad", store=Store(root), wdt_reset=True)
    rig.run(100)
    ctl = rig.ctl
    assert ctl.msg == [["safe", "MemoryError"], ["kept", "hist/1"]]
    assert "Safe mode:" in " ".join(map(str, rig.screen()))
    t = _texts(ctl)
    for kind in ("oled", "lcd20"):
        assert "Safe mode: MemoryError" in t[kind], t[kind]
    assert "Safe mode" in t["lcd16"] and t["digits"] == "SAFE    "
    assert "Güvenli mod" in _texts(ctl, "tr")["oled"]


def test_a_power_cut_during_boot_is_not_a_fault():
    # The mark left by a boot cut short by the power (not the watchdog) brings no safe mode.
    root = scratch_dir("cold")
    a = _141(root, 3)
    Store(root).booting()  # a boot that never got healthy: the power went
    rig = Rig("oled", "keypad", store=Store(root))
    rig.run(100)
    assert rig.ctl.match.state() == a.match.state()


DAMAGES = ("flip", "cut", "delete", "garbage", "folder", "big")


def _damage(path, how):
    if how == "delete":
        os.remove(path)
        return
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    if how == "folder":
        os.mkdir(path)
        return
    if how == "flip":
        data = bytes([data[0] ^ 0x10]) + data[1:] if data else b"\x10"
    elif how == "cut":
        data = data[:len(data) // 2]
    elif how == "garbage":
        data = bytes(range(256)) * 2
    elif how == "big":
        data = b"[" + b"1," * 50000 + b"1]"
    with open(path, "wb") as f:
        f.write(data)


def test_no_damaged_file_makes_the_watchdog_reset_the_board_twice_in_a_row():
    # Every file and folder of a match with snapshots, a pack and settings, each damaged six
    # ways, booted as the board does (resets simulated on the same folder): never two watchdog
    # resets in a row, always a screen, the match resumed a prefix of itself or kept.
    base = scratch_dir("dmg-base")
    _play(base, "5 1 B A B".split())
    Store(base).fresh().close()  # that match to the archive: hist/1
    a = _play(base, "5 1 B".split() + "A B".split() * 30)  # 60+ events: snapshots, a pack
    from firmware.match import Match
    from host_tools.journal_read import read_journal

    ref = Match()
    shown = []  # the state after each prefix of the match
    for ev in read_journal(base + "/match").events:
        ref.apply(ev, False)
        shown.append(ref.state())
    assert ref.state() == a.match.state()
    paths = sorted(_files(base))
    assert any(p.startswith("match/p") for p in paths) and "settings.json" in paths
    folders = sorted({os.path.dirname(p) for p in paths if "/" in p} | {"match", "hist"})
    cases = 0
    for rel in paths + folders:
        for how in DAMAGES if rel in paths else ("delete", "big"):
            root = scratch_dir("dmg")
            import shutil

            shutil.rmtree(root)
            shutil.copytree(base, root)
            p = os.path.join(root, rel)
            if rel in folders:
                shutil.rmtree(p)
                if how == "big":
                    with open(p, "wb") as f:
                        f.write(b"x" * 5000)
            else:
                _damage(p, how)
            board = _Board(root)
            rig = board.boot(ms=4000)
            assert board.most == 0, (rel, how)  # (no reset at all)
            assert rig is not None
            ctl = rig.ctl
            if ctl.match.s is not None:
                assert ctl.match.state() == shown[len(ctl.match.log) - 1], (rel, how)
            assert any(rig.screen()), (rel, how)
            cases += 1
    assert cases == 6 * len(paths) + 2 * len(folders) and cases >= 70


# ---------------------------------------------------------------- settings (findings 4, 5, 13)

def test_every_setting_the_firmware_writes_is_valid():
    # bright is null on a board without a wall panel; every value the setup and menu can make.
    from firmware import setup

    root = scratch_dir("valid")
    st = Store(root)
    ctl = new_controller("keypad", "en", "14.1", store=st)
    assert ctl.cfg["bright"] is None
    seen = 0
    for field in ("game", "player1", "player2", "target1", "target2", "race1", "race2",
                  "break", "three_foul", "nine_on_break"):
        for _ in range(16):
            setup.change(ctl.cfg, field, 1)
            c = dict(ctl.cfg, lang=ctl.lang)
            assert st.save_settings(c)
            cfg, problem = st.load_settings()
            assert problem is None, (field, c)
            seen += 1
    for b in range(1, 16):
        assert validate({"bright": b})[1] is None
    assert validate({"bright": None}) == (validate({})[0], None)
    assert seen == 160


def test_bad_settings_are_named_on_every_screen_and_display():
    root = scratch_dir("named")
    st = Store(root)
    with open(st.settings_path, "w") as f:
        f.write(json.dumps({"game": "8ball", "r1": "seven"}))
    ctl = new_controller("keypad", "en", "14.1", store=st)
    assert ctl.mode == "setup" and ctl.msg == ["bad_settings", "r1"]
    t = _texts(ctl)
    for kind in ("oled", "lcd20", "lcd16"):
        assert "Bad setting: r1" in t[kind], (kind, t[kind])
    assert t["digits"] == "bAd  SEt"
    assert "Hatalı ayar: r1" in _texts(ctl, "tr")["oled"]
    # the menu shows a message too
    ctl.key("press", "5")
    ctl.key("press", "1")
    ctl.key("press", "#")
    ctl.key("press", "#")
    assert ctl.mode == "menu"
    ctl.msg = ["cfg_not_saved"]
    assert "Settings not saved" in _texts(ctl)["oled"]


def test_bad_settings_and_resumed_are_both_said_in_play():
    root = scratch_dir("both")
    a = _141(root, 2)
    st = Store(root)
    with open(st.settings_path, "w") as f:
        f.write(json.dumps({"t1": 0}))
    ctl = new_controller("keypad", "en", "14.1", store=st)
    assert ctl.match.state() == a.match.state()
    assert ctl.msg[0] == ["bad_settings", "t1"] and ctl.msg[1][0] == "resumed"  # pyright: ignore
    for kind in ("oled", "lcd20"):
        text = _texts(ctl)[kind]
        assert "Bad setting" in text and "Resumed" in text, (kind, text)


@pytest.mark.parametrize("bad", ["big", "huge", "folder", "utf8", "overlong", "surrogate",
                                 "control"])
def test_settings_files_that_are_not_what_the_firmware_writes_give_the_defaults(bad):
    root = scratch_dir("cfgbad")
    st = Store(root)
    p = st.settings_path
    if bad == "folder":
        os.mkdir(p)
        with open(p + "/x", "w") as f:
            f.write("kept")
    else:
        names = {"big": ("A" * 2100,), "huge": ("B" * 100000,), "utf8": (b"\xff",),
                 "overlong": (b"\xc0\xaf",), "surrogate": ("\\ud800",), "control": ("\\n",)}
        text = names[bad][0]
        if isinstance(text, bytes):
            data = b'{"p1": "' + text + b'x"}'
        elif bad in ("big", "huge"):
            data = json.dumps({"game": "9ball", "pad": text}).encode()
        else:
            data = ('{"p1": "' + text + 'x"}').encode()
        with open(p, "wb") as f:
            f.write(data)
    ctl = new_controller("keypad", "en", "14.1", store=st)
    assert ctl.cfg["p1"] == "P1" and ctl.cfg["game"] == "14.1"
    assert ctl.msg in (["bad_settings", "settings"], ["bad_settings", "p1"])
    ctl.key("press", "5")  # Start: the event counts, and the settings are saved
    assert ctl.msg == ["started"]
    while st.due:  # (Start's steps: the app's passes)
        assert st.work() is None
    assert st.load_settings() == (dict(validate({})[0], bright=None), None)
    if bad == "folder":
        with open(p + ".bad/x") as f:
            assert f.read() == "kept"


def test_a_settings_save_that_fails_does_not_say_the_event_was_not_saved():
    root = scratch_dir("nosave")
    st = Store(root)
    ctl = new_controller("keypad", "en", "14.1", store=st)
    os.mkdir(st.settings_path + ".new")  # the save's temporary name is taken: it fails
    ctl.key("press", "5")
    said = []
    while st.due:  # Start's steps, as the app's passes make them (App.step shows what they say)
        said.append(st.work())
    assert "cfg_not_saved" in said and "not_saved" not in said and ctl.match.s is not None
    ctl.match.log.close()
    again = new_controller("keypad", "en", "14.1", store=Store(root))
    assert len(again.match.log) == 1  # the new event was saved


def test_the_language_changed_in_the_menu_is_saved():
    root = scratch_dir("lang")
    ctl = new_controller("keypad", "en", "14.1", store=Store(root))
    for k in "5 1 # #".split():
        ctl.key("press", k)
    while ctl.model()["items"][ctl.cursor][0] != "lang":
        ctl.key("press", "8")
    ctl.key("press", "5")
    assert ctl.lang == "tr"
    assert Store(root).load_settings()[0]["lang"] == "tr"  # pyright: ignore
    ctl.match.log.close()
    assert new_controller("keypad", "en", "14.1", store=Store(root)).lang == "tr"


# ---------------------------------------------------------------- the resume message

def test_the_resume_message_names_the_last_action_on_every_display():
    root = scratch_dir("last")
    a = _play(root, "5 1 B A 3 A".split())  # P1 breaks dry, P2 makes one, then the 3
    ctl = new_controller("keypad", "en", "14.1", store=Store(root))
    n = len(a.match.log)
    assert ctl.msg == ["resumed", n, 0, [1, "made", "3"]]
    t = _texts(ctl)
    assert "Resumed %d ev., last: P2 Made 3" % n in t["oled"].replace(" ", " ") or \
        "last: P2 Made 3" in t["oled"], t["oled"]
    assert "Resumed %d ev., last: P2 Made 3" % n in t["lcd20"], t["lcd20"]
    assert "Resumed %d ev.," % n in t["lcd16"] and "last: P2 Made 3" in t["lcd16"], t["lcd16"]
    assert t["digits"] == "r" + str(n).rjust(4)
    assert "son: P2 Girdi 3" in _texts(ctl, "tr")["lcd16"]
    assert "son: P2 Girdi 3" in _texts(ctl, "tr")["oled"].replace("  ", " ")


def test_the_resume_message_states_losses():
    model = new_controller("keypad", "en", "14.1").model()
    model["state"] = None
    for lost, want, dig in ((2, "Resumed 76 ev., 2 lost", "r  76L 2"),
                            (-1, "Resumed 76 ev., lost: unknown", "r  76L--")):
        model["msg"] = ["resumed", 76, lost, [0, "foul", "G3"]]
        lines, short, _ = views._message(model, 200)  # pyright: ignore
        assert lines == [want + ", last: ? Foul G3"], lines
        assert short == "Res76-%s: ? Foul G3" % ("?" if lost < 0 else lost), short
        from firmware.views_digits import digits

        assert digits(model) == dig


def test_an_undo_last_says_so():
    root = scratch_dir("undo")
    _play(root, "5 1 B A D".split())
    ctl = new_controller("keypad", "en", "14.1", store=Store(root))
    assert ctl.msg[3] == [None, "undo", ""]  # pyright: ignore
    assert "last: Undo" in " ".join(views._message(ctl.model(), 200)[0])  # pyright: ignore


def test_the_host_reads_a_kept_match_and_says_why(monkeypatch):
    from host_tools.journal_read import read_journal, store_matches

    root = scratch_dir("hostread")
    a = _141(root, 3)

    def boom(self):
        raise journal.Damaged("journal: record 5 is unreadable")

    monkeypatch.setattr(journal.Journal, "open", boom)
    new_controller("keypad", "en", "14.1", store=Store(root))
    monkeypatch.undo()
    assert [n for n, _ in store_matches(root)] == ["hist-1"]
    got = read_journal(root + "/hist/1")
    assert len(got.events) == len(a.match.log) and got.stop is None
    assert any("record 5 is unreadable" in n for n in got.notes), got.notes


def test_a_journal_with_nothing_readable_is_kept_with_a_message():
    # Every record file garbage: Journal.open moves them aside and reads none; the board says
    # so and keeps the folder in the archive.
    root = scratch_dir("none")
    _play(root, "5 1 B".split())
    for base, _, names in os.walk(root + "/match"):
        for n in names:
            with open(os.path.join(base, n), "wb") as f:
                f.write(b"garbage\n" * 3)
    ctl = new_controller("keypad", "en", "14.1", store=Store(root))
    assert ctl.mode == "setup" and ctl.msg == ["kept", "hist/1"]
    assert os.path.exists(root + "/hist/1/damaged")


def test_a_stop_at_the_repl_is_not_a_fault():
    # Ctrl-C (mpremote) right after boot, then machine.reset() (a watchdog reset on rp2): the
    # next boot resumes the match, no safe mode.
    root = scratch_dir("repl")
    a = _141(root, 3)
    rig = Rig("oled", "keypad", store=Store(root))
    rig.run(50)

    def stop(now):
        raise KeyboardInterrupt

    rig.runner.app.step = stop
    with pytest.raises(KeyboardInterrupt):
        rig.run(10)
    assert not os.path.exists(root + "/booting")
    rig.ctl.match.log.close()
    b = Rig("oled", "keypad", store=Store(root), wdt_reset=True)
    b.run(50)
    assert b.runner.safe is None and b.ctl.match.state() == a.match.state()


@pytest.mark.parametrize("passes", [0, 5])
def test_a_ctrl_c_between_passes_or_while_booting_is_not_a_fault(passes):
    # app.run's loop stopped by Ctrl-C before its first pass or in its sleep between passes
    # (mpremote's, a deploy's, seconds after boot): the mark goes, so the reset that follows (a
    # watchdog reset on rp2, as machine.reset() is) resumes the match instead of safe mode.
    from firmware import app

    root = scratch_dir("ctrlc")
    a = _141(root, 3)
    rig = Rig("oled", "keypad", store=None)
    n = [0]

    def ticks():
        if not passes:  # before the first pass
            raise KeyboardInterrupt
        return n[0]

    def sleep(ms):
        n[0] += 1
        if n[0] >= passes:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        app.run(rig.hw, ticks, sleep, store=Store(root))
    assert not os.path.exists(root + "/booting")
    b = Rig("oled", "keypad", store=Store(root), wdt_reset=True)
    b.run(50)
    assert b.runner.safe is None and b.ctl.match.state() == a.match.state()
