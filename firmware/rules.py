# Rules core: judges one event against RULES.md on a plain state dict (no I/O, no clock).

from firmware.mem import const, unload

# Fields of a player record s["p"][i] (a list, cheap to copy).
SCORE = const(0)
RACKS = const(1)
FOULS = const(2)
INNINGS = const(3)
RUN = const(4)
HIGH = const(5)
BALLS = const(6)

# Pending choices: kind -> options. The kind's first two letters are its rule.
OPTIONS = {
    "S4": ("accept", "rerack"),     # 14.1 breaking violation
    "S4k": ("accept", "rerack"),    # ... with a scratch: accept means BIH in the kitchen (A6)
    "E3": ("accept", "kitchen", "rerack"),   # 8-ball bad break (A7)
    "E3s": ("kitchen", "rerack"),   # 8-ball scratch on the break (A7)
    "E4": ("spot8", "rerack"),      # 8 on the break, breaker chooses
    "E4s": ("spot8", "rerack"),     # 8 on the break with a scratch, opponent chooses
    "N7": ("shoot", "pass"),        # after a legal push out
    "T5": ("shoot", "pass"),        # 10-ball: after a legal push out
    "T7": ("shoot", "pass"),        # 10-ball: balls pocketed, not as called
}
# Fouls a referee may call that the shot facts can't show.
CALLED_FOULS = ("G5.1", "G5.2", "G5.3", "G5.4", "G5.5", "G5.6", "G5.7", "G5.8", "G5.9",
                "G5.10", "G5.11", "G5.12", "G5.14", "G19", "G20", "E9")  # G5.14: an intentional foul
# K4, the shot clock run out, is a foul event too (a standard foul, judged as a called one),
# recorded by the clock rather than chosen from the referee's list: {"foul": "K4"} (C-K2).
# Shot facts a time foul (K4: no shot was taken) can't have.
_FACTS = ("first", "pots", "off", "rail", "break_rails", "cue_rail", "call", "made",
          "cue_in_rack", "ball_in_rack", "ball_in_kitchen")

class Refused(Exception):
    """An event not allowed now; the state is left as it was. key names the refusal's text
    (English in firmware/refusals.py, loaded only when one is printed; screens: firmware.lang)."""

    def __init__(self, rule, key, *args):
        super().__init__(rule, key, *args)
        self.rule = rule
        self.key = key
        self.args_ = args

    def __str__(self):
        from firmware.refusals import MESSAGES

        return self.rule + ": " + MESSAGES[self.key].format(*self.args_)


def new_state(ev):
    # type: (dict) -> dict
    """The state right after a new event (O1-O4, O6 settings, before the lag)."""
    g = ev["game"]
    n = _full(g)
    three = ev.get("three_foul")
    s = {
        "game": g, "names": list(ev["players"]),
        "target": list(ev.get("target") or (100, 100)), "race": list(ev.get("race") or (5, 5)),
        "brk": ev.get("break") or ("winner" if g == "9ball" else "alternate"),
        "three": three is None or three, "nine": ev.get("nine_on_break") or "win",
        "rack": 1, "shooter": None, "bih": "kitchen", "breaking": True, "push": False,
        "left": n, "table": None if g == "14.1" else list(range(1, n + 1)),
        "groups": None, "pending": None, "winner": None,
        "last": None,       # who took the last shot (A1)
        "breaker": None,    # who broke the current rack (E2 alternate)
        "p": [[0] * 7, [0] * 7],
        # match statistics per player (C-S5; 8/9-ball at match over): fouls, and racks won
        # from the own break without a shot by the other player (break and run); "clean":
        # the other player has not shot in this rack
        "tot": [[0, 0], [0, 0]], "clean": True,
        "note": None,       # what the last event did, for the views
    }
    if g == "10ball":
        s["ten"] = ev.get("ten_on_break") or "spot"    # O6
    if ev.get("clock") is not None:                    # O7: only a match with a shot clock
        from firmware.shotclock import profile

        s["clock"] = c = profile(ev["clock"])
        s["exts"] = [c["exts"], c["exts"]]             # K3: extensions left per player
    return s


def _full(g):
    # The object balls of a rack (S1, E1, N1, T1).
    return 9 if g == "9ball" else (10 if g == "10ball" else 15)


def copy(v):
    """A deep copy of a state or any part of it (lists and dicts)."""
    if isinstance(v, list):
        return [copy(x) for x in v]
    if isinstance(v, dict):
        return {k: copy(v[k]) for k in v}
    return v


def group_of(b):
    return "solids" if b < 8 else ("stripes" if b > 8 else None)


# ---------------------------------------------------------------- checks

def _ball_rule(s):
    return {"14.1": "S1", "8ball": "E1", "9ball": "N1", "10ball": "T1"}[s["game"]]


def check_ball(s, b):
    # Refused unless object ball b is on the table (S1 14.1: 1-15, E1, N1).
    t = s["table"]
    if (b not in t) if t is not None else (b < 1 or b > 15):
        raise Refused(_ball_rule(s), "not_on_table", b)


def _each_once(s, balls, before):
    # Each of balls once and not among before (pots, then off), each object ball on the table.
    for i in range(len(balls)):
        b = balls[i]
        if balls.index(b) < i or b in before:
            raise Refused(_ball_rule(s), "twice", b)
        if b:
            check_ball(s, b)


def _check_shot(s, ev):
    pend = s["pending"]
    if pend:
        raise Refused(pend[1][:2], "pending", s["names"][pend[0]],
                      ", ".join(OPTIONS[pend[1]]))
    g = s["game"]
    pots = ev.get("pots") or ()
    off = ev.get("off") or ()
    _each_once(s, pots, ())
    _each_once(s, off, pots)
    first = ev.get("first")
    if first is not None:
        if first == 0:
            raise Refused("G3", "cue_first")
        check_ball(s, first)
    n = len(pots) + len(off) - (0 in pots or 0 in off)
    if g == "14.1" and n > s["left"]:
        raise Refused("S1", "too_many", n, s["left"])
    call = ev.get("call")
    if call == "push":
        if not s["push"]:
            raise Refused("T5" if g == "10ball" else "N7", "no_push")
    elif call is not None and call != "safety":
        check_ball(s, call)
    if ev.get("made"):
        if len(pots) == (0 in pots):  # no object ball among them (each is there once)
            raise Refused("A8", "made_none")
        if g == "10ball" and call is None and not s["breaking"]:
            call = s["table"][0]                      # C-T1: the lowest ball is the called one
        if g != "14.1" and call is not None and call not in ("safety", "push") \
                and call not in pots:
            raise Refused("C-T1" if g == "10ball" else "A8", "made_call", call)
    f = ev.get("foul")
    if f == "K4":
        if "clock" not in s:
            raise Refused("O7", "no_clock")
        for k in _FACTS:
            if ev.get(k):
                raise Refused("K4", "time_facts")
    elif f is not None and f not in CALLED_FOULS:
        raise Refused("G5", "unknown_foul", f)


def _ext(s, ev):
    """K3: the shooter takes one of their extensions (only with a shot clock, none during a
    choice: K6)."""
    if "clock" not in s:
        raise Refused("O7", "no_clock")
    pend = s["pending"]
    if pend:
        raise Refused("K6", "pending", s["names"][pend[0]], ", ".join(OPTIONS[pend[1]]))
    me = s["shooter"]
    i = ev.get("player")
    if i is not None and i != me:
        raise Refused("K3", "ext_turn", s["names"][me])
    if not s["exts"][me]:
        raise Refused("K3", "no_ext", s["names"][me])
    s["exts"][me] -= 1
    s["note"] = {"ext": me}


def _check_choose(s, ev):
    pend = s["pending"]
    if not pend:
        raise Refused({"14.1": "S4", "8ball": "E3", "9ball": "N7", "10ball": "T7"}[s["game"]],
                      "no_choice")
    by, kind = pend
    opts = OPTIONS[kind]
    opt = ev["option"]
    if opt not in opts:
        raise Refused(kind[:2], "bad_option", opt, ", ".join(opts))
    if ev.get("by") is not None and ev["by"] != by:
        raise Refused(kind[:2], "not_yours", s["names"][by])
    if ev.get("breaker") is not None and not (kind[:2] == "E3" and opt == "rerack"):
        raise Refused("A7", "no_breaker")


# ---------------------------------------------------------------- shared steps

def _start_shot(s):
    me = s["shooter"]
    if s["last"] != me:         # A1: a new inning when the shot before was not mine
        s["p"][me][INNINGS] += 1
        s["last"] = me
    if me != s["breaker"]:
        s["clean"] = False
    note = s["note"]
    if note is None:
        s["note"] = {}
    else:
        note.clear()  # (the state is changed in place anyway: a new dict would only be garbage)
    return me


def _pocket(s, me, n):
    """n object balls legally pocketed by me (A2 run and high run)."""
    p = s["p"][me]
    p[RUN] += n
    p[BALLS] += n
    if p[RUN] > p[HIGH]:
        p[HIGH] = p[RUN]


def _foul(s, me, rule):
    """Count a foul (A4, C-S3, C-N3); return the consecutive count."""
    s["note"]["foul"] = rule
    p = s["p"][me]
    p[FOULS] += 1
    s["tot"][me][0] += 1
    if p[FOULS] == 2 and s["three"]:
        s["note"]["warn"] = me      # C-S7, C-E4, C-N3: warning after the second foul
    return p[FOULS]


def _remove(s, balls):
    t = s["table"]
    for b in balls:
        if b in t:
            t.remove(b)


def _spot(s, b):
    """G15: put ball b back on the table (8-ball: the 8; 9-ball: the 9)."""
    t = s["table"]
    if b not in t:
        t.append(b)
        t.sort()
    s["note"].setdefault("spot", []).append(b)


def _over(s, w):
    s["winner"] = w
    s["shooter"] = None
    s["bih"] = None
    s["breaking"] = False
    s["pending"] = None
    s["push"] = False


def _setup_rack(s, breaker):
    """Rack all balls for a break by breaker (8/9/10-ball); both foul counts reset (A4)."""
    s["table"] = list(range(1, _full(s["game"]) + 1))
    s["groups"] = None
    s["p"][0][FOULS] = s["p"][1][FOULS] = 0
    s["shooter"] = s["breaker"] = breaker
    s["clean"] = True
    s["breaking"] = True
    s["bih"] = "kitchen"
    s["push"] = False
    s["pending"] = None


def _end_rack(s, w, rule):
    """Rack won by w (8/9/10-ball): A3 next rack, O2 break order, O1 race."""
    s["note"]["end"] = rule
    s["note"]["won"] = w
    s["p"][w][RACKS] += 1
    if w == s["breaker"] and s["clean"]:
        s["tot"][w][1] += 1                           # a break and run
    s["p"][0][FOULS] = s["p"][1][FOULS] = 0           # A4: counts reset when a rack ends
    if s["p"][w][RACKS] >= s["race"][w]:
        _over(s, w)
        return
    s["rack"] += 1
    mode = s["brk"]
    nxt = w if mode == "winner" else (1 - w if mode == "loser" else 1 - s["breaker"])
    _setup_rack(s, nxt)


def _objects(balls):
    # The object balls of a shot's pots or off (the game modules' obj and obj_off): the event's
    # own list when the cue ball is not in it (the rules only read it), else a new one.
    if not balls:
        return ()
    return [b for b in balls if b] if 0 in balls else balls


def _g3(ev, obj, scratch, cue_off, obj_off):
    """General fouls of any shot: referee call, G5.2, G5.3, G3."""
    if ev.get("foul"):
        return ev["foul"]
    if scratch:
        return "G5.2"
    if cue_off or obj_off:
        return "G5.3"
    if ev.get("first") is None:
        return "G3"
    if not obj and not (ev.get("rail") or ev.get("break_rails") or ev.get("cue_rail")):
        return "G3"
    return None


# ---------------------------------------------------------------- choices

def _choose(s, ev):
    by, kind = s["pending"]
    opt = ev["option"]
    s["pending"] = None
    s["note"] = {"choice": opt}
    other = 1 - by
    if kind in ("N7", "T5", "T7"):
        s["shooter"] = by if opt == "shoot" else other  # C-N4, T5, T7
        return
    if opt == "rerack":                                 # A3: the rack number stays
        if kind[:2] == "S4":
            s["left"] = 15
            s["shooter"] = other                        # the offender breaks again
            s["breaking"] = True
            s["bih"] = "kitchen"
        else:
            b = ev.get("breaker")
            if kind == "E4":
                b = by
            elif b is None:
                b = by
            _setup_rack(s, b)
        s["note"]["rack"] = kind[:2]
        return
    if opt == "spot8":                                 # E4
        _spot(s, 8)
    s["shooter"] = by
    s["bih"] = "kitchen" if opt == "kitchen" or kind in ("S4k", "E4s") else None


def _as_facts(ev):
    # A called G5.2 (scratch) or G5.3 (off the table) with no ball of its own is the cue ball
    # pocketed or off the table, as the shot facts would say it, so that every game gives it the
    # ball in hand and the choices of a scratch (S7, S9, A7, E10, N4).
    f = ev.get("foul")
    k = "pots" if f == "G5.2" else ("off" if f == "G5.3" else None)
    off = ev.get("off") or ()
    if k is None or 0 in (ev.get("pots") or ()) or 0 in off or k == "off" and off:
        return ev  # (G5.3 with the balls that left named: those are the facts)
    ev = dict(ev)
    del ev["foul"]
    ev[k] = list(ev.get(k) or ()) + [0]
    return ev


# ---------------------------------------------------------------- entry

_GAMES = {"14.1": "rules_141", "8ball": "rules_8ball", "9ball": "rules_9ball",
          "10ball": "rules_10ball"}
_game_mod = [None, None]  # [game, the module of its shot rules]


def shot_rules(g):
    # The shot rules of game g (firmware/rules_*.py): only the game being played is loaded, so
    # a board does not hold the code of the others (10-ball's takes 9-ball's shared steps).
    if _game_mod[0] != g:
        if _game_mod[0] is not None:
            _game_mod[0] = _game_mod[1] = None
            for name in _GAMES.values():
                unload(name)
        _game_mod[1] = __import__("firmware." + _GAMES[g], None, None, ("shot",))
        _game_mod[0] = g
    return _game_mod[1]


def apply(s, ev):
    # type: (dict | None, dict) -> dict
    """Apply a well-formed event (events.check) to s; return the new state.

    All refusals are raised before anything changes, so a refused event leaves s as it was.
    """
    t = ev["t"]
    if t == "new":
        if s is not None:
            raise Refused("O1", "match_on")
        s = new_state(ev)
        shot_rules(s["game"])  # its shot rules loaded now, not while the break's key waits for them
        return s
    if s is None:
        raise Refused("O1", "no_match")
    if s["winner"] is not None:
        raise Refused("A11", "over")
    if t == "lag":
        if s["shooter"] is not None:
            raise Refused("G1", "lagged")
        s["shooter"] = s["breaker"] = ev["breaker"]
        s["note"] = None
        return s
    if s["shooter"] is None:
        raise Refused("A11", "no_lag")
    before = s["shooter"]
    rack = s["rack"]
    if t == "choose":
        _check_choose(s, ev)
        _choose(s, ev)
    elif t == "ext":
        _ext(s, ev)
        return s
    else:
        ev = _as_facts(ev)
        _check_shot(s, ev)
        shot_rules(s["game"]).shot(s, ev)
    after = s["shooter"]
    if after is not None and after != before:          # A2: the table passed
        s["p"][0][RUN] = s["p"][1][RUN] = 0
    if s["rack"] != rack and "exts" in s:              # K3: extensions are a rack's (A3)
        s["exts"][0] = s["exts"][1] = s["clock"]["exts"]
    return s
