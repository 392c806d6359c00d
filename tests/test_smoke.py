# mp: yes
# Smoke test: the firmware package imports the same way on CPython and MicroPython.
import sys

import firmware


def test_firmware_package_imports():
    assert firmware.__name__ == "firmware"


def test_runs_on_a_known_implementation():
    assert sys.implementation.name in ("cpython", "micropython")
