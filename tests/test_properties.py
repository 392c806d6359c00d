# Property tests (hypothesis): random event streams against the invariants of RULES.md and docs/contracts.md.
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware import rules, stjson
from firmware.match import Match

CHOICES = ("accept", "rerack", "kitchen", "spot8", "shoot", "pass")


# draw_event's strategies, made once (the same draws: hypothesis would look each up again)
_INTS = {n: st.integers(0, n) for n in (1, 3, 4, 5, 6, 12, 15, 20)}  # 0 .. n
_BOOL = st.booleans()
_KINDS = st.sampled_from(("shot",) * 8 + ("choose", "undo", "ext"))
_CHOICES = st.sampled_from(CHOICES)
_FOULS = st.sampled_from(rules.CALLED_FOULS + ("G99",))


def _balls(data, pool, most):
    k = data.draw(_INTS[most])
    return data.draw(st.lists(st.sampled_from(pool), min_size=0, max_size=k, unique=True)) \
        if pool else []


def draw_event(data, m):
    """An event that fits the current state often enough to play deep into a match."""
    s = m.s
    kind = data.draw(_KINDS)
    if s["pending"] and data.draw(_BOOL):
        kind = "choose"
    if kind in ("undo", "ext"):
        return {"t": kind}                          # K3: an extension, refused once none is left
    if data.draw(_INTS[15]) == 0:
        return {"t": "shot", "foul": "K4"}          # K4, C-K2: a time foul
    if kind == "choose":
        ev = {"t": "choose", "option": data.draw(_CHOICES)}
        if data.draw(_INTS[4]) == 0:
            ev["breaker"] = data.draw(_INTS[1])
        if data.draw(_INTS[4]) == 0:
            ev["by"] = data.draw(_INTS[1])
        return ev
    table = s["table"] if s["table"] is not None else list(range(1, 16))
    if data.draw(_INTS[20]) == 0:
        table = list(range(1, 16))          # now and then a ball that is not there
    ev = {"t": "shot", "rail": data.draw(_BOOL)}
    ev["first"] = data.draw(st.one_of(st.none(), st.sampled_from(table))) if table else None
    pots = _balls(data, table, 3)
    if data.draw(_INTS[5]) == 0:
        pots.append(0)
    ev["pots"] = pots
    if data.draw(_INTS[12]) == 0:
        ev["off"] = [data.draw(st.sampled_from([0] + table))]
    if s["breaking"]:
        ev["break_rails"] = data.draw(_INTS[6])
        ev["cue_rail"] = data.draw(_BOOL)
    c = data.draw(_INTS[6])
    if c == 0:
        ev["call"] = "safety"
    elif c == 1:
        ev["call"] = "push"
    elif c < 5 and pots:
        ev["call"] = data.draw(st.sampled_from(pots))
    elif c == 5 and table and s["game"] == "10ball":
        ev["call"] = data.draw(st.sampled_from(table))   # T2: any ball may be called
    ev["made"] = data.draw(_INTS[3]) > 0
    if data.draw(_INTS[4]) == 0:
        ev["cue_in_rack"] = data.draw(_BOOL)
        ev["ball_in_rack"] = data.draw(_BOOL)
    if data.draw(_INTS[15]) == 0:
        ev["foul"] = data.draw(_FOULS)
    return ev


GAMES = ("14.1", "8ball", "9ball", "10ball")


def start(data, game=None):
    # A new match (of game, or one drawn) after its lag: (match, log, states).
    if game is None:
        game = data.draw(st.sampled_from(GAMES))
    ev = {"t": "new", "game": game, "players": ["A", "B"],
          "three_foul": data.draw(st.booleans()) or data.draw(st.booleans())}
    if data.draw(st.booleans()):
        ev["clock"] = data.draw(st.sampled_from(("wpa", "tv")))             # O7
    if game == "14.1":
        ev["target"] = [data.draw(st.integers(5, 40)), data.draw(st.integers(5, 40))]
    else:
        ev["race"] = [data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))]
        ev["break"] = data.draw(st.sampled_from(("alternate", "winner", "loser")))
        ev["nine_on_break"] = data.draw(st.sampled_from(("win", "spot")))
        ev["ten_on_break"] = data.draw(st.sampled_from(("win", "spot")))
    m = Match()
    m.apply(ev)
    states = [rules.copy(m.s)]
    m.apply({"t": "lag", "breaker": data.draw(st.integers(0, 1))})
    states.append(rules.copy(m.s))
    return m, [ev, {"t": "lag", "breaker": m.s["shooter"]}], states


def check_invariants(m):
    st_ = m.state()
    json.loads(stjson.dumps(st_))                     # always writable as JSON
    s = m.s
    full = {"9ball": 9, "10ball": 10}.get(s["game"], 15)
    assert 0 <= st_["balls_left"] <= full
    if s["table"] is not None:
        t = st_["on_table"]
        assert t == sorted(set(t)) and all(1 <= b <= full for b in t)
        assert st_["balls_left"] == len(t)
    else:
        assert st_["winner"] is not None or st_["balls_left"] >= 2   # S10 re-racks at 1
    if len(m.log) == 1:                            # undone back to before the lag
        assert st_["shooter"] is None and st_["breaking"]
    elif st_["winner"] is None:
        assert st_["shooter"] in (0, 1)
    else:
        assert st_["shooter"] is None and st_["bih"] is None and not st_["breaking"]
    if st_["breaking"]:
        assert st_["bih"] == "kitchen"
    if st_["pending"]:
        assert st_["pending"]["by"] == st_["shooter"]
    if st_["push_out"]:
        assert s["game"] in ("9ball", "10ball") and st_["pending"] is None
    if "exts" in s:                                     # K3: none beyond the profile's
        assert all(0 <= n <= s["clock"]["exts"] for n in s["exts"])
    for i, p in enumerate(st_["players"]):
        assert p["high_run"] >= p["run"] >= 0
        assert p["innings"] >= 0 and p["fouls"] >= 0
        assert 0 <= p["racks"] <= s["race"][i]
        if s["three"]:
            assert p["fouls"] <= 2                     # S11, E12.6, N11 act on the third
        if s["game"] != "14.1":
            assert p["score"] == 0
        if s["game"] == "10ball" and st_["winner"] is None:
            assert 10 in st_["on_table"]                # T4, T6-T8, T10: the 10 is spotted
        elif st_["winner"] != i:
            assert p["score"] < s["target"][i]


def check_141_books(before, after, mover):
    """C-S6: a shot changes only the shooter's score: up by the balls that left the
    table legally, or down by a penalty of 1 (S7), 2 (S4) or 16 (S11)."""
    b, a = before["players"], after["players"]
    other = 1 - mover
    assert a[other]["score"] == b[other]["score"]
    d = a[mover]["score"] - b[mover]["score"]
    if d > 0:
        gone = before["balls_left"] - after["balls_left"]
        if after["rack"] > before["rack"]:            # S10 / C-S4: 14 or 15 re-racked
            assert before["balls_left"] - d in (0, 1) and after["balls_left"] == 15
        else:
            assert gone == d
        return d, 0
    assert after["balls_left"] == before["balls_left"] or after["balls_left"] == 15
    assert d in (0, -1, -2, -16)
    return 0, -d


def check_rotation_books(before, after, mover):
    """The books of 9-ball and 10-ball (their counterpart of C-S6): a shot adds to the
    shooter's legally pocketed balls either nothing (a foul, a safety, a miss, not as called)
    or every object ball that left the table and stays down; a shooter who stays at the table
    has all of them counted; the other player's count never changes."""
    bb, ab = before["p"], after["p"]
    other = 1 - mover
    assert ab[other][rules.BALLS] == bb[other][rules.BALLS]
    gain = ab[mover][rules.BALLS] - bb[mover][rules.BALLS]
    won = [ab[i][rules.RACKS] - bb[i][rules.RACKS] for i in (0, 1)]
    assert sorted(won) in ([0, 0], [0, 1])
    if won[mover]:                                      # N2, C-N1, T2, O6: the money ball
        assert 1 <= gain <= len(before["table"])
        return
    if won[other]:                                      # N11, T11: three fouls
        assert gain == 0
        return
    gone = len(before["table"]) - len(after["table"])
    assert gone >= 0 and gain in (0, gone)
    if after["shooter"] == mover and not after["pending"]:
        assert gain == gone                             # N6, T4, T6: all of them count


# (a game a test, 75 streams each: pytest-xdist's two workers share them)
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_streams_only_refuse_and_keep_invariants(game, data):
    """Random events never raise anything but a refusal; refusals change nothing;
    undo restores exactly the state before; replaying the log equals live play;
    in 14.1 the scores equal balls legally pocketed minus penalties (C-S6); in 9-ball and
    10-ball each shot's legally pocketed balls are the ones that stayed down, or none."""
    m, log, history = start(data, game)  # history: state after each accepted non-undo event
    pocketed, penalties = [0, 0], [0, 0]   # 14.1 books, one entry per state in history
    for _ in range(data.draw(st.integers(1, 120))):
        ev = draw_event(data, m)
        before = rules.copy(m.s)
        view = m.state()
        try:
            m.apply(ev)
        except rules.Refused:
            assert m.s == before and m.state() == view
            continue
        log.append(ev)
        check_invariants(m)
        if ev["t"] == "undo":
            history.pop()
            pocketed.pop()
            penalties.pop()
            assert m.s == history[-1]
            continue
        if m.s["game"] in ("9ball", "10ball") and ev["t"] == "shot":
            check_rotation_books(before, m.s, view["shooter"])
        if m.s["game"] == "14.1" and ev["t"] == "shot":
            gain, pen = check_141_books(view, m.state(), view["shooter"])
            pocketed.append(pocketed[-1] + gain)
            penalties.append(penalties[-1] + pen)
        else:
            pocketed.append(pocketed[-1])
            penalties.append(penalties[-1])
        history.append(rules.copy(m.s))
        # undo restores exactly the previous state, and the event can be re-applied
        m.apply({"t": "undo"})
        assert m.s == before
        m.apply(ev)
        assert m.s == history[-1]
        if m.s["game"] == "14.1":
            sc = m.state()["players"]
            assert sc[0]["score"] + sc[1]["score"] == pocketed[-1] - penalties[-1]
    replayed = Match()
    for ev in log:
        replayed.apply(ev)
    assert replayed.s == m.s
    assert stjson.dumps(replayed.state()) == stjson.dumps(m.state())


def test_undo_cost_does_not_grow_with_the_match(monkeypatch):
    """docs/contracts.md: undo re-applies fewer than 16 events (the budget is 64), however long the
    match."""
    m = Match()
    m.apply({"t": "new", "game": "14.1", "players": ["A", "B"], "target": [10000, 10000]})
    m.apply({"t": "lag", "breaker": 0})
    m.apply({"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True})
    for _ in range(500):
        m.apply({"t": "shot", "first": 1, "rail": True})      # misses: the turn passes
    calls = []
    real = rules.apply

    def counting(s, ev):
        calls.append(ev)
        return real(s, ev)

    monkeypatch.setattr(rules, "apply", counting)
    for _ in range(40):
        del calls[:]
        m.apply({"t": "undo"})
        assert len(calls) < 16
    assert m.state()["players"][0]["innings"] + m.state()["players"][1]["innings"] == 461


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab ç", max_size=60), st.integers(1, 20))
def test_wrap_fills_each_line_and_loses_nothing(text, w):
    """views.wrap: no line longer than w; each line but the last as full as the text allows (the
    next line's first word, or the start of a word cut, would not fit); the lines, joined by
    the spaces they were broken at (none inside a word cut), give back the text."""
    from firmware.views import wrap

    lines = wrap(text, w)
    assert all([len(x) <= w for x in lines])
    rest = text
    for i, line in enumerate(lines):
        assert rest.startswith(line)
        rest = rest[len(line):]
        if i == len(lines) - 1:
            assert rest == ""
        elif rest[:1] == " ":  # broken at a space: the next word did not fit
            rest = rest[1:]
            word = rest.split(" ")[0]
            assert len(line) + 1 + min(len(word), w) > w or (line == "" and word == "")
        else:  # a word longer than a line, cut
            assert len(line) == w
