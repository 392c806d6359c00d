# Runs every "# mp: yes" test module under real MicroPython (wasm) with a 64 KB GC heap.
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import mpy

TESTS = Path(__file__).resolve().parent
# The board's budget: one VM per module, so the heap is per module.  MP_HEAP overrides it
# (see tests/README.md: this wasm build's GC is unsound, so runs that collect may trap).
HEAP = os.environ.get("MP_HEAP", "64K")
MARK = "# mp: yes"


def mp_modules():
    paths = sorted(TESTS.glob("test_*.py"))
    return [p.stem for p in paths if p.read_text(encoding="utf-8").split("\n", 1)[0] == MARK]


def _check(res, module):
    report = f"--- stdout ---\n{res.stdout}--- stderr ---\n{res.stderr}"
    failures = [line for line in res.stdout.splitlines() if line.startswith("FAIL")]
    assert not failures, "\n".join(failures) + "\n" + report
    assert res.returncode == 0, report
    assert re.search(r"^mp_runner: [1-9]\d* passed, 0 failed$", res.stdout, re.M), report


def test_some_modules_are_marked_for_micropython():
    assert "test_smoke" in mp_modules()


@pytest.mark.parametrize("module", mp_modules())
def test_module_under_micropython(module):
    _check(mpy.run_module("tests.mp_runner", [module], heap=HEAP), module)


def test_runner_under_cpython():
    cmd = [sys.executable, "-m", "tests.mp_runner", "test_smoke"]
    proc = subprocess.run(cmd, cwd=TESTS.parent, capture_output=True, text=True)
    _check(mpy.Result(proc.returncode, proc.stdout, proc.stderr), "test_smoke")


def test_heap_limit_is_enforced():
    probe = "import gc\nprint(gc.mem_free() + gc.mem_alloc())\nb = bytearray(100 * 1024)"
    small = mpy.run_argv(["-c", probe], heap="64K")
    assert small.returncode == 1 and "MemoryError" in small.stderr, small
    assert 0 < int(small.stdout.split()[0]) <= 64 * 1024
    big = mpy.run_argv(["-c", probe], heap="256K")
    assert big.returncode == 0, big


def test_guest_reads_repo_files_read_only():
    code = (
        "print(open('tests/mp_runner.py').readline().strip())\n"
        "print(open('/tests/mp_runner.py').readline().strip())\n"
        "open('tests/new_file', 'w')"
    )
    res = mpy.run_argv(["-c", code])
    first = (TESTS / "mp_runner.py").read_text(encoding="utf-8").split("\n", 1)[0]
    assert res.stdout.splitlines() == [first, first], res
    assert res.returncode == 1 and "OSError" in res.stderr, res
    assert not (TESTS / "new_file").exists()


def test_firmware_runs_from_mpy_files():
    res = mpy.run_argv(["-c", "import firmware\nprint(firmware.__file__)"], mpy_firmware=True)
    assert res == (0, "firmware/__init__.mpy\n", ""), res


GC_STRESS = """
import gc
rows = []
for i in range(300):
    rows.append({"k": "v%d" % i, "l": [i, str(i) * 3]})
    if i % 7 == 0:
        rows = rows[-20:]
        gc.collect()
print(sum(r["l"][0] for r in rows), "".join(r["k"] for r in rows[-3:]))
"""


def test_gc_under_pressure_matches_cpython(capsys):
    exec(GC_STRESS, {})
    expected = capsys.readouterr().out
    for heap in ("64K", "16K"):
        assert mpy.run(GC_STRESS, heap=heap) == (0, expected, ""), heap
