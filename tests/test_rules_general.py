# mp: yes
# General rules G1-G5.3 (RULES.md): each test fails if its rule is broken; values derived by hand.
from tests.helpers import (
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
    pot141,
    refused,
    scratch,
    shot,
)

# ---------------------------------------------------------------- G1, G2


def test_G1_lag_winner_chooses_who_breaks():
    m = play(new("9ball"))
    assert m.state()["shooter"] is None  # no one shoots before the lag
    m.apply(lag(1))  # the lag winner lets player 1 break
    assert m.state()["shooter"] == 1
    assert m.state()["breaking"] is True
    assert play(new("9ball"), lag(0)).state()["shooter"] == 0


def test_G1_lag_only_once():
    m = play(new("14.1"), lag(0))
    assert refused(m, lag(1)) == "G1"


def test_G2_break_from_the_kitchen_in_every_game():
    for g in ("14.1", "8ball", "9ball"):
        st = play(new(g), lag(1)).state()
        assert st["breaking"] is True and st["bih"] == "kitchen", g


def test_G2_new_rack_break_from_the_kitchen():
    # 9-ball: A makes the 9 on a legal break (C-N1) and breaks the next rack (N3).
    m = play(new("9ball"), lag(0), shot(first=1, pots=[9], break_rails=4, rail=True))
    st = m.state()
    assert st["rack"] == 2
    assert st["breaking"] is True and st["bih"] == "kitchen"


# ---------------------------------------------------------------- G3, G4


def test_G3_no_contact_is_a_foul():
    m = g141()
    m.apply(shot(first=None, rail=True))
    foul_141(m, 1, 0)
    m = g9()
    m.apply(shot(first=None, rail=True))
    foul_bih_table(m, 1)


def test_G3_contact_but_no_rail_and_no_pocket_is_a_foul():
    m = g9()
    m.apply(shot(first=1, rail=False))
    foul_bih_table(m, 1)
    m = g141()
    m.apply(shot(first=3, rail=False))
    foul_141(m, 1, 0)


def test_G3_contact_then_rail_is_legal():
    m = g141()
    m.apply(miss(3))
    assert player(m, 1)["score"] == 0 and player(m, 1)["fouls"] == 0
    m = g9()
    m.apply(miss(1))
    assert player(m, 1)["fouls"] == 0 and m.state()["bih"] is None


def test_G3_contact_then_pocket_without_rail_is_legal():
    m = g9()
    m.apply(shot(first=1, pots=[1], rail=False))
    st = m.state()
    assert player(m, 1)["fouls"] == 0
    assert st["shooter"] == 1  # pocketed legally: B continues (N6)
    assert 1 not in st["on_table"]


def test_G4_legal_shot_without_a_pocketed_ball_ends_the_inning():
    m = g9()
    m.apply(miss(1))
    st = m.state()
    assert st["shooter"] == 0 and st["bih"] is None and player(m, 1)["fouls"] == 0
    m = g141()
    m.apply(pot141(2))  # B makes 2, continues
    assert m.state()["shooter"] == 1
    m.apply(miss(4))  # no ball: inning over, no penalty
    assert m.state()["shooter"] == 0
    assert player(m, 1)["score"] == 2


# ---------------------------------------------------------------- G5.1 - G5.3


def test_G5_1_lowest_ball_not_hit_first_9ball():
    m = g9()
    m.apply(shot(first=3, pots=[3], rail=True))  # illegal object ball first
    foul_bih_table(m, 1)
    assert 3 not in m.state()["on_table"]  # N9: not spotted


def test_G5_1_opponent_group_hit_first_8ball():
    m = g8_groups()  # B stripes
    m.apply(shot(first=2, rail=True))
    foul_bih_table(m, 1)


def test_G5_1_legal_ball_then_nothing_is_a_foul_8ball():
    m = g8_groups()
    m.apply(shot(first=10, rail=False))
    foul_bih_table(m, 1)


def test_G5_1_called_by_referee_14_1():
    m = g141()
    m.apply(shot(first=3, rail=True, foul="G5.1"))
    foul_141(m, 1, 0)


def test_G5_2_scratch_each_game():
    m = g141()
    m.apply(scratch(2))
    foul_141(m, 1, 0, bih="kitchen")  # S7: after a scratch, BIH in the kitchen
    m = g9()
    m.apply(shot(first=1, pots=[1, 0], rail=True))
    foul_bih_table(m, 1)
    assert 1 not in m.state()["on_table"]  # N9: only the 9 is spotted
    m = g8_groups()
    m.apply(shot(first=10, call=10, pots=[10, 0], made=True, rail=True))
    foul_bih_table(m, 1)


def test_G5_3_object_ball_off_the_table():
    m = g141()
    m.apply(shot(first=3, off=[3], rail=True))
    foul_141(m, 1, 0)  # S9: cue ball where it lies
    assert m.state()["balls_left"] == 15  # S9: the ball is spotted
    m = g9()
    m.apply(shot(first=1, off=[2], rail=True))
    foul_bih_table(m, 1)
    assert 2 not in m.state()["on_table"]  # N10: stays off


def test_G5_3_cue_ball_off_the_table():
    m = g141()
    m.apply(shot(first=3, off=[0], rail=True))
    foul_141(m, 1, 0, bih="kitchen")  # S9
    m = g8_groups()
    m.apply(shot(first=10, off=[0], rail=True))
    foul_bih_table(m, 1)
