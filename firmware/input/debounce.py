# Debounce engine of Buttons and Keypad: per-key state machine, fault detection, event queue.
try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from .ticks import ticks_diff

# Events, each a tuple built once per key: ("press", name) on the debounced release of a press
# shorter than long_ms; ("long", name) once while held past long_ms (its release gives nothing);
# ("stuck", name) once when held past stuck_ms (after its "long"), then the key is ignored until
# released; ("chatter", name) once when the level never holds debounce_ms for chatter_ms, or when
# chatter_edges debounced changes fall within chatter_ms; the key is then ignored until it has
# read released for quiet_ms. A level counts once it has held debounce_ms; hold times run from
# first contact.

# What a key is doing (Key.mode).
_IDLE = const(0)  # normal: a debounced release gives "press"
_LONG = const(1)  # "long" sent for this press; its release gives nothing
_BLOCK = const(2)  # pressed while another key held the rollover lock; ignored until released
_STUCK = const(3)  # "stuck" sent; ignored until a debounced release
_CHAT = const(4)  # "chatter" sent; ignored until released and quiet for quiet_ms

_HALF = const(0x20000000)  # every time setting must stay below half the ticks period


def reader(pin):
    # A pin is anything with .value() (machine.Pin) or callable; returns the callable to use.
    v = getattr(pin, "value", None)
    if v is None:
        if not callable(pin):
            raise TypeError("pin needs .value() or to be callable")
        v = pin
    return v


class Key:
    # One key's debounce state; its event tuples are built once here, so polling allocates none.
    def __init__(self, name):
        self.name = name
        self.ev_press = ("press", name)
        self.ev_long = ("long", name)
        self.ev_stuck = ("stuck", name)
        self.ev_chatter = ("chatter", name)
        self.raw = 0  # last sampled level, 1 = pressed
        self.deb = 0  # debounced level, 1 = pressed
        self.mode = _IDLE
        self.unstable = 0  # 1 while the raw level has not yet held for debounce_ms
        self.t_edge = 0  # time of the last raw edge
        self.t_run = 0  # time of the first edge of the current unstable run
        self.t_down = 0  # when the current debounced press began
        self.n_tr = 0  # debounced transitions in the chatter window
        self.t_win = 0  # start of the chatter window


class KeyScanner:
    # Base of Buttons and Keypad: subclasses read levels and call _step(key, pressed, now) per key.
    def __init__(self, names, debounce_ms=30, long_ms=800, stuck_ms=5000,
                 chatter_ms=200, chatter_edges=6, quiet_ms=1000, rollover=False, queue=8):
        if not 0 < debounce_ms < chatter_ms < _HALF:
            raise ValueError("need 0 < debounce_ms < chatter_ms")
        if long_ms and long_ms <= debounce_ms:
            raise ValueError("long_ms must exceed debounce_ms (0 turns long presses off)")
        if stuck_ms and (stuck_ms <= long_ms or stuck_ms >= _HALF):
            raise ValueError("stuck_ms must exceed long_ms (0 turns stuck detection off)")
        if chatter_edges < 2 or not 0 <= quiet_ms < _HALF or queue < 1:
            raise ValueError("bad chatter_edges, quiet_ms or queue")
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.stuck_ms = stuck_ms
        self.chatter_ms = chatter_ms
        self.chatter_edges = chatter_edges
        self.quiet_ms = quiet_ms
        self.keys = [Key(n) for n in names]
        self._rollover = rollover
        self._owner = None  # the key holding the rollover lock
        self._q = [None] * queue
        self._qh = 0
        self._qn = 0
        self.dropped = 0  # events lost because the queue was full

    def poll(self, now_ms):
        # Sample every key once at now_ms (ticks_ms); return the oldest pending event or None.
        self._scan(now_ms)
        return self.get()

    def get(self):
        # Next queued event without sampling: drain with `while ev := get()` after a poll.
        n = self._qn
        if not n:
            return None
        h = self._qh
        ev = self._q[h]
        self._q[h] = None
        h += 1
        if h >= len(self._q):
            h = 0
        self._qh = h
        self._qn = n - 1
        return ev

    def faults(self):
        # Names of keys now ignored as stuck or chattering (allocates: call it when drawing).
        return [k.name for k in self.keys if k.mode >= _STUCK]

    def _scan(self, now):
        raise NotImplementedError

    def _emit(self, ev):
        n = self._qn
        size = len(self._q)
        if n >= size:
            self.dropped += 1
            return
        i = self._qh + n
        if i >= size:
            i -= size
        self._q[i] = ev
        self._qn = n + 1

    def _step(self, k, p, now):
        # Feed one sample (p: 1 pressed, 0 released) of key k taken at time now.
        if p != k.raw:
            k.raw = p
            k.t_edge = now
            if not k.unstable:
                k.unstable = 1
                k.t_run = now
        elif k.unstable and ticks_diff(now, k.t_edge) >= self.debounce_ms:
            k.unstable = 0
            if k.mode != _CHAT and p != k.deb:
                self._settle(k, p, now)
        mode = k.mode
        if mode == _CHAT:
            if not k.raw and ticks_diff(now, k.t_edge) >= self.quiet_ms:
                k.mode = _IDLE
                k.deb = 0
                k.unstable = 0
                k.n_tr = 0
            return
        if mode == _STUCK:
            return
        if k.unstable and ticks_diff(now, k.t_run) >= self.chatter_ms:
            self._chatter(k)  # never settled for chatter_ms
            return
        if k.deb and k.raw:  # held, and not in the debounce of its release
            held = ticks_diff(now, k.t_down)
            if self.stuck_ms and held >= self.stuck_ms:
                k.mode = _STUCK
                if self._owner is k:
                    self._owner = None
                self._emit(k.ev_stuck)
            elif mode == _IDLE and self.long_ms and held >= self.long_ms:
                k.mode = _LONG
                self._emit(k.ev_long)

    def _settle(self, k, p, now):
        # The raw level held for debounce_ms and differs from the debounced one.
        k.deb = p
        if k.n_tr and ticks_diff(now, k.t_win) <= self.chatter_ms:
            k.n_tr += 1
            if k.n_tr >= self.chatter_edges:
                self._chatter(k)  # too many debounced transitions in one window
                return
        else:
            k.n_tr = 1
            k.t_win = now
        if p:
            k.t_down = k.t_run
            if self._rollover and k.mode == _IDLE:
                if self._owner is None:
                    self._owner = k
                elif self._owner is not k:
                    k.mode = _BLOCK
        else:
            if k.mode == _IDLE:
                self._emit(k.ev_press)
            k.mode = _IDLE
            if self._owner is k:
                self._owner = None

    def _chatter(self, k):
        k.mode = _CHAT
        k.deb = 0
        k.n_tr = 0
        if self._owner is k:
            self._owner = None
        self._emit(k.ev_chatter)
