# mp: yes
# 10-ball rules (RULES.md T1-T12, C-T1, O6) and its accounting (A1-A4); expectations worked out
# from the rule text.
from firmware import events
from tests.helpers import UNDO, break_dry, choose, lag, new, play, player, refused, shot

TEN = list(range(1, 11))


def _m(*evs, **kw):
    return play(new("10ball", **kw), *evs)


def _g(*evs, **kw):
    """10-ball after a dry legal break by A (B to shoot at the 1), then evs."""
    return _m(lag(0), break_dry(), *evs, **kw)


def _foul():
    return shot(first=None)


def _s(m):
    return m.state()


def _ten_made():
    """The 10 called and made on a combination off the lowest ball (T2)."""
    return shot(first=1, call=10, pots=[10], made=True, rail=True)


# ---------------------------------------------------------------- T1, T12, O2


def test_T1_ten_balls_racked():
    m = _m(lag(0))
    s = _s(m)
    assert s["game"] == "10ball" and s["on_table"] == TEN and s["balls_left"] == 10
    assert s["groups"] is None and s["breaking"] is True and s["bih"] == "kitchen"
    assert refused(m, shot(first=1, pots=[11], break_rails=4)) == "T1"
    assert refused(m, shot(first=11, break_rails=4)) == "T1"


def test_T1_each_new_rack_has_the_ten_balls_again():
    m = _g(shot(first=1, pots=[1, 2], rail=True, call=1, made=True), race=[3, 3])
    assert _s(m)["on_table"] == TEN[2:]
    m.apply(shot(first=3, call=10, pots=[10], made=True, rail=True))
    assert _s(m)["rack"] == 2 and _s(m)["on_table"] == TEN and _s(m)["breaking"] is True


def test_T12_break_order_alternates_by_default():
    m = _m(lag(0), race=[3, 3])
    m.apply(break_dry())
    m.apply(_ten_made())                 # B wins rack 1, which A broke
    assert _s(m)["shooter"] == 1 and player(m, 1)["racks"] == 1 and _s(m)["breaking"]
    m.apply(break_dry())                 # B breaks rack 2 dry
    m.apply(_ten_made())                 # A wins rack 2
    assert _s(m)["rack"] == 3 and _s(m)["shooter"] == 0 and player(m, 0)["racks"] == 1


def test_T12_O2_break_order_winner_and_loser():
    m = _m(lag(0), break_dry(), _ten_made(), race=[3, 3], **{"break": "winner"})
    assert _s(m)["shooter"] == 1                        # B won: B breaks
    m = _m(lag(0), break_dry(), _ten_made(), race=[3, 3], **{"break": "loser"})
    assert _s(m)["shooter"] == 0                        # A lost: A breaks


# ---------------------------------------------------------------- T2, C-T1


def test_T2_lowest_ball_must_be_hit_first():
    m = _g(shot(first=2, call=2, pots=[2], made=True, rail=True))
    s = _s(m)
    assert s["shooter"] == 0 and s["bih"] == "table" and player(m, 1)["fouls"] == 1
    assert 2 not in s["on_table"] and m.s["note"]["foul"] == "T10"


def test_T2_ten_as_called_on_a_combination_wins_the_rack():
    m = _g(_ten_made(), race=[3, 3])
    s = _s(m)
    assert player(m, 1)["racks"] == 1 and s["rack"] == 2 and m.s["note"]["end"] == "T2"
    assert s["on_table"] == TEN and s["breaking"] is True


def test_T2_ten_after_a_wrong_first_contact_does_not_win():
    m = _g(shot(first=5, call=10, pots=[10], made=True, rail=True), race=[3, 3])
    s = _s(m)
    assert player(m, 1)["racks"] == 0 and s["rack"] == 1 and 10 in s["on_table"]
    assert s["shooter"] == 0 and s["bih"] == "table"


def test_T2_ten_pocketed_not_as_called_does_not_win():
    # A combination that drops the 10 with the 1 called and made: the 10 is spotted (T6).
    m = _g(shot(first=1, call=1, pots=[1, 10], made=True, rail=True), race=[3, 3])
    s = _s(m)
    assert player(m, 1)["racks"] == 0 and 10 in s["on_table"] and 1 not in s["on_table"]
    assert s["shooter"] == 1 and player(m, 1)["run"] == 1


def test_C_T1_without_call_the_lowest_ball_is_the_called_one():
    m = _g(shot(first=1, pots=[1], made=True, rail=True))
    assert _s(m)["shooter"] == 1 and player(m, 1)["run"] == 1   # made as called: continues
    m = _g(shot(first=1, pots=[10], rail=True), race=[3, 3])
    assert player(m, 1)["racks"] == 0 and _s(m)["rack"] == 1    # the 10 was not the call
    assert 10 in _s(m)["on_table"] and _s(m)["pending"]["by"] == 0   # T7


def test_C_T1_made_needs_the_called_ball_among_the_pots():
    m = _g()
    assert refused(m, shot(first=1, pots=[3], made=True, rail=True)) == "C-T1"   # the 1
    assert refused(m, shot(first=1, call=4, pots=[3], made=True, rail=True)) == "C-T1"
    assert refused(m, shot(first=1, call=4, pots=[0], made=True, rail=True)) == "A8"
    m.apply(shot(first=1, call=3, pots=[3], made=True, rail=True))
    assert _s(m)["shooter"] == 1 and 3 not in _s(m)["on_table"]


# ---------------------------------------------------------------- T3 break


def test_T3_break_pocketing_a_ball_continues():
    m = _m(lag(0), shot(first=1, pots=[5], break_rails=0, rail=True))
    s = _s(m)
    assert s["shooter"] == 0 and s["breaking"] is False and s["bih"] is None
    assert 5 not in s["on_table"] and player(m, 0)["fouls"] == 0 and s["push_out"] is True


def test_T3_four_balls_to_rails_dry_passes_the_turn():
    m = _m(lag(0), break_dry())
    s = _s(m)
    assert s["shooter"] == 1 and s["bih"] is None and s["pending"] is None
    assert player(m, 0)["fouls"] == 0 and s["push_out"] is True


def test_T3_three_balls_to_rails_is_a_break_foul_bih_anywhere():
    m = _m(lag(0), shot(first=1, break_rails=3, rail=True))
    s = _s(m)
    assert s["shooter"] == 1 and s["bih"] == "table" and s["pending"] is None
    assert player(m, 0)["fouls"] == 1 and m.s["note"]["foul"] == "T3"
    assert s["push_out"] is False


def test_T3_break_not_hitting_the_1_first_is_a_foul():
    m = _m(lag(0), shot(first=2, pots=[4], break_rails=4, rail=True))
    s = _s(m)
    assert s["shooter"] == 1 and s["bih"] == "table" and player(m, 0)["fouls"] == 1
    assert 4 not in s["on_table"]


def test_T3_scratch_on_the_break_is_a_break_foul():
    m = _m(lag(0), shot(first=1, pots=[3, 0], break_rails=4, rail=True))
    s = _s(m)
    assert s["shooter"] == 1 and s["bih"] == "table" and 3 not in s["on_table"]
    assert m.s["note"]["foul"] == "T3" and player(m, 0)["fouls"] == 1


def test_T3_nothing_is_called_on_the_break():
    # A pocketed ball continues the break though it was no call and not made.
    m = _m(lag(0), shot(first=1, pots=[7], break_rails=1, rail=True, made=False))
    assert _s(m)["shooter"] == 0 and _s(m)["pending"] is None


# ---------------------------------------------------------------- T4, O6


def test_T4_ten_on_the_break_spotted_breaker_continues():
    m = _m(lag(0), shot(first=1, pots=[10, 2], break_rails=4, rail=True), race=[2, 2])
    s = _s(m)
    assert player(m, 0)["racks"] == 0 and s["rack"] == 1 and 10 in s["on_table"]
    assert 2 not in s["on_table"] and s["shooter"] == 0 and s["push_out"] is True
    assert m.s["note"]["spot"] == [10] and player(m, 0)["run"] == 1


def test_T4_ten_the_only_ball_on_the_break_still_continues():
    m = _m(lag(0), shot(first=1, pots=[10], break_rails=0, rail=True))
    s = _s(m)
    assert s["on_table"] == TEN and s["shooter"] == 0 and s["bih"] is None
    assert player(m, 0)["fouls"] == 0 and player(m, 0)["run"] == 0


def test_T4_ten_on_a_foul_break_spotted_turn_passes():
    m = _m(lag(0), shot(first=1, pots=[10, 0], break_rails=4, rail=True))
    s = _s(m)
    assert s["on_table"] == TEN and s["shooter"] == 1 and s["bih"] == "table"
    assert player(m, 0)["racks"] == 0


def test_O6_ten_on_the_break_wins_the_rack():
    m = _m(lag(0), shot(first=1, pots=[10], break_rails=0, rail=True), ten_on_break="win",
           race=[2, 2])
    s = _s(m)
    assert player(m, 0)["racks"] == 1 and s["rack"] == 2 and m.s["note"]["end"] == "O6"
    assert s["shooter"] == 1 and s["breaking"] is True and s["on_table"] == TEN


def test_O6_win_still_needs_a_legal_break():
    m = _m(lag(0), shot(first=1, pots=[10, 0], break_rails=4, rail=True), ten_on_break="win")
    assert player(m, 0)["racks"] == 0 and 10 in _s(m)["on_table"] and _s(m)["shooter"] == 1


def test_O6_spot_is_the_default_and_nine_on_break_does_not_apply():
    evs = (lag(0), shot(first=1, pots=[10], break_rails=4, rail=True))
    for kw in ({}, {"ten_on_break": "spot"}, {"nine_on_break": "win"}):
        m = _m(*evs, **kw)
        assert player(m, 0)["racks"] == 0 and 10 in _s(m)["on_table"], kw


# ---------------------------------------------------------------- T5 push out


def test_T5_push_out_right_after_a_legal_break_only():
    m = _g(shot(call="push", first=None, rail=False))
    s = _s(m)
    assert s["pending"]["by"] == 0 and sorted(s["pending"]["options"]) == ["pass", "shoot"]
    assert player(m, 1)["fouls"] == 0 and s["bih"] is None and s["push_out"] is False
    m = _g(shot(first=1, rail=True))                    # B does not push: chance gone
    assert refused(m, shot(call="push", first=None)) == "T5"
    m = _m(lag(0), shot(first=1, break_rails=1, rail=True))   # after a break foul: none
    assert refused(m, shot(call="push", first=None)) == "T5"


def test_T5_shoot_or_pass_back_and_only_one_push():
    m = _g(shot(call="push", first=6, rail=False), choose("shoot"))
    assert _s(m)["shooter"] == 0 and _s(m)["pending"] is None and _s(m)["bih"] is None
    assert refused(m, shot(call="push", first=None)) == "T5"
    m = _g(shot(call="push", first=None), choose("pass"))
    assert _s(m)["shooter"] == 1 and _s(m)["bih"] is None
    assert refused(m, shot(call="push", first=None)) == "T5"


def test_T5_balls_on_a_push_stay_down_the_ten_spotted():
    m = _g(shot(call="push", first=3, pots=[3, 10], rail=True), race=[2, 2])
    s = _s(m)
    assert s["pending"]["by"] == 0 and player(m, 1)["racks"] == 0 and s["rack"] == 1
    assert 10 in s["on_table"] and 3 not in s["on_table"]


def test_T5_scratch_on_a_push_is_a_foul():
    m = _g(shot(call="push", first=None, pots=[0]))
    s = _s(m)
    assert s["pending"] is None and s["shooter"] == 0 and s["bih"] == "table"
    assert player(m, 1)["fouls"] == 1


def test_T5_choice_pending_refuses_shots_and_wrong_answers():
    m = _g(shot(call="push", first=None))
    assert refused(m, shot(first=1, rail=True)) == "T5"
    assert refused(m, choose("accept")) == "T5"
    assert refused(m, choose("pass", by=1)) == "T5"


# ---------------------------------------------------------------- T6, T7, T8, T9


def test_T6_called_ball_made_continues_others_stay_down():
    m = _g(shot(first=1, call=4, pots=[4, 2], made=True, rail=True))
    s = _s(m)
    assert s["shooter"] == 1 and s["pending"] is None and player(m, 1)["run"] == 2
    assert 4 not in s["on_table"] and 2 not in s["on_table"] and 1 in s["on_table"]


def test_T6_ten_dropped_with_the_called_ball_is_spotted():
    m = _g(shot(first=1, call=1, pots=[1, 10], made=True, rail=True))
    s = _s(m)
    assert 10 in s["on_table"] and s["shooter"] == 1 and m.s["note"]["spot"] == [10]


def test_T7_pocketed_not_as_called_incoming_player_chooses():
    m = _g(shot(first=1, call=1, pots=[3], made=False, rail=True))
    s = _s(m)
    assert s["pending"]["by"] == 0 and sorted(s["pending"]["options"]) == ["pass", "shoot"]
    assert s["shooter"] == 0 and s["bih"] is None and 3 not in s["on_table"]
    assert player(m, 1)["run"] == 0 and player(m, 1)["fouls"] == 0
    assert refused(m, shot(first=1, rail=True)) == "T7"
    assert refused(m, choose("rerack")) == "T7"


def test_T7_shoot_from_where_it_lies():
    m = _g(shot(first=1, pots=[3], rail=True), choose("shoot"))
    s = _s(m)
    assert s["shooter"] == 0 and s["pending"] is None and s["bih"] is None


def test_T7_pass_back_the_player_who_missed_shoots_same_inning():
    m = _g(shot(first=1, pots=[3], rail=True), choose("pass"))
    s = _s(m)
    assert s["shooter"] == 1 and s["pending"] is None and s["bih"] is None
    m.apply(shot(first=1, rail=True))
    assert player(m, 1)["innings"] == 1 and _s(m)["shooter"] == 0   # A1


def test_T7_ten_not_as_called_is_spotted():
    m = _g(shot(first=1, call=2, pots=[10], rail=True), race=[2, 2])
    s = _s(m)
    assert 10 in s["on_table"] and player(m, 1)["racks"] == 0 and s["pending"]["by"] == 0


def test_T8_safety_balls_stay_down_no_choice():
    m = _g(shot(first=1, call="safety", pots=[5, 10], made=True, rail=True))
    s = _s(m)
    assert s["shooter"] == 0 and s["pending"] is None and s["bih"] is None
    assert 5 not in s["on_table"] and 10 in s["on_table"] and player(m, 1)["run"] == 0
    assert player(m, 1)["fouls"] == 0


def test_T9_legal_shot_pocketing_nothing_ends_the_inning():
    m = _g(shot(first=1, rail=True))
    s = _s(m)
    assert s["shooter"] == 0 and s["pending"] is None and s["bih"] is None
    assert player(m, 1)["fouls"] == 0


# ---------------------------------------------------------------- T10, T11


def test_T10_foul_bih_anywhere_balls_stay_down_ten_spotted():
    m = _g(shot(first=1, pots=[2, 10, 0], rail=True), race=[2, 2])
    s = _s(m)
    assert s["shooter"] == 0 and s["bih"] == "table" and player(m, 1)["fouls"] == 1
    assert 2 not in s["on_table"] and 10 in s["on_table"] and player(m, 1)["racks"] == 0


def test_T10_no_rail_after_contact_is_a_foul():
    m = _g(shot(first=1, rail=False))
    assert _s(m)["shooter"] == 0 and _s(m)["bih"] == "table" and player(m, 1)["fouls"] == 1


def test_T10_ball_off_the_table_stays_off_ten_spotted():
    m = _g(shot(first=1, off=[4, 10], rail=True))
    s = _s(m)
    assert 4 not in s["on_table"] and 10 in s["on_table"] and s["balls_left"] == 9
    assert s["shooter"] == 0 and s["bih"] == "table" and player(m, 1)["fouls"] == 1


def test_T11_three_consecutive_fouls_lose_the_rack():
    m = _g(race=[3, 3])
    for _ in range(5):
        m.apply(_foul())  # B, A, B, A, B
    s = _s(m)
    assert player(m, 0)["racks"] == 1 and s["rack"] == 2 and m.s["note"]["end"] == "T11"
    assert s["shooter"] == 1 and s["breaking"] is True  # T12: alternate, A broke rack 1
    assert player(m, 0)["fouls"] == 0 and player(m, 1)["fouls"] == 0


def test_T11_warning_after_the_second_and_a_legal_shot_resets():
    m = _g(_foul(), _foul(), _foul())                   # B 2, A 1
    assert m.s["note"].get("warn") == 1 and player(m, 1)["fouls"] == 2
    m.apply(shot(first=1, rail=True))                   # A legal miss
    m.apply(shot(first=1, call="safety", rail=True))    # B legal safety: B back to 0 (A4)
    assert player(m, 1)["fouls"] == 0 and player(m, 0)["fouls"] == 0
    m.apply(_foul())
    assert _s(m)["rack"] == 1 and player(m, 0)["racks"] == 0


def test_T11_O3_three_foul_rule_off():
    m = _g(three_foul=False)
    for _ in range(6):
        m.apply(_foul())
    assert player(m, 1)["fouls"] == 3 and _s(m)["rack"] == 1


# ---------------------------------------------------------------- accounting, O1


def test_A2_A4_10ball_runs_and_counts_reset_per_rack():
    m = _m(lag(0), shot(first=1, pots=[1, 2], break_rails=4, rail=True), race=[3, 3])
    m.apply(shot(first=3, call=3, pots=[3], made=True, rail=True))
    assert player(m, 0)["run"] == 3 and player(m, 0)["high_run"] == 3
    m.apply(shot(first=4, rail=True))                   # A misses: B to shoot
    assert player(m, 0)["run"] == 0 and player(m, 0)["high_run"] == 3
    m.apply(_foul())                                    # B fouls once
    m.apply(shot(first=4, call=10, pots=[10], made=True, rail=True))  # A (BIH) wins
    assert player(m, 1)["fouls"] == 0 and _s(m)["rack"] == 2 and player(m, 0)["racks"] == 1
    assert player(m, 0)["innings"] == 2 and player(m, 1)["innings"] == 1


def test_A1_10ball_alternate_break_is_a_new_inning():
    m = _g(_ten_made(), race=[3, 3])                    # B wins; B breaks rack 2
    assert player(m, 1)["innings"] == 1
    m.apply(break_dry())
    assert player(m, 1)["innings"] == 1                 # B's win and break: one inning
    m.apply(shot(first=1, rail=True))
    assert player(m, 0)["innings"] == 2


def test_A1_10ball_break_and_run_statistics():
    m = _m(lag(0), shot(first=1, pots=[1], break_rails=4, rail=True), race=[3, 3])
    m.apply(shot(first=2, call=10, pots=[10], made=True, rail=True))  # A breaks and runs
    assert m.s["tot"][0] == [0, 1]
    m.apply(break_dry())                                 # B breaks dry; A wins: not B's
    m.apply(_ten_made())
    assert m.s["tot"][0] == [0, 1] and m.s["tot"][1] == [0, 0]
    assert player(m, 0)["racks"] == 2


def test_O1_10ball_race_reached_match_over():
    m = _g(_ten_made(), race=[2, 1])
    s = _s(m)
    assert s["winner"] == 1 and s["shooter"] is None and s["bih"] is None
    assert s["breaking"] is False and s["push_out"] is False and s["pending"] is None
    assert refused(m, break_dry()) == "A11"
    m.apply(UNDO)
    assert _s(m)["winner"] is None and _s(m)["shooter"] == 1


# ---------------------------------------------------------------- the event contract


def _bad(ev):
    try:
        events.check(ev)
    except events.BadEvent:
        return True
    return False


def test_O6_new_event_shape_ten_on_break_spot_or_win():
    for v in ("spot", "win"):
        assert not _bad(new("10ball", ten_on_break=v))
    assert _bad(new("10ball", ten_on_break="rerack")) and _bad(new("10ball", ten_on_break=1))
    assert _bad(new("11ball"))
    assert not _bad(shot(first=1, call=10, pots=[10], made=True))      # T2: a called ball
    assert not _bad(choose("pass")) and not _bad(choose("shoot"))       # T5, T7
    assert _bad(shot(first=1, call="ten"))
