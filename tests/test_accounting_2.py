# mp: yes
# Scoreboard accounting A5-A11 (RULES.md): bad breaks, choices, made, re-rack positions, lag, end.
from tests.helpers import (
    bad_break_141,
    break_141_ok,
    break_dry,
    choose,
    fouls,
    lag,
    new,
    opts,
    play,
    player,
    pot141,
    refused,
    shot,
)

# ---------------------------------------------------------------- A5, A6


def test_A5_14_1_breaking_violation_is_not_a_foul():
    m = play(new("14.1"), lag(0), bad_break_141())
    assert fouls(m) == (0, 0)


def test_A5_8ball_break_short_of_four_rails_is_a_foul():
    m = play(new("8ball"), lag(0), shot(first=1, break_rails=3, rail=True))
    assert fouls(m) == (1, 0) and m.state()["pending"]["by"] == 1
    m = play(new("8ball"), lag(0), shot(first=1, break_rails=4, rail=True))
    assert fouls(m) == (0, 0) and m.state()["pending"] is None


def test_A5_9ball_break_not_hitting_the_1_is_a_foul():
    m = play(new("9ball"), lag(0), shot(first=2, pots=[3], break_rails=4, rail=True))
    assert fouls(m) == (1, 0) and m.state()["bih"] == "table" and m.state()["shooter"] == 1


def test_A5_break_with_no_contact_is_a_foul():
    m = play(new("8ball"), lag(0), shot(first=None, break_rails=4, rail=True))
    assert fouls(m) == (1, 0)
    m = play(new("9ball"), lag(0), shot(first=None, break_rails=4, rail=True))
    assert fouls(m) == (1, 0)


def test_A6_14_1_violation_with_scratch():
    m = play(new("14.1"), lag(0), shot(first=1, pots=[0], break_rails=1, rail=True))
    assert player(m, 0)["score"] == -2 and opts(m) == ["accept", "rerack"]
    m.apply(choose("accept"))
    assert m.state()["bih"] == "kitchen" and m.state()["shooter"] == 1
    m = play(
        new("14.1"), lag(0), shot(first=1, pots=[0], break_rails=1, rail=True), choose("rerack")
    )
    st = m.state()
    assert st["shooter"] == 0 and st["breaking"] is True and player(m, 0)["score"] == -2


# ---------------------------------------------------------------- A7 8-ball choices


def _bad8():
    return shot(first=1, break_rails=2, rail=True)


def test_A7_illegal_break_options():
    m = play(new("8ball"), lag(0), _bad8())
    assert m.state()["pending"]["by"] == 1 and opts(m) == ["accept", "kitchen", "rerack"]
    m.apply(choose("accept"))
    assert m.state()["shooter"] == 1 and m.state()["bih"] is None
    m = play(new("8ball"), lag(0), _bad8(), choose("kitchen"))
    assert m.state()["shooter"] == 1 and m.state()["bih"] == "kitchen"


def test_A7_rerack_chooser_names_the_breaker_or_breaks():
    m = play(new("8ball"), lag(0), _bad8(), choose("rerack", breaker=0))
    st = m.state()
    assert st["shooter"] == 0 and st["breaking"] is True and len(st["on_table"]) == 15
    m = play(new("8ball"), lag(0), _bad8(), choose("rerack"))
    assert m.state()["shooter"] == 1 and m.state()["breaking"] is True


def test_A7_scratch_on_the_break_options():
    m = play(new("8ball"), lag(0), shot(first=1, pots=[3, 0], rail=True))
    assert m.state()["pending"]["by"] == 1 and opts(m) == ["kitchen", "rerack"]
    assert refused(m, choose("accept")) == "E3"
    m.apply(choose("kitchen"))
    assert m.state()["bih"] == "kitchen" and m.state()["shooter"] == 1
    assert 3 not in m.state()["on_table"]


def test_A7_8_on_the_break_breaker_chooses():
    m = play(new("8ball"), lag(0), shot(first=1, pots=[8], break_rails=2, rail=True))
    assert m.state()["pending"]["by"] == 0 and opts(m) == ["rerack", "spot8"]
    m.apply(choose("spot8"))
    st = m.state()
    assert st["shooter"] == 0 and st["bih"] is None and 8 in st["on_table"]
    m = play(
        new("8ball"), lag(0), shot(first=1, pots=[8], break_rails=2, rail=True), choose("rerack")
    )
    st = m.state()
    assert st["shooter"] == 0 and st["breaking"] is True and len(st["on_table"]) == 15


def test_A7_8_and_scratch_on_the_break_opponent_chooses():
    m = play(new("8ball"), lag(0), shot(first=1, pots=[8, 0], rail=True))
    assert m.state()["pending"]["by"] == 1 and opts(m) == ["rerack", "spot8"]
    m.apply(choose("spot8"))
    st = m.state()
    assert st["shooter"] == 1 and st["bih"] == "kitchen" and 8 in st["on_table"]
    m = play(new("8ball"), lag(0), shot(first=1, pots=[8, 0], rail=True), choose("rerack"))
    assert m.state()["shooter"] == 1 and m.state()["breaking"] is True


def test_A7_8_off_the_table_on_the_break_loses_the_rack():
    m = play(new("8ball"), lag(0), shot(first=1, off=[8], break_rails=4, rail=True))
    assert player(m, 1)["racks"] == 1 and m.state()["rack"] == 2


# ---------------------------------------------------------------- A8 made


def test_A8_14_1_made_false_spots_the_balls():
    m = play(
        new("14.1"),
        lag(0),
        break_141_ok(),
        shot(call=2, first=2, pots=[2, 3], made=False, rail=True),
    )
    assert player(m, 1)["score"] == 0 and m.state()["balls_left"] == 15
    assert m.state()["shooter"] == 0


def test_A8_8ball_made_false_balls_stay_down_inning_ends():
    m = play(
        new("8ball"), lag(0), break_dry(), shot(call=3, first=3, pots=[3], made=False, rail=True)
    )
    st = m.state()
    assert 3 not in st["on_table"] and st["shooter"] == 0 and st["groups"] is None


def test_A8_open_table_without_call_lowest_non_8_ball():
    m = play(new("8ball"), lag(0), break_dry(), shot(first=3, pots=[10, 3], made=True, rail=True))
    st = m.state()
    assert st["groups"] == ["stripes", "solids"] and st["shooter"] == 1


def test_A8_group_set_without_call_own_ball_continues():
    m = play(
        new("8ball"), lag(0), break_dry(), shot(call=3, first=3, pots=[3], made=True, rail=True)
    )  # B solids
    m.apply(shot(first=2, pots=[11, 2], made=True, rail=True))
    assert m.state()["shooter"] == 1
    m.apply(shot(first=4, pots=[12], made=True, rail=True))  # no own ball in pots
    st = m.state()
    assert st["shooter"] == 0 and 12 not in st["on_table"]


def test_A8_group_cleared_without_call_the_8():
    m = play(
        new("8ball", race=[1, 1]),
        lag(0),
        shot(first=1, pots=[2, 3, 4, 5, 6, 7], break_rails=1, rail=True),
        shot(call=1, first=1, pots=[1], made=True, rail=True),
    )  # A solids, cleared
    assert m.state()["groups"] == ["solids", "stripes"] and m.state()["shooter"] == 0
    m.apply(shot(first=8, pots=[8], made=True, rail=True))
    assert m.state()["winner"] == 0


def test_A8_made_needs_a_pocketed_ball():
    m = play(new("8ball"), lag(0), break_dry())
    assert refused(m, shot(call=3, first=3, pots=[], made=True, rail=True)) == "A8"
    assert refused(m, shot(call=3, first=3, pots=[0], made=True, rail=True)) == "A8"


# ---------------------------------------------------------------- A9, A10, A11


def test_A9_nine_spotted_on_the_break_breaker_keeps_shooting():
    m = play(
        new("9ball", nine_on_break="spot"),
        lag(0),
        shot(first=1, pots=[9], break_rails=0, rail=True),
    )
    st = m.state()
    assert st["shooter"] == 0 and 9 in st["on_table"] and len(st["on_table"]) == 9
    assert player(m, 0)["fouls"] == 0 and player(m, 0)["racks"] == 0


def test_A10_14_1_re_rack_positions():
    base = [new("14.1"), lag(0), shot(first=1, call=1, pots=[1], made=True, rail=True), pot141(12)]
    last = shot(first=1, call=1, pots=[1], made=True, rail=True)
    assert play(*(base + [last])).state()["bih"] is None  # nothing in the way
    ev = dict(last)
    ev["cue_in_rack"] = True
    assert play(*(base + [ev])).state()["bih"] == "kitchen"  # S10
    ev["ball_in_rack"] = True
    st = play(*(base + [ev])).state()
    assert st["bih"] == "kitchen" and st["balls_left"] == 15  # C-S4 b
    ev = dict(last)
    ev["ball_in_rack"] = True
    st = play(*(base + [ev])).state()
    assert st["bih"] is None and st["shooter"] == 0  # C-S4 c


def test_A11_no_shot_before_the_lag():
    for g in ("14.1", "8ball", "9ball"):
        m = play(new(g))
        assert refused(m, break_dry()) == "A11"
        assert refused(m, choose("accept")) == "A11"


def test_A11_nothing_but_undo_after_the_match():
    m = play(new("9ball", race=[1, 1]), lag(0), shot(first=1, pots=[9], break_rails=4, rail=True))
    assert m.state()["winner"] == 0
    assert refused(m, break_dry()) == "A11"
    assert refused(m, choose("shoot")) == "A11"
    assert refused(m, lag(1)) == "A11"
    m.apply({"t": "undo"})
    assert m.state()["winner"] is None and m.state()["breaking"] is True
