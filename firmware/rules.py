# Rules core: judges one event against RULES.md on a plain state dict (no I/O, no clock).
try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

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
}
# Fouls a referee may call that the shot facts can't show.
CALLED_FOULS = ("G5.1", "G5.2", "G5.3", "G5.4", "G5.5", "G5.6", "G5.7", "G5.8", "G5.9",
                "G5.10", "G5.11", "G5.12", "G19", "G20", "E9")

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
    """The state right after a new event (O1-O4 settings, before the lag)."""
    g = ev["game"]
    n = 9 if g == "9ball" else 15
    three = ev.get("three_foul")
    return {
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
        "note": None,       # what the last event did, for the views
    }


def copy(v):
    if isinstance(v, list):
        return [copy(x) for x in v]
    if isinstance(v, dict):
        return {k: copy(v[k]) for k in v}
    return v


def copy_state(s):
    # type: (dict) -> dict
    """A deep copy of a state (undo snapshots)."""
    c = {}
    for k in s:
        c[k] = copy(s[k])
    return c


def group_of(b):
    return "solids" if b < 8 else ("stripes" if b > 8 else None)


# ---------------------------------------------------------------- checks

def _ball_rule(s):
    return {"14.1": "S1", "8ball": "E1", "9ball": "N1"}[s["game"]]


def _on(s, b):
    t = s["table"]
    if (b not in t) if t is not None else (b < 1 or b > 15):
        raise Refused(_ball_rule(s), "not_on_table", b)


def _check_shot(s, ev):
    pend = s["pending"]
    if pend:
        raise Refused(pend[1][:2], "pending", s["names"][pend[0]],
                      ", ".join(OPTIONS[pend[1]]))
    g = s["game"]
    seen = []
    for b in (ev.get("pots") or []) + (ev.get("off") or []):
        if b in seen:
            raise Refused(_ball_rule(s), "twice", b)
        seen.append(b)
        if b:
            _on(s, b)
    first = ev.get("first")
    if first is not None:
        if first == 0:
            raise Refused("G3", "cue_first")
        _on(s, first)
    n = len(seen) - (0 in seen)
    if g == "14.1" and n > s["left"]:
        raise Refused("S1", "too_many", n, s["left"])
    call = ev.get("call")
    if call == "push":
        if not s["push"]:
            raise Refused("N7", "no_push")
    elif call is not None and call != "safety":
        _on(s, call)
    if ev.get("made"):
        pots = ev.get("pots") or []
        if not [b for b in pots if b]:
            raise Refused("A8", "made_none")
        if g != "14.1" and call is not None and call not in ("safety", "push") \
                and call not in pots:
            raise Refused("A8", "made_call", call)
    f = ev.get("foul")
    if f is not None and f not in CALLED_FOULS:
        raise Refused("G5", "unknown_foul", f)


def _check_choose(s, ev):
    pend = s["pending"]
    if not pend:
        raise Refused({"14.1": "S4", "8ball": "E3", "9ball": "N7"}[s["game"]], "no_choice")
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
    s["note"] = {}
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
    """Rack all balls for a break by breaker (8/9-ball); both foul counts reset (A4)."""
    s["table"] = list(range(1, (9 if s["game"] == "9ball" else 15) + 1))
    s["groups"] = None
    s["p"][0][FOULS] = s["p"][1][FOULS] = 0
    s["shooter"] = s["breaker"] = breaker
    s["breaking"] = True
    s["bih"] = "kitchen"
    s["push"] = False
    s["pending"] = None


def _end_rack(s, w, rule):
    """Rack won by w (8/9-ball): A3 next rack, O2 break order, O1 race."""
    s["note"]["end"] = rule
    s["note"]["won"] = w
    s["p"][w][RACKS] += 1
    s["p"][0][FOULS] = s["p"][1][FOULS] = 0           # A4: counts reset when a rack ends
    if s["p"][w][RACKS] >= s["race"][w]:
        _over(s, w)
        return
    s["rack"] += 1
    mode = s["brk"]
    nxt = w if mode == "winner" else (1 - w if mode == "loser" else 1 - s["breaker"])
    _setup_rack(s, nxt)


def _facts(ev):
    pots = ev.get("pots") or []
    off = ev.get("off") or []
    return ([b for b in pots if b], 0 in pots, 0 in off, [b for b in off if b])


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


# ---------------------------------------------------------------- 14.1

def _shot_141(s, ev):
    me = _start_shot(s)
    op = 1 - me
    p = s["p"]
    note = s["note"]
    obj, scratch, cue_off, obj_off = _facts(ev)
    call = ev.get("call")
    made = call != "safety" and ev.get("made") and obj   # A8: the called or obvious ball
    if s["breaking"]:
        s["breaking"] = False
        cond2 = ev.get("first") is not None and ev.get("cue_rail") and \
            (ev.get("break_rails") or 0) >= 2
        if not (made or cond2):
            # S4 breaking violation: -2 (also with a scratch, A6), not a foul (C-S2).
            p[me][SCORE] -= 2
            note["foul"] = "S4"
            note["pen"] = 2
            if obj or obj_off:
                note["spot"] = len(obj) + len(obj_off)
            s["pending"] = [op, "S4k" if scratch or cue_off else "S4"]
            s["shooter"] = op
            s["bih"] = None
            return
    foul = _g3(ev, obj, scratch, cue_off, obj_off)
    if foul:
        if obj or obj_off:
            note["spot"] = len(obj) + len(obj_off)     # S8, S9
        p[me][SCORE] -= 1                              # S7
        note["pen"] = 1
        if _foul(s, me, foul) >= 3 and s["three"]:
            # S11: -15 more, all 15 re-racked, the offender breaks under S4.
            p[me][SCORE] -= 15
            note["pen"] = 16
            note["rack"] = "S11"
            p[me][FOULS] = 0
            s["left"] = 15
            s["rack"] += 1
            s["breaking"] = True
            s["bih"] = "kitchen"
            return
        s["shooter"] = op
        s["bih"] = "kitchen" if scratch or cue_off else None   # S7, S9
        return
    p[me][FOULS] = 0                                   # C-S3
    s["bih"] = None
    if not made:                                       # miss, safety or not as called
        if obj:
            note["spot"] = len(obj)                    # S8, A8
        s["shooter"] = op                              # G4
        return
    n = len(obj)
    p[me][SCORE] += n                                  # S2, S5
    _pocket(s, me, n)
    left = s["left"] = s["left"] - n
    if p[me][SCORE] >= s["target"][me]:                # C-S1
        _over(s, me)
        return
    if left > 1:
        return
    # S10 continuous rack and the C-S4 interference cases (A10).
    s["rack"] += 1
    s["left"] = 15
    cue_in = ev.get("cue_in_rack")
    if left == 0:
        note["rack"] = "C-S4a"
    elif cue_in and ev.get("ball_in_rack"):
        note["rack"] = "C-S4b"
    elif cue_in:
        note["rack"] = "C-S4d"
    elif ev.get("ball_in_rack"):
        note["rack"] = "C-S4c"
    else:
        note["rack"] = "S10"
    if cue_in:
        s["bih"] = "kitchen"


# ---------------------------------------------------------------- 8-ball

def _break_8(s, ev, me, obj, scratch, cue_off, obj_off):
    op = 1 - me
    _remove(s, obj + obj_off)
    if 8 in obj_off:
        s["note"]["foul"] = "G5.3"
        _end_rack(s, op, "E12.3")                      # A7: 8 off on the break loses
        return
    legal = ev.get("first") is not None and (obj or (ev.get("break_rails") or 0) >= 4)
    foul = ev.get("foul") or ("G5.2" if scratch else None) or \
        ("G5.3" if cue_off or obj_off else None) or (None if legal else "E3")   # A5
    if foul:
        _foul(s, me, foul)
    elif obj:
        _pocket(s, me, len(obj) - (8 in obj))
    s["bih"] = None
    if 8 in obj:                                       # E4
        s["pending"] = [op, "E4s"] if foul else [me, "E4"]
        s["shooter"] = s["pending"][0]
    elif foul:                                         # E3, A7
        s["pending"] = [op, "E3s" if scratch or cue_off else "E3"]
        s["shooter"] = op
    elif not obj:
        s["shooter"] = op                              # E5: open table either way


def _shot_8(s, ev):
    me = _start_shot(s)
    op = 1 - me
    obj, scratch, cue_off, obj_off = _facts(ev)
    if s["breaking"]:
        s["breaking"] = False
        _break_8(s, ev, me, obj, scratch, cue_off, obj_off)
        return
    groups = s["groups"]
    own = None if groups is None else [b for b in s["table"] if group_of(b) == groups[me]]
    cleared = groups is not None and not own           # the 8 is the legal object ball
    first = ev.get("first")
    foul = _g3(ev, obj, scratch, cue_off, obj_off)
    if first is not None and not foul:
        if groups is None and first == 8:
            foul = "C-E1"
        elif own and first not in own or cleared and first != 8:
            foul = "E7"
    _remove(s, obj + obj_off)
    if 8 in obj_off:
        return _lose_8(s, op, foul, "E12.3")
    if 8 in obj:
        if foul:
            return _lose_8(s, op, foul, "E12.1")
        if not cleared:
            rule = "E12.2" if own and not [b for b in own if b not in obj] else "E12.5"
            return _lose_8(s, op, None, rule)
        call = ev.get("call")
        if ev.get("made") and (call is None or call == 8):
            _pocket(s, me, len(obj))
            return _end_rack(s, me, "E11")
        return _lose_8(s, op, None, "E12.4")
    if foul:
        if _foul(s, me, foul) >= 3 and s["three"]:
            return _end_rack(s, op, "E12.6")
        s["shooter"] = op
        s["bih"] = "table"                             # E10
        return
    s["p"][me][FOULS] = 0                              # A4
    s["bih"] = None
    call = ev.get("call")
    if call == "safety":                               # C-E3
        s["shooter"] = op
        return
    if call is None:                                   # A8: the intended ball
        mine = [b for b in obj if (b in own if own else b != 8)]
        call = min(mine) if mine else None
    if ev.get("made") and call in obj and (groups is None or group_of(call) == groups[me]):
        if groups is None:                             # E6
            g = group_of(call)
            other = "stripes" if g == "solids" else "solids"
            s["groups"] = [g, other] if me == 0 else [other, g]
        _pocket(s, me, len(obj))                       # E8, C-E2
        return
    s["shooter"] = op                                  # E8: miss ends the inning


def _lose_8(s, winner, foul, rule):
    if foul:
        s["note"]["foul"] = foul
    _end_rack(s, winner, rule)


# ---------------------------------------------------------------- 9-ball

def _shot_9(s, ev):
    me = _start_shot(s)
    op = 1 - me
    obj, scratch, cue_off, obj_off = _facts(ev)
    lowest = s["table"][0]
    nine = 9 in obj or 9 in obj_off
    push = ev.get("call") == "push"
    foul = _g3(ev, obj, scratch, cue_off, obj_off)
    if push:
        if foul == "G3":
            foul = None                                # N7: no contact or rail needed
    elif not foul and ev.get("first") != lowest:
        foul = "N2" if s["breaking"] else "N5"
    if s["breaking"] and not foul and not obj and (ev.get("break_rails") or 0) < 4:
        foul = "N4"
    breaking = s["breaking"]
    s["breaking"] = False
    s["push"] = False
    _remove(s, obj + obj_off)
    if foul:
        if nine:
            _spot(s, 9)                                # N9, N10
        if _foul(s, me, foul) >= 3 and s["three"]:
            return _end_rack(s, op, "N11")
        s["shooter"] = op
        s["bih"] = "table"                             # N4, N8
        return
    s["p"][me][FOULS] = 0                              # A4
    s["bih"] = None
    if push:
        if nine:
            _spot(s, 9)                                # C-N1, C-N2
        _pocket(s, me, len(obj) - nine)
        s["pending"] = [op, "N7"]
        s["shooter"] = op
        return
    if breaking:
        s["push"] = True                               # N7: the next shot may be a push out
        if nine and s["nine"] == "spot":
            _spot(s, 9)                                # O4, A9: keeps shooting
            _pocket(s, me, len(obj) - 1)
            return
    if 9 in obj:
        _pocket(s, me, len(obj))
        return _end_rack(s, me, "C-N1" if breaking else "N2")
    if obj:
        _pocket(s, me, len(obj))                       # N6
    else:
        s["shooter"] = op


# ---------------------------------------------------------------- choices

def _choose(s, ev):
    by, kind = s["pending"]
    opt = ev["option"]
    s["pending"] = None
    s["note"] = {"choice": opt}
    other = 1 - by
    if kind == "N7":
        s["shooter"] = by if opt == "shoot" else other  # C-N4
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


# ---------------------------------------------------------------- entry

def apply(s, ev):
    # type: (dict | None, dict) -> dict
    """Apply a well-formed event (events.check) to s; return the new state.

    All refusals are raised before anything changes, so a refused event leaves s as it was.
    """
    t = ev["t"]
    if t == "new":
        if s is not None:
            raise Refused("O1", "match_on")
        return new_state(ev)
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
    if t == "choose":
        _check_choose(s, ev)
        _choose(s, ev)
    else:
        _check_shot(s, ev)
        {"14.1": _shot_141, "8ball": _shot_8, "9ball": _shot_9}[s["game"]](s, ev)
    after = s["shooter"]
    if after is not None and after != before:          # A2: the table passed
        s["p"][0][RUN] = s["p"][1][RUN] = 0
    return s
