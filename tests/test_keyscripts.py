# mp: yes
# Key-press scripts for whole matches give the same final state as the equivalent event files.
# In steps (one key or event each): under MicroPython garbage is collected between steps.
from firmware.match import Match
from firmware.ui import Controller


def run_keys_steps(layout, game, keys, out, refusals=0):
    """Press keys on a new Controller, yielding after each; out gets the Controller. Exactly
    `refusals` of the keys are refused."""
    c = Controller(layout, game=game)
    n = 0
    for k in keys:
        kind = "press"
        if k.startswith("long:"):
            kind, k = "long", k[5:]
        c.key(kind, k)
        if c.msg is not None and c.msg[0] == "refused":
            n += 1
            assert n <= refusals, (k, c.msg)
        yield
    assert n == refusals
    out.append(c)


def check_steps(c, events):
    """The Controller's match ended in the state the events give (played one a step)."""
    m = Match()
    for ev in events:
        m.apply(ev)  # every event must be accepted
        yield
    want = m.state()
    del m
    assert c.match.state() == want, (c.match.state(), want)
    yield
    assert c.match.state()["winner"] is not None


def _drain(steps):
    for _ in steps:
        pass


def steps_straight_pool_match_by_keypad():
    keys = ["8", "6", "8", "6", "8"] + ["4"] * 5 + ["8"] + ["4"] * 5 + \
        ["8", "8", "8", "5",                     # setup: Ali v Ayşe to 25 (a name step skips
                                                 # the other player's name), start
         "2",                                    # lag: Ayşe breaks
         "B",                                    # legal dry break (S4 (2))
         "A",                                    # Ali makes one
         "3", "5", "A",                          # two balls, the 3 called
         "B", "D", "B",                          # a miss, undone, entered again
         "0", "C",                               # Ayşe scratches: -1, BIH kitchen
         "*",                                    # Ali plays safe
         "C",                                    # Ayşe fouls again: warning
         "1", "2", "3", "4", "5", "6", "7", "8", "9", "#", "0", "A",   # ten balls
         "1", "A", "A",                          # the 14th: S10, nothing in the way
         "1", "2", "3", "4", "5", "6", "7", "8", "9", "#", "0", "#", "1", "A"]
    out = []
    yield from run_keys_steps("keypad", "14.1", keys, out)
    c = out[0]
    t = {"t": "shot", "first": 1, "rail": True}
    events = [
        {"t": "new", "game": "14.1", "players": ["Ali", "Ayşe"], "target": [25, 25]},
        {"t": "lag", "breaker": 1},
        {"t": "shot", "first": 1, "rail": True, "break_rails": 2, "cue_rail": True},
        {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True},
        {"t": "shot", "first": 3, "pots": [3, 5], "call": 3, "made": True, "rail": True},
        t,
        {"t": "shot", "first": 1, "pots": [0], "rail": True},
        {"t": "shot", "first": 1, "call": "safety", "rail": True},
        {"t": "shot", "first": None, "rail": True},
        {"t": "shot", "first": 1, "pots": list(range(1, 11)), "call": 1, "made": True,
         "rail": True},
        {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True},
        {"t": "shot", "first": 1, "pots": list(range(1, 12)), "call": 1, "made": True,
         "rail": True},
    ]
    yield from check_steps(c, events)
    st = c.match.state()
    assert st["winner"] == 0 and st["players"][0]["score"] == 25
    assert st["players"][1]["score"] == -2 and st["rack"] == 2


def test_straight_pool_match_by_keypad():
    _drain(steps_straight_pool_match_by_keypad())


def steps_eight_ball_match_by_keypad():
    keys = ["8", "8", "8"] + ["4"] * 4 + ["8"] + ["4"] * 4 + ["8"] * 4 + ["5",
            "1",                                 # lag: P1 breaks
            "2", "#", "3", "A",                  # 2 and 13 down on the break
            "A", "1",                            # the 1 called and made: solids (E6)
            "4", "D", "B",                       # an entry cleared, then a miss
            "0", "C",                            # P2 scratches: BIH for P1
            "3", "4", "5", "6", "7", "A",        # the rest of the solids
            "A"]                                 # the 8, called: E11
    out = []
    yield from run_keys_steps("keypad", "8ball", keys, out)
    c = out[0]
    events = [
        {"t": "new", "game": "8ball", "players": ["P1", "P2"], "race": [1, 1]},
        {"t": "lag", "breaker": 0},
        {"t": "shot", "first": 1, "pots": [2, 13], "break_rails": 4, "rail": True},
        {"t": "shot", "first": 1, "pots": [1], "call": 1, "made": True, "rail": True},
        {"t": "shot", "first": 3, "rail": True},
        {"t": "shot", "first": 9, "pots": [0], "rail": True},
        {"t": "shot", "first": 3, "pots": [3, 4, 5, 6, 7], "call": 3, "made": True,
         "rail": True},
        {"t": "shot", "first": 8, "pots": [8], "call": 8, "made": True, "rail": True},
    ]
    yield from check_steps(c, events)
    assert c.match.state()["groups"] == ["solids", "stripes"]


def test_eight_ball_match_by_keypad():
    _drain(steps_eight_ball_match_by_keypad())


def steps_nine_ball_match_by_buttons():
    keys = ["P1"] * 3 + ["P2"] * 12 + ["P1"] + ["P2"] * 12 + ["P1"] * 5 + ["OK",
            "P1",                                # lag: P1 breaks
            "P1",                                # the 1 made on the break
            "MISS",                              # P1 misses the 2
            "FOUL",                              # P2 fouls: BIH for P1
            "long:P1",                           # P1 makes the 9: rack 1
            "P2",                                # P2's button on P1's break: a dry break
            "long:UNDO", "OK",                   # menu: P2 pushes out
            "FOUL", "P1",                        # P1 passes it back
            "long:P2", "UNDO", "long:P2",        # P2 makes the 9 (undone once): rack 2
            "P2", "long:P2"]                     # P2 breaks, makes the 1, then the 9
    out = []
    yield from run_keys_steps("buttons", "9ball", keys, out)
    c = out[0]
    events = [
        {"t": "new", "game": "9ball", "players": ["P1", "P2"], "race": [2, 2]},
        {"t": "lag", "breaker": 0},
        {"t": "shot", "first": 1, "pots": [1], "break_rails": 4, "rail": True},
        {"t": "shot", "first": 2, "rail": True},
        {"t": "shot", "first": None, "rail": True},
        {"t": "shot", "first": 2, "pots": [9], "rail": True},
        {"t": "shot", "first": 1, "break_rails": 4, "rail": True},
        {"t": "shot", "call": "push", "first": None},
        {"t": "choose", "option": "pass"},
        {"t": "shot", "first": 1, "pots": [9], "rail": True},
        {"t": "shot", "first": 1, "pots": [1], "break_rails": 4, "rail": True},
        {"t": "shot", "first": 2, "pots": [9], "rail": True},
    ]
    yield from check_steps(c, events)
    assert c.match.state()["winner"] == 1


def test_nine_ball_match_by_buttons():
    _drain(steps_nine_ball_match_by_buttons())


def steps_eight_ball_other_group_and_first_hit_by_keypad():
    # C-E2: the opponent's ball pocketed alone is a legal shot; "#A" names the ball hit first (E7).
    keys = ["8", "8", "8"] + ["4"] * 4 + ["8"] + ["4"] * 4 + ["8"] * 4 + ["5",
            "2",                                 # lag: P2 breaks
            "3", "#", "1", "A",                  # 3 and 11 down on the break
            "2", "A",                            # the 2 called and made: P2 solids
            "#", "2", "B",                       # the 12 down, not as called: no foul (C-E2)
            "4", "#", "A", "B",                  # P1 hits the 4 first: foul E7, BIH for P2
            "1", "4", "5", "6", "7", "A",        # the rest of the solids
            "8", "A"]                            # the 8, called: E11
    out = []
    yield from run_keys_steps("keypad", "8ball", keys, out)
    c = out[0]
    events = [
        {"t": "new", "game": "8ball", "players": ["P1", "P2"], "race": [1, 1]},
        {"t": "lag", "breaker": 1},
        {"t": "shot", "first": 1, "pots": [3, 11], "break_rails": 4, "rail": True},
        {"t": "shot", "first": 2, "pots": [2], "call": 2, "made": True, "rail": True},
        {"t": "shot", "first": 1, "pots": [12], "rail": True},
        {"t": "shot", "first": 4, "rail": True},
        {"t": "shot", "first": 1, "pots": [1, 4, 5, 6, 7], "call": 1, "made": True,
         "rail": True},
        {"t": "shot", "first": 8, "pots": [8], "call": 8, "made": True, "rail": True},
    ]
    yield from check_steps(c, events)
    assert c.match.state()["winner"] == 1


def test_eight_ball_other_group_and_first_hit_by_keypad():
    _drain(steps_eight_ball_other_group_and_first_hit_by_keypad())


def steps_straight_pool_scratch_on_a_legal_break_by_keypad():
    # S4, C-S2: "0 C" on the break is a legal break with a scratch (-1, BIH kitchen, no choice).
    keys = ["8", "8", "8"] + ["4"] * 5 + ["8"] + ["4"] * 5 + ["8", "8", "8", "5",  # to 25
            "1",                                 # lag: P1 breaks
            "0", "C",                            # a legal break, cue ball in: -1
            "C",                                 # P2 fouls: -1
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "#", "0", "#", "1", "#", "2",
            "#", "3", "#", "4", "A", "A",        # P1 makes 14: S10, nothing in the way
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "#", "0", "#", "1", "#", "2", "A"]
    out = []
    yield from run_keys_steps("keypad", "14.1", keys, out)
    c = out[0]
    events = [
        {"t": "new", "game": "14.1", "players": ["P1", "P2"], "target": [25, 25]},
        {"t": "lag", "breaker": 0},
        {"t": "shot", "first": 1, "pots": [0], "break_rails": 2, "cue_rail": True, "rail": True},
        {"t": "shot", "first": None, "rail": True},
        {"t": "shot", "first": 1, "pots": list(range(1, 15)), "call": 1, "made": True,
         "rail": True},
        {"t": "shot", "first": 1, "pots": list(range(1, 13)), "call": 1, "made": True,
         "rail": True},
    ]
    yield from check_steps(c, events)
    st = c.match.state()
    assert st["winner"] == 0 and st["players"][0]["score"] == 25
    assert st["players"][1]["score"] == -1 and st["rack"] == 2


def test_straight_pool_scratch_on_a_legal_break_by_keypad():
    _drain(steps_straight_pool_scratch_on_a_legal_break_by_keypad())


def steps_eight_ball_long_press_undone_by_buttons():
    # One UNDO takes back one action: a long press that sent a miss and the 8.
    keys = ["P1"] * 3 + ["P2"] * 11 + ["P1"] + ["P2"] * 11 + ["OK",   # race to 1, start
            "P1",                                # lag: P1 breaks
            "P2",                                # P2's button on P1's break: a dry break
            "P2", "P2",                          # P2 made a ball: which group? solids (E6)
            "P2", "P2", "P2", "P2", "P2", "P2",  # the other six solids
            "P1",                                # P2 misses the 8
            "long:P1",                           # P1's stripes are on the table: refused
            "long:P2", "UNDO",                   # "P2 won the rack" by mistake: one UNDO
            "MISS",                              # P1 misses
            "long:P2"]                           # P2 makes the 8
    out = []
    yield from run_keys_steps("buttons", "8ball", keys, out, refusals=1)
    c = out[0]
    events = [
        {"t": "new", "game": "8ball", "players": ["P1", "P2"], "race": [1, 1]},
        {"t": "lag", "breaker": 0},
        {"t": "shot", "first": 1, "break_rails": 4, "rail": True}] + [
        {"t": "shot", "first": b, "pots": [b], "call": b, "made": True, "rail": True}
        for b in range(1, 8)] + [
        {"t": "shot", "first": 8, "rail": True},
        {"t": "shot", "first": 9, "rail": True},
        {"t": "shot", "first": 8, "pots": [8], "call": 8, "made": True, "rail": True},
    ]
    yield from check_steps(c, events)
    assert c.match.state()["winner"] == 1 and len(c.match.log) == len(events)
    assert c.match.state()["players"][1]["high_run"] == 7   # the balls shot, no more


def test_eight_ball_long_press_undone_by_buttons():
    _drain(steps_eight_ball_long_press_undone_by_buttons())
