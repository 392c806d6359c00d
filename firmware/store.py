# What the board keeps on flash: the current match's journal, the archive of finished ones, and
# the settings, under one folder (the filesystem's root on a board).
#   match/           the journal of the match being played (firmware/journal.py)
#   hist/<n>/        archived matches, n counting up: at most _KEEP of them, and the oldest go
#                    first (after a new match starts, a file at a time between key scans: work())
#                    until _FREE of the filesystem is free, room for a long match (a 150-point
#                    14.1 match of 800 events takes about 40 of a Pico's 352 blocks, a 5,000-event
#                    one about 224), but never the newest _MIN (the match just archived is one).
#                    Below _ROOM free, Start asks first (Controller mode "full"). A match going is
#                    renamed hist/d<n> first (out of the archive at once), then removed.
#   settings.json    players, game, target/race, options, language, brightness (validated)
#   players.txt      the club's roster (make deploy PLAYERS=FILE): UTF-8, a name a line
#   recent.txt       the names of the last matches, the latest first (written at a match's start)
#   booting          there from boot until the app has run healthy a few seconds; it names the
#                    fault that boot met ("" none yet): found at the next boot after a watchdog
#                    reset, it brings the board up in safe mode (firmware.app.Runner)
# What can't be read is kept, never deleted: a match/ that can't be opened goes to the archive
# intact (hist/<n>, with a file "damaged" saying why), a match/ or settings.json that is not what
# it should be (a file, a folder) is renamed aside (NAME.bad, NAME.bad2, ...).
import json
import os

from firmware.journal import Journal, remove_tree, set_aside
from firmware.journal import exists as _exists
from firmware.journal import ints as _ints
from firmware.journal import mkdir as _mkdir
from firmware.journal import read as _read
from firmware.match import Log
from firmware.mem import const

_KEEP = const(20)  # archived matches kept at most
_FREE = const(40)  # percent of the filesystem's blocks left free for the new match
_NAMES = const(64)  # names read from a names file at most (the heap while setup is up)
_MIN = const(3)  # the newest archived matches never pruned for room (unless the referee says so)
_ROOM = const(15)  # percent free below which Start asks before anything goes (full())
_CFG_MAX = const(2048)  # a settings.json longer than this is not read (the firmware's is ~200 B)

# The settings and what each may be: (name, default, check) with check a tuple of the allowed
# values, or an int bound (a whole number from 1 to it), "name" (a player's name), or "ck" (the
# custom shot clock's five numbers).
SETTINGS = (("game", "14.1", ("14.1", "8ball", "9ball", "10ball")), ("p1", "P1", "name"),
            ("p2", "P2", "name"), ("t1", 100, 1000), ("t2", 100, 1000), ("r1", 5, 99),
            ("r2", 5, 99), ("break", None, (None, "alternate", "winner", "loser")),
            ("three", True, (True, False)), ("nine", "win", ("win", "spot")),
            ("ten", "spot", ("spot", "win")), ("lang", "en", ("en", "tr")), ("bright", None, 15),
            ("clock", None, (None, "wpa", "tv", "custom")), ("ck", [35, 60, 25, 1, 10], "ck"))
# (a check's None default is allowed as a value too: "bright" is null on a board without a wall
# panel, where the profile's level stands)


def defaults():
    return {k: v for k, v, _ in SETTINGS}


def utf8(b):
    """Is b UTF-8 as the standard has it (no overlong forms, surrogates or code points past
    U+10FFFF)? MicroPython's decoder takes them all."""
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        i += 1
        if c < 0x80:
            continue
        if c < 0xC2 or c > 0xF4:
            return False
        k = 1 if c < 0xE0 else (2 if c < 0xF0 else 3)
        lo = 0xA0 if c == 0xE0 else (0x90 if c == 0xF0 else 0x80)
        hi = 0x9F if c == 0xED else (0x8F if c == 0xF4 else 0xBF)
        if i + k > n:
            return False
        for j in range(k):
            x = b[i + j]
            if x < lo or x > hi:
                return False
            lo = 0x80
            hi = 0xBF
        i += k
    return True


def _name_ok(v):
    # A player's name: 1-12 characters of valid UTF-8, no control characters.
    if not isinstance(v, str) or not 0 < len(v) <= 12 or min(v) < " ":
        return False
    try:
        return utf8(v.encode())
    except UnicodeError:  # (CPython: a lone surrogate from a JSON escape)
        return False


def _bad(key, value, default, check):
    # Why value can't be setting key, or None if it can.
    if check == "name":
        ok = _name_ok(value)
    elif check == "ck":  # the custom shot clock's seconds: shot, first, ext, exts, warn (O7)
        ok = isinstance(value, (list, tuple)) and len(value) == 5 and all(
            [isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 600 for v in value]
        ) and value[0] >= 1 and value[1] >= 1 and value[3] <= 9
    elif isinstance(check, int):
        ok = value is None and default is None or isinstance(value, int) and not isinstance(
            value, bool) and 1 <= value <= check
    else:
        ok = any(value is c or type(value) is type(c) and value == c for c in check)
    return None if ok else key


def validate(data):
    """(settings, problem): the settings in data with defaults for what is missing; problem
    names the first bad value (then that one has its default) or is None."""
    out = defaults()
    if not isinstance(data, dict):
        return out, "settings"
    problem = None
    for key, default, check in SETTINGS:
        if key in data:
            why = _bad(key, data[key], default, check)
            if why is None:
                out[key] = data[key]
            elif problem is None:
                problem = why
    if out["p1"] == out["p2"]:
        out["p1"], out["p2"] = "P1", "P2"
        problem = problem or "p2"
    return out, problem


class Store:
    def __init__(self, root=""):
        self.root = root
        self.cur = root + "/match" if root else "match"
        self.hist = root + "/hist" if root else "hist"
        self.settings_path = root + "/settings.json" if root else "settings.json"
        self.due = True  # work() has something to do
        self.keepn = 0  # the fewest archived matches pruning keeps (0: no pruning to do)
        self.left = -1  # free blocks as measured, plus what pruning freed since (-1: to measure)
        self.blocks = 1  # the filesystem's blocks
        self.step = 0  # Start's next step for work() (start()), 0: none
        self.log = self.new = self.cfg = None  # Start's: the log, the journal made, settings
        self.moved = None  # a file found where match/ or hist/ goes, moved aside: its new name
        # (Any write makes littlefs finish a rename a power cut left half done, and this one
        # writes nothing otherwise: until then a listing of the root misses the name after the
        # one moved, as settings.json after match/ moved into hist/.)
        _mkdir(self.hist)
        self.kept = None  # where resume() or keep() put a match that could not be read

    # ------------------------------------------------------------ the match

    def resume(self):
        """The journal of the match being played (opened: recovered as far as it reads), or None
        on a blank filesystem or an empty journal. Never raises: a match/ that can't be opened
        at all is kept (keep()), and `kept` names where it went (else None)."""
        self.kept = None
        try:
            os.stat(self.cur)
        except OSError:
            return None
        j = None
        try:
            j = Journal(self.cur).open()  # (a file there: listing it fails)
            if j.head >= 0:
                return j
            j.close()
            if j.moved or getattr(j, "lost", 0):  # files there, and no record read
                self.keep("no record readable")
            return None
        except Exception as e:  # noqa: BLE001 - Damaged, OSError, MemoryError...: none resets
            if j is not None:
                try:
                    j.close()
                except Exception:  # noqa: BLE001
                    pass
            self.keep(type(e).__name__ + ": " + str(e))
            return None

    def keep(self, why):
        """The match being played, as it is, out of the way of a new one: a folder goes to the
        archive as a damaged match (hist/<n> with a file "damaged" holding why), anything else
        (or if that fails) is renamed aside (match.bad). Sets and returns `kept`: its name
        under the root, or None (nothing there, or nothing could be renamed)."""
        self.kept = None
        try:
            folder = os.stat(self.cur)[0] & 0x4000
        except OSError:
            return None
        if folder:
            try:
                _mkdir(self.hist)
                nums = self.archived()
                name = "hist/%d" % (nums[-1] + 1 if nums else 1)
                os.rename(self.cur, self._at(name))
                self.kept = name
                with open(self._at(name) + "/damaged", "w") as f:
                    f.write(why[:200])
            except Exception:  # noqa: BLE001 - a file /hist, a full flash: beside it, then
                pass
        if self.kept is None:
            self.kept = self._aside("match")
        return self.kept

    def _at(self, name):
        return self.root + "/" + name if self.root else name

    def _aside(self, name):
        # Rename name (under the root) to the first free of name.bad, name.bad2, ...: that new
        # name, or None if the rename failed.
        try:
            bad = set_aside(self._at(name))
        except OSError:
            return None
        return bad[len(self.root) + 1:] if self.root else bad

    def fresh(self, old=None, keep=None):
        """An empty journal for a new match. The one there goes to the archive if it holds more
        than the new event (else it is dropped); old: its Journal object, if open. Pruning is
        left to work(): keep is the fewest archived matches it keeps (0: it prunes nothing)."""
        if old is not None:
            old.close()
        self._clear()
        self.keepn = _MIN if keep is None else keep
        self.due = self.keepn > 0 or self.left < 0
        return Journal(self.cur)

    def start(self, settings, keep=None):
        """The log of a new match at once, in RAM: then work(), a step a pass, archives the
        match there (as fresh()), makes the journal, writes into it what the log holds (the new
        event), saves the settings, and prunes (keep: as fresh()'s). A record the log is to take
        before that has these steps done first, up to the journal: what a screen shows is on
        flash. A file where match/ or hist/ goes is moved aside at once (said: moved)."""
        self.keepn = _MIN if keep is None else keep
        self.cfg = settings
        self.log = _Soon(self)
        self.step = 1
        self.due = True
        for p in (self.cur, self.hist):
            if _exists(p) and not _isdir(p):
                self.finish()
        return self.log

    def finish(self, to=4):
        # Start's steps up to the journal taking the log over (to=5: the settings too).
        while 0 < self.step < to:
            self._step()

    def _step(self):
        # Start's next step; returns a message key for the screen, or None.
        k = self.step
        said = None
        try:
            if k == 1:
                self._clear()
            elif k == 2:
                self.new = Journal(self.cur)
            elif k == 3:
                self.log.take(self.new)
            elif not self.save_settings(self.cfg):
                said = "cfg_not_saved"  # (the event counted: only the settings file failed)
        except OSError:  # the match there stays as it is; the new one goes on in RAM
            self.step = self.keepn = 0
            self.due = False
            raise
        self.step = k + 1 if k < 4 else 0
        self.due = self.step or self.keepn > 0 or self.left < 0
        return said

    def _clear(self):
        # match/ archived if it holds more than the new event, else removed; a file moved aside.
        if _exists(self.cur):
            if not _isdir(self.cur):  # a file where the journal goes: kept, moved aside
                self.moved = set_aside(self.cur)
            elif self._played():
                self.archive()
            else:
                remove_tree(self.cur)

    def _played(self):
        # Whether match/ holds more than one record (read from the listing and the first file,
        # not by opening the journal: quick at Start); anything else in it is kept too.
        names = [n for n in os.listdir(self.cur) if n != "fmt"]  # (the journal's layout file)
        if len(names) != 1 or names[0] != "e0":
            return len(names) > 0
        names = os.listdir(self.cur + "/e0")
        if len(names) != 1 or names[0] != "0":
            return len(names) > 0
        return (_read(self.cur + "/e0/0") or b"").count(b"\n") > 1

    def archive(self):
        # match/ becomes hist/<n> (a rename: atomic); a file where hist/ goes is moved aside.
        h = self.hist
        if _exists(h) and not _isdir(h):
            self.moved = set_aside(h)
        _mkdir(h)
        nums = self.archived()
        n = nums[-1] + 1 if nums else 1
        os.rename(self.cur, "%s/%d" % (h, n))

    def archived(self):
        """The numbers of the archived matches, oldest first."""
        try:
            return sorted(_ints(os.listdir(self.hist), ""))
        except OSError:
            return []

    def past(self, n):
        """The journal of archived match n (hist/<n>), opened to be read (head, records()), or
        None if it is not there or can't be opened (firmware/net.py publishes it)."""
        path = "%s/%d" % (self.hist, n)
        if not _exists(path):
            return None
        try:
            return Journal(path).open()
        except Exception:  # noqa: BLE001 - Damaged, Foreign, OSError: not published
            return None

    def full(self):
        """Whether the flash is short of room for a new match (Start asks first)."""
        if self.left < 0:
            self.measure()
        return self.left * 100 < _ROOM * self.blocks

    def look(self):
        # The free blocks are to be measured again (a match was played): by work(), in a pass
        # of its own, before Start needs them.
        self.left = -1
        self.due = True

    def work(self):
        """One step of what the store leaves for the app's passes (it calls this a pass while
        due): measuring the free blocks (os.statvfs walks littlefs: 50-100 ms on a Pico), or one
        step of pruning the archive: a file or an emptied folder of a match going removed (the
        blocks it frees counted), or the next one to go chosen (renamed hist/d<n>: out of the
        archive at once). The oldest go while more than _KEEP are kept, or while less than _FREE
        percent is free and more than keep are kept (the newest always stays). Start's steps
        (start()) come first; an OSError (the flash failed) is raised, and ends the work.
        Returns a message key for the screen ("cfg_not_saved") or None."""
        if self.step:
            return self._step()
        if self.left < 0:
            self.measure()
            self.due = self.keepn > 0
            return
        h = self.hist
        try:
            names = os.listdir(h)
            for name in names:
                if name[0] == "d" and name[1:].isdigit():
                    self.left += _drop(h + "/" + name)
                    return
            nums = sorted(_ints(names, ""))
            n = len(nums)
            if n > _KEEP or n > max(self.keepn, 1) and self.left * 100 < _FREE * self.blocks:
                os.rename("%s/%d" % (h, nums[0]), "%s/d%d" % (h, nums[0]))
                return
        except OSError:
            pass
        self.keepn = 0
        self.due = False

    def prune(self, keep=_MIN):
        # All of work()'s steps at once, from a new measure (tests, host tools).
        self.keepn = keep
        self.look()
        while self.due:
            self.work()

    def measure(self):
        st = os.statvfs(self.root or ".")
        self.left = st[3]
        self.blocks = st[2] or 1

    def free(self):
        """Percent of the filesystem's blocks that are free (os.statvfs)."""
        self.measure()
        return self.left * 100 // self.blocks

    # ------------------------------------------------------------ settings

    def load_settings(self):
        """(settings, problem): problem is None, or names what was wrong (then defaults);
        (None, None) when there are none yet (the board profile's choices stand). Never raises:
        a file over _CFG_MAX bytes, not UTF-8 or not JSON gives the defaults and "settings"; a
        folder of that name is renamed aside first (saving then works)."""
        p = self.settings_path
        try:
            st = os.stat(p)
        except OSError:
            return None, None
        try:
            if st[0] & 0x4000:
                self._aside("settings.json")
                raise ValueError
            if st[6] > _CFG_MAX:
                raise ValueError
            with open(p, "rb") as f:
                data = f.read(_CFG_MAX + 1)
            if len(data) > _CFG_MAX or not utf8(data):
                raise ValueError
            return validate(json.loads(data.decode()))
        except Exception:  # noqa: BLE001 - ValueError, OSError, MemoryError: the defaults
            return defaults(), "settings"

    def save_settings(self, settings):
        """Written whole to a new name, then renamed over the old file (atomic on littlefs).
        True if saved; False if the flash would not take it (never raises: the match's event
        was saved before, and counts)."""
        data = {}
        for key, _, _ in SETTINGS:
            data[key] = settings.get(key)
        try:
            with open(self.settings_path + ".new", "w") as f:
                f.write(json.dumps(data))
            os.rename(self.settings_path + ".new", self.settings_path)
            return True
        except Exception:  # noqa: BLE001
            return False

    # ------------------------------------------------------------ safe mode

    def booting(self):
        """What the last boot left in `booting` if it never ran healthy: the name of the fault
        it met ("" if none was named), else None. Then marks this boot (an empty file)."""
        got = None
        try:
            with open(self._at("booting"), "rb") as f:
                got = "".join([chr(c) for c in f.read(60) if 32 <= c < 127])
        except Exception:  # noqa: BLE001 - none: the last boot ran healthy (or a blank flash)
            pass
        self.fault("")
        return got

    def fault(self, name):
        # The fault this boot met, in `booting` (while it is not yet healthy).
        try:
            with open(self._at("booting"), "w") as f:
                f.write(name[:60])
        except Exception:  # noqa: BLE001 - a full flash: no safe mode, nothing worse
            pass

    def healthy(self):
        # This boot ran healthy: the mark goes.
        try:
            os.remove(self._at("booting"))
        except OSError:
            pass

    # ------------------------------------------------------------ player names

    def names(self, name="players.txt"):
        """(names, bad): the player names of the text file name (UTF-8, a name a line, at most 12
        characters), in order and without repeats; bad: [line number, why] of each line left
        out, why "utf8" (not UTF-8), "empty" or "long"; or "many" at the first line past the
        64th name, where the reading stops. ([], []) without the file. Read 64 bytes at most at
        a time: the heap holds the names, not the file nor a long line."""
        out = []
        bad = []
        try:
            f = open(self.root + "/" + name if self.root else name, "rb")
        except OSError:
            return out, bad
        with f:
            no = 0
            while True:
                line = f.readline(64)  # (a name takes at most 50 bytes with its line end)
                if not line:
                    break
                no += 1
                if len(line) == 64 and line[-1:] != b"\n":  # no name: skip to the line's end
                    while line and line[-1:] != b"\n":
                        line = f.readline(64)
                    bad.append([no, "long"])
                    continue
                try:
                    n = line.decode().strip()
                except UnicodeError:
                    bad.append([no, "utf8"])
                    continue
                if no == 1 and n[:1] == "\ufeff":  # the byte-order mark some editors write
                    n = n[1:].strip()
                if not n:
                    bad.append([no, "empty"])
                elif len(n) > 12:
                    bad.append([no, "long"])
                elif len(out) >= _NAMES:
                    bad.append([no, "many"])
                    break
                elif n not in out:
                    out.append(n)
        return out, bad

    def save_names(self, names, name="recent.txt"):
        # Written whole to a new name, then renamed over the old file (atomic on littlefs).
        path = self.root + "/" + name if self.root else name
        with open(path + ".new", "w") as f:
            for n in names:
                f.write(n + "\n")
        os.rename(path + ".new", path)

def _isdir(path):
    return os.stat(path)[0] & 0x4000


def _drop(path):
    # One step of removing path: the first file found under it, or its first empty folder.
    # Returns about how many blocks that frees: a folder's metadata pair, a file's 4 KB blocks
    # (none for a file of up to 512 bytes: littlefs keeps it inline, in its folder's metadata).
    while True:
        st = os.stat(path)
        if not st[0] & 0x4000:
            break
        names = os.listdir(path)
        if not names:
            os.rmdir(path)
            return 2
        path = path + "/" + names[0]
    os.remove(path)
    return (st[6] + 4095) // 4096 if st[6] > 512 else 0


class _Soon(Log):
    # A new match's log while Start's steps make its journal (Store.start): the new event in
    # RAM until the journal takes it, then the journal's (every method passes on to it).
    def __init__(self, store):
        Log.__init__(self)
        self.st = store
        self.j = None

    def __getattr__(self, name):  # the journal's other names (head, records...), once made
        j = self.j
        if j is None:
            raise AttributeError(name)
        return getattr(j, name)

    def take(self, j):
        j.hold = self.hold  # (the table's: a journal made later holds as this log was told)
        for line in self.lines:
            j.append(json.loads(line), None)  # (the new event: no snapshot is due)
        j.commit()  # (Start's step, a pass of its own: written at once)
        self.j = j

    @property
    def held(self):
        return 0 if self.j is None else self.j.held

    def commit(self):
        if self.j is not None:
            self.j.commit()

    def _to(self, to=4):
        if self.j is None or to > 4:
            self.st.finish(to)
        return self.j

    def append(self, ev, state, more=False):
        j = self.j if self.j is not None or not self.lines else self._to()
        if j is None:  # the new event, or Start's steps failed: RAM only
            return Log.append(self, ev, state, more)
        j.append(ev, state, more)

    def pop(self, more=False):
        j = self._to()
        return Log.pop(self, more) if j is None else j.pop(more)

    def action(self):
        return Log.action(self) if self.j is None else self.j.action()

    def open(self):
        if self.j is not None:
            self.j.open()
        return self

    def close(self):
        j = self._to(5)  # (the match is let go: Start's steps all done)
        if j is not None:
            j.close()

    def tidy(self):
        if self.j is not None:
            self.j.tidy()

    def __len__(self):
        return len(self.lines) if self.j is None else len(self.j)

    def event(self, i):
        return Log.event(self, i) if self.j is None else self.j.event(i)

    def base(self):
        return Log.base(self) if self.j is None else self.j.base()
