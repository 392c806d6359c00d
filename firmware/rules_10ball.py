# Rules core, 10-ball (T1-T12, C-T1, O6): shot(s, ev) judges a checked shot.
# firmware.rules loads this module only while a 10-ball match is played (after its refusal
# checks). The steps 10-ball shares with 9-ball (T3, T5, T10, T11 = N4, N7, N8-N10, N11) are
# firmware.rules_9ball.rotation's; the called shots and the 10 are judged here.
from firmware.rules import _end_rack, _pocket, _spot
from firmware.rules_9ball import rotation

# rotation()'s rules in 10-ball: a wrong first contact on the break, after it, any other break
# foul, the three-foul loss, the push-out choice.
_IDS = ("T3", "T10", "T3", "T11", "T5")


def shot(s, ev):
    lowest = s["table"][0]                             # T2: the ball to hit first
    obj = rotation(s, ev, 10, _IDS)
    if obj is None:
        return
    me = s["shooter"]
    op = 1 - me
    ten = 10 in obj
    if s["push"]:                                      # a legal break: nothing is called (T3)
        if ten and s["ten"] == "win":                  # O6
            _pocket(s, me, len(obj))
            return _end_rack(s, me, "O6")
        if ten:
            _spot(s, 10)                               # T4
        if obj:
            _pocket(s, me, len(obj) - ten)             # T4: the breaker keeps shooting
        else:
            s["shooter"] = op
        return
    call = ev.get("call")
    if call is None:
        call = lowest                                  # C-T1
    if call != "safety" and ev.get("made"):            # the called ball as called (T2, C-T1)
        if call == 10:
            _pocket(s, me, len(obj))
            return _end_rack(s, me, "T2")
        if ten:
            _spot(s, 10)                               # T6
        _pocket(s, me, len(obj) - ten)                 # T6: the shooter continues
        return
    if ten:
        _spot(s, 10)                                   # T7, T8
    if obj and call != "safety":
        s["pending"] = [op, "T7"]                      # T7: shoot or pass the shot back
    s["shooter"] = op                                  # T7, T8, T9
