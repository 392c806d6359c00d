# mp: yes
# Plain test helpers (no pytest): build events, play them, read the state contract.
from firmware import rules
from firmware.match import Match


def new(game, **kw):
    ev = {"t": "new", "game": game, "players": ["A", "B"]}  # type: dict
    ev.update(kw)
    return ev


def shot(**kw):
    ev = {"t": "shot"}  # type: dict
    ev.update(kw)
    return ev


def choose(option, **kw):
    ev = {"t": "choose", "option": option}  # type: dict
    ev.update(kw)
    return ev


UNDO = {"t": "undo"}


def lag(breaker=0):
    return {"t": "lag", "breaker": breaker}


def play(*evs):
    """A Match after the given events; every event must be accepted."""
    m = Match()
    for ev in evs:
        m.apply(ev)
    return m


def refused(m, ev):
    """Apply ev expecting a refusal; check the state did not change; return the rule."""
    before = m.state()
    inner = rules.copy(m.s)
    n = len(m.log)
    try:
        m.apply(ev)
    except rules.Refused as e:
        assert m.state() == before, "refusal changed the state"
        assert m.s == inner and len(m.log) == n
        return e.rule
    raise AssertionError("event was accepted: %r" % (ev,))


def player(m, i):
    return m.state()["players"][i]


# Common shots.
def break_141_ok():
    """A legal 14.1 opening break (S4 (2)): two balls and the cue ball to a rail."""
    return shot(first=1, break_rails=2, cue_rail=True, rail=True)


def pot141(n=1, ball=1):
    """A called ball made in 14.1 plus n - 1 extra balls (S5)."""
    return shot(first=ball, call=ball, pots=list(range(1, n + 1)), made=True, rail=True)


def miss(first=1):
    return shot(first=first, rail=True)


def scratch(first=1):
    return shot(first=first, pots=[0], rail=True)


def break_dry(first=1):
    """A break that pockets nothing with enough balls to rails (E3/N4: 4)."""
    return shot(first=first, break_rails=4, rail=True)
