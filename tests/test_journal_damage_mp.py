# mp: yes
# A sample of test_journal_damage.py's cases under the board-like MicroPython (64 KB heap): a
# match of a pack, an open folder and snapshots; each of its files bit-flipped, cut at a record
# and in the middle of one, deleted, overwritten with garbage, replaced by a folder. open()
# raises nothing, resumes a state that was shown, never states more loss than there was and
# states all of it where a later record is evidence; the damaged bytes are kept.
import gc
import json
import os

from firmware import journal, rtc
from firmware.journal import Journal
from firmware.match import Match
from tests.helpers import long_141, scratch_dir


def _crc(m):
    return journal.crc(json.dumps(m.state()).encode())


def _isdir(path):
    try:
        return bool(os.stat(path)[0] & 0x4000)
    except OSError:
        return False


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


_BUF = bytearray(256)


def _crc_of(path):
    # CRC-32 and length of a file, read a piece at a time (a 64 KB heap).
    c = n = 0
    mv = memoryview(_BUF)
    with open(path, "rb") as f:
        while True:
            k = f.readinto(_BUF)
            if not k:
                return c, n
            c = journal.crc(mv[:k], c)
            n += k


def _copy(src, dst):
    os.mkdir(dst)
    mv = memoryview(_BUF)
    for name in os.listdir(src):
        if _isdir(src + "/" + name):
            _copy(src + "/" + name, dst + "/" + name)
            continue
        with open(src + "/" + name, "rb") as f, open(dst + "/" + name, "wb") as g:
            while True:
                k = f.readinto(_BUF)
                if not k:
                    break
                g.write(mv[:k])


def _files(root, rel=""):
    out = []
    for name in os.listdir(root + rel):
        p = rel + "/" + name
        if _isdir(root + p):
            out += _files(root, p)
        else:
            out.append(p)
    return out


def _kept(path, moved, want):
    # Is a file with CRC and size `want` at path or among the files moved aside?
    for p in [path] + moved:
        try:
            if _crc_of(p) == want:
                return True
        except OSError:
            pass
    return False


def _ends(path):
    # The offsets after each newline of a file, and its length (read a piece at a time).
    out = []
    n = 0
    with open(path, "rb") as f:
        while True:
            k = f.readinto(_BUF)
            if not k:
                return out, n
            for i in range(k):
                if _BUF[i] == 10:
                    out.append(n + i + 1)
            n += k


def _cases(path):
    # (how, what) for a file: ("flip", at), ("cut", size), None: deleted, ("garbage", size),
    # 0: a folder in its place; a record in two.
    ends, size = _ends(path)
    starts = ([0] + ends[:-1]) if ends else []
    for k in range(0, len(starts), 2):
        a, b = starts[k], ends[k]
        yield "bit flip", ("flip", (a + b) // 2)
        yield "cut at a record", ("cut", a)
        yield "cut mid-record", ("cut", (a + b) // 2)
    yield "deleted", None
    yield "garbage", ("garbage", size or 30)
    yield "a folder", 0


def _damage(path, what):
    if what is None or what == 0:
        os.remove(path)
        if what == 0:
            os.mkdir(path)
        return
    op, n = what
    if op == "flip":
        with open(path, "r+b") as f:
            f.seek(n)
            b = f.read(1)[0] ^ 4
            f.seek(n)
            f.write(bytes([b]))
    elif op == "cut":  # (copied a piece at a time, then renamed over it)
        with open(path, "rb") as f, open(path + "~", "wb") as g:
            while n:
                k = f.readinto(_BUF)
                g.write(memoryview(_BUF)[:min(k, n)])
                n -= min(k, n)
        os.remove(path)
        os.rename(path + "~", path)
    else:
        with open(path, "wb") as f:
            for i in range(n):
                _BUF[i % 256] = (i * 37 + 11) & 0xFF
                if i % 256 == 255 or i == n - 1:
                    f.write(memoryview(_BUF)[:i % 256 + 1])


def _gold(gold):
    # The match: 52 records (p0, e1/0, the next file made ahead), snapshots s0/1-2; the CRC of
    # the state after each record.
    m = Match(Journal(gold))
    by_seq = [0]
    for ev in long_141(49, 21, 9, m=Match()):
        m.apply(ev, False)
        m.log.tidy()
        by_seq.append(_crc(m))
    m.log.close()
    return by_seq


def test_a_sample_of_every_damage_to_every_file():
    # (the board's clock at one instant: the records' times, and so the journal's bytes and the
    # heap the sample takes, the same every run)
    read = rtc.read
    rtc.read = lambda: 1796278852  # 2026-12-03 06:20:52 UTC
    rtc.mark()
    try:
        _sample()
    finally:
        rtc.read = read
        rtc.mark()


def _sample():
    gold = scratch_dir("dmp_gold") + "/m"
    by_seq = _gold(gold)  # by_seq[k]: after k records
    head = len(by_seq) - 2
    newest = "/e%d/%d" % (head // 48, head // 4 % 12)
    counts = {}
    n = 0
    for rel in _files(gold):
        for how, what in _cases(gold + rel):
            gc.collect()  # (each case from a tidy heap: 64 KB hold the test's code too)
            root = scratch_dir("dmp%d" % (n % 2)) + "/m"
            _copy(gold, root)
            _damage(root + rel, what)
            crc = _crc_of(root + rel) if what else None
            gc.collect()
            j = Journal(root).open()
            r = Match(j)
            r.rebuild()
            assert (r.s is None if j.head < 0 else _crc(r) == by_seq[j.head + 1]), (rel, how)
            true = head - j.head
            assert 0 <= j.lost <= true, (rel, how, j.lost, true)
            if rel != newest and rel[1] != "s":
                assert j.lost == true, (rel, how, j.lost, true)
            if rel[1] == "s" or rel == "/fmt":
                assert true == 0, (rel, how)
            if crc is not None:
                assert _kept(root + rel, j.moved, crc), (rel, how)
            elif what == 0:
                assert _isdir(root + rel) or _isdir(root + rel + ".bad"), (rel, how)
            j.close()
            kind = rel[1] if rel[1] in "eps" else rel
            counts[kind] = counts.get(kind, 0) + 1
            n += 1
    print("journal damage under MicroPython: %d cases (%s), every resume a shown state"
          % (n, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    assert n > 60 and len(counts) >= 4, counts
