# Rules core, 9-ball (N1-N11, C-N1-C-N4): shot(s, ev) judges a checked shot.
# firmware.rules loads this module only while a 9-ball match is played (after its refusal checks).
from firmware.rules import (
    FOULS,
    _end_rack,
    _foul,
    _g3,
    _objects,
    _pocket,
    _remove,
    _spot,
    _start_shot,
)


def shot(s, ev):
    me = _start_shot(s)
    op = 1 - me
    pots = ev.get("pots") or ()
    off = ev.get("off") or ()
    obj, obj_off = _objects(pots), _objects(off)  # object balls pocketed, off the table
    scratch, cue_off = 0 in pots, 0 in off
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
    elif s["breaking"] and foul in ("G3", "G5.2", "G5.3"):
        foul = "N4"  # no rail, the cue ball in or off on the break: a break foul (N4)
    breaking = s["breaking"]
    s["breaking"] = False
    s["push"] = False
    _remove(s, obj)
    _remove(s, obj_off)
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
