# mp: yes
# Shot clock (RULES.md K1-K6, O7, C-K1-C-K3): the match's extensions and time fouls, and the
# countdown of firmware/shotclock.py with its buzzer schedule; expectations from the rule text.
from firmware import events, shotclock
from firmware.shotclock import END, QUIET, TICK, WARN, Clock
from tests.helpers import (
    UNDO,
    break_141_ok,
    break_dry,
    choose,
    lag,
    new,
    play,
    player,
    refused,
    shot,
)

EXT = {"t": "ext"}
TIME = shot(foul="K4")  # C-K2: the time foul, a shot not taken
WPA = shotclock.PROFILES["wpa"]
TV = shotclock.PROFILES["tv"]


def _bad(ev):
    try:
        events.check(ev)
    except events.BadEvent:
        return
    raise AssertionError("malformed event accepted: %r" % (ev,))


def _sounds(c, t0, t1, step=100):
    """(ms since t0, sound) of each beeps() call from t0 to t1 that asks for a sound."""
    out = []
    for t in range(t0, t1 + 1, step):
        b = c.beeps(t)
        if b != QUIET:
            out.append((t - t0, b))
    return out


# ---------------------------------------------------------------- O7: the option


def test_O7_no_shot_clock_by_default():
    m = play(new("9ball"), lag(0))
    assert m.clock() is None and m.exts(0) == m.exts(1) == 0
    assert refused(m, EXT) == "O7"                      # no extension without a clock
    assert refused(m, TIME) == "O7"                     # no time foul either


def test_O7_profiles_and_custom_times():
    m = play(new("8ball", clock="wpa"), lag(0))
    assert m.clock() == WPA and m.exts(0) == m.exts(1) == WPA["exts"]
    m = play(new("14.1", clock="tv"), lag(1))
    assert m.clock() == TV
    custom = {"shot": 40, "first": 50, "ext": 20, "exts": 2, "warn": 15}
    m = play(new("10ball", clock=custom), lag(0))
    c = m.clock()
    assert [c[k] for k in shotclock.FIELDS] == [40, 50, 20, 2, 15] and c["push"] is True
    assert m.exts(0) == 2
    for bad in ("fast", 35, {"shot": 35}, dict(custom, warn=40), dict(custom, extra=1),
                dict(custom, exts=-1), dict(custom, shot=True), dict(custom, push=1)):
        _bad(new("9ball", clock=bad))
    _bad({"t": "ext", "player": 2})
    events.check(new("9ball", clock=None))
    events.check(new("9ball", clock=dict(custom, push=False)))


# ---------------------------------------------------------------- K1, K2: the countdown


def test_K1_countdown_starts_at_the_key_that_records_the_shot():
    c = Clock(WPA)
    assert c.left(5000) is None and not c.expired(99000)   # no countdown before the key
    c.start(7000)                                      # the key: the balls have stopped
    assert c.left(7000) == WPA["shot"] and c.running()
    assert c.left(7000 + 999) == WPA["shot"]           # a whole second not yet gone
    assert c.left(8000) == WPA["shot"] - 1
    assert not c.expired(7000 + WPA["shot"] * 1000 - 1)
    assert c.expired(7000 + WPA["shot"] * 1000)        # measured from the key, not before


def test_K2_35_seconds_and_the_last_10_announced():
    assert WPA["shot"] == 35 and WPA["warn"] == 10
    c = Clock(WPA)
    c.start(0)
    shown = [c.left(t) or 0 for t in range(0, 36000, 500)]
    assert shown[0] == 35 and shown[-1] == 0 and min(shown) == 0
    assert all(a - b in (0, 1) for a, b in zip(shown, shown[1:]))   # down a second at a time
    # the warning when 10 s are left, a beep a second for the last 5, a long tone at zero
    assert _sounds(c, 0, 40000) == [(25000, WARN), (30000, TICK), (31000, TICK),
                                    (32000, TICK), (33000, TICK), (34000, TICK), (35000, END)]


def test_K2_a_late_call_plays_only_the_latest_sound():
    c = Clock(WPA)
    c.start(0)
    assert c.beeps(24000) == QUIET
    assert c.beeps(31500) == TICK                     # the warning and 5 s, 4 s passed by
    assert c.beeps(31900) == QUIET                    # and it is not played twice
    assert c.beeps(60000) == END and c.beeps(61000) == QUIET


# ---------------------------------------------------------------- K3: extensions


def test_K3_one_extension_per_player_per_rack():
    m = play(new("9ball", clock="wpa", race=[3, 3]), lag(0), break_dry())   # B to shoot
    m.apply(EXT)
    assert m.exts(1) == 0 and m.exts(0) == 1 and m.get("note") == {"ext": 1}
    assert refused(m, EXT) == "K3"                     # only one a rack
    assert refused(m, {"t": "ext", "player": 0}) == "K3"   # only the shooter takes one
    m.apply(shot(first=1, rail=True))                  # B misses: A at the table
    m.apply({"t": "ext", "player": 0})
    assert m.exts(0) == 0 and refused(m, EXT) == "K3"
    m.apply(shot(first=1, pots=[9], rail=True, made=True))   # A wins the rack (N2)
    assert player(m, 0)["racks"] == 1 and m.state()["rack"] == 2
    assert m.exts(0) == m.exts(1) == 1                 # a new rack: one each again


def test_K3_extension_adds_its_seconds_and_warns_again():
    c = Clock(WPA)
    c.start(0)
    assert c.beeps(26000) == WARN
    c.extend(30000)                                    # 5 s left, plus 25
    assert c.left(30000) == 30
    assert _sounds(c, 30000, 65000) == [(20000, WARN), (25000, TICK), (26000, TICK),
                                        (27000, TICK), (28000, TICK), (29000, TICK),
                                        (30000, END)]


def test_K3_undo_gives_the_extension_back():
    m = play(new("8ball", clock="tv"), lag(0))
    m.apply(EXT)
    assert m.exts(0) == 0
    m.apply(UNDO)
    assert m.exts(0) == 1 and m.get("note") is None
    m.apply(EXT)
    assert m.exts(0) == 0


def test_C_K1_continuous_racks_reset_a_bad_break_rerack_keeps():
    m = play(new("14.1", clock="wpa", target=[50, 50]), lag(0), break_141_ok())  # B shoots
    m.apply(EXT)
    assert m.exts(1) == 0
    for b in range(1, 15):                             # B makes 14 balls: the S10 re-rack
        m.apply(shot(first=b, call=b, pots=[b], made=True, rail=True))
    assert m.state()["rack"] == 2 and m.state()["shooter"] == 1 and m.exts(1) == 1
    m = play(new("8ball", clock="wpa"), lag(0))
    m.apply(EXT)
    m.apply(shot(first=1, break_rails=1, rail=True))  # E3: a bad break, B chooses
    m.apply(choose("rerack"))                          # the rack number stays (A3)
    assert m.state()["rack"] == 1 and m.exts(0) == 0


# ---------------------------------------------------------------- K4: the time foul


def test_K4_time_foul_in_14_1_is_minus_one_and_the_cue_ball_as_it_lies():
    m = play(new("14.1", clock="wpa"), lag(0), break_141_ok())
    me = m.state()["shooter"]
    m.apply(TIME)
    s = m.state()
    assert s["players"][me]["score"] == -1 and s["players"][me]["fouls"] == 1
    assert s["shooter"] == 1 - me and s["bih"] is None and m.get("note")["foul"] == "K4"
    assert s["balls_left"] == 15


def test_K4_time_foul_in_8_ball_9_ball_10_ball_gives_ball_in_hand():
    for game in ("8ball", "9ball", "10ball"):
        m = play(new(game, clock="tv"), lag(0), break_dry())   # B to shoot
        table = m.state()["on_table"]
        m.apply(TIME)
        s = m.state()
        assert s["shooter"] == 0 and s["bih"] == "table", game      # E10, N4, T3
        assert s["players"][1]["fouls"] == 1 and s["on_table"] == table, game
        assert m.get("note")["foul"] == "K4", game


def test_K4_counts_toward_three_fouls():
    m = play(new("9ball", clock="wpa", race=[3, 3]), lag(0), break_dry())
    for _ in range(2):
        m.apply(TIME)                                   # B's time runs out
        m.apply(shot(first=1, rail=True))               # A misses
    m.apply(TIME)
    assert player(m, 0)["racks"] == 1                   # N11: the third foul loses the rack
    assert m.get("note")["end"] == "N11"


def test_K4_undo_takes_the_time_foul_back():
    m = play(new("10ball", clock="wpa"), lag(0), break_dry())
    before = m.state()
    m.apply(TIME)
    m.apply(UNDO)
    assert m.state() == before


def test_C_K2_time_foul_has_no_shot_facts_and_breaks_stay_unbroken_in_14_1():
    m = play(new("9ball", clock="wpa"), lag(0), break_dry())
    assert refused(m, shot(foul="K4", first=1, rail=True)) == "K4"
    assert refused(m, shot(foul="K4", pots=[3])) == "K4"
    m = play(new("14.1", clock="wpa"), lag(0))
    m.apply(TIME)                                       # the breaker's time runs out
    s = m.state()
    assert s["players"][0]["score"] == -1 and s["shooter"] == 1      # not an S4 violation
    assert s["breaking"] and s["bih"] == "kitchen" and m.get("pending") is None
    m.apply(break_141_ok())                             # B breaks under S4
    assert not m.state()["breaking"] and m.state()["players"][1]["score"] == 0
    m = play(new("8ball", clock="wpa"), lag(0))
    m.apply(TIME)                                       # E3: a foul on the break
    assert m.state()["pending"]["by"] == 1 and m.get("note")["foul"] == "K4"


# ---------------------------------------------------------------- K5: the first shot


def _next(m, prof, ev):
    """Apply ev, answer nothing, and say whether the next shot has the first-shot time."""
    broke = m.state()["breaking"]
    m.apply(ev)
    return shotclock.first_shot(prof, broke, ev.get("call") == "push", m.state()["breaking"])


def test_K5_first_shot_after_the_break_and_after_a_push_out():
    assert TV["first"] == 60 and TV["shot"] == 30 and TV["ext"] == 30 and TV["exts"] == 1
    assert WPA["first"] == 60 and WPA["ext"] == 25
    m = play(new("9ball", clock="tv"), lag(0))
    assert _next(m, TV, break_dry()) is True            # after the break
    assert _next(m, TV, shot(call="push", first=None)) is True   # after a push out (TV)
    m.apply(choose("shoot"))
    assert _next(m, TV, shot(first=1, rail=True)) is False      # any other shot
    m = play(new("9ball", clock="wpa"), lag(0), break_dry())
    assert _next(m, WPA, shot(call="push", first=None)) is False  # WPA: after the break only
    m = play(new("8ball", clock="wpa"), lag(0))
    assert _next(m, WPA, shot(first=1, break_rails=1, rail=True)) is True   # E3: B chooses
    m.apply(choose("rerack"))                           # a break again: the standard time
    assert shotclock.first_shot(WPA, True, False, m.state()["breaking"]) is False
    c = Clock(TV)
    c.start(0, first=True)
    assert c.left(0) == 60 and c.expired(60000) and not c.expired(59999)
    c.start(0)
    assert c.left(0) == 30


# ---------------------------------------------------------------- K6: never during a choice


def test_K6_no_running_during_a_choice():
    m = play(new("9ball", clock="wpa"), lag(0), break_dry(), shot(call="push", first=None))
    assert m.state()["pending"]["by"] == 0
    assert refused(m, EXT) == "K6"                      # the clock is not running
    assert refused(m, TIME) == "N7"                     # nor can its time run out
    c = Clock(WPA)
    c.start(0)
    c.pause(10000)                                      # the choice: the clock stops
    assert not c.running()
    assert c.left(10000) == c.left(500000) == 25 and not c.expired(500000)
    assert c.beeps(500000) == QUIET
    c.resume(500000)                                    # the choice answered
    assert c.left(500000) == 25 and c.left(501000) == 24
    assert c.expired(525000) and not c.expired(524999)


def test_K6_power_cut_brings_the_clock_back_paused_with_its_time():
    c = Clock(WPA)
    c.start(1000)
    snap = c.to_list(13500)                             # 12.5 s gone
    back = Clock(WPA).from_list(snap)
    assert not back.running() and back.left(0) == 23 and back.left(10 ** 6) == 23
    back.resume(50)
    assert back.rem(50) == 22500 and back.left(550) == 22
    assert Clock(WPA).from_list(Clock(WPA).to_list(0)).left(0) is None   # idle stays idle
