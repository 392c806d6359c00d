# mp: yes
# Scoreboard accounting A1-A4 (RULES.md): innings, runs, rack numbers, foul counts.
from tests.helpers import (
    bad_break_141,
    break_141_ok,
    break_dry,
    choose,
    fouls,
    lag,
    miss,
    new,
    play,
    player,
    pot141,
    scratch,
    shot,
)


def _inn(m):
    return (player(m, 0)["innings"], player(m, 1)["innings"])


# ---------------------------------------------------------------- A1 innings


def test_A1_innings_grow_when_the_table_changes_hands():
    m = play(new("14.1"), lag(0))
    assert _inn(m) == (0, 0)
    m.apply(shot(first=1, call=1, pots=[1], made=True, rail=True))
    m.apply(pot141(2))
    assert _inn(m) == (1, 0)  # same inning while A keeps shooting
    m.apply(miss(3))
    m.apply(miss(3))
    assert _inn(m) == (1, 1)
    m.apply(scratch(3))
    assert _inn(m) == (2, 1)


def test_A1_push_out_passed_back_continues_the_inning():
    m = play(new("9ball"), lag(0), break_dry(), shot(call="push", first=None, rail=False))
    assert _inn(m) == (1, 1)
    m.apply(choose("pass"))  # A passes it back: B shoots again
    m.apply(miss(1))
    assert _inn(m) == (1, 1)
    m.apply(miss(1))  # A comes to the table
    assert _inn(m) == (2, 1)


def test_A1_push_out_taken_is_a_new_inning():
    m = play(
        new("9ball"),
        lag(0),
        break_dry(),
        shot(call="push", first=None, rail=False),
        choose("shoot"),
        miss(1),
    )
    assert _inn(m) == (2, 1)


def test_A1_re_break_after_a_14_1_breaking_violation_same_inning():
    m = play(
        new("14.1"),
        lag(0),
        bad_break_141(),
        choose("rerack"),
        bad_break_141(),
        choose("rerack"),
        break_141_ok(),
    )
    assert _inn(m) == (1, 0)


def test_A1_8_spotted_after_the_break_same_inning():
    m = play(
        new("8ball"),
        lag(0),
        shot(first=1, pots=[8], break_rails=2, rail=True),
        choose("spot8"),
        miss(3),
    )
    assert _inn(m) == (1, 0)


def test_A1_winner_breaking_the_next_rack_same_inning():
    m = play(new("9ball"), lag(0), shot(first=1, pots=[9], break_rails=4, rail=True))
    m.apply(break_dry())  # rack 2, still A's inning
    assert _inn(m) == (1, 0)
    m.apply(miss(1))
    assert _inn(m) == (1, 1)


def test_A1_8ball_alternate_break_is_a_new_inning():
    m = play(new("8ball"), lag(0), break_dry(), shot(first=2, pots=[8], rail=True))  # A wins
    assert m.state()["shooter"] == 1
    m.apply(break_dry())  # B breaks rack 2, B's shot before was B's
    assert _inn(m) == (1, 1)
    m.apply(miss(1))
    assert _inn(m) == (2, 1)


# ---------------------------------------------------------------- A2 runs


def test_A2_run_resets_when_the_table_passes_high_run_kept():
    m = play(new("9ball"), lag(0), shot(first=1, pots=[2, 3], break_rails=1, rail=True))
    assert player(m, 0)["run"] == 2
    m.apply(shot(first=1, pots=[1], rail=True))
    assert player(m, 0)["run"] == 3
    m.apply(miss(4))
    assert player(m, 0)["run"] == 0 and player(m, 0)["high_run"] == 3
    m.apply(shot(first=4, pots=[4], rail=True))
    m.apply(miss(5))
    assert player(m, 1)["high_run"] == 1 and player(m, 1)["run"] == 0
    m.apply(shot(first=5, pots=[5], rail=True))
    assert player(m, 0)["run"] == 1 and player(m, 0)["high_run"] == 3


def test_A2_run_continues_into_the_next_rack_for_the_breaking_winner():
    m = play(
        new("9ball"),
        lag(0),
        shot(first=1, pots=[2, 3], break_rails=1, rail=True),
        shot(first=1, pots=[1, 9], rail=True),
    )  # 4 balls, rack won
    assert player(m, 0)["run"] == 4
    m.apply(shot(first=1, pots=[4], break_rails=1, rail=True))  # A breaks rack 2
    assert player(m, 0)["run"] == 5 and player(m, 0)["high_run"] == 5


def test_A2_run_resets_when_answering_a_choice():
    m = play(new("9ball"), lag(0), shot(first=1, pots=[2], break_rails=1, rail=True))
    assert player(m, 0)["run"] == 1
    m.apply(shot(call="push", first=None, rail=False))  # A pushes
    assert player(m, 0)["run"] == 0  # B must answer
    m.apply(choose("pass"))
    m.apply(shot(first=1, pots=[1], rail=True))
    assert player(m, 0)["run"] == 1 and player(m, 0)["high_run"] == 1


def test_A2_run_14_1_points():
    m = play(new("14.1"), lag(0), break_141_ok(), pot141(3), pot141(2))
    assert player(m, 1)["run"] == 5
    m.apply(miss(2))
    assert player(m, 1)["run"] == 0 and player(m, 1)["high_run"] == 5


def test_A2_run_8ball():
    m = play(
        new("8ball"),
        lag(0),
        shot(first=1, pots=[2, 11], break_rails=1, rail=True),
        shot(call=3, first=3, pots=[3], made=True, rail=True),
    )
    assert player(m, 0)["run"] == 3
    m.apply(shot(call=4, first=4, pots=[], rail=True))
    assert player(m, 0)["run"] == 0 and player(m, 0)["high_run"] == 3


# ---------------------------------------------------------------- A3 rack number


def test_A3_rack_grows_when_a_rack_ends_8_and_9ball():
    m = play(new("9ball"), lag(0))
    assert m.state()["rack"] == 1
    m.apply(break_dry())
    m.apply(shot(first=1, pots=[9], rail=True))
    assert m.state()["rack"] == 2
    m = play(new("8ball"), lag(0), break_dry(), shot(first=1, pots=[8], rail=True))  # lost
    assert m.state()["rack"] == 2


def test_A3_rack_grows_on_14_1_re_racks():
    m = play(
        new("14.1"), lag(0), shot(first=1, call=1, pots=[1], made=True, rail=True), pot141(13)
    )  # S10
    assert m.state()["rack"] == 2
    m.apply(pot141(14))
    assert m.state()["rack"] == 3
    m.apply(pot141(13))
    m.apply(pot141(2))  # C-S4 a
    assert m.state()["rack"] == 4
    m.apply(miss(1))
    for _ in range(2):
        m.apply(scratch(1))  # B, A, B, A
        m.apply(scratch(1))
    assert m.state()["rack"] == 4
    m.apply(scratch(1))
    assert m.state()["rack"] == 5  # S11 (B's third)


def test_A3_bad_break_re_racks_keep_the_number():
    m = play(new("14.1"), lag(0), bad_break_141(), choose("rerack"))
    assert m.state()["rack"] == 1
    m = play(new("8ball"), lag(0), shot(first=1, break_rails=2, rail=True), choose("rerack"))
    assert m.state()["rack"] == 1
    m = play(
        new("8ball"), lag(0), shot(first=1, pots=[8], break_rails=2, rail=True), choose("rerack")
    )
    assert m.state()["rack"] == 1
    m = play(new("8ball"), lag(0), shot(first=1, pots=[8, 0], rail=True), choose("rerack"))
    assert m.state()["rack"] == 1
    m = play(new("8ball"), lag(0), shot(first=1, pots=[0], rail=True), choose("rerack"))
    assert m.state()["rack"] == 1


# ---------------------------------------------------------------- A4 foul counts


def test_A4_8ball_safety_resets_the_shooters_count():
    m = play(new("8ball"), lag(0), break_dry(), scratch(1), miss(1))
    assert fouls(m) == (0, 1)
    m.apply(shot(call="safety", first=1, rail=True))
    assert fouls(m) == (0, 0)


def test_A4_8ball_counts_reset_when_the_rack_ends():
    m = play(new("8ball"), lag(0), break_dry(), scratch(1), scratch(1))
    assert fouls(m) == (1, 1)
    m.apply(shot(first=1, pots=[8], rail=True))  # B loses the rack
    assert fouls(m) == (0, 0) and m.state()["rack"] == 2


def test_A4_8ball_counts_reset_on_a_bad_break_re_rack():
    m = play(new("8ball"), lag(0), shot(first=1, break_rails=1, rail=True))
    assert fouls(m) == (1, 0)  # A5
    m.apply(choose("rerack"))
    assert fouls(m) == (0, 0)


def test_A4_9ball_legal_push_out_is_not_a_foul_scratching_push_is():
    m = play(new("9ball"), lag(0), break_dry(), shot(call="push", first=None, rail=False))
    assert fouls(m) == (0, 0)
    m = play(new("9ball"), lag(0), break_dry(), shot(call="push", first=None, pots=[0]))
    assert fouls(m) == (0, 1) and m.state()["bih"] == "table"


def test_A4_9ball_counts_reset_when_the_rack_ends():
    m = play(new("9ball"), lag(0), break_dry(), scratch(1), scratch(1), scratch(1))
    assert fouls(m) == (1, 2)
    m.apply(shot(first=1, pots=[9], rail=True))  # A wins the rack
    assert fouls(m) == (0, 0) and m.state()["rack"] == 2


def test_A4_14_1_counts_carry_over_a_continuous_re_rack():
    m = play(new("14.1"), lag(1), break_141_ok())  # B broke, A to shoot
    m.apply(shot(first=1, call=1, pots=[1], made=True, rail=True, foul="G5.4"))
    m.apply(pot141(14))  # B, S10
    assert m.state()["rack"] == 2 and fouls(m) == (1, 0)


def test_A4_14_1_S11_resets_only_the_offender_violation_leaves_counts():
    m = play(new("14.1"), lag(0), break_141_ok(), scratch(1))  # B 1
    m.apply(scratch(1))  # A 1
    m.apply(scratch(1))  # B 2
    m.apply(miss(1))  # A 0
    m.apply(scratch(1))  # B 3: S11
    assert fouls(m) == (0, 0)
    m = play(
        new("14.1"), lag(0), break_141_ok(), scratch(1), scratch(1), scratch(1), scratch(1)
    )  # B 1, A 1, B 2, A 2
    assert fouls(m) == (2, 2)
    m.apply(scratch(1))  # B 3: S11
    assert fouls(m) == (2, 0) and m.state()["shooter"] == 1
    m.apply(bad_break_141())  # B's breaking violation
    assert fouls(m) == (2, 0)
    m.apply(choose("accept"))
    m.apply(scratch(1))  # A's third
    assert player(m, 0)["score"] == -2 - 16 and m.state()["rack"] == 3
