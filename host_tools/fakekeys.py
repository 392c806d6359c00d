# Fake keys for input tests (CPython and MicroPython): the buttons' names, a 4x4 keypad model
# on FakePins, scripted presses with contact bounce, and a scanner driven through a script.
from host_tools.fakepins import FakePin

# The buttons layout's names, in the order of a board profile's "buttons" pins (boards/pico.py).
BUTTONS = ("P1", "P2", "FOUL", "UNDO", "MISS", "OK")


class _ColPin:
    # A column of a FakeMatrix: reads 0 while a closed key joins it to a row driven low.
    def __init__(self, matrix, col):
        self._m = matrix
        self._c = col

    def value(self, v=None):
        m = self._m
        nc = len(m.cols)
        low = 0
        level = 1
        for r in range(len(m.rows)):
            if not m.rows[r].level:
                low += 1
                if m.down[r * nc + self._c]:
                    level = 0
        if 1 < low < len(m.rows):
            m.multi_low += 1
        m.reads += 1
        return level

    def __call__(self, v=None):
        return self.value(v)


class _Switch:
    # One key of a FakeMatrix, scriptable like a FakePin: set(0) closes it, set(1) opens it.
    def __init__(self, matrix, index):
        self._m = matrix
        self._i = index

    def set(self, level):
        self._m.down[self._i] = 0 if level else 1


class FakeMatrix:
    # A keypad: rows are FakePins the scanner drives; cols read low through closed keys.
    def __init__(self, keymap="123A456B789C*0#D", nrows=4, ncols=4):
        if len(keymap) != nrows * ncols:
            raise ValueError("keymap size")
        self.keymap = keymap
        self.rows = [FakePin(1) for _ in range(nrows)]
        self.cols = [_ColPin(self, c) for c in range(ncols)]
        self.down = [0] * (nrows * ncols)
        # column reads made while some rows but not all were low (a scan bug: one row low at a
        # time tells the keys apart, all of them at once whether any key is down)
        self.multi_low = 0
        self.reads = 0

    def switch(self, key):
        return _Switch(self, self.keymap.index(key))

    def press(self, key):
        self.down[self.keymap.index(key)] = 1

    def release(self, key):
        self.down[self.keymap.index(key)] = 0


def press_script(target, t0, hold_ms, bounces=0, bounce_ms=2, release_bounces=None):
    # Script (t, target, level) of one active-low press at t0 held hold_ms, with contact bounce:
    # `bounces` extra open/close pairs bounce_ms apart after making and after breaking contact.
    if release_bounces is None:
        release_bounces = bounces
    out = [(t0, target, 0)]
    t = t0
    for _ in range(bounces):
        out.append((t + bounce_ms, target, 1))
        out.append((t + 2 * bounce_ms, target, 0))
        t += 2 * bounce_ms
    t = t0 + hold_ms
    out.append((t, target, 1))
    for _ in range(release_bounces):
        out.append((t + bounce_ms, target, 0))
        out.append((t + 2 * bounce_ms, target, 1))
        t += 2 * bounce_ms
    return out


def toggle_script(target, t0, dur_ms, period_ms, end_level=1):
    # Script of a level flipping every period_ms for dur_ms (a chattering contact), then end_level.
    out = []
    level = 0
    t = t0
    while t < t0 + dur_ms:
        out.append((t, target, level))
        level = 1 - level
        t += period_ms
    out.append((t, target, end_level))
    return out


def _when(entry):
    return entry[0]


def run(scanner, script, t_end, step_ms=5, start=0, add=None):
    # Apply script entries as their time comes and poll every step_ms from 0 to t_end.
    # now = add(start, t) (pass a ticks_add to cross the wrap) or start + t.
    # Returns [(t, event)] with t relative to start.
    script = sorted(script, key=_when)
    out = []
    i = 0
    t = 0
    while t <= t_end:
        while i < len(script) and script[i][0] <= t:
            script[i][1].set(script[i][2])
            i += 1
        now = add(start, t) if add else start + t
        ev = scanner.poll(now)
        while ev is not None:
            out.append((t, ev))
            ev = scanner.get()
        t += step_ms
    return out
