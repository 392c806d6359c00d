# mp: yes
# Refused events (named rule, state unchanged), malformed events (BadEvent) and undo (docs/contracts.md).
from firmware import events
from tests.helpers import (
    UNDO,
    Match,
    break_141_ok,
    break_dry,
    choose,
    lag,
    miss,
    new,
    play,
    player,
    refused,
    scratch,
    shot,
)


def _s4():
    """14.1 with a breaking violation by A: B must choose (S4)."""
    return play(new("14.1"), lag(0), shot(first=1, break_rails=1, cue_rail=True, rail=True))


def _n7():
    """9-ball after a legal push out by B: A must choose (N7)."""
    return play(new("9ball"), lag(0), break_dry(), shot(call="push", first=None, rail=False))


def _nine_2_down():
    """9-ball: A's break pocketed the 2 and A is still at the table."""
    return play(new("9ball"), lag(0), shot(first=1, pots=[2], break_rails=2, rail=True))


def _over():
    return play(
        new("9ball", race=[1, 1]), lag(0), shot(first=1, pots=[9], break_rails=4, rail=True)
    )


def _bad(m, ev):
    before = m.state()
    n = len(m.log)
    try:
        m.apply(ev)
    except events.BadEvent:
        assert m.state() == before and len(m.log) == n
        return
    raise AssertionError("malformed event accepted: %r" % (ev,))


# ---------------------------------------------------------------- pending choices


def test_shot_while_a_choice_is_pending():
    assert refused(_s4(), break_141_ok()) == "S4"
    assert refused(_n7(), miss(1)) == "N7"
    m = play(new("8ball"), lag(0), shot(first=1, break_rails=2, rail=True))
    assert refused(m, miss(1)) == "E3"
    m = play(new("8ball"), lag(0), shot(first=1, pots=[8], break_rails=2, rail=True))
    assert refused(m, miss(1)) == "E4"


def test_choose_with_no_pending_choice():
    assert refused(play(new("14.1"), lag(0), break_141_ok()), choose("accept")) == "S4"
    assert refused(play(new("8ball"), lag(0), break_dry()), choose("rerack")) == "E3"
    assert refused(play(new("9ball"), lag(0), break_dry()), choose("pass")) == "N7"


def test_choose_wrong_option():
    assert refused(_s4(), choose("kitchen")) == "S4"
    assert refused(_n7(), choose("accept")) == "N7"
    m = play(new("8ball"), lag(0), shot(first=1, pots=[8], break_rails=2, rail=True))
    assert refused(m, choose("kitchen")) == "E4"


def test_choose_by_the_wrong_player():
    assert refused(_s4(), choose("accept", by=0)) == "S4"
    assert refused(_n7(), choose("shoot", by=1)) == "N7"
    m = _s4()
    m.apply(choose("accept", by=1))  # the right player is accepted
    assert m.state()["shooter"] == 1


def test_breaker_named_where_no_re_rack_lets_the_chooser_pick():
    assert refused(_s4(), choose("rerack", breaker=1)) == "A7"
    m = play(new("8ball"), lag(0), shot(first=1, pots=[8], break_rails=2, rail=True))
    assert refused(m, choose("rerack", breaker=1)) == "A7"


# ---------------------------------------------------------------- balls


def test_ball_not_on_the_table():
    m = _nine_2_down()
    assert refused(m, shot(first=1, pots=[2], rail=True)) == "N1"
    assert refused(m, shot(first=2, rail=True)) == "N1"
    assert refused(m, shot(first=1, off=[2], rail=True)) == "N1"
    assert refused(m, shot(first=1, pots=[10], rail=True)) == "N1"
    m = play(new("8ball"), lag(0), shot(first=1, pots=[5], break_rails=2, rail=True))
    assert refused(m, shot(call=5, first=5, rail=True)) == "E1"
    assert refused(m, shot(first=16, rail=True)) == "E1"
    m = play(new("14.1"), lag(0))
    assert refused(m, shot(first=16, break_rails=2, cue_rail=True, rail=True)) == "S1"


def test_ball_listed_twice():
    m = _nine_2_down()
    assert refused(m, shot(first=1, pots=[3, 3], rail=True)) == "N1"
    assert refused(m, shot(first=1, pots=[3], off=[3], rail=True)) == "N1"
    m = play(new("8ball"), lag(0), break_dry())
    assert refused(m, shot(first=1, pots=[0, 0], rail=True)) == "E1"
    m = play(new("14.1"), lag(0), break_141_ok())
    assert refused(m, shot(first=1, pots=[4, 4], rail=True)) == "S1"


def test_more_balls_than_on_the_table_14_1():
    m = play(
        new("14.1"), lag(0), shot(first=1, call=1, pots=list(range(1, 14)), made=True, rail=True)
    )
    assert m.state()["balls_left"] == 2
    assert refused(m, shot(first=1, pots=[1, 2, 3], rail=True)) == "S1"


def test_cue_ball_can_not_be_hit_first():
    assert refused(_nine_2_down(), shot(first=0, rail=True)) == "G3"


def test_made_without_a_pocketed_ball():
    m = play(new("14.1"), lag(0), break_141_ok())
    assert refused(m, shot(call=3, first=3, made=True, rail=True)) == "A8"
    m = play(new("8ball"), lag(0), break_dry())
    assert refused(m, shot(call=3, first=3, pots=[0], made=True, rail=True)) == "A8"
    assert refused(m, shot(call=3, first=3, pots=[4], made=True, rail=True)) == "A8"


def test_unknown_called_foul():
    m = play(new("9ball"), lag(0), break_dry())
    assert refused(m, shot(first=1, rail=True, foul="G99")) == "G5"
    assert refused(m, shot(first=1, rail=True, foul="touch")) == "G5"


def test_push_out_only_right_after_a_legal_break():
    m = play(new("9ball"), lag(0), break_dry(), miss(1))
    assert refused(m, shot(call="push", first=None)) == "N7"
    m = play(new("9ball"), lag(0), shot(first=2, break_rails=4, rail=True))  # break foul
    assert refused(m, shot(call="push", first=None)) == "N7"


# ---------------------------------------------------------------- lag, new, match over


def test_shot_before_the_lag():
    m = play(new("9ball"))
    assert refused(m, break_dry()) == "A11"


def test_second_lag():
    assert refused(play(new("9ball"), lag(0)), lag(0)) == "G1"
    assert refused(play(new("8ball"), lag(1), break_dry()), lag(0)) == "G1"


def test_event_before_new_and_second_new():
    assert refused(Match(), lag(0)) == "O1"
    assert refused(play(new("9ball")), new("8ball")) == "O1"


def test_anything_after_the_match_is_over():
    m = _over()
    assert m.state()["winner"] == 0
    assert refused(m, break_dry()) == "A11"
    assert refused(m, choose("accept")) == "A11"
    assert refused(m, lag(1)) == "A11"
    refused(m, new("9ball"))  # also refused (rule O1: match on)


# ---------------------------------------------------------------- malformed events


def test_malformed_events_raise_bad_event():
    m = play(new("9ball"), lag(0))
    for ev in (
        [],
        "shot",
        {"x": 1},
        {"t": "pass"},
        {"t": "shot", "pocket": [1]},
        {"t": "shot", "rail": 1},
        {"t": "shot", "first": "1"},
        {"t": "shot", "pots": "1,2"},
        {"t": "shot", "pots": [1.5]},
        {"t": "shot", "off": 3},
        {"t": "shot", "break_rails": 16},
        {"t": "shot", "break_rails": -1},
        {"t": "shot", "call": "bank"},
        {"t": "shot", "foul": 54},
        {"t": "shot", "made": "yes"},
        {"t": "choose", "option": "maybe"},
        {"t": "choose"},
        {"t": "choose", "option": "accept", "by": 2},
        {"t": "choose", "option": "rerack", "breaker": "A"},
        {"t": "lag", "breaker": 2},
        {"t": "lag"},
        {"t": "lag", "breaker": True},
        {"t": "undo", "n": 2},
    ):
        _bad(m, ev)


def test_malformed_new_events():
    for ev in (
        {"t": "new", "game": "snooker", "players": ["A", "B"]},
        {"t": "new", "game": "9ball", "players": ["A"]},
        {"t": "new", "game": "9ball", "players": ["A", ""]},
        {"t": "new", "game": "9ball", "players": ["A", 7]},
        {"t": "new", "game": "14.1", "players": ["A", "B"], "target": [0, 50]},
        {"t": "new", "game": "14.1", "players": ["A", "B"], "target": [50]},
        {"t": "new", "game": "9ball", "players": ["A", "B"], "race": ["5", "5"]},
        {"t": "new", "game": "9ball", "players": ["A", "B"], "break": "random"},
        {"t": "new", "game": "9ball", "players": ["A", "B"], "nine_on_break": "lose"},
        {"t": "new", "game": "9ball", "players": ["A", "B"], "three_foul": "no"},
    ):
        _bad(Match(), ev)


# ---------------------------------------------------------------- undo


def test_undo_back_to_the_start():
    start = play(new("8ball")).state()
    m = play(new("8ball"), lag(1), break_dry(), scratch(1), miss(2))
    for _ in range(4):
        m.apply(UNDO)
    assert m.state() == start
    assert refused(m, UNDO) == "A11"  # the new event itself stays


def test_undo_of_nothing_is_refused():
    assert refused(Match(), UNDO) == "A11"


def _play_steps(m, evs):
    # Apply evs to m, yielding every 8 events (MicroPython collects garbage between steps).
    for i, ev in enumerate(evs):
        m.apply(ev)
        if i % 8 == 7:
            yield


def steps_undo_is_the_same_as_never_having_played_the_event():
    evs = [new("14.1"), lag(0), break_141_ok()]
    for _ in range(9):
        evs += [scratch(2), scratch(2), miss(2), miss(2)]  # B and A foul once, then legal
    m = Match()
    for _ in _play_steps(m, evs):
        yield
    assert len(m.log) == 39  # past two snapshots (one every 16 events)
    for k in range(1, 12):
        m.apply(UNDO)
        yield
        ref = Match()
        for _ in _play_steps(ref, evs[: len(evs) - k]):
            yield
        assert m.state() == ref.state() and m.s == ref.s
        yield


def test_undo_is_the_same_as_never_having_played_the_event():
    for _ in steps_undo_is_the_same_as_never_having_played_the_event():
        pass


def test_undo_skips_refused_events():
    m = play(new("9ball"), lag(0), break_dry())
    before = m.state()
    m.apply(scratch(1))
    refused(m, choose("pass"))
    m.apply(UNDO)
    assert m.state() == before


def test_undo_after_match_over_reopens_the_match():
    m = _over()
    m.apply(UNDO)
    st = m.state()
    assert st["winner"] is None and st["shooter"] == 0 and st["breaking"] is True
    assert player(m, 0)["racks"] == 0
    m.apply(break_dry())  # play goes on
    assert m.state()["shooter"] == 1

