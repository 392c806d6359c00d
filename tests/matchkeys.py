# Key presses for whole matches (the long matches of tests/test_app_mp.py): made on a CPython Controller, one key
# at a time from a fixed pattern, each answered as the screen asks (a choice, the A10 question),
# until the match is over. The same keys then drive the app under MicroPython.
from firmware.ui import Controller

# What the referee presses in play, in turn (keypad): made balls, misses, safeties, fouls.
PLAY = {"14.1": "A A B A * A C A B A A 0 C A B A * A A C",
        "9ball": "B A A B C A * A 9 A B 1",
        "8ball": "A B A A C A * A B A A 1",
        "10ball": "B A A 3 B C A * A # 0 A B 1 5 B A"}


def _setup(ctl, wanted):
    # Keys that set the setup rows in wanted ({field: value}) and start: 8 moves down, 6 changes.
    keys = []

    def press(k):
        ctl.key("press", k)
        keys.append(k)

    for field, value in wanted.items():
        while ctl.model()["items"][ctl.cursor][0] != field:
            press("8")
        for _ in range(40):
            if ctl.model()["items"][ctl.cursor][2] == value:
                break
            press("6")
        assert ctl.model()["items"][ctl.cursor][2] == value, (field, value)
    press("5")  # start (from any row)
    press("1")  # player 1 breaks
    return keys


def match_keys(game, setup, undos=0, min_events=0):
    """(keys, controller after them) for a match of game from the setup screen to match over,
    with `undos` undo presses spread over it; the match has at least min_events events."""
    ctl = Controller("keypad", "en", game)
    keys = _setup(ctl, setup)
    play = PLAY[game].split()
    i = 0
    done_undos = 0
    while ctl.match.s["winner"] is None:
        mode = ctl.mode
        if mode == "rackq":
            k = "A"  # A10: send as asked
        elif mode == "choice":
            k = "1"
        elif undos and done_undos < undos and i % 15 == 14 and len(ctl.match.log) > 3:
            k = "D"
            done_undos += 1
        else:
            k = play[i % len(play)]
            if len(ctl.match.log) < min_events and k == "A" and i % 3 == 0:
                k = "B"  # a longer match: more misses until it is long enough
        i += 1
        ctl.key("press", k)
        keys.append(k)
        assert len(keys) < 20000, "the match does not end"
    return keys, ctl
