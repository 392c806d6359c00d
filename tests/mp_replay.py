# Replays event files and prints each final state (run the same under CPython and MicroPython),
# the way the board keeps a match: the file read a line at a time, the match in a journal on the
# filesystem (firmware/journal.py), so a match of any length fits a small heap.
# Usage: python -m host_tools.mpy -m tests.mp_replay tests/scenarios/a.jsonl ...
#    or: python -m tests.mp_replay tests/scenarios/a.jsonl ...
import json
import sys

from firmware import events, rules, stjson
from firmware.journal import Journal
from firmware.match import Match


def replay(path, n):
    """Print the lines for one file: refusals, then the state or the malformed line."""
    print("== " + path)
    m = Match(Journal(_folder(n)))
    no = 0
    with open(path) as f:
        for line in f:
            no += 1
            if not line.strip():
                continue
            try:
                m.apply(json.loads(line))
            except rules.Refused as e:
                print("line %d: refused (%s): %s" % (no, e.rule, e))
            except (ValueError, events.BadEvent) as e:
                print("line %d: malformed: %s" % (no, type(e).__name__))
                m.log.close()
                return
    m.log.close()
    print(stjson.dumps(m.state()))


def _folder(n):
    # A new folder for the journal: a temporary one on CPython, one in the VM's run directory.
    try:
        import tempfile
    except ImportError:
        from firmware.store import remove_tree

        remove_tree("replay%d" % n)
        return "replay%d" % n
    return tempfile.mkdtemp(prefix="replay-") + "/m"


def main(paths):
    for n, p in enumerate(paths):
        replay(p, n)


def _argv():
    try:
        import mp_argv  # pyright: ignore[reportMissingImports]  (written by host_tools/mpy.py)
    except ImportError:
        return sys.argv[1:]
    return mp_argv.ARGV[1:]


if __name__ == "__main__":
    main(_argv())
