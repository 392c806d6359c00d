# Controller: key events -> match events and the screen model (docs/ui-contract.md); pure, no I/O.
# Each screen mode is a small handler (below the Controller) with its keys, list rows and hints;
# the Controller keeps the state they share and builds the events of shots and choices.
from firmware import rules
from firmware.match import Match
from firmware.mem import unload


class Controller:
    def __init__(self, layout="keypad", lang="en", game="14.1", store=None):
        self.layout = layout
        self.lang = lang
        self.store = store  # firmware.store.Store: the match goes to its journal (or None: RAM)
        self.match = Match()
        self.version = 0
        self.mode = "setup"    # the name of the screen mode; _MODES[mode] handles its keys
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
        self.wall = False      # a wall panel is wired: the menus set its brightness (cfg)
        self.four = False      # buttons: only P1, P2, FOUL and UNDO are wired (no MISS, OK)
        self.cfg = {"game": game, "p1": "P1", "p2": "P2", "t1": 100, "t2": 100, "r1": 5,
                    "r2": 5, "break": None, "three": True, "nine": "win", "bright": None}

    # ------------------------------------------------------------ model

    def model(self):
        s = self.match.s
        h = _MODES[self.mode]
        return {"mode": self.mode, "lang": self.lang, "s": s,
                "state": self.match.state(), "entry": list(self.entry), "hit": self.hit,
                "shift": self.shift,
                "msg": self.msg, "hints": h.hints(self), "items": h.items(self),
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
        self.msg = None
        try:
            _MODES[self.mode].key(self, kind == "long", name)
        except (rules.Refused, ValueError) as e:
            self._refused(e)
        except OSError:  # the journal could not write: the event did not count
            self.msg = ["not_saved"]

    def _refused(self, e):
        if isinstance(e, rules.Refused):
            self.msg = ["refused", e.rule, e.key] + list(e.args_)
        else:
            self.msg = ["bad_key", str(e)]

    def _bad(self, k):
        self.msg = ["bad_key", k]

    def _go(self, mode):
        self.mode = mode
        self.cursor = 0

    def _after(self):
        """Pick the mode from the match after an accepted event."""
        s = self.match.s
        self.entry.clear()  # (an event got a copy of what it needed)
        self.hit = None
        self.shift = False
        if s is None:
            m = "setup"
        elif s["shooter"] is None and s["winner"] is None:
            m = "lag"
        elif s["winner"] is not None:
            m = "over"
        elif s["pending"]:
            m = "choice"
        else:
            m = "play"
        self._go(m)

    def _send(self, ev):
        """Apply one event and show the match after it; False if it was refused."""
        try:
            self.match.apply(ev, False)  # well-formed by construction (tests/mash.py)
        except rules.Refused as e:
            self._refused(e)
            return False
        self._after()
        return True

    def _send_all(self, *evs):
        """Apply events as one step: all are accepted or none (Match.apply_all: journaled as
        one action, resumed whole or not at all). An item may be a function returning events,
        called when its turn comes, so that it sees the table as the events before it left
        it."""
        try:
            self.match.apply_all(evs)
        except rules.Refused as e:
            self._refused(e)
            return False
        self._after()
        return True

    def _undo(self):
        """Take back the last user action: the events it sent (DESIGN.md undo events, each
        taking back one accepted event), as one step (Match.undo_action)."""
        n = len(self.match.log)
        k = self.match.log.action()
        what = "won_rack" if k > 1 else _what(self.match, n - 1)  # (groups: a rack won)
        try:
            self.match.undo_action()
        except rules.Refused as e:
            self._refused(e)
            return
        self._after()
        self.msg = ["undone_x", what] if what else ["undone"]

    # ------------------------------------------------------------ shots

    def _objs(self):
        # The object balls entered, as a new list (the entry is cleared after each event).
        return [b for b in self.entry if b]

    def _legal_first(self):
        """The ball the shot hits first: the one the referee named ("#A"), else a legal one:
        the first entered ball the shooter may hit, else the lowest such ball on the table."""
        if self.hit is not None:
            return self.hit
        s = self.match.s
        t = s["table"]
        if s["game"] == "9ball" or s["breaking"] and t:
            return t[0]
        if s["game"] == "14.1":
            for b in self.entry:    # the first object ball entered
                if b:
                    return b
            return 1
        ok = self._may_hit()
        for b in self.entry:        # C-E2: a ball of the other group entered is only pocketed
            if b in ok:             # (never the cue ball: ok holds object balls)
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
        if 0 in self.entry:
            return self._shot_foul(None)
        if s["groups"] is None and s["game"] == "8ball" and not s["breaking"] \
                and not self._objs() and self.hit is None:
            return self._go("groupq")  # E6: the ball made decides the groups: which was it?
        ev = self._base()
        objs = self._objs() if self.entry else [ev["first"]]
        ev["pots"] = objs
        if s["game"] == "14.1" or s["game"] == "8ball" and not s["breaking"]:
            # S2, E8: the called ball went in (A8): the shooter's ball hit first, if it went in
            ev["call"] = ev["first"] if ev["first"] in objs else objs[0]
            ev["made"] = True
        if s["game"] == "14.1" and not s["breaking"] and s["left"] - len(objs) <= 1 \
                and s["p"][s["shooter"]][rules.SCORE] + len(objs) < s["target"][s["shooter"]]:
            self.ask = [ev, False, False]     # A10: where are the cue ball and the 15th ball?
            self._go("rackq")
            return
        self._send(ev)

    def _shot_miss(self):
        if 0 in self.entry:
            return self._shot_foul(None)
        ev = self._base()
        if self.entry:
            ev["pots"] = self._objs()       # pocketed, but not as called (A8)
        self._send(ev)

    def _shot_safe(self):
        s = self.match.s
        if s["breaking"]:
            return self._shot_miss()
        ev = self._base()
        ev["call"] = "safety"
        objs = self._objs() if self.entry else None
        if objs:
            ev["pots"] = objs
        self._send(ev)

    def _shot_foul(self, rule, viol=False):
        """A foul: a scratch when the cue ball is entered, else the referee's rule, else a
        bad hit (no legal first contact, G3); on a break, a bad break (14.1: C alone, or viol:
        a breaking violation with the balls entered, the cue ball among them, A6)."""
        s = self.match.s
        ev = self._base()
        if self.entry:
            ev["pots"] = list(self.entry)
        if s["breaking"] and not (s["game"] == "14.1" and 0 in self.entry and not rule
                                  and not viol):
            # a bad break; in 14.1 a scratch (0 entered) is one on a legal break instead: a
            # foul, -1, ball in hand in the kitchen, the table as it lies (S4, C-S2)
            ev["break_rails"] = 0
            ev["cue_rail"] = False
            if not self.entry and not rule:
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
        # the balls entered left the table (0: the cue ball, S9, N10); none entered: the cue ball
        ev = self._base()
        ev["off"] = list(self.entry) or [0]
        self._send(ev)

    def _won_rack(self, who):
        """Long press of a player's button (8/9-ball): that player made the winning ball, and
        nothing else is credited: 8-ball only with who's group down (E11; an open table or
        balls of the group left are refused: no ball is pocketed that was not shot)."""
        s = self.match.s
        if s["game"] == "14.1" or s["pending"] or s["winner"] is not None or who is None:
            return self._bad("long")
        g = s["groups"]
        nine = s["game"] == "9ball"
        if not nine and (g is None or [b for b in s["table"] if rules.group_of(b) == g[who]]):
            raise rules.Refused("E11", "group_left", s["names"][who])
        evs = []
        if s["breaking"]:      # (9-ball) the 9 on the break, or a legal dry break by the other
            b = {"t": "shot", "first": 1, "break_rails": 4, "rail": True}
            if s["shooter"] == who:
                b["pots"] = [9]
            evs.append(b)
        elif s["shooter"] != who:   # the shooter missed; who came to the table
            evs.append({"t": "shot", "first": self._legal_first(), "rail": True})
        if nine:
            s0 = s["rack"]

            def win():  # the 9 in, off the lowest ball (N2), unless the break won the rack
                t = self.match.s
                if t["rack"] != s0 or t["winner"] is not None:
                    return ()
                return ({"t": "shot", "first": t["table"][0], "pots": [9], "rail": True},)
            evs.append(win)
        else:        # the 8 called and made (E11)
            evs.append({"t": "shot", "first": 8, "pots": [8], "call": 8, "made": True,
                        "rail": True})
        self._send_all(*evs)

    # ------------------------------------------------------------ choices

    def _choose(self, opt):
        s = self.match.s
        ev = {"t": "choose", "option": opt, "by": s["pending"][0]}
        if opt == "rerack_other":
            ev["option"] = "rerack"
            ev["breaker"] = 1 - s["pending"][0]
        self._send(ev)

    def _options(self):
        """Keypad choice options in order, with the named-breaker re-rack of A7 split out."""
        kind = self.match.s["pending"][1]
        opts = list(rules.OPTIONS[kind])
        if kind in ("E3", "E3s"):
            opts.append("rerack_other")
        return opts

    # ------------------------------------------------------------ match: start, new, close

    def _start(self, keep=None):
        # keep: the fewest archived matches pruning keeps (None: the store's rule, asking first
        # in mode "full" if the flash is short of room; 1: the referee said delete; 0: keep all).
        ev = _setup().new_event(self.cfg, self.lang)
        st = self.store
        if st is not None and keep is None and st.full():
            return self._go("full")
        c = dict(self.cfg)
        c["lang"] = self.lang
        # (the store archives, makes the journal and saves the settings a step a pass)
        self.match = Match(None if st is None else st.start(c, keep))
        self.groups = []
        if self._send(ev):
            moved = st and st.moved
            self.msg = ["moved", moved] if moved else ["started"]
            _setup().remember(st, ev["players"])
            unload("setup")  # its code is not needed until the next new match

    def _save_settings(self):
        # The settings (and the language) to settings.json, where there is a store; a flash
        # that won't take them says so (what was played is saved, in the journal).
        if self.store is not None:
            c = dict(self.cfg)
            c["lang"] = self.lang
            self.store.cfg = c  # (what Start's step saves, if it is still to come)
            if not self.store.save_settings(c):
                self.msg = ["cfg_not_saved"]

    def _new_match(self):
        # Back to the new-match screen with the same settings (the menu's "New match", confirmed).
        v = self.version
        cfg = self.cfg
        w = self.wall
        f = self.four
        self._close()
        self.__init__(self.layout, self.lang, cfg["game"], self.store)
        self.cfg = cfg
        self.version = v
        self.wall = w
        self.four = f
        if self.store is not None:
            self.store.look()  # the room left, measured while the new-match screen is up

    def _close(self):
        # Let go of the match's journal file (a new match or the settings screen comes).
        self.match.log.close()

    def _open_menu(self):
        self._go("menu")
        self.confirm = None

    def _other_lang(self):
        self.lang = "tr" if self.lang == "en" else "en"
        self._save_settings()

    def _bright(self, d):
        # The wall panel's brightness one step up or down (1-15), kept in the settings at once.
        c = self.cfg
        c["bright"] = ((c["bright"] or 8) - 1 + d) % 15 + 1
        self._save_settings()

    def _bright_row(self, it):
        if self.wall:
            it.insert(-1, ["bright", "set", self.cfg["bright"]])  # (before start / back)
        return it

    def _called(self):
        return rules.CALLED_FOULS[self.cfg.get("foul_i", 0) % len(rules.CALLED_FOULS)]


# ---------------------------------------------------------------- screen modes
# One handler per screen mode (Controller.mode names it): key(c, long, k) does what key k does
# there, items(c) is the list it shows, hints(c) what the keys do now ([key, action] pairs).

class _Mode:
    def key(self, c, long, k):
        c._bad(k)

    def items(self, c):
        return []

    def hints(self, c):
        return []


class _Lag(_Mode):
    def hints(self, c):
        b = c.layout == "buttons"
        return [["P1" if b else "1", "lag0"], ["P2" if b else "2", "lag1"]]

    def key(self, c, long, k):
        if k in ("D", "UNDO"):         # back to the settings
            c._close()
            c.match = Match()
            c.groups = []
            return c._go("setup")
        i = {"1": 0, "2": 1, "P1": 0, "P2": 1}.get(k)
        if i is None:
            return c._bad(k)
        c._send({"t": "lag", "breaker": i})


def _shift(c):
    # "#" on the keypad: shift for the next key; a second "#" opens the menu.
    if c.shift:
        c.shift = False
        return c._open_menu()
    c.shift = True


def _undo_key(c, long):
    # UNDO on the buttons: pressed, takes back the last action; held down, opens the menu.
    if long:
        return c._open_menu()
    c._undo()


class _Play(_Mode):
    def key(self, c, long, k):
        if c.layout == "buttons":
            return self._button(c, long, k)
        if k == "#":
            return _shift(c)
        sh = c.shift
        c.shift = False
        s = c.match.s
        if k.isdigit():              # a ball pocketed (0: the cue ball); keyed again: taken out
            b = int(k) + (10 if sh else 0)
            full = 9 if s["game"] == "9ball" else 15
            if b > full:
                return c._bad("#" + k)
            if b in c.entry:
                return c.entry.remove(b)
            if b:
                rules._on(s, b)  # a ball already pocketed is refused as it is keyed (E1, N1)
            if len(c.entry) > full:
                c.msg = ["entry_full"]
            else:
                c.entry.append(b)
        elif k == "*" and sh:
            c._go("help")
        elif k == "C" and sh:          # "#C", 14.1 break: a breaking violation and a scratch (A6)
            if s["game"] != "14.1" or not s["breaking"]:
                return c._bad("#C")
            if 0 not in c.entry:
                c.entry.append(0)
            c._shot_foul(None, True)
        elif k == "A" and sh:          # "#A": the last ball entered was hit first
            objs = c._objs()
            if not objs:
                return c._bad("#A")
            c.hit = objs[-1]
            c.entry.remove(c.hit)
        elif k == "A":
            c._made()
        elif k == "B":
            c._shot_miss()
        elif k == "*":
            c._shot_safe()
        elif k == "C":
            c._shot_foul(None)
        elif k != "D":
            c._bad(k)
        elif c.entry or c.hit is not None:
            c.entry = []
            c.hit = None
        else:
            c._undo()

    def _button(self, c, long, k):
        if k == "UNDO":
            return _undo_key(c, long)
        if k == "FOUL":
            if long:
                c.entry = [0]
            return c._shot_foul(None)
        if k == "MISS":
            return c._shot_miss()
        if k == "OK":
            return c._shot_safe()
        if k not in ("P1", "P2"):
            return c._bad(k)
        who = 0 if k == "P1" else 1
        if long:
            return c._won_rack(who)
        if who == c.match.s["shooter"]:
            return c._made()
        c._shot_miss()

    def hints(self, c):
        if c.layout == "buttons":
            me = "P1" if c.match.s["shooter"] == 0 else "P2"
            return [[me, "made"], ["P2" if me == "P1" else "P1", "miss"], ["FOUL", "foul"],
                    ["UNDO", "undo"]]
        b = c.match.s["breaking"]
        return [["A", "made"], ["B", "dry_break" if b else "miss"],
                ["C", "bad_break" if b else "foul"],
                ["D", "clear" if c.entry or c.hit is not None else "undo"]]


class _Choice(_Mode):
    def key(self, c, long, k):
        s = c.match.s
        if c.layout != "buttons":
            opts = c._options()
            if k.isdigit() and 1 <= int(k) <= len(opts):
                return c._choose(opts[int(k) - 1])
            if k == "D":
                return c._undo()
            return c._bad(k)
        by = s["pending"][0]
        opts = rules.OPTIONS[s["pending"][1]]
        if k == "UNDO":
            _undo_key(c, long)
        elif k == "FOUL":
            c.cursor = (c.cursor + 1) % len(opts)
        elif k not in ("P1", "P2"):
            c._bad(k)
        elif (0 if k == "P1" else 1) != by:
            c.msg = ["not_yours", by]
        else:
            c._choose(opts[c.cursor % len(opts)])

    def hints(self, c):
        s = c.match.s
        if c.layout == "buttons":
            opts = rules.OPTIONS[s["pending"][1]]
            return [["P1" if s["pending"][0] == 0 else "P2", opts[c.cursor % len(opts)]],
                    ["FOUL", "next"], ["UNDO", "undo"]]
        return [[str(i + 1), o] for i, o in enumerate(c._options())] + [["D", "undo"]]


class _Over(_Mode):
    # The match is won: only undo, and the menu (a new match, the language).
    def key(self, c, long, k):
        if c.layout == "buttons":
            if k == "UNDO":
                return _undo_key(c, long)
        elif k == "#":
            return _shift(c)
        elif k == "D":
            return c._undo()
        c.shift = False
        c._bad(k)

    def hints(self, c):
        b = c.layout == "buttons"
        return [["UNDO" if b else "D", "undo"], ["long:UNDO" if b else "##", "menu"]]


# The keys of a list screen on the keypad and on the buttons.
_LIST_KEYS = ("2", "8", "4", "6", "5", "#", "A", "D")
_LIST_BUTTONS = ("P1", "P2", "FOUL", "OK", "UNDO")


class _List(_Mode):
    # A list screen: keys move the cursor, change the row's value, confirm it, or go back.
    def key(self, c, long, k):
        b = c.layout == "buttons"
        if k not in (_LIST_BUTTONS if b else _LIST_KEYS):
            return c._bad(k)  # (before its rows are made)
        items = self.items(c)
        c.cursor %= len(items)  # (a list may have got shorter: the game changed)
        if k == "2":
            c.cursor = (c.cursor - 1) % len(items)
        elif k in ("8", "P1"):
            c.cursor = (c.cursor + 1) % len(items)
        elif k in ("4", "6", "P2"):
            self.change(c, items[c.cursor], -1 if k == "4" else 1)
        elif k in ("D", "UNDO"):
            self.back(c)
        else:  # 5, # or A (FOUL or OK)
            self.ok(c, items[c.cursor])

    def hints(self, c):
        b = c.layout == "buttons"
        return [["P2" if b else "4/6", "toggle"], ["FOUL" if b else "5", "ok"],
                ["UNDO" if b else "D", "back"], ["P1" if b else "2/8", "down" if b else "move"]]

    def change(self, c, item, d):
        pass

    def ok(self, c, item):
        self.back(c)

    def back(self, c):
        c._after()


class _Setup(_List):
    # The new-match screen: 4/6 (P2) change a setting, 5 (FOUL) starts from any row; nothing
    # to go back to. On a player's row * types a name (mode "name", firmware/setup.py).
    def key(self, c, long, k):
        if k == "*" and c.layout == "keypad" and self._player(c):
            return _setup().type_start(c, self._player(c))
        _List.key(self, c, long, k)

    def _player(self, c):
        it = self.items(c)
        f = it[c.cursor % len(it)][0]
        return f if f in ("player1", "player2") else None

    def items(self, c):
        return c._bright_row(_setup().items(c.cfg, c.lang))

    def hints(self, c):
        h = _List.hints(self, c)
        h[1][1] = "start"
        del h[2]
        if c.layout == "keypad" and self._player(c):
            h.insert(2, ["*", "type_name"])  # (before the move hint: it shows)
        return h

    def change(self, c, item, d):
        if item[0] == "lang":
            c._other_lang()
        elif item[0] == "bright":
            c._bright(d)
        else:
            c.msg = _setup().change(c.cfg, item[0], d, c.store)

    def ok(self, c, item):
        c._start()

    def back(self, c):
        c._bad("UNDO" if c.layout == "buttons" else "D")


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
        c._start(1 if item[1] == "full_delete" else 0)

    def back(self, c):
        c._go("setup")


class _Menu(_List):
    def items(self, c):
        s = c.match.s
        it = []
        if s and s["winner"] is None and s["shooter"] is not None:
            if s["game"] == "9ball":   # (refused but for the shot after the break: N7)
                it.append(["push", "push", None])
            it += [["touch", "touch", "G5.4"], ["double", "double", "G5.11"],
                   ["off", "off", None], ["called_foul", "called_foul", c._called()]]
            if s["game"] != "14.1":
                it.append(["won_rack", "won_rack", None])
        nm = "newmatch"
        if c.confirm:   # asked once: the row says which key confirms
            nm = "newmatch_q" + ("F" if c.layout == "buttons" else "5")
        return c._bright_row(it + [["help", "help", None], ["lang", "lang", c.lang],
                                   [nm, nm, None], ["back", "back", None]])

    def change(self, c, item, d):
        act = item[1]
        if act == "called_foul":
            c.cfg["foul_i"] = c.cfg.get("foul_i", 0) + d
        elif act == "lang":
            c._other_lang()
        elif item[0] == "bright":
            c._bright(d)

    def ok(self, c, item):
        act = item[1]
        if act == "lang":
            c._other_lang()
        elif act == "set":      # the brightness row: one step up
            c._bright(1)
        elif act == "back":
            c._after()
        elif act == "help":
            c._go("help")
        elif act == "newmatch":
            c.confirm = True
        elif act[:10] == "newmatch_q":
            c._new_match()
        elif act == "push":
            c._push()
        elif act == "off":
            c._off()
        elif act == "won_rack":
            c._won_rack(c.match.s["shooter"])
        elif item[2] == "G5.2":     # a scratch is the cue ball pocketed (S7, A7, N4)
            if 0 not in c.entry:
                c.entry.append(0)
            c._shot_foul(None)
        elif item[2] == "G5.3":     # a ball off the table: the balls entered, else the cue ball
            c._off()
        else:           # touch, double, the called foul: a foul by its rule
            c._shot_foul(item[2])


class _GroupQ(_List):
    # E6 on an open table: the group of the ball made (solids, stripes), as the shot's ball.
    def items(self, c):
        t = c.match.s["table"]
        return [[g, g, None] for g in ("solids", "stripes")
                if [b for b in t if rules.group_of(b) == g]]

    def key(self, c, long, k):
        if c.layout != "buttons":
            if k in ("1", "2") and int(k) <= len(self.items(c)):
                c.cursor = int(k) - 1
                return self.ok(c, None)
            return _List.key(self, c, long, k)
        if k == "UNDO":
            return self.back(c)
        n = len(self.items(c))
        if k == "FOUL":
            c.cursor = (c.cursor + 1) % n
        elif k == "OK" or k == ("P1" if c.match.s["shooter"] == 0 else "P2"):
            self.ok(c, None)
        else:
            c._bad(k)

    def hints(self, c):
        it = self.items(c)
        if c.layout == "buttons":
            return [["P1" if c.match.s["shooter"] == 0 else "P2", it[c.cursor % len(it)][0]],
                    ["FOUL", "next"], ["UNDO", "back"]]
        return [[str(i + 1), it[i][0]] for i in range(len(it))] + [["D", "back"]]

    def ok(self, c, item):          # the lowest ball of the group made, called and made (A8)
        g = self.items(c)[c.cursor % len(self.items(c))][0]
        c.entry = [[b for b in c.match.s["table"] if rules.group_of(b) == g][0]]
        c._made()


class _Help(_List):
    # What every key does now, for this layout, game and moment (the break, a choice, A10,
    # the calls no key makes); 5 or D (FOUL or UNDO) closes it.
    def items(self, c):
        s = c.match.s
        g = s and s["game"]
        brk = s and s["breaking"]
        if c.layout == "buttons":
            # the keys, then under a "Held down:" row what they do when held (the README's table)
            me = "P1" if s and s["shooter"] == 0 else "P2"
            it = [[me, "made"], ["P2" if me == "P1" else "P1", "miss"],
                  ["FOUL", "bad_break" if brk else "foul"], ["UNDO", "undo"]]
            if not c.four:
                it += [["MISS", "miss"], ["OK", "safe"]]
            it += [["held", "held"], ["FOUL", "scratch"], ["UNDO", "menu"]]
            if g != "14.1":
                it.append(["P1/P2", "won_rack"])
            it += [["FOUL", "next"], ["P1/P2", "h_choice"]]
        else:
            it = [["1-9", "balls_in"], ["#1-5", "ball10"], ["A", "made"],
                  ["B", "dry_break" if brk else "miss"], ["*", "safe"],
                  ["C", "bad_break" if brk else "foul"], ["0 C", "scratch"]]
            if brk and g == "14.1":
                it.append(["0 #C", "viol_scratch"])
            it += [["D", "undo"], ["#A", "hit"], ["##", "menu"], ["#*", "help"],
                   ["1-4", "h_choice"]]
            if g == "9ball":   # balls 1-9; the push out (N7)
                it[1] = ["##", "push"]
        if g == "14.1":
            it.append(["P1 P2" if c.layout == "buttons" else "1 2", "mode_rackq"])
        it += [["long:UNDO" if c.layout == "buttons" else "##", "h_g514"], ["G22", "h_g22"]]
        return [[k, a, None] for k, a in it]  # no value: a help row is a key and what it does

    def hints(self, c):
        return _List.hints(self, c)[2:]


class _RackQ(_List):
    # A10: where the cue ball and the 15th ball lie; 1 / 2 (P1 / P2) change them, A sends the
    # shot. The 15th ball's answer goes no, yes (in the rack area), kitchen (C-S4 d: with the
    # cue ball in the rack area, the cue ball goes on the head spot).
    def items(self, c):
        a = c.ask
        case = rules._game("14.1").rack_case(c.match.s["left"] - len(a[0]["pots"]), a[1],
                                             a[2] is True, a[2] == "kitchen")
        return [["cue_in_rack", "toggle", a[1]], ["ball_in_rack", "toggle", a[2]],
                ["ok", "ok", case]]

    def hints(self, c):
        b = c.layout == "buttons"
        return [["P1" if b else "1", "cue_in_rack"], ["P2" if b else "2", "ball_in_rack"],
                ["FOUL" if b else "A", "ok"], ["UNDO" if b else "D", "back"]]

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
        c._send(ev)

    def back(self, c):
        c.ask = None
        c._after()


_MODES = {"setup": _Setup(), "lag": _Lag(), "play": _Play(), "choice": _Choice(),
          "over": _Over(), "menu": _Menu(), "help": _Help(), "rackq": _RackQ(),
          "groupq": _GroupQ(), "name": _Name(), "full": _Full()}


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
    f = (m.s["note"] or {}).get("foul")
    if ev.get("call") == "push":
        return "push"
    if f:   # S4: a breaking violation (not a foul, C-S2); G5.2: a scratch
        return "bad_break" if f == "S4" else ("scratch" if f == "G5.2" else "foul")
    if ev.get("call") == "safety":
        return "safe"
    # a ball made: the called one (A8), or in 9-ball any ball on a legal shot (N6)
    return "made" if ev.get("made") or m.s["game"] == "9ball" and ev.get("pots") else "miss"


def _setup():
    # The new-match screen's fields and event (firmware/setup.py), loaded only while it is up.
    from firmware import setup

    return setup
