# mp: yes
# Random key mashing through the Controller (CPython and MicroPython): a tiny LCG, core invariant checks.
import sys

from firmware import stjson
from firmware.events import check as check_event
from firmware.ui import Controller
from host_tools.fakekeys import BUTTONS

KEYPAD = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "*", "#")
NAMES = KEYPAD + BUTTONS  # both layouts' names go to either layout (wrong ones must be refused)
# kind by a number 0..99: mostly presses, some long presses, a few stuck and chattering keys
KINDS = (("press", 80), ("long", 92), ("stuck", 96), ("chatter", 100))


class Lcg:
    # Deterministic 31-bit linear congruential generator (the same numbers on every port).
    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def next(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x >> 8

    def below(self, n):
        return self.next() % n


def _kind(r):
    for name, top in KINDS:
        if r < top:
            return name
    return "press"


def _start(ctl, layout):
    # Start the preselected game from the setup screen (cursor on its first row).
    if layout == "keypad":
        ctl.key("press", "2")  # up from the first row wraps to "start"
        ctl.key("press", "5")
    else:
        for _ in range(len(ctl.model()["items"]) - 1):
            ctl.key("press", "P1")
        ctl.key("press", "FOUL")


# On CPython check() writes a state as JSON only if its repr is not the last one written's
# (the same values of the same types: the same text): most presses leave the state as it was.
_SKIP_SAME = sys.implementation.name != "micropython"
_written = [""]  # that repr ("": none yet)


def check(ctl, three):
    # The core invariants after one key event; returns the state contract (or None).
    st = ctl.match.state()
    if _SKIP_SAME:
        r = repr(st)
        if r != _written[0]:
            stjson.dumps(st)  # JSON-able, and the very text replay would print
            _written[0] = r
    else:
        stjson.dumps(st)
    if st is None:
        return None
    full = 9 if st["game"] == "9ball" else 15
    bl = st["balls_left"]
    assert 0 <= bl <= full, bl
    if st["on_table"] is not None:
        assert len(st["on_table"]) == bl
    if st["winner"] is not None:
        assert st["shooter"] is None and st["bih"] is None and not st["breaking"], st
    elif st["shooter"] is None:
        assert len(ctl.match.log) == 1, "shooter None after the lag"  # only the new event
    else:
        assert st["shooter"] in (0, 1)
    if three:
        for p in st["players"]:
            assert 0 <= p["fouls"] <= 2, p
    return st


def mash(game, layout, presses, seed, lang="en"):
    # Press `presses` random keys into a Controller preselected to `game`; check after each.
    # The setup's game field is never changed, so the presses stay in that game.
    # Returns counts: {"events": accepted events over all matches, "over": finished matches,
    # "started": matches started, "modes": {mode: presses}}.
    out = {}
    for _ in mash_steps(game, layout, presses, seed, lang, 0, out):
        pass
    return out


def mash_steps(game, layout, presses, seed, lang="en", every=0, out=None, fresh=0):
    # mash() as a generator that yields every `every` presses (MicroPython runner steps: the
    # test VM collects garbage only between steps); the counts go into the dict `out`.
    # fresh: start over with a new controller every `fresh` presses (bounds a match's length).
    rng = Lcg(seed)
    ctl = Controller(layout, lang, game)
    modes = {}
    started = 0
    over = 0
    events = 0
    last_n = 0
    last_m = None
    was_over = False
    move = ("2", "8", "P1", "D", "UNDO")  # the keys that leave the game field alone
    for i in range(presses):
        if every and i and i % every == 0:
            yield
        if fresh and i and i % fresh == 0:
            ctl = Controller(layout, lang, game)
            _start(ctl, layout)
        name = NAMES[rng.below(len(NAMES))]
        kind = _kind(rng.below(100))
        mode = ctl.mode
        if mode == "setup" and ctl.cursor == 0 and name not in move:
            kind = "press"
            name = "8" if layout == "keypad" else "P1"  # move off the game field instead
        v = ctl.version
        ctl.key(kind, name)
        assert ctl.version != v, "version must grow on every key"
        modes[mode] = modes.get(mode, 0) + 1
        m = ctl.match
        n = len(m.log)
        if m is not last_m:
            if n:
                started += 1
                last_m = m
            last_n = 0
        if n > last_n:
            events += n - last_n
            for j in range(last_n, n):  # the controller's events need no check when applied
                check_event(m.log.event(j))
        last_n = n
        s = m.s
        three = True
        if s is not None:
            assert s["game"] == game, s["game"]  # type: ignore
            three = s["three"]  # type: ignore
        st = check(ctl, three)
        now_over = st is not None and st["winner"] is not None
        if now_over and not was_over:
            over += 1
        was_over = now_over
    if out is not None:
        out.update({"events": events, "over": over, "started": started, "modes": modes})
