# Controller: key events -> match events and the screen model (docs/ui-contract.md); pure, no I/O.
# It only translates: the store, the journal, the settings file, the brightness and the loading
# of modules are the table's (firmware/table.py), which it asks through a few methods. Each
# layout (keypad, buttons, four buttons) is an input map (_Layout, below): its handler of each
# screen mode, with that mode's keys, list rows and hints, and its keys' labels; the Controller
# keeps the state they share and builds the events of shots and choices (its public methods are
# what the handlers use).
from firmware import rules
from firmware.match import Match
from firmware.mem import const
from firmware.table import Table

# The labels of an input map's hints (_LAYOUTS), by what the key does.
_UNDO = const(0)
_MENU = const(1)
_P1 = const(2)
_P2 = const(3)
_TOGGLE = const(4)
_OK = const(5)
_QOK = const(6)
_MOVE = const(7)
_MV = const(8)
_RACKQ = const(9)
_CONFIRM = const(10)
_SIX = const(11)  # (the buttons' help: the rows of MISS and OK, where they are wired)
_NAME = const(12)  # (the key that types a player's name on the new-match screen, or None)

_ROT = ("9ball", "10ball")  # the rotation games: the lowest ball first, the push out (N7, T5)
# The shot clock's keys on the keypad after "#" (O7, K3, K4, K6), and the menu's rows for them.
_CLOCK_KEYS = {"6": "pause", "7": "restart", "8": "ext", "9": "time"}
_CLOCK_ROWS = ("c_pause", "c_restart", "ext", "time")
_HELD = ("MISS", "OK")  # (Controller.held)


class Controller:
    def __init__(self, layout="keypad", lang="en", game="14.1", table=None):
        # the input map of layout "keypad", "buttons" or "four" ("buttons" without MISS and OK):
        # the model's layout name, what each key does on a list screen, the labels of the
        # hints, and the handler of each screen mode (_LAYOUTS)
        self.layout, self.lst, self.labels, self.modes = _LAYOUTS[layout]
        self.lang = lang
        # the table (firmware.table.Table; here a new one with game preselected: no store,
        # all in RAM; a table given keeps its own settings, game too) and its settings, which
        # the new-match screen edits and the table saves
        self.table = t = Table(None, game) if table is None else table
        self.cfg = t.cfg
        self.match = Match(t.take(None))
        self.version = 0
        self.mode = "setup"    # the name of the screen mode; self.modes[mode] handles it
        self.entry = []
        self.hit = None        # the ball the referee said was hit first ("#A"), or None
        self.shift = False
        self.msg = None
        self.fault = None
        self.cursor = 0
        self.confirm = None
        self.ask = None        # type: list | None  # A10 question: [shot event, cue_in, ball_in]
        self.foul_i = 0        # the menu's called foul: its index in rules.CALLED_FOULS
        # the shot clock (O7): a firmware.shotclock.Clock while the match has one, the app's
        # ticks_ms at its last pass (tick: keys take their time from it, no clock is read
        # here) and the whole seconds shown
        self.clock = None
        self.now = 0
        self.secs = None
        self.pin = None  # type: str | None  # the referee's PIN (digits: app.new_controller)
        self.unlocked = False  # the PIN was entered (until play goes on: after())
        self.pin_ask = None    # while it is asked (mode "pin"): [mode, cursor, digits typed]

    # ------------------------------------------------------------ model

    def model(self):
        h = self.modes[self.mode]
        return {"mode": self.mode, "lang": self.lang, "match": self.match,
                "state": self.match.state(), "entry": list(self.entry), "hit": self.hit,
                "shift": self.shift,
                "msg": self.msg, "hints": h.hints(self), "items": h.items(self),
                "cursor": self.cursor, "fault": self.fault, "layout": self.layout,
                "clock": None if self.clock is None else _clock().model(self)}

    def restore(self, log):
        """Take over the log of a match (a soft restart) and show where it stands."""
        m = Match(log)
        m.rebuild()
        self.match = m
        self.table.take(log)
        self.after()
        self.timed(None)  # K6: back paused (the time off is not known)
        self.version += 1

    def resume(self, events, check=True):
        """Rebuild the match from events read from outside (a file, a journal) and show it;
        check=False only for events known to be well-formed."""
        m = Match()
        for ev in events:
            m.apply(ev, check)
        self.match = m
        self.table.take(m.log)
        self.after()
        self.timed(None)
        self.version += 1

    def held(self):
        """The keys whose long press the keys need now (the scanner's hold): the buttons' MISS
        and OK while the match has a shot clock (held: its extension, stop/go), else none."""
        return _HELD if self.clock is not None and self.layout == "buttons" else ()

    def saved(self):
        """The key's screens are out: the table writes the records the journal held for them
        (Table.after_screen). True if the screens marked them unsaved (to be drawn again without
        the mark). A write that fails is said (not_saved): the match is then as flash holds it."""
        try:
            return self.table.after_screen()
        except OSError:
            self.match.rebuild()
            self.after()
            self.msg = ["not_saved"]
            self.version += 1
            return False

    def tick(self, now):
        """The app's pass at now (ticks_ms): the shot clock's second shown (self.secs) and
        what the buzzer plays (firmware.shotclock's QUIET 0, WARN, TICK, END)."""
        self.now = now
        if self.clock is None:
            return 0
        return _clock().tick(self, now)

    def timed(self, ev, brk=None, rack=None):
        # The shot clock after an accepted action (firmware.shotclock.settle): made for a match
        # with a clock (the module loads only then), let go without one.
        p = self.match.clock()
        if p is None:
            self.clock = self.secs = None
            return
        c = self.clock
        if c is None or c.prof != p:
            c = self.clock = _clock().Clock(p)
        _clock().settle(self, ev, brk, rack)

    def clock_key(self, what):
        # A referee's clock key in play (firmware.shotclock.key); none without a clock (O7).
        if self.clock is None:
            raise rules.Refused("O7", "no_clock")
        _clock().key(self, what)

    def say(self, msg):
        # Show a message (or a list of them) from outside the keys: the boot's, the store's.
        self.msg = msg
        self.version += 1

    # ------------------------------------------------------------ keys

    def key(self, kind, name):
        """Handle one key event from the input layer. Never raises."""
        self.version += 1
        if kind in ("stuck", "chatter"):
            self.fault = [kind, name]
            return
        self.fault = None
        self.msg = None
        try:
            self.modes[self.mode].key(self, kind == "long", name)
        except (rules.Refused, ValueError) as e:
            self._refused(e)
        except OSError:  # the journal could not write: the event did not count
            self.msg = ["not_saved"]

    def _refused(self, e):
        if isinstance(e, rules.Refused):
            self.msg = ["refused", e.rule, e.key] + list(e.args_)
        else:
            self.msg = ["bad_key", str(e)]

    # ------------------------------------------------------------ what the handlers use

    def bad(self, k):
        self.msg = ["bad_key", k]

    def go(self, mode):
        self.mode = mode
        self.cursor = 0

    def menu(self):
        self.go("menu")
        self.confirm = None

    def after(self):
        """Pick the mode from the match after an accepted event."""
        m = self.match
        self.entry.clear()  # (an event got a copy of what it needed)
        self.hit = None
        self.shift = False
        if m.get("game") is None:
            x = "setup"
        elif m.get("winner") is not None:
            x = "over"
        elif m.get("shooter") is None:
            x = "lag"
        elif m.get("pending"):
            x = "choice"
        else:
            x = "play"
        if x != "setup":
            self.unlocked = False  # (the PIN again for the next change of the match)
        self.go(x)

    def send(self, ev):
        """Apply one event and show the match after it; False if it was refused."""
        m = self.match
        brk = m.get("breaking")
        rack = m.get("rack")
        try:
            m.apply(ev, False)  # well-formed by construction (tests/mash.py)
        except rules.Refused as e:
            self._refused(e)
            return False
        self.after()
        self.timed(ev, brk, rack)
        return True

    def undo(self):
        """Take back the last user action: the events it sent (docs/contracts.md undo events, each
        taking back one accepted event), as one step (Match.undo_action)."""
        n = len(self.match.log)
        k = self.match.log.action()
        what = "won_rack" if k > 1 else _what(self.match, n - 1)  # (groups: a rack won)
        try:
            self.match.undo_action()
        except rules.Refused as e:
            self._refused(e)
            return
        self.after()
        self.timed(None)
        self.msg = ["undone_x", what] if what else ["undone"]

    # ------------------------------------------------------------ shots

    def made(self):
        m = self.match
        if 0 in self.entry:
            return self.foul()
        g = m.get("game")
        brk = m.get("breaking")
        if m.get("groups") is None and g == "8ball" and not brk and not _objs(self) \
                and self.hit is None:
            return self.go("groupq")  # E6: the ball made decides the groups: which was it?
        ev = _base(self)
        objs = _objs(self) if self.entry else [ev["first"]]
        ev["pots"] = objs
        if g == "14.1" or g == "8ball" and not brk:
            # S2, E8: the called ball went in (A8): the shooter's ball hit first, if it went in
            ev["call"] = ev["first"] if ev["first"] in objs else objs[0]
            ev["made"] = True
        elif g == "10ball" and not brk:
            # T2, C-T1: the called ball (the first entered; none: the lowest) went in as called
            ev["call"] = objs[0]
            ev["made"] = True
        i = m.get("shooter")
        if g == "14.1" and not brk and m.balls_left() - len(objs) <= 1 \
                and m.player(i, "score") + len(objs) < m.get("target")[i]:
            self.ask = [ev, False, False]     # A10: where are the cue ball and the 15th ball?
            self.go("rackq")
            return
        self.send(ev)

    def miss(self):
        if 0 in self.entry:
            return self.foul()
        ev = _base(self)
        if self.entry:
            ev["pots"] = _objs(self)       # pocketed, but not as called (A8, T7)
        self.send(ev)

    def not_called(self):
        # 10-ball, the menu: the balls entered (none: the lowest) pocketed, not as called (T7)
        if not self.entry:
            self.entry.append(self.match.get("table")[0])
        self.miss()

    def safe(self):
        if self.match.get("breaking"):
            return self.miss()
        ev = _base(self)
        ev["call"] = "safety"
        objs = _objs(self) if self.entry else None
        if objs:
            ev["pots"] = objs
        self.send(ev)

    def foul(self, rule=None, viol=False):
        """A foul: a scratch when the cue ball is entered, else the referee's rule, else a
        bad hit (no legal first contact, G3); on a break, a bad break (14.1: C alone, or viol:
        a breaking violation with the balls entered, the cue ball among them, A6)."""
        brk = self.match.get("breaking")
        ev = _base(self)
        if self.entry:
            ev["pots"] = list(self.entry)
        if brk and not (self.match.get("game") == "14.1" and 0 in self.entry and not rule
                        and not viol):
            # a bad break; in 14.1 a scratch (0 entered) is one on a legal break instead: a
            # foul, -1, ball in hand in the kitchen, the table as it lies (S4, C-S2)
            ev["break_rails"] = 0
            ev["cue_rail"] = False
            if not self.entry and not rule:
                ev["rail"] = False
        if rule:
            ev["foul"] = rule
        elif 0 not in self.entry and not brk:
            # no legal first contact (G3), or the wrong ball named with "#A" (E7, C-E1, N5)
            h = self.hit
            ev["first"] = h if h is not None and _wrong(self, h) else None
        self.send(ev)

    def push(self):
        ev = {"t": "shot", "call": "push", "first": None, "rail": False}
        if self.entry:
            ev["pots"] = list(self.entry)
        self.send(ev)

    def off(self):
        # the balls entered left the table (0: the cue ball, S9, N10); none entered: the cue ball
        ev = _base(self)
        ev["off"] = list(self.entry) or [0]
        self.send(ev)

    def won_rack(self, who):
        """Long press of a player's button (8/9/10-ball): that player made the winning ball (in
        10-ball called, T2), and nothing else is credited: 8-ball only with who's group down (E11; an open table or
        balls of the group left are refused: no ball is pocketed that was not shot). The
        events go as one step: all are accepted or none (Match.apply_all: journaled as one
        action, resumed whole or not at all)."""
        m = self.match
        if m.get("game") == "14.1" or m.get("pending") or m.get("winner") is not None \
                or who is None:
            return self.bad("long")
        g = m.get("groups")
        gm = m.get("game")
        money = 9 if gm == "9ball" else (10 if gm == "10ball" else 0)
        if not money and (g is None or [b for b in m.get("table") or ()
                                       if rules.group_of(b) == g[who]]):
            raise rules.Refused("E11", "group_left", m.get("names")[who])
        evs = []
        if m.get("breaking"):  # the 9 (10) on the break, or a legal dry break by the other
            b = {"t": "shot", "first": 1, "break_rails": 4, "rail": True}
            if m.get("shooter") == who:
                b["pots"] = [money]
            evs.append(b)
        elif m.get("shooter") != who:   # the shooter missed; who came to the table
            evs.append({"t": "shot", "first": _first(self), "rail": True})
        if money:
            r0 = m.get("rack")

            def win():  # the 9 (the 10 called, T2) in off the lowest ball (N2), unless the
                if m.get("rack") != r0 or m.get("winner") is not None:  # break won the rack
                    return ()
                w = {"t": "shot", "first": m.get("table")[0], "pots": [money], "rail": True}
                if money == 10:
                    w["call"] = 10
                    w["made"] = True
                return (w,)
            evs.append(win)  # (called when its turn comes: it sees the table the others left)
        else:        # the 8 called and made (E11)
            evs.append({"t": "shot", "first": 8, "pots": [8], "call": 8, "made": True,
                        "rail": True})
        brk = m.get("breaking")
        try:
            self.match.apply_all(evs)
        except rules.Refused as e:
            return self._refused(e)
        self.after()
        self.timed({"t": "shot"}, brk)  # (a rack won: the next break waits, paused)

    def choose(self, opt):
        by = self.match.get("pending")[0]
        ev = {"t": "choose", "option": opt, "by": by}
        if opt == "rerack_other":
            ev["option"] = "rerack"
            ev["breaker"] = 1 - by
        self.send(ev)

    # ------------------------------------------------------------ the table: start, settings

    def start(self, keep=None):
        # keep: the fewest archived matches pruning keeps (None: the store's rule, asking first
        # in mode "full" if the flash is short of room; 1: the referee said delete; 0: keep all).
        t = self.table
        ev = _setup().new_event(self.cfg, self.lang)
        # (the store archives, makes the journal and saves the settings a step a pass)
        log = t.open(self.lang, keep)
        if log is None:
            return self.go("full")
        self.match = Match(log)
        if self.send(ev):
            self.msg = t.started(ev["players"])

    def to_setup(self, look=False):
        # Back to the new-match screen with the same settings, the match's journal let go
        # (look: a match was played: the table measures the room left meanwhile).
        self.table.close(look)
        self.match = Match(self.table.take(None))
        self.confirm = None
        self.ask = None
        self.after()
        self.timed(None)

    def other_lang(self):
        self.lang = "tr" if self.lang == "en" else "en"
        self.save()

    def save(self, bright=0):
        # The settings saved by the table (bright: the wall panel's brightness a step up or
        # down first); a file that won't take them is said (the settings file, not the event).
        if not self.table.save(self.lang, bright):
            self.msg = ["cfg_not_saved"]

    def setting(self, key, d):
        # A new-match screen's field one step on (firmware/setup.py: the names from the store).
        self.msg = self.table.setting(key, d)

    def rows(self, it):
        # A list screen's rows with the brightness row (where a wall panel is wired).
        if self.table.wall:
            it.insert(-1, ["bright", "set", self.cfg["bright"]])  # (before start / back)
        return it


# ---------------------------------------------------------------- building a shot

def _objs(c):
    # The object balls entered, as a new list (the entry is cleared after each event).
    return [b for b in c.entry if b]


def _first(c):
    """The ball the shot hits first: the one the referee named ("#A"), else a legal one: the
    first entered ball the shooter may hit, else the lowest such ball on the table."""
    if c.hit is not None:
        return c.hit
    m = c.match
    t = m.get("table")
    if m.get("game") in _ROT or m.get("breaking") and t:
        return t[0]
    if m.get("game") == "14.1":
        for b in c.entry:    # the first object ball entered
            if b:
                return b
        return 1
    ok = _may_hit(m)
    for b in c.entry:        # C-E2: a ball of the other group entered is only pocketed
        if b in ok:          # (never the cue ball: ok holds object balls)
            return b
    return ok[0]


def _may_hit(m):
    # 8-ball: the balls the shooter may hit first (C-E1, E7; the 8 once the group is down).
    g = m.get("groups")
    mine = g and g[m.get("shooter")]
    ok = [b for b in m.get("table") if b != 8 and (g is None or rules.group_of(b) == mine)]
    return ok or [8]


def _wrong(c, b):
    m = c.match
    if m.get("game") == "14.1":
        return False
    return b != m.get("table")[0] if m.get("game") in _ROT else b not in _may_hit(m)


def _base(c):
    ev = {"t": "shot", "first": _first(c), "rail": True}
    if c.match.get("breaking"):
        ev["break_rails"] = 4
        ev["cue_rail"] = True
    return ev


# ---------------------------------------------------------------- screen modes
# One handler per screen mode (Controller.mode names it) and layout: key(c, long, k) does what
# key k does there, items(c) is the list it shows, hints(c) what the keys do now ([key, action]
# pairs). A mode whose keys mean the same on every layout has one handler, which shows the
# labels of the layout's keys (c.labels); the others have one for the keypad and one for the
# buttons.

class _Mode:
    def key(self, c, long, k):
        c.bad(k)

    def items(self, c):
        return []

    def hints(self, c):
        return []


class _Lag(_Mode):
    def hints(self, c):
        lb = c.labels
        return [[lb[_P1], "lag0"], [lb[_P2], "lag1"]]

    def key(self, c, long, k):
        if k in ("D", "UNDO"):         # back to the settings
            return c.to_setup()
        i = {"1": 0, "2": 1, "P1": 0, "P2": 1}.get(k)
        if i is None:
            return c.bad(k)
        c.send({"t": "lag", "breaker": i})


def _shift(c):
    # "#" on the keypad: shift for the next key; a second "#" opens the menu.
    if c.shift:
        c.shift = False
        return c.menu()
    c.shift = True


def _undo_key(c, long):
    # UNDO on the buttons: pressed, takes back the last action; held down, opens the menu.
    if long:
        return c.menu()
    c.undo()


class _PlayKeys(_Mode):
    def key(self, c, long, k):
        if k == "#":
            return _shift(c)
        sh = c.shift
        c.shift = False
        g = c.match.get("game")
        if sh and k in _CLOCK_KEYS:  # "#6"-"#9": the shot clock's keys (no ball is 16-19)
            return c.clock_key(_CLOCK_KEYS[k])
        if k.isdigit():              # a ball pocketed (0: the cue ball); keyed again: taken out
            b = int(k) + (10 if sh else 0)
            full = 9 if g == "9ball" else (10 if g == "10ball" else 15)
            if b > full:
                return c.bad("#" + k)
            if b in c.entry:
                return c.entry.remove(b)
            if b:
                c.match.check_ball(b)  # a ball already pocketed is refused as it is keyed (E1, N1)
            if len(c.entry) > full:
                c.msg = ["entry_full"]
            else:
                c.entry.append(b)
        elif k == "*" and sh:
            c.go("help")
        elif k == "C" and sh:          # "#C", 14.1 break: a breaking violation and a scratch (A6)
            if g != "14.1" or not c.match.get("breaking"):
                return c.bad("#C")
            if 0 not in c.entry:
                c.entry.append(0)
            c.foul(None, True)
        elif k == "A" and sh:          # "#A": the last ball entered was hit first
            objs = _objs(c)
            if not objs:
                return c.bad("#A")
            c.hit = objs[-1]
            c.entry.remove(c.hit)
        elif k == "A":
            c.made()
        elif k == "B":
            c.miss()
        elif k == "*":
            c.safe()
        elif k == "C":
            c.foul()
        elif k != "D":
            c.bad(k)
        elif c.entry or c.hit is not None:
            c.entry = []
            c.hit = None
        else:
            c.undo()

    def hints(self, c):
        b = c.match.get("breaking")
        return [["A", "made"], ["B", "dry_break" if b else "miss"],
                ["C", "bad_break" if b else "foul"],
                ["D", "clear" if c.entry or c.hit is not None else "undo"]]


class _PlayButtons(_Mode):
    # With a shot clock: FOUL once the time is up records the time foul the board proposes
    # (K4: a standard foul, no shot facts); held down, MISS takes the shooter's extension (K3)
    # and OK stops or starts the clock (K6); its restart is the menu's row.
    def key(self, c, long, k):
        if k == "UNDO":
            return _undo_key(c, long)
        ck = c.clock
        if k == "FOUL":
            if long:
                c.entry = [0]
            elif ck is not None and ck.expired(c.now):
                return c.clock_key("time")
            return c.foul()
        if k == "MISS":
            if long and ck is not None:
                return c.clock_key("ext")
            return c.miss()
        if k == "OK":
            if long and ck is not None:
                return c.clock_key("pause")
            return c.safe()
        if k not in ("P1", "P2"):
            return c.bad(k)
        who = 0 if k == "P1" else 1
        if long:
            return c.won_rack(who)
        if who == c.match.get("shooter"):
            return c.made()
        c.miss()

    def hints(self, c):
        me = "P1" if c.match.get("shooter") == 0 else "P2"
        return [[me, "made"], ["P2" if me == "P1" else "P1", "miss"], ["FOUL", "foul"],
                ["UNDO", "undo"]]


def _options(c):
    """Keypad choice options in order, with the named-breaker re-rack of A7 split out."""
    kind = c.match.get("pending")[1]
    opts = list(c.match.options())
    if kind in ("E3", "E3s"):
        opts.append("rerack_other")
    return opts


class _ChoiceKeys(_Mode):
    def key(self, c, long, k):
        opts = _options(c)
        if k.isdigit() and 1 <= int(k) <= len(opts):
            return c.choose(opts[int(k) - 1])
        if k == "D":
            return c.undo()
        c.bad(k)

    def hints(self, c):
        return [[str(i + 1), o] for i, o in enumerate(_options(c))] + [["D", "undo"]]


class _ChoiceButtons(_Mode):
    # FOUL steps through the options, the chooser's button takes the one shown.
    def key(self, c, long, k):
        by = c.match.get("pending")[0]
        opts = c.match.options()
        if k == "UNDO":
            _undo_key(c, long)
        elif k == "FOUL":
            c.cursor = (c.cursor + 1) % len(opts)
        elif k not in ("P1", "P2"):
            c.bad(k)
        elif (0 if k == "P1" else 1) != by:
            c.msg = ["not_yours", by]
        else:
            c.choose(opts[c.cursor % len(opts)])

    def hints(self, c):
        opts = c.match.options()
        return [["P1" if c.match.get("pending")[0] == 0 else "P2", opts[c.cursor % len(opts)]],
                ["FOUL", "next"], ["UNDO", "undo"]]


class _Over(_Mode):
    # The match is won: only undo, and the menu (a new match, the language).
    def key(self, c, long, k):
        if k == "#":
            return _shift(c)
        if k == "D":
            return c.undo()
        c.shift = False
        c.bad(k)

    def hints(self, c):
        lb = c.labels
        return [[lb[_UNDO], "undo"], [lb[_MENU], "menu"]]


class _OverButtons(_Over):
    def key(self, c, long, k):
        if k == "UNDO":
            return _undo_key(c, long)
        c.shift = False
        c.bad(k)


class _List(_Mode):
    # A list screen: keys move the cursor, change the row's value, confirm it, or go back
    # (which key does what: the layout's c.lst).
    def key(self, c, long, k):
        a = c.lst.get(k)
        if a is None:
            return c.bad(k)  # (before its rows are made)
        items = self.items(c)
        c.cursor %= len(items)  # (a list may have got shorter: the game changed)
        if a == "u":
            c.cursor = (c.cursor - 1) % len(items)
        elif a == "d":
            c.cursor = (c.cursor + 1) % len(items)
        elif a == "-" or a == "+":
            self.change(c, items[c.cursor], -1 if a == "-" else 1)
        elif a == "b":
            self.back(c)
        else:
            self.ok(c, items[c.cursor])

    def hints(self, c):
        lb = c.labels
        return [[lb[_TOGGLE], "toggle"], [lb[_OK], "ok"], [lb[_UNDO], "back"],
                [lb[_MOVE], lb[_MV]]]

    def change(self, c, item, d):
        pass

    def ok(self, c, item):
        self.back(c)

    def back(self, c):
        c.after()


class _Setup(_List):
    # The new-match screen: 4/6 (P2) change a setting, 5 (FOUL) starts from any row; nothing
    # to go back to. The layout's name key (the keypad's *) on a player's row types a name
    # (mode "name", firmware/setup.py).
    def key(self, c, long, k):
        if k == c.labels[_NAME] and self._player(c):
            if _asks_pin(c):
                return
            return _setup().type_start(c, self._player(c))
        _List.key(self, c, long, k)

    def _player(self, c):
        it = self.items(c)
        f = it[c.cursor % len(it)][0]
        return f if f in ("player1", "player2") else None

    def items(self, c):
        return c.rows(_setup().items(c.cfg, c.lang))

    def hints(self, c):
        h = _List.hints(self, c)
        h[1][1] = "start"
        del h[2]
        if c.labels[_NAME] and self._player(c):
            h.insert(2, [c.labels[_NAME], "type_name"])  # (before the move hint: it shows)
        return h

    def change(self, c, item, d):
        if item[0] == "lang":
            c.other_lang()
        elif _asks_pin(c):  # (every other row changes the match to come)
            return
        elif item[0] == "bright":
            c.save(d)
        else:
            c.setting(item[0], d)

    def ok(self, c, item):
        if not _asks_pin(c):
            c.start()

    def back(self, c):
        c.bad(c.labels[_UNDO])


class _Name(_Mode):
    # A player's name typed on the keypad, as on a phone (firmware/setup.py).
    def key(self, c, long, k):
        _setup().type_key(c, long, k)

    def items(self, c):
        return _setup().type_items(c)


class _Full(_List):
    # The flash is short of room for a new match: delete the oldest archived matches (never the
    # one just archived) and start, or start keeping them all; back: the new-match screen.
    def items(self, c):
        return [["full_delete", "full_delete", None], ["full_keep", "full_keep", None]]

    def ok(self, c, item):
        c.start(1 if item[1] == "full_delete" else 0)

    def back(self, c):
        c.go("setup")


class _Menu(_List):
    def items(self, c):
        m = c.match
        it = []
        if m.get("winner") is None and m.get("shooter") is not None:  # (None before the new)
            if m.get("game") in _ROT:   # (refused but for the shot after the break: N7, T5)
                it.append(["push", "push", None])
                if m.get("game") == "10ball" and not m.get("breaking"):
                    it.append(["not_called", "not_called", None])  # T7
            if c.clock is not None:     # the shot clock's (the buttons' only way to them)
                it += [[r, r, None] for r in _CLOCK_ROWS]
            f = rules.CALLED_FOULS
            it += [["touch", "touch", "G5.4"], ["double", "double", "G5.11"],
                   ["off", "off", None], ["called_foul", "called_foul", f[c.foul_i % len(f)]]]
            if m.get("game") != "14.1":
                it.append(["won_rack", "won_rack", None])
        nm = "newmatch"
        if c.confirm:   # asked once: the row says which key confirms
            nm = c.labels[_CONFIRM]
        return c.rows(it + [["help", "help", None], ["lang", "lang", c.lang],
                            [nm, nm, None], ["back", "back", None]])

    def change(self, c, item, d):
        act = item[1]
        if act == "called_foul":
            c.foul_i += d
        elif act == "lang":
            c.other_lang()
        elif item[0] == "bright" and not _asks_pin(c):
            c.save(d)

    def ok(self, c, item):
        act = item[1]
        if act in ("set", "newmatch") and _asks_pin(c):
            return
        if act == "lang":
            c.other_lang()
        elif act == "set":      # the brightness row: one step up
            c.save(1)
        elif act == "back":
            c.after()
        elif act == "help":
            c.go("help")
        elif act == "newmatch":
            c.confirm = True
        elif act[:10] == "newmatch_q":
            c.to_setup(True)
        elif act == "push":
            c.push()
        elif act == "off":
            c.off()
        elif act == "won_rack":
            c.won_rack(c.match.get("shooter"))
        elif act == "not_called":
            c.not_called()
        elif act in _CLOCK_ROWS:
            c.after()   # (back in play first: the clock's keys act there)
            c.clock_key(_CLOCK_KEYS["6789"[_CLOCK_ROWS.index(act)]])
        elif item[2] == "G5.2":     # a scratch is the cue ball pocketed (S7, A7, N4)
            if 0 not in c.entry:
                c.entry.append(0)
            c.foul()
        elif item[2] == "G5.3":     # a ball off the table: the balls entered, else the cue ball
            c.off()
        else:           # touch, double, the called foul: a foul by its rule
            c.foul(item[2])


class _GroupQ(_List):
    # E6 on an open table: the group of the ball made (solids, stripes), as the shot's ball.
    def items(self, c):
        t = c.match.get("table")
        return [[g, g, None] for g in ("solids", "stripes")
                if [b for b in t if rules.group_of(b) == g]]

    def key(self, c, long, k):      # keypad: 1 / 2 the group, or the list's keys
        if k in ("1", "2") and int(k) <= len(self.items(c)):
            c.cursor = int(k) - 1
            return self.ok(c, None)
        _List.key(self, c, long, k)

    def hints(self, c):
        it = self.items(c)
        return [[str(i + 1), it[i][0]] for i in range(len(it))] + [["D", "back"]]

    def ok(self, c, item):          # the lowest ball of the group made, called and made (A8)
        g = self.items(c)[c.cursor % len(self.items(c))][0]
        c.entry = [[b for b in c.match.get("table") if rules.group_of(b) == g][0]]
        c.made()


class _GroupQButtons(_GroupQ):
    # FOUL steps through the groups; the shooter's button (or OK) takes the one shown.
    def key(self, c, long, k):
        if k == "UNDO":
            return self.back(c)
        n = len(self.items(c))
        if k == "FOUL":
            c.cursor = (c.cursor + 1) % n
        elif k == "OK" or k == ("P1" if c.match.get("shooter") == 0 else "P2"):
            self.ok(c, None)
        else:
            c.bad(k)

    def hints(self, c):
        it = self.items(c)
        return [["P1" if c.match.get("shooter") == 0 else "P2", it[c.cursor % len(it)][0]],
                ["FOUL", "next"], ["UNDO", "back"]]


class _Help(_List):
    # What every key does now, for this layout, game and moment (the break, a choice, A10,
    # the calls no key makes); 5 or D (FOUL or UNDO) closes it.
    def items(self, c):
        m = c.match
        g = m.get("game")  # (None before the new event)
        lb = c.labels
        it = self.keyrows(m, g, m.get("breaking"), c)
        if g == "14.1":
            it.append([lb[_RACKQ], "mode_rackq"])
        it += [[lb[_MENU], "h_g514"], ["G22", "h_g22"]]
        return [[k, a, None] for k, a in it]  # no value: a help row is a key and what it does

    def keyrows(self, m, g, brk, c):
        it = [["1-9", "balls_in"], ["#1-5", "ball10"], ["A", "made"],
              ["B", "dry_break" if brk else "miss"], ["*", "safe"],
              ["C", "bad_break" if brk else "foul"], ["0 C", "scratch"]]
        if brk and g == "14.1":
            it.append(["0 #C", "viol_scratch"])
        it += [["D", "undo"], ["#A", "hit"], ["##", "menu"], ["#*", "help"], ["1-4", "h_choice"]]
        if g == "9ball":   # balls 1-9; the push out (N7)
            it[1] = ["##", "push"]
        elif g == "10ball":   # balls 1-10, every shot called (T2, C-T1, T7); the push out (T5)
            it[1:3] = [["#0", "ball_10"], ["A", "h_called"], ["B", "not_called"], ["##", "push"]]
        if c.clock is not None:   # the shot clock's keys
            it += [["#" + k, _CLOCK_ROWS["6789".index(k)]] for k in "6789"]
        return it

    def hints(self, c):
        return _List.hints(self, c)[2:]


class _HelpButtons(_Help):
    # The buttons (MISS and OK where the layout has them), then under a "Held down:" row what
    # they do when held (the README's table).
    def keyrows(self, m, g, brk, c):
        me = "P1" if m.get("shooter") == 0 else "P2"
        it = [[me, "made"], ["P2" if me == "P1" else "P1", "miss"],
              ["FOUL", "bad_break" if brk else "foul"], ["UNDO", "undo"]]
        it += c.labels[_SIX]
        it += [["held", "held"], ["FOUL", "scratch"], ["UNDO", "menu"]]
        if g != "14.1":
            it.append(["P1/P2", "won_rack"])
        if g == "10ball":   # T7: the lowest in, not as called: the menu's row
            it.append(["UNDO", "not_called"])
        if c.clock is not None:   # the shot clock's: held MISS and OK, and the menu's rows
            if c.labels[_SIX]:
                it += [["MISS", "ext"], ["OK", "c_pause"]]
            it.append(["UNDO", "h_clock"])
        return it + [["FOUL", "next"], ["P1/P2", "h_choice"]]


class _RackQ(_List):
    # A10: where the cue ball and the 15th ball lie; 1 / 2 (P1 / P2) change them, A sends the
    # shot. The 15th ball's answer goes no, yes (in the rack area), kitchen (C-S4 d: with the
    # cue ball in the rack area, the cue ball goes on the head spot).
    def items(self, c):
        a = c.ask
        case = c.match.rack_case(len(a[0]["pots"]), a[1], a[2] is True, a[2] == "kitchen")
        return [["cue_in_rack", "toggle", a[1]], ["ball_in_rack", "toggle", a[2]],
                ["ok", "ok", case]]

    def hints(self, c):
        lb = c.labels
        return [[lb[_P1], "cue_in_rack"], [lb[_P2], "ball_in_rack"], [lb[_QOK], "ok"],
                [lb[_UNDO], "back"]]

    def key(self, c, long, k):
        if k in ("1", "2", "P1", "P2"):
            self._toggle(c, 1 if k in ("1", "P1") else 2)
        elif k in ("A", "5", "#", "FOUL", "OK"):
            self.ok(c, None)
        else:
            _List.key(self, c, long, k)

    def change(self, c, item, d):   # 4/6 (P2) on a row: toggle its answer; on "ok": send
        if item[1] == "toggle":
            self._toggle(c, 1 if item[0] == "cue_in_rack" else 2)
        else:
            self.ok(c, item)

    def _toggle(self, c, i):        # c.ask[1]: the cue ball is in the rack; [2]: the 15th ball
        a = c.ask
        a[i] = not a[i] if i == 1 else {False: True, True: "kitchen"}.get(a[i], False)

    def ok(self, c, item):          # send the shot with the answers
        ev, cue_in, ball_in = c.ask
        c.ask = None
        c.mode = "play"
        if cue_in:
            ev["cue_in_rack"] = True
        if ball_in == "kitchen":
            if cue_in:  # (else the 15th ball is not in the way: S10)
                ev["ball_in_kitchen"] = True
        elif ball_in:
            ev["ball_in_rack"] = True
        c.send(ev)

    def back(self, c):
        c.ask = None
        c.after()


def _asks_pin(c):
    # The referee's PIN (Controller.pin) guards what changes a match: the new-match screen's
    # rows but its language, starting, the menu's new match and brightness. True while it is
    # not entered: then it is asked (mode "pin"), and the key that wanted it did nothing.
    if c.pin is None or c.unlocked:
        return False
    c.pin_ask = [c.mode, c.cursor, ""]
    c.go("pin")
    return True


class _Pin(_Mode):
    # The PIN asked (_asks_pin): its digits on the keypad, or on the buttons as P1=1 P2=2
    # FOUL=3 UNDO=4 MISS=5 OK=6; once as many as the PIN has, right or wrong, back to where it
    # was asked (right: unlocked). D, or any key held, goes back without it.
    def key(self, c, long, k):
        a = c.pin_ask
        if k == "D" or long:
            return self._back(c, None)
        d = str(_PIN_BUTTONS.index(k) + 1) if k in _PIN_BUTTONS else k
        if d not in "0123456789" or len(d) != 1:
            return c.bad(k)
        a[2] += d
        if len(a[2]) >= len(c.pin):
            c.unlocked = a[2] == c.pin
            self._back(c, ["pin_ok"] if c.unlocked else ["pin_wrong"])

    def _back(self, c, msg):
        a = c.pin_ask
        c.pin_ask = None
        c.go(a[0])  # pyright: ignore[reportOptionalSubscript]
        c.cursor = a[1]  # pyright: ignore[reportOptionalSubscript]
        c.msg = msg

    def items(self, c):
        return [["pin", "pin", "*" * len(c.pin_ask[2]) or "-"]]  # pyright: ignore

    def hints(self, c):
        if c.layout == "keypad":
            return [["0-9", "pin_digits"], ["D", "back"]]
        return [["P1-OK", "pin_digits"], ["long:UNDO", "back"]]


_PIN_BUTTONS = ("P1", "P2", "FOUL", "UNDO", "MISS", "OK")


# The input maps (Controller.__init__): each layout's name in the model, list keys ("u" up, "d"
# down, "-" / "+" the row's value, "o" ok, "b" back), the labels of its hints (by the indices
# below) and its handler of each screen mode.
_KEYPAD = {"lag": _Lag(), "menu": _Menu(), "rackq": _RackQ(), "name": _Name(), "full": _Full(),
           "setup": _Setup(), "play": _PlayKeys(), "choice": _ChoiceKeys(), "over": _Over(),
           "groupq": _GroupQ(), "help": _Help(), "pin": _Pin()}
_BUTTONS = dict(_KEYPAD)
_BUTTONS.update({"play": _PlayButtons(), "choice": _ChoiceButtons(),
                 "over": _OverButtons(), "groupq": _GroupQButtons(), "help": _HelpButtons()})
_LIST = {"P1": "d", "P2": "+", "FOUL": "o", "OK": "o", "UNDO": "b"}
_LABELS = ("UNDO", "long:UNDO", "P1", "P2", "P2", "FOUL", "FOUL", "P1", "down", "P1 P2",
           "newmatch_qF", (("MISS", "miss"), ("OK", "safe")), None)
_LAYOUTS = {
    "keypad": ("keypad", {"2": "u", "8": "d", "4": "-", "6": "+", "5": "o", "#": "o", "A": "o",
                          "D": "b"},
               ("D", "##", "1", "2", "4/6", "5", "A", "2/8", "move", "1 2", "newmatch_q5", (), "*"),
               _KEYPAD),
    "buttons": ("buttons", _LIST, _LABELS, _BUTTONS),
    "four": ("buttons", _LIST, _LABELS[:_SIX] + ((), None), _BUTTONS),  # P1, P2, FOUL, UNDO only
}


def _what(m, i):
    # The action label of accepted event i, the last (what an undo takes back), from the event
    # and the note it left; None if it is on flash only (a journal holds the events after its
    # latest snapshot in RAM).
    try:
        ev = m.log.event(i)
    except IndexError:
        return None
    t = ev["t"]
    if t == "lag":
        return "lag_n"
    if t == "choose":
        return ev["option"]
    if t != "shot":
        return None
    f = (m.get("note") or {}).get("foul")
    if ev.get("call") == "push":
        return "push"
    if f:   # S4: a breaking violation (not a foul, C-S2); G5.2: a scratch
        return "bad_break" if f == "S4" else ("scratch" if f == "G5.2" else "foul")
    if ev.get("call") == "safety":
        return "safe"
    # a ball made: the called one (A8), or in 9-ball any ball on a legal shot (N6)
    return "made" if ev.get("made") or ev.get("pots") and (
        m.get("game") == "9ball" or m.get("game") == "10ball" and "break_rails" in ev) else "miss"


def _clock():
    # The shot clock (firmware/shotclock.py): the rules loaded it with the match's new event.
    from firmware import shotclock

    return shotclock


def _setup():
    # The new-match screen's fields and event (firmware/setup.py), loaded only while it is up.
    from firmware import setup

    return setup
