# Rules core, 8-ball (E1-E12, C-E1-C-E4): shot(s, ev) judges a checked shot.
# firmware.rules loads this module only while an 8-ball match is played (after its refusal checks).
from firmware.rules import (
    FOULS,
    _end_rack,
    _foul,
    _g3,
    _objects,
    _pocket,
    _remove,
    _start_shot,
    group_of,
)


def _break_8(s, ev, me, obj, scratch, cue_off, obj_off):
    op = 1 - me
    _remove(s, obj)
    _remove(s, obj_off)
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


def shot(s, ev):
    me = _start_shot(s)
    op = 1 - me
    pots = ev.get("pots") or ()
    off = ev.get("off") or ()
    obj, obj_off = _objects(pots), _objects(off)  # object balls pocketed, off the table
    scratch, cue_off = 0 in pots, 0 in off
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
    _remove(s, obj)
    _remove(s, obj_off)
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
