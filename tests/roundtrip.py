# Events -> keys -> events (CPython and MicroPython): random legal referee actions in the four
# games, each written first as the events the contract says it is (README "Referee keypad (4x4)", RULES.md A8),
# then pressed as a referee would on the keypad, or on 4 or 6 buttons; the Controller must send
# exactly those events, nothing added, dropped or guessed. Undo at any point takes back the last
# action's events. A tiny LCG (as in tests/mash.py) makes the same streams on every port.
from firmware import rules
from firmware.match import Match
from firmware.ui import Controller


class Lcg:
    # tests/mash.py's generator (not imported: its imports cost the board-like VM 7 KB of heap)
    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


INPUTS = ("keypad", "b4", "b6")
# What an input can't say: (kind, the inputs). The README's table "What the buttons can't
# enter" lists the same kinds; tests/test_roundtrip.py checks that they agree.
NOT_ON = (
    ("balls", ("b4", "b6")),          # object balls entered: pocketed (but the one made), off
    ("hit", ("b4", "b6")),            # "#A": the ball the cue ball hit first
    ("safety", ("b4",)),              # a called safety (a miss leaves the same table)
    ("A6", ("b4", "b6")),             # 14.1 breaking violation with a scratch
    ("rerack_other", ("b4", "b6")),   # A7 re-rack with the other player named to break
)
_CAN = {}
for _k, _ins in NOT_ON:
    _CAN[_k] = _ins


def can(kind, inp):
    return inp not in _CAN.get(kind, ())


class Mismatch(AssertionError):
    pass


def legal_first(s, balls):
    """The ball hit first when the referee names none (README): 9-ball, 10-ball and any break
    the lowest ball; 14.1 the first object ball entered, else 1; 8-ball the first entered ball the
    shooter may hit, else the lowest such (own group, any but the 8 on an open table, the 8)."""
    t = s["table"]
    if s["game"] in ("9ball", "10ball") or s["breaking"] and t:
        return t[0]
    objs = [b for b in balls if b]
    if s["game"] == "14.1":
        return objs[0] if objs else 1
    g = s["groups"]
    ok = [b for b in t if b != 8 and (g is None or rules.group_of(b) == g[s["shooter"]])] or [8]
    for b in objs:
        if b in ok:
            return b
    return ok[0]


def _base(s, first):
    ev = {"t": "shot", "first": first, "rail": True}
    if s["breaking"]:
        ev["break_rails"] = 4
        ev["cue_rail"] = True
    return ev


def _ball_keys(b):
    return [str(b)] if b < 10 else ["#", str(b - 10)]


class Stream:
    def __init__(self, game, inp, seed):
        self.game = game
        self.inp = inp
        self.kp = inp == "keypad"
        self.rng = Lcg(seed)
        self.c = Controller("keypad" if self.kp else "buttons", "en", game)
        self.m = Match()
        self.acts = []       # events sent by each action not undone, in turn
        self.kinds = {}      # action kind -> times checked
        self.events = 0      # events checked (sent, and taken back by undo)
        self.seen = {}       # what the events did: "foul:G5.2", "rack:C-S4b", "opt:E3:kitchen"...

    # ---------------------------------------------------------------- helpers

    def r(self, n):
        return self.rng.below(n)

    def press(self, keys, kind="press"):
        for k in keys:
            self.c.key(kind, k)

    def _menu(self, act, value=None):
        # Open the menu, move to the row of act (reading the rows on the screen), set its value.
        c = self.c
        self.press(["#", "#"] if self.kp else [])
        if not self.kp:
            c.key("long", "UNDO")
        items = c.model()["items"]
        i = [k for k in range(len(items)) if items[k][1] == act]
        if not i:
            raise Mismatch("no menu row " + act + ": " + repr(items))
        self.press([("8" if self.kp else "P1")] * i[0])
        for _ in range(len(rules.CALLED_FOULS) + 1):
            if value is None or c.model()["items"][c.cursor][2] == value:
                break
            self.press(["6" if self.kp else "P2"])
        self.press(["5" if self.kp else "FOUL"])

    def _own(self, who=None):
        s = self.c.match.s
        return "P1" if (s["shooter"] if who is None else who) == 0 else "P2"

    def _balls(self, most, cue=False):
        # Up to `most` object balls on the table (14.1: any, no more than are left), random order.
        s = self.m.s
        pool = list(s["table"]) if s["table"] is not None else list(range(1, 16))
        n = self.r(most + 1)
        if s["table"] is None:
            n = min(n, s["left"])
        out = []
        while len(out) < n and pool:
            out.append(pool.pop(self.r(len(pool))))
        if cue and self.r(3) == 0:
            out.insert(self.r(len(out) + 1), 0)
        return out

    def _enter(self, balls):
        for b in balls:
            self.press(_ball_keys(b))

    # ---------------------------------------------------------------- the check

    def expect(self, kind, evs, do, refused_ok=False):
        """Apply evs (a list, or a function of the shadow state giving the next event or None)
        to the shadow match, press the keys (do()), and check the Controller sent exactly them.
        An action the rules refuse must send nothing."""
        m = self.m
        sent = []
        refused = False
        todo = list(evs) if isinstance(evs, list) else None
        while True:
            if todo is not None:
                ev = todo.pop(0) if todo else None
            else:
                ev = evs(m.s, len(sent))  # type: ignore
            if ev is None:
                break
            try:
                m.apply(ev)
            except rules.Refused:
                refused = True
                for _ in sent:
                    m.apply({"t": "undo"})
                break
            sent.append(ev)
            note = m.s["note"]
            for k in ("foul", "rack", "end", "choice"):
                if note and k in note:
                    self.seen[k + ":" + str(note[k])] = 1
            if ev.get("off"):
                o = ev["off"]
                self.seen["off:" + ("ball" if 0 not in o else ("cue" if len(o) == 1 else
                                                               "both"))] = 1
            if ev["t"] == "choose":
                self.seen["opt:" + kind + ":" + ev["option"] + ("_other" if "breaker" in ev
                                                                else "")] = 1
            if ev.get("call") == "push":
                self.seen["push"] = 1
        log = self.c.match.log
        n0 = len(log)
        do()
        got = [log.event(i) for i in range(n0, len(log))] if self.c.match.log is log else None
        if refused:
            msg = self.c.msg
            if got or msg is None or msg[0] != "refused":
                raise Mismatch("%s %s: refused by the rules, the keys sent %r (%r)"
                               % (self.game, kind, got, msg))
            sent = []
        elif got != sent:
            raise Mismatch("%s %s on %s: want %r, sent %r (msg %r)"
                           % (self.game, kind, self.inp, sent, got, self.c.msg))
        if sent:
            self.acts.append(len(sent))
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        self.events += len(sent)
        if self.c.match.s != m.s:
            raise Mismatch("%s %s: the states differ" % (self.game, kind))
        return sent

    # ---------------------------------------------------------------- actions

    def start(self):
        c = self.c
        c.cfg["three"] = self.r(4) != 0
        if self.game == "14.1":
            c.cfg["t1"] = 10 + self.r(30)
            c.cfg["t2"] = 10 + self.r(30)
        else:
            c.cfg["r1"] = 1 + self.r(3)
            c.cfg["r2"] = 1 + self.r(3)
            c.cfg["break"] = (None, "alternate", "winner", "loser")[self.r(4)]
            c.cfg["nine"] = ("win", "spot")[self.r(2)]
            c.cfg["ten"] = ("spot", "win")[self.r(2)]       # O6
        if self.kp:
            self.press(["2", "5"])   # up from the first row wraps to "start"
        else:
            self.press(["P1"] * (len(c.model()["items"]) - 1) + ["FOUL"])
        ev = c.match.log.event(0)   # (the settings screen's own tests check the new event)
        self.m.apply(ev)
        self.lag()

    def lag(self):
        i = self.r(2)
        k = str(i + 1) if self.kp else ("P1", "P2")[i]
        self.expect("lag", [{"t": "lag", "breaker": i}], lambda: self.press([k]))

    def undo(self):
        k = self.acts[-1] if self.acts else 0
        log = self.c.match.log
        n0 = len(log)
        self.press(["D" if self.kp else "UNDO"])
        if len(log) != n0 - k:
            raise Mismatch("%s undo of %d events: the log went from %d to %d"
                           % (self.game, k, n0, len(log)))
        for _ in range(k):
            self.m.apply({"t": "undo"})
        if k:
            self.acts.pop()
        self.kinds["undo"] = self.kinds.get("undo", 0) + 1
        self.events += k
        if self.c.match.s != self.m.s:
            raise Mismatch("%s undo: the states differ" % self.game)

    def step(self):
        """One random action for the screen the Controller shows."""
        c = self.c
        mode = c.mode
        if mode == "lag":
            return self.lag()
        if mode in ("over",) or self.acts and self.r(12) == 0:
            return self.undo()
        if mode == "choice":
            return self.choose()
        if mode != "play":
            raise Mismatch("%s: unexpected screen %s" % (self.game, mode))
        s = self.m.s
        acts = ["made", "made", "made", "miss", "foul", "scratch", "off", "called", "won"]
        if self.game == "10ball" and not s["breaking"]:
            acts.append("not_called")       # T7 from the menu, on every input
        if can("safety", self.inp):
            acts.append("safe")
        if s["push"] and self.r(2) == 0:
            return self.push()
        if self.kp:
            acts += ["hit", "clear"]
            if self.game == "14.1" and s["breaking"]:
                acts.append("A6")
        a = acts[self.r(len(acts))]
        getattr(self, "a_" + a)()

    def choose(self):
        s = self.m.s
        by, kind = s["pending"]
        opts = list(rules.OPTIONS[kind])
        if kind[:2] == "E3" and can("rerack_other", self.inp):
            opts.append("rerack_other")
        i = self.r(len(opts))
        opt = opts[i]
        ev = {"t": "choose", "option": opt, "by": by}
        if opt == "rerack_other":
            ev["option"] = "rerack"
            ev["breaker"] = 1 - by

        def do():
            if self.kp:
                return self.press([str(i + 1)])
            if self.r(4) == 0:                      # the other player's button: not theirs
                self.press([self._own(1 - by)])
                if self.c.msg != ["not_yours", by]:
                    raise Mismatch("choice by the wrong player: %r" % (self.c.msg,))
            for _ in range(8):
                if self.c.model()["hints"][0][1] == opt:
                    break
                self.press(["FOUL"])
            self.press([self._own(by)])
        self.expect(kind, [ev], do)

    def _made_ev(self, s, balls, first):
        ev = _base(s, first)
        ev["pots"] = list(balls) or [first]
        if s["game"] == "14.1" or s["game"] == "8ball" and not s["breaking"]:
            ev["call"] = first if first in ev["pots"] else ev["pots"][0]
            ev["made"] = True
        elif s["game"] == "10ball" and not s["breaking"]:
            ev["call"] = ev["pots"][0]      # T2, C-T1: the first ball entered, made as called
            ev["made"] = True
        return ev

    def _a10(self, s, ev, keys):
        # 14.1: the shot that makes the rack's 14th (or 15th) ball asks A10: answer at random.
        p = s["p"][s["shooter"]]
        if s["game"] != "14.1" or s["breaking"] or s["left"] - len(ev["pots"]) > 1 or \
                p[rules.SCORE] + len(ev["pots"]) >= s["target"][s["shooter"]]:
            return keys
        cue = self.r(2) == 1
        ball = self.r(3)                            # no, in the rack area, in the kitchen
        if cue:
            ev["cue_in_rack"] = True
        if ball == 1:
            ev["ball_in_rack"] = True
        elif ball == 2 and cue:
            ev["ball_in_kitchen"] = True
        one, two, ok = ("1", "2", "A") if self.kp else ("P1", "P2", ("FOUL", "OK")[self.r(2)
                                                                         if self.inp == "b6" else 0])
        return keys + [one] * cue + [two] * ball + [ok]

    def a_made(self):
        s = self.m.s
        balls = self._balls(3) if self.kp and self.r(2) else []
        if s["game"] == "8ball" and s["groups"] is None and not s["breaking"] and not balls:
            return self._made_open()
        first = legal_first(s, balls)
        ev = self._made_ev(s, balls, first)
        keys = self._a10(s, ev, [])
        self.expect("made", [ev], lambda: (self._enter(balls),
                                           self.press(["A"] if self.kp else [self._own()]),
                                           self.press(keys)))

    def _made_open(self):
        # E6: the question of the group made; the lowest ball of it (a referee may enter a
        # ball instead: a_made with balls).
        s = self.m.s
        gs = [g for g in ("solids", "stripes") if [b for b in s["table"] if rules.group_of(b) == g]]
        i = self.r(len(gs))
        b = [x for x in s["table"] if rules.group_of(x) == gs[i]][0]
        ev = {"t": "shot", "first": b, "rail": True, "pots": [b], "call": b, "made": True}

        def do():
            self.press(["A"] if self.kp else [self._own()])
            if self.c.mode != "groupq":
                raise Mismatch("8-ball open table: made did not ask the group")
            if self.r(5) == 0:                  # back out, then ask again
                self.press(["D" if self.kp else "UNDO"])
                self.press(["A"] if self.kp else [self._own()])
            if self.kp:
                return self.press([str(i + 1)])
            for _ in range(3):
                if self.c.model()["hints"][0][1] == gs[i]:
                    break
                self.press(["FOUL"])
            self.press([self._own()] if self.inp == "b4" or self.r(2) else ["OK"])
        self.expect("made_open", [ev], do)

    def _shot(self):
        # (state, balls entered, the shot's event with them pocketed): object balls entered on
        # the keypad half the time (the buttons enter none).
        s = self.m.s
        balls = self._balls(2) if self.kp and self.r(2) else []
        ev = _base(s, legal_first(s, balls))
        if balls:
            ev["pots"] = balls
        return s, balls, ev

    def a_miss(self):
        s, balls, ev = self._shot()
        if self.kp:
            keys = ["B"]
        elif self.inp == "b6" and self.r(2):
            keys = ["MISS"]
        else:
            keys = [self._own(1 - s["shooter"])]
        self.expect("miss", [ev], lambda: (self._enter(balls), self.press(keys)))

    def a_not_called(self):
        # T7: the balls entered (none: the lowest) pocketed, not as called: the menu's row
        s, balls, ev = self._shot()
        ev["pots"] = balls or [s["table"][0]]
        self.expect("not_called", [ev], lambda: (self._enter(balls), self._menu("not_called")))

    def a_safe(self):
        s, balls, ev = self._shot()
        if not s["breaking"]:
            ev["call"] = "safety"
        self.expect("safe", [ev], lambda: (self._enter(balls),
                                           self.press(["*" if self.kp else "OK"])))

    def a_foul(self):
        s, balls, ev = self._shot()
        if s["breaking"]:
            ev["break_rails"] = 0
            ev["cue_rail"] = False
            if not balls:
                ev["rail"] = False
        else:
            ev["first"] = None          # no legal first contact (G3)
        self.expect("foul", [ev], lambda: (self._enter(balls),
                                           self.press(["C" if self.kp else "FOUL"])))

    def _scratch_ev(self, s, balls):
        ev = _base(s, legal_first(s, balls))
        ev["pots"] = balls + [0]
        if s["breaking"] and s["game"] != "14.1":    # 14.1: a scratch on a legal break (S4)
            ev["break_rails"] = 0
            ev["cue_rail"] = False
        return ev

    def a_scratch(self):
        s = self.m.s
        balls = self._balls(2) if self.kp and self.r(2) else []
        ev = self._scratch_ev(s, balls)
        if self.kp:
            self.expect("scratch", [ev], lambda: (self._enter(balls),
                                                  self.press(["0", "CBA"[self.r(3)]])))
        else:
            self.expect("scratch", [ev], lambda: self.press(["FOUL"], "long"))

    def a_A6(self):
        s = self.m.s
        balls = self._balls(2) if self.r(2) else []
        ev = _base(s, legal_first(s, balls))
        ev["pots"] = balls + [0]
        ev["break_rails"] = 0
        ev["cue_rail"] = False
        zero = ["0"] if self.r(2) else []   # "#C" enters the cue ball itself
        self.expect("A6", [ev], lambda: (self._enter(balls), self.press(zero + ["#", "C"])))

    def a_hit(self):
        s = self.m.s
        if s["breaking"]:
            return self.a_made()
        pool = list(s["table"]) if s["table"] is not None else list(range(1, 16))
        h = pool[self.r(len(pool))]
        balls = [b for b in self._balls(2) if b != h]
        end = "AB"[self.r(2)]
        if end == "A":
            ev = self._made_ev(s, balls, h)
            keys = self._a10(s, ev, [])
        else:
            ev = _base(s, h)
            if balls:
                ev["pots"] = balls
            keys = []
        self.expect("hit", [ev], lambda: (self.press(_ball_keys(h) + ["#", "A"]),
                                          self._enter(balls), self.press([end] + keys)))

    def a_clear(self):
        balls = self._balls(3)
        if not balls:
            return self.a_miss()
        self.expect("clear", [], lambda: (self._enter(balls), self.press(["D"])))
        if self.c.entry:
            raise Mismatch("D left the entry %r" % (self.c.entry,))

    def a_off(self):
        s = self.m.s
        balls = self._balls(2, True) if self.kp and self.r(2) else []
        ev = _base(s, legal_first(s, balls))
        ev["off"] = balls or [0]
        self.expect("off", [ev], lambda: (self._enter(balls), self._menu("off")))

    def a_called(self):
        s = self.m.s
        rule = rules.CALLED_FOULS[self.r(len(rules.CALLED_FOULS))]
        balls = self._balls(2) if self.kp and self.r(2) else []
        if rule == "G5.2":      # a scratch: the cue ball pocketed (S7, A7, N4)
            ev = self._scratch_ev(s, balls)
        elif rule == "G5.3":    # off the table: the balls entered, else the cue ball
            ev = _base(s, legal_first(s, balls))
            ev["off"] = balls or [0]
        else:
            ev = _base(s, legal_first(s, balls))
            if balls:
                ev["pots"] = balls
            if s["breaking"]:
                ev["break_rails"] = 0
                ev["cue_rail"] = False
            ev["foul"] = rule
        row = {"G5.4": "touch", "G5.11": "double"}.get(rule) if self.r(2) else None
        self.expect("called", [ev], lambda: (self._enter(balls),
                                             self._menu(row or "called_foul",
                                                        None if row else rule)))

    def push(self):
        balls = self._balls(2) if self.kp and self.r(2) else []
        ev = {"t": "shot", "call": "push", "first": None, "rail": False}
        if balls:
            ev["pots"] = balls
        self.expect("push", [ev], lambda: (self._enter(balls), self._menu("push")))

    def a_won(self):
        s = self.m.s
        if s["game"] == "14.1":
            return self.a_made()
        who = s["shooter"] if self.kp else self.r(2)
        money = {"9ball": 9, "10ball": 10}.get(s["game"])
        rack = s["rack"]

        def evs(t, i):
            # the shot events of "who made the winning ball" (README), one at a time until the
            # rack is won: nothing else credited
            if i >= 3 or t["rack"] != rack or t["winner"] is not None:
                return None
            if t["breaking"]:   # the 9 (10) on the break, or a dry break by the other
                ev = {"t": "shot", "first": 1, "break_rails": 4, "rail": True}
                if t["shooter"] == who:
                    ev["pots"] = [money]
                return ev
            if t["shooter"] != who:     # the shooter missed
                return {"t": "shot", "first": legal_first(t, []), "rail": True}
            if money == 9:
                return {"t": "shot", "first": t["table"][0], "pots": [9], "rail": True}
            if money:       # T2: the 10 called and made
                return {"t": "shot", "first": t["table"][0], "pots": [10], "rail": True,
                        "call": 10, "made": True}
            return {"t": "shot", "first": 8, "pots": [8], "call": 8, "made": True, "rail": True}

        mine = not money and (s["groups"] is None or
                             [b for b in s["table"] if rules.group_of(b) == s["groups"][who]])
        if mine:    # 8-ball: the group is not down: refused (E11), nothing sent
            def none(t, i):
                return None
            self.expect("won_refused", none, lambda: self._won_keys(who))
            if self.c.msg is None or self.c.msg[:3] != ["refused", "E11", "group_left"]:
                raise Mismatch("won rack with the group up: %r" % (self.c.msg,))
            if self.c.mode == "menu":       # the refusal leaves the menu up: back to play
                self.expect("back", [], lambda: self.press(["D" if self.kp else "UNDO"]))
            return
        self.expect("won", evs, lambda: self._won_keys(who))

    def _won_keys(self, who):
        if self.kp:
            return self._menu("won_rack")
        self.press([self._own(who)], "long")


def run(game, inp, streams, actions, seed, every=0):
    """Play `streams` random streams of up to `actions` actions; return the counts. A
    generator when every > 0 (yields every `every` actions: the MicroPython runner's steps)."""
    out = {"streams": 0, "events": 0, "actions": 0, "kinds": {}, "seen": {}}
    for _ in _run(game, inp, streams, actions, seed, out, every):
        pass
    return out


def _run(game, inp, streams, actions, seed, out, every):
    n = 0
    for i in range(streams):
        st = Stream(game, inp, seed * 100003 + i)
        st.start()
        for _ in range(actions):
            st.step()
            n += 1
            if every and n % every == 0:
                yield
        out["streams"] += 1
        out["events"] += st.events
        out["actions"] += sum(st.kinds.values())
        k = out["kinds"]
        for name in st.kinds:
            k[name] = k.get(name, 0) + st.kinds[name]
        out["seen"].update(st.seen)
    yield
