# mp: yes
# Match options O1-O5 (RULES.md): race and target lengths, break order, three-foul rule, 9 on the break.
from firmware import events
from tests.helpers import (
    Match,
    break_141_ok,
    break_dry,
    lag,
    miss,
    new,
    play,
    player,
    pot141,
    scratch,
    shot,
)


def _win8_a(m):
    """8-ball rack won by A: whoever breaks, B ends up pocketing the 8 on an open table (E12.5)."""
    if m.state()["shooter"] == 0:
        m.apply(break_dry())  # A breaks, B to shoot
    else:
        m.apply(break_dry())  # B breaks, A to shoot
        m.apply(miss(1))  # A misses, B to shoot
    m.apply(shot(first=2, pots=[8], rail=True))


def _win8_b(m):
    """8-ball rack won by B (A pockets the 8 illegally)."""
    if m.state()["shooter"] == 1:
        m.apply(break_dry())
    else:
        m.apply(break_dry())
        m.apply(miss(1))
    m.apply(shot(first=2, pots=[8], rail=True))


def _win9(m, w):
    """9-ball rack won by w: the breaker makes the 9 on the break (C-N1), or the other one
    makes it after a dry break."""
    if m.state()["shooter"] == w:
        m.apply(shot(first=1, pots=[9], break_rails=4, rail=True))
    else:
        m.apply(break_dry())
        m.apply(shot(first=1, pots=[9], rail=True))


# ---------------------------------------------------------------- O1


def test_O1_race_default_five():
    m = play(new("9ball"), lag(0))
    for _ in range(4):
        _win9(m, 0)
    assert m.state()["winner"] is None and player(m, 0)["racks"] == 4
    _win9(m, 0)
    assert m.state()["winner"] == 0 and player(m, 0)["racks"] == 5


def test_O1_race_handicap():
    m = play(new("9ball", race=[3, 1]), lag(0))
    _win9(m, 0)
    assert m.state()["winner"] is None
    _win9(m, 1)  # B needs only one rack
    assert m.state()["winner"] == 1 and m.state()["shooter"] is None


def test_O1_race_8ball():
    m = play(new("8ball", race=[2, 2]), lag(0))
    _win8_a(m)
    assert m.state()["winner"] is None
    _win8_a(m)
    assert m.state()["winner"] == 0


def test_O1_target_default_100_in_14_1():
    m = play(new("14.1"), lag(0), shot(first=1, call=1, pots=[1], made=True, rail=True))
    m.apply(pot141(13))  # 14: S10
    for _ in range(6):
        m.apply(pot141(14))  # +84 = 98
    m.apply(pot141(1))
    assert player(m, 0)["score"] == 99 and m.state()["winner"] is None
    m.apply(pot141(1))
    assert m.state()["winner"] == 0


def test_O1_target_per_player():
    m = play(new("14.1", target=[2, 20]), lag(1), break_141_ok())
    m.apply(pot141(2))
    assert m.state()["winner"] == 0


# ---------------------------------------------------------------- O2


def test_O2_8ball_default_alternate():
    m = play(new("8ball"), lag(0))
    _win8_a(m)
    assert m.state()["rack"] == 2 and m.state()["shooter"] == 1  # B breaks rack 2
    _win8_a(m)  # A wins again
    assert m.state()["rack"] == 3 and m.state()["shooter"] == 0  # A breaks rack 3


def test_O2_8ball_winner_breaks():
    m = play(new("8ball", **{"break": "winner"}), lag(0))
    _win8_a(m)
    assert m.state()["shooter"] == 0 and m.state()["breaking"] is True
    _win8_b(m)
    assert m.state()["shooter"] == 1


def test_O2_8ball_loser_breaks():
    m = play(new("8ball", **{"break": "loser"}), lag(0))
    _win8_b(m)
    assert m.state()["shooter"] == 0 and m.state()["breaking"] is True
    _win8_b(m)
    assert m.state()["shooter"] == 0


def test_O2_9ball_default_winner_breaks():
    m = play(new("9ball"), lag(0))
    _win9(m, 0)
    assert m.state()["rack"] == 2 and m.state()["shooter"] == 0
    _win9(m, 1)
    assert m.state()["rack"] == 3 and m.state()["shooter"] == 1


def test_O2_9ball_alternate():
    m = play(new("9ball", **{"break": "alternate"}), lag(0))
    _win9(m, 0)
    assert m.state()["shooter"] == 1
    _win9(m, 1)
    assert m.state()["shooter"] == 0


def test_O2_9ball_loser_breaks():
    m = play(new("9ball", **{"break": "loser"}), lag(0))
    _win9(m, 0)
    assert m.state()["shooter"] == 1
    _win9(m, 0)
    assert m.state()["shooter"] == 1


# ---------------------------------------------------------------- O3


def test_O3_on_by_default():
    m = play(
        new("9ball"), lag(0), break_dry(), scratch(1), miss(1), scratch(1), miss(1), scratch(1)
    )
    assert player(m, 0)["racks"] == 1 and m.state()["rack"] == 2  # N11


def test_O3_off_no_S11_in_14_1():
    m = play(new("14.1", three_foul=False), lag(0), break_141_ok())
    for _ in range(3):
        m.apply(shot(first=2, rail=True, foul="G5.4"))  # B
        m.apply(miss(2))  # A
    st = m.state()
    assert player(m, 1)["score"] == -3 and player(m, 1)["fouls"] == 3
    assert st["rack"] == 1 and st["breaking"] is False


def test_O3_off_no_E12_6_in_8ball():
    m = play(new("8ball", three_foul=False), lag(0), break_dry())
    for _ in range(3):
        m.apply(scratch(1))  # B
        m.apply(miss(1))  # A
    st = m.state()
    assert player(m, 0)["racks"] == 0 and st["rack"] == 1 and player(m, 1)["fouls"] == 3


def test_O3_off_no_N11_in_9ball():
    m = play(new("9ball", three_foul=False), lag(0), break_dry())
    for _ in range(3):
        m.apply(scratch(1))  # B
        m.apply(miss(1))  # A
    st = m.state()
    assert player(m, 0)["racks"] == 0 and st["rack"] == 1 and player(m, 1)["fouls"] == 3


# ---------------------------------------------------------------- O4


def test_O4_nine_on_break_wins_by_default():
    m = play(new("9ball"), lag(0), shot(first=1, pots=[9], break_rails=4, rail=True))
    assert player(m, 0)["racks"] == 1 and m.state()["rack"] == 2


def test_O4_nine_on_break_win_setting():
    m = play(
        new("9ball", nine_on_break="win"),
        lag(0),
        shot(first=1, pots=[3, 9], break_rails=1, rail=True),
    )
    assert player(m, 0)["racks"] == 1


def test_O4_nine_on_break_spot():
    m = play(
        new("9ball", nine_on_break="spot"),
        lag(0),
        shot(first=1, pots=[3, 9], break_rails=1, rail=True),
    )
    st = m.state()
    assert player(m, 0)["racks"] == 0 and st["rack"] == 1
    assert 9 in st["on_table"] and 3 not in st["on_table"]
    assert st["shooter"] == 0 and st["breaking"] is False


# ---------------------------------------------------------------- O5


def test_O5_no_referee_setting_in_the_event_contract():
    # The new event (docs/contracts.md) has no referee field: the core cannot switch G5.4 by setting.
    m = Match()
    try:
        m.apply({"t": "new", "game": "9ball", "players": ["A", "B"], "referee": False})
    except events.BadEvent:
        pass
    else:
        raise AssertionError("a referee setting was accepted")
    assert m.s is None


def test_O5_touch_foul_counts_when_called():
    # With a referee every touch is a foul; without one only some are. Either way the
    # referee (or the players) enter it as G5.4 and the scoreboard applies the foul.
    m = play(new("9ball"), lag(0), break_dry(), shot(first=1, rail=True, foul="G5.4"))
    assert player(m, 1)["fouls"] == 1 and m.state()["bih"] == "table"
    m = play(new("9ball"), lag(0), break_dry(), shot(first=1, rail=True))  # not called
    assert player(m, 1)["fouls"] == 0 and m.state()["bih"] is None
