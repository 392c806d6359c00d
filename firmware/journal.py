# The match journal on flash: each accepted event and undo appended as one checked record.
# A match.Log for firmware.match.Match (same methods) that keeps in RAM only the latest snapshot
# and the events after it (fewer than 16), whatever the length of the match.
#
# On flash, in the folder `root` (littlefs on a board):
#   fmt        "journal 4 CRC": the layout (written after record 0). Layout 1 had 16 files a
#              folder (64 records), 2 is 3 without the file, 3 is this one without the times;
#              all are read as written (their records without a time; a journal without the
#              file gets one at open); another is Foreign, left intact.
#   e<n>/<m>   records seq 48n + 4m .. +3, one line each:  "SEQ DEPTHKIND[T]PAYLOAD CRC\n"
#              (layouts 1-3: "SEQ DEPTH KIND PAYLOAD CRC\n", no T). T, after the kind letter
#              when the board's clock was set (firmware/rtc.py), in base 36 digits: on record 0
#              its time in seconds since 1970 UTC; on a file's first record (seq 4k) the
#              seconds since record 0's; on the others the seconds since their file's first
#              (1-2 digits: 35 s, 21 minutes); their own time (2025 or later) when the one
#              they count from has none or the clock went back before it. No T: the clock
#              never set, no time (at() reads a record's, None without).
#              KIND "e" (PAYLOAD: the event's JSON) or "u" (an undo, PAYLOAD "-"), "g" and "v"
#              the same when more of their action follows (an action of several events is one
#              group: open() drops a group whose last record never came, and action() says how
#              many events one undo takes back); DEPTH is the number of accepted events after
#              it; CRC the CRC-32 of the line before " CRC".
#              Four records a file keep each file under littlefs's inline size (512 bytes on a
#              Pico), so an append commits into the folder's metadata instead of copying a
#              4 KB data block (a quarter of the erases of one growing file, measured).
#   p<n>       once folder e<n> holds its 48 records: the same lines packed into one file
#              (p<n>.new, written as the folder's records are, or copied from its files when
#              full; closed, renamed into place, then the folder goes), as small files cost
#              littlefs about four times their size in metadata blocks. Twelve files a folder
#              (not 16): a pack then fits one 4 KB block, and a folder's metadata is compacted
#              fewer times before it goes (12% fewer erases a match on the emulated NOR flash,
#              a quarter less space).
#   s<n>/<m>   the snapshot of window w = 16n + m: "SEQ DEPTH STATE CRC" with DEPTH = 16w, STATE
#              the rules state after those events, SEQ the record that brought the match there.
#              Written over the old one in place: littlefs commits a file's new contents at
#              close, atomically (no temporary file and rename: 5% fewer erases); elsewhere a
#              torn snapshot fails its CRC and the window below is used.
# Held records (hold, the app's): append() and pop() keep a key's records in RAM (up to 8, in
# slots made once: no allocation a key) and commit() writes them once the key's screens are out,
# in the same loop pass (firmware/app.py), so no key waits on an erase (45-400 ms on a W25Q16JV)
# before its screen; the screens mark them unsaved meanwhile. Every read sees them (records(),
# len, action(), undo); close() and open() write them first. A power cut before commit() loses
# them unsaid: the journal resumes at the last record written (evidence of a held record would
# be the flash write before the screen that holding spares). Without hold each is written as
# it comes.
# The record of what happened is never changed: an undo is a record of its own, and a pack is a
# copy made durable before the files it copies go. A snapshot is valid while no later record
# went below its depth and it is not past the last record; recovery checks that, so a power
# cut between an event and its snapshot costs at most 16 more replays once.
# Damage (Journal.open, firmware/journal_fix.py): the journal resumes the longest run of records
# it reads in order; unreadable files, and the files after a record it can't read, go aside as
# NAME.bad. Its evidence of how far the match got costs no writes but the layout file's: a later
# readable record, a snapshot's SEQ, the next file made ahead (the one before it was full), the
# layout file (record 0 was written). Records after the last evidence can vanish unsaid (a
# deleted newest file, littlefs rolling a folder back): at most the three before the next file.
# A line is built in one reused buffer (its numbers, the payload, the CRC as hex), so that a
# record allocates no strings but its event's JSON; a file packed is copied through it too.
import json
import os
import struct
import sys

try:
    from binascii import crc32
except ImportError:  # a port built without it
    crc32 = None

from firmware import rtc
from firmware.mem import const, unload

_K = const(16)  # a snapshot every _K events of depth (match._K)
_R = const(4)  # records a file
_F = const(12)  # files a folder (see the header)
_P = const(48)  # records a folder, and a pack: _R * _F
_H = const(8)  # records held in RAM at most (hold: see Journal.commit)
_S = const(16)  # snapshots a folder
_B = const(128)  # the line buffer: a record longer than this is written in three pieces
_I = const(512)  # littlefs's inline size on a Pico (block_size / 8): a file packed is shorter
_HEX = b"0123456789abcdefghijklmnopqrstuvwxyz"  # hex digits (a CRC), base 36 (a time)
KINDS = ("e", "u", "g", "v")  # an event, an undo; g, v: the same, more of their action follows
_LAYOUTS = {1: 16, 2: 12, 3: 12, 4: 12}  # the layouts read (files a folder): see the header
_FMT = const(4)  # the layout written
_MP = sys.implementation.name == "micropython"  # its files' write(buf, n) writes n bytes


class Damaged(ValueError):
    # A record that should be good is not (a flipped bit, a missing file): Damaged(text, seq),
    # seq the first record that can't be read.
    pass


class Foreign(OSError):
    # The folder holds a journal of a layout this firmware doesn't write (its "fmt" file says
    # which): nothing read, nothing changed. (An OSError: a boot that catches the filesystem's
    # failures keeps it too; Store archives it.)
    pass


def crc(b, c=0):
    # CRC-32 of b, continuing from c (binascii's, unsigned on MicroPython and CPython alike).
    if crc32 is not None:
        return crc32(b, c)
    c ^= 0xFFFFFFFF
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ (0xEDB88320 & -(c & 1))
    return c ^ 0xFFFFFFFF


def _dec(buf, i, n, base=10):
    # The digits of n >= 0 in base (10, 36) into buf from i; returns the index after them.
    j = i
    while True:
        buf[j] = _HEX[n % base]
        n //= base
        j += 1
        if not n:
            break
    k = j - 1
    while i < k:
        buf[i], buf[k] = buf[k], buf[i]
        i += 1
        k -= 1
    return j


def _out(f, buf, n):
    # The first n bytes of buf to f (MicroPython's write takes a length: no slice is made).
    if _MP:
        f.write(buf, n)
    else:
        f.write(bytes(buf[:n]))


def check(line):
    # The body of a stored line (bytes "SEQ DEPTH ... CRC\n") as str without " CRC\n", or None
    # if it is torn or bad.
    if len(line) < 11 or line[-1] != 10 or line[-10] != 32:
        return None
    body = line[:-10]
    try:
        if int(line[-9:-1].decode(), 16) != crc(body):
            return None
        return body.decode()
    except (ValueError, UnicodeError):
        return None


def parse(data, first):
    # The good records of one file's bytes, (seq, depth, kind, payload, stamp) each, from seq
    # `first`, and how many bytes they take: reading stops at the first bad one. stamp: the
    # number after the kind (base 36, layout 4: see the header), None without one.
    out = []
    pos = 0
    n = len(data)
    while pos < n:
        j = data.find(b"\n", pos)
        if j < 0:
            break
        body = check(data[pos:j + 1])
        if body is None:
            break
        try:
            i = body.index(" ")
            e = i + 1
            while body[e].isdigit():
                e += 1
            d = e  # (the kind's index)
            if body[e] == " ":  # layouts 1-3: "SEQ DEPTH KIND PAYLOAD", no time
                d = e + 1
                if body[d + 1] != " ":
                    break
                k = m = d + 2
            else:  # "SEQ DEPTHKIND[T]PAYLOAD": T up to the payload's "{" (an event) or "-"
                k = m = d + 1
                while body[m] not in "{-":
                    m += 1
            rec = (int(body[:i]), int(body[i + 1:e]), body[d], body[m:],
                   int(body[k:m], 36) if m > k else None)
        except (ValueError, IndexError):
            break
        if rec[0] != first + len(out) or rec[2] not in KINDS:
            break
        out.append(rec)
        pos = j + 1
    return out, pos


def _open(path, mode):
    return open(path, mode)  # (this module's open: journal_fix's files go through it)


def read(path):
    # The bytes of file path (None if it can't be read, or is longer than any file the journal
    # writes: a folder's size, on some ports), read at their size: MicroPython's read() would
    # grow a buffer to get there.
    try:
        with open(path, "rb") as f:
            n = f.seek(0, 2)
            f.seek(0)
            return f.read(n) if n < 16384 else None
    except OSError:
        return None


def mkdir(path):
    try:
        os.mkdir(path)
    except OSError:
        pass  # there already


def _create(path, mode):
    # open(path, mode), making its folder first if it is not there yet.
    try:
        return open(path, mode)
    except OSError:
        mkdir(path[:path.rfind("/")])
        return open(path, mode)


def _fmt_line(v):
    # The line of the layout file: "journal V CRC\n".
    body = "journal %d" % v
    return ("%s %08x\n" % (body, crc(body.encode()))).encode()


def layout(root, names):
    """(layout, files a folder) of the journal in folder root, whose names are `names`: from
    its "fmt" file; else (a journal written before there was one: layout -1; the file there
    but unreadable: 0) from where its records are (16 files a folder in layout 1, else 12).
    Foreign for a layout not read here."""
    v = -1
    if "fmt" in names:
        body = check(read(root + "/fmt") or b"")
        v = 0
        if body is not None and body.startswith("journal ") and body[8:].isdigit():
            v = int(body[8:])
            if v not in _LAYOUTS:
                raise Foreign("journal: layout %d in %s is not one this firmware reads"
                              % (v, root))
            return v, _LAYOUTS[v]
    from firmware import journal_fix  # (a journal written before: rare, let go after)

    nf = journal_fix.detect(root, names)
    unload("journal_fix")
    return v, nf


def ints(names, prefix):
    # The numbers n of the names prefix + str(n), ignoring any other name.
    out = []
    for name in names:
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            out.append(int(name[len(prefix):]))
    return out


class Journal:
    """The match's accepted events on flash (see the header).

    open() never raises Damaged: it resumes the longest run of records it can read in order,
    moves every file it finds unreadable, and every file after a record it can't read, aside
    as NAME.bad (never deleting one), and says what went: `lost` is the number of records the
    journal has evidence of (a later record, a snapshot, a pack, the next file made ahead) that
    it could not resume; `uncertain` is True when a damaged file may have held records past
    that evidence (more may be lost than `lost` says); `moved` lists the files moved aside. An
    action's unfinished group of records at the end (a power cut half-way) is dropped, and not
    counted: it was never shown. Only the filesystem's own failures (OSError from listdir,
    open or rename, e.g. the folder being a file) and Foreign (a layout this firmware doesn't
    write, left as it is) come out of open(). After open(), a record it needs that a later
    read (a deep undo) finds unreadable raises Damaged, changing nothing."""

    def __init__(self, root):
        self.root = root
        self.head = -1  # seq of the last record on flash, -1: none
        self.hold = False  # True: records are held in RAM until commit() (the app's, which
        # commits once the key's screens are out); False: each is written as it comes
        self.held = 0  # the records held, not yet on flash (seq head + 1 ...)
        self.depth = 0  # accepted events (undos taken out)
        self.bw = 0  # the window of the snapshot in RAM: its state is after 16 * bw events
        self.snap = None  # that state as JSON text (None: before the new event)
        self.lines = []  # JSON of the events after it
        self.lost = 0  # records known lost at open() (see the class's doc)
        self.uncertain = False  # a damaged file at open() may have held more records
        self.moved = []  # files moved aside at open() (they are kept, never deleted)
        self._nf = _F  # files a folder, and records a folder (the layout's)
        self._np = _P
        self._top = -1  # the last record that ends an action (replays stop there), held ones
        # included
        self._hs = [None] * (2 * _H)  # type: list  # the held records: 4 * depth + kind
        # (its index in KINDS), then the payload, each
        self._gm = 0  # bit j: lines[j]'s record said more of its action follows
        self._bs = -1  # the seq of the record that brought the match to the snapshot's window
        self._f = None  # the file being appended to, open
        self._fs = -1  # the seq its first record has (or will have)
        self._pf = None  # the folder's p<n>.new, open from its first record (None: copied)
        self._pn = 0  # that folder's n
        self._fn = -1  # the folder whose path _dir holds ("ROOT/eN"), made once a folder
        self._dir = ""
        self._due = -1  # the record whose window's snapshot (bw, snap) tidy() writes; -1: none
        self._full = -1  # the full folder tidy() packs, -1: none
        self._c0 = None  # record 0's time (rtc.clock()'s count; -1 none), None: not read yet
        self._fq = -1  # the file's first record whose time (the same count) _fc holds
        self._fc = -1
        self._buf = bytearray(_B)  # where each line is built
        self._mv = memoryview(self._buf)
        mkdir(root)

    # ------------------------------------------------------------ match.Log's methods

    def __len__(self):
        return self.depth

    def append(self, ev, state, more=False):
        # more: another event of the same action follows (recovery drops an unfinished one).
        # Written at once unless hold (then by commit()); a write that fails (the flash failed
        # or is full) leaves RAM as flash holds it (reopened) and raises OSError.
        self._room()
        line = json.dumps(ev, separators=(",", ":"))
        self._hold(self.depth + 1, 2 if more else 0, line)
        self.depth += 1
        self.lines.append(line)
        if more:
            self._gm |= 1 << len(self.lines) - 1
        if self.depth % _K == 0:
            self._snapped(state)
        if not self.hold:
            self.commit()

    def pop(self, more=False):
        self._room()
        d = self.depth - 1
        if d < 0:
            raise IndexError("journal: nothing to undo")
        base = None
        if d < self.bw * _K:
            base = self._find(d)  # read before anything is held: Damaged changes nothing
        self._hold(d, 3 if more else 1, "-")
        self.depth = d
        if base is None:
            self.lines.pop()
            self._gm &= (1 << len(self.lines)) - 1
        else:
            self.bw, self.snap, self.lines, self._gm, self._bs = base
            self._due = -1  # (a window's snapshot still to write is undone: never valid)
        if not self.hold:
            self.commit()

    def commit(self):
        """Write the held records to flash, in order (with hold, the app calls this once the
        key's screens are out: Table.after_screen); until then a power cut loses them, and the
        journal resumes at the last record written. A write that fails leaves the journal as
        flash holds it (reopened) and raises OSError."""
        n = self.held
        if not n:
            return
        try:
            for i in range(n):
                f = self._full
                if f >= 0:  # the record before filled its folder: packed before the next
                    self._full = -1
                    self._let_go()
                    self._pack(f)
                x = self._hs[2 * i]
                self._write(x >> 2, KINDS[x & 3], self._hs[2 * i + 1])
                self._hs[2 * i + 1] = None
        except OSError:
            self.held = 0
            self.open()
            raise
        self.held = 0

    def _hold(self, depth, kind, payload):
        # The next record (kind: its index in KINDS), held in a slot until commit().
        i = self.held
        self._hs[2 * i] = 4 * depth + kind
        self._hs[2 * i + 1] = payload
        self.held = i + 1
        self._top = self.head + i + 1

    def _room(self):
        # Before a record is held: the held ones written if no slot is left, then tidy().
        if self.held == _H:
            self.commit()
        self.tidy()

    def action(self):
        """The number of events of the last action (an action's records say whether more of it
        follows): what one press of undo takes back."""
        n = self.depth
        j = n - 1 - self.bw * _K
        k = 1 if n else 0
        while j > 0 and self._gm >> j - 1 & 1:
            j -= 1
            k += 1
        if j > 0 or not self.bw or not n:
            return k
        # The action may begin below the window: the records up to its snapshot's one
        seq = self._bs
        d = self.bw * _K
        if j < 0:  # (the last event is the snapshot's own)
            seq -= 1
            d -= 1
        try:
            for r in list(self.records(max(0, seq - 15), seq + 1))[::-1]:
                if r[0] != seq or r[1] != d or r[2] != "g":
                    break
                k += 1
                seq -= 1
                d -= 1
        except Damaged:
            pass
        return k

    def event(self, i):
        j = i - self.bw * _K
        if j < 0:
            raise IndexError("journal: event %d is on flash only" % i)
        return json.loads(self.lines[j])

    def base(self):
        return (None if self.snap is None else json.loads(self.snap)), self.bw * _K

    def _snapped(self, state):
        # The state after a multiple of 16 events, the newest: the base in RAM, and that
        # window's snapshot on flash once tidy() writes it.
        w = self.depth // _K
        self.bw = w
        self.snap = json.dumps(state, separators=(",", ":"))
        self.lines.clear()
        self._gm = 0
        self._due = self._bs = self._top

    def tidy(self):
        """The writing an event's record leaves for later: its window's snapshot, a full
        folder's pack, the next record's new file (and folder). None is needed for the record
        to count (a journal without them reads the same, with more records to read; an empty
        file holds none), so the app calls this once the event's screen is out (on the
        virtual Pico a snapshot takes 3-7 ms, a new folder 14 ms); every other operation calls
        it first, so the order on flash is as if it were done at once. A snapshot whose record
        is held waits for it (commit(), then tidy()). A failure leaves the journal as flash
        holds it (reopened). With nothing to do it returns in a frame small enough for the C
        stack (the app asks at each pass; firmware/mem.py)."""
        nxt = self.head + 1
        new_file = nxt % _R == 0 and self._fs != nxt
        if new_file or self._due >= 0 or self._full >= 0:
            self._tidy(nxt, new_file)

    def _tidy(self, nxt, new_file):
        due = self._due
        if due >= nxt:
            due = -1
        n = self._full
        if due >= 0:
            self._due = -1
        self._full = -1
        try:
            if due >= 0:  # (every other operation tidies first: bw is still that window)
                w = self.bw
                f = _create("%s/s%d/%d" % (self.root, w // _S, w % _S), "wb")  # over the old
                try:
                    self._put(f, None, due, w * _K, 0, self.snap.encode())
                finally:
                    f.close()
            if n >= 0:
                self._let_go()
                self._pack(n)
            if new_file:
                self._ready(nxt)  # a new file, and a new folder: 2-14 ms of littlefs
        except OSError:
            self.open()

    # ------------------------------------------------------------ writing

    def _ready(self, seq):
        # The files record seq goes into, open: a new record file every _R records (the old one,
        # and its 1 KB cache, let go first), and from a folder's first record its pack, written
        # alongside. tidy() makes them for the next record ahead of it.
        if seq % _R == 0 and self._fs != seq:
            self._let_go()
        if seq % self._np == 0 and self._pf is None:
            self._pn = seq // self._np
            self._pf = open("%s/p%d.new" % (self.root, self._pn), "wb")
        if self._f is None:
            self._f = _create(self._path(seq), "ab")
            self._fs = seq - seq % _R

    def _write(self, depth, kind, payload):
        seq = self.head + 1
        self._ready(seq)
        self._put(self._f, self._pf, seq, depth, ord(kind), payload.encode(), self._stamp(seq))
        self._f.flush()  # committed before the display confirms it (the pack: when full)
        if seq == 0:  # a new journal: its layout, and evidence that record 0 was written
            try:
                with open(self.root + "/fmt", "wb") as f:
                    f.write(_fmt_line(_FMT))
            except OSError:
                pass  # (read by where its records are)
        self.head = seq
        if seq % self._np == self._np - 1:
            self._full = seq // self._np  # packed by tidy()

    def _stamp(self, seq):
        # Record seq's time as its line carries it (layout 4, see the header): on record 0 the
        # clock's time (seconds since 1970); on a file's first record the seconds since record
        # 0's, on the others the seconds since their file's first; their own time when that
        # one has none or the clock went back before it; -1: the clock never set.
        c = rtc.clock()
        f = seq - seq % _R
        if seq == 0:
            self._c0 = c
        if seq == f:
            self._fq = f
            self._fc = c
        if c >= 0 and seq:
            b = self._start() if seq == f else self._first(f)
            if 0 <= b <= c:
                return c - b
        return c + rtc.EPOCH if c >= 0 else -1

    def _put(self, f, g, a, b, kind, data, t=-1):
        # Write the line "A BKIND[T]DATA CRC\n" (a record: kind a byte; t >= 0 its time, base
        # 36; data bytes) or "A B DATA CRC\n" (kind 0: a snapshot) to f and to g if it is not
        # None, built in the buffer: one write where it fits, else its head, data and tail apart.
        buf = self._buf
        i = _dec(buf, 0, a)
        buf[i] = 32
        i = _dec(buf, i + 1, b)
        if kind:
            buf[i] = kind
            i += 1
            if t >= 0:
                i = _dec(buf, i, t, 36)
        else:
            buf[i] = 32
            i += 1
        n = len(data)
        if i + n + 10 <= _B:
            buf[i:i + n] = data
            i += n
            c = crc(self._mv[:i])
        else:
            c = crc(data, crc(self._mv[:i]))
            _out(f, buf, i)
            f.write(data)
            if g is not None:
                _out(g, buf, i)
                g.write(data)
            i = 0
        buf[i] = 32
        struct.pack_into(">I", buf, i + 5, c)  # its four bytes, then spread as hex digits
        for k in range(4):
            x = buf[i + 5 + k]
            buf[i + 1 + 2 * k] = _HEX[x >> 4]
            buf[i + 2 + 2 * k] = _HEX[x & 15]
        buf[i + 9] = 10
        _out(f, buf, i + 10)
        if g is not None:
            _out(g, buf, i + 10)

    def _pack(self, n):
        # Folder e<n> is full: its records into p<n> (whole, then renamed), then let the folder
        # go. A power cut before the rename leaves the folder as it was; after it, open()
        # finishes removing the folder.
        d = self._folder(n)
        path = "%s/p%d" % (self.root, n)
        new = path + ".new"
        pf = self._pf
        self._pf = None
        if pf is not None:  # written along with the records: 12 files fewer to open
            pf.close()
            try:
                os.rename(new, path)
            except OSError:  # gone: this folder was opened meanwhile (open() removes it)
                pf = None
        if pf is None:  # copied (the journal was opened after the folder's first record)
            ok = True
            with open(new, "wb") as out:
                for m in range(self._nf):
                    ok = ok and self._copy("%s/%d" % (d, m), out)
            if not ok:  # something there is not as written: keep the small files
                os.remove(new)
                return
            os.rename(new, path)
        for m in range(self._nf):  # (by name: listing the folder would allocate its names)
            os.remove("%s/%d" % (d, m))
        try:
            os.rmdir(d)
        except OSError:  # a file moved aside at open() (NAME.bad) is still there
            remove_tree(d)

    def _copy(self, path, out):
        # Copy file path to out if it holds _R whole lines and is shorter than littlefs's inline
        # size (a rare longer file stays as it is), a piece at a time through the line buffer:
        # nothing allocated. A file not as written is still copied in part; the caller then
        # drops the copy. Each line keeps its seq and CRC: reading checks them, as before.
        try:
            f = open(path, "rb")
        except OSError:
            return False
        buf = self._buf
        size = lines = last = 0
        with f:
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                for i in range(n):
                    if buf[i] == 10:
                        lines += 1
                last = buf[n - 1]
                size += n
                _out(out, buf, n)
        return size < _I and last == 10 and lines == _R

    def _let_go(self):
        # Close the record file (the folder's pack stays open).
        if self._f is not None:
            self._f.close()
            self._f = None
            self._fs = -1

    def close(self):
        # The held records written (commit()), then the open files closed; a folder's pack
        # written so far is dropped (when the folder is full, its files are copied instead), and
        # so is what tidy() had left to write (flash holds the records without it).
        self.commit()
        self._due = -1
        self._full = -1
        self._let_go()
        if self._pf is not None:
            self._pf.close()
            self._pf = None
            try:
                os.remove("%s/p%d.new" % (self.root, self._pn))
            except OSError:
                pass  # (open() removes a stray one)

    # ------------------------------------------------------------ reading back

    def _folder(self, n):
        # "ROOT/eN", kept while folder n is written (its path is not made again each file).
        if self._fn != n:
            self._dir = "%s/e%d" % (self.root, n)
            self._fn = n
        return self._dir

    def _path(self, seq):
        return "%s/%d" % (self._folder(seq // self._np), seq // _R % self._nf)

    def records(self, start, stop):
        """The records with seq start .. stop - 1, in order (Damaged if one is unreadable): those
        on flash (up to head), then the held ones; (seq, depth, kind, payload, stamp) each,
        at(record) its time (a held record's stamp is None: its time is written with it)."""
        h = self.head
        if start <= h:
            yield from self._records(start, min(stop, h + 1))
        i = start - h - 1
        if i < 0:
            i = 0
        hs = self._hs
        while i < self.held and h + 1 + i < stop:
            x = hs[2 * i]
            yield h + 1 + i, x >> 2, KINDS[x & 3], hs[2 * i + 1], None
            i += 1

    def _records(self, start, stop):
        # The records on flash with seq start .. stop - 1 (records()).
        seq = start
        np = self._np
        while seq < stop:
            pack = "%s/p%d" % (self.root, seq // np)
            if exists(pack):
                first = seq - seq % np
                try:
                    with open(pack, "rb") as f:  # a line at a time: a pack is about 5 KB
                        k = first
                        line = f.readline()
                        while line and seq < stop and k < first + np:
                            if k >= seq:
                                recs = parse(line, k)[0]
                                if not recs:
                                    break
                                yield recs[0]
                                seq += 1
                            k += 1
                            line = f.readline()
                except OSError:  # (a folder)
                    pass
                if seq < stop and seq < first + np:
                    raise Damaged("journal: record %d is unreadable (%s)" % (seq, pack), seq)
                continue
            first = seq - seq % _R
            text = read(self._path(seq))
            recs = parse(text, first)[0] if text else []
            for r in recs[seq - first:]:
                if seq >= stop:
                    return
                yield r
                seq += 1
            if seq < stop and len(recs) < _R:
                raise Damaged("journal: record %d is unreadable (%s)" % (seq, self._path(seq)),
                              seq)

    def at(self, rec):
        """The time of record rec (from records()): seconds since 1970 UTC, or None when the
        board's clock was not set (or record 0, which a later record counts from, is
        unreadable)."""
        s = rec[4]  # (None: a record held in RAM, not yet stamped, or none)
        if s is None or s >= rtc.EPOCH:
            return s
        q = rec[0]
        b = self._start() if q % _R == 0 else self._first(q - q % _R)
        return None if b < 0 else b + rtc.EPOCH + s

    def _first(self, f):
        # The time of record f (a file's first) as rtc.clock() gives it (-1: none), kept.
        if self._fq != f:
            self._fq = f
            self._fc = -1
            try:
                for r in self.records(f, f + 1):
                    t = self.at(r)
                    if t is not None:
                        self._fc = t - rtc.EPOCH
            except Damaged:
                pass
        return self._fc

    def _start(self):
        # Record 0's time as rtc.clock() gives it (-1: none), read once.
        if self._c0 is None:
            self._c0 = -1
            try:
                for r in self.records(0, 1):
                    if r[4] is not None and r[4] >= rtc.EPOCH:
                        self._c0 = r[4] - rtc.EPOCH
            except Damaged:
                pass
        return self._c0

    def _snapshot(self, w):
        # (seq, state JSON) of window w's snapshot on flash, or None if missing or bad (a bad
        # one is moved aside: tidy() would write over it).
        if w == 0:
            return -1, None
        path = "%s/s%d/%d" % (self.root, w // _S, w % _S)
        text = read(path)
        body = check(text) if text else None
        if body is not None:
            parts = body.split(" ", 2)
            try:
                if int(parts[1]) == w * _K and len(parts) == 3:
                    return int(parts[0]), parts[2]
            except ValueError:
                pass
        if text is not None or exists(path):
            _fix().aside(self, path)
        return None

    def _window(self, w, depth):
        # (w, snapshot JSON, event lines, their group bits, the snapshot's seq) for `depth`
        # events from window w's snapshot, or None if it is missing or stale (a later record
        # went below it, or it is past the last record). An undo leaves the lines above it
        # until an event replaces them: an unfinished group of undos dropped at open() is
        # then as if never written.
        got = self._snapshot(w)
        if got is None:
            return None
        seq, snap = got
        if seq > self._top:
            return None
        low = w * _K
        lines = []
        gm = 0
        for r in self.records(seq + 1, self._top + 1):
            s, d, kind, payload = r[0], r[1], r[2], r[3]
            if d < low or kind in "eg" and d == low:
                return None
            if kind in "eg":
                if d - 1 - low > len(lines) and d <= depth + 1:
                    raise Damaged("journal: record %d skips events" % s, s)
                del lines[d - 1 - low:]
                gm &= (1 << d - 1 - low) - 1
                if d <= depth:  # (deeper ones are undone before depth: not kept meanwhile)
                    lines.append(payload)
                    if kind == "g":
                        gm |= 1 << d - 1 - low
            elif d > low + len(lines) and d <= depth:
                raise Damaged("journal: record %d undoes events never there" % s, s)
        del lines[depth - low:]
        gm &= (1 << depth - low) - 1
        if len(lines) != depth - low:
            raise Damaged("journal: events %d-%d are missing" % (low + len(lines), depth - 1),
                          self._top)
        return w, snap, lines, gm, seq

    def _find(self, depth):
        w = depth // _K
        while True:
            got = self._window(w, depth)
            if got is not None:
                return got
            w -= 1

    # ------------------------------------------------------------ recovery

    def open(self):
        """Find the last good record on flash and rebuild the base in RAM; returns self (see
        the class's doc for what it says of damage). Stray temporary files go."""
        self.close()
        root = self.root
        self._c0 = None
        self._fq = -1
        self.lost = 0
        self.uncertain = False
        self.moved = []
        self._doubt = []  # (first, last) seq a damaged file could have held
        names = os.listdir(root)
        v, nf = layout(root, names)
        ev = 0 if v > 0 else -1  # the last record there is evidence of (the layout file is
        # written after record 0)
        if v < 1 and (ints(names, "e") or ints(names, "p")):
            _fix().stamp(self, 1 if nf == 16 else 2, names)  # (no evidence: a new journal
            names = os.listdir(root)  # cut before its first record has folders too)
        self._nf = nf
        np = self._np = nf * _R
        for name in names:
            if name.endswith(".new"):  # a pack that was not renamed into place
                remove_tree(root + "/" + name)
        for n in ints(names, "s"):
            if not os.stat("%s/s%d" % (root, n))[0] & 0x4000:  # a file where snapshots go
                _fix().aside(self, "%s/s%d" % (root, n))
        packs = ints(names, "p")
        units = [2 * n * np + 1 for n in packs]  # 2 * first seq, + 1 for a pack
        for n in ints(names, "e"):
            d = "%s/e%d" % (root, n)
            if n in packs and _fix().whole(self, n):  # the rename was done; the copy had not gone
                remove_tree(d)
                continue
            try:
                sub = os.listdir(d)
            except OSError:  # a file where a folder of records goes
                _fix().aside(self, d)
                self._doubt.append((n * np, n * np + np - 1))
                continue
            for name in sub:  # a cut stopped half-way (see _cut): finish or drop it
                if name.endswith(".tmp"):
                    if exists(d + "/" + name[:-4]):
                        remove_tree(d + "/" + name)
                    else:
                        os.rename(d + "/" + name, d + "/" + name[:-4])
                        sub.append(name[:-4])
            for m in ints(sub, ""):
                if m < nf:
                    units.append(2 * (n * nf + m) * _R)
                else:
                    _fix().aside(self, "%s/%d" % (d, m))  # no record goes there
        units.sort()
        ahead = top = -1
        last = None
        for i in range(len(units) - 1, -1, -1):  # the newest readable record
            first = units[i] >> 1
            size = np if units[i] & 1 else _R
            if size > _R:  # a pack: read a line at a time
                n = 0
                try:
                    for r in self._records(first, first + np):
                        last = r
                        n += 1
                        if r[2] in "eu":
                            ev = max(ev, r[0])
                except Damaged:
                    self._doubt.append((first + n, first + np - 1))  # (cut there next)
                if n:
                    top = last[0]  # pyright: ignore[reportOptionalSubscript]
                    break
                _fix().aside(self, "%s/p%d" % (root, first // np))
                continue
            path = self._path(first)
            text = read(path)
            recs, used = parse(text, first) if text else ([], 0)
            if text is not None and not text and i == len(units) - 1 and size == _R:
                ahead = first - 1  # the next file, made ahead: the one before it was full
                continue
            if used < len(text or b"") or text is None:
                self._doubt.append((first + len(recs), first + size - 1))
                if recs:
                    _fix().cut(self, path, text, used)
                else:
                    _fix().aside(self, path)
            if recs:
                last = recs[-1]
                top = last[0]
                for r in recs:
                    if r[2] in "eu":
                        ev = max(ev, r[0])
                break
        text = recs = units = None
        if ahead > top:
            ev = max(ev, ahead)
        self.head = self._top = top
        while True:
            try:
                if last is not None and last[2] in "eu":
                    self.depth = last[1]
                else:
                    self._settle()
                last = None
                got = self._find(self.depth)
                break
            except Damaged as e:
                _fix().cut_at(self, e.args[1])
        self.bw, self.snap, self.lines, self._gm, self._bs = got
        # Snapshots written after the last record on flash (the records that brought them
        # are lost) are evidence, and go aside: later records would make them look valid.
        # Where nothing went, they can only be in the windows above the one used.
        w = self.depth // _K
        if self.moved or ev > self._top:
            ev = _fix().past(self, ev)
        else:
            if self.bw == w:
                w += 1
            while True:
                e = self._future(w, ev)
                if e is None:
                    break
                ev = e
                w += 1
        self.lost = max(0, ev - self._top)
        for a, b in self._doubt:
            if a <= ev + 1 and b > ev:
                self.uncertain = True
        del self._doubt
        unload("journal_fix")
        return self

    def _future(self, w, ev):
        # ev, or the seq of window w's snapshot if it is after the last record on flash (then
        # moved aside); None if there is none.
        s = self._snapshot(w) if w else None
        if s is None:
            return None
        if s[0] > self.head:
            _fix().aside(self, "%s/s%d/%d" % (self.root, w // _S, w % _S))
            return max(ev, s[0])
        return ev

    def _settle(self):
        # From self.head: the last record that ends an action (_top) and its depth; the records
        # after it (a power cut half-way through an action) are left out. Damaged if one of
        # them can't be read.
        top = self.head
        while top >= 0:
            lo = top if top == self.head else max(0, top - 3)
            for r in list(self.records(lo, top + 1))[::-1]:
                if r[2] in "eu":
                    self._top = r[0]
                    self.depth = r[1]
                    return
            top = lo - 1
        self._top = -1
        self.depth = 0

def _fix():
    # The repairs' module (firmware/journal_fix.py), loaded when there is something to repair.
    from firmware import journal_fix

    return journal_fix


def remove_tree(path):
    # Remove a file, or a folder and all it holds (nothing if it is not there).
    try:
        st = os.stat(path)
    except OSError:
        return
    if st[0] & 0x4000:
        for name in os.listdir(path):
            remove_tree(path + "/" + name)
        os.rmdir(path)
    else:
        os.remove(path)


def set_aside(path):
    # Rename path (a file or a folder) to path.bad, or .bad2, .bad3 ... if taken: kept, never
    # deleted. Returns the new name.
    bad = path + ".bad"
    k = 1
    while exists(bad):
        k += 1
        bad = "%s.bad%d" % (path, k)
    os.rename(path, bad)
    return bad


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False
