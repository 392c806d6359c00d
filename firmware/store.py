# What the board keeps on flash: the current match's journal, the archive of finished ones, and
# the settings, under one folder (the filesystem's root on a board).
#   match/           the journal of the match being played (firmware/journal.py)
#   hist/<n>/        archived matches, n counting up: at most _KEEP of them, and the oldest go
#                    first (when a new match starts) until _FREE of the filesystem is free, room
#                    for a long match (a 150-point 14.1 match of 800 events takes about 40 of a
#                    Pico's 352 blocks, a 5,000-event one about 224)
#   settings.json    players, game, target/race, options, language, brightness (validated)
#   players.txt      the club's roster (make deploy PLAYERS=FILE): UTF-8, a name a line
#   recent.txt       the names of the last matches, the latest first (written at a match's start)
import json
import os

from firmware.journal import Journal, _exists, _ints, _mkdir, remove_tree

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

_KEEP = const(20)  # archived matches kept at most
_FREE = const(40)  # percent of the filesystem's blocks left free for the new match
_NAMES = const(64)  # names read from a names file at most (the heap while setup is up)

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

    def fresh(self, old=None):
        """An empty journal for a new match. The one there goes to the archive if it holds more
        than the new event (else it is dropped); old: its Journal object, if open."""
        if old is not None:
            old.close()
        if _exists(self.cur):
            j = old if old is not None else Journal(self.cur).open()
            j.close()
            if j.head >= 1 or j.moved:
                self.archive()
            else:
                remove_tree(self.cur)
        return Journal(self.cur)

    def archive(self):
        # match/ becomes hist/<n> (a rename: atomic), then the oldest go past the bounds.
        _mkdir(self.hist)
        nums = self.archived()
        n = nums[-1] + 1 if nums else 1
        os.rename(self.cur, "%s/%d" % (self.hist, n))
        self.prune()

    def archived(self):
        """The numbers of the archived matches, oldest first."""
        try:
            return sorted(_ints(os.listdir(self.hist), ""))
        except OSError:
            return []

    def prune(self):
        nums = self.archived()
        i = 0
        while i < len(nums) and (len(nums) - i > _KEEP or self.free() < _FREE):
            remove_tree("%s/%d" % (self.hist, nums[i]))
            i += 1

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
