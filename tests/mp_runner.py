# Minimal test runner for MicroPython (and CPython): runs the no-argument test_* functions.
# Usage, from the repository root:  python -m host_tools.mpy -m tests.mp_runner test_smoke ...
#                              or:  python -m tests.mp_runner test_smoke [test_other ...]
# Prints "PASS module.test" / "FAIL module.test: Error: message" (plus a traceback) per test,
# then "mp_runner: N passed, N failed"; exits 1 if anything failed or nothing ran.
# A module may offer `steps_NAME()`, a generator that does the work of `test_NAME` in steps,
# which the runner then drains instead.
import sys


def _argv():
    try:
        import mp_argv  # pyright: ignore[reportMissingImports]  (written by host_tools/mpy.py)
    except ImportError:
        return sys.argv[1:]
    return mp_argv.ARGV[1:]


def _add_paths():
    # Test modules import firmware.* (repo root) and plain helpers (tests/), as under pytest.
    for path in ("tests", ""):
        if path not in sys.path:
            sys.path.insert(0, path)


def _print_traceback(exc):
    print_exception = getattr(sys, "print_exception", None)  # MicroPython
    if print_exception is not None:
        print_exception(exc, sys.stdout)
    else:
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stdout)


def _takes_no_args(fn):
    code = getattr(fn, "__code__", None)  # CPython; MicroPython tests take no args
    return getattr(code, "co_argcount", 0) == 0


def steps(names, counts):
    """Run the tests, yielding between them (and between the steps of a steps_ test)."""
    _add_paths()
    func = type(_add_paths)
    for name in names:
        try:
            module = __import__(name)
        except Exception as exc:
            counts[1] += 1
            print("FAIL %s: import failed: %s: %s" % (name, type(exc).__name__, exc))
            _print_traceback(exc)
            continue
        yield
        for attr in sorted(dir(module)):
            fn = getattr(module, attr)
            if not attr.startswith("test_") or type(fn) is not func or not _takes_no_args(fn):
                continue
            stepped = getattr(module, "steps_" + attr[5:], None)
            label = name + "." + attr
            try:
                if stepped is None:
                    fn()
                else:
                    for _ in stepped():
                        yield
            except Exception as exc:
                counts[1] += 1
                print("FAIL %s: %s: %s" % (label, type(exc).__name__, exc))
                _print_traceback(exc)
            else:
                counts[0] += 1
                print("PASS " + label)
            yield


def summary(counts):
    print("mp_runner: %d passed, %d failed" % (counts[0], counts[1]))
    return 1 if counts[1] or not counts[0] else 0


def main(names):
    counts = [0, 0]
    for _ in steps(names, counts):
        pass
    return summary(counts)


if __name__ == "__main__":
    sys.exit(main([a[:-3] if a.endswith(".py") else a for a in _argv()]))
