# Keys: a 4x4 matrix keypad or direct buttons, polled, debounced, with long, stuck and chattering
# keys told apart; Keypad(rows, cols) / Buttons(pins, names) .poll(now_ms) -> (kind, name) or None.
# One module (a board loads one input kind; each module more costs heap).
import time

from firmware.mem import const

# ---------------------------------------------------------------- ms ticks
# Tick arithmetic that wraps like MicroPython's ticks_ms (period 2**30); native where available.
_MASK = const(0x3FFFFFFF)  # ticks period - 1 (period 2**30)
_HALF = const(0x20000000)  # half the period: the largest forward difference (and the bound of
#                           every time setting)


def wrap_diff(a, b):
    # Signed a - b for ticks that wrap at 2**30; stays within small ints on 32-bit ports.
    d = (a - b) & _MASK
    if d >= _HALF:
        d = d - _MASK - 1
    return d


def wrap_add(t, d):
    # t + d on the 2**30 tick circle.
    return (t + d) & _MASK


# MicroPython's own (its port's period); CPython has neither, so the 2**30 ones above.
ticks_diff = getattr(time, "ticks_diff", wrap_diff)
ticks_add = getattr(time, "ticks_add", wrap_add)


# ---------------------------------------------------------------- debounce engine
# Events, (kind, name) tuples: ("press", name) on the debounced release of a press
# shorter than long_ms, or for a key set by at_contact() (one with no long-press meaning: nothing
# waits for its release) as soon as its contact has held contact_ms, seen by two samples at least
# (a one-sample glitch makes nothing; its release is debounced in full, and until then the key
# gives nothing more, so bounces are ignored); ("long", name) once while held past long_ms (its
# release gives nothing);
# ("stuck", name) once when held past stuck_ms (after its "long"), then the key is ignored until
# released; ("chatter", name) once when the level never holds debounce_ms for chatter_ms, or when
# chatter_edges debounced changes fall within chatter_ms; the key is then ignored until it has
# read released for quiet_ms. A level counts once it has held debounce_ms; hold times run from
# first contact.

# What a key is doing (KeyScanner.mode[i]).
_IDLE = const(0)  # normal: a debounced release gives "press"
_LONG = const(1)  # "long" sent for this press; its release gives nothing
_BLOCK = const(2)  # pressed while another key held the rollover lock; ignored until released
_STUCK = const(3)  # "stuck" sent; ignored until a debounced release
_CHAT = const(4)  # "chatter" sent; ignored until released and quiet for quiet_ms


def reader(pin):
    # A pin is anything with .value() (machine.Pin) or callable; returns the callable to use.
    v = getattr(pin, "value", None)
    if v is None:
        if not callable(pin):
            raise TypeError("pin needs .value() or to be callable")
        v = pin
    return v


class KeyScanner:
    # Base of Buttons and Keypad: subclasses read levels and call _step(i, pressed, now) for each
    # key i. Per-key state lives in flat arrays (a few bytes a key, nothing allocated per poll):
    # raw: last sampled level (1 = pressed); deb: debounced level; mode: what the key is doing;
    # unstable: 1 while the raw level has not yet held debounce_ms; n_tr: debounced transitions
    # in the chatter window; times: t_edge last raw edge, t_run first edge of the current
    # unstable run, t_down when the current debounced press began, t_win chatter window start.
    def __init__(self, names, debounce_ms=30, long_ms=800, stuck_ms=5000,
                 chatter_ms=200, chatter_edges=6, quiet_ms=1000, rollover=False, queue=8):
        if not 0 < debounce_ms < chatter_ms < _HALF:
            raise ValueError("need 0 < debounce_ms < chatter_ms")
        if long_ms and long_ms <= debounce_ms:
            raise ValueError("long_ms must exceed debounce_ms (0 turns long presses off)")
        if stuck_ms and (stuck_ms <= long_ms or stuck_ms >= _HALF):
            raise ValueError("stuck_ms must exceed long_ms (0 turns stuck detection off)")
        if not 2 <= chatter_edges <= 255 or not 0 <= quiet_ms < _HALF or queue < 1:
            raise ValueError("bad chatter_edges, quiet_ms or queue")
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.stuck_ms = stuck_ms
        self.chatter_ms = chatter_ms
        self.chatter_edges = chatter_edges
        self.quiet_ms = quiet_ms
        self.names = names
        n = len(names)
        self.raw = bytearray(n)
        self.deb = bytearray(n)
        self.mode = bytearray(n)
        self.unstable = bytearray(n)
        self.n_tr = bytearray(n)
        self.t_edge = [0] * n
        self.t_run = [0] * n
        self.t_down = [0] * n
        self.t_win = [0] * n
        self.instant = bytearray(n)  # 1: "press" once the contact held contact_ms (at_contact)
        self._contact = bytes(n)  # 1: set by at_contact (hold() may give it its long press back)
        self.contact_ms = debounce_ms
        self._rollover = rollover
        self._owner = -1  # the key holding the rollover lock, or -1
        # 0: every key released, settled and normal (at rest) after the last scan; else not
        # (the Keypad's: the columns, bit c, with a key not at rest). The app's loop samples a
        # key not at rest again as soon as the next millisecond comes (app.run).
        self.busy = 0
        self._q = [None] * queue  # type: list  # ring of (kind, name) events
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

    def at_contact(self, names, contact_ms=0):
        # These keys give "press" on their contact, not their release (keys with no long-press
        # meaning): a key's screen comes a press's length sooner. contact_ms (0: debounce_ms):
        # how long the contact must hold; a shorter one than debounce_ms brings the screen
        # sooner still (the release stays debounced for debounce_ms).
        if not 0 <= contact_ms <= self.debounce_ms:
            raise ValueError("need 0 <= contact_ms <= debounce_ms")
        self.contact_ms = contact_ms or self.debounce_ms
        for i in range(len(self.names)):
            self.instant[i] = 1 if self.names[i] in names else 0
        self._contact = bytes(self.instant)

    def hold(self, names):
        # The keys of at_contact() in names give their long press again (their press at the
        # release, as any other key's: the buttons' MISS and OK with a shot clock); the others
        # act at contact.
        c = self._contact
        for i in range(len(self.names)):
            if c[i]:
                self.instant[i] = 0 if self.names[i] in names else 1

    def faults(self):
        # Names of keys now ignored as stuck or chattering (allocates: call it when drawing).
        return [self.names[i] for i in range(len(self.names)) if self.mode[i] >= _STUCK]

    def _scan(self, now):
        raise NotImplementedError

    def _emit(self, kind, i):
        n = self._qn
        size = len(self._q)
        if n >= size:
            self.dropped += 1
            return
        j = self._qh + n
        if j >= size:
            j -= size
        self._q[j] = (kind, self.names[i])
        self._qn = n + 1

    def _step(self, i, p, now):
        # Feed one sample (p: 1 pressed, 0 released) of key i taken at time now.
        # (its frame small enough for the C stack: a larger one is allocated on the heap at
        # each call, firmware/mem.py; after the first lines raw[i] is p)
        if p != self.raw[i]:
            self.raw[i] = p
            self.t_edge[i] = now
            if not self.unstable[i]:
                self.unstable[i] = 1
                self.t_run[i] = now
        elif self.unstable[i]:
            dt = ticks_diff(now, self.t_edge[i])
            if dt >= self.debounce_ms:
                self.unstable[i] = 0
                if self.mode[i] != _CHAT and p != self.deb[i]:
                    self._settle(i, p, now)
            elif (p and dt >= self.contact_ms and self.instant[i] and not self.deb[i]
                  and self.mode[i] == _IDLE):
                # an at_contact key's contact held contact_ms: its press now (t_edge was an
                # earlier sample's time, so two samples at least saw it), and the level counts
                # as settled: a bounce or the release starts a run of its own (else a pass
                # longer than chatter_ms after the press, its screen drawn, made the release
                # look like chatter)
                self.unstable[i] = 0
                self._settle(i, 1, now)
        mode = self.mode[i]
        if mode == _CHAT:
            if not p and ticks_diff(now, self.t_edge[i]) >= self.quiet_ms:
                self.mode[i] = _IDLE
                self.deb[i] = 0
                self.unstable[i] = 0
                self.n_tr[i] = 0
            return
        if mode == _STUCK:
            return
        if self.unstable[i] and ticks_diff(now, self.t_run[i]) >= self.chatter_ms:
            self._chatter(i)  # never settled for chatter_ms
            return
        if self.deb[i] and p:  # held, and not in the debounce of its release
            dt = ticks_diff(now, self.t_down[i])
            if self.stuck_ms and dt >= self.stuck_ms:
                self.mode[i] = _STUCK
                if self._owner == i:
                    self._owner = -1
                self._emit("stuck", i)
            elif mode == _IDLE and self.long_ms and dt >= self.long_ms:
                self.mode[i] = _LONG
                self._emit("long", i)

    def _settle(self, i, p, now):
        # The raw level held for debounce_ms and differs from the debounced one.
        self.deb[i] = p
        if self.n_tr[i] and ticks_diff(now, self.t_win[i]) <= self.chatter_ms:
            self.n_tr[i] += 1
            if self.n_tr[i] >= self.chatter_edges:
                self._chatter(i)  # too many debounced transitions in one window
                return
        else:
            self.n_tr[i] = 1
            self.t_win[i] = now
        if p:
            self.t_down[i] = self.t_run[i]
            if self._rollover and self.mode[i] == _IDLE:
                if self._owner < 0:
                    self._owner = i
                elif self._owner != i:
                    self.mode[i] = _BLOCK
            if self.instant[i] and self.mode[i] == _IDLE:
                self._emit("press", i)
                self.mode[i] = _LONG  # its release gives nothing, and no "long" comes
        else:
            if self.mode[i] == _IDLE:
                self._emit("press", i)
            self.mode[i] = _IDLE
            if self._owner == i:
                self._owner = -1

    def _chatter(self, i):
        self.mode[i] = _CHAT
        self.deb[i] = 0
        self.n_tr[i] = 0
        if self._owner == i:
            self._owner = -1
        self._emit("chatter", i)


# ---------------------------------------------------------------- 4x4 matrix keypad
# Drive one row low at a time, read pulled-up columns; single-key rollover. Between scans every
# row stays low, so a column reads low where a key of it is down: a pass reads the columns and
# scans only those and the ones with a key not at rest.
class Keypad(KeyScanner):
    # rows: output pins (.value(v) or callable(v)), best open-drain so two held keys never short
    # a high row to a low one; cols: input pins with pull-ups. keymap names keys row by row.
    def __init__(self, rows, cols, keymap="123A456B789C*0#D", debounce_ms=30, long_ms=800,
                 stuck_ms=5000, chatter_ms=200, chatter_edges=6, quiet_ms=1000, queue=8):
        if len(keymap) != len(rows) * len(cols) or not keymap:
            raise ValueError("keymap needs one name per row x column")
        KeyScanner.__init__(self, [keymap[i] for i in range(len(keymap))], debounce_ms, long_ms,
                            stuck_ms, chatter_ms, chatter_edges, quiet_ms, True, queue)
        self._rows = [reader(p) for p in rows]
        self._cols = [reader(p) for p in cols]
        # the columns a scan reads, by the mask of those in use (bit c: column c): one column
        # alone, else all of them (made once: a scan allocates nothing)
        nc = len(cols)
        self._sel = [tuple(range(nc))] * (1 << nc)
        for c in range(nc):
            self._sel[1 << c] = (c,)
        self._drive(0)

    def _scan(self, now):
        # The columns that read low with every row low, and those with a key not at rest
        # (released, settled and normal: _step would do nothing with it); none: nothing more
        # (4 pin calls a pass, in a frame small enough for the C stack: a larger one is
        # allocated on the heap at each call, which costs a Pico more than the reads).
        m = self.busy
        b = 1
        for col in self._cols:
            if not col():
                m |= b
            b += b
        if m:
            self._each(now, m)

    def _each(self, now, m):
        # One row low at a time: the level of each key of the columns in m, stepped unless it
        # reads released and is at rest; then the columns with a key not at rest.
        cols = self._cols
        nc = len(cols)
        rows = self._rows
        raw = self.raw
        unstable = self.unstable
        mode = self.mode
        sel = self._sel[m]
        busy = 0
        self._drive(1)
        r = 0
        for drive in rows:
            drive(0)
            for c in sel:
                i = r + c
                if not cols[c]():
                    self._step(i, 1, now)
                elif raw[i] or unstable[i] or mode[i]:
                    self._step(i, 0, now)
                if raw[i] or unstable[i] or mode[i]:
                    busy |= 1 << c
            drive(1)
            r += nc
        self._drive(0)
        self.busy = busy

    def _drive(self, v):
        # Every row to v, the last row first (so row 0 goes low alone only in a scan row by row:
        # what the virtual Pico counts as a pass).
        i = len(self._rows)
        while i:
            i -= 1
            self._rows[i](v)


# ---------------------------------------------------------------- direct buttons
# One pin each: Buttons(pins, names).poll(now_ms) -> (kind, name) or None.
class Buttons(KeyScanner):
    # Each pin reads 0 when its button is down if active_low (pull-up wiring), else 1.
    def __init__(self, pins, names, debounce_ms=30, long_ms=800, stuck_ms=5000,
                 active_low=True, chatter_ms=200, chatter_edges=6, quiet_ms=1000, queue=8):
        if len(pins) != len(names) or not pins:
            raise ValueError("one name per pin")
        KeyScanner.__init__(self, names, debounce_ms, long_ms, stuck_ms,
                            chatter_ms, chatter_edges, quiet_ms, False, queue)
        self._reads = [reader(p) for p in pins]
        self._low = 1 if active_low else 0

    def _scan(self, now):
        # As Keypad's: with every key at rest, a read of each pin in a small frame; else each
        # key's level, stepped unless it reads released and is at rest.
        if not self.busy:
            low = self._low
            for read in self._reads:
                if (1 - low if read() else low):  # (a key reads pressed)
                    break
            else:
                return
        self._each(now)

    def _each(self, now):
        reads = self._reads
        low = self._low
        raw = self.raw
        unstable = self.unstable
        mode = self.mode
        for i in range(len(reads)):
            p = 1 - low if reads[i]() else low
            if p or raw[i] or unstable[i] or mode[i]:
                self._step(i, p, now)
        self.busy = 1 if any(raw) or any(unstable) or any(mode) else 0
