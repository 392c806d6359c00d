# Random key mashing through the Controller under CPython: 120,000 presses per game, invariants after each.
import time

import pytest
from mash import mash

PER_LAYOUT = 60_000  # per game and layout: 120,000 presses per game


@pytest.mark.parametrize("game", ["14.1", "8ball", "9ball"])
def test_mash_never_raises_and_keeps_invariants(game):
    t0 = time.perf_counter()
    total = 0
    for layout, seed in (("keypad", 1), ("buttons", 2)):
        r = mash(game, layout, PER_LAYOUT, seed + 10 * len(game))
        total += sum(r["modes"].values())
        # the mashing reached play and got events accepted, not only the setup screens
        assert r["started"] >= 1 and r["events"] > 100, r
        assert r["modes"].get("play", 0) > PER_LAYOUT // 4, r
    assert total >= 100_000
    print("%s: %d presses in %.1f s" % (game, total, time.perf_counter() - t0))


def test_mash_in_turkish_too():
    r = mash("8ball", "keypad", 5_000, 99, lang="tr")
    assert r["events"] > 10, r
