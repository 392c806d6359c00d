# python -m host_tools.replay FILE.jsonl: print the state after the last event (DESIGN.md).
import json
import sys

from firmware import events, rules, stjson
from firmware.match import Match


def replay(lines, err):
    """Apply each line; report refusals on err. Returns (match, bad) where bad is
    (line number, message) for the first malformed line, or None."""
    m = Match()
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except ValueError as e:
            return m, (no, "not JSON: " + str(e))
        try:
            m.apply(ev)
        except events.BadEvent as e:
            return m, (no, str(e))
        except rules.Refused as e:
            err.write("line %d: refused (%s): %s\n" % (no, e.rule, e))
    return m, None


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: python -m host_tools.replay FILE.jsonl\n")
        return 2
    try:
        with open(argv[0], encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        sys.stderr.write("can't read %s: %s\n" % (argv[0], e))
        return 2
    m, bad = replay(lines, sys.stderr)
    if bad:
        sys.stderr.write("line %d: malformed event: %s\n" % bad)
        return 2
    print(stjson.dumps(m.state()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
