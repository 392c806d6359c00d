# Rules core, 14.1 continuous (S1-S11, C-S1-C-S7): shot(s, ev) judges a checked shot.
# firmware.rules loads this module only while a 14.1 match is played (after its refusal checks).
from firmware.rules import FOULS, SCORE, _foul, _g3, _objects, _over, _pocket, _start_shot


def shot(s, ev):
    me = _start_shot(s)
    op = 1 - me
    p = s["p"]
    note = s["note"]
    pots = ev.get("pots") or ()
    off = ev.get("off") or ()
    obj, obj_off = _objects(pots), _objects(off)  # object balls pocketed, off the table
    scratch, cue_off = 0 in pots, 0 in off
    call = ev.get("call")
    made = call != "safety" and ev.get("made") and obj   # A8: the called or obvious ball
    if s["breaking"] and ev.get("foul") != "K4":  # C-K2: a time foul leaves the rack unbroken
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
        # S7, S9; a rack still to break is broken from the kitchen (G2, C-K2)
        s["bih"] = "kitchen" if scratch or cue_off or foul == "G5.14" or s["breaking"] else None
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
    note["rack"] = r = rack_case(left, cue_in, ev.get("ball_in_rack"), ev.get("ball_in_kitchen"))
    if cue_in and r != "C-S4dh":  # C-S4d with the 15th ball in the kitchen: cue on the head spot
        s["bih"] = "kitchen"


def rack_case(left, cue_in, ball_in, kitchen=False):
    """The rule for the re-rack once the 14th ball is down, left balls on the table (A10):
    S10, or the C-S4 case of where the cue ball and the 15th ball lie; "C-S4dh" is C-S4(d)
    with the 15th ball in the kitchen (the cue ball on the head spot; its rule ID is the first
    5 characters)."""
    if left == 0:
        return "C-S4a"
    if cue_in:
        return "C-S4b" if ball_in else ("C-S4dh" if kitchen else "C-S4d")
    return "C-S4c" if ball_in else "S10"
