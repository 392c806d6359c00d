# What the board keeps on flash: the current match's journal, the archive of finished ones, and
# the settings, under one folder (the filesystem's root on a board).
#   match/           the journal of the match being played (firmware/journal.py)
#   hist/<n>/        archived matches, n counting up: at most _KEEP of them, and the oldest go
#                    first (when a new match starts) until _FREE of the filesystem is free, room
#                    for a long match (a 150-point 14.1 match of 800 events takes about 40 of a
#                    Pico's 352 blocks, a 5,000-event one about 224)
#   settings.json    players, game, target/race, options, language, brightness (validated)
#   booting          there from boot until the app has run healthy a few seconds; it names the
#                    fault that boot met ("" none yet): found at the next boot after a watchdog
#                    reset, it brings the board up in safe mode (firmware.app.Runner)
# What can't be read is kept, never deleted: a match/ that can't be opened goes to the archive
# intact (hist/<n>, with a file "damaged" saying why), a match/ or settings.json that is not what
# it should be (a file, a folder) is renamed aside (NAME.bad, NAME.bad2, ...).
import json
import os

from firmware.journal import Journal, _exists, _ints, _mkdir, remove_tree

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

_KEEP = const(20)  # archived matches kept at most
_FREE = const(40)  # percent of the filesystem's blocks left free for the new match
_CFG_MAX = const(2048)  # a settings.json longer than this is not read (the firmware's is ~200 B)

# The settings and what each may be: (name, default, check) with check a tuple of the allowed
# values, or an int bound (a whole number from 1 to it), or "name" (a player's name).
SETTINGS = (("game", "14.1", ("14.1", "8ball", "9ball")), ("p1", "P1", "name"),
            ("p2", "P2", "name"), ("t1", 100, 1000), ("t2", 100, 1000), ("r1", 5, 99),
            ("r2", 5, 99), ("break", None, (None, "alternate", "winner", "loser")),
            ("three", True, (True, False)), ("nine", "win", ("win", "spot")),
            ("lang", "en", ("en", "tr")), ("bright", None, 15))
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
        bad = name + ".bad"
        k = 1
        while _exists(self._at(bad)):
            k += 1
            bad = "%s.bad%d" % (name, k)
        try:
            os.rename(self._at(name), self._at(bad))
            return bad
        except OSError:
            return None

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
