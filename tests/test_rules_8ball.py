# mp: yes
# 8-ball rules after the break (RULES.md E1, E5-E11, C-E1-C-E3, A8, O1); see also _break and _loss.
from tests.helpers import (
    UNDO,
    a_cleared,
    a_solids,
    break_dry,
    lag,
    match8,
    player,
    pot,
    refused,
    shot,
)

# ---------------------------------------------------------------- E1, E5, E6 groups


def test_E1_fifteen_object_balls_and_the_8():
    m = match8(lag(0))
    s = m.state()
    assert s["on_table"] == list(range(1, 16)) and s["balls_left"] == 15
    assert s["groups"] is None and s["breaking"] is True and s["bih"] == "kitchen"
    assert refused(m, shot(first=16, pots=[16], break_rails=4)) == "E1"
    assert refused(m, shot(first=1, pots=[3, 3], break_rails=4)) == "E1"


def test_E5_table_open_after_break_whatever_was_pocketed():
    m = match8(lag(0), shot(first=1, pots=[2, 10, 11], break_rails=2, rail=True))
    assert m.state()["groups"] is None
    m.apply(pot(12))  # stripes still free to choose
    assert m.state()["groups"] == ["stripes", "solids"]


def test_E6_first_called_ball_made_sets_groups():
    m = match8(lag(0), break_dry(), pot(12))  # B makes a called stripe
    s = m.state()
    assert s["groups"] == ["solids", "stripes"] and s["shooter"] == 1
    m = match8(lag(0), break_dry(), pot(4))  # B makes a called solid
    assert m.state()["groups"] == ["stripes", "solids"]


def test_E6_groups_stay_for_the_rest_of_the_rack():
    m = a_solids()
    m.apply(shot(first=4, call=4, rail=True))  # A misses
    m.apply(pot(10))  # B makes a stripe: groups unchanged
    assert m.state()["groups"] == ["solids", "stripes"] and m.state()["shooter"] == 1


def test_E6_A8_intended_ball_without_call_is_lowest_non_8_in_pots():
    # Open table, no call, the 12 and the 3 dropped as intended: the 3 decides (solids).
    m = match8(lag(0), break_dry(), shot(first=12, pots=[12, 3], made=True, rail=True))
    s = m.state()
    assert s["groups"] == ["stripes", "solids"] and s["shooter"] == 1
    assert 12 not in s["on_table"] and 3 not in s["on_table"]
    assert player(m, 1)["run"] == 2


def test_E6_A8_not_made_sets_no_group_and_ends_inning():
    m = match8(lag(0), break_dry(), shot(first=5, call=5, pots=[5], made=False, rail=True))
    s = m.state()
    assert s["groups"] is None and s["shooter"] == 0 and 5 not in s["on_table"]


def test_C_E3_no_groups_from_break_foul_or_safety():
    m = match8(lag(0), break_dry(), shot(first=5, call=5, pots=[5, 0], made=True, rail=True))
    assert m.state()["groups"] is None and m.state()["shooter"] == 0
    m = match8(lag(0), break_dry(), shot(first=5, call="safety", pots=[5], rail=True))
    s = m.state()
    assert s["groups"] is None and s["shooter"] == 0 and 5 not in s["on_table"]
    assert player(m, 1)["fouls"] == 0 and s["bih"] is None


# ---------------------------------------------------------------- C-E1 open table


def test_C_E1_open_table_any_ball_but_the_8_first():
    m = match8(lag(0), break_dry(), shot(first=13, call=2, pots=[2], made=True, rail=True))
    s = m.state()  # a stripe hit first, the called solid made: legal, B solids
    assert s["groups"] == ["stripes", "solids"] and s["shooter"] == 1
    assert player(m, 1)["fouls"] == 0


def test_C_E1_open_table_8_first_is_foul():
    m = match8(lag(0), break_dry(), shot(first=8, call=3, pots=[3], made=True, rail=True))
    s = m.state()
    assert s["shooter"] == 0 and s["bih"] == "table" and s["groups"] is None
    assert player(m, 1)["fouls"] == 1 and 3 not in s["on_table"]


# ---------------------------------------------------------------- E7, C-E2 group play


def test_E7_wrong_group_first_contact_is_foul():
    m = a_solids()
    m.apply(shot(first=11, call=4, pots=[4], made=True, rail=True))
    s = m.state()
    assert s["shooter"] == 1 and s["bih"] == "table"
    assert player(m, 0)["fouls"] == 1 and s["groups"] == ["solids", "stripes"]
    assert 4 not in s["on_table"]  # E8: stays down on the foul too


def test_E7_8_first_while_group_balls_remain_is_foul():
    m = a_solids()
    m.apply(shot(first=8, rail=True))
    assert m.state()["shooter"] == 1 and m.state()["bih"] == "table"
    assert player(m, 0)["fouls"] == 1


def test_E7_own_first_then_nothing_to_a_rail_is_foul():
    m = a_solids()
    m.apply(shot(first=4, rail=False))
    assert m.state()["shooter"] == 1 and m.state()["bih"] == "table"
    assert player(m, 0)["fouls"] == 1


def test_C_E2_wrong_group_ball_stays_down_and_ends_inning():
    m = a_solids()
    m.apply(shot(first=4, call=4, pots=[10], made=False, rail=True))
    s = m.state()
    assert s["shooter"] == 1 and s["bih"] is None and 10 not in s["on_table"]
    assert player(m, 0)["fouls"] == 0


def test_C_E2_wrong_group_ball_with_own_called_ball_continues():
    m = a_solids()
    m.apply(shot(first=4, call=4, pots=[4, 10], made=True, rail=True))
    s = m.state()
    assert s["shooter"] == 0 and 10 not in s["on_table"] and 4 not in s["on_table"]


def test_C_E2_called_wrong_group_ball_does_not_continue():
    m = a_solids()
    m.apply(shot(first=4, call=10, pots=[10], made=True, rail=True))
    assert m.state()["shooter"] == 1 and 10 not in m.state()["on_table"]


# ---------------------------------------------------------------- E8 call shot


def test_E8_continue_while_making_called_own_balls():
    m = a_solids()
    m.apply(pot(4))
    m.apply(pot(5))
    s = m.state()
    assert s["shooter"] == 0 and player(m, 0)["innings"] == 1
    assert player(m, 0)["run"] == 5  # 1, 2 on the break, then 3, 4, 5 (A2)


def test_E8_miss_ends_inning():
    m = a_solids()
    m.apply(shot(first=4, call=4, rail=True))
    assert m.state()["shooter"] == 1 and m.state()["bih"] is None


def test_E8_A8_called_ball_not_made_stays_down_and_ends_inning():
    m = a_solids()
    m.apply(shot(first=4, call=4, pots=[4], made=False, rail=True))
    s = m.state()
    assert s["shooter"] == 1 and 4 not in s["on_table"] and s["bih"] is None


def test_E8_combination_from_own_group_need_not_be_called():
    m = a_solids()
    m.apply(shot(first=4, pots=[6], made=True, rail=True))
    s = m.state()
    assert s["shooter"] == 0 and 6 not in s["on_table"] and player(m, 0)["fouls"] == 0


# ---------------------------------------------------------------- E9, E10 fouls


def test_E9_scratch_is_foul_E10_bih_anywhere():
    m = a_solids()
    m.apply(shot(first=4, call=4, pots=[4, 0], made=True, rail=True))
    s = m.state()
    assert s["shooter"] == 1 and s["bih"] == "table" and 4 not in s["on_table"]
    assert player(m, 0)["fouls"] == 1 and player(m, 0)["run"] == 0


def test_E9_touching_the_cue_ball_is_foul():
    m = a_solids()
    m.apply(shot(first=4, call=4, pots=[4], made=True, rail=True, foul="E9"))
    assert m.state()["shooter"] == 1 and m.state()["bih"] == "table"
    assert player(m, 0)["fouls"] == 1


def test_E10_bih_anywhere_after_foul_on_open_table():
    m = match8(lag(0), break_dry(), shot(first=None))
    s = m.state()
    assert s["shooter"] == 0 and s["bih"] == "table" and player(m, 1)["fouls"] == 1


# ---------------------------------------------------------------- E11 win, O1 race


def test_E11_8_called_on_a_separate_legal_shot_wins_the_rack():
    m = a_cleared(race=[2, 2])
    m.apply(shot(first=8, call=8, pots=[8], made=True, rail=True))
    s = m.state()
    assert player(m, 0)["racks"] == 1 and s["rack"] == 2 and s["winner"] is None
    assert s["shooter"] == 1 and s["breaking"] is True  # E2: B breaks rack 2
    assert s["on_table"] == list(range(1, 16)) and s["groups"] is None


def test_E11_A8_the_8_is_the_intended_ball_when_group_cleared():
    m = a_cleared(race=[2, 2])
    m.apply(shot(first=8, pots=[8], made=True, rail=True))
    assert player(m, 0)["racks"] == 1


def test_O1_race_reached_ends_match_A11_then_only_undo():
    m = a_cleared(race=[1, 1])
    m.apply(shot(first=8, call=8, pots=[8], made=True, rail=True))
    s = m.state()
    assert s["winner"] == 0 and s["shooter"] is None and s["bih"] is None
    assert s["breaking"] is False and player(m, 0)["racks"] == 1
    assert refused(m, break_dry()) == "A11"
    m.apply(UNDO)
    assert m.state()["winner"] is None and 8 in m.state()["on_table"]


def test_O1_race_per_player_handicap():
    m = match8(lag(0), break_dry(), shot(first=1, pots=[8], rail=True), race=[2, 1])
    s = m.state()  # B pocketed the 8 on an open table: A wins a rack but needs 2
    assert s["winner"] is None and player(m, 0)["racks"] == 1 and s["rack"] == 2
    m.apply(break_dry())  # B breaks rack 2 dry
    m.apply(shot(first=1, pots=[8], rail=True))  # A loses rack 2; B needed 1
    assert m.state()["winner"] == 1 and player(m, 1)["racks"] == 1
