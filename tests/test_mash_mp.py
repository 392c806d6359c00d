# mp: yes
# Random key mashing through the Controller under MicroPython: 10,000 presses per game (LCG), invariants after each.
from tests.mash import mash

PER_LAYOUT = 5000  # per game and layout: 10,000 presses per game


def _game(game, seed):
    for layout in ("keypad", "buttons"):
        r = mash(game, layout, PER_LAYOUT, seed)
        assert r["started"] >= 1 and r["events"] > 20, r
        seed += 1


def test_mash_141():
    _game("14.1", 7)


def test_mash_8ball():
    _game("8ball", 17)


def test_mash_9ball():
    _game("9ball", 27)
