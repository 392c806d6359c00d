# mp: yes
# The match journal on flash (firmware/journal.py): replay, undo of any depth, resume, torn and
# corrupted records. The store's part is in test_store_mp.py: a module of its own, so
# that each VM run holds less test code.
import os

from firmware import rules
from firmware.journal import Journal
from firmware.match import Match
from tests.helpers import ON_MP, UNDO, flip, long_141, scratch_dir


def _last(pairs):
    # Drive the pair to the end; the journal-backed match and the reference, as they end.
    last = (None, None)
    for pair in pairs:
        last = pair
    return last


def _pair(root, n, seed, undo_every=0):
    # A generated match played on a journal in root and on a reference match, in RAM under
    # CPython; under MicroPython (a 64 KB heap can't hold a long match in RAM, which is the
    # point of the journal) the reference is the generator's own match, on a second journal.
    # Yields both after each event.
    j = Match(Journal(root))
    r = Match(Journal(root + "ref")) if ON_MP else Match()
    for ev in long_141(n, seed, undo_every, m=r if ON_MP else None):
        if not ON_MP:
            r.apply(ev, False)
        j.apply(ev, False)
        yield j, r


def _reopened(root):
    m = Match(Journal(root).open())
    m.rebuild()
    return m


def test_journal_replays_like_ram_and_resumes_anywhere():
    root = scratch_dir("replay") + "/m"
    n = 0
    for j, r in _pair(root, 400, 3, 13):
        assert j.state() == r.state(), n
        # RAM holds the latest snapshot and fewer than 16 events after it (docs/contracts.md)
        assert len(j.log.lines) < 16 and len(j.log) == len(r.log)
        if n % 31 == 0:
            assert _reopened(root).state() == r.state(), n
        n += 1
    assert n >= 380


def test_undo_of_any_depth_reads_back_from_flash():
    root = scratch_dir("deep") + "/m"
    n = 120
    j, r = _last(_pair(root, n, 5))
    while len(r.log) > 1:
        r.apply(UNDO)
        j.apply(UNDO)
        assert j.state() == r.state(), len(r.log)
    # every undo is a record of its own: nothing was rewritten
    assert j.log.head == n + n - 1 - 1  # pyright: ignore
    assert _reopened(root).state() == r.state()


def test_resume_replays_fewer_than_16_events_at_any_length():
    root = scratch_dir("resume") + "/m"
    for _, r in _pair(root, 1000, 7, 50):
        if len(r.log) in (10, 100, 1000):
            m = _reopened(root)
            assert len(m.log.lines) < 16 and m.state() == r.state()


def _last_file(root):
    e = sorted(int(n[1:]) for n in os.listdir(root) if n[0] == "e")[-1]
    d = "%s/e%d" % (root, e)
    m = sorted(int(n) for n in os.listdir(d) if n.isdigit())[-1]
    return "%s/%d" % (d, m)


def test_torn_tail_is_cut_at_the_last_good_record_and_kept_aside():
    root = scratch_dir("torn") + "/m"
    j, r = _last(_pair(root, 42, 9))
    before = r.state()
    j.log.close()
    path = _last_file(root)
    with open(path, "ab") as f:
        f.write(b'42 43 e {"t":"shot","fir\xff\xff\xff')  # the power went mid-write
    jr = Journal(root).open()
    # no evidence of a record after the torn one: none counted lost, but the doubt is said
    assert jr.lost == 0 and jr.uncertain and jr.moved == [path + ".bad"]
    assert os.stat(path + ".bad")[6] > os.stat(path)[6]  # moved aside, not deleted
    m = Match(jr)
    m.rebuild()
    assert m.state() == before
    last = list(long_141(43, 9))[-1]
    m.apply(last, False)  # the match goes on after the cut
    r.apply(last, False)
    assert _reopened(root).state() == r.state()


def test_a_flipped_bit_in_the_last_records_is_detected():
    root = scratch_dir("flip") + "/m"
    states = []  # the last five
    j = None
    for j, r in _pair(root, 40, 11):  # noqa: B007 (j: the journal, after)
        states = states[-4:] + [r.state()]
    j.log.close()  # pyright: ignore[reportOptionalMemberAccess]
    path = _last_file(root)
    flip(path, -30)
    m = _reopened(root)
    assert m.log.uncertain and m.state() in states[:-1]


def test_a_flipped_bit_deep_in_the_journal_refuses_the_undo_that_needs_it():
    root = scratch_dir("deepflip") + "/m"
    j, r = _last(_pair(root, 60, 13))
    # records 40-43 (events 41-44, under the snapshot of 48 events), packed into p0 with the
    # folder's 48: a bit of record 41 flipped
    at = 0
    with open(root + "/p0", "rb") as f:
        for _ in range(41):
            at += len(f.readline())
    flip(root + "/p0", at + 20)
    for _ in range(12):  # down to the snapshot at 48: nothing older is read
        r.apply(UNDO)
        j.apply(UNDO)
        assert j.state() == r.state()
    kept = j.state()
    try:
        j.apply(UNDO)  # below 48: the snapshot at 32 and the events after it are read back
    except rules.Refused as e:
        assert (e.rule, e.key) == ("A11", "journal")
    else:
        raise AssertionError("the undo should be refused")
    assert j.state() == kept and len(j.log) == 48


def test_a_lost_snapshot_costs_replays_not_the_match():
    # The power went between an event and its snapshot: the window below is used instead.
    root = scratch_dir("nosnap") + "/m"
    j, r = _last(_pair(root, 40, 15))
    j.log.close()
    os.remove(root + "/s0/2")  # the snapshot after 32 events
    m = _reopened(root)
    assert m.state() == r.state() and len(m.log.lines) == len(r.log) - 16


def _on_flash(path):
    try:
        return os.stat(path)[6]  # its size
    except OSError:
        return None


def test_tidy_writes_what_a_record_leaves_for_later():
    # Journal.tidy: a window's snapshot (16 events), the next record's new file (every 4) and a
    # full folder's pack (48) are written after the record that brings them, when the app has
    # sent the event's screen. The record alone counts: reopened before it, the journal reads
    # the same match.
    root = scratch_dir("tidy") + "/m"
    for j, r in _pair(root, 49, 11):
        n = len(j.log)  # no undos: the records so far
        if n == 4:
            assert _on_flash(root + "/e0/1") is None
            j.log.tidy()
            assert _on_flash(root + "/e0/1") == 0  # made ahead, empty: holds no record
            assert _reopened(root).state() == r.state()
        if n == 16:
            assert _on_flash(root + "/s0/1") is None
            assert _reopened(root).state() == r.state()  # (16 more events replayed)
            j.log.tidy()
            assert _on_flash(root + "/s0/1")
            assert len(Journal(root).open().lines) == 0  # the snapshot is the base now
        if n == 48:
            assert _on_flash(root + "/p0") is None and _on_flash(root + "/e0/11")
            j.log.tidy()
            assert _on_flash(root + "/p0") and _on_flash(root + "/e0/11") is None
            assert _on_flash(root + "/e1/0") == 0  # the next folder, made ahead
        assert j.state() == r.state()
    assert _reopened(root).state() == r.state()
