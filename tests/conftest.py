# The suite's markers, its order for pytest-xdist, and the end of every run naming the budget
# tests (marked `budget`) that were skipped: a budget not checked on this machine is said, not
# passed over.
#
# Markers, set here by test file so that a file needs no header for them:
#   vpico  runs the real rp2 firmware on the virtual Pico (node + rp2040js): slow
#   mp     runs code on the board-like MicroPython VM (../shared/micropython)
#   slow   takes more than a few seconds on its own on CPython
#   smoke  the one board-like VM run of `make check`
#   budget guards a heap, size or time budget of docs/figures.md
# `make check` runs `-m "not (vpico or mp or slow) or smoke"`; `make test` runs them all.
import gc
import os
import sys
from pathlib import Path

import pytest

# The firmware lets go of modules it uses for a while (firmware.unload: one game's rules, one
# language's texts, the journal's repair code) and imports them again when needed. Without
# bytecode files (PYTHONDONTWRITEBYTECODE) each such import compiles the source anew: most of
# the time of a test that recovers a journal a thousand times. The run keeps its bytecode in
# build/pycache, out of the source tree, and so do the Python processes its tests start.
PYCACHE = str(Path(__file__).resolve().parent.parent / "build" / "pycache")
sys.dont_write_bytecode = False
sys.pycache_prefix = PYCACHE
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ["PYTHONPYCACHEPREFIX"] = PYCACHE

MARKERS = {
    "vpico": "runs the real rp2 firmware on the virtual Pico (node + rp2040js)",
    "mp": "runs code on the board-like MicroPython VM",
    "slow": "takes more than a few seconds on its own on CPython",
    "smoke": "the one board-like VM run of `make check`",
    "budget": "guards a heap, size or time budget",
}


def pytest_configure(config):
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", "%s: %s" % (name, text))


# The tests that guard a budget of docs/figures.md (the whole app's heap, the .mpy total, the
# per-key allocation, flash wear, a press's screen on the virtual Pico).
BUDGET = ("test_app_frozen.py::", "test_app_mp.py::", "test_mpy_cross.py::",
          "test_micropython.py::test_a_key_press", "test_micropython.py::test_a_5000_event",
          "test_journal_nor.py::test_wear_", "test_deploy.py::test_a_match_keyed")

# Test files that run the virtual Pico (the marker vpico; first in the order, FIRST, below).
VPICO = ("test_deploy.py", "test_deploy_errors.py", "test_vpico.py", "test_vpico_devices.py",
         "test_vpico_start.py")
# Tests that run the board-like VM (a prefix of their node id after tests/).
MP = ("test_micropython.py::", "test_app_mp.py::", "test_app_frozen.py::",
      "test_roundtrip.py::test_streams_round_trip_on_the_board_like_vm", "test_net_mp.py::",
      "test_net_faults_mp.py::")
SMOKE = "test_micropython.py::test_module_under_micropython[test_smoke]"
# Slow on CPython alone (seconds each, `--durations`): the exhaustive cuts and damages, the
# whole app in a loop, the property and mash streams, the simulator's subprocesses, the room
# view's tests with a real Mosquitto or Chromium.
SLOW = ("test_journal_torn.py::test_power_cut_at_every_byte", "test_journal_nor.py::test_power_cut",
        "test_journal_damage.py::test_every_file", "test_journal_damage_mp.py::test_a_sample",
        "test_scoresheet.py::test_a_journal_cut_short", "test_wall.py::test_the_wall_follows",
        "test_boot.py::", "test_at_repl.py::", "test_keys_fuzz.py::", "test_properties.py::",
        "test_mash.py::", "test_roundtrip.py::", "test_screens.py::test_the_simulators",
        "test_net_mp.py::", "test_net_faults_mp.py::", "test_journal_hold.py::test_power_cut",
        "test_archive.py::test_power_cut", "test_club_tls.py::", "test_club_browser.py::",
        "test_club_mqtt.py::")
# Under pytest-xdist each test file runs whole in one worker, so that its module fixtures (one
# virtual Pico, one frozen VM build, one recorded match) serve all its tests, but for these files
# of long independent tests, which the two workers share test by test (_Scopes, below).
SPREAD = ("test_journal_torn.py", "test_properties.py", "test_views_essentials.py",
          "test_mash.py", "test_roundtrip.py", "test_micropython.py", "test_journal_damage.py",
          "test_keys_fuzz.py", "test_scenarios.py", "test_vpico_devices.py", "test_deploy.py")
# Files that keep one worker busy longest go first, so that the other worker takes the many
# short tests meanwhile (xdist's own reorder, by test count, is off: --no-loadscope-reorder).
FIRST = VPICO + ("test_app_frozen.py", "test_properties.py", "test_journal_torn.py",
                 "test_app_mp.py", "test_micropython.py")


def _rel(item):
    nodeid = item.nodeid
    return nodeid[len("tests/"):] if nodeid.startswith("tests/") else nodeid


def _file(item):
    return _rel(item).split("::", 1)[0]


def _rank(item):
    f = _file(item)
    return FIRST.index(f) if f in FIRST else len(FIRST)


@pytest.hookimpl(optionalhook=True)  # (a hook of xdist's: none without it, -p no:xdist)
def pytest_xdist_make_scheduler(config, log):
    # xdist's scheduling by scope (--no-loadscope-reorder: in the order below), a scope a file
    # but a scope a test in the SPREAD files.
    from xdist.scheduler import LoadScopeScheduling

    class _Scopes(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            f = nodeid.split("::", 1)[0]
            return nodeid if f.rsplit("/", 1)[-1] in SPREAD else f

    return _Scopes(config, log)


def pytest_collection_modifyitems(items):
    for item in items:
        rel, f = _rel(item), _file(item)
        if any(b in rel for b in BUDGET):
            item.add_marker(pytest.mark.budget)
        if f in VPICO:
            item.add_marker(pytest.mark.vpico)
        if rel.startswith(MP):
            item.add_marker(pytest.mark.mp)
        if rel.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
        if rel == SMOKE:
            item.add_marker(pytest.mark.smoke)
    items.sort(key=_rank)  # stable: each file keeps its own order


# The firmware collects the heap after each screen it sends (firmware/app.py collect(), for a
# board's small heap). On CPython a full collection walks every object the process holds: in a
# test run, every module, test item and fixture of the run (0.2 s a screen, most of an app
# test's time). What earlier test modules left is collected once and frozen (gc.freeze: out of
# the collector's sight), so that a collection walks the objects of the test module running.
_frozen_for = [None]


def pytest_runtest_setup(item):
    if item.module is not _frozen_for[0]:
        _frozen_for[0] = item.module
        gc.unfreeze()
        gc.collect()
        gc.freeze()


@pytest.fixture(scope="session")
def board_build(tmp_path_factory):
    """The board's files as `make deploy` builds them (host_tools.deploy.build: mpy-cross on
    every module), once a run; a test that changes a file changes a copy."""
    from host_tools import deploy

    return deploy.build(tmp_path_factory.mktemp("build") / "board")


def pytest_terminal_summary(terminalreporter):
    # Under xdist the controller gets each worker's reports with their keywords (the markers);
    # the tests `-m` deselected are not reported to it, so a run with -m says so.
    stats = terminalreporter.stats
    skipped = [r for r in stats.get("skipped", []) if "budget" in getattr(r, "keywords", {})]
    ran = [r for r in stats.get("passed", []) + stats.get("failed", [])
           if r.when == "call" and "budget" in getattr(r, "keywords", {})]
    markexpr = terminalreporter.config.getoption("markexpr", "")
    if skipped:
        terminalreporter.write_line("budget tests that did not run: " + ", ".join(
            r.nodeid for r in skipped), red=True)
    elif markexpr:
        terminalreporter.write_line("budget tests: %d ran, the others not selected by -m %r "
                                    "(make test runs them all)" % (len(ran), markexpr))
    else:
        terminalreporter.write_line("budget tests: all ran (%d)" % len(ran))
