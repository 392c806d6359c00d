# Pool scoreboard firmware: rules core, input, views and drivers (MicroPython + CPython).
import sys


def unload(name):
    # Let go of firmware.<name> (loaded only for a while: one game's rules, one language's texts)
    # so that its code can be collected; the next import loads it again.
    sys.modules.pop("firmware." + name, None)
    g = globals()
    if name in g:
        del g[name]
