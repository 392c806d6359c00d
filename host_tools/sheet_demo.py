# Two whole matches played key by key on the real Controller into a board's store folder.
"""python -m host_tools.sheet_demo DIR

Plays a 14.1 match on the referee keypad (Mehmet v Zeynep, to 40) and a 9-ball match on the
six big buttons (Elif v Can, race to 4) through firmware.ui.Controller with a firmware.store.Store
on DIR, as a board does: the keys make the events and the journal on "flash" (DIR/hist/1 and
DIR/match). docs/scoresheets.md shows the sheets host_tools.scoresheet makes of them.
"""

import os

from firmware.store import Store
from firmware.table import Table
from firmware.ui import Controller

# 14.1 on the keypad: setup (Mehmet v Zeynep, targets 40), lag, then one list of keys per inning.
# A made, B miss, * safety, C foul, 0 C scratch, digits then A several balls in one shot, D undo.
KEYS_141 = (["8", "4", "4", "8", "4", "4", "8"] + ["4"] * 4 + ["8"] + ["4"] * 4 +
            ["8", "8", "8", "5", "1"] + [
    "B",                                  # Mehmet: a legal break, nothing in
    "A", "A", "A", "B",                   # Zeynep: 3, then a miss
    "A", "A", "A", "A", "A", "*",         # Mehmet: 5 and a safety
    "*",                                  # Zeynep: a safety only
    "C",                                  # Mehmet: a foul, -1
    "A", "A", "A", "A", "B",              # Zeynep: 4
    "A", "A", "A", "A", "A", "A", "A", "A", "B",  # Mehmet: 8 across the re-rack (S10)
    "0", "C",                             # Zeynep: a scratch, -1
    "1", "2", "A", "A", "B", "D", "A", "A", "B",  # Mehmet: two on one shot, a miss undone, 3 more
    "A", "A", "A", "A", "A", "A", "A", "*",   # Zeynep: 7 and a safety
    "C",                                  # Mehmet: a foul
    "B",                                  # Zeynep: a miss
    "C",                                  # Mehmet: a second foul in a row (warning)
    "A", "A", "A", "A", "A", "A", "A", "A", "A", "A", "B",  # Zeynep: 10
    "A", "A", "A", "A", "A", "A", "A", "A", "A", "A", "A", "A", "B",  # Mehmet: 12
    "A", "A", "A", "A", "A", "A", "A", "A", "*",  # Zeynep: 8 and a safety
] + ["A"] * 13)                           # Mehmet: 13 and out (40)

# 9-ball on the buttons: P1/P2 made (the shooter's) or miss (the other's), FOUL, long P1/P2 the
# 9 made, long UNDO then OK a push out; setup: P1 next row, P2 next value, OK start (the names
# of the 14.1 match, the last used, come first in the list).
KEYS_9 = (["P1"] + ["P2"] * 8 + ["P1"] + ["P2"] * 6 + ["P1"] + ["P2"] * 14 + ["P1"] +
          ["P2"] * 14 + ["P1"] * 5 + ["OK", "P1"] + [
    "P1", "P1", "P2",                     # rack 1: Elif makes one on the break, one more, misses
    "P2", "P2", "FOUL",                   # Can: two, then a foul
    "long:P1",                            # Elif: the 9 (N2)
    "P2",                                 # rack 2: Elif's dry break
    "long:UNDO", "OK",                    # Can pushes out
    "P1",                                 # Elif shoots it
    "P1", "P2",                           # Elif: one, then a miss
    "long:P2",                            # Can: the 9
    "P2", "P2", "P2", "long:P2",          # rack 3: Can breaks and runs
    "P1",                                 # rack 4: Can's dry break
    "FOUL", "FOUL", "FOUL",               # Elif, Can, Elif foul
    "P2", "P1",                           # Can: one, then a miss
    "FOUL",                               # Elif's third foul in a row: the rack to Can (N11)
    "P2", "P1",                           # rack 5: Can makes one on the break, then misses
    "long:P1",                            # Elif: the 9
    "P1", "long:P1",                      # rack 6: Elif breaks and runs
    "P2",                                 # rack 7: Elif's dry break
    "P2", "P2", "P1",                     # Can: two, a miss
    "P1", "P2",                           # Elif: one, a miss
    "long:P2",                            # Can: the 9, 4-3
])


def play(ctl, keys):
    for k in keys:
        kind = "press"
        if k.startswith("long:"):
            kind, k = "long", k[5:]
        ctl.key(kind, k)
        if ctl.msg and ctl.msg[0] in ("refused", "bad_key"):
            raise RuntimeError("key %s: %r" % (k, ctl.msg))
        if ctl.mode == "rackq":  # the 14th ball of a 14.1 rack: nothing in the way (A10)
            ctl.key("press", "A")
    return ctl


def make_store(root):
    """Both matches into the store folder root (made if needed): hist/1 is the 14.1 match,
    match/ the 9-ball one (the board archives a match when the next one starts)."""
    os.makedirs(root, exist_ok=True)
    st = Store(root)
    c = play(Controller("keypad", game="14.1", table=Table(st, "14.1")), KEYS_141)
    assert c.match.state()["winner"] is not None  # pyright: ignore
    c.table.close()
    c = play(Controller("buttons", game="9ball", table=Table(st, "9ball")), KEYS_9)
    assert c.match.state()["winner"] is not None  # pyright: ignore
    c.table.close()
    return root


def main(argv=None):
    from host_tools import cli

    ap = cli.parser("host_tools.sheet_demo", "Play two whole matches key by key on the real "
                    "Controller into a board's store folder (docs/scoresheets.md).")
    ap.add_argument("dir", metavar="DIR", help="the store folder (its match/ and hist/)")
    folder = ap.parse_args(argv).dir
    make_store(folder)
    print("matches in %s" % folder)
    return 0


if __name__ == "__main__":
    from host_tools import cli

    cli.run(main)
