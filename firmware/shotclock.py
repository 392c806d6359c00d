# Shot clock (RULES.md K1-K6, O7): the countdown of the shot at the table and its buzzer
# schedule. Pure: time comes in as ticks_ms values (MicroPython's time.ticks_ms(); on CPython
# any millisecond counter), differences taken with firmware.keys.ticks_diff (wrapping ticks, as
# the board's). No I/O: a driver plays what beeps() returns.
from firmware.keys import ticks_diff  # (resident: the keys' own, wrapping as the board's)

# The profiles (O7): seconds a shot (K2), for the first shot after the break (K5), an
# extension's seconds and how many each player has a rack (K3), the warning point (K2), and
# whether the first-shot time also follows a push out (K5's TV-event profile).
PROFILES = {
    "wpa": {"shot": 35, "first": 60, "ext": 25, "exts": 1, "warn": 10, "push": False},
    "tv": {"shot": 30, "first": 60, "ext": 30, "exts": 1, "warn": 10, "push": True},
}
FIELDS = ("shot", "first", "ext", "exts", "warn")  # a custom profile's numbers

# What beeps() asks of the buzzer.
QUIET = 0
WARN = 1   # a short beep: the warning point (K2: the last 10 seconds announced)
TICK = 2   # a short beep a second in the last 5 seconds
END = 3    # a long tone: the time is up (K4)


def profile(v):
    """The profile dict of a new event's clock option: a name of PROFILES or a custom dict
    (events.check has checked it); a custom profile's first-shot time also follows a push out
    unless it says "push": false. None: no shot clock (O7's default)."""
    if v is None:
        return None
    if isinstance(v, str):
        return dict(PROFILES[v])
    p = {k: v[k] for k in FIELDS}
    p["push"] = v.get("push", True) is not False
    return p


def first_shot(prof, broke, pushed, breaking):
    """Whether the next shot has the first-shot time (K5), for the controller to call once
    the shot before it is settled (its choice answered): broke, the state's "breaking" was
    true before that shot (it was a break); pushed, it was a push out (its call "push");
    breaking, the state's "breaking" now (a re-rack or a break still to take: a break is a
    standard shot, K2)."""
    if breaking:
        return False
    return bool(broke or (pushed and prof["push"]))


class Clock:
    """The countdown of one shot in milliseconds: idle until start(), running or paused."""

    def __init__(self, prof):
        self.prof = prof
        self.ms = 0          # time left at t0 (paused: time left)
        self.t0 = None       # tick it last resumed at; None while paused or idle
        self.on = False      # a shot's countdown exists (started, not yet reset)
        self.heard = 0       # time left at the last beeps() call

    def start(self, now, first=False):
        """K1: the countdown starts at the key that records the shot before (the balls have
        stopped); first: the first-shot time (K5), else the standard time (K2)."""
        self.ms = self.heard = self.prof["first" if first else "shot"] * 1000
        self.t0 = now
        self.on = True

    def reset(self):
        """No countdown (a ruling, a choice, the match over: K6); left() is None."""
        self.on = False
        self.t0 = None

    def rem(self, now):
        """Milliseconds left (negative once past zero); None when idle."""
        if not self.on:
            return None
        if self.t0 is None:
            return self.ms
        return self.ms - ticks_diff(now, self.t0)

    def running(self):
        return self.t0 is not None

    def pause(self, now):
        """K6: no running during a ruling, a re-rack, a choice or a time-out."""
        if self.t0 is not None:
            self.ms = self.rem(now)
            self.t0 = None

    def resume(self, now):
        if self.on and self.t0 is None:
            self.t0 = now

    def extend(self, now):
        """K3: an extension's seconds added (the match records it: {"t": "ext"}); the warning
        and the last seconds sound again before the new zero."""
        r = self.rem(now)
        if r is not None and r > 0:
            self.ms = self.heard = r + self.prof["ext"] * 1000
            if self.t0 is not None:
                self.t0 = now

    def left(self, now):
        """The whole seconds shown: rounded up, so that the shown second changes when the time
        left crosses it (35 until exactly 34 s are left) and 0 means the time is up."""
        r = self.rem(now)
        if r is None:
            return None
        return (r + 999) // 1000 if r > 0 else 0

    def expired(self, now):
        r = self.rem(now)
        return r is not None and r <= 0

    def beeps(self, now):
        """What the buzzer must play for the time since the last call: END when zero was
        crossed, TICK when one of the last 5 seconds began (5 s left, 4 s, ... 1 s), WARN at the
        warning point, else QUIET. Of several crossed since the last call only the latest
        counts (an old beep played late would mislead)."""
        r = self.rem(now)
        if r is None:
            return QUIET
        prev = self.heard
        if r >= prev:
            return QUIET
        self.heard = r
        if r <= 0:
            return END if prev > 0 else QUIET
        b = (r + 999) // 1000 * 1000       # the latest whole second at or above r
        if b <= 5000 and b < prev:
            return TICK
        w = self.prof["warn"] * 1000
        return WARN if r <= w < prev else QUIET

    def to_list(self, now):
        """A snapshot for a store ([] when idle, else the milliseconds left): from_list() puts
        it back paused with that time, as after a power cut (the time in between not counted)."""
        r = self.rem(now)
        return [] if r is None else [r]

    def from_list(self, v):
        self.t0 = None
        self.on = bool(v)
        self.ms = self.heard = v[0] if v else 0
        return self
