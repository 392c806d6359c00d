# mp: yes
# The events a test plays, and a Match after them (CPython and MicroPython): the one module that
# makes them (tests/helpers.py holds the positions and checks built on them). Small, so that a
# test module under MicroPython's 64 KB heap can import it alone (tests/views_models.py).
from firmware.match import Match


def new(game, players=("A", "B"), **kw):
    ev = {"t": "new", "game": game, "players": list(players)}  # type: dict
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


def pot141(n=1, ball=1):
    """A called ball made in 14.1 plus n - 1 extra balls (S5)."""
    return shot(first=ball, call=ball, pots=list(range(1, n + 1)), made=True, rail=True)


def pot(b, *more):
    """b called and made, plus any extra balls, first contact b."""
    return shot(first=b, call=b, pots=[b] + list(more), made=True, rail=True)
