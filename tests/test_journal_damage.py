# Damage to the journal's files (firmware/journal.py): every file a match with snapshots, packs
# and an open folder keeps, x a bit flip, a byte flip, truncation at every record boundary and
# in the middle of every record, deletion, garbage and replacement by a folder. Each case: open()
# raises nothing, the match resumed is one that was shown (the state after a prefix of the
# records), the loss it states is never more than the true one and equals it wherever a later
# record is evidence, the damaged bytes are kept (NAME.bad), and the journal goes on. Also: the
# layout file, the layout of 64-record folders read as it was written, and an action's group of
# events dropped whole when unfinished. Under MicroPython: test_journal_damage_mp.py.
import json
import os

from firmware import journal
from firmware.journal import Journal
from firmware.match import Match
from tests.helpers import ON_MP, UNDO, long_141, scratch_dir
from tests.test_journal_damage_mp import _isdir, _read, _write

FOUL = {"t": "shot", "first": None}  # always legal in 14.1: the match goes on with it


def _crc(m):
    return journal.crc(json.dumps(m.state()).encode())


def _copy(src, dst):
    os.mkdir(dst)
    for name in os.listdir(src):
        a = src + "/" + name
        if _isdir(a):
            _copy(a, dst + "/" + name)
        else:
            with open(a, "rb") as f:
                data = f.read()
            with open(dst + "/" + name, "wb") as f:
                f.write(data)


def _files(root, rel=""):
    # Every file under root, relative paths (folders last-level too, marked "/").
    out = []
    for name in sorted(os.listdir(root + rel)):
        p = rel + "/" + name
        if _isdir(root + p):
            out.append(p + "/")
            out += _files(root, p)
        else:
            out.append(p)
    return out


def _garbage(n, seed):
    x = seed
    out = bytearray(n)
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = x >> 16 & 0xFF
    return bytes(out)


_GOLD = {}


def _gold():
    # The match, once: 110 records, 11 of them undos (p0, p1 and folder e2 of 14 records, its
    # last file holding 2), snapshots s0/1-5; the state after each record.
    if _GOLD:
        return _GOLD
    root = scratch_dir("damage_gold") + "/m"
    m = Match(Journal(root))
    by_seq = {-1: 0}
    for ev in long_141(110, 21, 9, m=Match()):  # (the generator's own match judges)
        m.apply(ev, False)
        m.log.tidy()
        by_seq[m.log.head] = _crc(m)  # pyright: ignore[reportAttributeAccessIssue]
    m.log.close()
    # the open folder's pack as a power cut leaves it (written along with its records)
    _write(root + "/p2.new", b"".join(_read("%s/e2/%d" % (root, k)) for k in range(4)))
    head = m.log.head  # pyright: ignore[reportAttributeAccessIssue]
    _GOLD.update(root=root, by_seq=by_seq, head=head, files=_files(root))
    return _GOLD


def _kind(rel):
    if rel == "/fmt":
        return "layout file"
    if rel.endswith(".new"):
        return "open pack"
    if rel.startswith("/p"):
        return "pack"
    if rel.startswith("/s"):
        return "snapshot folder" if rel.endswith("/") and rel.count("/") == 2 else "snapshot"
    return "record folder" if rel.endswith("/") and rel.count("/") == 2 else "record file"


def _damages(data, seed, sample):
    # (name, new bytes or None: deleted, or "dir": a folder in its place) for a file's bytes.
    ends = [i + 1 for i in range(len(data)) if data[i] == 10]
    starts = ([0] + ends[:-1]) if ends else []
    step = max(1, len(starts) // 3) if sample else 1
    for k in range(0, len(starts), step):
        a, b = starts[k], ends[k]
        mid = (a + b) // 2
        yield "bit flip", data[:mid] + bytes([data[mid] ^ 0x04]) + data[mid + 1:]
        yield "bit flip", data[:b - 3] + bytes([data[b - 3] ^ 0x10]) + data[b - 2:]  # its CRC
        yield "byte flip", data[:a] + bytes([data[a] ^ 0xFF]) + data[a + 1:]
        yield "cut at a record", data[:a]
        yield "cut mid-record", data[:mid]
    yield "deleted", None
    yield "garbage", _garbage(len(data) or 40, seed)
    yield "a folder", "dir"


def _case(gold, n, rel, how, data):
    # Damage one copy of the match's folder, open it, check; returns (true loss, stated).
    root = scratch_dir("damage_%d" % (n % 4)) + "/m"
    _copy(gold["root"], root)
    path = root + rel
    if data is None:
        journal.remove_tree(path)
    elif data == "dir":
        journal.remove_tree(path)
        os.mkdir(path)
    else:
        _write(path, data)
    j = Journal(root).open()  # never Damaged, IndexError or ValueError
    m = Match(j)
    m.rebuild()
    assert j.head in gold["by_seq"], (rel, how, j.head)
    assert _crc(m) == gold["by_seq"][j.head] if j.head >= 0 else m.s is None, (rel, how)
    true = gold["head"] - j.head
    assert 0 <= j.lost <= true, (rel, how, j.lost, true)
    h = gold["head"]
    newest = rel in ("/e%d/%d" % (h // 48, h // 4 % 12), "/e%d" % (h // 48))
    if not newest and not rel.startswith("/s"):
        assert j.lost == true, (rel, how, j.lost, true)  # later records are the evidence
    if rel.startswith("/s") or rel == "/fmt" or rel.endswith(".new"):
        assert true == 0, (rel, how)  # snapshots, the layout file, a pack's copy: not needed
    if rel.endswith(".new"):
        pass  # a copy of records in the small files: removed
    elif isinstance(data, bytes):  # the damaged bytes are kept somewhere
        assert any(_read(root + p) == data for p in _files(root) if not p.endswith("/")), \
            (rel, how)
    elif data == "dir":
        assert _isdir(path) or _isdir(path + ".bad"), (rel, how)
    for p in j.moved:
        assert p.endswith(".bad") or ".bad" in p, p
    if m.s is not None:  # the journal goes on
        m.apply(FOUL, False)
        want = _crc(m)
        j.close()
        again = Match(Journal(root).open())
        again.rebuild()
        assert _crc(again) == want, (rel, how)
    j.close()
    return true, j.lost


def steps_every_file_the_journal_keeps_times_every_damage():
    gold = _gold()
    counts = {}
    n = 0
    for rel in gold["files"]:
        kind = _kind(rel)
        if rel.endswith("/"):  # a folder: deleted, or a file in its place
            cases = [("deleted", None), ("a file", _garbage(30, n))]
        else:
            cases = _damages(_read(gold["root"] + rel), n, ON_MP)
        for how, data in cases:
            if isinstance(data, bytes) and not rel.endswith("/") and \
                    data == _read(gold["root"] + rel):
                continue  # (no change)
            if rel.endswith("/") and data is not None:
                root = scratch_dir("damage_%d" % (n % 4)) + "/m"
                _copy(gold["root"], root)
                journal.remove_tree(root + rel[:-1])
                _write(root + rel[:-1], data)
                j = Journal(root).open()
                m = Match(j)
                m.rebuild()
                assert _crc(m) == gold["by_seq"][j.head] if j.head >= 0 else True, rel
                assert 0 <= j.lost <= gold["head"] - j.head
                assert any(p.startswith(root + rel[:-1]) for p in j.moved), (rel, j.moved)
                j.close()
            else:
                _case(gold, n, rel if not rel.endswith("/") else rel[:-1], how, data)
            n += 1
            c = counts.setdefault(kind, {})
            c[how] = c.get(how, 0) + 1
        yield
    total = sum(sum(c.values()) for c in counts.values())
    print("journal damage: %d cases, 0 raised, every resume a shown state: %s"
          % (total, "; ".join("%s %d (%s)" % (k, sum(c.values()), ", ".join(
              "%s %d" % (h, c[h]) for h in sorted(c))) for k, c in sorted(counts.items()))))
    assert set(counts) >= {"pack", "open pack", "record file", "snapshot", "layout file", "record folder",
                           "snapshot folder"}, counts
    assert total > (150 if ON_MP else 600), total


def test_every_file_the_journal_keeps_times_every_damage():
    for _ in steps_every_file_the_journal_keeps_times_every_damage():
        pass


def test_a_middle_file_unreadable_cuts_there_and_counts_every_record_after_it():
    # Finding: a damaged file between the snapshot and the head raised Damaged at boot.
    gold = _gold()
    root = scratch_dir("damage_mid") + "/m"
    _copy(gold["root"], root)
    data = _read(root + "/e2/1")  # records 100-103; 104-109 come after it
    at = len(data) - 20  # in its last record, 103
    _write(root + "/e2/1", data[:at] + bytes([data[at] ^ 4]) + data[at + 1:])
    j = Journal(root).open()
    assert j.head == 102 and j.lost == gold["head"] - 102 == 7 and not j.uncertain
    assert sorted(j.moved) == [root + "/e2/%d.bad" % k for k in (1, 2, 3)]
    good = data[:data.rfind(b"\n", 0, len(data) - 1) + 1]
    assert _read(root + "/e2/1") == good  # its good records stay


def test_stray_garbage_beyond_the_head_loses_nothing():
    gold = _gold()
    root = scratch_dir("damage_stray") + "/m"
    _copy(gold["root"], root)
    os.mkdir(root + "/e5")
    _write(root + "/e5/0", _garbage(200, 7))
    j = Journal(root).open()
    assert j.head == gold["head"] and j.lost == 0 and not j.uncertain
    assert j.moved == [root + "/e5/0.bad"]


def test_the_next_file_made_ahead_is_evidence_for_the_full_one_before_it():
    # Records 0-3 in e0/0, and e0/1 made ahead (empty): e0/0 deleted or cut at a record is a
    # stated loss.
    for cut in (None, 2):
        root = scratch_dir("damage_ahead") + "/m"
        m = Match(Journal(root))
        for ev in long_141(4, 3, m=Match()):
            m.apply(ev, False)
        m.log.tidy()
        m.log.close()
        assert _read(root + "/e0/1") == b""
        data = _read(root + "/e0/0")
        if cut is None:
            os.remove(root + "/e0/0")
        else:
            _write(root + "/e0/0", b"".join(x + b"\n" for x in data.split(b"\n")[:cut]))
        j = Journal(root).open()
        assert j.head == (cut or 0) - 1 and j.lost == 4 - (cut or 0), (cut, j.head, j.lost)


def test_a_deleted_newest_folder_is_a_stated_loss_from_the_snapshots():
    gold = _gold()
    root = scratch_dir("damage_e2") + "/m"
    _copy(gold["root"], root)
    journal.remove_tree(root + "/e2")
    j = Journal(root).open()
    assert j.head == 95 and j.lost > 0  # the snapshots written after 95 say so


def test_the_folder_itself_a_file_is_a_filesystem_failure():
    root = scratch_dir("damage_root") + "/m"
    _write(root, b"not a folder")
    try:
        Journal(root).open()
    except journal.Damaged:
        raise AssertionError("Damaged") from None
    except OSError:
        pass
    else:
        raise AssertionError("opened a file as a journal")


def test_a_layout_it_does_not_write_is_left_as_it_is():
    gold = _gold()
    root = scratch_dir("damage_fmt") + "/m"
    _copy(gold["root"], root)
    _write(root + "/fmt", journal._fmt_line(7))
    before = _files(root)
    try:
        Journal(root).open()
    except journal.Foreign as e:
        assert "layout 7" in str(e)
    else:
        raise AssertionError("a layout it doesn't write was read")
    assert _files(root) == before
    assert _read(gold["root"] + "/fmt") == journal._fmt_line(4)


# ---------------------------------------------------------------- the 64-record layout

def _old_line(*parts):
    body = " ".join(str(p) for p in parts)
    return ("%s %08x\n" % (body, journal.crc(body.encode()))).encode()


def _old_journal(root, evs):
    # A journal as the firmware of 16 files a folder wrote it: records seq 64n + 4m .. +3 in
    # e<n>/<m>, a full folder packed into p<n> (64 lines) and removed, the snapshot of window
    # w in s<w // 16>/<w % 16>; no layout file. Returns the reference Match.
    r = Match()
    os.mkdir(root)
    files = {}
    seq = 0
    for ev in evs:
        if ev["t"] == "undo":
            r.apply(ev, False)
            line = _old_line(seq, len(r.log), "u", "-")
        else:
            r.apply(ev, False)
            line = _old_line(seq, len(r.log), "e", json.dumps(ev, separators=(",", ":")))
            if len(r.log) % 16 == 0:
                w = len(r.log) // 16
                d = "%s/s%d" % (root, w // 16)
                if not _isdir(d):
                    os.mkdir(d)
                _write("%s/%d" % (d, w % 16), _old_line(seq, len(r.log), json.dumps(
                    r.s, separators=(",", ":"))))
        n, m = seq // 64, seq // 4 % 16
        files.setdefault((n, m), b"")
        files[(n, m)] += line
        seq += 1
    for n in sorted({k[0] for k in files}):
        whole = [files.get((n, m), b"") for m in range(16)]
        if sum(x.count(b"\n") for x in whole) == 64 and seq > 64 * (n + 1):
            _write("%s/p%d" % (root, n), b"".join(whole))
            continue
        os.mkdir("%s/e%d" % (root, n))
        for m in range(16):
            if (n, m) in files:
                _write("%s/e%d/%d" % (root, n, m), files[(n, m)])
    return r


def _events(n, seed):
    out = []
    for ev in long_141(n, seed, 11, m=Match()):
        out.append(ev)
    return out


def test_a_journal_of_64_record_folders_resumes_exactly_and_goes_on_in_its_layout():
    # Finding: a 75-event match of the previous layout resumed as 48 events, 11 "lost".
    for n, seed in ((75, 5), (54, 6)):  # p0 and e1; e0/0-13 only (no pack yet)
        evs = _events(n, seed)
        root = scratch_dir("old%d" % n) + "/m"
        r = _old_journal(root, evs)
        j = Journal(root).open()
        m = Match(j)
        m.rebuild()
        assert m.state() == r.state() and len(m.log) == len(r.log), n
        assert j.lost == 0 and j.moved == [] and not j.uncertain
        assert _read(root + "/fmt") == journal._fmt_line(1)  # it says so from now on
        more = list(long_141(n + 80, seed, 11, m=Match()))[len(evs):]  # on to a second pack
        for ev in more:
            if ev["t"] != "undo":
                r.apply(ev, False)
                m.apply(ev, False)
                m.log.tidy()
        m.log.close()
        again = Match(Journal(root).open())
        again.rebuild()
        assert again.state() == r.state() and len(again.log) == len(r.log)
        names = os.listdir(root)
        assert "p1" in names or n < 75, names
        if "p1" in names:
            assert journal.parse(_read(root + "/p1"), 64)[0][-1][0] == 127  # 64 a pack


# ---------------------------------------------------------------- an action's group

def test_an_unfinished_group_is_dropped_and_a_finished_one_undone_whole():
    root = scratch_dir("group") + "/m"
    m = Match(Journal(root))
    for ev in long_141(20, 9, m=Match()):
        m.apply(ev, False)
    before = m.state()
    n = len(m.log)
    miss = {"t": "shot", "first": 1, "rail": True}
    made = {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True}
    assert m.apply_all([made, lambda: [made, miss]]) == 3
    after = m.state()
    assert m.log.action() == 3 and len(m.log) == n + 3
    m.log.close()
    j = Journal(root).open()
    assert j.action() == 3  # the group's size is read back
    m = Match(j)
    m.rebuild()
    assert m.state() == after
    assert m.undo_action() == 3 and m.state() == before
    m.log.close()
    m = Match(Journal(root).open())
    m.rebuild()
    assert m.state() == before
    # the group's last record torn off: the whole group goes, and it is no loss
    m.apply_all([made, made, miss])
    head = m.log.head  # pyright: ignore[reportAttributeAccessIssue]
    m.log.close()
    path = m.log._path(head)  # pyright: ignore[reportAttributeAccessIssue]
    data = _read(path)
    lines = data.split(b"\n")[:-1]
    _write(path, b"".join(x + b"\n" for x in lines[:-1]))  # as if the last never came
    j = Journal(root).open()
    m = Match(j)
    m.rebuild()
    assert m.state() == before and j.lost == 0 and len(m.log) == n
    m.apply(UNDO, False)  # after the dropped group the match goes on (an undo)
    m.log.close()
    m2 = Match(Journal(root).open())
    m2.rebuild()
    assert m2.state() == m.state() and len(m2.log) == n - 1


def test_the_pc_reader_knows_both_layouts_and_leaves_out_an_action_cut_short():
    from host_tools import journal_read

    root = scratch_dir("reader_old") + "/m"
    r = _old_journal(root, _events(75, 5))
    got = journal_read.read_journal(root)
    assert got.stop is None and got.events == r.events
    root = scratch_dir("reader_group") + "/m"
    m = Match(Journal(root))
    ref = Match()
    for ev in long_141(20, 9, m=Match()):
        m.apply(ev, False)
        ref.apply(ev, False)
    before = ref.events
    made = {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True}
    m.apply_all([made, made, made])
    m.log.close()
    assert journal_read.read_journal(root).events == before + [made] * 3
    head = m.log.head  # pyright: ignore[reportAttributeAccessIssue]
    path = m.log._path(head)  # pyright: ignore[reportAttributeAccessIssue]
    lines = _read(path).split(b"\n")[:-1]
    _write(path, b"".join(x + b"\n" for x in lines[:-1]))
    got = journal_read.read_journal(root)
    assert got.stop is None and got.events == before and "cut short" in got.notes[-1]
    j = Journal(root).open()
    m = Match(j)
    m.rebuild()
    m.apply(made, False)  # after the action left out, the match goes on
    m.log.close()
    got = journal_read.read_journal(root)
    assert got.stop is None and got.events == before + [made]
