# mp: yes
# 8-ball lag and break rules (RULES.md E2, E3, E4, A5, A7), expected values from the rule text.
from tests.helpers import UNDO, break_dry, choose, lag, match8, opts, player, refused, shot

ALL15 = list(range(1, 16))


def _lose_rack():
    # The player at the table pockets the 8 on an open table: E12.5, the rack is lost.
    return shot(first=1, pots=[8], rail=True)


# ---------------------------------------------------------------- E2 lag, alternate breaks


def test_E2_no_shot_before_lag_A11():
    m = match8()
    assert m.state()["shooter"] is None
    assert refused(m, break_dry()) == "A11"


def test_E2_lag_winner_breaks():
    s = match8(lag(1)).state()
    assert s["shooter"] == 1 and s["breaking"] is True and s["bih"] == "kitchen"


def test_E2_players_alternate_breaks_whoever_wins():
    # Rack 1: A breaks dry, B pockets the 8 on an open table -> A wins rack 1.
    m = match8(lag(0), break_dry(), _lose_rack())
    s = m.state()
    assert s["rack"] == 2 and player(m, 0)["racks"] == 1
    assert s["shooter"] == 1 and s["breaking"] is True  # B breaks rack 2 (not the winner)
    # Rack 2: B breaks dry, A loses the rack the same way -> B wins; A breaks rack 3.
    m.apply(break_dry())
    m.apply(_lose_rack())
    s = m.state()
    assert s["rack"] == 3 and player(m, 1)["racks"] == 1
    assert s["shooter"] == 0 and s["breaking"] is True


# ---------------------------------------------------------------- E3 break requirements


def test_E3_break_pocketing_a_ball_is_legal_and_breaker_continues():
    m = match8(lag(0), shot(first=1, pots=[3], break_rails=1, rail=True))
    s = m.state()
    assert s["shooter"] == 0 and s["pending"] is None and s["breaking"] is False
    assert s["bih"] is None and 3 not in s["on_table"] and s["balls_left"] == 14
    assert player(m, 0)["fouls"] == 0


def test_E3_break_four_balls_to_rails_is_legal_turn_passes():
    m = match8(lag(0), break_dry())
    s = m.state()
    assert s["shooter"] == 1 and s["pending"] is None and s["bih"] is None
    assert s["on_table"] == ALL15 and player(m, 0)["fouls"] == 0


def test_E3_three_balls_to_rails_is_bad_break_A5_foul():
    m = match8(lag(0), shot(first=1, break_rails=3, rail=True))
    s = m.state()
    assert s["pending"]["by"] == 1 and s["shooter"] == 1
    assert opts(m) == ["accept", "kitchen", "rerack"]
    assert player(m, 0)["fouls"] == 1  # A5: this bad break is a foul
    assert s["rack"] == 1


def test_E3_break_without_contact_is_bad_break_A5():
    m = match8(lag(0), shot(first=None, break_rails=0))
    assert m.state()["pending"]["by"] == 1
    assert opts(m) == ["accept", "kitchen", "rerack"]
    assert player(m, 0)["fouls"] == 1


def test_E3_other_foul_on_break_gives_the_choice():
    # Balls down but the referee calls a double hit: any other foul on the break (E3).
    m = match8(lag(0), shot(first=1, pots=[4], break_rails=4, rail=True, foul="G5.11"))
    s = m.state()
    assert s["pending"]["by"] == 1 and opts(m) == ["accept", "kitchen", "rerack"]
    assert 4 not in s["on_table"]  # E8: balls pocketed on a foul stay down


def test_E3_object_ball_off_on_break_gives_the_choice():
    m = match8(lag(0), shot(first=1, off=[5], break_rails=4, rail=True))
    s = m.state()
    assert s["pending"]["by"] == 1 and opts(m) == ["accept", "kitchen", "rerack"]
    assert 5 not in s["on_table"]


def test_E3_no_shot_while_choice_pending():
    m = match8(lag(0), shot(first=1, break_rails=2, rail=True))
    assert refused(m, shot(first=1, rail=True)) == "E3"
    assert refused(m, choose("spot8")) == "E3"
    assert refused(m, choose("accept", by=0)) == "E3"


def test_E3_A7_accept_incoming_player_shoots_as_it_lies():
    m = match8(lag(0), shot(first=1, break_rails=2, rail=True), choose("accept"))
    s = m.state()
    assert s["pending"] is None and s["shooter"] == 1
    assert s["bih"] is None and s["breaking"] is False


def test_E3_A7_kitchen_incoming_player_has_cue_ball_in_kitchen():
    m = match8(lag(0), shot(first=1, break_rails=2, rail=True), choose("kitchen"))
    s = m.state()
    assert s["pending"] is None and s["shooter"] == 1
    assert s["bih"] == "kitchen" and s["breaking"] is False


def test_E3_A7_rerack_chooser_breaks_when_breaker_not_named():
    m = match8(lag(0), shot(first=1, pots=[2], off=[9], break_rails=4, rail=True), choose("rerack"))
    s = m.state()
    assert s["pending"] is None and s["shooter"] == 1 and s["breaking"] is True
    assert s["bih"] == "kitchen" and s["on_table"] == ALL15
    assert s["rack"] == 1  # A3: re-rack after a bad break keeps the rack
    assert player(m, 0)["fouls"] == 0 and player(m, 1)["fouls"] == 0  # A4


def test_E3_A7_rerack_chooser_names_the_breaker():
    m = match8(lag(0), shot(first=1, break_rails=2, rail=True), choose("rerack", breaker=0))
    s = m.state()
    assert s["shooter"] == 0 and s["breaking"] is True and s["rack"] == 1
    assert player(m, 0)["fouls"] == 0
    # A1: the re-break by the same breaker continues the same inning.
    m.apply(break_dry())
    assert player(m, 0)["innings"] == 1
    m2 = match8(lag(0), shot(first=1, break_rails=2, rail=True), choose("rerack", breaker=1))
    assert m2.state()["shooter"] == 1 and m2.state()["breaking"] is True


def test_E3_A7_breaker_named_only_on_rerack():
    m = match8(lag(0), shot(first=1, break_rails=2, rail=True))
    assert refused(m, choose("kitchen", breaker=0)) == "A7"
    assert refused(m, choose("accept", breaker=1)) == "A7"


def test_E3_A7_scratch_on_break_kitchen_or_rerack_only():
    m = match8(lag(0), shot(first=1, pots=[0, 6], break_rails=4, rail=True))
    s = m.state()
    assert s["pending"]["by"] == 1 and opts(m) == ["kitchen", "rerack"]
    assert player(m, 0)["fouls"] == 1
    assert refused(m, choose("accept")) == "E3"
    m.apply(choose("kitchen"))
    s = m.state()
    assert s["shooter"] == 1 and s["bih"] == "kitchen" and s["breaking"] is False
    assert 6 not in s["on_table"]


def test_E3_A7_scratch_on_break_rerack():
    m = match8(lag(0), shot(first=1, pots=[0], break_rails=4, rail=True), choose("rerack"))
    s = m.state()
    assert s["shooter"] == 1 and s["breaking"] is True and s["on_table"] == ALL15
    m = match8(
        lag(0), shot(first=1, pots=[0], break_rails=4, rail=True), choose("rerack", breaker=0)
    )
    assert m.state()["shooter"] == 0 and m.state()["breaking"] is True


def test_E3_cue_ball_off_on_break_is_like_a_scratch():
    m = match8(lag(0), shot(first=1, off=[0], break_rails=4, rail=True))
    assert m.state()["pending"]["by"] == 1 and opts(m) == ["kitchen", "rerack"]


def test_E3_E5_legal_break_sets_no_groups():
    m = match8(lag(0), shot(first=1, pots=[1, 2, 3], break_rails=4, rail=True))
    assert m.state()["groups"] is None and m.state()["shooter"] == 0


# ---------------------------------------------------------------- E4 the 8 on the break


def test_E4_8_on_break_breaker_chooses_spot8_or_rerack():
    m = match8(lag(0), shot(first=1, pots=[8, 3], break_rails=4, rail=True))
    s = m.state()
    assert s["pending"]["by"] == 0 and s["shooter"] == 0
    assert opts(m) == ["rerack", "spot8"]
    assert player(m, 0)["fouls"] == 0
    assert refused(m, choose("kitchen")) == "E4"


def test_E4_spot8_breaker_keeps_shooting():
    m = match8(lag(0), shot(first=1, pots=[8, 3], break_rails=4, rail=True), choose("spot8"))
    s = m.state()
    assert s["pending"] is None and s["shooter"] == 0 and s["bih"] is None
    assert 8 in s["on_table"] and 3 not in s["on_table"] and s["balls_left"] == 14
    assert s["groups"] is None and s["breaking"] is False
    m.apply(shot(first=2, call=2, pots=[2], made=True, rail=True))
    assert player(m, 0)["innings"] == 1  # A1: same inning after the spot
    assert m.state()["shooter"] == 0


def test_E4_rerack_breaker_breaks_again():
    m = match8(lag(1), shot(first=1, pots=[8], break_rails=4, rail=True), choose("rerack"))
    s = m.state()
    assert s["shooter"] == 1 and s["breaking"] is True and s["on_table"] == ALL15
    assert s["rack"] == 1


def test_E4_8_and_scratch_opponent_spot8_with_bih_kitchen():
    m = match8(lag(0), shot(first=1, pots=[8, 0], break_rails=4, rail=True))
    s = m.state()
    assert s["pending"]["by"] == 1 and s["shooter"] == 1
    assert opts(m) == ["rerack", "spot8"]
    assert refused(m, choose("spot8", by=0)) == "E4"
    m.apply(choose("spot8"))
    s = m.state()
    assert s["shooter"] == 1 and s["bih"] == "kitchen" and 8 in s["on_table"]
    assert s["breaking"] is False


def test_E4_8_and_scratch_opponent_rerack_and_breaks():
    m = match8(lag(0), shot(first=1, pots=[8, 0], break_rails=4, rail=True))
    assert refused(m, choose("rerack", breaker=0)) == "A7"
    m.apply(choose("rerack"))
    s = m.state()
    assert s["shooter"] == 1 and s["breaking"] is True and s["on_table"] == ALL15
    assert player(m, 0)["fouls"] == 0 and s["rack"] == 1


def test_E4_A7_8_off_table_on_break_loses_rack():
    m = match8(lag(0), shot(first=1, off=[8], break_rails=4, rail=True), race=[3, 3])
    s = m.state()
    assert player(m, 1)["racks"] == 1 and player(m, 0)["racks"] == 0
    assert s["rack"] == 2 and s["pending"] is None and s["breaking"] is True
    assert s["shooter"] == 1  # E2: alternate, B breaks rack 2


def test_E4_undo_takes_back_the_choice():
    m = match8(lag(0), shot(first=1, pots=[8], break_rails=4, rail=True), choose("spot8"))
    m.apply(UNDO)
    assert m.state()["pending"]["by"] == 0 and 8 not in m.state()["on_table"]
