# mp: yes
# Plain test helpers (no pytest): positions, common shots and checks of the state contract; the
# events themselves come from tests/builders.py.
from firmware import rules
from firmware.match import Match
from tests.builders import UNDO, choose, lag, new, play, pot, pot141, shot  # noqa: F401


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


def miss(first=1):
    return shot(first=first, rail=True)


def scratch(first=1):
    return shot(first=first, pots=[0], rail=True)


def break_dry(first=1):
    """A break that pockets nothing with enough balls to rails (E3/N4: 4)."""
    return shot(first=first, break_rails=4, rail=True)


def bad_break_141(**kw):
    """A 14.1 break that meets neither S4 condition: one ball to a rail, nothing made."""
    ev = shot(first=1, break_rails=1, cue_rail=True, rail=True)
    ev.update(kw)
    return ev


def made_break_141():
    """S4 (1): a called ball made on the 14.1 break."""
    return shot(first=1, call=1, pots=[1], made=True, rail=True)


# Common positions and checks.
def g141(**kw):
    """14.1 after a legal opening break by A that pockets nothing: B to shoot, 15 balls."""
    return play(new("14.1", **kw), lag(0), break_141_ok())


def g9(**kw):
    """9-ball after a dry legal break by A: B to shoot at the 1."""
    return play(new("9ball", **kw), lag(0), break_dry())


def match8(*evs, **kw):
    """An 8-ball match (options kw) after the given events."""
    return play(new("8ball", **kw), *evs)


def g8_groups():
    """8-ball, A broke dry, B made the 9 as called: B has stripes, A solids; B to shoot."""
    return match8(lag(0), break_dry(), pot(9))


def a_solids():
    """A breaks in 1 and 2, then calls and makes the 3: A solids, 4-7 left, A to shoot."""
    return match8(lag(0), shot(first=1, pots=[1, 2], break_rails=4, rail=True), pot(3))


def a_cleared(**kw):
    """A breaks in 1-6 and makes the 7: A's group is down, the 8 is A's object ball."""
    return match8(
        lag(0), shot(first=1, pots=[1, 2, 3, 4, 5, 6], break_rails=4, rail=True), pot(7), **kw
    )


def fouls(m):
    """The two players' foul counts."""
    return (player(m, 0)["fouls"], player(m, 1)["fouls"])


def opts(m):
    """The options of the pending choice, sorted."""
    return sorted(m.state()["pending"]["options"])


def foul_141(m, shooter, score_before, bih=None):
    """Check a foul by shooter in 14.1 (S7): -1, table passes, cue ball where it lies unless bih."""
    st = m.state()
    assert player(m, shooter)["score"] == score_before - 1
    assert player(m, shooter)["fouls"] >= 1
    assert st["shooter"] == 1 - shooter
    assert st["bih"] == bih


def foul_bih_table(m, shooter, n=1):
    """Check a foul by shooter in 8/9-ball (E10, N8): opponent has ball in hand anywhere."""
    st = m.state()
    assert player(m, shooter)["fouls"] == n
    assert st["shooter"] == 1 - shooter
    assert st["bih"] == "table"
    assert st["pending"] is None


def long_141(n, seed=1, undo_every=0, log=None, m=None):
    """A legal 14.1 match of n accepted events (made balls, misses, safeties, fouls, and an undo
    every undo_every events), event dicts made one at a time. Deterministic (a small LCG: no
    random module on MicroPython); each event is judged by the rules core as it is made, on a
    Match kept on log (a journal where the heap is small) or in RAM, or on m, a Match given."""
    m = m or Match(log)
    made = {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True}
    kinds = (made, made, made, {"t": "shot", "first": 1, "rail": True},
             {"t": "shot", "first": 1, "call": "safety", "rail": True},
             {"t": "shot", "first": None}, {"t": "shot", "first": 1, "pots": [0], "rail": True})
    x = seed
    for ev in (new("14.1", target=[100000, 100000]), lag(0), break_141_ok()):
        m.apply(ev, False)
        yield ev
    k = 3
    while k < n:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if undo_every and k % undo_every == 0 and len(m.log) > 3:
            ev = UNDO
        else:
            ev = kinds[(x >> 16) % len(kinds)]
        try:
            m.apply(ev, False)
        except rules.Refused:
            ev = kinds[3]  # a miss is always allowed in play
            try:
                m.apply(ev, False)
            except rules.Refused:
                ev = choose(m.state()["pending"]["options"][0])
                m.apply(ev, False)
        k += 1
        yield ev


def long_10ball(n, seed=1, undo_every=0, m=None):
    """A legal 10-ball match of n accepted events (race to 100,000): breaks, the lowest ball made,
    the 10 as called, misses, safeties, fouls, balls not as called (T7) and their choices, push
    outs, an undo every undo_every events. Deterministic, each event judged as it is made (on m,
    a Match given, or one in RAM), as long_141."""
    m = m or Match()
    x = seed
    for ev in (new("10ball", race=[100000, 100000]), lag(0)):
        m.apply(ev, False)
        yield ev
    k = 2
    while k < n:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        r = (x >> 16) % 9
        s = m.s
        t = s["table"]
        low = t[0]
        if undo_every and k % undo_every == 0 and len(m.log) > 3:
            ev = UNDO
        elif s["pending"]:
            ev = choose(("shoot", "pass")[r % 2])
        elif s["breaking"]:
            ev = shot(first=1, pots=[t[r]] if r < 5 else [], break_rails=r % 5, rail=True)
        elif s["push"] and r == 8:
            ev = shot(call="push", first=None)
        elif r < 3:
            ev = shot(first=low, call=low, pots=[low], made=True, rail=True)
        else:
            ev = (shot(first=low, call=10, pots=[10], made=True, rail=True),
                  shot(first=low, rail=True), shot(first=low, call="safety", rail=True),
                  shot(first=None), shot(first=low, call=low, pots=[t[-1]], rail=True),
                  shot(first=low, pots=[low, 0], rail=True))[r - 3]
        m.apply(ev, False)
        k += 1
        yield ev


ON_MP = __import__("sys").implementation.name == "micropython"


def scratch_dir(name):
    """A new empty folder for files a test writes: a temporary one on CPython, one in the
    run's own filesystem under MicroPython (each run has a fresh one)."""
    try:
        import tempfile
    except ImportError:
        import os

        from firmware.journal import remove_tree

        path = "scratch_" + name
        remove_tree(path)
        os.mkdir(path)
        return path
    return tempfile.mkdtemp(prefix=name + "-")


def flip(path, at, mask=0x01):
    """Flip the bits of mask in the byte at `at` of a file (negative: from the end)."""
    import os

    if at < 0:
        at += os.stat(path)[6]
    with open(path, "r+b") as f:  # in place: a pack of 48 records is 3 KB, too big to copy at 64K
        f.seek(at)
        b = f.read(1)[0] ^ mask
        f.seek(at)
        f.write(bytes([b]))
