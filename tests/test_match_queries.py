# The Match queries (docs/contracts.md "Match queries") agree with the state contract and the rules.
import pytest
from views_models import BREAK_141, m8_choice, m9_push, m141_run, m141_two_fouls

from firmware import rules
from firmware.match import Match

CONTRACT = {"shooter": "shooter", "bih": "bih", "breaking": "breaking", "push": "push_out",
            "winner": "winner", "groups": "groups", "table": "on_table", "rack": "rack",
            "game": "game"}
PLAYER = ("score", "racks", "fouls", "innings", "run", "high_run")


@pytest.mark.parametrize("make", [m141_two_fouls, m141_run, m8_choice, m9_push])
def test_the_queries_say_what_the_state_contract_says(make):
    m = make()
    st = m.state()
    for k, c in CONTRACT.items():
        assert m.get(k) == st[c], k
    assert m.balls_left() == st["balls_left"]
    for i in (0, 1):
        assert m.get("names")[i] == st["players"][i]["name"]
        for k in PLAYER:
            assert m.player(i, k) == st["players"][i][k], (i, k)
        # C-S7, C-E4, C-N3: the warning after the second foul in a row
        assert m.warned(i) == (st["players"][i]["fouls"] >= 2 and st["winner"] is None)
    pend = st["pending"]
    assert list(m.options()) == (pend["options"] if pend else [])
    assert (m.get("pending") or [None])[0] == (pend and pend["by"])


def test_no_match_yet_reads_as_none():
    m = Match()
    assert m.state() is None and m.get("shooter") is None and m.get("note") is None
    assert m.options() == () and not m.warned(0)


def test_balls_are_checked_and_the_rack_case_is_the_14_1_rules():
    m = m9_push()  # balls 2 and 5 went in on the break
    with pytest.raises(rules.Refused) as e:
        m.check_ball(5)
    assert e.value.rule == "N1"
    m.check_ball(3)  # on the table: no refusal
    m = Match()
    for ev in ({"t": "new", "game": "14.1", "players": ["A", "B"]}, {"t": "lag", "breaker": 0},
               BREAK_141):
        m.apply(ev)
    from firmware import rules_141

    for pots in (13, 14):  # A10: the 14th ball down leaves one, the 15th none
        for cue_in, ball_in, kitchen in ((False, False, False), (True, False, True),
                                         (True, True, False)):
            assert m.rack_case(pots, cue_in, ball_in, kitchen) == \
                rules_141.rack_case(15 - pots, cue_in, ball_in, kitchen)
