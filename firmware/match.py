# A match: the rules core plus its accepted events, with snapshots so undo costs at most _K replays.
import json

from firmware import rules

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

_K = const(16)   # a snapshot every _K accepted events; undo/rebuild replays fewer than _K


def _dumps(v):
    # Compact JSON by the VM's own (C) encoder: key order and escapes don't matter here.
    return json.dumps(v, separators=(",", ":"))


class Log:
    """Accepted events and state snapshots as compact JSON text, kept in RAM: about 120 bytes an
    event, a snapshot (every 16 events) included. On a board firmware.journal.Journal takes its
    place (same methods), keeping on flash all but the latest snapshot and the events after it."""

    lost = 0  # (a journal's: records lost when it was opened)
    uncertain = False

    def __init__(self):
        self.lines = []      # one JSON line per accepted event, undos taken out
        self.snaps = []      # snaps[i]: the state after (i + 1) * _K events
        self.more = []       # more[i]: event i's action goes on after it

    def open(self):
        return self  # (a journal reads itself back from flash)

    def close(self):
        pass  # (a journal closes its open file)

    def tidy(self):
        pass  # (a journal writes what an event's record left for later)

    def __len__(self):
        return len(self.lines)

    def append(self, ev, state, more=False):
        # more: another event of the same action follows (a journal keeps such an action
        # whole or not at all through a power cut).
        self.lines.append(_dumps(ev))
        self.more.append(more)
        if len(self.lines) % _K == 0:
            self.snaps.append(_dumps(state))

    def pop(self, more=False):
        self.lines.pop()
        self.more.pop()
        while self.snaps and len(self.snaps) * _K > len(self.lines):
            self.snaps.pop()

    def action(self):
        """The number of events of the last action (0: none)."""
        n = len(self.lines)
        k = 1 if n else 0
        while k < n and self.more[n - 1 - k]:
            k += 1
        return k

    def event(self, i):
        return json.loads(self.lines[i])

    def base(self):
        """(state of the latest snapshot or None, index of the first event after it)."""
        if not self.snaps:
            return None, 0
        return json.loads(self.snaps[-1]), len(self.snaps) * _K


class Match:
    def __init__(self, log=None):
        self.s = None        # type: dict | None  # rules state, None before the new event
        self.log = Log() if log is None else log

    @property
    def events(self):
        """The accepted events (undos taken out), decoded: for restarts and tests."""
        return [self.log.event(i) for i in range(len(self.log))]

    def apply(self, ev, check=True):
        """Apply one event (undo included). Raises events.BadEvent or rules.Refused,
        leaving the match exactly as it was. check=False skips the shape checks for events
        built by code that the tests prove well-formed (the controller's), so that a board
        loads firmware.events only to read events from outside (a journal, a file)."""
        if check:
            from firmware import events

            events.check(ev)
        if ev["t"] == "undo":
            self.undo()
            return
        try:
            s = rules.apply(self.s, ev)
        except rules.Refused:
            raise
        except Exception:
            self.rebuild()   # a bug half-way through: put the last good state back
            raise
        try:
            self.log.append(ev, s)  # on a journal: committed to flash before it counts
        except Exception:
            self.rebuild()   # the state the log holds (the event if it was recorded)
            raise
        self.s = s

    def apply_all(self, evs):
        """Apply events as one action: all are accepted or none (a refusal leaves the match as
        it was). An item may be a function returning events, called when its turn comes, so
        that it sees the state (self.s) as the events before it left it. The log records them
        as one group, which a journal resumes whole or not at all. Returns how many."""
        s0 = self.s
        todo = []
        self.s = rules.copy(s0)  # tried on a copy first: nothing is logged before all pass
        try:
            for ev in evs:
                for e in ev() if callable(ev) else (ev,):  # type: ignore
                    self.s = rules.apply(self.s, e)
                    todo.append(e)
        finally:
            self.s = s0
        n = len(todo)
        try:
            for i in range(n):
                s = rules.apply(self.s, todo[i])
                self.log.append(todo[i], s, i < n - 1)
                self.s = s
        except Exception:
            self.rebuild()  # the state the log holds (a journal: before the action)
            raise
        return n

    def undo_action(self):
        """Take back the last action whole (log.action() events), as one group of undos;
        returns how many. Refused (nothing changes) if there is none or a record it needs on
        flash is unreadable."""
        k = self.log.action()
        if len(self.log) - k < 1:
            raise rules.Refused("A11", "nothing")
        done = 0
        try:
            while done < k:
                self.log.pop(done < k - 1)
                done += 1
        except Exception as e:
            if done:  # a journal then holds an unfinished group: read back, it is dropped
                self.log.open()
            self.rebuild()
            if isinstance(e, ValueError):  # journal.Damaged
                raise rules.Refused("A11", "journal")  # noqa: B904 (no "from" on MicroPython)
            raise
        self.rebuild()
        return k

    def undo(self):
        """Take back the last accepted event (DESIGN.md); the new event itself stays."""
        if len(self.log) < 2:
            raise rules.Refused("A11", "nothing")
        try:
            self.log.pop()
        except ValueError:  # journal.Damaged: a record it needs is unreadable; nothing changed
            raise rules.Refused("A11", "journal")  # noqa: B904 (no "from" on MicroPython)
        self.rebuild()

    def rebuild(self):
        """Set the state from the log: its latest snapshot and the events after it (fewer than
        _K). Undo uses it, and so does a soft restart that keeps the log of a failed controller."""
        s, i = self.log.base()
        if s is not None and "tot" not in s:  # a snapshot from before the statistics
            s["tot"] = [[0, 0], [0, 0]]
            s["clean"] = False
        for j in range(i, len(self.log)):
            s = rules.apply(s, self.log.event(j))
        self.s = s

    def state(self):
        """The state contract of DESIGN.md as a plain dict (None before new)."""
        s = self.s
        if s is None:
            return None
        pend = s["pending"]
        t = s["table"]
        players = []
        for i in (0, 1):
            p = s["p"][i]
            players.append({"name": s["names"][i], "score": p[rules.SCORE],
                            "racks": p[rules.RACKS], "fouls": p[rules.FOULS],
                            "innings": p[rules.INNINGS], "run": p[rules.RUN],
                            "high_run": p[rules.HIGH]})
        return {
            "game": s["game"], "rack": s["rack"], "shooter": s["shooter"], "bih": s["bih"],
            "breaking": s["breaking"], "push_out": s["push"],
            "balls_left": s["left"] if t is None else len(t),
            "on_table": None if t is None else list(t),
            "groups": None if s["groups"] is None else list(s["groups"]),
            "pending": None if not pend else
            {"by": pend[0], "options": list(rules.OPTIONS[pend[1]])},
            "winner": s["winner"], "players": players,
        }

    # ---- shot clock (O7, K3): what the clock's screens and the controller read

    def clock(self):
        """The match's shot-clock profile (firmware/shotclock.py PROFILES' fields) or None: no
        match, or no shot clock (O7's default)."""
        s = self.s
        return None if s is None or "clock" not in s else dict(s["clock"])

    def exts(self, i):
        """Player i's extensions left in this rack (K3); 0 without a shot clock."""
        s = self.s
        return 0 if s is None or "exts" not in s else s["exts"][i]
