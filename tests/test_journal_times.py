# mp: yes
# The times on the match records (firmware/journal.py layout 4, firmware/rtc.py): record 0 holds
# the board's time, the others the seconds since it, in base 36 after the kind; a clock never set
# gives no time at all; older layouts read as before, without times.
import os

from firmware import journal
from firmware.journal import Journal
from firmware.match import Match
from tests.helpers import break_141_ok, break_dry, lag, new, scratch_dir, shot
from tests.test_rtc import PICO_BOOT, SET, clock_at, clock_back


def _b36(n):
    out = ""
    while True:
        out = "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36] + out
        n //= 36
        if not n:
            return out


def _file(root, name):
    with open(root + "/" + name, "rb") as f:
        return f.read()


EVS = [new("9ball", race=[3, 3]), lag(0), break_dry(), shot(first=1)]


def _play(root, times, evs=EVS):
    # The events applied on a journal in root, each at its time (None: the clock never set).
    m = Match(Journal(root))
    for ev, t in zip(evs, times):
        clock_at(PICO_BOOT if t is None else t)
        m.apply(ev)
    m.log.close()
    return m


def test_record_0_holds_the_time_and_the_others_the_seconds_since():
    root = scratch_dir("jt_set")
    try:
        _play(root, [SET, SET + 40, SET + 75, SET + 1300] + [SET + 1330, SET + 1340],
              EVS + [shot(first=1), shot(first=1)])
        lines = _file(root, "e0/0").split(b"\n")
        assert lines[0].startswith(b"0 1e" + _b36(SET).encode() + b"{")
        assert lines[1].startswith(b"1 2e14{")  # 40 s since record 0: "14" in base 36
        assert lines[3].startswith(b"3 4e104{")  # 1300 s
        lines = _file(root, "e0/1").split(b"\n")  # the next file: record 4 counts from 0,
        assert lines[0].startswith(b"4 5e10y{")  # 1330 s
        assert lines[1].startswith(b"5 6ea{")  # 5 from 4: 10 s
        assert _file(root, "fmt") == journal._fmt_line(4)
        j = Journal(root).open()
        recs = list(j.records(0, 6))
        assert [r[4] for r in recs] == [SET, 40, 75, 1300, 1330, 10]
        assert [j.at(r) for r in recs] == [SET, SET + 40, SET + 75, SET + 1300, SET + 1330,
                                           SET + 1340]
        j.close()
    finally:
        clock_back()


def test_a_clock_never_set_gives_records_without_a_time():
    root = scratch_dir("jt_unset")
    try:
        m = _play(root, [None, None, None, None])
        lines = _file(root, "e0/0").split(b"\n")
        assert lines[0].startswith(b"0 1e{") and lines[2].startswith(b"2 3e{")
        j = Journal(root).open()
        assert [j.at(r) for r in j.records(0, 4)] == [None] * 4
        again = Match(j)
        again.rebuild()
        assert again.state() == m.state()  # (the same match, read back)
        j.close()
    finally:
        clock_back()


def test_a_match_begun_before_the_clock_was_set_gets_its_own_times():
    # (NTP answered after the match began, or a match resumed after a power cut on a board
    # whose clock went back to 2021: the records then count from none, or from record 0)
    root = scratch_dir("jt_later")
    try:
        _play(root, [None, None, SET, SET + 30])
        j = Journal(root).open()
        recs = list(j.records(0, 4))
        assert [r[4] for r in recs] == [None, None, SET, SET + 30]  # (record 0 without one)
        assert [j.at(r) for r in recs] == [None, None, SET, SET + 30]
        j.close()
    finally:
        clock_back()


def _resumed(root, t, ev):
    # The journal at root resumed with the board's clock at t, ev applied and closed; its last
    # record read back, and that record's time (Journal.at).
    clock_at(t)
    m = Match(Journal(root).open())
    m.rebuild()
    m.apply(ev)
    m.log.close()
    j = Journal(root).open()
    r = list(j.records(len(j) - 1, len(j)))[0]
    at = j.at(r)
    j.close()
    return r, at


def test_a_resumed_journal_counts_from_record_0_and_a_clock_gone_back_writes_its_own():
    root = scratch_dir("jt_resume")
    try:
        _play(root, [SET, SET + 10], EVS[:2])
        clock_at(SET + 500)
        m = Match(Journal(root).open())
        m.rebuild()
        m.apply(EVS[2])
        _resumed(root, PICO_BOOT, EVS[3])  # a power cut: the Pico's clock at 2021, never set
        j = Journal(root).open()
        assert [r[4] for r in j.records(0, 4)] == [SET, 10, 500, None]  # (2: from record 0)
        j.close()
        r, at = _resumed(root, SET - 100, shot(first=1))  # a clock set before the match's
        assert r[4] == SET - 100 and at == SET - 100  # start: its own time, not a delta
        r, at = _resumed(root, SET + 700, shot(first=1))  # counts from record 4, its file's first
        assert r[4] == 800 and at == SET + 700
    finally:
        clock_back()


def test_a_pack_keeps_the_times():
    root = scratch_dir("jt_pack")
    try:
        m = Match(Journal(root))
        clock_at(SET)
        m.apply(new("14.1", target=[150, 150]))
        m.apply(lag(0))
        for i in range(52):
            clock_at(SET + 20 * i + 20)
            m.apply(break_141_ok() if i == 0 else shot(first=1, rail=True))
        m.log.tidy()
        m.log.close()
        assert "p0" in os.listdir(root)
        j = Journal(root).open()
        want = SET + 20
        for r in j.records(2, 54):  # (a line at a time from the pack p0, then e1/)
            assert j.at(r) == want, (r, want)
            want += 20
        assert want == SET + 20 * 53
        j.close()
    finally:
        clock_back()


def test_older_layouts_read_without_times():
    # A layout-3 journal (records "SEQ DEPTH KIND PAYLOAD CRC" without a time) reads as written.
    root = scratch_dir("jt_old")
    os.mkdir(root + "/e0")
    lines = []
    for seq, ev in enumerate(('{"t":"new","game":"9ball","players":["A","B"],"race":[3,3]}',
                              '{"t":"lag","breaker":0}')):
        body = ("%d %d e %s" % (seq, seq + 1, ev)).encode()
        lines.append(body + (" %08x\n" % journal.crc(body)).encode())
    with open(root + "/e0/0", "wb") as f:
        f.write(b"".join(lines))
    with open(root + "/fmt", "wb") as f:
        f.write(journal._fmt_line(3))
    j = Journal(root).open()
    recs = list(j.records(0, 2))
    assert [r[2] for r in recs] == ["e", "e"] and [j.at(r) for r in recs] == [None, None]
    assert j.depth == 2
    j.close()


def test_a_time_on_each_record_allocates_nothing_more():
    # The time of a record comes from rtc.clock() (no allocation) into the line buffer: the same
    # shots allocate as much on a journal with the clock set as on one with the clock never set.
    import gc

    alloc = getattr(gc, "mem_alloc", None)  # (MicroPython's: measured on the VM)
    if alloc is None:
        return
    root = scratch_dir("jt_heap")
    try:
        got = []
        for t in (PICO_BOOT, SET):
            clock_at(t)
            m = Match(Journal(root + "/" + str(t)))
            m.apply(new("14.1", target=[150, 150]))
            m.apply(lag(0))
            m.apply(shot(first=1, break_rails=2, cue_rail=True, rail=True))
            evs = [shot(first=1, rail=True) for _ in range(4)]
            m.log.tidy()
            gc.collect()
            a = alloc()
            for ev in evs:
                m.apply(ev, False)
            got.append(alloc() - a)
            m.log.close()
        assert got[1] <= got[0], got
    finally:
        clock_back()
