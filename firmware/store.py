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
import json
import os

from firmware.journal import Journal, _exists, _ints, _mkdir, _read, remove_tree

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

_KEEP = const(20)  # archived matches kept at most
_FREE = const(40)  # percent of the filesystem's blocks left free for the new match
_MIN = const(3)  # the newest archived matches never pruned for room (unless the referee says so)
_ROOM = const(15)  # percent free below which Start asks before anything goes (full())

# The settings and what each may be: (name, default, check) with check a tuple of the allowed
# values, or an int bound (a whole number from 1 to it), or "name" (a player's name).
SETTINGS = (("game", "14.1", ("14.1", "8ball", "9ball")), ("p1", "P1", "name"),
            ("p2", "P2", "name"), ("t1", 100, 1000), ("t2", 100, 1000), ("r1", 5, 99),
            ("r2", 5, 99), ("break", None, (None, "alternate", "winner", "loser")),
            ("three", True, (True, False)), ("nine", "win", ("win", "spot")),
            ("lang", "en", ("en", "tr")), ("bright", 8, 15))


def defaults():
    return {k: v for k, v, _ in SETTINGS}


def _bad(key, value, check):
    # Why value can't be setting key, or None if it can.
    if check == "name":
        ok = isinstance(value, str) and 0 < len(value) <= 12
    elif isinstance(check, int):
        ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= check
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
    for key, _, check in SETTINGS:
        if key in data:
            why = _bad(key, data[key], check)
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
        self.due = 0  # work() left to do: the fewest archived matches pruning keeps, 0 none
        self.moved = None  # a file found where match/ or hist/ goes, moved aside: its new name
        # (Any write makes littlefs finish a rename a power cut left half done, and this one
        # writes nothing otherwise: until then a listing of the root misses the name after the
        # one moved, as settings.json after match/ moved into hist/.)
        _mkdir(self.hist)

    # ------------------------------------------------------------ the match

    def resume(self):
        """The journal of the match being played (opened: recovered to its last good record),
        or None on a blank filesystem or an empty journal."""
        if not _exists(self.cur):
            return None
        j = Journal(self.cur).open()
        if j.head < 0 and not j.moved:
            j.close()
            return None
        return j

    def fresh(self, old=None, keep=None):
        """An empty journal for a new match. The one there goes to the archive if it holds more
        than the new event (else it is dropped); old: its Journal object, if open. Pruning is
        left to work(): keep is the fewest archived matches it keeps (0: it prunes nothing)."""
        if old is not None:
            old.close()
        if _exists(self.cur):
            if not _isdir(self.cur):  # a file where the journal goes: kept, moved aside
                self.moved = _aside(self.cur)
            elif self._played():
                self.archive()
            else:
                remove_tree(self.cur)
        self.due = _MIN if keep is None else keep
        return Journal(self.cur)

    def _played(self):
        # Whether match/ holds more than one record (read from the listing and the first file,
        # not by opening the journal: quick at Start); anything else in it is kept too.
        names = os.listdir(self.cur)
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
            self.moved = _aside(h)
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

    def full(self):
        """Whether the flash is short of room for a new match (Start asks first)."""
        return self.free() < _ROOM

    def work(self):
        """One step of pruning the archive (the app calls it a pass while due): a file or an
        emptied folder of a match going removed, or the next to go chosen (renamed hist/d<n>);
        due is 0 once done. The oldest go while more than _KEEP are kept, or while less than
        _FREE percent is free and more than due are kept (the newest always stays)."""
        h = self.hist
        try:
            names = os.listdir(h)
            for name in names:
                if name[0] == "d" and name[1:].isdigit():
                    return _drop(h + "/" + name)
            nums = sorted(_ints(names, ""))
            if len(nums) > _KEEP or len(nums) > max(self.due, 1) and self.free() < _FREE:
                os.rename("%s/%d" % (h, nums[0]), "%s/d%d" % (h, nums[0]))
                return
        except OSError:
            pass
        self.due = 0

    def prune(self, keep=_MIN):
        # All of work()'s steps at once (tests, host tools).
        self.due = keep
        while self.due:
            self.work()

    def free(self):
        """Percent of the filesystem's blocks that are free (os.statvfs)."""
        st = os.statvfs(self.root or ".")
        return st[3] * 100 // st[2] if st[2] else 100

    # ------------------------------------------------------------ settings

    def load_settings(self):
        """(settings, problem): problem is None, or names what was wrong (then defaults);
        (None, None) when there are none yet (the board profile's choices stand)."""
        try:
            with open(self.settings_path) as f:
                data = json.loads(f.read())
        except OSError:
            return None, None
        except ValueError:
            return defaults(), "settings"
        return validate(data)

    def save_settings(self, settings):
        # Written whole to a new name, then renamed over the old file (atomic on littlefs).
        data = {}
        for key, _, _ in SETTINGS:
            data[key] = settings.get(key)
        with open(self.settings_path + ".new", "w") as f:
            f.write(json.dumps(data))
        os.rename(self.settings_path + ".new", self.settings_path)


def _isdir(path):
    return os.stat(path)[0] & 0x4000


def _aside(path):
    # Rename path to path.bad (or .bad2, ...), kept; returns the new name.
    bad = path + ".bad"
    k = 1
    while _exists(bad):
        k += 1
        bad = "%s.bad%d" % (path, k)
    os.rename(path, bad)
    return bad


def _drop(path):
    # One step of removing path: the first file found under it, or its first empty folder.
    while _isdir(path):
        names = os.listdir(path)
        if not names:
            return os.rmdir(path)
        path = path + "/" + names[0]
    os.remove(path)
