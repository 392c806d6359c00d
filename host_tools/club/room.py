# The room: each table's matches replayed from the store through the rules core
# (firmware.match.Match, its public queries only), so the view shows the exact state the
# board's own core computed, not a retained message it trusts; a missing seq is a gap the
# view marks as waiting until the record arrives.
import time

from firmware import events as fevents
from firmware import rules
from firmware.match import Match
from host_tools import scoresheet
from host_tools.journal_read import Read

STALE = 600.0  # seconds without a record or a state message: the table is marked stale
# A match's records the room lacks are asked for again (docs/network.md "resend") this long
# after the last ask, doubled each time it is still lacking them, up to ASK_MAX.
ASK_S = 5.0
ASK_MAX = 300.0


class Live:
    """One match of one table: its Match after the records in seq order from the `new` event,
    and the records that came ahead of a gap."""

    def __init__(self, tbl, match):
        self.tbl = tbl
        self.match = match
        self.m = Match()
        self.next = None  # the seq the replay needs next; None until the new event came
        self.ahead = {}  # seq -> (event, at): records past a gap (or before the new event)
        self.applied = 0
        self.refused = []  # [(seq, rule)]: records the core refused (none from a board)
        self.dropped = 0  # events taken back by a record's depth (an action cut short)
        self.started = None  # the new event's "at" (epoch seconds), else when it came
        self.last_at = None
        self.last_seen = None

    def add(self, seq, ev, at, now, depth=None):
        """Take one new record (the store said it is new); True if the state changed. depth:
        the journal's depth after the record (docs/network.md), None if it has none."""
        self.last_seen = now
        if ev.get("t") == "new" and self.next is None:
            self.next = seq
        self.ahead[seq] = (ev, at if at is not None else now, depth)
        changed = False
        while self.next is not None and self.next in self.ahead:
            ev, at, depth = self.ahead.pop(self.next)
            self._apply(self.next, ev, at, depth)
            self.next += 1
            changed = True
        return changed

    def _apply(self, seq, ev, at, depth=None):
        # By depth (docs/network.md): an event's record comes after depth - 1 accepted events,
        # an undo's leaves depth; where the match holds more (an action a power cut left
        # unfinished on the board, which dropped it), they are taken back first.
        m = self.m
        undo = ev.get("t") == "undo"
        if depth is not None:
            want = int(depth) if undo else int(depth) - 1
            if 0 < want < len(m.log):
                self.dropped += len(m.log) - want - (1 if undo else 0)
                while len(m.log) > want:
                    m.undo()
            if undo and want == len(m.log):
                self.applied += 1
                self.last_at = at
                return
        try:
            m.apply(ev)
        except (rules.Refused, fevents.BadEvent) as e:
            self.refused.append((seq, getattr(e, "rule", str(e))))
            return
        self.applied += 1
        if ev.get("t") == "new":
            self.started = at
        self.last_at = at

    def gap(self):
        """The missing seqs the replay waits for (first, last), or None."""
        if not self.ahead:
            return None
        if self.next is None:
            return (None, min(self.ahead) - 1)  # the new event has not come
        return (self.next, min(self.ahead) - 1)

    def over(self):
        return self.m.get("winner") is not None

    def view(self):
        """The match as the room view shows it (JSON-able), None before the new event."""
        m = self.m
        st = m.state()
        if st is None:
            return None
        game = st["game"]
        clock = m.clock()
        players = []
        for i, p in enumerate(st["players"]):
            p = dict(p)
            p["warned"] = m.warned(i)  # two fouls in a row (C-S7, C-E4, C-N3)
            p["exts"] = m.exts(i)  # shot-clock extensions left this rack (K3)
            p["balls"] = m.player(i, "balls")
            players.append(p)
        tot = m.get("tot") or [[0, 0], [0, 0]]
        return {
            "match": self.match, "game": game, "rack": st["rack"], "shooter": st["shooter"],
            "bih": st["bih"], "breaking": st["breaking"], "push_out": st["push_out"],
            "balls_left": st["balls_left"], "on_table": st["on_table"], "groups": st["groups"],
            "pending": st["pending"], "winner": st["winner"], "players": players,
            "race": list(m.get("race") or ()) if game != "14.1" else None,
            "target": list(m.get("target") or ()) if game == "14.1" else None,
            "clock": dict(clock) if clock else None,
            "match_fouls": [tot[0][0], tot[1][0]], "break_and_runs": [tot[0][1], tot[1][1]],
            "seq": None if self.next is None else self.next - 1, "events": self.applied,
            "started": self.started, "last": self.last_at,
        }


class Room:
    """Every table seen on the broker: the store's records replayed, and each table's status
    and retained state. record(), status() and state() return True when a view changed."""

    def __init__(self, store, stale=STALE, clock=time.time):
        self.store = store
        self.stale = stale
        self.now = clock
        self.live = {}  # (tbl, match) -> Live
        self.tables: "dict[str, dict]" = {}  # tbl -> {"status", "retained", "seen", "current"}
        self.asked = {}  # (tbl, match) -> (when asked, the wait before the next ask)
        for tbl, (status, state, seen) in store.tables().items():
            self._table(tbl).update(status=status, retained=state, seen=seen)
        for tbl, match, _n, _first, last in store.matches():
            lv = self._live(tbl, match)
            for seq, ev, at, depth in store.records(tbl, match):
                lv.add(seq, ev, at, last, depth)
            self._table(tbl)["current"] = match

    def _table(self, tbl):
        t = self.tables.get(tbl)
        if t is None:
            t = self.tables[tbl] = {"status": None, "retained": None, "seen": None,
                                    "current": None}
        return t

    def _live(self, tbl, match):
        lv = self.live.get((tbl, match))
        if lv is None:
            lv = self.live[tbl, match] = Live(tbl, match)
        return lv

    def record(self, tbl, rec):
        """One event record {"match", "seq", "ev", "depth"?, "at"?}; True if it was new. A duplicate
        (same table, match and seq) changes nothing, in the store or in the replay."""
        match, seq, ev = str(rec["match"]), int(rec["seq"]), rec["ev"]
        now = self.now()
        depth = rec.get("depth")
        if not self.store.add(tbl, match, seq, ev, rec.get("at"), now, depth):
            return False
        t = self._table(tbl)
        t["seen"] = now
        lv = self._live(tbl, match)
        lv.add(seq, ev, rec.get("at"), now, depth)
        cur = self.live.get((tbl, t["current"])) if t["current"] else None
        # the table's current match: the one its retained state names, else the newest
        if cur is None or (cur.match != match and not self._named(tbl, cur.match)
                           and (ev.get("t") == "new" or cur.over())):
            t["current"] = match
        return True

    def _named(self, tbl, match):
        r = self.tables[tbl]["retained"]
        return isinstance(r, dict) and r.get("match") == match

    def status(self, tbl, text):
        t = self._table(tbl)
        t["status"] = text
        self.store.set_table(tbl, status=text)
        return True

    def state(self, tbl, state):
        """The retained state: only its live fields (the shot clock) and the match it names
        are used; the score comes from the replay."""
        t = self._table(tbl)
        t["retained"] = state
        t["seen"] = self.now()
        self.store.set_table(tbl, state=state, seen=t["seen"])
        m = state.get("match") if isinstance(state, dict) else None
        if m is not None and (tbl, str(m)) in self.live:
            t["current"] = str(m)
        return True

    def wants(self):
        """What to ask the boards again (docs/network.md "resend"): [(tbl, match, seq)], each
        match's records from seq on, for a match with a gap (or no new event yet) and for the
        match a table's retained state names past the last record the room has (records the
        broker acknowledged to the board but never delivered here: a broker restarted without
        the room's session). Each match is asked at most every ASK_S seconds, twice as long
        after each ask while it still lacks them."""
        now = self.now()
        lacking = {}
        for (tbl, match), lv in self.live.items():
            if lv.ahead:
                lacking[tbl, match] = 0 if lv.next is None else lv.next
        for tbl, t in self.tables.items():
            r = t["retained"]
            if not isinstance(r, dict) or r.get("match") is None:
                continue
            key = (tbl, str(r["match"]))
            lv = self.live.get(key)
            have = -1 if lv is None or lv.next is None else lv.next - 1
            if isinstance(r.get("seq"), int) and r["seq"] > have and key not in lacking:
                lacking[key] = have + 1
        out = []
        for key, seq in sorted(lacking.items()):
            when, wait = self.asked.get(key, (None, ASK_S / 2))
            if when is None or now - when >= wait:
                self.asked[key] = (now, min(wait * 2, ASK_MAX))
                out.append((key[0], key[1], seq))
        for key in [k for k in self.asked if k not in lacking]:
            del self.asked[key]
        return out

    def view(self, tbl):
        """One table's room-view entry (JSON-able)."""
        t = self._table(tbl)
        club, _, n = tbl.rpartition("/")
        now = self.now()
        lv = self.live.get((tbl, t["current"])) if t["current"] else None
        mv = lv.view() if lv else None
        gap = lv.gap() if lv else None
        ret = t["retained"] if isinstance(t["retained"], dict) else {}
        age = None if t["seen"] is None else now - t["seen"]
        stale = t["status"] == "offline" or age is None or age > self.stale
        return {
            "table": tbl, "club": club, "n": n, "status": t["status"], "stale": stale,
            "age": age, "waiting": gap is not None,
            "gap": list(gap) if gap else None, "match": mv,
            "shot_clock": ret.get("clock") if lv and mv and ret.get("match") == lv.match
            else None,
        }

    def views(self):
        return [self.view(t) for t in sorted(self.tables, key=_table_order)]

    # ------------------------------------------------------------ results

    def results(self):
        """Every match with a new event, oldest first: [(tbl, match)]."""
        return [(lv.tbl, lv.match) for lv in sorted(
            self.live.values(), key=lambda lv: (lv.started or 0, lv.tbl, lv.match))
            if lv.m.get("game") is not None]

    def sheet(self, tbl, match):
        """The project's scoresheet record of one match (host_tools.scoresheet), or None."""
        lv = self.live.get((tbl, match))
        if lv is None or lv.m.get("game") is None:
            return None
        return scoresheet.build(Read(path="mqtt:" + tbl, kind="events", name=match,
                                     events=lv.m.events))

    def live_of(self, tbl, match):
        return self.live.get((tbl, match))


def _table_order(tbl):
    club, _, n = tbl.rpartition("/")
    return (club, int(n) if n.isdigit() else 1 << 30, n)
