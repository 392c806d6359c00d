# The journal's repairs (firmware/journal.py), loaded only when Journal.open() finds something to
# repair (a damaged or stray file, a gap, a journal without a layout file) and let go after.
from firmware import journal
from firmware.journal import (
    Damaged,
    _create,
    _fmt_line,
    _open,
    check,
    exists,
    ints,
    parse,
    read,
)

# (Files and folders through the journal's own os and open: a test may give it others.)

_R = 4  # records a file (journal._R, a const there: not a name MicroPython keeps)


def detect(root, names):
    # Files a folder of a journal written before the layout file: where its records are (16 in
    # layout 1: a pack's first record 64n, e<n>/<m> from (16n + m) * 4; else 12).
    for n in ints(names, "p"):
        if not n and _has(root + "/p0", 48):  # a 49th record
            return 16
        s = _first("%s/p%d" % (root, n))
        if n and s == 64 * n:
            return 16
        if n and s == 48 * n:
            return 12
    for n in ints(names, "e"):
        try:
            ms = ints(journal.os.listdir("%s/e%d" % (root, n)), "")
        except OSError:
            continue
        for m in ms:
            s = _first("%s/e%d/%d" % (root, n, m))
            if m >= 12 or n and s == (16 * n + m) * 4:
                return 16
            if n and s == (12 * n + m) * 4:
                return 12
    return 12  # (fewer than 48 records: both lay them out alike)


def _first(path):
    # The seq of the first record of file path (its first line read), or -1.
    try:
        with _open(path, "rb") as f:
            body = check(f.readline())
        return int(body.split(" ", 1)[0]) if body else -1
    except (OSError, ValueError):
        return -1


def _has(path, i):
    # Is line i of file path (read a line at a time) the good record seq i?
    try:
        with _open(path, "rb") as f:
            for _ in range(i):
                f.readline()
            return bool(parse(f.readline(), i)[0])
    except OSError:
        return False


def stamp(j, v, names):
    # A journal without a readable layout file gets one, saying what its records were found to
    # be (2: 12 files a folder, read as 3), so that later damage can't make it look like another
    # layout.
    if "fmt" in names:
        aside(j, j.root + "/fmt")
    try:
        with _open(j.root + "/fmt", "wb") as f:
            f.write(_fmt_line(v))
    except OSError:
        pass  # (a full flash: found by where its records are next time too)


def whole(j, n):
    # Does pack p<n> hold its folder's records, all readable?
    try:
        for _ in j._records(n * j._np, n * j._np + j._np):  # (from the pack: it is there)
            pass
    except Damaged:
        return False
    return True


def cut_at(j, x):
    # Record x can't be read: the journal ends before it. Each file holding records from x on is
    # moved aside as NAME.bad; the one holding x keeps its records before x (a pack: in the
    # folder's small files again).
    root = j.root
    np = j._np
    nf = j._nf
    names = journal.os.listdir(root)
    for n in ints(names, "p"):
        if n * np + np <= x:
            continue
        path = "%s/p%d" % (root, n)
        if n * np < x:
            try:
                _unpack(root, path, n, n * np, x)
            except OSError:
                pass  # (a folder: nothing to keep)
        if n * np <= x:
            j._doubt.append((x, n * np + np - 1))
        aside(j, path)
    for n in ints(names, "e"):
        if n * np + np <= x:
            continue
        d = "%s/e%d" % (root, n)
        try:
            sub = journal.os.listdir(d)
        except OSError:
            continue
        for m in ints(sub, ""):
            first = (n * nf + m) * _R
            if first + _R <= x:
                continue
            path = "%s/%d" % (d, m)
            if first <= x:
                j._doubt.append((x, first + _R - 1))
            if first < x:
                text = read(path) or b""
                end = 0
                for _ in range(x - first):
                    end = text.find(b"\n", end) + 1
                cut(j, path, text, end)
            else:
                aside(j, path)
    j.head = j._top = x - 1


def _unpack(root, path, n, first, x):
    # Pack p<n>'s records (from seq first) before x back into folder e<n>'s small files, a line
    # at a time (a file there already is kept as it is).
    g = None
    k = first
    with _open(path, "rb") as f:
        while k < x:
            line = f.readline()
            if not line:
                break
            if k % _R == 0:
                if g is not None:
                    g.close()
                small = "%s/e%d/%d" % (root, n, (k - first) // _R)
                g = None if exists(small) else _create(small, "wb")
            if g is not None:
                g.write(line)
            k += 1
    if g is not None:
        g.close()


def aside(j, path):
    # Move path (a file or a folder) aside as NAME.bad (NAME.bad2 ... if taken).
    j.moved.append(journal.set_aside(path))


def cut(j, path, text, used):
    # Keep the good records of path: its whole text moved aside, the good part written anew.
    if used:
        with _open(path + ".tmp", "wb") as f:
            f.write(text[:used])
    aside(j, path)
    if used:
        journal.os.rename(path + ".tmp", path)


def past(j, ev):
    # Every snapshot written after the last record on flash (see Journal.open): moved aside;
    # the last record there is evidence of.
    root = j.root
    for n in ints(journal.os.listdir(root), "s"):
        for m in ints(journal.os.listdir("%s/s%d" % (root, n)), ""):
            e = j._future(16 * n + m, ev)
            ev = ev if e is None else e
    return ev
