# A match: the rules core plus its accepted events, with snapshots so undo costs at most _K replays.
from firmware import events, rules

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

_K = const(16)   # a snapshot every _K accepted events; undo/rebuild replays fewer than _K


class Match:
    def __init__(self):
        self.s = None        # type: dict | None  # rules state, None before the new event
        self.events = []     # accepted events, undos already taken out
        self.snaps = []      # snaps[i]: copy of the state after (i + 1) * _K events

    def apply(self, ev):
        """Apply one event (undo included). Raises events.BadEvent or rules.Refused,
        leaving the match exactly as it was."""
        events.check(ev)
        if ev["t"] == "undo":
            self.undo()
            return
        try:
            self.s = rules.apply(self.s, ev)
        except rules.Refused:
            raise
        except Exception:
            self._rebuild()   # a bug half-way through: put the last good state back
            raise
        self.events.append(ev)
        if len(self.events) % _K == 0:
            self.snaps.append(rules.copy_state(self.s))

    def undo(self):
        """Take back the last accepted event (DESIGN.md); the new event itself stays."""
        if len(self.events) < 2:
            raise rules.Refused("A11", "nothing")
        self.events.pop()
        n = len(self.events)
        while self.snaps and len(self.snaps) * _K > n:
            self.snaps.pop()
        self._rebuild()

    def _rebuild(self):
        i = len(self.snaps) * _K
        s = rules.copy_state(self.snaps[-1]) if self.snaps else None
        for ev in self.events[i:]:
            s = rules.apply(s, ev)
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
