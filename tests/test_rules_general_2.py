# mp: yes
# General rules G5.4-G22 (RULES.md): called fouls and what the referee enters; values by hand.
from firmware import rules
from tests.helpers import (
    UNDO,
    choose,
    foul_141,
    foul_bih_table,
    g8_groups,
    g9,
    g141,
    lag,
    miss,
    new,
    play,
    player,
    refused,
    scratch,
    shot,
)

# ---------------------------------------------------------------- G5.4 - G5.12 (called)


def test_G5_4_touching_a_ball_called_foul():
    m = g141()
    m.apply(shot(first=3, rail=True, foul="G5.4"))
    foul_141(m, 1, 0)
    m = g9()
    m.apply(shot(first=1, rail=True, foul="G5.4"))
    foul_bih_table(m, 1)


def test_G5_4_foul_cancels_a_made_ball_14_1():
    m = g141()
    m.apply(shot(first=1, call=1, pots=[1], made=True, rail=True, foul="G5.4"))
    foul_141(m, 1, 0)
    assert m.state()["balls_left"] == 15  # S8: spotted, no point


def test_G5_5_frozen_rail_ball_not_driven_anywhere():
    m = g9()
    m.apply(shot(first=1, rail=False))  # the facts alone show it
    foul_bih_table(m, 1)
    m = g9()
    m.apply(shot(first=1, rail=True, foul="G5.5"))  # referee judged the rail contact
    foul_bih_table(m, 1)


def test_G5_6_no_foot_on_the_floor():
    m = g8_groups()
    m.apply(shot(first=10, rail=True, foul="G5.6"))
    foul_bih_table(m, 1)


def test_G5_7_shooting_while_a_ball_moves():
    m = g141()
    m.apply(shot(first=2, rail=True, foul="G5.7"))
    foul_141(m, 1, 0)


def test_G5_8_frozen_ball_leaving_its_rail_is_not_enough():
    m = g9()
    m.apply(shot(first=1, rail=True, foul="G5.8"))
    foul_bih_table(m, 1)


def test_G5_9_scoop_jump_is_a_foul():
    m = g9()
    m.apply(shot(first=1, pots=[1], rail=True, foul="G5.9"))
    foul_bih_table(m, 1)
    assert 1 not in m.state()["on_table"]


def test_G5_10_shooting_toward_a_frozen_ball_is_legal():
    m = g9()
    m.apply(shot(first=1, pots=[1], rail=True))  # frozen 1 moved: that is contact
    assert player(m, 1)["fouls"] == 0 and m.state()["shooter"] == 1


def test_G5_10_moving_a_third_ball_is_a_foul():
    m = g9()
    m.apply(shot(first=1, rail=True, foul="G5.10"))
    foul_bih_table(m, 1)


def test_G5_11_double_hit():
    m = g8_groups()
    m.apply(shot(first=10, call=10, pots=[10], made=True, rail=True, foul="G5.11"))
    foul_bih_table(m, 1)
    assert 10 not in m.state()["on_table"]  # E8: stays down on a foul
    assert player(m, 1)["run"] == 0  # table passed


def test_G5_12_shot_from_outside_the_kitchen():
    m = g141()
    m.apply(scratch(2))  # B scratches: A has BIH in the kitchen
    m.apply(shot(first=3, rail=True, foul="G5.12"))
    foul_141(m, 0, 0)  # not a scratch: cue ball where it lies


def test_G5_13_penalty_set_by_each_game():
    # The same foul (a scratch) costs a point in 14.1 (S7) but no point in 9-ball/8-ball.
    m = g141()
    m.apply(scratch(2))
    assert player(m, 1)["score"] == -1
    m = g9()
    m.apply(scratch(1))
    assert player(m, 1)["score"] == 0 and m.state()["bih"] == "table"  # N8
    m = g8_groups()
    m.apply(scratch(10))
    assert player(m, 1)["score"] == 0 and m.state()["bih"] == "table"  # E10


def test_G5_14_serious_foul_penalties_set_by_each_game():
    # Three consecutive fouls: 14.1 -16 and re-rack (S11); 9-ball loses the rack (N11).
    m = g141()
    for _ in range(2):
        m.apply(scratch(2))  # B
        m.apply(miss(3))  # A, legal
    m.apply(scratch(2))  # B's third consecutive foul
    assert player(m, 1)["score"] == -1 - 1 - 16
    assert m.state()["shooter"] == 1 and m.state()["breaking"] is True
    m = g9()
    m.apply(scratch(1))  # B 1
    m.apply(miss(1))  # A
    m.apply(scratch(1))  # B 2
    m.apply(miss(1))
    m.apply(scratch(1))  # B 3
    st = m.state()
    assert player(m, 0)["racks"] == 1 and st["rack"] == 2


# ---------------------------------------------------------------- G15 - G22


def test_G15_14_1_illegally_pocketed_balls_are_spotted():
    m = g141()
    m.apply(shot(first=1, pots=[1, 2, 0], rail=True))
    assert m.state()["balls_left"] == 15
    assert player(m, 1)["score"] == -1


def test_G15_9ball_spots_only_the_9():
    m = g9()
    m.apply(shot(first=1, pots=[2, 9, 0], rail=True))
    on = m.state()["on_table"]
    assert 9 in on and 2 not in on
    assert player(m, 0)["racks"] == 0 and m.state()["rack"] == 1


def test_G15_8ball_spots_the_8_on_the_break():
    m = play(new("8ball"), lag(0), shot(first=1, pots=[8], break_rails=2, rail=True))
    m.apply(choose("spot8"))
    st = m.state()
    assert 8 in st["on_table"] and len(st["on_table"]) == 15
    assert st["shooter"] == 0


def test_G16_bounce_out_is_not_pocketed():
    m = g141()
    m.apply(shot(first=4, call=4, rail=True))  # the 4 rattled out: not in pots
    assert player(m, 1)["score"] == 0 and m.state()["balls_left"] == 15
    assert m.state()["shooter"] == 0
    m = g9()
    m.apply(shot(first=1, rail=True))  # the 1 came back out
    assert 1 in m.state()["on_table"] and m.state()["shooter"] == 0


def test_G17_outside_interference_shot_is_taken_back():
    m = g9()
    before = m.state()
    m.apply(shot(first=1, pots=[1, 2], rail=True))
    m.apply(UNDO)  # balls restored, the shot is replayed
    assert m.state() == before
    m.apply(shot(first=1, rail=True))
    assert m.state()["shooter"] == 0


def test_G18_late_falling_ball_is_put_back_shooter_keeps_control():
    m = g9()
    m.apply(shot(first=1, pots=[1], rail=True))  # the 2 fell late: not entered
    st = m.state()
    assert 2 in st["on_table"] and st["shooter"] == 1
    m.apply(shot(first=2, pots=[2], rail=True))  # the 2 is still a ball to play
    assert m.state()["shooter"] == 1


def test_G19_marking_the_table_is_a_foul():
    m = g141()
    m.apply(shot(first=3, rail=True, foul="G19"))
    foul_141(m, 1, 0)


def test_G20_measuring_with_an_object_is_a_foul():
    m = g9()
    m.apply(shot(first=1, rail=True, foul="G20"))
    foul_bih_table(m, 1)


def test_G21_jump_shot_is_legal():
    m = g9()
    m.apply(shot(first=1, pots=[1], rail=True))  # jumped over a blocker, hit the 1
    assert player(m, 1)["fouls"] == 0 and m.state()["shooter"] == 1


def test_G22_non_shooter_interference_is_refused_as_a_called_foul():
    # The event contract has no way to charge a foul to the non-shooter: the core refuses it.
    m = g9()
    assert refused(m, shot(first=1, rail=True, foul="G22")) == "G5"
    try:
        m.apply(shot(first=1, rail=True, foul="G22"))
    except rules.Refused as e:
        assert "G22" in str(e)
    else:
        raise AssertionError("G22 accepted")
