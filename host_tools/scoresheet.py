# League scoresheets from match records: NAME.json, .csv, .html (A4) and .png (chart) per match.
"""python -m host_tools.scoresheet INPUT... --out DIR [--summary] [--date YYYY-MM-DD]

INPUT is an event file (tests/scenarios/*.jsonl), a journal folder as the board stores it (match/
or hist/<n>/), a store folder holding match/ and hist/ (every match in it), a hist/ folder, or a
folder of event files. For each match it writes into DIR:

  NAME.json  the whole record: players, game, settings, result, per inning (14.1) or per rack
             (8-ball, 9-ball) what happened, the statistics, and where the record stops if the
             journal is torn or corrupted;
  NAME.csv   one row per inning (14.1) or per rack (8/9-ball);
  NAME.html  a printable A4 sheet, black on white: header, body, totals, signatures;
  NAME.png   the chart: 14.1 running scores inning by inning, 8/9-ball racks won rack by rack.

--summary also writes summary.json, summary.csv and summary.html: a row per match. A journal's
records carry their times when the board's clock was set (make deploy, make pull, NTP): a sheet
then shows the date, the start, the end and the duration (in the PC's time zone), each inning's
(14.1) or rack's end, and with the shot clock on each player's average time a shot (from the
record before the shot to the shot's, extensions not counting as records) and the extensions
used. A board whose clock was never set says "clock not set"; --date puts a date on the sheets
(an event file carries none either). A sheet is in the language the match was played in (the new
event's lang: English or Turkish), or in --lang.

Nothing here knows the rules: each event is replayed through the rules core (firmware.match)
and the sheet is what changed in the state from before the event to after it (scores, innings,
runs, rack numbers, and the core's note of what the event did: foul, penalty, re-rack, rack won).
Exit status: 0, 1 if a record stops early or can't be read (what was readable is written), 2 on a
usage error.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import time
from typing import Any

from firmware import events as fevents
from firmware import rules
from firmware.match import Match
from host_tools import journal_read
from host_tools.journal_read import Read, Stop
from host_tools.sheet_tr import TR

SCHEMA = "pool-scoresheet/1"
GAME_NAMES = {"14.1": "14.1 continuous", "8ball": "8-ball", "9ball": "9-ball",
              "10ball": "10-ball"}

# How a rack was won (the rule in the core's note "end") and foul names for the sheet.
HOW = {"E11": "8 made", "E12.1": "foul on the 8", "E12.2": "8 made with the last group ball",
       "E12.3": "8 off the table", "E12.4": "8 in the wrong pocket",
       "E12.5": "8 made early", "E12.6": "three fouls", "N2": "9 made",
       "C-N1": "9 on the break", "N11": "three fouls", "T2": "10 made",
       "O6": "10 on the break", "T11": "three fouls"}
# A loss of the rack (the winner did not make the winning ball: the other player lost it).
LOSSES = ("E12.1", "E12.2", "E12.3", "E12.4", "E12.5", "E12.6", "N11", "T11")
FOULS = {"G3": "no rail / no contact", "G5.1": "bad contact", "G5.2": "scratch",
         "G5.3": "ball off the table", "G5.4": "touched a ball", "G5.5": "frozen ball",
         "G5.6": "no foot on the floor", "G5.7": "ball moving", "G5.8": "frozen ball",
         "G5.9": "miscue jump", "G5.10": "frozen cue ball", "G5.11": "double hit",
         "G5.12": "outside the kitchen", "G5.14": "intentional foul", "G19": "marking the table",
         "G20": "measuring",
         "E3": "bad break", "E7": "wrong ball first", "E9": "cue ball moved",
         "C-E1": "8 first on an open table", "N2": "not the 1 first on the break",
         "N4": "bad break", "N5": "not the lowest ball first", "S4": "breaking violation",
         "T3": "bad break", "T10": "not the lowest ball first"}
RACKS = {"S10": "re-rack 14", "C-S4a": "re-rack 15", "C-S4b": "re-rack 15, cue in the kitchen",
         "C-S4c": "re-rack 14, 15th on the head spot", "C-S4d": "re-rack 14, cue in hand",
         "C-S4dh": "re-rack 14, cue on the head spot",
         "S11": "three fouls: -15, re-rack 15", "S4": "re-racked, break again",
         "E3": "re-racked", "E4": "re-racked"}
CHOICES = {"accept": "accepted the table", "rerack": "chose a re-rack",
           "kitchen": "took ball in hand in the kitchen", "spot8": "had the 8 spotted",
           "shoot": "shot after the push out", "pass": "passed the shot back"}


LANGS = ("en", "tr")


def tx(lang: str, text: str, *args) -> str:
    """text (the English of a sheet's text) in the sheet's language, with args put in (%)."""
    s = TR.get(text, text) if lang == "tr" else text
    return s % args if args else s


def _avg(points, innings):
    return None if innings <= 0 else round(points / innings, 2)


def foul_text(rule, lang="en"):
    return "%s %s" % (rule, tx(lang, FOULS[rule])) if rule in FOULS else rule


def local_time(t, with_date=True):
    """A record's time (seconds since 1970 UTC) in the PC's time zone, as the sheets print it:
    "2026-12-03 09:20 +03", or the time of day alone; "" for None."""
    if t is None:
        return ""
    lt = time.localtime(t)
    zone = time.strftime("%z", lt)
    zone = zone[:3] if zone[3:] == "00" else zone[:3] + ":" + zone[3:]
    return time.strftime("%Y-%m-%d %H:%M" if with_date else "%H:%M", lt) + (
        " " + zone if with_date else "")


def duration_text(s):
    """Seconds as H:MM:SS ("-" for None)."""
    if s is None:
        return "-"
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def _iso(t):
    return None if t is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


# ---------------------------------------------------------------- the record of a match

class _Sheet:
    """Follows a replay event by event and keeps what the sheet needs."""

    def __init__(self, lang="en"):
        self.lang = lang
        self.innings = []  # 14.1: one entry per player inning, in playing order
        self.cur: list = [None, None]  # 14.1: each player's current inning entry
        self.racks = []  # 8/9-ball: one entry per rack
        self.lag = None
        self.new = None

    # -------------------------------------------------------- 14.1
    def shot_141(self, b, a, ev, at=None):
        me = b["shooter"]
        pb, pa = b["p"][me], a["p"][me]
        note = a["note"] or {}
        if pa["innings"] > pb["innings"] or self.cur[me] is None:
            e = {"turn": len(self.innings) + 1, "player": me, "inning": pa["innings"],
                 "start": pb["score"], "points": 0, "penalty": 0, "fouls": 0,
                 "foul_rules": [], "breaking_violations": 0, "three_fouls": 0, "shots": 0,
                 "safety_only": True, "run": 0, "score": 0, "racks": [], "end": "",
                 "log": [], "ended_at": None}
            self.innings.append(e)
            self.cur[me] = e
        e = self.cur[me]
        e["ended_at"] = at  # (its last shot's record: the inning's end so far)
        balls = pa["balls"] - pb["balls"]
        e["shots"] += 1
        e["points"] += balls
        e["penalty"] += balls - (pa["score"] - pb["score"])
        foul = note.get("foul")
        if foul == "S4":
            e["breaking_violations"] += 1
        elif foul:
            e["fouls"] += 1
            e["foul_rules"].append(foul)
        if ev.get("call") != "safety" or foul:
            e["safety_only"] = False
        rack = note.get("rack")
        if rack:
            e["racks"].append(rack)
            if rack == "S11":
                e["three_fouls"] += 1
        e["run"] = max(e["run"], pa["run"])
        e["score"] = pa["score"]
        t = self.lang
        if foul == "S4":
            end = tx(t, "breaking violation: -2")
        elif rack == "S11":
            end = tx(t, "third foul in a row (%s): -16, re-rack 15", foul)
        elif foul:
            end = tx(t, "foul %s", foul_text(foul, t))
        elif a["winner"] == me:
            end = tx(t, "won the match")
        elif b["breaking"] and not balls:
            end = tx(t, "break, nothing in")
        elif balls:
            end = tx(t, "%d made", balls)
        elif ev.get("call") == "safety":
            end = tx(t, "safety")
        elif note.get("spot"):
            end = tx(t, "%d in, not as called: spotted", note["spot"])
        else:
            end = tx(t, "miss")
        e["end"] = end
        if not balls or foul or a["winner"] == me:
            e["log"].append(end)
        if rack and rack not in ("S11", "S4"):
            e["log"].append(tx(t, RACKS[rack]) if rack in RACKS else rack)

    # -------------------------------------------------------- 8-ball, 9-ball
    def _rack(self, s):
        e = {"rack": s["rack"], "breaker": s["shooter"], "breaks": [], "winner": None,
             "how": None, "end": None, "lost_by": None, "break_and_run": False, "fouls": [0, 0],
             "foul_rules": [], "push_outs": [0, 0], "balls": [0, 0], "shots": [0, 0],
             "racks_after": [s["p"][0]["racks"], s["p"][1]["racks"]],
             "innings_after": [s["p"][0]["innings"], s["p"][1]["innings"]],
             "finished": False, "notes": [], "ended_at": None, "_since_break": set()}
        self.racks.append(e)
        return e

    def shot_rack(self, b, a, ev, names, at=None):
        me = b["shooter"]
        e = self.racks[-1] if self.racks else self._rack(b)
        note = a["note"] or {}
        foul = note.get("foul")
        pots = [x for x in ev.get("pots") or [] if x]
        if b["breaking"]:
            e["breaker"] = me
            e["breaks"].append({"by": me, "balls": pots, "made": len(pots), "dry": not pots,
                                "foul": foul})
            e["_since_break"] = set()
        e["_since_break"].add(me)
        e["shots"][me] += 1
        e["balls"][me] += a["p"][me]["balls"] - b["p"][me]["balls"]
        if foul:
            e["fouls"][me] += 1
            e["foul_rules"].append([me, foul])
        if ev.get("call") == "push":
            e["push_outs"][me] += 1
            e["notes"].append(tx(self.lang, "%s pushed out", names[me]))
        for x in note.get("spot") or []:
            e["notes"].append(tx(self.lang, "the %d spotted", x))
        e["racks_after"] = [a["p"][0]["racks"], a["p"][1]["racks"]]
        e["innings_after"] = [a["p"][0]["innings"], a["p"][1]["innings"]]
        end = note.get("end")
        if end:
            w = note["won"]
            # a loss (E12, N11): the other player lost the rack, the winner did not win it so
            e.update(winner=w, end=end, how=HOW.get(end, end), finished=True, ended_at=at,
                     lost_by=1 - w if end in LOSSES else None,
                     break_and_run=w == e["breaker"] and e["_since_break"] == {w}
                     and end not in LOSSES)
            if a["winner"] is None:
                self._rack(a)

    def choose(self, b, a, ev, names):
        by = b["pending"][0]
        note = a["note"] or {}
        opt = ev["option"]
        text = "%s %s" % (names[by], tx(self.lang, CHOICES[opt]) if opt in CHOICES else opt)
        if ev.get("breaker") is not None:
            text += tx(self.lang, " (%s breaks)", names[ev["breaker"]])
        if b["game"] == "14.1":
            last = self.innings[-1] if self.innings else None
            if last is not None:
                last["log"].append(text)
        elif self.racks:
            self.racks[-1]["notes"].append(text)
            if note.get("rack"):
                self.racks[-1]["breaker"] = a["shooter"]


_FIELDS = ("game", "rack", "shooter", "breaking", "pending", "winner", "names", "target", "race",
           "brk", "three", "nine")
_PLAYER = ("score", "racks", "fouls", "innings", "run", "high_run", "balls")


def _snap(m) -> "dict[str, Any] | None":
    # What the sheet reads of match m now (firmware.match.Match queries), as a dict of copies
    # (the core changes its state in place), None before the new event; "p": the players.
    if m.get("game") is None:
        return None
    s: "dict[str, Any]" = {k: rules.copy(m.get(k)) for k in _FIELDS}
    s["ten"] = m.get("ten") if s["game"] == "10ball" else None   # (10-ball's field only)
    s["note"] = rules.copy(m.get("note"))
    s["p"] = [{k: m.player(i, k) for k in _PLAYER} for i in (0, 1)]
    return s


def _stats_141(sheet, s):
    out = []
    for i in (0, 1):
        p = s["p"][i]
        mine = [e for e in sheet.innings if e["player"] == i]
        safe = len([e for e in mine if e["safety_only"]])
        inn = p["innings"]
        out.append({
            "name": s["names"][i], "score": p["score"], "innings": inn,
            "high_run": p["high_run"], "balls": p["balls"],
            "average": _avg(p["score"], inn),
            "average_without_safeties": _avg(p["score"], inn - safe),
            "safety_innings": safe, "balls_per_inning": _avg(p["balls"], inn),
            "fouls": sum(e["fouls"] for e in mine),
            "penalty_points": sum(e["penalty"] for e in mine),
            "breaking_violations": sum(e["breaking_violations"] for e in mine),
            "three_foul_penalties": sum(e["three_fouls"] for e in mine),
            "racks_completed": len([r for e in mine for r in e["racks"]
                                    if r not in ("S11", "S4")]),
            "target": s["target"][i]})
    return out


def _stats_rack(sheet, s):
    out = []
    for i in (0, 1):
        p = s["p"][i]
        breaks = [x for r in sheet.racks for x in r["breaks"] if x["by"] == i]
        st = {
            "name": s["names"][i], "racks": p["racks"], "innings": p["innings"],
            "high_run": p["high_run"], "balls": p["balls"],
            "breaks": len(breaks), "balls_on_break": sum(x["made"] for x in breaks),
            "balls_on_each_break": [x["made"] for x in breaks],
            "dry_breaks": len([x for x in breaks if x["dry"]]),
            "break_fouls": len([x for x in breaks if x["foul"]]),
            "break_and_runs": len([r for r in sheet.racks if r["break_and_run"]
                                   and r["winner"] == i]),
            "fouls": sum(r["fouls"][i] for r in sheet.racks),
            "racks_won_by": {}, "racks_won_on_loss": {}, "racks_lost_by": {},
            "race": s["race"][i]}
        if s["game"] in ("9ball", "10ball"):  # N7, T5
            st["push_outs"] = sum(r["push_outs"][i] for r in sheet.racks)
        # how each rack was won by own play, won on the other player's loss (E12, N11: the
        # 8 made early is the loser's, not the winner's), lost
        for r in sheet.racks:
            if r["winner"] is None:
                continue
            k = ("racks_won_by" if r["lost_by"] is None else "racks_won_on_loss") \
                if r["winner"] == i else "racks_lost_by" if r["lost_by"] == i else None
            if k:
                st[k][r["how"]] = st[k].get(r["how"], 0) + 1
        out.append(st)
    return out


def build(read: Read, date=None, lang=None):
    """The scoresheet record (a JSON-able dict) of one match as read, or None if nothing of it
    could be read (no new-match event). Its texts are in lang, else in the language the match
    was played in (the new event's lang), else in English."""
    if lang is None:
        first = read.events[0] if read.events else {}
        lang = first.get("lang") if first.get("t") == "new" else None
    lang = lang if lang in LANGS else "en"
    m = Match()
    sheet = _Sheet(lang)
    stop = read.stop
    times = list(read.times)[:len(read.events)]
    times += [None] * (len(read.events) - len(times))
    first = read.events[0] if read.events else {}
    clock_on = first.get("t") == "new" and first.get("clock") is not None  # (O7)
    shot_s: list = [[], []]  # each player's time a shot, seconds (the shot clock on)
    exts = [0, 0]  # extensions used (K3)
    prev = None  # the time of the last event before, extensions left out
    ended = None  # the time of the event that won the match
    snap = _snap(m)  # the match before the next event: the one after the last (only read)
    for i, ev in enumerate(read.events):
        at = times[i]
        before = snap
        try:
            m.apply(ev)
        except (rules.Refused, fevents.BadEvent) as e:
            if stop is None:
                stop = Stop(os.path.basename(read.path), "event %d refused by the rules core "
                            "(%s)" % (i + 1, e))
            break
        a: dict = _snap(m)  # type: ignore[assignment]  # not None after an accepted event
        snap = a
        t = ev["t"]
        if t == "new":
            sheet.new = ev
        elif t == "lag":
            sheet.lag = ev["breaker"]
            if a["game"] != "14.1":
                sheet._rack(a)
        elif t == "shot":
            if clock_on and at is not None and prev is not None and before is not None \
                    and before["shooter"] is not None and at >= prev:
                shot_s[before["shooter"]].append(at - prev)  # K1: from the record before
            if a["game"] == "14.1":
                sheet.shot_141(before, a, ev, at)
            else:
                sheet.shot_rack(before, a, ev, a["names"], at)
        elif t == "choose":
            sheet.choose(before, a, ev, a["names"])
        elif t == "ext":
            exts[(a["note"] or {}).get("ext", before["shooter"] if before else 0)] += 1  # K3
        if t != "ext":
            prev = at
        if ended is None and a["winner"] is not None:
            ended = at
    s = _snap(m)
    if s is None:
        return None
    g = s["game"]
    names = s["names"]
    if g == "14.1":
        stats = _stats_141(sheet, s)
        points = [p["score"] for p in stats]
    else:
        stats = _stats_rack(sheet, s)
        points = [p["racks"] for p in stats]
        for r in sheet.racks:
            del r["_since_break"]
    if clock_on:
        for i in (0, 1):
            n = len(shot_s[i])
            stats[i]["shot_time_average"] = round(sum(shot_s[i]) / n, 1) if n else None
            stats[i]["shots_timed"] = n
            stats[i]["extensions"] = exts[i]
    target = s["target"] if g == "14.1" else s["race"]
    handicap = target[0] != target[1]
    w = s["winner"]
    start = read.started
    end = ended if w is not None else read.last
    if date is None and start is not None:
        date = time.strftime("%Y-%m-%d", time.localtime(start))
    rec = {
        "schema": SCHEMA, "name": read.name, "date": date, "lang": lang,
        "clock": read.clock(), "shot_clock": clock_on,
        "time": {"start": start, "end": end,
                 "duration_s": end - start if start is not None and end is not None else None,
                 "start_utc": _iso(start), "end_utc": _iso(end),
                 "start_text": local_time(start), "end_text": local_time(end)},
        "source": read.source(), "complete": stop is None,
        "stop": stop.as_dict() if stop else None,
        "game": g, "game_name": tx(lang, GAME_NAMES[g]), "players": list(names),
        "settings": {"target": list(s["target"]) if g == "14.1" else None,
                     "race": list(s["race"]) if g != "14.1" else None,
                     "break": s["brk"] if g != "14.1" else None, "three_foul": s["three"],
                     "nine_on_break": s["nine"] if g == "9ball" else None,
                     "ten_on_break": s["ten"] if g == "10ball" else None},
        "handicap": handicap, "lag": sheet.lag,
        "result": {"finished": w is not None, "winner": w,
                   "winner_name": names[w] if w is not None else None,
                   "score" if g == "14.1" else "racks": points},
        "racks_played": s["rack"],
        "stats": stats, "final_state": m.state(),
    }
    if g == "14.1":
        if w is None and sheet.innings and sheet.innings[-1]["player"] == s["shooter"]:
            sheet.innings[-1]["log"].append(tx(lang, "still at the table"))
        rec["innings"] = sheet.innings
    else:
        rec["racks"] = sheet.racks
    return rec


# ---------------------------------------------------------------- CSV

CSV_141 = ("turn", "player", "name", "inning", "points", "penalty", "fouls", "foul_rules",
           "breaking_violations", "three_fouls", "safety_only", "run", "score", "end",
           "racks", "log", "ended_utc")
CSV_RACK = ("rack", "breaker", "breaker_name", "break_balls", "balls_on_break", "dry_break",
            "break_foul", "winner", "winner_name", "how", "end_rule", "break_and_run",
            "p1_fouls", "p2_fouls", "p1_push_outs", "p2_push_outs", "p1_balls", "p2_balls",
            "p1_racks", "p2_racks", "p1_innings", "p2_innings", "finished", "notes",
            "ended_utc")


def _yn(v):
    return "yes" if v else "no"


def csv_text(rec):
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    names = rec["players"]
    if rec["game"] == "14.1":
        w.writerow(CSV_141)
        for e in rec["innings"]:
            w.writerow([e["turn"], e["player"] + 1, names[e["player"]], e["inning"],
                        e["points"], e["penalty"], e["fouls"], " ".join(e["foul_rules"]),
                        e["breaking_violations"], e["three_fouls"], _yn(e["safety_only"]),
                        e["run"], e["score"], e["end"], " ".join(e["racks"]),
                        "; ".join(e["log"]), _iso(e["ended_at"]) or ""])
    else:
        w.writerow(CSV_RACK)
        for r in rec["racks"]:
            last = r["breaks"][-1] if r["breaks"] else None
            br = r["breaker"]
            w.writerow([r["rack"], "" if br is None else br + 1,
                        "" if br is None else names[br],
                        " | ".join(" ".join(map(str, x["balls"])) or "-" for x in r["breaks"]),
                        last["made"] if last else "", _yn(last and last["dry"]),
                        (last["foul"] or "") if last else "",
                        "" if r["winner"] is None else r["winner"] + 1,
                        "" if r["winner"] is None else names[r["winner"]],
                        tx(rec["lang"], r["how"]) if r["how"] else "", r["end"] or "",
                        _yn(r["break_and_run"]),
                        r["fouls"][0], r["fouls"][1], r["push_outs"][0], r["push_outs"][1],
                        r["balls"][0], r["balls"][1], r["racks_after"][0], r["racks_after"][1],
                        r["innings_after"][0], r["innings_after"][1], _yn(r["finished"]),
                        "; ".join(r["notes"]), _iso(r["ended_at"]) or ""])
    return f.getvalue()


# ---------------------------------------------------------------- HTML

def _env():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(os.path.join(os.path.dirname(__file__), "templates")),
        autoescape=True, trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)


def fmt(v):
    """A number as the sheets print it (and the tests read it back)."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return "%.2f" % v
    return str(v)


def _rows_141(rec):
    # Inning k of both players side by side, as on a 14.1 league sheet.
    cols = [[e for e in rec["innings"] if e["player"] == i] for i in (0, 1)]
    n = max(len(cols[0]), len(cols[1]))
    return [[cols[i][k] if k < len(cols[i]) else None for i in (0, 1)] for k in range(n)]


def _totals(rec):
    # (label, key) rows of the totals table, per game, in the sheet's language; with the shot
    # clock on, each player's time a shot and extensions.
    rows = _total_rows(rec)
    if rec["shot_clock"]:
        rows += [("Average time a shot (seconds)", "shot_time_average"),
                 ("Shots timed", "shots_timed"), ("Extensions used", "extensions")]
    return [(tx(rec["lang"], label), key) for label, key in rows]


def _total_rows(rec):
    if rec["game"] == "14.1":
        return [("Score", "score"), ("Innings", "innings"), ("High run", "high_run"),
                ("Balls made", "balls"), ("Average (points per inning)", "average"),
                ("Balls per inning (the board's Bl/inn)", "balls_per_inning"),
                ("Average without safety innings", "average_without_safeties"),
                ("Safety innings", "safety_innings"), ("Fouls", "fouls"),
                ("Penalty points", "penalty_points"),
                ("Breaking violations (S4)", "breaking_violations"),
                ("Three-foul penalties (S11)", "three_foul_penalties"),
                ("Racks completed", "racks_completed")]
    rows = [("Racks won", "racks"), ("Innings", "innings"), ("High run (balls)", "high_run"),
            ("Balls made", "balls"), ("Breaks", "breaks"),
            ("Balls made on the break", "balls_on_break"), ("Dry breaks", "dry_breaks"),
            ("Break fouls", "break_fouls"), ("Break and runs", "break_and_runs"),
            ("Fouls", "fouls")]
    if rec["game"] in ("9ball", "10ball"):
        rows.append(("Push outs", "push_outs"))
    return rows


def html_text(rec, png_name=None):
    lang = rec["lang"]

    def t(text, *args):
        return tx(lang, text, *args)

    def how(k):
        # how a rack ended: by whom, when it was the loser's (E12, N11)
        if not k["how"]:
            return t("in play") if not k["finished"] else ""
        h = t(k["how"])
        if k["lost_by"] is not None:
            h = t("%s lost the rack: %s", rec["players"][k["lost_by"]], h)
        return h

    return _env().get_template("scoresheet.html").render(
        r=rec, fmt=lambda v: t(fmt(v)) if isinstance(v, bool) else fmt(v),
        rows141=_rows_141(rec) if rec["game"] == "14.1" else None, totals=_totals(rec),
        png=png_name, foul_text=lambda rule: foul_text(rule, lang), t=t, how=how,
        clock_time=lambda v: local_time(v, False), duration=duration_text)


# ---------------------------------------------------------------- PNG

def chart_png(rec, path):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 3.4), dpi=110)
    ax = fig.add_subplot(1, 1, 1)
    names = rec["players"]
    lang = rec["lang"]
    styles: list[dict[str, Any]] = [dict(color="black", linestyle="-", marker="o"),
              dict(color="#555555", linestyle="--", marker="s")]
    if rec["game"] == "14.1":
        for i in (0, 1):
            mine = [e for e in rec["innings"] if e["player"] == i]
            xs = [0] + [e["inning"] for e in mine]
            ys = [0] + [e["score"] for e in mine]
            ax.plot(xs, ys, label=names[i], markersize=3.5, linewidth=1.6, **styles[i])
        t = rec["settings"]["target"]
        for i in (0, 1) if t[0] != t[1] else (0,):
            ax.axhline(t[i], color="#888888", linewidth=0.8, linestyle=":")
            ax.annotate(tx(lang, "target %d", t[i]) + (" (%s)" % names[i] if t[0] != t[1] else ""),
                        (1, t[i]), xycoords=ax.get_yaxis_transform(), xytext=(-2, 2),
                        textcoords="offset points", fontsize=7, ha="right")
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xlabel(tx(lang, "inning"))
        ax.set_ylabel(tx(lang, "score"))
        ax.set_title(tx(lang, "%s: running score, %s v %s", rec["game_name"], names[0], names[1]),
                     fontsize=10)
    else:
        racks = [r for r in rec["racks"] if r["finished"]]
        for i in (0, 1):
            xs = [0] + [r["rack"] for r in racks]
            ys = [0] + [r["racks_after"][i] for r in racks]
            ax.plot(xs, ys, label=names[i], markersize=4, linewidth=1.8, **styles[i])
        race = rec["settings"]["race"]
        for i in (0, 1) if race[0] != race[1] else (0,):
            ax.axhline(race[i], color="#888888", linewidth=0.8, linestyle=":")
            ax.annotate(tx(lang, "race to %d", race[i]) + (" (%s)" % names[i] if race[0] != race[1]
                                                           else ""),
                        (1, race[i]), xycoords=ax.get_yaxis_transform(), xytext=(-2, 2),
                        textcoords="offset points", fontsize=7, ha="right")
        ax.set_xlabel(tx(lang, "rack"))
        ax.set_ylabel(tx(lang, "racks won"))
        top = max(race) + 1
        ax.set_ylim(-0.2, top + 0.3)
        ax.set_yticks(range(0, top))
        n = max([r["rack"] for r in racks] or [0])
        ax.set_xticks(range(0, n + 1))
        ax.set_xlim(-0.3, n + 0.6)
        ax.set_title(tx(lang, "%s: racks won, %s v %s", rec["game_name"], names[0], names[1]),
                     fontsize=10)
    if rec["stop"]:
        ax.text(0.99, 0.02, tx(lang, "record stops early"), transform=ax.transAxes, ha="right",
                fontsize=7, style="italic")
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(path, facecolor="white")


# ---------------------------------------------------------------- files

def write_sheets(rec, out, name=None):
    """Write NAME.json, .csv, .html, .png of a record into the folder out; their paths."""
    name = name or rec["name"]
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, name)
    paths = [base + ext for ext in (".json", ".csv", ".html", ".png")]
    with open(paths[0], "w", encoding="utf-8") as f:
        json.dump(rec, f, ensure_ascii=False, indent=1)
        f.write("\n")
    with open(paths[1], "w", encoding="utf-8", newline="") as f:
        f.write(csv_text(rec))
    chart_png(rec, paths[3])
    with open(paths[2], "w", encoding="utf-8") as f:
        f.write(html_text(rec, os.path.basename(paths[3])))
    return paths


def summary_row(rec):
    st = rec["stats"]
    g = rec["game"]
    row = {"name": rec["name"], "game": rec["game_name"], "date": rec["date"],
           "start": rec["time"]["start_text"] or None, "duration_s": rec["time"]["duration_s"],
           "clock": rec["clock"],
           "p1": rec["players"][0], "p2": rec["players"][1],
           "winner": rec["result"]["winner_name"], "finished": rec["result"]["finished"],
           "p1_result": st[0]["score" if g == "14.1" else "racks"],
           "p2_result": st[1]["score" if g == "14.1" else "racks"],
           "p1_innings": st[0]["innings"], "p2_innings": st[1]["innings"],
           "p1_high_run": st[0]["high_run"], "p2_high_run": st[1]["high_run"],
           "p1_average": st[0].get("average"), "p2_average": st[1].get("average"),
           "p1_fouls": st[0]["fouls"], "p2_fouls": st[1]["fouls"],
           "racks_played": rec["racks_played"],
           "stop": rec["stop"]["text"] if rec["stop"] else None}
    return row


SUMMARY_COLS = ("name", "game", "date", "start", "duration_s", "clock", "p1", "p2", "p1_result", "p2_result", "winner",
                "finished", "p1_innings", "p2_innings", "p1_high_run", "p2_high_run",
                "p1_average", "p2_average", "p1_fouls", "p2_fouls", "racks_played", "stop")


def write_summary(rows, errors, out):
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, "summary" + ext) for ext in (".json", ".csv", ".html")]
    with open(paths[0], "w", encoding="utf-8") as f:
        json.dump({"schema": SCHEMA, "matches": rows, "errors": errors}, f,
                  ensure_ascii=False, indent=1)
        f.write("\n")
    with open(paths[1], "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(SUMMARY_COLS)
        for r in rows:
            w.writerow(["" if r[k] is None else fmt(r[k]) for k in SUMMARY_COLS])
    with open(paths[2], "w", encoding="utf-8") as f:
        f.write(_env().get_template("summary.html").render(rows=rows, errors=errors, fmt=fmt,
                                                                duration=duration_text))
    return paths


def _unique(name, used):
    n, k = name, 1
    while n in used:
        k += 1
        n = "%s-%d" % (name, k)
    used.add(n)
    return n


def make_sheets(inputs, out, summary=False, date=None, err=None, lang=None):
    """Sheets for every match in inputs (paths) into out, each in lang or else in the language
    its match was played in. Returns (written paths, summary rows, errors as text); every
    problem is reported on err (default stderr), none raises."""
    err = err or sys.stderr
    written, rows, errors, used = [], [], [], set()
    for path in inputs:
        for r in journal_read.read_path(path):
            if isinstance(r, Exception):
                errors.append("error: %s" % r)
                err.write(errors[-1] + "\n")
                continue
            try:
                rec = build(r, date, lang)
                if rec is None:
                    why = r.stop.text() if r.stop else "no events"
                    errors.append("error: %s: nothing readable (%s)" % (r.path, why))
                    err.write(errors[-1] + "\n")
                    continue
                name = _unique(rec["name"], used)
                rec["name"] = name
                written += write_sheets(rec, out, name)
            except Exception as e:  # a bug must not cost the other matches their sheets
                errors.append("error: %s: could not write its sheet: %s: %s"
                              % (r.path, type(e).__name__, e))
                err.write(errors[-1] + "\n")
                continue
            rows.append(summary_row(rec))
            if rec["stop"]:
                errors.append("%s (%s): %s; the sheet holds the %d events before it"
                              % (name, r.path, rec["stop"]["text"], len(r.events)))
                err.write(errors[-1] + "\n")
    if summary:
        written += write_summary(rows, errors, out)
    return written, rows, errors


def sheets_for_store(store_copy, out, date=None):
    """For `make pull`: sheets and the summary of every match in a local copy of a board's store
    folder (match/ and hist/). Returns (written paths, summary rows, errors)."""
    return make_sheets([store_copy], out, summary=True, date=date)


def main(argv):
    from host_tools import cli

    ap = cli.parser("host_tools.scoresheet", "League scoresheets from match records: NAME.json, "
                    ".csv, .html (A4) and .png (chart) per match.")
    ap.add_argument("inputs", nargs="+", metavar="INPUT",
                    help="event file, journal folder, store folder or folder of event files")
    ap.add_argument("--out", required=True, metavar="DIR", help="where the sheets go")
    ap.add_argument("--summary", action="store_true", help="also write summary.{json,csv,html}")
    ap.add_argument("--date", help="the date printed on the sheets (YYYY-MM-DD)")
    ap.add_argument("--lang", choices=LANGS,
                    help="the sheets' language (default: each match's, the board's at its start)")
    args = ap.parse_args(argv)
    written, rows, errors = make_sheets(args.inputs, args.out, args.summary, args.date,
                                        lang=args.lang)
    for r in rows:
        print("%s: %s, %s v %s -> %s" % (r["name"], r["game"], r["p1"], r["p2"],
                                         os.path.join(args.out, r["name"] + ".{json,csv,html,png}")))
    if args.summary:
        print("summary: %s" % os.path.join(args.out, "summary.{json,csv,html}"))
    return 1 if errors else 0


if __name__ == "__main__":
    from host_tools import cli

    cli.run(main, sys.argv[1:])
