# mp: yes
# Random key mashing through the Controller under MicroPython: 10,000 presses per game (LCG), invariants after each.
from tests.mash import mash_steps

PER_LAYOUT = 5000  # per game and layout: 10,000 presses per game
EVERY = 1  # presses per runner step (the test VM collects garbage between steps only)
FRESH = 250  # a new controller every so many presses: random matches stay board-sized


def _steps(game, seed):
    for layout in ("keypad", "buttons"):
        r = {}
        for _ in mash_steps(game, layout, PER_LAYOUT, seed, "en", EVERY, r, FRESH):
            yield
        assert r["started"] >= 1 and r["events"] > 20, r
        seed += 1


def _run(gen):
    for _ in gen:
        pass


def steps_mash_141():
    return _steps("14.1", 7)


def steps_mash_8ball():
    return _steps("8ball", 17)


def steps_mash_9ball():
    return _steps("9ball", 27)


def test_mash_141():
    _run(steps_mash_141())


def test_mash_8ball():
    _run(steps_mash_8ball())


def test_mash_9ball():
    _run(steps_mash_9ball())
