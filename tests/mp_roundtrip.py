# Events -> keys -> events on the board-like VM: tests/roundtrip.py's streams for each game and
# input, run by tests/test_roundtrip.py. Prints "roundtrip GAME INPUT: S streams, E events" per
# game and input, then "roundtrip: ok".
# Usage: python -m host_tools.mpy -m tests.mp_roundtrip STREAMS ACTIONS
import gc
import sys

for _p in ("tests", ""):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from roundtrip import INPUTS, run  # noqa: E402


def _argv():
    try:
        import mp_argv  # pyright: ignore[reportMissingImports]  (written by host_tools/mpy.py)
    except ImportError:
        return sys.argv[1:]
    return mp_argv.ARGV[1:]


def main():
    a = _argv()
    streams, actions = int(a[0]), int(a[1])
    seed = 3
    for game in ("14.1", "8ball", "9ball", "10ball"):
        for inp in INPUTS:
            seed += 1
            r = run(game, inp, streams, actions, seed)
            gc.collect()
            print("roundtrip %s %s: %d streams, %d events" % (game, inp, r["streams"],
                                                              r["events"]))
    print("roundtrip: ok")


main()
