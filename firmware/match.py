# A match: the rules core plus its accepted events, with snapshots so undo costs at most _K replays.
import json

from firmware import rules
from firmware.mem import const

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
    hold = False  # (a journal's: records held in RAM until commit())
    held = 0  # (a journal's: records held, not yet on flash)

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

    def commit(self):
        pass  # (a journal writes the records it held)

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
    """A match: apply events, undo, and the queries every other layer reads it by (the screens,
    the controller, the store, the host tools; docs/contracts.md "Match queries"). Only this
    module and firmware/rules*.py read the rules state self.s itself: a change of its format
    (or of a snapshot's, read back in rebuild) stays behind these methods. Each query returns a scalar or
    an object the state already holds (read it, don't change it): none allocates."""

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
        """Take back the last accepted event (docs/contracts.md); the new event itself stays."""
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
        if s is not None and "tot" not in s:  # the one place that knows a snapshot's older
            s["tot"] = [[0, 0], [0, 0]]      # formats: one from before the statistics
            s["clean"] = False
        for j in range(i, len(self.log)):
            s = rules.apply(s, self.log.event(j))
        self.s = s

    # ------------------------------------------------------------ queries

    def unsaved(self):
        """How many of the log's records are not yet on flash (a journal's held records, which
        the app writes once the key's screens are out): the screens mark them."""
        return self.log.held

    def get(self, k):
        """The state's field k, None before the new event (docs/contracts.md "Match queries"):
        "game", "rack", "shooter" (who shoots next or answers the choice; None before the lag
        and at match over), "breaking", "bih" ("kitchen", "table", None), "push" (N7: a push
        out allowed), "winner", "groups" (None: open table; else [player 0's, player 1's]),
        "table" (8/9-ball: the object balls on it, sorted; 14.1: None), "pending" (None or
        [by, kind], kind a key of rules.OPTIONS), "names", "target", "race" ([player 0's,
        player 1's]), "three" (the three-foul rule is on), "nine" (9 on the break: "win",
        "spot"), "ten" (10-ball only: the 10 on the break, "spot" or "win"), "brk" (the break
        order), "breaker" (who broke this rack), "last" (who took the last shot), "note" (what
        the last event did: a dict, docs/ui-contract.md, or None), "tot" (match statistics:
        [[fouls, break and runs] of player 0, of player 1])."""
        s = self.s
        return None if s is None else s[k]

    def player(self, i, k):
        """Player i's field k once the match is on: "score" (14.1 points), "racks" (won),
        "fouls" (consecutive), "innings", "run", "high_run", "balls" (object balls pocketed
        legally, the averages' count)."""
        return self.s["p"][i][("score", "racks", "fouls", "innings", "run", "high_run",
                               "balls").index(k)]

    def balls_left(self):
        """The object balls on the table (14.1: counted; 8/9-ball: len of get("table"))."""
        s = self.s
        t = s["table"]
        return s["left"] if t is None else len(t)

    def options(self):
        """The options of the pending choice (rules.OPTIONS), () if none."""
        pend = self.get("pending")
        return rules.OPTIONS[pend[1]] if pend else ()

    def warned(self, i):
        """Player i is warned: two consecutive fouls with the three-foul rule on, the match
        not over (C-S7, C-E4, C-N3)."""
        s = self.s
        return bool(s and s["three"] and s["winner"] is None and s["p"][i][rules.FOULS] >= 2)

    def check_ball(self, b):
        """Raise rules.Refused unless object ball b is on the table (S1, E1, N1)."""
        rules.check_ball(self.s, b)

    def rack_case(self, pots, cue_in, ball_in, kitchen):
        """14.1, A10: the C-S4 case ("S10", "C-S4a"... "C-S4d", "C-S4dh") a shot pocketing pots
        object balls gives with the cue ball in the rack area (cue_in), the 15th ball in it
        (ball_in) or behind the head string (kitchen): firmware.rules_141.rack_case."""
        return rules.shot_rules("14.1").rack_case(self.balls_left() - pots, cue_in, ball_in,
                                                  kitchen)

    def state(self):
        """The state contract (docs/contracts.md) as a new plain dict, None before new."""
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
            "balls_left": self.balls_left(),
            "on_table": None if t is None else list(t),
            "groups": None if s["groups"] is None else list(s["groups"]),
            "pending": None if not pend else
            {"by": pend[0], "options": list(rules.OPTIONS[pend[1]])},
            "winner": s["winner"], "players": players,
        }

    # ---- shot clock (O7, K3): what the clock's screens and the controller read

    def clock(self):
        """The match's shot-clock profile (firmware/shotclock.py PROFILES' fields; the state's
        own dict: read it, never change it) or None: no match, or no shot clock (O7's default)."""
        s = self.s
        return None if s is None else s.get("clock")

    def exts(self, i):
        """Player i's extensions left in this rack (K3); 0 without a shot clock."""
        s = self.s
        return 0 if s is None or "exts" not in s else s["exts"][i]
