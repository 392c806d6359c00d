# Events -> keys -> events under CPython (tests/roundtrip.py): for each of the four games and
# each input (keypad, 4 and 6 buttons), random streams of legal referee actions, each pressed as a referee would;
# the Controller sends exactly the events of the contract, and undo at any point takes them back.
import re
import time
from pathlib import Path

import pytest
from roundtrip import INPUTS, NOT_ON, can, run

from firmware import rules

STREAMS = 500   # per game and input: 1,500 streams a game
ACTIONS = 40    # actions a stream (undo among them)
README = Path(__file__).resolve().parent.parent / "README.md"

# What every game's streams must have done on the keypad (the contract's events), and on the
# buttons (less what NOT_ON lists).
_FOULS = ["foul:" + r for r in rules.CALLED_FOULS if r not in ("G5.2", "G5.3")] + \
    ["foul:G5.2", "foul:G5.3", "foul:G3", "off:cue"]
_WANT = {
    "14.1": ["rack:S10", "rack:C-S4a", "rack:C-S4b", "rack:C-S4c", "rack:C-S4d",
             "rack:C-S4dh", "rack:S11", "foul:S4", "opt:S4:accept", "opt:S4:rerack",
             "opt:S4k:accept", "opt:S4k:rerack", "rack:S4"],
    "8ball": ["foul:E7", "foul:E3", "end:E11", "end:E12.1", "end:E12.2", "end:E12.5",
              "end:E12.6", "opt:E3:accept", "opt:E3:kitchen", "opt:E3:rerack",
              "opt:E3s:kitchen", "opt:E3s:rerack", "opt:E4:spot8", "opt:E4:rerack",
              "opt:E4s:spot8", "opt:E4s:rerack", "opt:E3:rerack_other",
              "opt:E3s:rerack_other"],
    "9ball": ["foul:N4", "foul:N5", "end:N2", "end:C-N1", "push", "opt:N7:shoot",
              "opt:N7:pass"],
    "10ball": ["foul:T3", "foul:T10", "end:T2", "end:O6", "end:T11", "push", "opt:T5:shoot",
               "opt:T5:pass", "opt:T7:shoot", "opt:T7:pass"],
}
# (the buttons make one ball a shot, the legal one: no 8 on the break, no 8 with a foul or too
# early, no whole rack at once; no A6, no named breaker)
_KEYPAD_ONLY = {"off:ball", "off:both", "foul:E7", "foul:N5", "foul:T10", "opt:E3:rerack_other",
                "opt:E3s:rerack_other", "rack:C-S4a", "opt:S4k:accept", "opt:S4k:rerack",
                "end:E12.1", "end:E12.2", "end:E12.5", "opt:E4:spot8", "opt:E4:rerack",
                "opt:E4s:spot8", "opt:E4s:rerack"}


@pytest.mark.parametrize("game", ["14.1", "8ball", "9ball", "10ball"])
def test_every_event_round_trips_through_the_keys(game):
    t0 = time.perf_counter()
    lines = []
    for n, inp in enumerate(INPUTS):
        r = run(game, inp, STREAMS, ACTIONS, 11 + 7 * n + len(game))
        assert r["streams"] == STREAMS
        seen = r["seen"]
        want = _FOULS + _WANT[game]
        if inp == "keypad":
            want = want + ["off:ball", "off:both"]
        else:
            want = [w for w in want if w not in _KEYPAD_ONLY]
        missing = [w for w in want if w not in seen]
        assert not missing, (inp, missing)
        assert r["kinds"].get("undo", 0) > STREAMS and r["kinds"].get("lag", 0) >= STREAMS
        if game != "14.1":
            assert r["kinds"].get("won", 0) > 10
        if inp == "keypad":
            assert r["kinds"].get("hit", 0) > 100
        if game == "14.1" and inp == "keypad":
            assert r["kinds"].get("A6", 0) > 10
        if not can("safety", inp):
            assert "safe" not in r["kinds"]
        lines.append("%s %s: %d streams, %d events, %d actions"
                     % (game, inp, r["streams"], r["events"], r["actions"]))
    print("\n".join(lines) + "\n%.1f s" % (time.perf_counter() - t0))


def test_readme_lists_what_the_buttons_cant_enter():
    text = README.read_text(encoding="utf-8")
    part = text[text.index("What the buttons can't enter"):]
    part = part[:part.index("\n\n", part.index("| kind |"))]
    rows = re.findall(r"^\| `(\w+)` \| ([\d, ]+) \|", part, re.M)
    listed = {k: tuple("b" + x.strip() for x in ins.split(",")) for k, ins in rows}
    assert listed == dict(NOT_ON)


def test_streams_round_trip_on_the_board_like_vm():
    """The same streams' code under MicroPython (32-bit, its own dict and str): 20 streams a
    game and input. The heap is 128 KB, not the board's 64: the Controller and its match are
    the board's, but the test's second match (the events expected), its streams and its code
    take the rest, and at 92 KB a 10-ball stream's journal line finds no room. The board's own
    heap is judged by test_app_frozen and the mash rig, not here."""
    from host_tools import mpy

    res = mpy.run_module("tests.mp_roundtrip", ["20", "30"], heap="128K")
    assert res.returncode == 0 and res.fits, res.stdout + res.stderr
    lines = [x for x in res.stdout.splitlines() if x.startswith("roundtrip ")]
    assert len(lines) == 12 and res.stdout.rstrip().endswith("roundtrip: ok"), res.stdout
    for x in lines:
        n, ev = re.findall(r"(\d+) streams, (\d+) events", x)[0]
        assert int(n) == 20 and int(ev) > 20 * 15, x
    print("\n".join(lines))
