# mp: yes
# 9-ball rules (RULES.md N1-N11, C-N1-C-N4, O2-O4); expectations worked out from the rule text.
from tests.helpers import UNDO, break_dry, choose, lag, new, play, player, refused, shot

NINE = list(range(1, 10))


def _m(*evs, **kw):
    return play(new("9ball", **kw), *evs)


def _win_break():
    return shot(first=1, pots=[9], break_rails=4, rail=True)


def _foul():
    return shot(first=None)


def _s(m):
    return m.state()


# ---------------------------------------------------------------- N1, N3


def test_N1_nine_balls_racked():
    m = _m(lag(0))
    s = _s(m)
    assert s["on_table"] == NINE and s["balls_left"] == 9 and s["groups"] is None
    assert refused(m, shot(first=1, pots=[10], break_rails=4)) == "N1"


def test_N3_lag_then_winner_of_a_rack_breaks_next():
    m = _m(lag(1), race=[3, 3])
    assert _s(m)["shooter"] == 1 and _s(m)["breaking"] is True
    m.apply(break_dry())  # B dry, A to shoot
    m.apply(shot(first=1, pots=[9], rail=True))  # A wins rack 1
    s = _s(m)
    assert s["rack"] == 2 and player(m, 0)["racks"] == 1
    assert s["shooter"] == 0 and s["breaking"] is True and s["on_table"] == NINE


def test_O2_break_order_loser_and_alternate():
    m = _m(lag(0), _win_break(), race=[3, 3], **{"break": "loser"})
    assert player(m, 0)["racks"] == 1 and _s(m)["shooter"] == 1
    m = _m(lag(0), _win_break(), race=[3, 3], **{"break": "alternate"})
    assert _s(m)["shooter"] == 1
    m.apply(_win_break())  # B wins rack 2; A broke rack 1
    assert _s(m)["shooter"] == 0 and player(m, 1)["racks"] == 1


# ---------------------------------------------------------------- N2, N5, N6


def test_N2_lowest_ball_must_be_hit_first():
    m = _m(lag(0), break_dry())
    m.apply(shot(first=2, pots=[2], rail=True))
    s = _s(m)
    assert s["shooter"] == 0 and s["bih"] == "table" and player(m, 1)["fouls"] == 1
    assert 2 not in s["on_table"]  # N9: not spotted


def test_N2_lowest_changes_as_balls_go_down():
    m = _m(lag(0), shot(first=1, pots=[1], break_rails=4, rail=True))
    m.apply(shot(first=2, pots=[3], rail=True))  # 2 is now the lowest: legal
    s = _s(m)
    assert s["shooter"] == 0 and player(m, 0)["fouls"] == 0 and 3 not in s["on_table"]


def test_N2_9_on_a_legal_shot_wins_nothing_called():
    m = _m(lag(0), break_dry(), race=[3, 3])
    m.apply(shot(first=1, pots=[9], rail=True))  # combination, no call
    s = _s(m)
    assert player(m, 1)["racks"] == 1 and s["rack"] == 2 and s["shooter"] == 1
    assert s["breaking"] is True and s["on_table"] == NINE


def test_N2_9_after_wrong_first_contact_does_not_win():
    m = _m(lag(0), break_dry(), race=[3, 3])
    m.apply(shot(first=5, pots=[9], rail=True))
    s = _s(m)
    assert player(m, 1)["racks"] == 0 and s["rack"] == 1 and 9 in s["on_table"]
    assert s["shooter"] == 0 and s["bih"] == "table"


def test_N5_lowest_first_then_no_rail_no_pot_is_foul():
    m = _m(lag(0), break_dry(), shot(first=1, rail=False))
    assert _s(m)["shooter"] == 0 and _s(m)["bih"] == "table"
    assert player(m, 1)["fouls"] == 1


def test_N5_lowest_first_then_rail_is_legal_miss():
    m = _m(lag(0), break_dry(), shot(first=1, rail=True))
    s = _s(m)
    assert s["shooter"] == 0 and s["bih"] is None and player(m, 1)["fouls"] == 0


def test_N6_any_ball_pocketed_continues():
    m = _m(lag(0), break_dry(), shot(first=1, pots=[6], rail=True))
    s = _s(m)
    assert s["shooter"] == 1 and 6 not in s["on_table"] and 1 in s["on_table"]
    assert player(m, 1)["run"] == 1


# ---------------------------------------------------------------- N4 break


def test_N4_break_pocketing_a_ball_continues():
    m = _m(lag(0), shot(first=1, pots=[5], break_rails=0, rail=True))
    s = _s(m)
    assert s["shooter"] == 0 and s["breaking"] is False and s["bih"] is None
    assert 5 not in s["on_table"] and player(m, 0)["fouls"] == 0


def test_N4_four_balls_to_rails_dry_passes_turn():
    m = _m(lag(0), break_dry())
    s = _s(m)
    assert s["shooter"] == 1 and s["bih"] is None and player(m, 0)["fouls"] == 0


def test_N4_three_balls_to_rails_is_break_foul_bih_table():
    m = _m(lag(0), shot(first=1, break_rails=3, rail=True))
    s = _s(m)
    assert s["shooter"] == 1 and s["bih"] == "table" and s["pending"] is None
    assert player(m, 0)["fouls"] == 1 and s["breaking"] is False


def test_N4_scratch_on_break_is_foul_bih_table():
    m = _m(lag(0), shot(first=1, pots=[3, 0], break_rails=4, rail=True))
    s = _s(m)
    assert s["shooter"] == 1 and s["bih"] == "table" and 3 not in s["on_table"]
    assert player(m, 0)["fouls"] == 1


def test_N4_A5_break_not_hitting_the_1_first_is_foul():
    m = _m(lag(0), shot(first=2, pots=[4], break_rails=4, rail=True))
    assert _s(m)["shooter"] == 1 and _s(m)["bih"] == "table"
    assert player(m, 0)["fouls"] == 1


# ---------------------------------------------------------------- N7 push out, C-N4


def test_N7_push_out_flag_exactly_right_after_legal_break():
    m = _m(lag(0))
    assert _s(m)["push_out"] is False
    m.apply(break_dry())
    assert _s(m)["push_out"] is True
    m.apply(shot(first=1, rail=True))  # B does not push: chance gone
    assert _s(m)["push_out"] is False
    assert refused(m, shot(call="push", first=None)) == "N7"


def test_N7_breaker_who_pockets_on_break_may_push():
    m = _m(lag(0), shot(first=1, pots=[4], break_rails=2, rail=True))
    assert _s(m)["push_out"] is True and _s(m)["shooter"] == 0
    m.apply(shot(call="push", first=None))
    s = _s(m)
    assert s["pending"]["by"] == 1 and sorted(s["pending"]["options"]) == ["pass", "shoot"]
    assert s["shooter"] == 1 and s["push_out"] is False and player(m, 0)["fouls"] == 0


def test_N7_no_push_after_break_foul():
    m = _m(lag(0), shot(first=1, break_rails=1, rail=True))
    assert _s(m)["push_out"] is False
    assert refused(m, shot(call="push", first=None)) == "N7"


def test_N7_push_need_not_contact_any_ball_or_rail():
    m = _m(lag(0), break_dry(), shot(call="push", first=None, rail=False))
    s = _s(m)
    assert s["pending"]["by"] == 0 and player(m, 1)["fouls"] == 0 and s["bih"] is None


def test_N7_push_may_hit_any_ball():
    m = _m(lag(0), break_dry(), shot(call="push", first=6, rail=False))
    assert _s(m)["pending"]["by"] == 0 and player(m, 1)["fouls"] == 0


def test_N7_scratch_on_push_is_foul():
    m = _m(lag(0), break_dry(), shot(call="push", first=None, pots=[0]))
    s = _s(m)
    assert s["pending"] is None and s["shooter"] == 0 and s["bih"] == "table"
    assert player(m, 1)["fouls"] == 1 and s["push_out"] is False


def test_N7_shoot_opponent_shoots_from_where_it_lies():
    m = _m(lag(0), break_dry(), shot(call="push", first=None), choose("shoot"))
    s = _s(m)
    assert s["pending"] is None and s["shooter"] == 0 and s["bih"] is None
    assert s["push_out"] is False
    assert refused(m, shot(call="push", first=None)) == "N7"  # only one push per rack


def test_C_N4_pass_back_pusher_must_shoot_same_inning():
    m = _m(lag(0), break_dry(), shot(call="push", first=None), choose("pass"))
    s = _s(m)
    assert s["pending"] is None and s["shooter"] == 1 and s["bih"] is None
    assert refused(m, shot(call="push", first=None)) == "N7"
    m.apply(shot(first=1, rail=True))
    assert player(m, 1)["innings"] == 1  # A1: passed back, same inning
    assert _s(m)["shooter"] == 0


def test_N7_choice_pending_refuses_shots():
    m = _m(lag(0), break_dry(), shot(call="push", first=None))
    assert refused(m, shot(first=1, rail=True)) == "N7"
    assert refused(m, choose("accept")) == "N7"
    assert refused(m, choose("pass", by=1)) == "N7"


def test_C_N1_9_on_push_spotted_push_stands_C_N2_others_stay_down():
    m = _m(lag(0), break_dry(), shot(call="push", first=3, pots=[3, 9], rail=True))
    s = _s(m)
    assert s["pending"]["by"] == 0 and player(m, 1)["racks"] == 0
    assert 9 in s["on_table"] and 3 not in s["on_table"] and s["rack"] == 1


# ---------------------------------------------------------------- N8, N9, N10


def test_N8_bih_anywhere_after_foul():
    m = _m(lag(0), break_dry(), shot(first=1, pots=[0], rail=True))
    assert _s(m)["shooter"] == 0 and _s(m)["bih"] == "table"


def test_N9_balls_on_foul_stay_down_9_spotted():
    m = _m(lag(0), break_dry(), race=[3, 3])
    m.apply(shot(first=1, pots=[2, 9, 0], rail=True))
    s = _s(m)
    assert 9 in s["on_table"] and 2 not in s["on_table"] and 1 in s["on_table"]
    assert player(m, 1)["racks"] == 0 and s["shooter"] == 0 and s["bih"] == "table"


def test_N10_ball_off_is_foul_stays_off_9_off_spotted():
    m = _m(lag(0), break_dry(), shot(first=1, off=[4, 9], rail=True))
    s = _s(m)
    assert 4 not in s["on_table"] and 9 in s["on_table"] and s["balls_left"] == 8
    assert s["shooter"] == 0 and s["bih"] == "table" and player(m, 1)["fouls"] == 1


# ---------------------------------------------------------------- N11, C-N3


def test_N11_three_consecutive_fouls_lose_the_rack():
    m = _m(lag(0), break_dry(), race=[3, 3])
    for _ in range(5):
        m.apply(_foul())  # B, A, B, A, B
    s = _s(m)
    assert player(m, 0)["racks"] == 1 and s["rack"] == 2
    assert s["shooter"] == 0 and s["breaking"] is True  # N3: the winner breaks
    assert player(m, 0)["fouls"] == 0 and player(m, 1)["fouls"] == 0


def test_N11_legal_shot_between_resets():
    m = _m(lag(0), break_dry(), _foul(), _foul(), _foul())  # B 2, A 1
    m.apply(shot(first=1, rail=True))  # A legal miss
    m.apply(shot(first=1, rail=True))  # B legal: B back to 0
    assert player(m, 1)["fouls"] == 0 and player(m, 0)["fouls"] == 0
    m.apply(_foul())  # A 1
    assert _s(m)["rack"] == 1 and player(m, 0)["racks"] == 0


def test_C_N3_counts_are_per_rack_and_warning_after_second():
    m = _m(lag(0), break_dry(), _foul(), _foul(), race=[3, 3])
    m.apply(_foul())  # B's second foul
    assert m.s["note"].get("warn") == 1 and player(m, 1)["fouls"] == 2
    m.apply(shot(first=1, pots=[9], rail=True))  # A (BIH) wins the rack
    assert player(m, 1)["fouls"] == 0 and _s(m)["rack"] == 2
    m.apply(break_dry())  # A breaks, B to shoot
    m.apply(_foul())  # B: first foul of rack 2
    assert player(m, 1)["fouls"] == 1 and player(m, 0)["racks"] == 1 and _s(m)["rack"] == 2


def test_O3_three_foul_rule_off():
    m = _m(lag(0), break_dry(), three_foul=False)
    for _ in range(6):
        m.apply(_foul())
    assert player(m, 1)["fouls"] == 3 and _s(m)["rack"] == 1


# ---------------------------------------------------------------- C-N1, O4, A9, O1


def test_C_N1_9_on_legal_break_wins_the_rack():
    m = _m(lag(0), shot(first=1, pots=[9], break_rails=4, rail=True), race=[2, 2])
    s = _s(m)
    assert player(m, 0)["racks"] == 1 and s["rack"] == 2 and s["shooter"] == 0
    assert s["breaking"] is True and s["push_out"] is False


def test_C_N1_9_on_foul_break_is_spotted():
    m = _m(lag(0), shot(first=1, pots=[9, 0], break_rails=4, rail=True))
    s = _s(m)
    assert player(m, 0)["racks"] == 0 and 9 in s["on_table"]
    assert s["shooter"] == 1 and s["bih"] == "table"


def test_O4_A9_9_on_break_spotted_breaker_continues():
    m = _m(lag(0), shot(first=1, pots=[9], break_rails=0, rail=True), nine_on_break="spot")
    s = _s(m)
    assert player(m, 0)["racks"] == 0 and s["rack"] == 1 and 9 in s["on_table"]
    assert s["shooter"] == 0 and s["breaking"] is False and s["push_out"] is True


def test_O1_race_reached_match_over():
    m = _m(lag(0), _win_break(), race=[2, 2])
    m.apply(_win_break())
    s = _s(m)
    assert s["winner"] == 0 and s["shooter"] is None and s["bih"] is None
    assert s["breaking"] is False and s["push_out"] is False and player(m, 0)["racks"] == 2
    assert refused(m, break_dry()) == "A11"
    m.apply(UNDO)
    assert _s(m)["winner"] is None and _s(m)["breaking"] is True
