# Piezo buzzer on a PWM pin: the shot clock's beeps (RULES.md K2 the warning and the last
# seconds, K4 the time is up). The PWM object is passed in (boards/__init__.py makes it:
# machine.PWM on the profile's "buzzer_pin"). Nothing blocks: play() starts a tone at 50% duty
# and notes when it ends, poll() (every loop pass) silences it once due. Times are ticks_ms
# values, differences taken with ticks_diff (wrapping ticks).
try:
    from time import ticks_diff  # type: ignore[attr-defined]
except ImportError:
    def ticks_diff(a, b):
        return a - b

# (Hz, ms) by the kind shotclock.beeps() returns: QUIET (0) none, WARN (1) the warning point,
# TICK (2) each of the last seconds, END (3) the long tone at zero. 2.4-3 kHz: where a small
# piezo disc or a passive buzzer is loudest (their resonance, 2-4 kHz).
TONES = (None, (3000, 150), (2700, 100), (2400, 1000))
HALF = 32768  # duty_u16 of a square wave: the loudest a piezo gets from one pin


class Buzzer:
    def __init__(self, pwm):
        self.pwm = pwm
        self.t0 = 0
        self.ms = 0  # the sounding tone's length; 0: silent
        pwm.duty_u16(0)

    def play(self, kind, now):
        # Start kind's tone at now (a tone still sounding gives way to it); QUIET plays nothing.
        t = TONES[kind]
        if t:
            self.pwm.freq(t[0])
            self.pwm.duty_u16(HALF)
            self.t0 = now
            self.ms = t[1]

    def poll(self, now):
        # Silence the tone once its time is up (duty 0: the pin low, the driver transistor off).
        if self.ms and ticks_diff(now, self.t0) >= self.ms:
            self.pwm.duty_u16(0)
            self.ms = 0
