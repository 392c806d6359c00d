# mp: yes
# 14.1 continuous: S1-S9 and C-S2 (RULES.md); expected values worked out by hand.
from tests.helpers import (
    bad_break_141,
    break_141_ok,
    choose,
    g141,
    lag,
    made_break_141,
    miss,
    new,
    play,
    player,
    pot141,
    refused,
    scratch,
    shot,
)

# ---------------------------------------------------------------- S1 - S3


def test_S1_fifteen_balls_racked():
    st = play(new("14.1"), lag(0)).state()
    assert st["balls_left"] == 15 and st["on_table"] is None


def test_S1_no_more_balls_than_on_the_table():
    m = play(new("14.1"), lag(0), made_break_141(), pot141(1))  # 13 left
    assert m.state()["balls_left"] == 13
    assert refused(m, shot(first=1, call=1, pots=list(range(1, 15)), made=True, rail=True)) == "S1"


def test_S2_one_point_per_ball_made_as_called():
    m = g141()
    m.apply(pot141(1))
    assert player(m, 1)["score"] == 1 and m.state()["balls_left"] == 14


def test_S2_ball_not_as_called_scores_nothing():
    m = g141()
    m.apply(shot(first=5, call=5, pots=[6], made=False, rail=True))
    assert player(m, 1)["score"] == 0
    assert m.state()["balls_left"] == 15 and m.state()["shooter"] == 0


def test_S3_lag_winner_may_make_the_opponent_break():
    m = play(new("14.1"), lag(1))
    assert m.state()["shooter"] == 1 and m.state()["breaking"] is True
    m.apply(break_141_ok())
    assert m.state()["shooter"] == 0 and m.state()["breaking"] is False


# ---------------------------------------------------------------- S4, C-S2, A6


def test_S4_breaking_violation_costs_two_and_opponent_chooses():
    m = play(new("14.1"), lag(0), bad_break_141())
    st = m.state()
    assert player(m, 0)["score"] == -2
    assert st["pending"]["by"] == 1
    assert sorted(st["pending"]["options"]) == ["accept", "rerack"]
    assert player(m, 0)["fouls"] == 0  # C-S2: not a foul


def test_S4_two_balls_to_rails_but_cue_ball_not_is_a_violation():
    m = play(new("14.1"), lag(0), shot(first=1, break_rails=2, cue_rail=False, rail=True))
    assert player(m, 0)["score"] == -2 and m.state()["pending"]["by"] == 1


def test_S4_no_contact_break_is_a_violation():
    m = play(new("14.1"), lag(0), shot(first=None, break_rails=3, cue_rail=True, rail=True))
    assert player(m, 0)["score"] == -2 and m.state()["pending"] is not None


def test_S4_legal_by_two_balls_and_cue_ball_to_rails():
    m = play(new("14.1"), lag(0), break_141_ok())
    st = m.state()
    assert player(m, 0)["score"] == 0 and st["pending"] is None and st["shooter"] == 1


def test_S4_legal_by_making_a_called_ball():
    m = play(new("14.1"), lag(0), made_break_141())
    st = m.state()
    assert player(m, 0)["score"] == 1 and st["shooter"] == 0 and st["pending"] is None


def test_S4_accept_the_table():
    m = play(new("14.1"), lag(0), bad_break_141(), choose("accept"))
    st = m.state()
    assert st["shooter"] == 1 and st["bih"] is None and st["breaking"] is False
    assert st["balls_left"] == 15


def test_S4_rerack_and_the_offender_breaks_again():
    m = play(new("14.1"), lag(0), bad_break_141(), choose("rerack"))
    st = m.state()
    assert st["shooter"] == 0 and st["breaking"] is True and st["bih"] == "kitchen"
    assert st["balls_left"] == 15 and st["rack"] == 1
    assert player(m, 0)["score"] == -2


def test_S4_scratch_on_a_legal_break_minus_one_bih_kitchen():
    m = play(new("14.1"), lag(0), shot(first=1, pots=[0], break_rails=2, cue_rail=True, rail=True))
    st = m.state()
    assert player(m, 0)["score"] == -1 and player(m, 0)["fouls"] == 1
    assert st["shooter"] == 1 and st["bih"] == "kitchen" and st["pending"] is None


def test_S4_violation_with_scratch_is_minus_two_and_accept_gives_bih_kitchen():
    m = play(new("14.1"), lag(0), bad_break_141(pots=[0]))
    assert player(m, 0)["score"] == -2  # A6: not -3
    assert m.state()["pending"]["by"] == 1
    m.apply(choose("accept"))
    assert m.state()["shooter"] == 1 and m.state()["bih"] == "kitchen"


def test_C_S2_each_consecutive_violation_costs_two_more():
    m = play(
        new("14.1"),
        lag(0),
        bad_break_141(),
        choose("rerack"),
        bad_break_141(),
        choose("rerack"),
        bad_break_141(),
    )
    assert player(m, 0)["score"] == -6
    assert player(m, 0)["fouls"] == 0  # not toward S11
    m.apply(choose("rerack"))
    m.apply(break_141_ok())
    assert player(m, 0)["score"] == -6 and m.state()["shooter"] == 1


def test_C_S2_violations_do_not_count_toward_S11():
    m = play(new("14.1"), lag(0))
    for _ in range(3):
        m.apply(bad_break_141())
        m.apply(choose("rerack"))
    assert player(m, 0)["score"] == -6 and m.state()["rack"] == 1
    assert player(m, 0)["fouls"] == 0


def test_C_S2_scratch_on_a_legal_break_counts_toward_S11():
    m = play(
        new("14.1"), lag(0), shot(first=1, pots=[0], break_rails=2, cue_rail=True, rail=True)
    )  # A 1
    m.apply(miss(2))  # B
    m.apply(scratch(2))  # A 2
    m.apply(miss(2))  # B
    m.apply(scratch(2))  # A 3: S11
    assert player(m, 0)["score"] == -1 - 1 - 16


# ---------------------------------------------------------------- S5 - S9


def test_S5_extra_balls_score_one_each_and_player_continues():
    m = g141()
    m.apply(pot141(3))
    assert player(m, 1)["score"] == 3 and m.state()["shooter"] == 1
    m.apply(pot141(2))
    assert player(m, 1)["score"] == 5 and m.state()["balls_left"] == 10
    assert player(m, 1)["innings"] == 1


def test_S5_safety_is_legal_and_ends_the_inning():
    m = g141()
    m.apply(shot(call="safety", first=2, rail=True))
    assert m.state()["shooter"] == 0 and player(m, 1)["fouls"] == 0
    assert player(m, 1)["score"] == 0


def test_S6_legal_shot_needs_contact_and_a_rail_or_pocket():
    m = g141()
    m.apply(shot(first=2, rail=False))
    assert player(m, 1)["score"] == -1
    m.apply(shot(first=None, rail=True))
    assert player(m, 0)["score"] == -1


def test_S7_foul_minus_one_cue_ball_where_it_lies():
    m = g141()
    m.apply(shot(first=2, rail=True, foul="G5.4"))
    st = m.state()
    assert player(m, 1)["score"] == -1 and st["bih"] is None and st["shooter"] == 0


def test_S7_scratch_gives_bih_in_the_kitchen():
    m = g141()
    m.apply(scratch(2))
    assert player(m, 1)["score"] == -1 and m.state()["bih"] == "kitchen"


def test_S8_ball_on_a_foul_is_spotted():
    m = g141()
    m.apply(shot(first=1, call=1, pots=[1, 2, 0], made=True, rail=True))
    assert m.state()["balls_left"] == 15 and player(m, 1)["score"] == -1


def test_S8_ball_on_a_called_safety_is_spotted():
    m = g141()
    m.apply(shot(call="safety", first=2, pots=[2], rail=True))
    assert m.state()["balls_left"] == 15 and player(m, 1)["score"] == 0
    assert m.state()["shooter"] == 0


def test_S8_ball_not_made_as_called_is_spotted():
    m = g141()
    m.apply(shot(call=3, first=3, pots=[3], made=False, rail=True))
    assert m.state()["balls_left"] == 15 and player(m, 1)["score"] == 0
    assert m.state()["shooter"] == 0


def test_S9_object_ball_off_spotted_cue_ball_where_it_lies():
    m = g141()
    m.apply(shot(first=3, off=[3], rail=True))
    st = m.state()
    assert player(m, 1)["score"] == -1 and st["balls_left"] == 15 and st["bih"] is None


def test_S9_cue_ball_off_bih_kitchen():
    m = g141()
    m.apply(shot(first=3, off=[0], rail=True))
    assert player(m, 1)["score"] == -1 and m.state()["bih"] == "kitchen"
