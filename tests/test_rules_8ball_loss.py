# mp: yes
# 8-ball loss of the rack and the three-foul rule (RULES.md E12.1-E12.6, C-E4, O3, A4, A5).
from tests.helpers import a_cleared, a_solids, break_dry, choose, lag, match8, player, pot, shot


def _lost_by_a(m):
    s = m.state()
    assert player(m, 1)["racks"] == 1 and player(m, 0)["racks"] == 0 and s["winner"] is None
    assert s["rack"] == 2 and s["breaking"] is True and s["shooter"] == 1  # E2: B breaks
    assert s["on_table"] == list(range(1, 16)) and s["groups"] is None


# ---------------------------------------------------------------- E12 loss of the rack


def test_E12_1_foul_while_pocketing_the_8_loses():
    m = a_cleared(race=[3, 3])
    m.apply(shot(first=8, call=8, pots=[8, 0], made=True, rail=True))
    _lost_by_a(m)


def test_E12_1_8_pocketed_after_wrong_first_contact_loses():
    m = a_cleared(race=[3, 3])
    m.apply(shot(first=12, call=8, pots=[8], made=True, rail=True))
    _lost_by_a(m)


def test_E12_2_8_with_the_last_group_ball_loses():
    m = match8(
        lag(0), shot(first=1, pots=[1, 2, 3, 4, 5], break_rails=4, rail=True), pot(6), race=[3, 3]
    )
    assert m.state()["groups"] == ["solids", "stripes"]
    m.apply(shot(first=7, call=7, pots=[7, 8], made=True, rail=True))
    _lost_by_a(m)


def test_E12_3_8_off_the_table_loses():
    m = a_solids()
    m.apply(shot(first=4, off=[8], rail=True))
    _lost_by_a(m)


def test_E12_4_8_in_another_pocket_loses():
    m = a_cleared(race=[3, 3])
    m.apply(shot(first=8, call=8, pots=[8], made=False, rail=True))
    _lost_by_a(m)


def test_E12_5_8_when_not_the_object_ball_loses():
    m = a_solids()
    m.apply(shot(first=4, call=4, pots=[4, 8], made=True, rail=True))
    _lost_by_a(m)


def test_E12_5_8_on_an_open_table_loses():
    m = match8(lag(1), break_dry(), shot(first=3, pots=[3, 8], made=True, rail=True))
    s = m.state()
    assert player(m, 1)["racks"] == 1 and player(m, 0)["racks"] == 0 and s["rack"] == 2


def test_E12_6_three_consecutive_fouls_lose():
    m = a_solids()
    m.apply(shot(first=None))  # A foul 1
    m.apply(shot(first=None))  # B foul 1
    m.apply(shot(first=None))  # A foul 2
    m.apply(shot(first=12, rail=True))  # B legal miss
    assert player(m, 0)["fouls"] == 2 and player(m, 1)["fouls"] == 0
    m.apply(shot(first=None))  # A foul 3
    _lost_by_a(m)
    assert player(m, 0)["fouls"] == 0 and player(m, 1)["fouls"] == 0  # A4


def test_E12_6_a_legal_shot_resets_the_count():
    m = a_solids()
    m.apply(shot(first=None))  # A foul 1
    m.apply(shot(first=12, rail=True))  # B miss
    m.apply(shot(first=None))  # A foul 2
    m.apply(shot(first=12, rail=True))
    m.apply(shot(first=4, rail=True))  # A legal miss: count back to 0
    assert player(m, 0)["fouls"] == 0
    m.apply(shot(first=12, rail=True))
    m.apply(shot(first=None))  # A foul 1
    m.apply(shot(first=12, rail=True))
    m.apply(shot(first=None))  # A foul 2 (4th foul of A in the rack)
    assert player(m, 0)["fouls"] == 2 and player(m, 1)["racks"] == 0
    assert m.state()["rack"] == 1 and m.state()["shooter"] == 1


def test_E12_6_A5_bad_break_counts_as_first_foul():
    m = match8(lag(0), shot(first=1, break_rails=1, rail=True))
    m.apply(choose("accept"))
    m.apply(shot(first=2, rail=True))  # B legal miss
    m.apply(shot(first=None))  # A foul 2
    m.apply(shot(first=2, rail=True))
    m.apply(shot(first=None))  # A foul 3
    assert player(m, 1)["racks"] == 1


def test_O3_three_foul_rule_off():
    m = match8(lag(0), shot(first=1, break_rails=4, rail=True), three_foul=False)
    for _ in range(6):
        m.apply(shot(first=None))
    assert player(m, 0)["fouls"] == 3 and player(m, 1)["fouls"] == 3
    assert m.state()["rack"] == 1 and player(m, 0)["racks"] == 0


def test_E12_note_scratch_at_the_8_without_pocketing_it_is_a_plain_foul():
    m = a_cleared(race=[3, 3])
    m.apply(shot(first=8, call=8, pots=[0], rail=True))
    s = m.state()
    assert s["rack"] == 1 and s["shooter"] == 1 and s["bih"] == "table"
    assert player(m, 1)["racks"] == 0 and 8 in s["on_table"]


# ---------------------------------------------------------------- C-E4 warning


def test_C_E4_warning_after_second_consecutive_foul():
    m = a_solids()
    m.apply(shot(first=None))
    assert (m.s["note"] or {}).get("warn") is None
    m.apply(shot(first=12, rail=True))
    m.apply(shot(first=None))
    assert m.s["note"].get("warn") == 0 and player(m, 0)["fouls"] == 2
