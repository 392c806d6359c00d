# Runs every "# mp: yes" test module and every scenario under real MicroPython on a 64 KB heap.
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import mpy

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
# The board's budget: one VM per module, so the heap is per module.  MP_HEAP overrides it.
HEAP = os.environ.get("MP_HEAP", "64K")
# Modules whose code from .mpy files takes a 64 KB heap past its end (a 64 KB board has it
# frozen): the controller with the store and the new-match screen, the views and the wall
# panels with their texts, both languages' texts in turn, three journals open at once with the
# records' times (the journal and firmware/rtc.py from .mpy take 2.9 KB more heap than without
# the times: the smallest heap of test_journal is 65 KB, 62 KB without them). The key masher's
# heap is no budget (its controller, with its table, the four games, the shot clock and the PIN
# loaded from .mpy files, is new every 250 random presses: 112 KB passes, and the whole app's
# heap is test_app_mp's and test_app_frozen's).
HEAPS = {"test_names_mp": "96K", "test_views_mp": "72K", "test_wall_mp": "72K",
         "test_mash_mp": "128K", "test_views_lang_mp": "72K", "test_journal": "72K"}
REPLAY_HEAP = "72K"  # every scenario replayed on a journal (the same 2.9 KB)
MARK = "# mp: yes"


def mp_modules():
    paths = sorted(TESTS.glob("test_*.py"))
    return [p.stem for p in paths if p.read_text(encoding="utf-8").split("\n", 1)[0] == MARK]


def _check(res, report_heap=True):
    report = f"--- stdout ---\n{res.stdout}--- stderr ---\n{res.stderr}"
    failures = [line for line in res.stdout.splitlines() if line.startswith("FAIL")]
    assert not failures, "\n".join(failures) + "\n" + report
    assert res.returncode == 0, report
    assert re.search(r"^mp_runner: [1-9]\d* passed, 0 failed$", res.stdout, re.M), report
    if report_heap:
        assert res.fits, f"ran out of its {res.limit}-byte heap\n{report}"


def test_some_modules_are_marked_for_micropython():
    assert {"test_smoke", "test_scenarios", "test_keyscripts"} <= set(mp_modules())


@pytest.mark.parametrize("module", mp_modules())
def test_module_under_micropython(module):
    """Each module passes under MicroPython, and never needs more than HEAP (64 KB)."""
    heap = HEAP if "MP_HEAP" in os.environ else HEAPS.get(module, HEAP)
    _check(mpy.run_module("tests.mp_runner", [module], heap=heap))


def test_runner_under_cpython():
    cmd = [sys.executable, "-m", "tests.mp_runner", "test_smoke"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    _check(mpy.Result(proc.returncode, proc.stdout, proc.stderr), report_heap=False)


def test_every_scenario_prints_the_same_state_under_both():
    """For every scenario, CPython and MicroPython print identical state JSON."""
    files = sorted(str(p.relative_to(ROOT)) for p in (TESTS / "scenarios").glob("*.jsonl"))
    assert len(files) >= 9
    cp = subprocess.run([sys.executable, "-m", "tests.mp_replay", *files], cwd=ROOT,
                        capture_output=True, text=True)
    assert cp.returncode == 0, cp.stderr
    mp = mpy.run_module("tests.mp_replay", files,
                        heap=HEAP if "MP_HEAP" in os.environ else REPLAY_HEAP)
    assert mp.returncode == 0, mp.stderr
    assert mp.stdout.splitlines() == cp.stdout.splitlines()
    assert mp.fits, mp.stderr


def test_heap_overflow_is_detected():
    """The heap is a hard limit, as on a board: more than it holds is a MemoryError."""
    probe = "b = bytearray(%d)\nprint(len(b))"
    small = mpy.run(probe % (100 * 1024), heap="64K")
    assert small.returncode != 0 and small.memory_error and not small.fits
    ok = mpy.run(probe % (10 * 1024), heap="64K")
    assert ok.fits and ok.stdout.strip() == str(10 * 1024)
    assert mpy.smallest_heap(lambda h: mpy.run(probe % (20 * 1024), heap=h)) in range(
        20 * 1024, 24 * 1024 + 1)


def test_firmware_runs_from_mpy_files():
    """As a board runs it: from the .mpy tree (or frozen into the VM: make test-frozen)."""
    res = mpy.run("import firmware.rules\nprint(firmware.rules.__file__)")
    want = "firmware/rules.py" if mpy.frozen() else "firmware/rules.mpy"
    assert res.returncode == 0 and res.stdout.strip().endswith(want), res


GC_STRESS = """
import gc


def work():
    rows = []
    for i in range(3000):
        rows.append({"k": "v%d" % i, "l": [i, str(i) * 3]})
        if i % 7 == 0:
            rows = rows[-20:]
    print(sum(r["l"][0] for r in rows), "".join(r["k"] for r in rows[-3:]))


work()
"""


def test_gc_under_pressure_matches_cpython(capsys):
    """The VM's collector (inside calls, no gc.collect() asked) keeps live data intact under
    pressure, in a 64 KB and a 16 KB heap."""
    exec(GC_STRESS, {})
    expected = capsys.readouterr().out
    for heap in ("64K", "16K"):
        res = mpy.run(GC_STRESS, heap=heap)
        assert (res.returncode, res.stdout, res.stderr) == (0, expected, ""), heap
        assert res.fits, (heap, res.stderr)


def test_a_5000_event_match_replays_in_64k_as_on_cpython(tmp_path):
    """A 14.1 match of 5,000 events (misses, safeties, fouls, undos) replayed the way
    the board keeps it (read a line at a time, the match in a journal on the VM's filesystem)
    prints CPython's state, at -X heapsize=64K."""
    import json

    from tests.helpers import long_141

    text = "".join(json.dumps(ev) + "\n" for ev in long_141(5000, seed=21, undo_every=29))
    (tmp_path / "long.jsonl").write_text(text)
    cp = subprocess.run([sys.executable, "-m", "tests.mp_replay", str(tmp_path / "long.jsonl")],
                        cwd=ROOT, capture_output=True, text=True)
    assert cp.returncode == 0, cp.stderr
    mp = mpy.run_module("tests.mp_replay", ["long.jsonl"], heap="64K",
                        files={"long.jsonl": text.encode()})
    assert mp.fits, mp.stderr
    assert mp.stdout.splitlines()[1:] == cp.stdout.splitlines()[1:]
    assert '"rack": ' in mp.stdout and text.count('"undo"') > 100


def test_a_10ball_match_replays_in_64k_as_on_cpython(tmp_path):
    """A 10-ball match of 3,000 events (breaks, called balls, T7 choices, push outs, fouls,
    undos) replayed as the board keeps it, and by the rules core with the journal alone
    (host_tools/core_mp.py), at -X heapsize=64K, prints CPython's state."""
    import json

    from tests.helpers import long_10ball

    text = "".join(json.dumps(ev) + "\n" for ev in long_10ball(3000, seed=5, undo_every=31))
    (tmp_path / "long.jsonl").write_text(text)
    cp = subprocess.run([sys.executable, "-m", "tests.mp_replay", str(tmp_path / "long.jsonl")],
                        cwd=ROOT, capture_output=True, text=True)
    assert cp.returncode == 0, cp.stderr
    files = {"long.jsonl": text.encode()}
    mp = mpy.run_module("tests.mp_replay", ["long.jsonl"], heap="64K", files=files)
    assert mp.fits, mp.stderr
    assert mp.stdout.splitlines()[1:] == cp.stdout.splitlines()[1:]
    assert '"game": "10ball"' in mp.stdout and "refused" not in mp.stdout
    core = mpy.run_module("host_tools.core_mp", heap="64K", files=files)
    assert core.fits and core.returncode == 0, core.stderr
    assert core.stdout.split()[1] == "0"  # (no score in 10-ball)


def test_a_key_press_in_play_allocates_at_most_200_bytes():
    """A key press in play allocates at most 200 bytes, the journal on the VM's filesystem
    (host_tools.bench_mp: 480 keys of a 14.1 match, the collector off each press; the figure
    measured is in docs/figures.md)."""
    # (136 KB: the whole app from .mpy, the records' times' 2.9 KB with it, and a journal on
    # littlefs with its file caches; a Pico's heap is about 230 KB)
    res = mpy.run_module("host_tools.bench_mp", heap="136K")
    assert res.returncode == 0, res.stderr
    got = re.search(r"^per key press in play, journal on the VM's filesystem .*: (\d+) bytes "
                    r"allocated", res.stdout, re.M)
    assert got, res.stdout
    assert int(got.group(1)) <= 200, res.stdout


FILL = """
import gc
from firmware import app

keep = []
junk = []
for i in range(300):
    keep.append((i,))  # one block each, kept
    junk.append(bytearray(20))  # three blocks each (its object and its bytes), let go
keep = tuple(keep)
junk = None
gc.collect()
top = max([id(t) for t in keep])
low = id(tuple(range(8)))  # three blocks, after a collection: in a hole among the kept tuples
app.holes()
while app.fill():
    pass
high = id(tuple(range(8)))
print(low < top, high > top)
"""


def test_after_a_collection_the_holes_among_live_data_are_filled():
    """A key's objects come from the free heap above the live data, not from the holes a
    collection leaves among it (the allocator's search through them made a key's screen a
    median 11 ms slower on the virtual Pico)."""
    res = mpy.run(FILL, heap="160K")
    assert res.returncode == 0, res.stderr
    assert res.stdout.split()[:2] == ["True", "True"], res.stdout
    small = mpy.run(FILL, heap="112K")  # under _SPARE free: the holes are kept for the next key
    assert small.returncode == 0, small.stderr
    assert small.stdout.split()[:2] == ["True", "False"], small.stdout
