# mp: yes
# The store (firmware/store.py) on the board's filesystem: a blank one starts cleanly, finished
# matches are archived with the oldest going first, settings are validated.
import json

from firmware.journal import Journal
from firmware.match import Match
from firmware.store import Store, validate
from tests.helpers import long_141, scratch_dir


def test_store_blank_filesystem_starts_cleanly_and_archives_old_matches():
    st = Store(scratch_dir("store"))
    assert st.resume() is None and st.archived() == []
    for k in range(23):
        m = Match(st.fresh())
        while st.due:  # the pruning, a step at a time (the app's passes)
            st.work()
        for ev in long_141(3 + k % 4, k):
            m.apply(ev, False)
        m.log.close()
        resumed = st.resume()
        assert resumed is not None and len(resumed) == len(m.log)
        resumed.close()
    nums = st.archived()
    assert len(nums) == 20 and nums[0] == 3 and nums[-1] == 22  # the oldest went first


def test_settings_are_validated_and_a_bad_file_names_what_was_wrong():
    st = Store(scratch_dir("settings"))
    assert st.load_settings() == (None, None)  # none yet
    cfg, problem = validate({})
    assert problem is None and cfg["game"] == "14.1"
    cfg["p1"], cfg["lang"], cfg["t1"] = "Ayşe", "tr", 150
    st.save_settings(cfg)
    assert st.load_settings() == (cfg, None)
    with open(st.settings_path, "w") as f:
        f.write(json.dumps({"game": "snooker", "p1": "Ali"}))
    cfg, problem = st.load_settings()
    assert problem == "game" and cfg["game"] == "14.1" and cfg["p1"] == "Ali"
    with open(st.settings_path, "w") as f:
        f.write("{not json")
    assert st.load_settings()[1] == "settings"
    assert validate({"p1": "A", "p2": "A"})[1] == "p2"
    assert validate({"t1": True})[1] == "t1" and validate({"r1": 0})[1] == "r1"


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def test_a_match_that_is_a_file_or_unreadable_is_kept_and_never_raises():
    import os

    from firmware import journal

    st = Store(scratch_dir("keep"))
    _write(st.cur, b"not a folder")  # os.listdir fails (OSError 20 on littlefs)
    assert st.resume() is None and st.kept == "match.bad"
    assert _read(st.root + "/match.bad") == b"not a folder"
    m = Match(st.fresh())
    for ev in long_141(20, 1):
        m.apply(ev, False)
    m.log.close()
    real = journal.Journal.open
    for exc in (journal.Damaged("record 3"), MemoryError(), OSError(5)):
        def boom(self, exc=exc):
            raise exc
        journal.Journal.open = boom
        try:
            assert st.resume() is None
        finally:
            journal.Journal.open = real
        n = st.kept
        assert n is not None and n.startswith("hist/")
        assert _read(st.root + "/" + n + "/damaged").decode().startswith(type(exc).__name__)
        back = Journal(st.root + "/" + n).open()  # intact: it reads as it did
        assert len(back) == len(m.log)
        back.close()
        os.rename(st.root + "/" + n, st.cur)  # (put back for the next kind of failure)
        os.remove(st.cur + "/damaged")


def test_settings_the_firmware_did_not_write_give_the_defaults_never_an_error():
    import os

    st = Store(scratch_dir("cfg2"))
    assert validate({"bright": None}) == (validate({})[0], None)  # no wall panel
    with open(st.settings_path, "wb") as f:  # a valid file of 100 KB, in pieces
        f.write(b'{"p1": "')
        for _ in range(100):
            f.write(b"x" * 1024)
        f.write(b'"}')
    assert st.load_settings() == (validate({})[0], "settings")
    for bad in (b'{"p1": "\xc0\xafx"}', b'{"p1": "\xffx"}', b'{"p1": "\xed\xa0\x80"}',
                b'{"p1": "\\ud800"}', b'{"p1": "a\\nb"}'):
        _write(st.settings_path, bad)
        cfg, problem = st.load_settings()
        assert problem in ("settings", "p1") and cfg["p1"] == "P1", bad  # pyright: ignore
    _write(st.settings_path, '{"p1": "Ayşe", "p2": "Gül"}'.encode())
    assert st.load_settings()[1] is None  # (real UTF-8 is fine)
    os.remove(st.settings_path)
    os.mkdir(st.settings_path)  # a folder of that name: moved aside, then saving works
    assert st.load_settings() == (validate({})[0], "settings")
    assert st.save_settings(validate({})[0]) and st.load_settings()[1] is None
    os.mkdir(st.settings_path + ".new")
    assert st.save_settings(validate({})[0]) is False  # never raises


def test_the_boot_mark_names_the_fault_until_the_boot_is_healthy():
    st = Store(scratch_dir("mark"))
    assert st.booting() is None  # the first boot: none
    st.fault("MemoryError")
    assert st.booting() == "MemoryError"  # the next boot finds it (and marks itself)
    assert st.booting() == ""  # that one named no fault
    st.healthy()
    assert st.booting() is None
