# An emulated NOR flash under real littlefs (PyPI littlefs-python), with an `os`-like shim so
# firmware/journal.py and firmware/store.py run on it unchanged, power cuts and wear counting.
"""NOR flash for littlefs-python, configured as MicroPython's rp2 port mounts the Pico's flash.

NorFlash(block_count)       4,096-byte blocks; erase sets a block to 0xFF; a program only clears
                            bits (new = old & data; `bad_progs` counts programs that would have to
                            set one); counts erases per block, programs and bytes programmed
                            (reads too). `log` (a list, if set) records every erase and program,
                            so that the image at any point of a run can be rebuilt (`cuts`).
                            power_cut(n): power is lost during the n-th erase-or-program (1-based):
                            an erase is not done; a program is done for the first half of its
                            bytes (`torn`); from then on the device is dead (every erase and
                            program returns LFS_ERR_IO and changes nothing) and the shim raises
                            PowerCut at the firmware's next file operation. (littlefs-python calls
                            the callbacks from Cython and swallows an exception raised there, so
                            the callback reports an I/O error and the shim raises.)
new_fs(), mount(image)      a formatted / an existing image mounted as the Pico does it: littlefs
                            2.11, read_size 32 (VfsLfs2's default readsize), prog_size 256
                            (rp2's progsize=256), cache_size 1024 (4 * 256, vfs_lfsx.c), hence
                            files up to 512 bytes inline (block_size / 8), lookahead 32 bytes,
                            block_cycles 100 (vfs_lfsx.c). mount() never formats: it raises.
Shim(fs), installed(fs)     os-like functions over a mounted LittleFS (listdir, mkdir, rename,
                            remove, rmdir, stat, open) raising OSError; installed() puts them in
                            firmware.journal and firmware.store (module globals shadow the
                            builtins) and restores what was there.
cuts(image, log)            every image a power cut during the run could leave: before each
                            operation (it not done) and, for a program, with half of it done.
match_141(), match_9ball()  legal matches made by the rules core (seeded, with undos).
wear_figures(), report()    the wear of a 150-point 14.1 match and a 9-ball race on a 352-block
                            filesystem, and the one-file alternative, for tests and make bench.
"""

import contextlib
import json
import random

from littlefs import LittleFS, LittleFSError, UserContext, lfs

BLOCK = 4096
PICO_BLOCKS = 352  # 1.4 MB: the filesystem of a Pico (2 MB flash, 640 KB firmware)
CONFIG = {"block_size": BLOCK, "read_size": 32, "prog_size": 256, "cache_size": 1024,
          "lookahead_size": 32, "block_cycles": 100}
ERR_IO = -5


class PowerCut(Exception):
    """The emulated board lost power (NorFlash.power_cut)."""


class NorFlash(UserContext):
    def __init__(self, block_count=PICO_BLOCKS, image=None):
        if image is None:
            image = b"\xff" * (block_count * BLOCK)
        self.buffer = bytearray(image)
        self.block_count = len(self.buffer) // BLOCK
        self.log = None  # a list: ("e", block) and ("p", block, off, data) appended
        self.cut = 0  # power lost during this operation (0: never)
        self.dead = False
        self.reset()

    def reset(self):
        """Zero the counters (and the operation numbering)."""
        self.erases = [0] * self.block_count
        self.ops = 0  # erases and programs
        self.progs = 0
        self.prog_bytes = 0
        self.reads = 0
        self.bad_progs = 0

    def power_cut(self, n):
        """Lose power during operation n from now on (1-based; see the module's doc)."""
        self.cut = self.ops + n

    # ------------------------------------------------------------ littlefs's callbacks

    def read(self, cfg, block, off, size):
        self.reads += 1
        start = block * BLOCK + off
        return self.buffer[start:start + size]

    def prog(self, cfg, block, off, data):
        if self.dead:
            return ERR_IO
        self.ops += 1
        if self.ops == self.cut:
            self.dead = True
            data = data[:len(data) // 2]  # torn: the first half made it
        self.progs += 1
        self.prog_bytes += len(data)
        if self.log is not None:
            self.log.append(("p", block, off, bytes(data)))
        if program(self.buffer, block, off, data):
            self.bad_progs += 1
        return ERR_IO if self.dead else 0

    def erase(self, cfg, block):
        if self.dead:
            return ERR_IO
        self.ops += 1
        if self.ops == self.cut:
            self.dead = True
            return ERR_IO  # not done
        self.erases[block] += 1
        if self.log is not None:
            self.log.append(("e", block))
        erase(self.buffer, block)
        return 0

    def sync(self, cfg):
        return ERR_IO if self.dead else 0


def program(buf, block, off, data):
    """NOR programming of buf: bits only cleared; True if data wanted to set one."""
    start = block * BLOCK + off
    old = buf[start:start + len(data)]
    n = len(old)  # (the bytes of buf there: data cut to them)
    new = (int.from_bytes(old, "big") & int.from_bytes(data[:n], "big")).to_bytes(n, "big")
    buf[start:start + len(data)] = new
    return new != bytes(data)


def erase(buf, block):
    buf[block * BLOCK:(block + 1) * BLOCK] = b"\xff" * BLOCK


def new_fs(block_count=PICO_BLOCKS):
    """(NorFlash, LittleFS): a blank flash formatted and mounted, counters at zero."""
    nor = NorFlash(block_count)
    fs = LittleFS(nor, mount=False, block_count=block_count, **CONFIG)  # pyright: ignore
    fs.format()
    fs.mount()
    nor.reset()
    return nor, fs


def write_files(fs, files):
    """Write files ({board path: bytes}, their folders made) into the mounted LittleFS fs."""
    for path, data in files.items():
        folder = path.strip("/").rpartition("/")[0]
        if folder:
            fs.makedirs(folder, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(data)


def mount(image):
    """(NorFlash, LittleFS) on a copy of image; LittleFSError if it does not mount."""
    nor = NorFlash(image=image)
    fs = LittleFS(nor, mount=False, block_count=nor.block_count, **CONFIG)  # pyright: ignore
    fs.mount()
    return nor, fs


def cuts(image, log):
    """(n, how, image) for every power cut during the operations of log, run from image:
    n operations done and the next one ("before") not done, or ("torn") a program with the
    first half of its bytes done; last (len(log), "end", the final image)."""
    buf = bytearray(image)
    for n, op in enumerate(log):
        yield n, "before", buf
        if op[0] == "p":
            torn = bytearray(buf)
            program(torn, op[1], op[2], op[3][:len(op[3]) // 2])
            yield n, "torn", torn
            program(buf, op[1], op[2], op[3])
        else:
            erase(buf, op[1])
    yield len(log), "end", buf


# ---------------------------------------------------------------- the os-like shim

_R = lfs.LFSFileFlag.rdonly  # pyright: ignore
_W = lfs.LFSFileFlag.wronly | lfs.LFSFileFlag.creat  # pyright: ignore
MODES = {"r": _R, "w": _W | lfs.LFSFileFlag.trunc, "a": _W | lfs.LFSFileFlag.append}  # pyright: ignore


class Shim:
    """The os functions firmware.journal and firmware.store use, on a mounted LittleFS."""

    def __init__(self, fs):
        self.fs = fs
        self.nor = fs.context

    def call(self, fn, *args):
        # fn(self.fs.fs, *args), littlefs errors as OSError, PowerCut once the power is gone.
        if self.nor.dead:
            raise PowerCut()
        try:
            out = fn(self.fs.fs, *args)
        except LittleFSError as e:
            if self.nor.dead:
                raise PowerCut() from e
            raise OSError(-e.code, "%s: %s" % (e.name, args[0] if args else "")) from e
        if self.nor.dead:
            raise PowerCut()
        return out

    def listdir(self, path=""):
        dh = self.call(lfs.dir_open, path or "/")
        names = []
        try:
            while True:
                info = self.call(lfs.dir_read, dh)
                if not info:
                    return names
                if info.name not in (".", ".."):
                    names.append(info.name)
        finally:
            lfs.dir_close(self.fs.fs, dh)

    def mkdir(self, path):
        self.call(lfs.mkdir, path)

    def rename(self, old, new):
        self.call(lfs.rename, old, new)

    def remove(self, path):
        self.call(lfs.remove, path)

    rmdir = remove

    def statvfs(self, path):
        # As MicroPython's on littlefs: (bsize, frsize, blocks, bfree, bavail, ...).
        cfg = self.fs.cfg
        free = cfg.block_count - self.fs.used_block_count
        return (cfg.block_size, cfg.block_size, cfg.block_count, free, free, 0, 0, 0, 0, 255)

    def stat(self, path):
        st = self.call(lfs.stat, path)
        mode = 0x4000 if st.type == lfs.LFSStat.TYPE_DIR else 0x8000
        return (mode, 0, 0, 0, 0, 0, st.size, 0, 0, 0)

    def open(self, path, mode="r"):
        if mode.strip("bt") not in MODES:
            raise ValueError("mode %r" % mode)
        return File(self, self.call(lfs.file_open, path, MODES[mode.strip("bt")]), "b" in mode)


class File:
    # A MicroPython file on littlefs: write goes to littlefs's file cache, flush syncs it.
    def __init__(self, shim, fh, binary):
        self.shim = shim
        self.fh = fh
        self.binary = binary
        self.closed = False

    def write(self, data):
        if not self.binary:
            data = data.encode()
        return self.shim.call(lfs.file_write, self.fh, bytes(data))

    def read(self, n=-1):
        size = self.shim.call(lfs.file_size, self.fh) - self.shim.call(lfs.file_tell, self.fh)
        data = self.shim.call(lfs.file_read, self.fh, size if n < 0 else min(n, size))
        return data if self.binary else data.decode()

    def seek(self, off, whence=0):
        return self.shim.call(lfs.file_seek, self.fh, off, whence)

    def readinto(self, buf):
        data = self.shim.call(lfs.file_read, self.fh, len(buf))
        buf[:len(data)] = data
        return len(data)

    def readline(self, size=512):
        # Up to and with the next newline, at most size bytes (MicroPython's files have it too).
        start = self.shim.call(lfs.file_tell, self.fh)
        data = self.shim.call(lfs.file_read, self.fh, size)
        i = data.find(b"\n")
        if i >= 0:
            data = data[:i + 1]
            self.shim.call(lfs.file_seek, self.fh, start + i + 1, 0)
        return data if self.binary else data.decode()

    def flush(self):
        self.shim.call(lfs.file_sync, self.fh)

    def close(self):
        if not self.closed:
            self.closed = True
            self.shim.call(lfs.file_close, self.fh)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


CLOCK_START = 1767225600  # the board clock's first reading: 2026-01-01 00:00 UTC
PACE_S = 20  # and its seconds from one reading (a record's time) to the next


@contextlib.contextmanager
def installed(fs):
    """firmware.journal and firmware.store use fs (a mounted LittleFS) inside the block, and a
    board's clock set by the deploy: each reading (a record's time) PACE_S seconds after the one
    before (a 150-point 14.1 match of 800 records in 4.4 hours), the same bytes in every run."""
    from firmware import journal, rtc, store

    shim = Shim(fs)
    missing = object()
    saved = [(m, name, m.__dict__.get(name, missing)) for m in (journal, store)
             for name in ("os", "open")]
    for m in (journal, store):
        m.os = shim  # pyright: ignore
        m.open = shim.open  # pyright: ignore
    clock = rtc.clock
    t = [CLOCK_START - rtc.EPOCH - PACE_S]

    def board_clock():
        t[0] += PACE_S
        return t[0]

    rtc.clock = board_clock
    try:
        yield shim
    finally:
        rtc.clock = clock
        for m, name, old in saved:
            if old is missing:
                delattr(m, name)
            else:
                setattr(m, name, old)


# ---------------------------------------------------------------- matches by the rules core

def _play(first, propose, seed, undo_rate, limit):
    # Events from `first` on, each proposed from the state and kept if the core accepts it;
    # an undo now and then; until the match is won (or `limit` events).
    from firmware import rules
    from firmware.match import Match

    rnd = random.Random(seed)
    m = Match()
    evs = []
    for ev in first:
        m.apply(ev)
        evs.append(ev)
    while m.get("winner") is None and len(evs) < limit:
        if len(m.log) > 3 and rnd.random() < undo_rate:
            ev = {"t": "undo"}
        elif m.get("pending"):
            ev = {"t": "choose", "option": rnd.choice(m.options())}
        else:
            ev = propose(m, rnd)
        try:
            m.apply(ev)
        except rules.Refused:
            continue
        evs.append(ev)
    return evs


def _shot_141(m, rnd):
    if m.get("breaking"):
        good = rnd.random() < 0.8
        return {"t": "shot", "first": 1, "break_rails": 2 if good else 1, "cue_rail": True,
                "rail": True}
    r = rnd.random()
    b = rnd.randint(1, 15)
    if r < 0.42:
        ev = {"t": "shot", "call": b, "first": b, "pots": [b], "made": True, "rail": True}
        if m.balls_left() > 3 and rnd.random() < 0.1:
            ev["pots"].append(b % 15 + 1)
        return ev
    if r < 0.8:
        return {"t": "shot", "call": b, "first": b, "rail": True}
    if r < 0.93:
        return {"t": "shot", "call": "safety", "first": b, "rail": True}
    if r < 0.97:
        return {"t": "shot", "first": b, "pots": [0], "rail": True}
    return {"t": "shot", "first": None}


def match_141(seed=1, target=150, undo_rate=0.03, limit=5000):
    """A 14.1 match to `target` points each (the events the core accepted, undos included)."""
    first = [{"t": "new", "game": "14.1", "players": ["Ilke", "Jale"], "target": [target, target]},
             {"t": "lag", "breaker": 0}]
    return _play(first, _shot_141, seed, undo_rate, limit)


def _shot_9(m, rnd):
    t = m.get("table")
    low = t[0]
    if m.get("breaking"):
        pots = [b for b in t if rnd.random() < 0.12]
        return {"t": "shot", "first": 1, "pots": pots, "break_rails": 4, "rail": True}
    r = rnd.random()
    if m.get("push") and r < 0.1:
        return {"t": "shot", "call": "push", "first": None}
    if r < 0.5:
        pots = [low]
        if 9 in t and low != 9 and rnd.random() < 0.05:
            pots.append(9)
        return {"t": "shot", "first": low, "pots": pots, "rail": True}
    if r < 0.88:
        return {"t": "shot", "first": low, "rail": True}
    if r < 0.95:
        return {"t": "shot", "first": low, "pots": [0], "rail": True}
    return {"t": "shot", "first": None}


def match_9ball(seed=1, race=7, undo_rate=0.03, limit=5000):
    """A 9-ball race to `race` racks each."""
    first = [{"t": "new", "game": "9ball", "players": ["Can", "Deniz"], "race": [race, race]},
             {"t": "lag", "breaker": 0}]
    return _play(first, _shot_9, seed, undo_rate, limit)


# ---------------------------------------------------------------- wear

def play_journal(evs, nor, fs, store=None):
    """Play evs through Match(Journal) of a Store on fs (a fresh journal: the one there is
    archived, the archive pruned), as the app does: each event's record held, then written once
    its screen is out (commit), then the journal's later work (tidy); returns (the operation
    count when each event was written, the state contract after it as sorted JSON, the sectors
    each commit erased: the erases that delay the key's unsaved mark going)."""
    from firmware.match import Match
    from firmware.store import Store

    with installed(fs):
        st = store or Store("")
        m = Match(st.fresh())
        m.log.hold = True
        st.prune()  # what the app's passes do after a Start
        ends = []
        states = []
        erased = []
        for ev in evs:
            m.apply(ev)
            e = sum(nor.erases)
            m.log.commit()
            erased.append(sum(nor.erases) - e)
            m.log.tidy()
            ends.append(nor.ops)
            states.append(json.dumps(m.state(), sort_keys=True))
        m.log.close()
    return ends, states, erased


def one_file(lines, nor, fs, path="one.log"):
    """Append lines to one file, a flush after each (the design the journal avoids)."""
    with installed(fs) as shim:
        f = shim.open(path, "ab")
        for line in lines:
            f.write(line)
            f.flush()
        f.close()


def base36(n):
    """A record's time as the journal writes it after its kind (base 36), "" for None."""
    if n is None:
        return ""
    out = ""
    while True:
        out = "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36] + out
        n //= 36
        if not n:
            return out


def journal_lines(fs, root="match"):
    """The record lines of the journal in root, in order, as bytes (read back through it)."""
    from firmware import journal

    with installed(fs):
        j = journal.Journal(root).open()
        out = []
        for r in j.records(0, j.head + 1):
            body = ("%d %d%s%s%s" % (r[0], r[1], r[2], base36(r[4]), r[3])).encode()
            out.append(b"%s %08x\n" % (body, journal.crc(body)))
        j.close()
    return out


def _counts(nor, before, events):
    erases = [a - b for a, b in zip(nor.erases, before["erases"])]
    progs = nor.progs - before["progs"]
    pbytes = nor.prog_bytes - before["prog_bytes"]
    return {"events": events, "erases": sum(erases), "max_block": max(erases),
            "blocks_erased": sum(1 for x in erases if x), "progs": progs,
            "prog_bytes": pbytes, "bytes_per_event": pbytes / events,
            "erases_per_event": sum(erases) / events}


def _mark(nor):
    return {"erases": list(nor.erases), "progs": nor.progs, "prog_bytes": nor.prog_bytes}


def wear_figures(block_count=PICO_BLOCKS, per_day=10, years=5, cycles=100000, seed=2):
    """Erases and programs of a 150-point 14.1 match and a 9-ball race to 7 played through the
    Store's journal (the 14.1 one archived when the 9-ball one starts), on a fresh filesystem
    of block_count blocks, and the same 14.1 records appended to one file instead.
    Five-year wear at per_day matches a day, all of them 14.1 matches like this one:
      levelled: the filesystem's erases spread over all its blocks (littlefs's dynamic wear
                levelling: new blocks come from a rotating allocator over every free block,
                metadata pairs move every block_cycles=100 erases; the archive is pruned, so
                no block stays put for good), as a share of `cycles` erase cycles a block;
      worst:    no levelling at all across matches: the block erased most in one match is
                erased that often in every match."""
    nor, fs = new_fs(block_count)
    a = match_141(seed)  # seed 2: 794 events, 150 to 142
    b = match_9ball(seed)  # seed 2: 201 events, 7 racks to 6
    m0 = _mark(nor)
    erased = play_journal(a, nor, fs)[2]
    f141 = _counts(nor, m0, len(a))
    f141["commit_erases"] = [erased.count(k) for k in range(max(erased) + 1)]
    f141["blocks_used"] = fs.used_block_count  # the match's journal, and littlefs's own
    lines = journal_lines(fs)
    m1 = _mark(nor)
    play_journal(b, nor, fs)
    f9 = _counts(nor, m1, len(b))
    fs.unmount()
    nor2, fs2 = new_fs(block_count)
    m2 = _mark(nor2)
    one_file(lines, nor2, fs2)
    fone = _counts(nor2, m2, len(lines))
    matches = per_day * 365 * years
    out = {"block_count": block_count, "matches_5y": matches, "cycles": cycles,
           "m141": f141, "m9": f9, "one_file": fone,
           "records": len(lines), "bad_progs": nor.bad_progs + nor2.bad_progs}
    for f in (f141, fone):
        f["wear_levelled"] = f["erases"] * matches / block_count / cycles
        f["wear_worst"] = f["max_block"] * matches / cycles
    return out


def report(w):
    """make bench's lines for wear_figures()."""
    out = []
    for key, name in (("m141", "14.1 match to 150"), ("m9", "9-ball race to 7")):
        f = w[key]
        out.append("NOR flash, %s: %d events, %d erases (%d blocks, at most %d a block), "
                   "%d programs, %.0f bytes programmed an event"
                   % (name, f["events"], f["erases"], f["blocks_erased"], f["max_block"],
                      f["progs"], f["bytes_per_event"]))
    for key, name in (("m141", "journal"), ("one_file", "one file, flushed each record")):
        f = w[key]
        out.append("NOR flash, %s: %.2f erases an event; five years at 10 14.1 matches a day "
                   "(%d): %.1f%% of %d cycles levelled over %d blocks, %.0f%% for the worst "
                   "block unlevelled" % (name, f["erases_per_event"], w["matches_5y"],
                                         100 * f["wear_levelled"], w["cycles"],
                                         w["block_count"], 100 * f["wear_worst"]))
    out.append("NOR flash, space: the 14.1 match's journal and littlefs's own blocks take %d of "
               "%d blocks" % (w["m141"]["blocks_used"], w["block_count"]))
    return out
