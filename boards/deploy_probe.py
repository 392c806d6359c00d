# Run on the board by host_tools/deploy.py (`mpremote run`), never copied to it: prints one line
# "DEPLOY-PROBE {json}" saying what the board is (implementation, .mpy format, machine, free
# flash, the deploy manifest /deploy.json and the size of each file it lists (-1: missing), the
# hold flag, and "tree": every file (with its size) and folder (size -1) at / and under
# /firmware, /boards and /lib, the project's folders, where a deploy removes what it does not
# install).
# If a watchdog is running (an rp2 whose app was stopped by the deploy's Ctrl-C; a main.py from
# before the /deploy.flag hold), a timer feeds it while the deploy talks to the REPL.
import json
import os
import sys

_impl = sys.implementation
_info = {"impl": _impl.name, "mpy": getattr(_impl, "_mpy", 0),
         "machine": getattr(_impl, "_machine", sys.platform), "platform": sys.platform,
         "version": list(_impl.version[:3])}
try:
    _s = os.statvfs("/")
    _info["bsize"] = _s[0]
    _info["bfree"] = _s[3]
    _info["blocks"] = _s[2]
except (AttributeError, OSError):
    pass
try:
    with open("/deploy.json") as _f:
        _info["manifest"] = json.loads(_f.read())
except (OSError, ValueError):
    _info["manifest"] = None
_tree = {}


def _walk(p, deep):
    # os.ilistdir gives each entry's type and size without a stat of its own.
    try:
        entries = list(os.ilistdir(p))
    except OSError:
        return
    for e in entries:
        q = p.rstrip("/") + "/" + e[0]
        if e[1] != 0x4000:
            _tree[q[1:]] = e[3] if len(e) > 3 else os.stat(q)[6]
        elif deep or e[0] in ("firmware", "boards", "lib"):
            _tree[q[1:]] = -1
            _walk(q, True)


_walk("/", False)
_info["tree"] = _tree
_sizes = {}
if isinstance(_info["manifest"], dict):
    for _p in _info["manifest"].get("files", {}):
        _sizes[_p] = _tree.get(_p, -1)
_info["sizes"] = _sizes
try:
    os.stat("/deploy.flag")
    _info["held"] = True
except OSError:
    _info["held"] = False
_info["wdt"] = False
if sys.platform == "rp2":
    import machine

    if machine.mem32[0x40058000] & (1 << 30):  # WATCHDOG CTRL.ENABLE
        _wdt = machine.WDT(timeout=8000)
        _feeder = machine.Timer(period=1000, callback=lambda t: _wdt.feed())
        _info["wdt"] = True
print("DEPLOY-PROBE " + json.dumps(_info))
