# Replays scenario files and prints each final state (run the same under CPython and MicroPython).
# Usage: python -m host_tools.mpy -m tests.mp_replay tests/scenarios/a.jsonl ...
#    or: python -m tests.mp_replay tests/scenarios/a.jsonl ...
import json
import sys

from firmware import events, rules, stjson
from firmware.match import Match


def replay(path):
    """The lines this prints for one file: refusals, then the state or the malformed line."""
    out = ["== " + path]
    m = Match()
    with open(path) as f:
        text = f.read()
    for no, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            m.apply(json.loads(line))
        except rules.Refused as e:
            out.append("line %d: refused (%s): %s" % (no, e.rule, e))
        except (ValueError, events.BadEvent) as e:
            out.append("line %d: malformed: %s" % (no, type(e).__name__))
            return out
    out.append(stjson.dumps(m.state()))
    return out


def steps(paths):
    # One file a step (under host_tools/mp_node.mjs the VM collects garbage between steps).
    for p in paths:
        for line in replay(p):
            print(line)
        yield


def _argv():
    if getattr(sys, "argv", None):
        return sys.argv[1:]
    import mp_argv  # pyright: ignore[reportMissingImports]  (written by mp_node.mjs)
    return mp_argv.ARGV[1:]


_mp_steps = steps(_argv())
if not globals().get("_mp_stepper"):
    for _ in _mp_steps:
        pass
