# Torn writes: across a 1,000-event match with undos, the power is cut at
# every byte of every write the journal makes, the rest of that write left as 0xFF, 0x00 or
# garbage; recovery must give the state before or after the event in flight, never an exception.
# The journal runs on an in-memory filesystem (MemFS) that records each write as it is made.
import bisect
import contextlib
import json

import pytest

from firmware import journal
from firmware.match import Match
from firmware.mem import unload
from tests.helpers import long_141


class MemFile:
    def __init__(self, fs, path, mode):
        self.fs, self.path, self.mode = fs, path, mode
        if "w" in mode or "a" in mode:
            if path not in fs.files:
                fs.named(path, True)
                fs.files[path] = b""
            elif "w" in mode:
                fs.files[path] = b""
        elif path not in fs.files:
            raise OSError(2, "no such file: " + path)
        self.pos = 0

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.fs.wrote(self.path, data)
        self.fs.files[self.path] = self.fs.files[self.path] + data
        return len(data)

    def read(self, n=-1):
        data = self.fs.files[self.path][self.pos:None if n < 0 else self.pos + n]
        self.pos += len(data)
        return data if "b" in self.mode else data.decode()

    def seek(self, off, whence=0):
        self.pos = off + (len(self.fs.files[self.path]) if whence == 2 else 0)
        return self.pos

    def readinto(self, buf):
        data = self.fs.files[self.path][self.pos:self.pos + len(buf)]
        buf[:len(data)] = data
        self.pos += len(data)
        return len(data)

    def readline(self):
        data = self.fs.files[self.path]
        i = data.find(b"\n", self.pos)
        end = len(data) if i < 0 else i + 1
        line = data[self.pos:end]
        self.pos = end
        return line if "b" in self.mode else line.decode()

    def flush(self):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class MemFS:
    """Files and folders in a dict, with os's calls as the journal uses them. wrote(path, data)
    is called before each write lands (a test hooks it). names: each folder's sorted names,
    made at the first listdir, kept as files come and go, made anew when a folder does; a copy
    shares them until it changes one (a recovery lists the same folders several times, and the
    cuts of one write all start from the same names)."""

    def __init__(self, files=None, dirs=None, names=None):
        self.files = dict(files or {})
        self.dirs = set(dirs or ("",))
        self.hook = None
        self.names = names

    def named(self, path, new):
        # File path comes (new) or goes: its folder's names changed in a list of this fs's own.
        if self.names is None:
            return
        i = path.rfind("/")
        folder, name = path[:i], path[i + 1:]
        if folder not in self.names:
            return
        names = list(self.names[folder])
        if new:
            bisect.insort(names, name)
        else:
            names.remove(name)
        self.names = dict(self.names)
        self.names[folder] = names

    def wrote(self, path, data):
        if self.hook is not None:
            self.hook(self, path, data)

    def open(self, path, mode="r"):
        if path[:path.rfind("/")] not in self.dirs:
            raise OSError(2, "no folder for " + path)
        return MemFile(self, path, mode)

    def listdir(self, path):
        if path not in self.dirs:
            raise OSError(2, path)
        return list(self._names()[path])  # (a list of its own: the journal appends to one)

    def _names(self):
        if self.names is None:
            names = {d: set() for d in self.dirs}
            for p in list(self.files) + list(self.dirs):
                i = p.rfind("/")
                if i >= 0 and p[:i] in names:
                    names[p[:i]].add(p[i + 1:])
            self.names = {d: sorted(n) for d, n in names.items()}
        return self.names

    def mkdir(self, path):
        if path in self.dirs or path in self.files:
            raise OSError(17, path)
        self.names = None
        self.dirs.add(path)

    def stat(self, path):
        if path in self.dirs:
            return (0x4000, 0, 0, 0, 0, 0, 0)
        if path in self.files:
            return (0x8000, 0, 0, 0, 0, 0, len(self.files[path]))
        raise OSError(2, path)

    def rename(self, a, b):
        if a in self.files:
            self.named(a, False)
            if b not in self.files:
                self.named(b, True)
            self.files[b] = self.files.pop(a)
            return
        raise OSError(2, a)

    def remove(self, path):
        del self.files[path]
        self.named(path, False)

    def rmdir(self, path):
        self.names = None
        self.dirs.remove(path)

    def copy(self):
        return MemFS(self.files, self.dirs, self._names())


def unload_keeping_fix(name):
    # journal's unload while mounted (and in other tests that recover a journal over and
    # over): the board lets go of journal_fix after each open() to free its RAM; here it stays
    # imported, as an import per recovery takes most of the time of such tests.
    if name != "journal_fix":
        unload(name)


@contextlib.contextmanager
def mounted(fs):
    saved = journal.os, getattr(journal, "open", None)
    journal.os = fs
    journal.open = fs.open  # pyright: ignore
    journal.unload = unload_keeping_fix
    try:
        yield fs
    finally:
        journal.unload = unload
        journal.os = saved[0]
        if saved[1] is None:
            del journal.open  # pyright: ignore
        else:
            journal.open = saved[1]  # pyright: ignore


FILLS = (lambda n: b"\xff" * n, lambda n: b"\x00" * n,
         lambda n: bytes((37 * i + 11) & 0xFF for i in range(n)))


def _recover(fs):
    with mounted(fs):
        m = Match(journal.Journal("m").open())
        m.rebuild()
        return m.state()


@pytest.fixture(scope="module")
def recorded():
    """Every write the journal makes across the match: (files before, folders, path, data, index
    of the event), and the states before and after each event."""
    fs = MemFS()
    writes = []
    now = {}

    def hook(fs, path, data):
        writes.append((dict(fs.files), set(fs.dirs), path, data, now["i"]))

    states = []
    with mounted(fs):
        m = Match(journal.Journal("m"))
        fs.hook = hook  # pyright: ignore
        for i, ev in enumerate(long_141(1000, seed=31, undo_every=17)):
            now["i"] = i
            states.append(json.dumps(m.state()))
            m.apply(ev, False)
        states.append(json.dumps(m.state()))
    return writes, states


def test_a_1000_event_match_makes_more_than_50000_cut_points(recorded):
    writes, states = recorded
    assert len(writes) > 1000 and len(states) == 1001
    assert sum(len(w[3]) for w in writes) > 50000


# The writes in SHARDS parts (every SHARDS-th write from part's), tests of their own that
# pytest-xdist's workers share.
SHARDS = 4


@pytest.mark.parametrize("part", range(SHARDS))
def test_power_cut_at_every_byte_of_every_write(recorded, part):
    writes, states = recorded
    cuts = 0
    for files, dirs, path, data, i in writes[part::SHARDS]:
        old = files.get(path, b"")
        base = MemFS(files, dirs)
        base.files[path] = old  # (each cut's copy shares its folders' names)
        for b in range(len(data)):
            torn = base.copy()
            torn.files[path] = old + data[:b] + FILLS[(b + i) % 3](len(data) - b)
            got = json.dumps(_recover(torn))
            assert got in (states[i], states[i + 1]), (i, path, b)
            cuts += 1
    assert cuts > 50000 // SHARDS // 2, cuts
