# The end of every run names the budget tests (marked `budget`) that were skipped: a budget not
# checked on this machine is said, not passed over.
import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "budget: guards a heap, size or time budget")


# The tests that guard a budget of README's figures (the whole app's heap, the .mpy total, the
# per-key allocation, flash wear, a press's screen on the virtual Pico).
BUDGET = ("test_app_frozen.py::", "test_app_mp.py::", "test_mpy_cross.py::",
          "test_micropython.py::test_a_key_press", "test_micropython.py::test_a_5000_event",
          "test_journal_nor.py::test_wear_", "test_deploy.py::test_a_match_keyed")


def pytest_collection_modifyitems(items):
    for item in items:
        if any(b in item.nodeid for b in BUDGET):
            item.add_marker(pytest.mark.budget)


def pytest_terminal_summary(terminalreporter):
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if "budget" in getattr(r, "keywords", {})]
    if skipped:
        terminalreporter.write_line("budget tests that did not run: " + ", ".join(
            r.nodeid for r in skipped), red=True)
    else:
        terminalreporter.write_line("budget tests: all ran")
