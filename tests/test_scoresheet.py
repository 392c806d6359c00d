# CPython only: league scoresheets (host_tools.scoresheet) and the journal reader
# (host_tools.journal_read) against the rules core, for every scenario and for damaged journals.
import csv
import glob
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

import html5lib
import pytest
from PIL import Image

from firmware import journal, rules
from firmware.journal import Journal, crc
from firmware.match import Match
from firmware.store import Store
from firmware.ui import Controller
from host_tools import journal_read, scoresheet
from host_tools.replay import replay
from tests.test_journal_torn import unload_keeping_fix

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCEN = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*.jsonl")))
IDS = [os.path.basename(p)[:-6] for p in SCEN]
NS = "{http://www.w3.org/1999/xhtml}"


class _Null:
    def write(self, _):
        pass


def _lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def _oracle(events):
    """What the rules core says, event by event: final state, fouls per player (the core's note),
    the score each player had when each of their innings began, and (rack, winner) of each rack
    that ended."""
    m = Match()
    fouls = [0, 0]
    starts = [[], []]
    ends = []
    for ev in events:
        b: Any = rules.copy(m.s) if m.s else None
        m.apply(ev)
        a: Any = m.s
        if ev["t"] != "shot":
            continue
        me = b["shooter"]
        note = a["note"] or {}
        if note.get("foul") and note["foul"] != "S4":
            fouls[me] += 1
        if a["p"][me][rules.INNINGS] > b["p"][me][rules.INNINGS]:
            starts[me].append(b["p"][me][rules.SCORE])
        if note.get("end"):
            ends.append((b["rack"], note["won"]))
    return m.state(), fouls, starts, ends


@pytest.fixture(scope="module")
def sheets():
    """Every scenario's sheets, made once: {id: (record from NAME.json, CSV rows, folder)}."""
    out = tempfile.mkdtemp(prefix="sheets-")
    written, rows, errors = scoresheet.make_sheets(SCEN, out, summary=True, err=_Null())
    assert not errors, errors
    got = {}
    for name in IDS:
        with open(os.path.join(out, name + ".json"), encoding="utf-8") as f:
            rec = json.load(f)
        with open(os.path.join(out, name + ".csv"), encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        got[name] = (rec, rows, out)
    yield got
    shutil.rmtree(out)


# ---------------------------------------------------------------- totals = the rules core

@pytest.mark.parametrize("name", IDS)
def test_sheet_totals_equal_the_rules_core(sheets, name):
    rec, rows, _ = sheets[name]
    path = os.path.join(ROOT, "tests", "scenarios", name + ".jsonl")
    m, bad = replay(_lines(path), _Null())
    assert bad is None
    state, fouls, starts, ends = _oracle(m.events)
    with open(path[:-6] + ".state.json", encoding="utf-8") as f:
        assert state == json.load(f)  # the hand-worked expected state, as test_scenarios
    assert rec["final_state"] == state
    assert rec["complete"] and rec["stop"] is None
    assert rec["players"] == [p["name"] for p in state["players"]]
    assert rec["result"]["winner"] == state["winner"]
    assert rec["racks_played"] == state["rack"]
    for i in (0, 1):
        st, p = rec["stats"][i], state["players"][i]
        assert st["innings"] == p["innings"] and st["high_run"] == p["high_run"]
        assert st["fouls"] == fouls[i]
        if rec["game"] == "14.1":
            assert st["score"] == p["score"]
        else:
            assert st["racks"] == p["racks"]


@pytest.mark.parametrize("name", [n for n in IDS if n.startswith("straight")])
def test_14_1_sheet_inning_by_inning(sheets, name):
    rec, rows, _ = sheets[name]
    state, fouls, starts, _ = _oracle(_effective(name))
    assert len(rows) == len(rec["innings"])
    for i in (0, 1):
        mine = [e for e in rec["innings"] if e["player"] == i]
        p = state["players"][i]
        assert [e["inning"] for e in mine] == list(range(1, p["innings"] + 1))
        assert [e["start"] for e in mine] == starts[i]  # each inning starts where the core was
        score = 0
        for e in mine:
            score += e["points"] - e["penalty"]
            assert e["score"] == score
        assert score == p["score"]
        assert max([e["run"] for e in mine] or [0]) == p["high_run"]
        assert sum(e["fouls"] for e in mine) == fouls[i] == rec["stats"][i]["fouls"]
        st = rec["stats"][i]
        assert st["penalty_points"] == sum(e["penalty"] for e in mine)
        assert st["balls"] - st["penalty_points"] == p["score"]
        inn = p["innings"]
        assert st["average"] == (round(p["score"] / inn, 2) if inn else None)
        safe = st["safety_innings"]
        assert st["average_without_safeties"] == (round(p["score"] / (inn - safe), 2)
                                                  if inn - safe else None)
    for row, e in zip(rows, rec["innings"]):  # the CSV says the same as the JSON
        assert int(row["player"]) - 1 == e["player"] and int(row["inning"]) == e["inning"]
        for k in ("points", "penalty", "run", "score", "fouls", "breaking_violations",
                  "three_fouls"):
            assert int(row[k]) == e[k], (k, row, e)
        assert row["name"] == rec["players"][e["player"]]
    for i in (0, 1):  # CSV totals
        mine = [r for r in rows if int(r["player"]) == i + 1]
        assert len(mine) == state["players"][i]["innings"]
        assert int(mine[-1]["score"]) == state["players"][i]["score"]


@pytest.mark.parametrize("name", [n for n in IDS if not n.startswith("straight")])
def test_rack_sheet_rack_by_rack(sheets, name):
    rec, rows, _ = sheets[name]
    state, fouls, _, ends = _oracle(_effective(name))
    done = [r for r in rec["racks"] if r["finished"]]
    assert [(r["rack"], r["winner"]) for r in done] == ends
    assert [r["rack"] for r in rec["racks"]] == list(range(1, len(rec["racks"]) + 1))
    won = [0, 0]
    for r in done:
        won[r["winner"]] += 1
        assert r["racks_after"] == won
        assert r["breaker"] == r["breaks"][-1]["by"]
        assert r["how"] == scoresheet.HOW[r["end"]]
    last = rec["racks"][-1]
    assert last["racks_after"] == [p["racks"] for p in state["players"]]
    assert last["innings_after"] == [p["innings"] for p in state["players"]]
    assert state["winner"] is not None or not last["finished"]
    for i in (0, 1):
        st = rec["stats"][i]
        assert st["racks"] == won[i] == state["players"][i]["racks"]
        assert st["fouls"] == sum(r["fouls"][i] for r in rec["racks"]) == fouls[i]
        breaks = [b for r in rec["racks"] for b in r["breaks"] if b["by"] == i]
        assert st["balls_on_each_break"] == [b["made"] for b in breaks]
        assert st["dry_breaks"] == len([b for b in breaks if not b["balls"]])
        assert st["break_and_runs"] <= st["racks"]
    assert len(rows) == len(rec["racks"])
    for row, r in zip(rows, rec["racks"]):
        assert int(row["rack"]) == r["rack"]
        assert (row["winner"] == "") == (r["winner"] is None)
        if r["winner"] is not None:
            assert int(row["winner"]) - 1 == r["winner"]
            assert row["winner_name"] == rec["players"][r["winner"]]
        assert [int(row["p1_racks"]), int(row["p2_racks"])] == r["racks_after"]
        assert [int(row["p1_fouls"]), int(row["p2_fouls"])] == r["fouls"]
        assert row["break_and_run"] == ("yes" if r["break_and_run"] else "no")


def _effective(name):
    m, _ = replay(_lines(os.path.join(ROOT, "tests", "scenarios", name + ".jsonl")), _Null())
    return m.events


def test_statistics_of_known_matches(sheets):
    # Figures worked out by hand from the scenario files and RULES.md.
    rec = sheets["straight-pool-cs4-s11"][0]
    ilke, jale = rec["stats"]
    assert (ilke["breaking_violations"], ilke["three_foul_penalties"]) == (2, 1)
    assert (ilke["penalty_points"], ilke["fouls"]) == (22, 3)  # 2x2 + 1 + 1 + (1 + 15)
    assert jale["high_run"] == 15 and jale["racks_completed"] == 1
    rec = sheets["nine-ball-push-three-fouls"][0]
    ece, fatih = rec["stats"]
    assert fatih["push_outs"] == 1 and fatih["break_and_runs"] == 1  # the 9 on the break
    assert rec["racks"][2]["how"] == "9 on the break" and rec["racks"][1]["end"] == "N11"
    assert ece["dry_breaks"] == 2 and ece["break_fouls"] == 1
    rec = sheets["straight-pool-s10-handicap"][0]
    assert rec["handicap"] and rec["settings"]["target"] == [20, 30]


# ---------------------------------------------------------------- the HTML page

def _page(path):
    with open(path, "rb") as f:
        # strict: any parse error of the HTML standard (bad nesting, stray tags) fails here
        return html5lib.HTMLParser(strict=True).parse(f)


def _cells(doc):
    out = {}
    for el in doc.iter():
        k = el.get("data-k")
        if k is not None:
            key = (k, el.get("data-p"), el.get("data-row"))
            out.setdefault(key, []).append("".join(el.itertext()).strip())
    return out


def _ids(doc):
    return {el.get("id") for el in doc.iter() if el.get("id")}


@pytest.mark.parametrize("name", IDS)
def test_html_is_valid_with_every_section_and_the_json_numbers(sheets, name):
    rec, _, out = sheets[name]
    doc = _page(os.path.join(out, name + ".html"))
    assert {"header", "body", "totals", "chart", "signatures"} <= _ids(doc)
    assert "stop" not in _ids(doc)
    cells = _cells(doc)
    fmt = scoresheet.fmt
    for i in (0, 1):
        p = str(i)
        assert cells[("name", p, None)] == [rec["players"][i]]
        for _label, key in scoresheet._totals(rec):
            assert cells[(key, p, None)] == [fmt(rec["stats"][i][key])], key
    if rec["game"] == "14.1":
        for e in rec["innings"]:
            for k in ("points", "penalty", "run", "score"):
                assert cells[(k, str(e["player"]), str(e["inning"]))] == [str(e[k])]
        assert len([k for k in cells if k[0] == "score" and k[2]]) == len(rec["innings"])
    else:
        for r in rec["racks"]:
            row = str(r["rack"])
            w = r["winner"]
            assert cells[("winner", None, row)] == ["-" if w is None else rec["players"][w]]
            assert cells.get(("made", None, row), []) == [str(b["made"]) for b in r["breaks"]]
            for i in (0, 1):
                assert cells[("racks", str(i), row)] == [str(r["racks_after"][i])]
                assert cells[("fouls", str(i), row)] == [str(r["fouls"][i])]
    text = "".join(doc.itertext())
    assert rec["game_name"] in text and "Referee" in text
    imgs = [el for el in doc.iter(NS + "img")]
    assert [el.get("src") for el in imgs] == [name + ".png"]


def test_summary_lists_every_match(sheets):
    out = next(iter(sheets.values()))[2]
    with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
        s = json.load(f)
    assert [m["name"] for m in s["matches"]] == IDS and s["errors"] == []
    with open(os.path.join(out, "summary.csv"), encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    for row, name in zip(rows, IDS):
        rec = sheets[name][0]
        assert row["name"] == name and row["p1"] == rec["players"][0]
        key = "score" if rec["game"] == "14.1" else "racks"
        assert int(row["p1_result"]) == rec["stats"][0][key]
    doc = _page(os.path.join(out, "summary.html"))
    assert len([el for el in doc.iter(NS + "a")]) == len(IDS)


# ---------------------------------------------------------------- the PNG chart

@pytest.mark.parametrize("name", IDS)
def test_png_chart_is_drawn(sheets, name):
    out = sheets[name][2]
    with Image.open(os.path.join(out, name + ".png")) as im:
        im = im.convert("RGB")
        w, h = im.size
        assert w >= 600 and h >= 300
        small = im.resize((w // 2, h // 2))
        colours = small.getcolors(maxcolors=1 << 20) or []
        inked = sum(n for n, c in colours if isinstance(c, tuple) and sum(c) < 600)
        assert len(colours) > 20  # lines, text, grid, anti-aliasing: not a blank image
        assert 0.01 < inked / (small.size[0] * small.size[1]) < 0.5


# ---------------------------------------------------------------- journals as the board keeps them

def _journal(events, root):
    """Play events (refusals skipped) through Match(Journal(root)) as the board does; the match."""
    j = Journal(root)
    m = Match(j)
    for ev in events:
        try:
            m.apply(ev)
        except rules.Refused:
            pass
    j.close()
    return m


def _scenario_events(name):
    return [json.loads(x) for x in _lines(os.path.join(ROOT, "tests", "scenarios",
                                                       name + ".jsonl")) if x.strip()]


@pytest.mark.parametrize("name", IDS)
def test_a_journal_reads_back_as_the_events_file(sheets, name, tmp_path):
    root = str(tmp_path / "match")
    m = _journal(_scenario_events(name), root)
    r = journal_read.read_journal(root)
    assert r.stop is None and r.events == _effective(name)
    assert _state_of(r.events) == m.state()
    assert r.undos == len([e for e in _scenario_events(name) if e["t"] == "undo"])
    rec = scoresheet.build(r)
    want = sheets[name][0]
    # (the journal's records carry the times the event file lacks: each inning's or rack's end)
    rows = rec.get("innings") or rec.get("racks")
    assert rec["clock"] == "set"  # (a rack still in play has no end)
    assert all(isinstance(e["ended_at"], int) for e in rows if e.get("finished", True))
    assert all(e["ended_at"] is None for e in want.get("innings") or want.get("racks"))

    for k in ("stats", "final_state", "result", "innings", "racks"):
        got = rec.get(k)
        if k in ("innings", "racks") and got is not None:
            got = [dict(e, ended_at=None) for e in got]
        assert got == want.get(k), k


def test_store_archive_is_listed_and_every_match_gets_a_sheet(tmp_path):
    root = str(tmp_path / "board")
    os.mkdir(root)
    st = Store(root)
    names = ["straight-pool-cs4-s11", "nine-ball-push-three-fouls", "straight-pool-opening"]
    for name in names:  # two finished and archived, the third being played
        _play_into(st, name)
    rows, errors = journal_read.list_store(root)
    assert errors == []
    assert [(r["name"], r["number"], r["game"], r["finished"]) for r in rows] == [
        ("hist-1", 1, "14.1", True), ("hist-2", 2, "9ball", True), ("match", None, "14.1", False)]
    assert rows[1]["players"] == ["Ece", "Fatih"]
    assert rows[0]["events"] == len(_effective(names[0]))
    out = str(tmp_path / "sheets")
    written, srows, errors = scoresheet.sheets_for_store(root, out)
    assert errors == [] and [r["name"] for r in srows] == ["hist-1", "hist-2", "match"]
    assert os.path.exists(os.path.join(out, "summary.html"))
    assert len([p for p in written if p.endswith(".png")]) == 3
    r = _run("host_tools.journal_read", root)
    assert r.returncode == 0 and "hist-2" in r.stdout and "Ece v Fatih" in r.stdout
    r = _run("host_tools.journal_read", os.path.join(root, "hist", "2"))
    assert r.returncode == 0 and json.loads(r.stdout.split("\n")[0])["t"] == "new"


def _play_into(st, name):
    # A scenario played as a new match on the board's store (the one before goes to hist/).
    j = st.fresh()
    m = Match(j)
    for ev in _scenario_events(name):
        try:
            m.apply(ev)
        except rules.Refused:
            pass
    j.close()


def _run(mod, *args):
    return subprocess.run([sys.executable, "-m", mod] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def _files(root):
    """The journal's record files e<n>/<m> in order, as (relative path, bytes)."""
    out = []
    k = 0
    while True:
        rel = "e%d/%d" % (k // 64, k % 64)
        if not os.path.exists(os.path.join(root, rel)):
            return out
        with open(os.path.join(root, rel), "rb") as f:
            out.append((rel, f.read()))
        k += 1


def _rewrite(src, dst, files, snapshots=False):
    # A journal at dst whose record files are `files` (relative path, bytes); with snapshots,
    # src's snapshot folders too (without, recovery replays from the start: the same events).
    if snapshots:
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("e*"))
    for rel, data in files:
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        with open(os.path.join(dst, rel), "wb") as f:
            f.write(data)


def _state_of(events):
    m = Match()
    for ev in events:
        m.apply(ev)
    return m.state()


def _recovered(root, tmp=None):
    """(depth, state) the firmware's own recovery (Journal.open, snapshots and all) finds in a
    copy of the journal root (tmp), or in root itself (which it may change) if tmp is None."""
    if tmp is not None:
        shutil.copytree(root, tmp)
        root = tmp
    j = Journal(root).open()
    m = Match(j)
    m.rebuild()
    j.close()
    return len(j), m.state()


def _same(r, recovered):
    return (len(r.events), _state_of(r.events)) == recovered


def test_a_journal_cut_short_at_every_byte_yields_the_readable_part(tmp_path, monkeypatch):
    monkeypatch.setattr(journal, "unload", unload_keeping_fix)  # (1,600 recoveries)
    root = str(tmp_path / "j")
    _journal(_scenario_events("straight-pool-cs4-s11"), root)  # 23 records, undo included
    files = _files(root)
    total = sum(len(d) for _, d in files)
    cuts = 0
    for pos in range(1, total):
        kept, left = [], pos
        for rel, data in files:
            if left <= 0:
                break
            kept.append((rel, data[:left]))
            left -= len(data)
        cut = str(tmp_path / ("c%d" % pos))
        _rewrite(root, cut, kept)
        r = journal_read.read_journal(cut)
        at_boundary = kept[-1][1].endswith(b"\n")
        assert (r.stop is None) == at_boundary, pos
        if r.stop is not None:
            assert r.stop.reason.startswith("torn") and r.stop.file == kept[-1][0]
            assert r.stop.seq == r.records  # the first record not read
            assert "record %d" % r.stop.seq in r.stop.text()
        rec = scoresheet.build(r)
        assert rec is None or rec["complete"] == at_boundary
        assert _same(r, _recovered(cut)), pos  # read first: the recovery rewrites the folder
        shutil.rmtree(cut)
        cuts += 1
    assert cuts > 1000


def test_a_flipped_byte_anywhere_stops_at_that_record(tmp_path, monkeypatch):
    monkeypatch.setattr(journal, "unload", unload_keeping_fix)
    root = str(tmp_path / "j")
    _journal(_scenario_events("nine-ball-push-three-fouls"), root)
    files = _files(root)
    recovered = {}  # (fi, seq) -> what recovery finds in the journal's records before seq
    for fi in (1, len(files) // 2, len(files) - 1):
        rel, data = files[fi]
        for pos in range(len(data)):
            bad = bytearray(data)
            bad[pos] ^= 0x01 if pos % 2 else 0x80
            seq = fi * 4 + data[:pos].count(b"\n")  # the record the byte belongs to
            flip = str(tmp_path / ("f%d_%d" % (fi, pos)))
            _rewrite(root, flip, files[:fi] + [(rel, bytes(bad))] + files[fi + 1:])
            r = journal_read.read_journal(flip)
            assert r.stop is not None and r.stop.seq == seq, (fi, pos, r.stop)
            assert r.stop.file == rel
            assert r.stop.reason.startswith(("corrupted", "torn", "unknown", "not a"))
            if (fi, seq) not in recovered:  # (the same for every byte of record seq)
                lines = data.split(b"\n")
                good = b"".join(x + b"\n" for x in lines[:seq - fi * 4])
                ref = str(tmp_path / "ref")
                _rewrite(root, ref, files[:fi] + [(rel, good)])
                recovered[(fi, seq)] = _recovered(ref, str(tmp_path / "rec"))
                shutil.rmtree(ref)
                shutil.rmtree(str(tmp_path / "rec"))
            assert _same(r, recovered[(fi, seq)]), (fi, pos)
            shutil.rmtree(flip)


def test_damaged_journals_give_a_sheet_with_the_stop_and_no_traceback(tmp_path):
    store = str(tmp_path / "board")
    os.mkdir(store)
    st = Store(store)
    for name in ("straight-pool-cs4-s11", "nine-ball-push-three-fouls", "eight-ball-groups"):
        _play_into(st, name)
    # hist/1: a flipped byte in its third file; hist/2: a file gone; match: torn at the end
    p = os.path.join(store, "hist", "1", "e0", "2")
    with open(p, "rb") as f:
        data = bytearray(f.read())
    data[15] ^= 0x04
    with open(p, "wb") as f:
        f.write(data)
    os.remove(os.path.join(store, "hist", "2", "e0", "1"))
    last = sorted(glob.glob(os.path.join(store, "match", "e0", "*")))[-1]
    with open(last, "ab") as f:
        f.write(b'9 10 e {"t":"shot","fi')
    out = str(tmp_path / "out")
    r = _run("host_tools.scoresheet", store, "--out", out, "--summary")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "hist-1" in r.stderr and "corrupted" in r.stderr and "e0/2, record 8" in r.stderr
    assert "e0/1" in r.stderr and "missing" in r.stderr
    assert "torn" in r.stderr
    for name, seq in (("hist-1", 8), ("hist-2", 4), ("match", None)):
        with open(os.path.join(out, name + ".json"), encoding="utf-8") as f:
            rec = json.load(f)
        assert not rec["complete"] and rec["stop"]["reason"]
        if seq is not None:
            assert rec["stop"]["seq"] == seq
        doc = _page(os.path.join(out, name + ".html"))
        assert "stop" in _ids(doc)
        stop = [el for el in doc.iter() if el.get("id") == "stop"][0]
        assert rec["stop"]["text"] in "".join(stop.itertext())
        assert os.path.getsize(os.path.join(out, name + ".png")) > 1000
    with open(os.path.join(out, "hist-1.json"), encoding="utf-8") as f:
        rec = json.load(f)
    assert rec["source"]["records"] == 8  # records 0-7 were read
    with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
        s = json.load(f)
    assert [m["stop"] is not None for m in s["matches"]] == [True, True, True]


def _record(seq, depth, kind, payload):
    body = "%d %d %s %s" % (seq, depth, kind, payload)
    return ("%s %08x\n" % (body, crc(body.encode()))).encode()


def test_an_unknown_journal_format_is_a_clear_error(tmp_path):
    root = tmp_path / "v2"
    (root / "e0").mkdir(parents=True)
    (root / "e0" / "0").write_bytes(_record(0, 1, "E2", '{"t":"new"}'))  # CRC good, kind not
    with pytest.raises(journal_read.UnknownFormat) as e:
        journal_read.read_journal(str(root))
    assert "unknown record kind" in str(e.value)
    other = tmp_path / "other"
    other.mkdir()
    (other / "journal.bin").write_bytes(b"\x00\x01")
    with pytest.raises(journal_read.UnknownFormat):
        journal_read.read_journal(str(other))
    newer = tmp_path / "newer"
    (newer / "e0").mkdir(parents=True)
    (newer / "e0" / "0").write_bytes(_record(0, 1, "e", '{"t":"new","game":"14.1",'
                                                        '"players":["A","B"],"clock":5}'))
    with pytest.raises(journal_read.UnknownFormat):
        journal_read.read_journal(str(newer))
    out = str(tmp_path / "out")
    r = _run("host_tools.scoresheet", str(root), "--out", out)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "unknown record kind" in r.stderr and "not a format" not in r.stdout
    r = _run("host_tools.journal_read", str(root))
    assert r.returncode == 1 and "Traceback" not in r.stderr and "unknown" in r.stderr
    # later in a journal, a record of an unknown kind is a stop: what came before is used
    ok = tmp_path / "late"
    _journal(_scenario_events("straight-pool-opening"), str(ok))
    files = _files(str(ok))
    n = (len(files) - 1) * 4 + files[-1][1].count(b"\n")  # the next record's seq
    with open(os.path.join(str(ok), "e%d/%d" % (n // 256, n // 4 % 64)), "ab") as f:
        f.write(_record(n, 3, "z", "-"))
    r2 = journal_read.read_journal(str(ok))
    assert r2.stop is not None and r2.stop.seq == n and "unknown record kind" in r2.stop.reason
    assert r2.events == _effective("straight-pool-opening")


def test_event_files_with_bad_lines_stop_there(tmp_path):
    lines = _lines(SCEN[0])
    p = tmp_path / "bad.jsonl"
    p.write_text("\n".join(lines[:5] + ['{"t": "shot", "first": 1, "rail": tru'] + lines[5:]),
                 encoding="utf-8")
    r = journal_read.read_events_file(str(p))
    assert r.stop is not None and r.stop.line == 6 and "not JSON" in r.stop.reason
    m, _ = replay(lines[:5], _Null())
    assert r.events == m.events
    out = str(tmp_path / "out")
    res = _run("host_tools.scoresheet", str(p), "--out", out)
    assert res.returncode == 1 and "line 6" in res.stderr and "Traceback" not in res.stderr
    assert os.path.exists(os.path.join(out, "bad.html"))
    res = _run("host_tools.scoresheet", str(tmp_path / "nothing-here"), "--out", out)
    assert res.returncode == 1 and "no such file" in res.stderr and "Traceback" not in res.stderr


def test_key_pressed_matches_make_the_sheets_of_the_docs(tmp_path):
    # host_tools.sheet_demo plays two matches key by key on the Controller into a store, as a
    # board does; docs/scoresheets.md shows their sheets.
    from host_tools import sheet_demo

    root = sheet_demo.make_store(str(tmp_path / "board"))
    written, rows, errors = scoresheet.sheets_for_store(root, str(tmp_path / "out"))
    assert errors == []
    assert [(r["name"], r["p1_result"], r["p2_result"], r["winner"]) for r in rows] == [
        ("hist-1", 40, 31, "Mehmet"), ("match", 3, 4, "Can")]
    with open(str(tmp_path / "out" / "hist-1.json"), encoding="utf-8") as f:
        rec = json.load(f)
    assert [s["high_run"] for s in rec["stats"]] == [13, 10]
    assert [s["safety_innings"] for s in rec["stats"]] == [0, 1]
    assert rec["source"]["undos"] == 1
    with open(str(tmp_path / "out" / "match.json"), encoding="utf-8") as f:
        rec = json.load(f)
    assert [s["break_and_runs"] for s in rec["stats"]] == [1, 1]
    assert [s["push_outs"] for s in rec["stats"]] == [0, 1]
    assert rec["racks"][3]["end"] == "N11"


# ---------------------------------------------------------------- language, losses, averages

NEW8 = {"t": "new", "game": "8ball", "players": ["Can", "Zeynep"], "race": [2, 2]}
EARLY8 = [{"t": "lag", "breaker": 0}, {"t": "shot", "first": 1, "break_rails": 4, "rail": True},
          {"t": "shot", "first": 1, "pots": [8], "rail": True}]  # Zeynep: the 8 early (E12.5)


def _sheet(tmp_path, events, lang=None):
    src = tmp_path / "m.jsonl"
    src.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in events) + "\n",
                   encoding="utf-8")
    out = str(tmp_path / "out")
    _, _, errors = scoresheet.make_sheets([str(src)], out, err=_Null(), lang=lang)
    assert errors == []
    with open(os.path.join(out, "m.json"), encoding="utf-8") as f:
        rec = json.load(f)
    doc = _page(os.path.join(out, "m.html"))
    return rec, _cells(doc), "".join(doc.itertext()), doc


def test_a_rack_lost_on_the_8_made_early_is_the_losers_on_the_sheet(tmp_path):
    # E12.5: Zeynep pockets the 8 before her group: she loses the rack, Can did not make an 8
    rec, cells, _, _ = _sheet(tmp_path, [NEW8] + EARLY8)
    r = rec["racks"][0]
    assert (r["winner"], r["end"], r["lost_by"]) == (0, "E12.5", 1)
    assert cells[("winner", None, "1")] == ["Can"]
    assert cells[("how", None, "1")] == ["Zeynep lost the rack: 8 made early (E12.5)"]
    can, zeynep = rec["stats"]
    assert can["racks_won_by"] == {} and can["racks_won_on_loss"] == {"8 made early": 1}
    assert zeynep["racks_lost_by"] == {"8 made early": 1} and zeynep["racks_won_by"] == {}
    assert cells[("racks_won_by", "0", None)] == ["-"]
    assert cells[("racks_won_on_loss", "0", None)] == ["8 made early: 1"]
    assert cells[("racks_lost_by", "1", None)] == ["8 made early: 1"]


def test_a_sheet_is_in_the_language_the_match_was_played_in(tmp_path):
    rec, cells, text, doc = _sheet(tmp_path, [dict(NEW8, lang="tr")] + EARLY8)
    assert rec["lang"] == "tr" and rec["game_name"] == "8 top"
    assert doc.get("lang") == "tr"
    assert "8 top: skor kağıdı" in text and "Toplamlar" in text and "Hakem / yazıcı" in text
    assert cells[("how", None, "1")] == ["Zeynep rakı kaybetti: 8 erken girdi (E12.5)"]
    assert cells[("racks_lost_by", "1", None)] == ["8 erken girdi: 1"]
    assert "Kazanılan raklar" in text and "Racks won" not in text
    # --lang gives the other one
    rec, _, text, _ = _sheet(tmp_path, [dict(NEW8, lang="tr")] + EARLY8, lang="en")
    assert rec["lang"] == "en" and "8-ball: score sheet" in text
    # a match keyed on the board in Turkish: its new event says so
    c = Controller("keypad", "tr", "14.1")
    c.key("press", "5")
    assert c.match.log.event(0)["lang"] == "tr"


def test_the_sheets_average_and_the_boards_are_each_named_for_what_they_are(tmp_path):
    # 14.1, Ali: 5 balls in the first inning, then a foul (-1): 4 points, 5 balls, 2 innings
    evs = [{"t": "new", "game": "14.1", "players": ["Ali", "Veli"], "target": [50, 50]},
           {"t": "lag", "breaker": 0},
           {"t": "shot", "first": 1, "break_rails": 4, "cue_rail": True, "rail": True}]
    evs += [{"t": "shot", "first": 1, "rail": True},  # Veli: a miss
            {"t": "shot", "first": 1, "pots": [1, 2, 3, 4, 5], "made": True, "rail": True},
            {"t": "shot", "first": 1, "foul": "G5.4"},  # Ali: a touched ball, -1
            {"t": "shot", "first": 1, "rail": True}]  # Veli: a miss
    rec, cells, text, _ = _sheet(tmp_path, evs)
    ali = rec["stats"][0]
    assert (ali["score"], ali["balls"], ali["innings"]) == (4, 5, 2)
    assert cells[("average", "0", None)] == ["2.00"]  # points per inning
    assert cells[("balls_per_inning", "0", None)] == ["2.50"]  # what the board shows
    assert "Average (points per inning)" in text and "Balls per inning (the board's Bl/inn)" in text
    from firmware import lang, views

    assert lang.t("en", "avg") == "Bl/inn" and lang.t("tr", "avg") == "Top/ıs"
    assert views.average(5, 2) == "2.50"


# A 10-ball match keyed on the keypad (docs/ui-contract.md "10-ball"): race 2-2, Ali v Burak.
TEN_SETUP = "8 6 8 6 6 8 4 4 4 8 4 4 4 5"     # the names, race 2 each, start
TEN_KEYS = ("1 3 A # # 5 2 1 B 1 A 4 # 0 A C # 0 A "   # rack 1: push out passed (T5), T7, T6, T2
            "B * A 2 B 2 # 0 A "                       # rack 2: a dry break, T8, T7 passed, T2
            "5 A A B # 0 2 A")                         # rack 3: the 10 on a combination (T2)


def keyed_10ball():
    c = Controller("keypad", "en", "10ball")
    for k in (TEN_SETUP + " " + TEN_KEYS).split():
        c.key("press", k)
    return c


def test_a_10ball_match_keyed_on_the_keypad_gets_its_sheet(tmp_path):
    c = keyed_10ball()
    events = [c.match.log.event(i) for i in range(len(c.match.log))]
    assert events[0]["game"] == "10ball" and events[0]["ten_on_break"] == "spot"
    rec, cells, text, _ = _sheet(tmp_path, events)
    state, fouls, _, ends = _oracle(events)
    assert rec["final_state"] == state and rec["complete"]
    assert rec["game_name"] == "10-ball" and rec["players"] == ["Ali", "Burak"]
    assert rec["settings"]["ten_on_break"] == "spot" and rec["settings"]["nine_on_break"] is None
    assert [(r["winner"], r["end"]) for r in rec["racks"]] == [(0, "T2"), (1, "T2"), (1, "T2")]
    assert [(i + 1, r["winner"]) for i, r in enumerate(rec["racks"])] == ends
    assert rec["result"]["winner"] == state["winner"] == 1
    ali, burak = rec["stats"]
    assert (ali["fouls"], burak["fouls"]) == tuple(fouls) == (0, 1)   # Burak's C: no contact (G3)
    assert ali["push_outs"] == 1 and burak["push_outs"] == 0          # T5
    assert (ali["racks"], burak["racks"]) == (1, 2) and burak["dry_breaks"] == 1
    assert "10-ball: score sheet" in text and "Push outs" in text


# ---------------------------------------------------------------- the records' times

SET = 1796278852  # 2026-12-03 06:20:52 UTC
PICO_BOOT = 1609459200  # a Pico's clock after a hard boot: never set


def _timed_journal(root, timed):
    # A journal in root of [(event, time or None)] played with the board's clock at each time.
    from firmware import rtc

    was = rtc.read
    try:
        m = Match(Journal(str(root)))
        for ev, t in timed:
            rtc.read = lambda t=t: PICO_BOOT if t is None else t
            rtc.mark()
            m.apply(ev)
        m.log.close()
    finally:
        rtc.read = was
        rtc.mark()
    return str(root)


def _journal_sheet(tmp_path, folder, **kw):
    out = str(tmp_path / "out")
    written, _, errors = scoresheet.make_sheets([folder], out, err=_Null(), **kw)
    assert errors == []
    name = os.path.basename(written[0])[:-5]
    with open(os.path.join(out, name + ".json"), encoding="utf-8") as f:
        rec = json.load(f)
    doc = _page(os.path.join(out, name + ".html"))
    return rec, _cells(doc), "".join(doc.itertext())


@pytest.fixture
def utc(monkeypatch):
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


CLOCKED9 = [({"t": "new", "game": "9ball", "players": ["Ali", "Veli"], "race": [1, 1],
              "clock": "wpa"}, SET),
            ({"t": "lag", "breaker": 0}, SET + 10),
            ({"t": "shot", "first": 1, "break_rails": 4, "rail": True}, SET + 40),  # Ali: 30 s
            ({"t": "shot", "first": 1, "rail": True}, SET + 75),  # Veli: a miss, 35 s
            ({"t": "ext"}, SET + 80),  # Ali takes his extension (K3)
            ({"t": "shot", "first": 1, "pots": [9], "rail": True}, SET + 130)]  # Ali: 55 s, N2


def test_a_timed_journal_gives_the_date_duration_and_each_players_time_a_shot(tmp_path, utc):
    folder = _timed_journal(tmp_path / "match", CLOCKED9)
    r = journal_read.read_journal(folder)
    assert r.started == SET and r.last == SET + 130 and r.clock() == "set"
    assert r.times == [t for _, t in CLOCKED9]
    rec, cells, text = _journal_sheet(tmp_path, folder)
    assert rec["clock"] == "set" and rec["shot_clock"] and rec["date"] == "2026-12-03"
    assert rec["time"]["start"] == SET and rec["time"]["end"] == SET + 130
    assert rec["time"]["duration_s"] == 130 and rec["time"]["start_utc"] == "2026-12-03T06:20:52Z"
    ali, veli = rec["stats"]
    assert (ali["shot_time_average"], ali["shots_timed"], ali["extensions"]) == (42.5, 2, 1)
    assert (veli["shot_time_average"], veli["shots_timed"], veli["extensions"]) == (35.0, 1, 0)
    assert rec["racks"][0]["ended_at"] == SET + 130
    assert cells[("date", None, None)] == ["2026-12-03"]
    assert cells[("played", None, None)] == ["2026-12-03 06:20 +00 \u2013 06:23"]
    assert cells[("duration", None, None)] == ["0:02:10"]
    assert cells[("shot_time_average", "0", None)] == ["42.50"]
    assert cells[("extensions", "0", None)] == ["1"]
    assert cells[("ended", None, "1")] == ["06:23"]
    assert "Average time a shot (seconds)" in text
    rows = list(csv.DictReader(io.StringIO(scoresheet.csv_text(rec))))
    assert rows[0]["ended_utc"] == "2026-12-03T06:23:02Z"


def test_the_clock_off_or_never_set_shows_no_times(tmp_path, utc):
    # The board's clock never set: its records say so, and the sheet carries no made-up date.
    unset = [(ev, None) for ev, _ in CLOCKED9]
    folder = _timed_journal(tmp_path / "match", unset)
    assert journal_read.read_journal(folder).clock() == "not set"
    rec, cells, text = _journal_sheet(tmp_path, folder)
    assert rec["clock"] == "not set" and rec["date"] is None
    assert rec["time"]["start"] is None and rec["time"]["duration_s"] is None
    assert cells[("date", None, None)] == ["clock not set"]
    assert ("played", None, None) not in cells and ("ended", None, "1") not in cells
    assert rec["stats"][0]["shot_time_average"] is None and rec["stats"][0]["extensions"] == 1
    # --date still names the day
    rec, cells, _ = _journal_sheet(tmp_path, folder, date="2026-05-14")
    assert cells[("date", None, None)] == ["2026-05-14"]
    # a 14.1 match without the shot clock: no time a shot; each inning's end at its last shot
    evs = [({"t": "new", "game": "14.1", "players": ["Ali", "Veli"], "target": [50, 50]}, SET),
           ({"t": "lag", "breaker": 0}, SET + 5),
           ({"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True},
            SET + 65),
           ({"t": "shot", "first": 1, "rail": True}, SET + 125)]
    folder = _timed_journal(tmp_path / "m141", evs)
    rec, cells, text = _journal_sheet(tmp_path, folder)
    assert not rec["shot_clock"] and "shot_time_average" not in rec["stats"][0]
    assert "Average time a shot" not in text
    assert [e["ended_at"] for e in rec["innings"]] == [SET + 65, SET + 125]
    assert cells[("ended", "1", "1")] == ["06:22"]
    assert rec["time"]["end"] == SET + 125 and rec["time"]["duration_s"] == 125  # (not over)
