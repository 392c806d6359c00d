# python -m host_tools.replay FILE.jsonl: print the state after the last event (docs/contracts.md).
import json
import sys

from firmware import events, rules, stjson
from firmware.match import Match


class Malformed(ValueError):
    """A line that is not JSON or not an event of the contract: the reading stops there."""

    def __init__(self, line, why):
        ValueError.__init__(self, "line %d: %s" % (line, why))
        self.line = line
        self.why = why


def steps(m, lines):
    """Apply each non-empty line (one JSON event) to the Match m, in order. Yields (line number,
    event, the Refused it raised or None) for each; raises Malformed at the first line that is
    not an event. host_tools.journal_read reads event files with it too."""
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except ValueError as e:
            raise Malformed(no, "not JSON: %s" % e) from None
        try:
            m.apply(ev)
        except events.BadEvent as e:
            raise Malformed(no, "not an event of the contract: %s" % e) from None
        except rules.Refused as e:
            yield no, ev, e
            continue
        yield no, ev, None


def replay(lines, err):
    """Apply each line; report refusals on err. Returns (match, bad) where bad is
    (line number, message) for the first malformed line, or None."""
    m = Match()
    try:
        for no, _, refused in steps(m, lines):
            if refused is not None:
                err.write("line %d: refused (%s): %s\n" % (no, refused.rule, refused))
    except Malformed as e:
        return m, (e.line, e.why)
    return m, None


def main(argv):
    from host_tools import cli

    ap = cli.parser("host_tools.replay", "Replay an event file through the rules core and print "
                    "the state after its last event (the state contract, docs/contracts.md).")
    ap.add_argument("file", metavar="FILE.jsonl", help="the events, one JSON object a line")
    path = ap.parse_args(argv).file
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        sys.stderr.write("can't read %s: %s\n" % (path, e))
        return 2
    m, bad = replay(lines, sys.stderr)
    if bad:
        sys.stderr.write("line %d: malformed event, %s\n" % bad)
        return 2
    print(stjson.dumps(m.state()))
    return 0


if __name__ == "__main__":
    from host_tools import cli

    cli.run(main, sys.argv[1:])
