# Shot clock (RULES.md K1-K6, O7): the countdown of the shot at the table and its buzzer
# schedule. Pure: time comes in as ticks_ms values (MicroPython's time.ticks_ms(); on CPython
# any millisecond counter), differences taken with firmware.keys.ticks_diff (wrapping ticks, as
# the board's). No I/O: a driver plays what beeps() returns.
from firmware.keys import ticks_diff  # (resident: the keys' own, wrapping as the board's)

# The profiles (O7): seconds a shot (K2), for the first shot after the break (K5), an
# extension's seconds and how many each player has a rack (K3), the warning point (K2), and
# whether the first-shot time also follows a push out (K5's TV-event profile).
# "auto": the time foul (K4) is recorded on its own at zero; else the board proposes it and the
# referee confirms it with a key (the profiles' way: the referee judges whether the shot began).
PROFILES = {
    "wpa": {"shot": 35, "first": 60, "ext": 25, "exts": 1, "warn": 10, "push": False,
            "auto": False},
    "tv": {"shot": 30, "first": 60, "ext": 30, "exts": 1, "warn": 10, "push": True,
           "auto": False},
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
    unless it says "push": false; the time foul is recorded on its own only with "auto": true.
    None: no shot clock (O7's default)."""
    if v is None:
        return None
    if isinstance(v, str):
        return dict(PROFILES[v])
    p = {k: v[k] for k in FIELDS}
    p["push"] = v.get("push", True) is not False
    p["auto"] = v.get("auto") is True
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
        self.first = False   # this shot has the first-shot time (K5): restart() gives it again
        self.broke = False   # the last shot was a break (first_shot's facts, kept while its
        self.pushed = False  # choice is answered) / a push out

    def start(self, now, first=False):
        """K1: the countdown starts at the key that records the shot before (the balls have
        stopped); first: the first-shot time (K5), else the standard time (K2)."""
        self.ms = self.heard = self.prof["first" if first else "shot"] * 1000
        self.t0 = now
        self.on = True
        self.first = first

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


# ---------------------------------------------------------------- the clock at the table
# What the controller (firmware/ui.py) asks of the clock, here so that a match without a shot
# clock never loads it: ctl is the Controller (its public names: match, mode, clock, now, send).

def settle(ctl, ev, brk, rack):
    """The clock after an accepted action: ev its (last) event, None for an undo or a resume;
    brk, rack: the state's "breaking" and rack number before it. K1: the key that records a
    shot starts the next shot's countdown; K5: the first-shot time after a break or a push out,
    once its choice is answered; K6: none during a choice or the lag, nor after match over. A
    rack's first shot (a break, a new rack, 14.1's re-rack) waits paused until the balls are
    racked: the referee's pause key starts it (K1). An undo (or a resume after a power cut: the
    board can't tell how long it was off) gives the shot's whole time with the extensions
    taken on it (the time at its last record, as near as the events tell), paused (K6)."""
    c = ctl.clock
    m = ctl.match
    now = ctl.now
    t = ev["t"] if ev else None
    n = 0                        # the extensions taken on this shot (an undo, a resume)
    if t == "ext":
        return c.extend(now)     # K3: its seconds on the running shot
    if t == "shot":
        c.broke = bool(brk)
        c.pushed = ev.get("call") == "push"
    elif t != "choose":          # (a choice answered keeps its shot's facts)
        c.broke = c.pushed = False
        i = len(m.log) - 1       # undo, resume: the last shot's facts (past its choice and
        while t is None and i > 0:   # extensions), if it is on hand
            try:
                e = m.log.event(i)
            except IndexError:
                break
            if e["t"] == "shot":
                c.broke = "break_rails" in e
                c.pushed = e.get("call") == "push"
            if e["t"] == "ext":
                n += 1
            elif e["t"] != "choose":
                break
            i -= 1
    if ctl.mode != "play":
        return c.reset()
    c.start(now, first_shot(c.prof, c.broke, c.pushed, m.get("breaking")))
    c.ms += n * c.prof["ext"] * 1000
    if t is None or m.get("breaking") or m.get("rack") != rack:
        c.pause(now)


def key(ctl, what):
    """A referee's clock key in play: "pause" (pause or resume, K6: a ruling, a time-out),
    "restart" (the shot's whole time again, running), "ext" (the shooter's extension: an event,
    K3), "time" (the time foul the board proposes at zero: an event, K4)."""
    c = ctl.clock
    now = ctl.now
    if what == "pause":
        if c.running():
            c.pause(now)
        elif c.on:
            c.resume(now)
        else:
            ctl.bad("clock")
    elif what == "restart":
        c.start(now, c.first)
    elif what == "ext":
        ctl.send({"t": "ext"})
    elif not c.expired(now):
        ctl.msg = ["not_up"]
    else:
        ctl.send({"t": "shot", "foul": "K4"})  # (C-K2: no shot facts)


def tick(ctl, now):
    """The app's pass at now: the second shown (ctl.secs: the app redraws when it changes), the
    time foul recorded on its own at zero where the profile says so (K4), and the buzzer's sound
    (QUIET, WARN, TICK, END)."""
    c = ctl.clock
    s = c.left(now)
    if s != ctl.secs:
        ctl.secs = s
        if s == 0 and c.prof["auto"] and ctl.mode == "play":
            key(ctl, "time")
            ctl.version += 1
    return c.beeps(now)


def model(ctl):
    """The screens' clock: [seconds shown or None (no countdown), running, player 0's
    extensions left, player 1's]."""
    c = ctl.clock
    m = ctl.match
    return [c.left(ctl.now), c.running(), m.exts(0), m.exts(1)]
