# Match records off the board: a journal folder, a store's archive or an event file -> events.
"""Read match records as the board keeps them (firmware/journal.py, firmware/store.py) on the PC.

    python -m host_tools.journal_read DIR          list the matches in a store folder (DIR holding
                                                   match/ and hist/, or a hist/ folder), or print
                                                   the events of one journal / event file
    python -m host_tools.journal_read DIR --events print the effective events of every match in DIR

A journal folder (match/ or hist/<n>/) holds records "SEQ DEPTHKIND[TIME]PAYLOAD CRC" (layouts
1-3: "SEQ DEPTH KIND PAYLOAD CRC", no time; TIME: docs/contracts.md), four to a file
e<n>/<m>, twelve files a folder (sixteen in layout 1; its file "fmt" names the layout, see
firmware.journal.layout) and a full one packed into p<n>; KIND "e" is an accepted event, "u" an
undo (it takes back the last accepted event), "g" and "v" the same with more of their action to
follow: an action whose records stop before its last one (a power cut) is left out, as the board
leaves it out. The records are read with firmware.journal's
own parse() and CRC check, in order from seq 0, and replayed into the list of effective events.
Reading stops at the first record that is torn (the power went while it was written), corrupted
(its CRC does not match), out of order or missing (a file is gone); what was read before it is
kept and the stop names the file, the record's seq and the reason. A folder whose first record
checks out but is not laid out as format 1 (this module's FORMAT) is from an unknown version:
UnknownFormat, nothing is guessed.

Event files (one JSON event a line, as tests/scenarios/*.jsonl) are read like host_tools.replay:
refused events are skipped (and listed), undo takes back the last accepted event, and a line that
is not an event stops the reading there.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field

from firmware import events as fevents
from firmware import journal as fj
from firmware import rtc, rules
from firmware.match import Match
from host_tools import replay

FORMAT = 1  # the record format read here: firmware/journal.py's records (kinds e, u, g, v; in
# layout 4 each kind may carry its record's time, which older records lack: read as unknown)
_R = 4  # records a file (firmware.journal's _R: a const there, not a name it keeps)


class UnknownFormat(ValueError):
    """The folder is not a journal of FORMAT (a newer firmware, or something else)."""


class NotARecord(ValueError):
    """The path is neither a journal folder, a store folder nor an event file."""


@dataclass
class Stop:
    """Where reading stopped early, and why. file is relative to the journal folder (or the event
    file's name); seq the record that could not be used (journals) or line its line number."""

    file: str
    reason: str
    seq: int | None = None
    line: int | None = None

    def text(self):
        where = self.file
        if self.seq is not None:
            where += ", record %d" % self.seq
        if self.line is not None:
            where += ", line %d" % self.line
        return "stops at %s: %s" % (where, self.reason)

    def as_dict(self):
        return {"file": self.file, "seq": self.seq, "line": self.line, "reason": self.reason,
                "text": self.text()}


@dataclass
class Read:
    """One match as read: its effective events (undos applied, refusals left out)."""

    path: str
    kind: str  # "journal" or "events"
    name: str  # a file name for its sheets
    events: list = field(default_factory=list)
    records: int = 0  # journal records (or event lines) read
    undos: int = 0
    refused: list = field(default_factory=list)  # (line, rule, message) of refused lines
    notes: list = field(default_factory=list)  # what else a reader should know
    stop: Stop | None = None
    times: list = field(default_factory=list)  # each event's time (seconds since 1970 UTC) or None
    started: int | None = None  # the time of the match's first record (the new event)
    last: int | None = None  # the time of the last record read (an undo's too)
    timed: int = 0  # records that carry a time (0: the board's clock was never set)

    def clock(self):
        """"set" when the records carry times, "not set" when none does (the board's clock was
        never set: no dates), None for an event file (no clock at all)."""
        if self.kind != "journal":
            return None
        return "set" if self.timed else "not set"

    def source(self):
        return {"path": self.path, "kind": self.kind, "format": FORMAT if self.kind == "journal"
                else None, "records": self.records, "undos": self.undos,
                "refused": [list(r) for r in self.refused], "notes": list(self.notes),
                "clock": self.clock(), "timed_records": self.timed}


# ---------------------------------------------------------------- journal folders

def _numbers(folder, prefix):
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(fj.ints(names, prefix))


def _file_of(k, nf):
    return "e%d/%d" % (k // nf, k % nf)


def _diagnose(rest, seq):
    # Why the bytes `rest` (from the first record parse() refused) hold no good record seq:
    # (reason, unknown format?).
    j = rest.find(b"\n")
    if j < 0:
        if rest.strip(b"\xff") == b"" or rest.strip(b"\x00") == b"":
            return "torn: the record was never written (blank flash after the last one)", False
        return "torn: the record is cut short (the power went while it was written?)", False
    line = rest[:j + 1]
    body = fj.check(line)
    if body is None:
        return "corrupted: the CRC does not match (a flipped bit or overwritten bytes)", False
    first = body.split(" ", 1)[0]
    if first.isdigit() and fj.parse(line, int(first))[0]:  # a good record, another seq
        return "out of order: record %s where %d belongs" % (first, seq), False
    parts = body.split(" ", 3)
    try:
        got = int(parts[0])
        int(parts[1])
        kind = parts[2]
        parts[3]  # noqa: B018 (it must be there)
    except (ValueError, IndexError):
        return "not a format-%d record (%r)" % (FORMAT, body[:40]), True
    if kind not in fj.KINDS:
        return "unknown record kind %r (a newer journal format?)" % kind, True
    return "out of order: record %d where %d belongs" % (got, seq), False


def is_journal(folder):
    """Does folder look like a journal (it has e<n>/ or s<n>/ folders)?"""
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    return bool(fj.ints(names, "e") or fj.ints(names, "s")) and os.path.isdir(folder)


def _name_of(folder):
    folder = os.path.normpath(folder)
    base = os.path.basename(folder)
    parent = os.path.basename(os.path.dirname(folder))
    if base.isdigit() and parent == "hist":
        return "hist-" + base
    return base or "match"


def read_journal(folder, name=None):
    """The effective events of the journal in folder (a Read); UnknownFormat if it is not one."""
    out = Read(folder, "journal", name or _name_of(folder))
    if not os.path.isdir(folder):
        raise NotARecord("%s: no such folder" % folder)
    try:
        _F = fj.layout(folder, os.listdir(folder))[1]  # files a folder
    except fj.Foreign as e:
        raise UnknownFormat("%s: %s" % (folder, e)) from None
    files = []
    why = fj.read(os.path.join(folder, "damaged"))  # (firmware.store.Store.keep)
    if why is not None:
        out.notes.append("the board could not resume this match and kept it aside: %s"
                         % why.decode("utf-8", "replace"))
    packs = _numbers(folder, "p")
    for n in packs:
        files += range(n * _F, n * _F + _F)
    for n in _numbers(folder, "e"):
        sub = "%s/e%d" % (folder, n)
        names = os.listdir(sub)
        files += [n * _F + m for m in fj.ints(names, "")]
        for bad in sorted(x for x in names if ".bad" in x):
            out.notes.append("the board cut a torn end when it resumed the match (the old copy "
                             "is kept as e%d/%s)" % (n, bad))
    if not files:
        if not is_journal(folder) and os.listdir(folder):
            raise UnknownFormat("%s: no journal records (no e<n>/ folders): not a format-%d "
                                "journal" % (folder, FORMAT))
        out.notes.append("the journal is empty")
        return out
    last = max(files)
    stack = []
    times = []  # each of the stack's events' time
    anchor = None  # the time of the first record of the file being read
    run = None  # (its first seq, the events before it) of an action not yet whole
    seq = 0
    pack = (None, [])  # (n, its lines) of the pack read last
    for k in range(last + 1):
        rel = _file_of(k, _F)
        data = None
        if k // _F in packs:  # the folder's 48 records packed into one file
            if pack[0] != k // _F:
                pack = (k // _F, (fj.read("%s/p%d" % (folder, k // _F)) or b"").split(b"\n"))
            rel = "p%d" % (k // _F)
            chunk = pack[1][(k % _F) * _R:(k % _F) * _R + _R]
            data = b"".join(x + b"\n" for x in chunk if x) if chunk else b""
        if data is None:
            data = fj.read("%s/%s" % (folder, rel))
        if data is None:  # a cut half done (journal._cut): the good part is in NAME.tmp
            data = fj.read("%s/%s.tmp" % (folder, rel))
        if data is None:
            out.stop = Stop(rel, "the file is missing (records %d-%d)" % (k * _R, k * _R + 3),
                            seq)
            break
        recs, used = fj.parse(data, k * _R)
        for rseq, depth, kind, payload, stamp in recs:
            at = _time(stamp, out.started if rseq % _R == 0 else anchor)
            if rseq % _R == 0:
                anchor = at  # (the others of its file count from it)
            if rseq == 0 and at is not None:
                out.started = at
            if at is not None:
                out.timed += 1
                out.last = at
            ev_kind = kind in "eg"
            want = len(stack) + 1 if ev_kind else len(stack) - 1
            if depth != want and run is not None and \
                    depth == len(run[1]) + (1 if ev_kind else -1):
                stack = list(run[1])  # the action before was cut short: left out
                times = list(run[2])
                out.notes.append("an action cut short before record %d is left out" % rseq)
                run = None
                want = depth
            if depth != want:
                out.stop = Stop(rel, "depth %d does not follow (%d expected)" % (depth, want),
                                rseq)
                break
            if kind in "gv" and run is None:
                run = (rseq, list(stack), list(times))  # an action of several records begins
            if ev_kind:
                try:
                    ev = json.loads(payload)
                    fevents.check(ev)
                except (ValueError, fevents.BadEvent) as e:
                    if rseq == 0:
                        raise UnknownFormat("%s: record 0 is no event of the contract (%s): "
                                            "an unknown format" % (folder, e)) from None
                    out.stop = Stop(rel, "not an event of the contract: %s" % e, rseq)
                    break
                if rseq == 0 and ev["t"] != "new":
                    raise UnknownFormat("%s: the first event is not a new match" % folder)
                stack.append(ev)
                times.append(at)
            else:
                stack.pop()
                times.pop()
                out.undos += 1
            if kind in "eu":
                run = None  # the action is whole
            out.records += 1
            seq = rseq + 1
        if out.stop is not None:
            break
        if used < len(data):
            reason, unknown = _diagnose(data[used:], seq)
            if unknown and seq == 0:
                raise UnknownFormat("%s: %s: record 0 %s" % (folder, rel, reason))
            out.stop = Stop(rel, reason, seq)
            break
        if len(recs) < _R and k < last:
            out.stop = Stop(rel, "records %d-%d are missing (the file holds %d of %d)"
                            % (seq, k * _R + 3, len(recs), _R), seq)
            break
    if run is not None:  # the last action's records stop before its end: left out
        out.notes.append("the last action (from record %d) was cut short: left out" % run[0])
        stack = run[1]
        times = run[2]
    out.events = stack
    out.times = times
    return out


def _time(stamp, base):
    # A record's time from its stamp (firmware/journal.py's header): its own time (seconds since
    # 1970 UTC) from 2025 on, else the seconds since base (record 0's time for a file's first
    # record, the file's first record's for the others); None without one.
    if stamp is None or stamp >= rtc.EPOCH:
        return stamp
    return None if base is None else base + stamp


# ---------------------------------------------------------------- event files

def read_events_file(path, name=None):
    """The effective events of an event file (one JSON event a line), as host_tools.replay."""
    out = Read(path, "events", name or os.path.splitext(os.path.basename(path))[0])
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise NotARecord("%s: can't read it: %s" % (path, e)) from None
    m = Match()
    try:
        for no, ev, refused in replay.steps(m, lines):
            if refused is not None:
                out.refused.append((no, refused.rule, str(refused)))
                continue
            out.records += 1
            if ev["t"] == "undo":
                out.undos += 1
    except replay.Malformed as e:
        out.stop = Stop(os.path.basename(path), e.why, line=e.line)
    out.events = m.events
    out.times = [None] * len(out.events)  # (an event file carries no times)
    return out


# ---------------------------------------------------------------- stores and folders

def is_store(folder):
    return os.path.isdir(os.path.join(folder, "match")) or \
        os.path.isdir(os.path.join(folder, "hist"))


def store_matches(root):
    """[(name, journal folder)] of a store folder: the archived matches oldest first (hist/<n>),
    then the match being played (match/). A folder of hist/ itself lists its <n>."""
    out = []
    hist = os.path.join(root, "hist")
    if not os.path.isdir(hist) and not os.path.isdir(os.path.join(root, "match")):
        hist = root  # a hist/ folder given itself
    for n in _numbers(hist, ""):
        out.append(("hist-%d" % n, os.path.join(hist, str(n))))
    cur = os.path.join(root, "match")
    if os.path.isdir(cur):
        out.append(("match", cur))
    return out


def read_path(path):
    """Every match at path (a Read each, or an exception instance for one that can't be read):
    an event file; a journal folder; a store folder (match/ and hist/); a hist/ folder; or a
    folder of event files."""
    if os.path.isfile(path):
        return [_safe(read_events_file, path)]
    if not os.path.isdir(path):
        return [NotARecord("%s: no such file or folder" % path)]
    if is_journal(path):
        return [_safe(read_journal, path)]
    found = store_matches(path)
    if found:
        return [_safe(read_journal, p, n) for n, p in found]
    files = sorted(f for f in os.listdir(path) if f.endswith(".jsonl"))
    if files:
        return [_safe(read_events_file, os.path.join(path, f)) for f in files]
    return [NotARecord("%s: neither a journal, a store folder nor a folder of .jsonl event "
                       "files" % path)]


def _safe(fn, *args):
    try:
        return fn(*args)
    except (UnknownFormat, NotARecord) as e:
        e.path = args[0]  # type: ignore[attr-defined]
        return e
    except OSError as e:
        return NotARecord("%s: %s" % (args[0], e))


def summary(r):
    """A Read in a line of the archive listing: number, game, players, events, finished."""
    m = Match()
    for ev in r.events:
        try:
            m.apply(ev)
        except (rules.Refused, fevents.BadEvent):
            break
    st = m.state()
    return {"name": r.name, "number": int(r.name[5:]) if r.name.startswith("hist-") else None,
            "game": st["game"] if st else None,
            "players": [p["name"] for p in st["players"]] if st else [],
            "events": len(r.events), "records": r.records, "undos": r.undos,
            "finished": bool(st and st["winner"] is not None),
            "winner": st["winner"] if st else None,
            "started": r.started, "last": r.last, "clock": r.clock(),
            "stop": r.stop.text() if r.stop else None}


def when(s):
    """A listing's date and time of a match (summary()'s): its start in the PC's time zone,
    "clock not set" for a board whose clock never was, "-" for an event file."""
    import time

    t = s["started"] if s["started"] is not None else s["last"]
    if t is not None:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
    return "clock not set" if s["clock"] == "not set" else "-"


def list_store(root):
    """The listing of a store folder's matches (summary() of each) and any errors (text)."""
    rows, errors = [], []
    for r in read_path(root):
        if isinstance(r, Exception):
            errors.append(str(r))
        else:
            rows.append(summary(r))
    return rows, errors


# ---------------------------------------------------------------- command line

def main(argv):
    from host_tools import cli

    ap = cli.parser("host_tools.journal_read", "Read match records as the board keeps them: list "
                    "a store folder's matches, or print a match's events.")
    ap.add_argument("path", metavar="DIR|FILE", help="a store folder (match/ and hist/), a hist/ "
                    "folder, a journal folder or an event file")
    ap.add_argument("--events", action="store_true",
                    help="print the effective events of every match in DIR, not the list")
    ns = ap.parse_args(argv)
    path, show_events = ns.path, ns.events
    reads = read_path(path)
    several = len(reads) > 1 or (os.path.isdir(path) and not is_journal(path))
    status = 0
    if several and not show_events:
        print("%-10s %-16s %-6s %-28s %7s  %s" % ("match", "date", "game", "players", "events",
                                                  "finished"))
    for r in reads:
        if isinstance(r, Exception):
            sys.stderr.write("error: %s\n" % r)
            status = 1
            continue
        if r.stop is not None:
            sys.stderr.write("%s: %s (the %d events before it are used)\n"
                             % (r.name, r.stop.text(), len(r.events)))
            status = 1
        if several and not show_events:
            s = summary(r)
            print("%-10s %-16s %-6s %-28s %7d  %s%s" % (
                s["name"], when(s), s["game"] or "-", " v ".join(s["players"]) or "-", s["events"],
                "yes" if s["finished"] else "no", "  (%s)" % s["stop"] if s["stop"] else ""))
        else:
            if several:
                print("# %s" % r.name)
            for ev in r.events:
                print(json.dumps(ev, ensure_ascii=False))
    return status


if __name__ == "__main__":
    from host_tools import cli

    cli.run(main, sys.argv[1:])
