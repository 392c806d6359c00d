# The app over fake pins and buses: redraw on change only, error screen, soft restart, watchdog.
import pytest
from apprig import Rig, start

from firmware import app as appmod
from firmware import stjson
from firmware.app import error_screen


def _dump(rig):
    return stjson.dumps(rig.state())


def test_keys_through_the_pins_change_the_oled():
    rig = Rig("oled", "keypad", game="14.1")
    rig.run(50)
    setup = rig.screen()
    assert any(setup), setup  # the setup list is on the panel
    start(rig)
    play = rig.screen()
    assert play != setup
    assert rig.state()["shooter"] == 0 and rig.state()["game"] == "14.1"
    rig.keys("A")  # one ball made
    assert rig.state()["players"][0]["score"] == 1
    assert rig.screen() != play


def test_nothing_is_sent_when_nothing_changed():
    rig = Rig("oled", "keypad", game="8ball")
    start(rig)
    draws = rig.runner.app.draws
    mark = rig.bus.mark()  # pyright: ignore
    rig.run(3000)  # three seconds of polling with no key
    assert rig.bus.nbytes(mark) == 0  # pyright: ignore
    assert rig.runner.app.draws == draws
    rig.keys("B")  # a miss: the shooter changes, so the screen does
    assert rig.bus.nbytes(mark) > 0  # pyright: ignore
    assert rig.runner.app.draws == draws + 1


def test_a_held_key_is_drawn_once_at_contact_and_a_long_press_key_on_release():
    # A key with no long-press meaning (every keypad key) acts on its debounced
    # contact, so its screen does not wait for the release; the release draws nothing more.
    rig = Rig("oled", "keypad", game="14.1")
    start(rig)
    draws = rig.runner.app.draws
    rig.matrix.press("A")
    rig.run(60)  # debounce (30 ms) and a pass to draw
    assert rig.runner.app.draws == draws + 1
    rig.run(300)
    rig.matrix.release("A")
    rig.run(100)
    assert rig.runner.app.draws == draws + 1
    # A wall button with a long press (P1: rack won) still waits for its release.
    rig = Rig("oled", "buttons", game="9ball")
    start(rig)
    draws = rig.runner.app.draws
    rig.set_key("P1", True)
    rig.run(300)
    assert rig.runner.app.draws == draws
    rig.set_key("P1", False)
    rig.run(100)
    assert rig.runner.app.draws == draws + 1


def test_exception_shows_error_screen_and_restart_keeps_the_match():
    rig = Rig("oled", "keypad", game="8ball", error_ms=500)
    start(rig)
    rig.keys("1 A B")  # ball 1 on the break... then a miss
    before = _dump(rig)
    ctl = rig.ctl
    events = list(ctl.match.events)

    def boom(kind, name):
        raise RuntimeError("boom")

    ctl.key = boom
    rig.press("A", settle=40)
    assert rig.runner.error == "RuntimeError"
    text = rig.screen()
    assert text[0] == "ERROR" and "RuntimeError" in text and "restarting..." in text, text
    rig.run(600)  # the error screen stays error_ms, then the soft restart
    assert rig.runner.error is None and rig.runner.restarts == 1
    assert rig.ctl is not ctl
    assert _dump(rig) == before
    assert rig.ctl.match.events == events
    after = rig.screen()
    assert "ERROR" not in after and any(after), after
    rig.keys("B")  # and the match goes on
    assert rig.ctl.match.events[: len(events)] == events
    assert len(rig.ctl.match.log) == len(events) + 1


def test_watchdog_is_fed_only_by_healthy_steps():
    rig = Rig("oled", "keypad", game="9ball", error_ms=600)
    start(rig)
    assert rig.wdt.feeds == rig.healthy > 0
    fed = rig.wdt.feeds

    def boom(kind, name):
        raise ValueError("boom")

    rig.ctl.key = boom
    rig.press("B", settle=0)
    rig.run(100)  # failing and then showing the error screen: no feeding
    assert rig.runner.error == "ValueError"
    assert rig.wdt.feeds == rig.healthy
    during = rig.wdt.feeds
    rig.run(300)
    assert rig.wdt.feeds == during  # still on the error screen (the key failed at contact)
    rig.run(300)  # restarted: healthy again
    assert rig.runner.restarts == 1
    assert rig.wdt.feeds > during and rig.wdt.feeds == rig.healthy
    assert fed <= during


def test_repeated_failure_drops_the_newest_event(monkeypatch):
    # A state the views can't draw (here: player 2 to shoot) fails again after the restart; the
    # next restart leaves out the event that led there.
    real = appmod.views.render

    def render(model, kind, page=0):
        st = model.get("state")
        if st and st["shooter"] == 1:
            raise KeyError("poison")
        return real(model, kind, page)

    monkeypatch.setattr(appmod.views, "render", render)
    rig = Rig("oled", "keypad", game="14.1", error_ms=300)
    start(rig)
    rig.keys("A A")
    good = _dump(rig)
    n = len(rig.ctl.match.log)
    rig.keys("B")  # a miss: player 2 to shoot -> the view fails
    assert rig.runner.error == "KeyError"
    rig.run(350)  # restart 1 with every event: fails again at once
    assert rig.runner.restarts == 1 and rig.runner.error == "KeyError"
    rig.run(350)  # restart 2 without the miss
    assert rig.runner.error is None and rig.runner.restarts == 2
    assert rig.runner.dropped == 1
    assert len(rig.ctl.match.log) == n
    assert _dump(rig) == good


def test_restart_of_a_long_match_rebuilds_from_its_latest_snapshot(monkeypatch):
    # A soft restart takes over the failed controller's log: the state comes back exactly, from
    # the latest snapshot and the few events after it, not by replaying the whole match.
    from firmware import rules

    rig = Rig("oled", "keypad", game="14.1", error_ms=100)
    start(rig)
    rig.keys(" ".join(["A", "A", "B"] * 14))  # 42 shots: snapshots after 16 and 32 events
    before = _dump(rig)
    n = len(rig.ctl.match.log)
    assert n > 40

    def boom(kind, name):
        raise RuntimeError("boom")

    rig.ctl.key = boom
    rig.press("A", hold=40, settle=0)  # the key acts 5 ms in; the error shows for 100 ms
    assert rig.runner.error == "RuntimeError"
    replays = []
    real_apply = rules.apply
    monkeypatch.setattr(rules, "apply", lambda s, ev: replays.append(ev) or real_apply(s, ev))
    rig.run(300)
    assert rig.runner.restarts == 1 and rig.runner.error is None
    assert _dump(rig) == before and len(rig.ctl.match.log) == n
    assert 0 < len(replays) < 16, len(replays)


def test_language_survives_a_restart():
    rig = Rig("lcd20", "keypad", lang="tr", game="8ball", error_ms=200)
    start(rig)

    def boom(kind, name):
        raise OSError(5)

    rig.ctl.key = boom
    rig.press("B", settle=40)
    assert rig.screen()[:2] == ["HATA: OSError       ", "yeniden başlıyor... "]
    rig.run(300)
    assert rig.runner.restarts == 1 and rig.ctl.lang == "tr"


@pytest.mark.parametrize("kind", ["oled", "sh1106", "lcd20", "lcd16", "digits"])
@pytest.mark.parametrize("layout", ["keypad", "buttons"])
def test_every_display_and_layout_plays(kind, layout):
    rig = Rig(kind, layout, game="14.1")
    rig.run(50)
    first = rig.screen()
    start(rig)
    rig.keys("A A" if layout == "keypad" else "P1 P1")
    assert rig.state()["players"][0]["score"] == 2
    assert rig.screen() != first
    if kind == "digits":
        assert rig.screen()[0].replace(" ", "") in ("2.0", "20.", "2.0.", "20")  # pyright: ignore


@pytest.mark.parametrize("kind", ["oled", "lcd20", "lcd16", "digits"])
def test_error_screens_fit(kind):
    r = error_screen(kind, "MemoryError")
    if kind == "oled":
        lines, big, inverse = r
        assert len(lines) == 8 and all(len(s) <= 16 for s in lines) and big == (0,)
    elif kind == "digits":
        assert len(r) == 8
    else:
        cols = 16 if kind == "lcd16" else 20
        assert all(len(s) <= cols for s in r)


def test_run_sleeps_what_each_pass_left_of_its_period():
    # The keys are sampled every period_ms (here 3), however long a pass takes: run() sleeps
    # the rest of the period, and not at all after a pass longer than it.
    for step, want in ((1, 2), (4, 0)):
        clock = [0]
        sleeps = []

        def ticks(step=step, clock=clock):
            clock[0] += step  # each reading `step` ms after the one before
            return clock[0]

        def sleep(ms, clock=clock, sleeps=sleeps):
            sleeps.append(ms)
            clock[0] += ms

        appmod.run(Rig("oled", "keypad").hw, ticks, sleep, period_ms=3, ticks=4)
        assert sleeps == [want] * 4, (step, sleeps)


def test_the_journal_tidies_after_the_screens_are_out():
    # Journal.tidy (a snapshot, a pack, the next file) waits until a key's screen has gone to
    # the display: the app calls it each pass (Table.work), after that pass drew what the key
    # changed (the screen of the controller's version already out).
    rig = Rig("oled", "keypad")
    start(rig)
    seen = []
    app = rig.runner.app
    rig.ctl.match.log.tidy = lambda: seen.append((app.drawn == rig.ctl.version, rig.screen()))
    rig.press("B")  # a miss: the table passes to P2
    assert seen and all(s[0] for s in seen), seen
    assert seen[-1][1] == rig.screen() and seen[-1][1][2].rstrip().endswith("P2<"), seen[-1]
    assert not seen[0][1][2].rstrip().endswith("P2<")  # (passes before the key tidied too)


# ---------------------------------------------------------------- the shot clock (O7, K2)


def _clock_rig(kind="oled"):
    # A 9-ball match with the WPA clock, P1 breaking; the buzzer on a stand-in PWM.
    from firmware.drivers.buzzer import Buzzer
    from tests.test_buzzer import FakePWM

    rig = Rig(kind, "keypad", game="9ball")
    rig.ctl.cfg["clock"] = "wpa"

    class Now:  # the PWM's writes stamped with the rig's time
        def __getitem__(self, i):
            return rig.now

    pwm = FakePWM(clock=Now())
    rig.hw.buzzer = Buzzer(pwm)
    start(rig)
    return rig, pwm


def test_with_a_clock_the_buttons_miss_and_ok_give_their_long_press_on_the_pins():
    # MISS and OK act at contact (no long press) but while the match has a shot clock: then
    # held down they take the extension and stop or start the clock (K3, K6), pressed they are
    # the miss and the safety at their release.
    rig = Rig("oled", "buttons", game="9ball")
    rig.ctl.cfg["clock"] = "wpa"
    start(rig)
    rig.keys("long:OK")                             # the break's clock, racked: started
    assert rig.ctl.model()["clock"][:2] == [35, True], rig.ctl.model()["clock"]
    rig.keys("long:MISS")                           # P1's extension
    assert rig.ctl.match.events[-1] == {"t": "ext"} and rig.ctl.match.exts(0) == 0
    rig.keys("long:OK")
    assert rig.ctl.model()["clock"][1] is False     # stopped
    rig.keys("P1 MISS")                             # the break made a ball, then a miss
    assert rig.state()["shooter"] == 1 and rig.ctl.match.events[-1]["t"] == "shot"
    rig = Rig("oled", "buttons", game="9ball")      # no clock: at contact, no long press
    start(rig)
    draws = rig.runner.app.draws
    rig.set_key("OK", True)
    rig.run(60)
    assert rig.runner.app.draws == draws + 1 and rig.state()["shooter"] == 1


def test_the_clock_redraws_once_a_shown_second_and_not_while_paused():
    rig, _ = _clock_rig()
    draws = rig.runner.app.draws
    rig.run(3000)                                   # the break waits, paused: nothing drawn
    assert rig.runner.app.draws == draws
    rig.keys("# 6")                                 # started
    assert "Ext1   35   Ext1" in rig.screen(), rig.screen()
    draws = rig.runner.app.draws
    t0 = rig.ctl.clock.t0
    rig.run(t0 + 3000 - rig.now + 1)               # three seconds more
    assert rig.runner.app.draws == draws + 3
    assert "Ext1   32   Ext1" in rig.screen(), rig.screen()
    rig.keys("# 6")                                 # paused
    draws = rig.runner.app.draws
    rig.run(5000)
    assert rig.runner.app.draws == draws and "Ext1  (32)  Ext1" in rig.screen()


def test_the_buzzer_sounds_the_warning_the_last_five_seconds_and_zero():
    rig, pwm = _clock_rig()
    rig.keys("# 6")
    t0 = rig.ctl.clock.t0
    rig.run(t0 + 37000 - rig.now)
    got = pwm.tones()
    assert [(n, hz) for _, n, hz in got] == [(150, 3000)] + [(100, 2700)] * 5 + [(1000, 2400)]
    starts = [s - t0 for s, _, _ in got]
    want = [25000, 30000, 31000, 32000, 33000, 34000, 35000]
    assert all(0 <= s - w <= 5 for s, w in zip(starts, want)), starts   # within a pass
    assert any("Time up K4: #9" in ln for ln in rig.screen()), rig.screen()
    rig.keys("# 9")                                 # the referee confirms: P2, ball in hand
    assert rig.ctl.match.get("note")["foul"] == "K4" and rig.state()["shooter"] == 1
