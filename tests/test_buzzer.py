# The piezo buzzer's driver (firmware/drivers/buzzer.py) on a stand-in PWM: play() starts the
# shot clock's tone (RULES.md K2 the warning and the last seconds, K4 the time is up), poll()
# silences it when due, neither waits; and the boards build it on the profile's "buzzer_pin".
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware import shotclock
from firmware.drivers import buzzer
from tests.test_boards import _Machine

ROOT = Path(__file__).resolve().parent.parent
KINDS = (shotclock.WARN, shotclock.TICK, shotclock.END)


def tone(kind):
    # (Hz, ms) the driver promises for kind
    t = buzzer.TONES[kind]
    assert t is not None
    return t


class FakePWM:
    # machine.PWM's freq() and duty_u16(), recording what reaches the pin: (ms, freq, duty)
    def __init__(self, pin=None, clock=None):
        self.pin = pin
        self.clock = clock or [0]
        self.hz = 0
        self.duty = None
        self.writes = []

    def freq(self, hz):
        self.hz = hz

    def duty_u16(self, d):
        self.duty = d
        self.writes.append((self.clock[0], self.hz, d))

    def tones(self):
        # (start, length, freq) of every stretch the duty was not 0
        out, on = [], None
        for t, hz, d in self.writes:
            if d and on is None:
                on = (t, hz)
            elif on is not None:
                out.append((on[0], t - on[0], on[1]))
                on = (t, hz) if d else None
        return out


def test_the_tones_are_the_shot_clocks_kinds():
    # one tone for each of beeps()'s kinds (QUIET none); a piezo's loud range; the warning
    # and each last second short, the end long (K4: the time is up unmistakably)
    assert buzzer.TONES[shotclock.QUIET] is None
    for k in KINDS:
        hz, ms = tone(k)
        assert 2000 <= hz <= 4000, k
    assert max(tone(k)[1] for k in (shotclock.WARN, shotclock.TICK)) < 1000 // 4
    assert tone(shotclock.END)[1] >= 4 * tone(shotclock.TICK)[1]
    assert buzzer.HALF == 65536 // 2  # a square wave


@pytest.mark.parametrize("kind", KINDS)
def test_play_starts_a_tone_and_poll_ends_it_when_due(kind):
    clock = [1000]
    pwm = FakePWM(clock=clock)
    b = buzzer.Buzzer(pwm)
    assert pwm.duty == 0  # silent from the start
    hz, ms = tone(kind)
    b.play(kind, clock[0])
    assert (pwm.hz, pwm.duty) == (hz, buzzer.HALF)
    for clock[0] in range(1000, 1000 + ms + 50, 2):  # the loop's passes, 2 ms apart
        b.poll(clock[0])
    assert pwm.tones() == [(1000, ms, hz)]
    assert pwm.duty == 0 and len(pwm.writes) == 3  # silenced once, then left alone


def test_quiet_plays_nothing_and_a_new_tone_takes_over():
    clock = [0]
    pwm = FakePWM(clock=clock)
    b = buzzer.Buzzer(pwm)
    b.play(shotclock.QUIET, 0)
    b.poll(0)
    assert pwm.writes == [(0, 0, 0)]
    tick, end = tone(shotclock.TICK), tone(shotclock.END)
    b.play(shotclock.TICK, 0)
    t1 = clock[0] = tick[1] // 2
    b.play(shotclock.END, t1)  # END while a TICK still sounds: END from now, its length
    for clock[0] in range(t1, t1 + end[1] + 10):
        b.poll(clock[0])
    assert pwm.tones() == [(0, tick[1] // 2, tick[0]), (tick[1] // 2, end[1], end[0])]


def test_a_tone_across_the_ticks_wrap(monkeypatch):
    # MicroPython's ticks_ms wraps (2**30 on the ports): the driver takes ticks_diff
    period = 1 << 30

    def ticks_diff(a, b):
        return ((a - b + period // 2) & (period - 1)) - period // 2

    monkeypatch.setattr(buzzer, "ticks_diff", ticks_diff)
    pwm = FakePWM()
    b = buzzer.Buzzer(pwm)
    ms = tone(shotclock.END)[1]
    b.play(shotclock.END, period - 10)
    b.poll(ms - 20)  # past the wrap, 10 ms short of the tone's length: still sounding
    assert pwm.duty == buzzer.HALF
    b.poll(ms - 10)
    assert pwm.duty == 0


def test_a_shot_sounds_the_warning_the_last_five_seconds_and_the_end():
    # the app's loop in miniature: every 2 ms the clock's beeps() played, the buzzer polled
    clock = [0]
    pwm = FakePWM(clock=clock)
    b = buzzer.Buzzer(pwm)
    prof = shotclock.profile("wpa")
    c = shotclock.Clock(prof)
    c.start(0)
    shot = prof["shot"] * 1000
    for clock[0] in range(0, shot + 3000, 2):
        kind = c.beeps(clock[0])
        if kind:
            b.play(kind, clock[0])
        b.poll(clock[0])
    want = [(shot - prof["warn"] * 1000,) + tone(shotclock.WARN)[::-1]]
    want += [(shot - s * 1000,) + tone(shotclock.TICK)[::-1] for s in (5, 4, 3, 2, 1)]
    want.append((shot,) + tone(shotclock.END)[::-1])
    # each tone at the pass its moment falls on (2 ms steps), for its length
    assert pwm.tones() == want


# --- the boards

def _pin_of_readme(board_heading):
    # the piezo's pin in boards/README.md's table of that board
    text = (ROOT / "boards" / "README.md").read_text()
    part = text.split(board_heading, 1)[1].split("\n## ", 1)[0]
    row = next(ln for ln in part.splitlines() if ln.startswith("|") and "piezo" in ln.lower())
    return int(re.findall(r"GP(?:IO)?(\d+)", row)[0])


class _BuzzerMachine(_Machine):
    pwm: Any = None  # the PWM the board made


@pytest.fixture
def machine(monkeypatch):
    fake = _BuzzerMachine()

    class PWM(FakePWM):
        def __init__(self, pin):
            FakePWM.__init__(self, pin.n)
            fake.made.append(("PWM", pin.n))
            fake.pwm = self

    fake.module.PWM = PWM
    monkeypatch.setitem(sys.modules, "machine", fake.module)
    return fake


@pytest.mark.parametrize("board,heading", [("pico", "## Raspberry Pi Pico"),
                                           ("esp32_devkit", "## ESP32 DevKit")])
def test_a_board_builds_the_buzzer_on_its_pin(machine, monkeypatch, board, heading):
    mod = __import__("boards." + board, None, None, ["PROFILE"])
    pin = _pin_of_readme(heading)
    p = mod.PROFILE
    taken = set(p["i2c"][1:3]) | set(p["spi"][1:4]) | set(p["rows"]) | set(p["cols"])
    taken |= {n for _, n in p["buttons"]} | {p["neopixel_pin"], p["matrix_cs"]}
    assert pin not in taken
    if board == "esp32_devkit":
        assert pin not in {0, 2, 6, 7, 8, 9, 10, 11, 12, 15} | set(range(34, 40))  # output-capable
    hw = mod.build(dict(p, buzzer_pin=pin))
    assert machine.pwm.pin == pin and machine.made[-2:] == [("PWM", pin), ("WDT", p["wdt_ms"])]
    hw.buzzer.play(shotclock.TICK, 0)
    assert machine.pwm.duty == buzzer.HALF
    hw.buzzer.poll(tone(shotclock.TICK)[1])
    assert machine.pwm.duty == 0


def test_no_buzzer_pin_no_buzzer_and_no_driver(machine, monkeypatch):
    from boards import pico

    monkeypatch.delitem(sys.modules, "firmware.drivers.buzzer", raising=False)
    assert pico.PROFILE["buzzer_pin"] is None  # a board without the piezo: nothing on its pin
    hw = pico.build(dict(pico.PROFILE))
    assert getattr(hw, "buzzer", None) is None
    assert not any(m[0] == "PWM" for m in machine.made)
    assert "firmware.drivers.buzzer" not in sys.modules
