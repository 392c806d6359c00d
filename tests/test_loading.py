# mp: yes
# What a board keeps loaded (a 64 KB heap holds little code): one game's rules, one language's
# texts, the new-match screen only while it is up, the shape checks only for outside events.
import sys

from firmware.match import Match
from firmware.ui import Controller
from tests.helpers import new


def _loaded(name):
    return "firmware." + name in sys.modules


def _play_a_shot(game):
    m = Match()
    m.apply(new(game), False)
    m.apply({"t": "lag", "breaker": 0}, False)
    m.apply({"t": "shot", "first": 1, "pots": [1], "break_rails": 4, "rail": True}, False)
    return m


def test_only_the_game_played_has_its_rules_loaded():
    games = (("9ball", "rules_9ball"), ("14.1", "rules_141"), ("8ball", "rules_8ball"))
    for game, module in games:
        m = _play_a_shot(game)
        assert m.s["game"] == game and len(m.log) == 3
        assert _loaded(module), module
        assert [g for g, mod in games if _loaded(mod)] == [game]
    m = _play_a_shot("10ball")  # 10-ball's rules with 9-ball's shared steps (T5, T10, T11)
    assert m.s["game"] == "10ball" and len(m.log) == 3 and _loaded("rules_10ball")
    assert [g for g, mod in games if _loaded(mod)] == ["9ball"]
    _play_a_shot("14.1")
    assert not _loaded("rules_10ball") and not _loaded("rules_9ball")


def test_the_new_match_screen_is_let_go_once_the_match_starts():
    c = Controller("keypad", "en", "8ball")
    assert c.model()["items"][0] == ["game", "set", "8ball"]
    assert _loaded("setup")
    c.key("press", "2")  # up from the first row wraps to "start"
    c.key("press", "5")  # ok: the match starts
    assert c.mode == "lag" and not _loaded("setup")
    assert c.model()["items"] == []


def test_the_controller_does_not_load_the_shape_checks():
    # Its events are well-formed by construction (tests/mash.py checks every one); a board
    # loads firmware.events only for events read from outside.
    if sys.implementation.name != "micropython":
        import pytest  # CPython only

        pytest.skip("CPython: other test modules have imported firmware.events already")
    c = Controller("keypad", "en", "9ball")
    for k in ("2", "5", "1", "A", "B", "D"):
        c.key("press", k)
    assert len(c.match.log) == 3 and not _loaded("events")
