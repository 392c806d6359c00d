# Results export per match, JSON and CSV, with Challonge's match-object field names where one
# fits (docs/club.md "Results": the mapping); the rest comes from the project's scoresheet
# record (host_tools.scoresheet.build: racks rack by rack, breakers, break-and-runs, fouls).
import csv
import io
from datetime import datetime, timezone

SCHEMA = "pool-club-result/1"


def iso(t):
    """Epoch seconds as ISO 8601 UTC (Challonge's timestamps), None as None."""
    if t is None:
        return None
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="seconds")


def record(room, tbl, match):
    """The result record of one match (JSON-able), None if the room has no new event of it."""
    rec = room.sheet(tbl, match)
    if rec is None:
        return None
    lv = room.live_of(tbl, match)
    names = rec["players"]
    g = rec["game"]
    w = rec["result"]["winner"]
    points = rec["result"]["score" if g == "14.1" else "racks"]
    st = rec["stats"]
    n = tbl.rpartition("/")[2]
    racks = []
    for r in rec.get("racks", []):
        if not r["breaks"] and r["winner"] is None:
            continue  # the rack set up after the last one won, not played
        br, rw = r["breaker"], r["winner"]
        racks.append({
            "rack": r["rack"], "breaker": None if br is None else names[br],
            "winner": None if rw is None else names[rw], "how": r["how"], "rule": r["end"],
            "break_and_run": r["break_and_run"], "fouls": list(r["fouls"]),
            "scores_csv": "%d-%d" % tuple(r["racks_after"])})
    return {
        "schema": SCHEMA,
        # Challonge match object fields
        "id": match, "state": "complete" if w is not None else "open",
        "location": "table %s" % n,
        "player1_id": names[0], "player2_id": names[1],
        "winner_id": None if w is None else names[w],
        "loser_id": None if w is None else names[1 - w],
        "scores_csv": "%d-%d" % (points[0], points[1]),
        "started_at": iso(lv.started), "underway_at": iso(lv.started),
        "completed_at": iso(lv.last_at) if w is not None else None,
        "updated_at": iso(lv.last_at),
        # the club's own
        "table": tbl, "game": g,
        "race": rec["settings"]["race"], "target": rec["settings"]["target"],
        "racks": racks,
        "break_and_runs": [s.get("break_and_runs", 0) for s in st],
        "fouls": [s["fouls"] for s in st],
        "high_runs": [s["high_run"] for s in st],
        "events": lv.applied, "complete_record": lv.gap() is None,
    }


MATCH_COLS = ("id", "state", "location", "table", "game", "player1_id", "player2_id",
              "scores_csv", "winner_id", "loser_id", "started_at", "completed_at", "race",
              "target", "p1_break_and_runs", "p2_break_and_runs", "p1_fouls", "p2_fouls")
RACK_COLS = ("rack", "breaker", "rack_winner", "how", "rule", "break_and_run",
             "rack_p1_fouls", "rack_p2_fouls", "rack_scores_csv")


def _match_row(r):
    row = {k: r.get(k) for k in MATCH_COLS}
    for k in ("race", "target"):
        row[k] = "-".join(map(str, r[k])) if r[k] else ""
    row["p1_break_and_runs"], row["p2_break_and_runs"] = r["break_and_runs"]
    row["p1_fouls"], row["p2_fouls"] = r["fouls"]
    return [("" if row[k] is None else row[k]) for k in MATCH_COLS]


def csv_match(r):
    """One match: a row per rack (8/9/10-ball), the match's columns on each; 14.1: one row."""
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    w.writerow(MATCH_COLS + RACK_COLS)
    head = _match_row(r)
    for k in r["racks"] or [None]:
        if k is None:
            w.writerow(head + [""] * len(RACK_COLS))
        else:
            w.writerow(head + [k["rack"], k["breaker"] or "", k["winner"] or "", k["how"] or "",
                               k["rule"] or "", "yes" if k["break_and_run"] else "no",
                               k["fouls"][0], k["fouls"][1], k["scores_csv"]])
    return f.getvalue()


def csv_all(recs):
    """Every match, a row each."""
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    w.writerow(MATCH_COLS)
    for r in recs:
        w.writerow(_match_row(r))
    return f.getvalue()
