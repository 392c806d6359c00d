# Property tests (CPython, hypothesis) for the input layer: any pin activity, bounded events.
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.keys import Buttons, Keypad, ticks_add
from host_tools.fakekeys import FakeMatrix, press_script, run
from host_tools.fakepins import FakePin

# Bound per key per 1000 ms: debounced transitions need a 30 ms stable level and at most 5 fit in
# one 200 ms chatter window (the 6th is chatter), so at most 15 releases ("press") in a second,
# plus one fault event; "long" and "stuck" need the key held for most of that second.
MAX_PER_SECOND = 16

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# A pin's life: (how long, level) segments; short ones model bounce and chatter.
segments = st.lists(
    st.tuples(st.one_of(st.integers(1, 12), st.integers(13, 120), st.integers(121, 1500)),
              st.integers(0, 1)),
    max_size=120,
)


def _script(pin, segs):
    out = []
    t = 0
    for dur, level in segs:
        out.append((t, pin, level))
        t += dur
    out.append((t, pin, 1))
    return out, t


def _scripts(lives):
    # Each (pin, segments) pair's script, merged: (the script, when the last one ends).
    script = []
    end = 0
    for pin, segs in lives:
        s, t = _script(pin, segs)
        script += s
        end = max(end, t)
    return script, end


def _worst_second(times):
    worst = 0
    for i in range(len(times)):
        n = 0
        for u in times[i:]:
            if u - times[i] >= 1000:
                break
            n += 1
        worst = max(worst, n)
    return worst


def _check(out, names):
    for name in names:
        times = [t for t, e in out if e[1] == name]
        assert _worst_second(times) <= MAX_PER_SECOND, (name, times)
    for _, e in out:
        assert e[0] in ("press", "long", "stuck", "chatter")
        assert e[1] in names


@SETTINGS
@given(
    st.lists(segments, min_size=4, max_size=4),
    st.sampled_from([1, 2, 5, 10]),
    st.integers(20, 50),
    st.integers(0, 0x3FFFFFFF),
)
def test_buttons_any_levels_bounded_events(lives, step, debounce, start):
    pins = [FakePin(1) for _ in range(4)]
    names = ["A", "B", "C", "D"]
    b = Buttons(pins, names, debounce_ms=debounce)
    script, end = _scripts(zip(pins, lives))
    out = run(b, script, end + 2000, step_ms=step, start=start, add=ticks_add)
    _check(out, names)
    assert b.dropped == 0


@SETTINGS
@given(
    st.lists(st.tuples(st.integers(0, 15), segments), min_size=1, max_size=5),
    st.sampled_from([1, 3, 7]),
)
def test_keypad_any_levels_bounded_events(lives, step):
    m = FakeMatrix()
    k = Keypad(m.rows, m.cols)
    script, end = _scripts((m.switch(m.keymap[idx]), segs) for idx, segs in lives)
    out = run(k, script, end + 2000, step_ms=step)
    _check(out, list(m.keymap))
    assert m.multi_low == 0


# Human presses: hold times and gaps a person makes, with contact bounce under 8 ms.
presses = st.lists(
    st.tuples(
        # hold: clear of the long and stuck thresholds by more than a poll and a bounce
        st.one_of(st.integers(70, 780), st.integers(830, 4980), st.integers(5030, 7000)),
        st.integers(120, 2000),  # gap
        st.integers(0, 3),  # bounces on make and on break
    ),
    min_size=1, max_size=12,
)


@SETTINGS
@given(presses, st.sampled_from([1, 2, 5]), st.integers(0, 0x3FFFFFFF))
def test_human_presses_give_exactly_the_expected_events(plan, step, start):
    pin = FakePin(1)
    b = Buttons([pin], ["K"], debounce_ms=30, long_ms=800, stuck_ms=5000)
    script = []
    expected = []
    t = 100
    for hold, gap, bounces in plan:
        script += press_script(pin, t, hold, bounces=bounces, bounce_ms=2)
        if hold < 800:
            expected.append(("press", "K"))
        else:
            expected.append(("long", "K"))
            if hold >= 5000:
                expected.append(("stuck", "K"))
        t += hold + 4 * bounces + gap
    out = run(b, script, t + 500, step_ms=step, start=start, add=ticks_add)
    assert [e for _, e in out] == expected


def test_periodic_chatter_sweep_bounded():
    # A contact flipping with a fixed rhythm is the worst case found: sweep the rhythms.
    worst = 0
    for debounce in (20, 30):
        for lo in range(20, 130, 7):
            for hi in range(20, 130, 7):
                pin = FakePin(1)
                b = Buttons([pin], ["A"], debounce_ms=debounce)
                script = []
                t = 0
                while t < 3000:
                    script.append((t, pin, 0))
                    script.append((t + lo, pin, 1))
                    t += lo + hi
                times = [u for u, _ in run(b, script, 3000, step_ms=1)]
                worst = max(worst, _worst_second(times))
    assert worst <= MAX_PER_SECOND


@SETTINGS
@given(st.lists(segments, min_size=2, max_size=2), st.sampled_from([1, 2, 5, 10]),
       st.integers(2, 10), st.integers(0, 0x3FFFFFFF))
def test_at_contact_keys_any_levels_bounded_events(lives, step, contact, start):
    # Keys that act on their contact (after contact_ms) stay within the same bound.
    pins = [FakePin(1) for _ in range(2)]
    names = ["A", "B"]
    b = Buttons(pins, names, debounce_ms=30)
    b.at_contact(names, contact)
    script, end = _scripts(zip(pins, lives))
    out = run(b, script, end + 2000, step_ms=step, start=start, add=ticks_add)
    _check(out, names)
    assert all(e[0] in ("press", "stuck", "chatter") for _, e in out)  # never "long"


@SETTINGS
@given(presses, st.sampled_from([1, 2, 5]), st.integers(0, 0x3FFFFFFF))
def test_human_presses_at_contact_give_one_press_each(plan, step, start):
    # Contact bounce under contact_ms (bounces 2 ms apart, contact_ms 5): one press a press, no
    # sooner than contact_ms after the first contact, and within contact_ms and two polls of the
    # last bounce (polls can miss bounces); "stuck" past stuck_ms.
    pin = FakePin(1)
    b = Buttons([pin], ["K"], debounce_ms=30, long_ms=800, stuck_ms=5000)
    b.at_contact(["K"], 5)
    script = []
    expected = []
    made = []
    t = 100
    for hold, gap, bounces in plan:
        script += press_script(pin, t, hold, bounces=bounces, bounce_ms=2)
        expected.append(("press", "K"))
        made.append((t, t + 4 * bounces))
        if hold >= 5000:
            expected.append(("stuck", "K"))
        t += hold + 4 * bounces + gap
    out = run(b, script, t + 500, step_ms=step, start=start, add=ticks_add)
    assert [e for _, e in out] == expected
    got = [u for u, e in out if e[0] == "press"]
    for u, (first, last) in zip(got, made):
        assert first + 5 <= u <= last + 5 + 2 * step
