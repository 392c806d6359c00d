# mp: yes
# 14.1 continuous: S10, S11, C-S1, C-S3-C-S7 (RULES.md); expected values worked out by hand.
from tests.helpers import (
    bad_break_141,
    choose,
    g141,
    lag,
    made_break_141,
    miss,
    new,
    play,
    player,
    pot141,
    scratch,
    shot,
)


def _warned(m, i):
    note = m.s["note"]
    return note is not None and note.get("warn") == i


# ---------------------------------------------------------------- S10, C-S4 (A10)


def _to_14th(**kw):
    """A makes a ball on the break and 12 more: 2 left, A to shoot."""
    m = play(new("14.1", **kw), lag(0), made_break_141(), pot141(12))
    assert m.state()["balls_left"] == 2 and player(m, 0)["score"] == 13
    return m


def test_S10_fourteenth_ball_re_racks_fourteen_shooter_continues():
    m = _to_14th()
    m.apply(pot141(1))
    st = m.state()
    assert st["balls_left"] == 15 and st["rack"] == 2
    assert st["shooter"] == 0 and st["bih"] is None and st["breaking"] is False
    assert player(m, 0)["score"] == 14
    m.apply(pot141(1))  # the 15th ball, breaking the new rack
    assert player(m, 0)["score"] == 15 and m.state()["balls_left"] == 14


def test_S10_cue_ball_in_the_rack_gives_bih_kitchen():
    m = _to_14th()
    m.apply(shot(first=1, call=1, pots=[1], made=True, rail=True, cue_in_rack=True))
    st = m.state()
    assert st["bih"] == "kitchen" and st["shooter"] == 0 and st["rack"] == 2


def test_C_S4a_fifteenth_ball_pocketed_too_all_re_racked():
    m = _to_14th()
    m.apply(pot141(2))
    st = m.state()
    assert player(m, 0)["score"] == 15
    assert st["balls_left"] == 15 and st["rack"] == 2 and st["shooter"] == 0
    assert m.s["note"]["rack"] == "C-S4a"


def test_C_S4b_both_interfere_all_re_racked_bih_kitchen():
    m = _to_14th()
    m.apply(
        shot(first=1, call=1, pots=[1], made=True, rail=True, cue_in_rack=True, ball_in_rack=True)
    )
    st = m.state()
    assert st["balls_left"] == 15 and st["bih"] == "kitchen" and st["shooter"] == 0
    assert st["rack"] == 2 and m.s["note"]["rack"] == "C-S4b"


def test_C_S4c_only_the_15th_ball_goes_to_the_head_spot():
    m = _to_14th()
    m.apply(shot(first=1, call=1, pots=[1], made=True, rail=True, ball_in_rack=True))
    st = m.state()
    assert st["balls_left"] == 15 and st["bih"] is None and st["shooter"] == 0
    assert st["rack"] == 2 and m.s["note"]["rack"] == "C-S4c"


def test_C_S4d_only_the_cue_ball_bih_kitchen():
    m = _to_14th()
    m.apply(shot(first=1, call=1, pots=[1], made=True, rail=True, cue_in_rack=True))
    st = m.state()
    assert st["bih"] == "kitchen" and st["balls_left"] == 15
    assert m.s["note"]["rack"] == "C-S4d"


# ---------------------------------------------------------------- S11, C-S3, C-S7


def test_S11_warning_after_two_consecutive_fouls():
    m = g141()
    m.apply(scratch(2))  # B 1
    assert not _warned(m, 1)
    m.apply(miss(3))  # A
    m.apply(shot(first=2, rail=True, foul="G5.6"))  # B 2
    assert player(m, 1)["fouls"] == 2 and _warned(m, 1)


def test_S11_third_foul_minus_sixteen_rerack_offender_breaks():
    m = g141()
    m.apply(scratch(2))  # B -1
    m.apply(miss(3))
    m.apply(scratch(2))  # B -2
    m.apply(miss(3))
    m.apply(pot141(1))  # B -2 + 1 = -1: a legal shot resets B's count
    m.apply(miss(3))  # B, legal miss
    m.apply(miss(3))  # A
    m.apply(scratch(2))  # B 1
    m.apply(miss(3))
    m.apply(scratch(2))  # B 2
    m.apply(miss(3))
    assert player(m, 1)["score"] == -3 and player(m, 1)["fouls"] == 2
    m.apply(shot(first=2, rail=True, foul="G5.4"))  # B 3: -1 - 15
    st = m.state()
    assert player(m, 1)["score"] == -3 - 16
    assert st["balls_left"] == 15 and st["rack"] == 2
    assert st["shooter"] == 1 and st["breaking"] is True and st["bih"] == "kitchen"
    assert player(m, 1)["fouls"] == 0
    m.apply(bad_break_141())  # the re-break is under S4
    assert player(m, 1)["score"] == -21 and m.state()["pending"]["by"] == 0


def test_C_S3_fouls_count_across_innings_legal_shot_resets():
    m = g141()
    m.apply(scratch(2))  # B 1
    m.apply(miss(3))  # A legal
    assert player(m, 1)["fouls"] == 1
    m.apply(miss(3))  # B legal
    assert player(m, 1)["fouls"] == 0
    m.apply(scratch(3))  # A 1
    m.apply(scratch(3))  # B 1
    m.apply(scratch(3))  # A 2
    assert player(m, 0)["fouls"] == 2 and player(m, 1)["fouls"] == 1


def test_C_S7_third_foul_after_the_warning_always_counts():
    m = g141()
    m.apply(scratch(2))  # B 1
    m.apply(scratch(2))  # A 1
    m.apply(scratch(2))  # B 2 (warned)
    assert _warned(m, 1)
    m.apply(scratch(2))  # A 2 (warned)
    m.apply(scratch(2))  # B 3
    assert player(m, 1)["score"] == -18 and player(m, 0)["score"] == -2
    assert m.state()["shooter"] == 1 and m.state()["breaking"] is True


# ---------------------------------------------------------------- C-S1, C-S5, C-S6


def test_C_S1_scores_can_be_negative():
    m = play(new("14.1"), lag(0), bad_break_141(), choose("rerack"), bad_break_141())
    assert player(m, 0)["score"] == -4


def test_C_S1_reaching_the_target_ends_the_match():
    m = play(new("14.1", target=[5, 5]), lag(0), made_break_141(), pot141(3))
    assert m.state()["winner"] is None and player(m, 0)["score"] == 4
    m.apply(pot141(3))  # 4 + 3 = 7 >= 5
    st = m.state()
    assert st["winner"] == 0 and st["shooter"] is None
    assert st["bih"] is None and st["breaking"] is False


def test_C_S1_handicap_targets():
    m = play(new("14.1", target=[10, 3]), lag(0), made_break_141(), pot141(2))
    assert m.state()["winner"] is None and player(m, 0)["score"] == 3
    m.apply(miss(2))
    m.apply(pot141(3))  # B reaches 3, own target
    assert m.state()["winner"] == 1


def test_C_S5_statistics_per_player():
    m = play(
        new("14.1"),
        lag(0),
        made_break_141(),
        pot141(2),
        miss(3),  # A: 3, inning 1
        pot141(4),
        scratch(2),  # B: 4 - 1
        pot141(1),
        miss(2),
    )  # A: 4, inning 2
    a, b = player(m, 0), player(m, 1)
    assert (a["score"], a["innings"], a["run"], a["high_run"], a["fouls"]) == (4, 2, 0, 3, 0)
    assert (b["score"], b["innings"], b["run"], b["high_run"], b["fouls"]) == (3, 1, 0, 4, 1)
    m.apply(pot141(2))  # B's run after coming back
    assert player(m, 1)["run"] == 2 and player(m, 1)["innings"] == 2


def test_C_S6_scores_add_up_to_balls_minus_penalties():
    m = play(
        new("14.1"),
        lag(0),
        bad_break_141(),
        choose("accept"),  # A -2
        pot141(3),
        scratch(2),  # B +3 -1
        pot141(2),
        shot(first=3, off=[3], rail=True),  # A +2 -1
        pot141(1),
        miss(2),
    )  # B +1
    pocketed, penalties = 3 + 2 + 1, 2 + 1 + 1
    total = player(m, 0)["score"] + player(m, 1)["score"]
    assert total == pocketed - penalties
    assert m.state()["balls_left"] == 15 - pocketed
