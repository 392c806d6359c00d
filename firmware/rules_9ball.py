# Rules core, 9-ball (N1-N11, C-N1-C-N4): shot(s, ev) judges a checked shot.
# firmware.rules loads this module only while a 9-ball or a 10-ball match is played (after its
# refusal checks); 10-ball's rules (firmware/rules_10ball.py) take their shared steps from here.
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

# rotation()'s rules in 9-ball: a wrong first contact on the break, after it, any other break
# foul, the three-foul loss, the push-out choice.
_IDS = ("N2", "N5", "N4", "N11", "N7")


def rotation(s, ev, money, ids):
    """The steps 9-ball and 10-ball share: the lowest ball first, the break's four rails, the
    fouls with ball in hand anywhere and the money ball spotted, three fouls and the push out
    (N2, N4, N5, N7-N11, C-N2; 10-ball's T3, T5, T10, T11). ids name the rules as _IDS does.
    Returns None once that settles the shot (a foul, a push out), else the object balls
    pocketed on a legal shot (s["push"] then says the shot was the break)."""
    me = _start_shot(s)
    op = 1 - me
    pots = ev.get("pots") or ()
    off = ev.get("off") or ()
    obj, obj_off = _objects(pots), _objects(off)  # object balls pocketed, off the table
    scratch, cue_off = 0 in pots, 0 in off
    gone = money in obj or money in obj_off
    push = ev.get("call") == "push"
    breaking = s["breaking"]
    foul = _g3(ev, obj, scratch, cue_off, obj_off)
    if push:
        if foul == "G3":
            foul = None                                # N7: no contact or rail needed
    elif not foul and ev.get("first") != s["table"][0]:
        foul = ids[0] if breaking else ids[1]
    if breaking and not foul and not obj and (ev.get("break_rails") or 0) < 4:
        foul = ids[2]
    elif breaking and foul in ("G3", "G5.2", "G5.3"):
        foul = ids[2]  # no rail, the cue ball in or off on the break: a break foul (N4)
    s["breaking"] = False
    s["push"] = False
    _remove(s, obj)
    _remove(s, obj_off)
    if foul:
        if gone:
            _spot(s, money)                            # N9, N10
        if _foul(s, me, foul) >= 3 and s["three"]:
            _end_rack(s, op, ids[3])                   # N11
            return None
        s["shooter"] = op
        s["bih"] = "table"                             # N4, N8
        return None
    s["p"][me][FOULS] = 0                              # A4
    s["bih"] = None
    if push:
        if gone:
            _spot(s, money)                            # C-N1, C-N2
        _pocket(s, me, len(obj) - gone)
        s["pending"] = [op, ids[4]]
        s["shooter"] = op
        return None
    s["push"] = breaking                               # N7: the next shot may be a push out
    return obj


def shot(s, ev):
    obj = rotation(s, ev, 9, _IDS)
    if obj is None:
        return
    me = s["shooter"]
    nine = 9 in obj
    if nine and s["push"] and s["nine"] == "spot":
        _spot(s, 9)                                    # O4, A9: keeps shooting
        _pocket(s, me, len(obj) - 1)
        return
    if nine:
        _pocket(s, me, len(obj))
        return _end_rack(s, me, "C-N1" if s["push"] else "N2")
    if obj:
        _pocket(s, me, len(obj))                       # N6
    else:
        s["shooter"] = 1 - me
