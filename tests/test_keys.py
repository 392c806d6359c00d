# mp: yes
# Input layer: debounce, long press, stuck and chattering keys, keypad scan, ticks wrap, no alloc.
from firmware.keys import Buttons, Keypad, ticks_add, ticks_diff, wrap_add, wrap_diff
from host_tools.fakekeys import FakeMatrix, press_script, run, toggle_script
from host_tools.fakepins import FakePin

NAMES = ("A", "B", "FOUL", "UNDO")


def _buttons(**kw):
    pins = [FakePin(1) for _ in NAMES]
    return Buttons(pins, NAMES, **kw), pins


def _events(out):
    return [e for _, e in out]


def test_clean_press_gives_one_event():
    b, pins = _buttons()
    out = run(b, press_script(pins[0], 100, 120), 1000)
    assert _events(out) == [("press", "A")]
    t, _ = out[0]
    assert 220 + 30 <= t <= 220 + 40  # on the debounced release


def test_bounce_within_debounce_gives_one_event():
    b, pins = _buttons()
    script = press_script(pins[1], 100, 150, bounces=4, bounce_ms=3)
    out = run(b, script, 1000, step_ms=1)
    assert _events(out) == [("press", "B")]


def test_press_shorter_than_debounce_gives_nothing():
    b, pins = _buttons(debounce_ms=30)
    out = run(b, press_script(pins[0], 100, 15), 1000, step_ms=1)
    assert out == []
    out = run(b, press_script(pins[0], 100, 45), 1000, step_ms=1)
    assert _events(out) == [("press", "A")]


def test_debounce_is_configurable():
    b, pins = _buttons(debounce_ms=50)
    out = run(b, press_script(pins[0], 100, 40), 1000, step_ms=1)
    assert out == []
    b, pins = _buttons(debounce_ms=20)
    out = run(b, press_script(pins[0], 100, 25), 1000, step_ms=1)
    assert _events(out) == [("press", "A")]


def test_long_press_gives_one_long_and_no_press():
    b, pins = _buttons(long_ms=800)
    out = run(b, press_script(pins[2], 100, 2000, bounces=2), 3000)
    assert _events(out) == [("long", "FOUL")]
    assert 900 <= out[0][0] <= 910  # fires while held, 800 ms after contact


def test_long_off():
    b, pins = _buttons(long_ms=0)
    out = run(b, press_script(pins[2], 100, 2000), 3000)
    assert _events(out) == [("press", "FOUL")]


def test_stuck_key_reported_once_and_others_still_work():
    b, pins = _buttons(stuck_ms=5000)
    script = [(100, pins[0], 0)]  # A stuck down from t=100 to t=20000
    script += press_script(pins[1], 8000, 100)
    script += press_script(pins[3], 12000, 1000)
    script.append((20000, pins[0], 1))
    script += press_script(pins[0], 22000, 100)  # A works again once released
    out = run(b, script, 25000)
    a = [e for e in _events(out) if e[1] == "A"]
    assert a == [("long", "A"), ("stuck", "A"), ("press", "A")]
    assert ("press", "B") in _events(out)
    assert ("long", "UNDO") in _events(out)
    assert out[1] == (5100, ("stuck", "A"))
    assert b.faults() == []


def test_faults_lists_ignored_keys():
    b, pins = _buttons()
    run(b, [(0, pins[3], 0)], 6000)
    assert b.faults() == ["UNDO"]


def test_chatter_reported_once_then_ignored_then_recovers():
    b, pins = _buttons(debounce_ms=30, chatter_ms=200, quiet_ms=1000)
    script = toggle_script(pins[0], 100, 3000, 7)  # never stable for 30 ms
    script += press_script(pins[1], 1000, 100)  # another key meanwhile
    script += press_script(pins[0], 5000, 100)  # after the quiet period
    out = run(b, script, 6000, step_ms=2)
    a = [(t, e) for t, e in out if e[1] == "A"]
    assert [e for _, e in a] == [("chatter", "A"), ("press", "A")]
    assert a[0][0] <= 100 + 200 + 2  # detected within chatter_ms
    assert ("press", "B") in _events(out)


def test_slow_chatter_is_caught_by_transition_count():
    # Flips every 40 ms: each level settles past the 30 ms debounce, so without the
    # transition count it would be 12 presses a second.
    b, pins = _buttons(debounce_ms=30, chatter_ms=200, chatter_edges=6)
    out = run(b, toggle_script(pins[0], 100, 4000, 40), 6000, step_ms=2)
    ev = _events(out)
    assert ev.count(("chatter", "A")) == 1
    assert len(ev) <= 3


def test_fast_human_taps_are_not_chatter():
    b, pins = _buttons()
    script = []
    for i in range(8):  # 8 taps at 5 per second, each with bounce
        script += press_script(pins[0], 100 + 200 * i, 80, bounces=2, bounce_ms=2)
    out = run(b, script, 3000, step_ms=2)
    assert _events(out) == [("press", "A")] * 8


def test_two_buttons_released_together_both_reported():
    b, pins = _buttons()
    script = press_script(pins[0], 100, 100) + press_script(pins[1], 100, 100)
    ev = _events(run(b, script, 1000))
    assert sorted(ev) == [("press", "A"), ("press", "B")]


def test_callable_pins_and_active_high():
    level = [0]

    def pin():
        return level[0]

    b = Buttons([pin], ["X"], active_low=False)
    assert b.poll(0) is None
    level[0] = 1
    for t in range(0, 100, 5):
        assert b.poll(t) is None
    level[0] = 0
    ev = None
    for t in range(100, 200, 5):
        ev = ev or b.poll(t)
    assert ev == ("press", "X")


def test_events_are_kind_and_name_tuples():
    b, pins = _buttons()
    e1 = _events(run(b, press_script(pins[0], 0, 100), 500))[0]
    e2 = _events(run(b, press_script(pins[0], 0, 100), 500, start=1000))[0]
    assert e1 == e2 == ("press", b.names[0])


def test_bad_settings_rejected():
    for kw in ({"debounce_ms": 0}, {"long_ms": 10}, {"stuck_ms": 500}, {"chatter_ms": 20},
               {"chatter_edges": 256}):
        try:
            _buttons(**kw)
        except ValueError:
            continue
        raise AssertionError(kw)


def _keypad(**kw):
    m = FakeMatrix()
    return Keypad(m.rows, m.cols, **kw), m


def test_keypad_identifies_each_of_16_keys():
    k, m = _keypad()
    script = []
    for i, key in enumerate(m.keymap):
        script += press_script(m.switch(key), 100 + 300 * i, 100, bounces=1)
    ev = _events(run(k, script, 300 * 16 + 500))
    assert ev == [("press", key) for key in "123A456B789C*0#D"]
    assert m.multi_low == 0  # one row driven low at a time, or all of them
    assert [p.level for p in m.rows] == [0, 0, 0, 0]  # at rest every row stays low


def test_keypad_at_rest_reads_each_column_once_a_scan():
    # Every key released and settled: the rows stay low, 4 column reads a pass and no row
    # driven, instead of 16 reads and 8 drives; a contact then scans its column row by row
    # from the same pass on, and only it while no other key is down or settling.
    m = FakeMatrix()
    drives = []

    def row(pin):
        def drive(v):
            drives.append(v)
            pin.value(v)
        return drive

    k = Keypad([row(p) for p in m.rows], m.cols)
    run(k, press_script(m.switch("6"), 100, 100), 600)
    assert [p.level for p in m.rows] == [0, 0, 0, 0]
    reads, n = m.reads, len(drives)
    for t in range(600, 700):
        k.poll(t)
    assert m.reads - reads == 100 * 4 and len(drives) == n
    m.press("6")
    k.poll(700)
    assert m.reads - reads == 100 * 4 + 4 + 4  # ("6": the third column reads low, then
    # that column in each row, one row low at a time)
    assert k.raw[m.keymap.index("6")] == 1 and m.multi_low == 0
    m.press("1")  # another column's key while "6" is held: seen in the next pass, which
    k.poll(701)  # scans every column (more than one is in use)
    assert m.reads - reads == 100 * 4 + 8 + 4 + 16
    assert k.raw[m.keymap.index("1")] == 1 and k.raw[m.keymap.index("6")] == 1
    assert [p.level for p in m.rows] == [0, 0, 0, 0] and m.multi_low == 0


def test_keypad_custom_keymap_and_long():
    m = FakeMatrix("abcdefghijklmnop")
    k = Keypad(m.rows, m.cols, keymap="abcdefghijklmnop")
    ev = _events(run(k, press_script(m.switch("g"), 100, 1500), 2000))
    assert ev == [("long", "g")]


def test_keypad_two_keys_held_only_first():
    k, m = _keypad()
    script = [(100, m.switch("5"), 0), (300, m.switch("9"), 0)]
    script += [(600, m.switch("5"), 1), (700, m.switch("9"), 1)]
    script += press_script(m.switch("9"), 1000, 100)  # alone again: counts
    ev = _events(run(k, script, 1500))
    assert ev == [("press", "5"), ("press", "9")]
    # the second key pressed first and released last still gives nothing
    script = [(100, m.switch("1"), 0), (150, m.switch("2"), 0), (300, m.switch("1"), 1)]
    script += [(900, m.switch("2"), 1)]
    assert _events(run(k, script, 1500, start=5000)) == [("press", "1")]


def test_keypad_stuck_key_does_not_block_others():
    k, m = _keypad()
    script = [(0, m.switch("#"), 0)]
    script += press_script(m.switch("7"), 6000, 100)
    ev = _events(run(k, script, 7000))
    assert ev == [("long", "#"), ("stuck", "#"), ("press", "7")]


def test_keypad_chatter_releases_the_lock():
    k, m = _keypad()
    script = toggle_script(m.switch("0"), 0, 2000, 8)
    script += press_script(m.switch("D"), 1000, 100)
    ev = _events(run(k, script, 2000, step_ms=2))
    assert ev == [("chatter", "0"), ("press", "D")]


# Keys set by at_contact(names, contact_ms): "press" once the contact has held contact_ms, seen by
# two samples at least; the release is debounced in full.

def _contact_buttons(contact_ms=5, **kw):
    b, pins = _buttons(**kw)
    b.at_contact(("A", "B"), contact_ms)
    return b, pins


def test_hold_gives_at_contact_keys_their_long_press_and_takes_it_back():
    # hold(names): those keys of at_contact() act at their release, with a long press, as any
    # other key (the buttons' MISS and OK with a shot clock); hold(()): at contact again.
    pins = [FakePin(1) for _ in range(3)]
    b = Buttons(pins, ["A", "B", "C"])
    b.at_contact(("A", "B"), 5)
    b.hold(("A",))
    out = run(b, press_script(pins[0], 100, 1000) + press_script(pins[1], 2000, 80)
              + press_script(pins[2], 3000, 1000), 4500)
    assert out == [(900, ("long", "A")), (2005, ("press", "B")), (3800, ("long", "C"))]
    b.hold(())
    assert run(b, press_script(pins[0], 500, 1000), 2000, start=4500) == [(505, ("press", "A"))]


def test_at_contact_press_comes_once_the_contact_held_contact_ms():
    b, pins = _contact_buttons(5)
    out = run(b, press_script(pins[0], 100, 300), 1000, step_ms=1)
    assert out == [(105, ("press", "A"))]  # not at 130 (debounce_ms), nor on the release
    # polled every 5 ms: the second sample that sees the contact gives it
    b, pins = _contact_buttons(5)
    out = run(b, press_script(pins[0], 101, 300), 1000, step_ms=5)
    assert out == [(110, ("press", "A"))]
    # without contact_ms: on the debounced contact, as before
    b, pins = _buttons()
    b.at_contact(("A",))
    assert run(b, press_script(pins[0], 100, 300), 1000, step_ms=1) == [(130, ("press", "A"))]
    # keys not named still give theirs on the release
    b, pins = _contact_buttons(5)
    assert run(b, press_script(pins[2], 100, 300), 1000, step_ms=1) == [(430, ("press", "FOUL"))]


def test_at_contact_one_sample_glitch_makes_no_press():
    # A contact only one sample sees, however far apart the samples are, gives nothing.
    for step in (1, 5, 10, 40):
        b, pins = _contact_buttons(5)
        out = run(b, [(100, pins[0], 0), (100 + step, pins[0], 1)], 1000, step_ms=step)
        assert out == [], step
    # nor does a contact shorter than contact_ms, with bounce
    b, pins = _contact_buttons(5)
    script = press_script(pins[0], 100, 4) + press_script(pins[0], 200, 8, bounces=2,
                                                          bounce_ms=2)
    assert run(b, script, 1000, step_ms=1) == []


def test_at_contact_bounces_and_a_held_key_give_one_press():
    b, pins = _contact_buttons(5)
    # bounce on make (opens 3 ms apart, under contact_ms; the last close at 124) and on break;
    # then a long hold (last close at 1012)
    script = press_script(pins[0], 100, 150, bounces=4, bounce_ms=3)
    script += press_script(pins[1], 1000, 2000, bounces=3, bounce_ms=2)
    out = run(b, script, 4000, step_ms=1)
    assert out == [(129, ("press", "A")), (1017, ("press", "B"))]  # no "long" for B


def test_at_contact_release_is_debounced_in_full():
    # Contact held past contact_ms, opened for less than debounce_ms, closed again: the same
    # press (the lockout); a release held debounce_ms frees the key.
    b, pins = _contact_buttons(5)
    script = [(100, pins[0], 0)]
    script += [(120, pins[0], 1), (145, pins[0], 0), (200, pins[0], 1), (225, pins[0], 0)]
    script.append((300, pins[0], 1))
    script += press_script(pins[0], 332, 50)  # 32 ms after the release: a new press
    out = run(b, script, 1000, step_ms=1)
    assert out == [(105, ("press", "A")), (337, ("press", "A"))]
    # a second contact within debounce_ms of the release is the same press too
    b, pins = _contact_buttons(5)
    script = press_script(pins[0], 100, 50) + press_script(pins[0], 175, 50)
    assert run(b, script, 1000, step_ms=1) == [(105, ("press", "A"))]


def test_at_contact_press_then_a_long_pass_is_not_chatter():
    # The press's screen can take a pass longer than chatter_ms: the next sample finds the
    # key released; that is a release, not chatter, and the key works again.
    b, pins = _contact_buttons(5)
    script = press_script(pins[0], 99, 80) + press_script(pins[0], 700, 80)
    out = []
    i = 0
    script.sort(key=lambda e: e[0])
    for t in [100, 105, 400] + list(range(405, 1000, 5)):  # no sample from 105 to 400
        while i < len(script) and script[i][0] <= t:
            script[i][1].set(script[i][2])
            i += 1
        ev = b.poll(t)
        while ev is not None:
            out.append((t, ev))
            ev = b.get()
    assert out == [(105, ("press", "A")), (705, ("press", "A"))]
    assert b.faults() == []


def test_at_contact_stuck_chatter_and_rollover_still_work():
    b, pins = _contact_buttons(5, stuck_ms=5000)
    out = run(b, [(100, pins[0], 0), (9000, pins[0], 1)], 9500)
    assert _events(out) == [("press", "A"), ("stuck", "A")]
    assert out[1][0] == 5100
    # a contact flipping every 7 ms never settles: one early press at most, then chatter, then
    # nothing until quiet
    b, pins = _contact_buttons(5)
    out = run(b, toggle_script(pins[0], 100, 3000, 7), 3500, step_ms=1)
    assert _events(out) == [("press", "A"), ("chatter", "A")]
    assert out[1][0] <= 107 + 200 + 1  # within chatter_ms of the first bounce after the press
    # flipping every 40 ms: caught by the transition count within two chatter windows (each
    # window from its first transition holds 5 of them here), then nothing more
    b, pins = _contact_buttons(5)
    out = run(b, toggle_script(pins[0], 100, 4000, 40), 6000, step_ms=2)
    assert [e for _, e in out][-1] == ("chatter", "A")
    assert _events(out).count(("press", "A")) <= 5
    assert out[-1][0] <= 100 + 2 * 200 + 10
    # keypad: a second key pressed while the first is held gives nothing, at contact too
    k, m = _keypad()
    k.at_contact(m.keymap, 5)
    script = [(100, m.switch("5"), 0), (300, m.switch("9"), 0)]
    script += [(600, m.switch("5"), 1), (700, m.switch("9"), 1)]
    script += press_script(m.switch("9"), 1000, 100)
    assert run(k, script, 1500) == [(105, ("press", "5")), (1005, ("press", "9"))]


def test_at_contact_bad_contact_ms_rejected():
    b, _ = _buttons(debounce_ms=30)
    for bad in (-1, 31):
        try:
            b.at_contact(("A",), bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_wrap_helpers():
    top = 0x3FFFFFFF
    assert wrap_diff(5, top - 4) == 10
    assert wrap_diff(top - 4, 5) == -10
    assert wrap_diff(0x1FFFFFFF, 0) == 0x1FFFFFFF
    assert wrap_diff(0x20000000, 0) == -0x20000000
    assert wrap_add(top, 1) == 0
    assert wrap_add(3, -5) == top - 1
    assert ticks_diff(ticks_add(ticks_add(0, -10), 25), ticks_add(0, -10)) == 25


def test_ticks_wraparound():
    start = ticks_add(0, -400)  # the tick counter wraps 400 ms in
    b, pins = _buttons()
    script = press_script(pins[0], 300, 200, bounces=2)  # press spans the wrap
    script += press_script(pins[1], 1000, 1500)  # long press after it
    out = run(b, script, 3000, start=start, add=ticks_add)
    assert _events(out) == [("press", "A"), ("long", "B")]
    assert 1800 <= out[1][0] <= 1810
    if ticks_add is wrap_add:  # CPython: the fallback's period is 2**30, as on the boards
        assert start == 0x3FFFFFFF - 399


def _lcg(seed):
    return (seed * 1103515245 + 12345) & 0x7FFFFFFF


def steps_random_noise_never_floods():
    # In steps of 100 ms: the random numbers are big ints (garbage) on MicroPython.
    b, pins = _buttons(debounce_ms=20)
    seed = 12345
    counts = [0] * 8  # events per second for key "A"
    t = 0
    while t < 8000:
        seed = _lcg(seed)
        if (seed >> 16) & 7 == 0:
            pins[0].level ^= 1
        ev = b.poll(t)
        while ev is not None:
            if ev[1] == "A":
                counts[t // 1000] += 1
            ev = b.get()
        t += 1
        if t % 100 == 0:
            yield
    assert max(counts) <= 3


def test_random_noise_never_floods():
    for _ in steps_random_noise_never_floods():
        pass


def test_poll_allocates_only_the_events():
    # MicroPython: polling allocates nothing; each event is one (kind, name) tuple (16 bytes).
    import gc

    alloc = getattr(gc, "mem_alloc", None)
    if alloc is None:
        import pytest  # CPython only: MicroPython has gc.mem_alloc

        pytest.skip("CPython has no gc.mem_alloc: the allocation is measured on MicroPython")
    b, pins = _buttons()
    k, m = _keypad()
    sw = m.switch("5")
    got = 0
    gc.collect()
    gc.disable()
    try:
        before = alloc()
        for t in range(0, 12000, 5):
            lvl = 0 if 100 <= t < 300 or 1000 <= t < 2000 or 3000 <= t < 9000 else 1
            pins[0].level = lvl
            sw.set(lvl)
            if b.poll(t) is not None:
                got += 1
            if k.poll(t) is not None:
                got += 1
        used = alloc() - before
    finally:
        gc.enable()
    assert got == 8  # press, long, long+stuck on each of the two
    assert used <= got * 16, used


if __name__ == "__main__":
    for _name in sorted(globals()):
        if _name.startswith("test_"):
            globals()[_name]()
            print("ok", _name)
