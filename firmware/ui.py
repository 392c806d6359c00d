# Controller: key events -> match events and the screen model (docs/ui-contract.md); pure, no I/O.
from firmware import rules, unload
from firmware.match import Match

BUTTONS = ("P1", "P2", "FOUL", "UNDO", "MISS", "OK")
_LABEL_MENU_BUTTONS = (("P1", "down"), ("P2", "next"), ("FOUL", "ok"), ("UNDO", "back"))
_LABEL_MENU_KEYS = (("2", "up"), ("8", "down"), ("6", "next"), ("5", "ok"), ("D", "back"))


class Controller:
    def __init__(self, layout="keypad", lang="en", game="14.1", store=None):
        self.layout = layout
        self.lang = lang
        self.store = store  # firmware.store.Store: the match goes to its journal (or None: RAM)
        self.match = Match()
        self.version = 0
        self.mode = "setup"
        self.entry = []
        self.hit = None        # the ball the referee said was hit first ("#A"), or None
        self.shift = False
        self.msg = None
        self.fault = None
        self.cursor = 0
        self.confirm = None
        self.ask = None        # type: list | None  # A10 question: [shot event, cue_in, ball_in]
        # Actions that sent more than one event, so that one undo takes each back whole: for
        # each, the log's length after it and its event count (flat pairs: [len, n, len, n...]).
        # Not kept over a restart (restore, resume): then each undo takes back one event.
        self.groups = []
        self.cfg = {"game": game, "p1": "P1", "p2": "P2", "t1": 100, "t2": 100, "r1": 5,
                    "r2": 5, "break": None, "three": True, "nine": "win"}

    # ------------------------------------------------------------ model

    def _items(self):
        m = self.mode
        if m == "setup":
            return _setup().items(self.cfg, self.lang)
        if m == "menu":
            s = self.match.s
            it = []
            if s and s["winner"] is None and s["shooter"] is not None:
                if s["push"]:
                    it.append(["push", "push", None])
                it += [["touch", "touch", "G5.4"], ["double", "double", "G5.11"],
                       ["off", "off", None], ["called_foul", "called_foul", self._called()]]
                if s["game"] != "14.1":
                    it.append(["won_rack", "won_rack", None])
            it += [["help", "help", None], ["lang", "lang", self.lang],
                   ["newmatch", "newmatch", "?" if self.confirm == "newmatch" else None],
                   ["back", "back", None]]
            return it
        if m == "help":
            return [[k, a, None] for k, a in self._play_keys()]
        if m == "rackq":   # the two answers (keys 1 / P1, 2 / P2), then ok with its C-S4 case
            a = self.ask
            case = rules._game("14.1").rack_case(self.match.s["left"] - len(a[0]["pots"]),
                                                 a[1], a[2])
            return [["cue_in_rack", "toggle", a[1]], ["ball_in_rack", "toggle", a[2]],
                    ["ok", "ok", case]]
        return []

    def _called(self):
        return rules.CALLED_FOULS[self.cfg.get("foul_i", 0) % len(rules.CALLED_FOULS)]

    def _play_keys(self):
        if self.layout == "buttons":
            return (("P1", "made"), ("P2", "made"), ("FOUL", "foul"), ("long:FOUL", "scratch"),
                    ("UNDO", "undo"), ("long:UNDO", "menu"), ("MISS", "miss"), ("OK", "safe"),
                    ("long:P1", "won_rack"))
        return (("A", "made"), ("B", "miss"), ("*", "safe"), ("C", "foul"), ("0", "scratch"),
                ("D", "undo"), ("#", "shift"), ("#A", "hit"), ("##", "menu"), ("#*", "help"))

    def _hints(self):
        m = self.mode
        s = self.match.s
        b = self.layout == "buttons"
        if m == "rackq":
            return [["P1" if b else "1", "cue_in_rack"], ["P2" if b else "2", "ball_in_rack"],
                    ["FOUL" if b else "A", "ok"], ["UNDO" if b else "D", "back"]]
        if m in ("setup", "menu", "help"):  # in setup the OK key starts the match
            return [[k, "start" if a == "ok" and m == "setup" else a]
                    for k, a in (_LABEL_MENU_BUTTONS if b else _LABEL_MENU_KEYS)]
        if m == "lag":
            return [["P1" if b else "1", "lag0"], ["P2" if b else "2", "lag1"]]
        if m == "choice":
            opts = rules.OPTIONS[s["pending"][1]]
            if b:
                who = "P1" if s["pending"][0] == 0 else "P2"
                return [[who, opts[self.cursor % len(opts)]], ["FOUL", "next"]]
            return [[str(i + 1), o] for i, o in enumerate(self._options())]
        if m == "over":
            return [["UNDO" if b else "D", "undo"], ["long:UNDO" if b else "##", "menu"]]
        if b:
            me = "P1" if s["shooter"] == 0 else "P2"
            other = "P2" if me == "P1" else "P1"
            return [[me, "made"], [other, "miss"], ["FOUL", "foul"], ["UNDO", "undo"]]
        return [["A", "made"], ["B", "miss"], ["C", "foul"],
                ["D", "clear" if self.entry or self.hit is not None else "undo"]]

    def _options(self):
        """Keypad choice options in order, with the named-breaker re-rack of A7 split out."""
        kind = self.match.s["pending"][1]
        opts = list(rules.OPTIONS[kind])
        if kind in ("E3", "E3s"):
            opts.append("rerack_other")
        return opts

    def model(self):
        s = self.match.s
        return {"mode": self.mode, "lang": self.lang, "s": s,
                "state": self.match.state(), "entry": list(self.entry), "hit": self.hit,
                "shift": self.shift,
                "msg": self.msg, "hints": self._hints(), "items": self._items(),
                "cursor": self.cursor, "fault": self.fault, "layout": self.layout}

    def restore(self, log):
        """Take over the log of a match (a soft restart) and show where it stands."""
        m = Match(log)
        m.rebuild()
        self.match = m
        self.groups = []
        self._after()
        self.version += 1

    def resume(self, events, check=True):
        """Rebuild the match from events read from outside (a file, a journal) and show it;
        check=False only for events known to be well-formed."""
        m = Match()
        for ev in events:
            m.apply(ev, check)
        self.match = m
        self.groups = []
        self._after()
        self.version += 1

    # ------------------------------------------------------------ keys

    def key(self, kind, name):
        """Handle one key event from the input layer. Never raises."""
        self.version += 1
        if kind in ("stuck", "chatter"):
            self.fault = [kind, name]
            return
        self.fault = None
        try:
            self._key(kind == "long", name)
        except (rules.Refused, ValueError) as e:
            self._refused(e)
        except OSError:  # the journal could not write: the event did not count
            self.msg = ["not_saved"]

    def _refused(self, e):
        if isinstance(e, rules.Refused):
            self.msg = ["refused", e.rule, e.key] + list(e.args_)
        else:
            self.msg = ["bad_key", str(e)]

    def _key(self, long, k):
        m = self.mode
        self.msg = None
        if m in ("setup", "menu", "help", "rackq"):
            return self._list_key(long, k)
        if m == "lag":
            if k in ("D", "UNDO"):         # back to the settings
                self._close()
                self.match = Match()
                self.groups = []
                self.mode = "setup"
                return
            i = {"1": 0, "2": 1, "P1": 0, "P2": 1}.get(k)
            if i is None:
                return self._bad(k)
            return self._send({"t": "lag", "breaker": i})
        if self.layout == "buttons":
            return self._button(long, k)
        return self._keypad(k)

    def _bad(self, k):
        self.msg = ["bad_key", k]

    def _after(self):
        """Pick the mode from the match after an accepted event."""
        s = self.match.s
        self.entry = []
        self.hit = None
        self.shift = False
        self.cursor = 0
        if s is None:
            self.mode = "setup"
        elif s["shooter"] is None and s["winner"] is None:
            self.mode = "lag"
        elif s["winner"] is not None:
            self.mode = "over"
        elif s["pending"]:
            self.mode = "choice"
        else:
            self.mode = "play"

    def _send(self, *evs):
        """Apply events as one step: all are accepted or none (a refusal undoes the rest).
        An item may be a function returning events, called when its turn comes, so that it
        sees the table as the events before it left it."""
        done = 0
        try:
            for ev in evs:
                for e in ev() if callable(ev) else (ev,):  # type: ignore
                    self.match.apply(e, False)  # well-formed by construction (tests/mash.py)
                    done += 1
        except rules.Refused as e:
            for _ in range(done):
                self.match.apply({"t": "undo"}, False)
            self._refused(e)
            return False
        if done > 1:
            self.groups += [len(self.match.log), done]
        self._after()
        return True

    def _undo(self):
        """Take back the last user action: the events it sent (DESIGN.md undo events, each
        taking back one accepted event), or one event where that is not known."""
        g = self.groups
        n = len(self.match.log)
        k = g[-1] if g and g[-2] == n else 1
        what = "won_rack" if k > 1 else _what(self.match.log, n - 1)  # (groups: a rack won)
        done = 0
        try:
            while done < k:
                self.match.apply({"t": "undo"}, False)
                done += 1
        except rules.Refused as e:
            self._refused(e)
        if done:
            if k > 1:
                del g[-2:]
            self._after()
            self.msg = ["undone_x", what] if what else ["undone"]

    # ------------------------------------------------------------ play: keypad

    def _keypad(self, k):
        s = self.match.s
        if self.mode == "choice":
            if k.isdigit() and 1 <= int(k) <= len(self._options()):
                return self._choose(self._options()[int(k) - 1])
            if k == "D":
                return self._undo()
            return self._bad(k)
        if k == "#":                        # shift; a second # opens the menu
            if self.shift:
                self.shift = False
                return self._open_menu()
            self.shift = True
            return
        if self.mode == "over":
            if k == "D":
                return self._undo()
            return self._bad(k)
        if k == "*" and self.shift:
            self.shift = False
            self.mode = "help"
            self.cursor = 0
            return
        if k == "A" and self.shift:         # "#A": the last ball entered was hit first
            self.shift = False
            objs = self._objs()
            if not objs:
                return self._bad("#A")
            self.hit = objs[-1]
            self.entry.remove(self.hit)
            return
        if k.isdigit():
            b = int(k) + (10 if self.shift else 0)
            self.shift = False
            full = 9 if s["game"] == "9ball" else 15
            if b > full:
                return self._bad("#" + k)
            if b in self.entry:
                self.entry.remove(b)
                return
            if b:
                rules._on(s, b)  # a ball already pocketed is refused as it is keyed (E1, N1)
            if len(self.entry) >= full + 1:
                self.msg = ["entry_full"]
            else:
                self.entry.append(b)
            return
        self.shift = False
        if k == "A":
            return self._made()
        if k == "B":
            return self._shot_miss()
        if k == "*":
            return self._shot_safe()
        if k == "C":
            return self._shot_foul(None)
        if k == "D":
            if self.entry or self.hit is not None:
                self.entry = []
                self.hit = None
                return
            return self._undo()
        return self._bad(k)

    # ------------------------------------------------------------ play: buttons

    def _button(self, long, k):
        s = self.match.s
        if k not in BUTTONS:
            return self._bad(k)
        if k == "UNDO":
            return self._open_menu() if long else self._undo()
        if self.mode == "over":
            return self._bad(k)
        if self.mode == "choice":
            by = s["pending"][0]
            opts = rules.OPTIONS[s["pending"][1]]
            if k == "FOUL":
                self.cursor = (self.cursor + 1) % len(opts)
                return
            if k in ("P1", "P2"):
                if (0 if k == "P1" else 1) != by:
                    self.msg = ["not_yours", by]
                    return
                return self._choose(opts[self.cursor % len(opts)])
            return self._bad(k)
        me = s["shooter"]
        if k == "FOUL":
            if long:
                self.entry = [0]
            return self._shot_foul(None)
        if k == "MISS":
            return self._shot_miss()
        if k == "OK":
            return self._shot_safe()
        who = 0 if k == "P1" else 1
        if long:
            return self._won_rack(who)
        if who == me:
            return self._made()
        return self._shot_miss()

    # ------------------------------------------------------------ shots

    def _objs(self):
        return [b for b in self.entry if b]

    def _legal_first(self):
        """The ball the shot hits first: the one the referee named ("#A"), else a legal one:
        the first entered ball the shooter may hit, else the lowest such ball on the table."""
        if self.hit is not None:
            return self.hit
        s = self.match.s
        t = s["table"]
        objs = self._objs()
        if s["game"] == "9ball" or s["breaking"] and t:
            return t[0]
        if s["game"] == "14.1":
            return objs[0] if objs else 1
        ok = self._may_hit()
        for b in objs:              # C-E2: a ball of the other group entered is only pocketed
            if b in ok:
                return b
        return ok[0]

    def _may_hit(self):
        # 8-ball: the balls the shooter may hit first (C-E1, E7; the 8 once the group is down).
        s = self.match.s
        t = s["table"]
        g = s["groups"]
        ok = [b for b in t if b != 8 and (g is None or rules.group_of(b) == g[s["shooter"]])]
        return ok or [8]

    def _wrong(self, b):
        s = self.match.s
        if s["game"] == "14.1":
            return False
        return b != s["table"][0] if s["game"] == "9ball" else b not in self._may_hit()

    def _base(self):
        s = self.match.s
        ev = {"t": "shot", "first": self._legal_first(), "rail": True}
        if s["breaking"]:
            ev["break_rails"] = 4
            ev["cue_rail"] = True
        return ev

    def _made(self):
        s = self.match.s
        ev = self._base()
        objs = self._objs()
        if not objs:
            objs = [ev["first"]]
        if 0 in self.entry:
            return self._shot_foul(None)
        ev["pots"] = objs
        if s["game"] == "14.1" or s["game"] == "8ball" and not s["breaking"]:
            # S2, E8: the called ball went in (A8): the shooter's ball hit first, if it went in
            ev["call"] = ev["first"] if ev["first"] in objs else objs[0]
            ev["made"] = True
        if s["game"] == "14.1" and not s["breaking"] and s["left"] - len(objs) <= 1 \
                and s["p"][s["shooter"]][rules.SCORE] + len(objs) < s["target"][s["shooter"]]:
            self.ask = [ev, False, False]     # A10: where are the cue ball and the 15th ball?
            self.mode = "rackq"
            self.cursor = 0
            return
        self._send(ev)

    def _shot_miss(self):
        ev = self._base()
        if self._objs():
            ev["pots"] = self._objs()       # pocketed, but not as called (A8)
        if 0 in self.entry:
            return self._shot_foul(None)
        self._send(ev)

    def _shot_safe(self):
        s = self.match.s
        if s["breaking"]:
            return self._shot_miss()
        ev = self._base()
        ev["call"] = "safety"
        if self._objs():
            ev["pots"] = self._objs()
        self._send(ev)

    def _shot_foul(self, rule):
        """A foul: a scratch when the cue ball is entered, else the referee's rule, else a
        bad hit (no legal first contact, G3); on a break, a bad break (14.1: C alone)."""
        s = self.match.s
        ev = self._base()
        ev["pots"] = list(self.entry)
        if s["breaking"] and not (s["game"] == "14.1" and 0 in self.entry and not rule):
            # a bad break; in 14.1 a scratch (0 entered) is one on a legal break instead: a
            # foul, -1, ball in hand in the kitchen, the table as it lies (S4, C-S2)
            ev["break_rails"] = 0
            ev["cue_rail"] = False
            if 0 not in self.entry and not rule and not self._objs():
                ev["rail"] = False
        if rule:
            ev["foul"] = rule
        elif 0 not in self.entry and not s["breaking"]:
            # no legal first contact (G3), or the wrong ball named with "#A" (E7, C-E1, N5)
            h = self.hit
            ev["first"] = h if h is not None and self._wrong(h) else None
        self._send(ev)

    def _push(self):
        ev = {"t": "shot", "call": "push", "first": None, "rail": False}
        if self.entry:
            ev["pots"] = list(self.entry)
        self._send(ev)

    def _off(self):
        objs = self._objs()
        ev = self._base()
        ev["off"] = objs or [0]
        self._send(ev)

    def _won_rack(self, who):
        """Long press of a player's button (8/9-ball): that player made the winning ball."""
        s = self.match.s
        if s["game"] == "14.1" or s["pending"] or s["winner"] is not None or who is None:
            return self._bad("long")
        evs = []
        if s["breaking"]:      # a break that leaves the table to who
            evs.append({"t": "shot", "first": 1, "pots": [1] if s["shooter"] == who else [],
                        "break_rails": 4, "rail": True})
        elif s["shooter"] != who:
            evs.append({"t": "shot", "first": self._legal_first(), "rail": True})
        if s["game"] == "9ball":     # the 9 in, off the lowest ball then on the table (N2)
            evs.append(lambda: ({"t": "shot", "first": self.match.s["table"][0], "pots": [9],
                                 "rail": True},))
        else:                        # the rest of the group, then the 8 called (E11)
            evs.append(lambda: self._clear_group(who) + [
                {"t": "shot", "first": 8, "pots": [8], "call": 8, "made": True,
                 "rail": True}])
        self._send(*evs)

    def _clear_group(self, who):
        s = self.match.s
        t = s["table"]
        g = s["groups"]
        if g is None:
            mine = [b for b in t if b < 8] or [b for b in t if b > 8]
        else:
            mine = [b for b in t if rules.group_of(b) == g[who]]
        if not mine:
            return []
        return [{"t": "shot", "first": mine[0], "pots": mine, "call": mine[0], "made": True,
                 "rail": True}]

    # ------------------------------------------------------------ choices

    def _choose(self, opt):
        s = self.match.s
        ev = {"t": "choose", "option": opt, "by": s["pending"][0]}
        if opt == "rerack_other":
            ev["option"] = "rerack"
            ev["breaker"] = 1 - s["pending"][0]
        self._send(ev)

    # ------------------------------------------------------------ lists: setup, menu, help

    def _open_menu(self):
        self.mode = "menu"
        self.cursor = 0
        self.confirm = None

    def _list_key(self, long, k):
        items = self._items()
        n = len(items)
        b = self.layout == "buttons"
        if self.mode == "rackq" and k in ("1", "2", "P1", "P2"):
            self._change(items[0 if k in ("1", "P1") else 1], 1)   # A10: toggle one answer
        elif self.mode == "rackq" and k in ("A", "5", "#", "FOUL", "OK"):
            self._ok(items[2])                                      # send the shot
        elif (k == "2" and not b):
            self.cursor = (self.cursor - 1) % n
        elif (k == "8" and not b) or (k == "P1" and b):
            self.cursor = (self.cursor + 1) % n
        elif (k in ("4", "6") and not b) or (k == "P2" and b):
            self._change(items[self.cursor], -1 if k == "4" else 1)
        elif (k in ("5", "#", "A") and not b) or (k in ("FOUL", "OK") and b):
            self._ok(items[self.cursor])
        elif (k == "D" and not b) or (k == "UNDO" and b):
            self._back()
        else:
            self._bad(k)

    def _back(self):
        if self.mode == "setup":
            return
        if self.mode == "rackq":
            self.ask = None
        self._after()

    def _change(self, item, d):
        key, act = item[0], item[1]
        c = self.cfg
        if self.mode == "rackq":
            if act == "toggle":
                i = 1 if key == "cue_in_rack" else 2
                self.ask[i] = not self.ask[i]
            return
        if act == "called_foul":
            c["foul_i"] = c.get("foul_i", 0) + d
            return
        if key == "lang" or act == "lang":
            self.lang = "tr" if self.lang == "en" else "en"
            return
        if act == "set":
            _setup().change(c, key, d)

    def _ok(self, item):
        act = item[1]
        if self.mode == "help":             # the help list only shows the keys
            return self._back()
        if self.mode == "rackq":
            if act == "ok":
                ev, cue_in, ball_in = self.ask or ({}, False, False)
                self.ask = None
                self.mode = "play"
                if cue_in:
                    ev["cue_in_rack"] = True
                if ball_in:
                    ev["ball_in_rack"] = True
                self._send(ev)
            else:
                self._change(item, 1)
            return
        if act == "start" or self.mode == "setup":  # 5 / FOUL start from any row
            return self._start()
        if act in ("set", "lang"):
            return self._change(item, 1)
        if act == "back":
            return self._back()
        if act == "help":
            self.mode = "help"
            self.cursor = 0
            return
        if act == "newmatch":
            if self.confirm != "newmatch":
                self.confirm = "newmatch"
                return
            v = self.version
            cfg = self.cfg
            self._close()
            self.__init__(self.layout, self.lang, cfg["game"], self.store)
            self.cfg = cfg
            self.version = v
            return
        if act == "push":
            return self._push()
        if act in ("touch", "double", "called_foul"):
            return self._shot_foul(item[2])
        if act == "off":
            return self._off()
        if act == "won_rack":
            return self._won_rack(self.match.s["shooter"])

    def _start(self):
        ev = _setup().new_event(self.cfg)
        st = self.store
        self.match = Match(None if st is None else st.fresh())
        self.groups = []
        if self._send(ev):
            self.msg = ["started"]
            unload("setup")  # its code is not needed until the next new match
            if st is not None:
                c = dict(self.cfg)
                c["lang"] = self.lang
                st.save_settings(c)

    def _close(self):
        # Let go of the match's journal file (a new match or the settings screen comes).
        self.match.log.close()


def _what(log, i):
    # The action label of accepted event i (what an undo takes back), or None if it is on
    # flash only (a journal holds the events after its latest snapshot in RAM).
    try:
        ev = log.event(i)
    except IndexError:
        return None
    t = ev["t"]
    if t == "lag":
        return "lag_n"
    if t == "choose":
        return ev["option"]
    if t != "shot":
        return None
    pots = ev.get("pots") or []
    if ev.get("call") == "push":
        return "push"
    if ev.get("foul") or ev.get("first") is None or 0 in pots or ev.get("off"):
        return "foul"
    if ev.get("call") == "safety":
        return "safe"
    return "made" if ev.get("made") or pots and ev.get("call") is None else "miss"


def _setup():
    # The new-match screen's fields and event (firmware/setup.py), loaded only while it is up.
    from firmware import setup

    return setup
