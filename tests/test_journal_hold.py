# A key's records written after its screens (Journal.hold, commit(); firmware/app.py App.step
# through Controller.saved and Table.after_screen): the screens mark them unsaved ("*" in the
# last column of the top row), and the display is drawn again without the mark in the same pass;
# held records are seen by len, records(), action() and undo, and close() writes them; a power cut
# between the screen and the write resumes at the last record written; a cut at every byte of the
# deferred writes, and at every erase and program of them on the emulated NOR flash under
# littlefs, resumes before or after the action.
import json

import pytest

from firmware import journal, rules, views
from firmware.match import Match
from firmware.store import Store
from tests.apprig import Rig, start
from tests.helpers import long_141, scratch_dir
from tests.test_journal_torn import FILLS, MemFS, mounted

MADE = {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True}
MISS = {"t": "shot", "first": 1, "rail": True}


def _held_match(root, n=20):
    m = Match(journal.Journal(root))
    m.log.hold = True
    for ev in long_141(n, seed=5):
        m.apply(ev, False)
        m.log.commit()
        m.log.tidy()
    return m


def _reopened(root):
    # What a boot finds on flash now (the journal object in RAM left as it is: a power cut).
    m = Match(journal.Journal(root).open())
    m.rebuild()
    return m


def test_held_records_are_seen_by_len_records_action_and_undo_and_written_by_commit():
    root = scratch_dir("hold")
    m = _held_match(root)
    j = m.log
    assert isinstance(j, journal.Journal)
    head, n = j.head, len(j)
    saved = m.state()
    m.apply_all([MADE, MISS])  # one action of two events (the records say more follows)
    assert j.held == 2 and j.head == head and len(j) == n + 2 and m.unsaved() == 2
    recs = list(j.records(head - 1, head + 3))
    assert [r[0] for r in recs] == [head - 1, head, head + 1, head + 2]
    assert recs[2][1:3] == (n + 1, "g") and recs[3][1:3] == (n + 2, "e")
    assert json.loads(recs[2][3]) == MADE
    assert j.action() == 2  # (read from the held records' kinds)
    assert _reopened(root).state() == saved  # nothing on flash yet: a power cut loses the action
    m.undo_action()  # A11: both taken back, as two more held records
    assert j.held == 4 and m.state() == saved and len(j) == n
    j.commit()
    assert j.held == 0 and j.head == head + 4 and m.unsaved() == 0
    back = _reopened(root)
    assert back.state() == saved and len(back.log) == n


def test_an_undo_below_the_snapshot_reads_held_records_and_close_writes_them():
    # The 16th event's record held, its window's snapshot waiting for it; an undo goes below
    # the window: it reads the snapshot under it and the held records, and the snapshot never
    # to be valid is not written.
    root = scratch_dir("hold16")
    m = _held_match(root, 15)
    j = m.log
    assert isinstance(j, journal.Journal)
    before = m.state()
    m.apply(MISS, False)
    assert len(j) == 16 and j.held == 1 and j.base()[1] == 16
    m.undo()
    assert j.held == 2 and m.state() == before and j.base()[1] < 16
    m.apply(MADE, False)
    after = m.state()
    j.close()  # the match let go: what it held is written first
    assert j.held == 0
    back = _reopened(root)
    assert back.state() == after and back.log.lost == 0


def test_a_power_cut_between_the_screen_and_the_write_resumes_at_the_last_record_written():
    # What the "*" on the screen says: that key's action is not on flash yet. A cut then resumes
    # the match as of the last record written, and nothing tells of the key (no evidence of it
    # was written: that would cost the flash write before the screen that holding avoids).
    root = scratch_dir("window")
    m = _held_match(root)
    saved, n = m.state(), len(m.log)
    m.apply(MADE, False)
    shown = views.render({"mode": "play", "lang": "en", "match": m, "state": m.state(),
                          "entry": [], "shift": False, "msg": None, "hints": [], "items": [],
                          "cursor": 0, "fault": None}, "lcd20")
    assert isinstance(shown, list) and str(shown[0]).endswith("*")
    back = _reopened(root)
    assert back.state() == saved and len(back.log) == n and back.log.lost == 0
    assert not back.log.uncertain


def test_slots_full_write_the_held_records_first():
    root = scratch_dir("full")
    m = _held_match(root, 4)
    j = m.log
    assert isinstance(j, journal.Journal)
    head = j.head
    for _ in range(8):
        m.apply(MISS, False)
    assert j.held == 8 and j.head == head
    m.apply(MISS, False)  # no slot left: the eight are written, the ninth held
    assert j.held == 1 and j.head == head + 8
    assert _reopened(root).state() != m.state()


def _rig(kind, root):
    rig = Rig(kind, store=Store(root))
    shows = []
    real = rig.hw.display.show

    def show(*a, **kw):
        log = rig.ctl.match.log
        shows.append((rig.now, [str(x) for x in a[0]], getattr(log, "held", 0)))
        return real(*a, **kw)

    rig.hw.display.show = show  # pyright: ignore[reportAttributeAccessIssue]
    return rig, shows


@pytest.mark.parametrize("kind,row", [("lcd20", 0), ("lcd16", 0), ("oled", 2)])
def test_the_screen_marks_the_key_unsaved_then_draws_it_again_without_the_mark(kind, row):
    # Each key in play: its screen first, with "*" in the last column of the top row (the
    # OLED's: the row under its double-size scores) while its record is held; then, in the same
    # loop pass, the record written and the display drawn again without the mark.
    root = scratch_dir("mark" + kind)
    rig, shows = _rig(kind, root)
    start(rig)
    for k in "A B A C B".split():
        del shows[:]
        before = rig.ctl.match.log.head
        rig.press(k)
        marked = [s for s in shows if s[2]]
        assert marked, (k, shows)
        first = marked[0]
        assert first[1][row][-1] == "*", (k, first[1])
        nxt = shows[shows.index(first) + 1]
        assert nxt[0] == first[0]  # the same pass
        assert nxt[2] == 0 and nxt[1][row][-1:] != "*", (k, nxt[1])
        assert rig.ctl.match.log.head > before
        # (the row's text is kept: its gap gives the mark its column)
        assert first[1][row][:-1].split() == nxt[1][row].split(), (first[1][row], nxt[1][row])
        fresh = views.render(rig.ctl.model(), kind)  # (what a render now gives: no mark)
        assert nxt[1] == [str(x) for x in (fresh[0] if isinstance(fresh, tuple) else fresh)]


def test_a_write_that_fails_after_the_screen_says_not_saved_and_keeps_the_match_as_on_flash(
        monkeypatch):
    root = scratch_dir("fail")
    rig, shows = _rig("lcd20", root)
    start(rig)
    rig.press("A")
    before = rig.state()
    head = rig.ctl.match.log.head

    def full(self, depth, kind, payload):
        raise OSError(28, "no space left on device")

    real = journal.Journal._write
    monkeypatch.setattr(journal.Journal, "_write", full)
    rig.press("A")
    assert rig.ctl.msg == ["not_saved"] and rig.state() == before
    assert rig.ctl.match.log.head == head and rig.ctl.match.unsaved() == 0
    assert not shows[-1][1][0].endswith("*")
    monkeypatch.setattr(journal.Journal, "_write", real)
    rig.press("A")
    assert rig.state() != before and rig.ctl.match.log.head == head + 1


# ---------------------------------------------------------------- power cuts in the deferred write

def _steps(m, n, seed):
    # The actions of a 14.1 match on m (its journal holding): its events one at a time
    # (long_141), and between them two-event actions (as a rack won by the player not at the
    # table) and undos of the last action; yields after each, its records held.
    k = 0
    for _ in long_141(n, seed=seed, m=m):
        yield
        k += 1
        if k > 4 and k % 9 == 0:
            try:
                m.apply_all([MISS, MISS])
            except rules.Refused:  # (a choice pending after the first: the match as it was)
                continue
            yield
        if k > 6 and k % 7 == 0:
            m.undo_action()
            yield


def test_power_cut_at_every_byte_of_the_deferred_writes():
    # As the app does: an action's records held, then written after its screen (commit, then
    # tidy); every write torn at every byte resumes the state before or after that action.
    fs = MemFS()
    writes = []
    now = {"i": 0}

    def hook(fs, path, data):
        writes.append((dict(fs.files), set(fs.dirs), path, data, now["i"]))

    states = []
    with mounted(fs):
        m = Match(journal.Journal("m"))
        m.log.hold = True
        fs.hook = hook  # pyright: ignore
        states.append(json.dumps(m.state()))
        n = 0
        for i, _ in enumerate(_steps(m, 160, 7)):
            assert len(writes) == n  # nothing written before the screen
            now["i"] = i
            m.log.commit()
            m.log.tidy()
            n = len(writes)
            states.append(json.dumps(m.state()))
    cuts = 0
    for files, dirs, path, data, i in writes:
        old = files.get(path, b"")
        for b in range(0, len(data), 7):
            torn = MemFS(files, dirs)
            torn.files[path] = old + data[:b] + FILLS[(b + i) % 3](len(data) - b)
            with mounted(torn):
                r = Match(journal.Journal("m").open())
                r.rebuild()
            assert json.dumps(r.state()) in (states[i], states[i + 1]), (i, path, b)
            cuts += 1
    assert cuts > 1500


def test_power_cut_at_every_flash_operation_of_the_deferred_writes():
    # The same on littlefs on the emulated NOR flash: every erase and program cut (and every
    # program torn half-way) resumes the state before or after the action in flight; holding
    # writes nothing, so a cut between an action's screen and its write resumes before it.
    from host_tools import norflash
    from host_tools.norflash import installed

    nor, fs = norflash.new_fs(128)
    image = bytes(nor.buffer)
    nor.log = []  # pyright: ignore
    ends = [0]
    states = ["null"]
    with installed(fs):
        m = Match(Store("").fresh())
        m.log.hold = True
        m.log.tidy()  # (its first file, made ahead)
        n = nor.ops
        for _ in _steps(m, 220, 11):
            assert nor.ops == n  # the window: nothing on flash
            m.log.commit()
            m.log.tidy()
            n = nor.ops
            ends.append(n)
            states.append(json.dumps(m.state(), sort_keys=True))
        m.log.close()
    done = 0
    hit = {"before": 0, "after": 0}
    for n, how, img in norflash.cuts(image, nor.log):  # pyright: ignore
        while done + 1 < len(ends) and ends[done + 1] <= n:
            done += 1
        _, fs2 = norflash.mount(img)
        with installed(fs2):
            j = Store("").resume()
            got = "null"
            if j is not None:
                r = Match(j)
                r.rebuild()
                got = json.dumps(r.state(), sort_keys=True)
        assert got in states[done:done + 2], (n, how, done)
        hit["before" if got == states[done] else "after"] += 1
    assert hit["before"] and hit["after"]
