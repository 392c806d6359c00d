# The piezo buzzer's driver on the real rp2 firmware (the virtual Pico): the shot clock's WARN,
# TICK and END (RULES.md K2, K4) played on GP26's PWM and heard on the pin, each tone's
# frequency and length decoded from the pin's edges (host_tools/vpico ToneRx).
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import shotclock
from firmware.drivers import buzzer
from host_tools import vpico

pytestmark = [pytest.mark.vpico,
              pytest.mark.skipif(vpico.missing() is not None, reason=str(vpico.missing()))]

ROOT = Path(__file__).resolve().parent.parent
MPREMOTE = str(Path(sys.executable).parent / "mpremote")
PIN = 26  # boards/README.md: the Pico's piezo on GP26 ("buzzer_pin": 26)
KINDS = (shotclock.WARN, shotclock.TICK, shotclock.END)
GAP_MS = 200  # silence between the tones of the script

# The app's way: play() once, poll() every loop pass (2 ms apart), never a sleep in between.
SCRIPT = """
import time
from machine import PWM, Pin
import buzzer
b = buzzer.Buzzer(PWM(Pin(%d)))
for kind, ms in %r:
    t0 = time.ticks_ms()
    b.play(kind, t0)
    while time.ticks_diff(time.ticks_ms(), t0) < ms + %d:
        b.poll(time.ticks_ms())
        time.sleep_ms(2)
print("played")
"""


def tone(kind):
    # (Hz, ms) the driver promises for kind
    t = buzzer.TONES[kind]
    assert t is not None
    return t


def mpremote(board, *args, timeout=120):
    return subprocess.run([MPREMOTE, "connect", board.pty, *args], capture_output=True,
                          text=True, timeout=timeout)


def test_warn_tick_and_end_sound_at_their_frequency_for_their_time():
    plan = [(k, tone(k)[1]) for k in KINDS]
    with vpico.VPico() as b:
        r = mpremote(b, "cp", str(ROOT / "firmware/drivers/buzzer.py"), ":buzzer.py")
        assert r.returncode == 0, r.stderr
        r = mpremote(b, "exec", SCRIPT % (PIN, plan, GAP_MS))
        assert "played" in r.stdout, (r.stdout, r.stderr)
        tones = b.tones(PIN)
        log = b.tone_log(PIN)
    print("\n".join("%s: %.1f Hz, %.1f ms, duty %.3f" % (k, t["hz"], (t["t1"] - t["t0"]) / 1000,
                                                        t["duty"]) for k, t in zip(KINDS, log)))
    assert len(tones) == len(KINDS), tones  # one tone each, silence between them
    for kind, (_, ms, hz), t in zip(KINDS, tones, log):
        want_hz, want_ms = tone(kind)
        assert abs(hz - want_hz) <= 0.02 * want_hz, (kind, hz)
        assert abs(ms - want_ms) <= 20, (kind, ms)
        assert abs(t["duty"] - 0.5) < 0.02, (kind, t)  # a square wave: the piezo's loudest
        assert not t.get("on")
    for (s0, ms0, _), (s1, _, _) in zip(tones, tones[1:]):
        assert s1 - (s0 + ms0) >= GAP_MS - 20  # poll() silenced each one in time
