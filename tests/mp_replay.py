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


def main(paths):
    for p in paths:
        for line in replay(p):
            print(line)


def _argv():
    try:
        import mp_argv  # pyright: ignore[reportMissingImports]  (written by host_tools/mpy.py)
    except ImportError:
        return sys.argv[1:]
    return mp_argv.ARGV[1:]


if __name__ == "__main__":
    main(_argv())
