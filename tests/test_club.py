# CPython only: the room view's store and replay (host_tools.club): every record is kept once
# by (table, match id, seq) whatever the broker delivers twice or out of order, and the view's
# state is the rules core's after the journal's records in order; a missing seq is a gap the
# view waits at.
import json
import random
from pathlib import Path

import pytest

from firmware.match import Match
from host_tools.club import results
from host_tools.club.room import Room
from host_tools.club.store import Store

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
# Matches a board would publish: every event accepted (no .refusals.json), undos included
# (a journal's "u" record is a record of its own, with its own seq).
NAMES = sorted(p.name[:-6] for p in SCENARIOS.glob("*.jsonl")
               if not (SCENARIOS / (p.name[:-6] + ".refusals.json")).exists())


def events(name):
    return [json.loads(line) for line in (SCENARIOS / (name + ".jsonl")).read_text().splitlines()
            if line.strip()]


def records(name, match="m1"):
    # The journal's records as a table publishes them: seq 0 is the new event (journal record 0)
    return [{"match": match, "seq": i, "ev": ev, "at": 1_700_000_000 + 60 * i}
            for i, ev in enumerate(events(name))]


def core_state(evs):
    m = Match()
    for ev in evs:
        m.apply(ev)
    return m


def test_scenarios_cover_every_game_and_undo():
    games = {events(n)[0]["game"] for n in NAMES}
    assert games == {"14.1", "8ball", "9ball", "10ball"}
    assert any(ev["t"] == "undo" for n in NAMES for ev in events(n))


@pytest.mark.parametrize("name", NAMES)
def test_duplicates_and_out_of_order_delivery_give_the_core_state(name):
    recs = records(name)
    rng = random.Random(name)
    extra = [rng.choice(recs) for _ in range(len(recs) // 2 + 1)]  # QoS 1 redeliveries
    delivered = recs + extra
    rng.shuffle(delivered)
    room = Room(Store())
    new = [room.record("club/1", r) for r in delivered]
    assert sum(new) == len(recs)  # each record counted once
    assert room.store.duplicates == len(extra)
    assert room.store.count() == len(recs)
    stored = room.store.events("club/1", "m1")
    assert [s for s, _, _ in stored] == list(range(len(recs)))
    assert [ev for _, ev, _ in stored] == [r["ev"] for r in recs]
    m = core_state(events(name))
    v = room.view("club/1")
    assert not v["waiting"] and v["gap"] is None
    want = m.state()
    got = {k: v["match"][k] for k in want if k != "players"}
    assert got == {k: want[k] for k in want if k != "players"}
    for i in (0, 1):
        p = v["match"]["players"][i]
        assert {k: p[k] for k in want["players"][i]} == want["players"][i]
        assert p["warned"] == m.warned(i)
    assert v["match"]["seq"] == len(recs) - 1


@pytest.mark.parametrize("name", ["ten-ball-break-and-run", "straight-pool-cs4-s11"])
def test_a_missing_record_is_a_gap_the_view_waits_at(name):
    recs = records(name)
    k = len(recs) // 2
    room = Room(Store())
    for r in recs[:k] + recs[k + 1:]:
        room.record("club/2", r)
    v = room.view("club/2")
    assert v["waiting"] and v["gap"] == [k, k]
    assert v["match"]["seq"] == k - 1  # the replay stops before the gap
    assert v["match"]["players"][0]["name"] == recs[0]["ev"]["players"][0]
    prefix = core_state(events(name)[:k]).state()
    assert v["match"]["rack"] == prefix["rack"] and v["match"]["winner"] == prefix["winner"]
    room.record("club/2", recs[k])  # the board's catch-up fills it
    v = room.view("club/2")
    assert not v["waiting"]
    assert v["match"]["winner"] == core_state(events(name)).state()["winner"]


def test_records_before_the_new_event_wait_for_it():
    recs = records("nine-ball-push-three-fouls")
    room = Room(Store())
    for r in recs[1:]:
        room.record("club/3", r)
    v = room.view("club/3")
    assert v["waiting"] and v["match"] is None
    room.record("club/3", recs[0])
    assert room.view("club/3")["match"]["winner"] == core_state(events(
        "nine-ball-push-three-fouls")).state()["winner"]


def test_the_store_on_disk_gives_the_same_room_after_a_restart(tmp_path):
    db = tmp_path / "club.sqlite"
    room = Room(Store(str(db)))
    for name, tbl in (("eight-ball-three-fouls", "c/1"), ("ten-ball-push-pass", "c/2")):
        for r in records(name, match=name):
            room.record(tbl, r)
    room.status("c/1", "online")
    before = {t: room.view(t)["match"] for t in room.tables}
    room.store.close()
    again = Room(Store(str(db)))
    assert {t: again.view(t)["match"] for t in again.tables} == before
    assert again.tables["c/1"]["status"] == "online"
    # a record delivered again after the restart is still a duplicate
    assert not again.record("c/1", records("eight-ball-three-fouls",
                                           match="eight-ball-three-fouls")[3])


def test_a_new_match_on_a_table_becomes_its_current_one():
    room = Room(Store())
    for r in records("ten-ball-break-and-run", match="a"):
        room.record("c/4", r)
    assert room.view("c/4")["match"]["match"] == "a"
    room.record("c/4", records("nine-ball-push-out", match="b")[0])
    assert room.view("c/4")["match"]["match"] == "b"
    assert {m for _, m in room.results()} == {"a", "b"}


def test_a_table_offline_or_silent_is_stale():
    now = [1000.0]
    room = Room(Store(), stale=60, clock=lambda: now[0])
    room.record("c/5", records("nine-ball-push-out")[0])
    assert not room.view("c/5")["stale"]
    now[0] += 61
    assert room.view("c/5")["stale"]
    room.state("c/5", {"match": "m1", "seq": 0, "clock": 30})
    assert not room.view("c/5")["stale"]
    assert room.view("c/5")["shot_clock"] == 30  # the retained state's live clock
    room.status("c/5", "offline")
    assert room.view("c/5")["stale"]


def test_the_retained_state_never_sets_the_score():
    room = Room(Store())
    recs = records("ten-ball-break-and-run")
    for r in recs:
        room.record("c/6", r)
    want = room.view("c/6")["match"]
    room.state("c/6", {"match": "m1", "seq": 0, "players": [{"racks": 99}, {"racks": 99}]})
    assert room.view("c/6")["match"] == want


def test_results_name_challonge_fields_and_hold_racks_breakers_and_fouls():
    name = "ten-ball-break-and-run"
    room = Room(Store())
    recs = records(name)
    for r in recs:
        room.record("c/7", r)
    rec = results.record(room, "c/7", "m1")
    sheet = room.sheet("c/7", "m1")
    st = core_state(events(name)).state()
    w = st["winner"]
    names = [p["name"] for p in st["players"]]
    assert rec["id"] == "m1" and rec["location"] == "table 7" and rec["table"] == "c/7"
    assert rec["state"] == "complete" and rec["winner_id"] == names[w]
    assert rec["loser_id"] == names[1 - w]
    assert [rec["player1_id"], rec["player2_id"]] == names
    assert rec["scores_csv"] == "%d-%d" % (st["players"][0]["racks"], st["players"][1]["racks"])
    assert rec["started_at"] == results.iso(recs[0]["at"])
    assert rec["completed_at"] == results.iso(recs[-1]["at"])
    assert rec["race"] == events(name)[0].get("race", [5, 5])
    won = [r for r in sheet["racks"] if r["winner"] is not None]
    assert [r["winner"] for r in rec["racks"]] == [names[r["winner"]] for r in won]
    assert [r["breaker"] for r in rec["racks"]] == [names[r["breaker"]] for r in won]
    assert rec["break_and_runs"] == [s["break_and_runs"] for s in sheet["stats"]]
    assert sum(rec["break_and_runs"]) >= 1  # the scenario's break and run
    assert rec["fouls"] == [s["fouls"] for s in sheet["stats"]]
    rows = results.csv_match(rec).splitlines()
    head = rows[0].split(",")
    assert head[:3] == ["id", "state", "location"] and "scores_csv" in head
    assert len(rows) == 1 + len(rec["racks"])
    first = dict(zip(head, rows[1].split(",")))
    assert first["breaker"] == rec["racks"][0]["breaker"]
    assert first["rack_winner"] == rec["racks"][0]["winner"]
    assert first["winner_id"] == rec["winner_id"]


def _journal_records(root, evs, cut_at):
    # A board's journal of evs (firmware.journal on the host's files) with a power cut after
    # the first record of a two-event action at event cut_at (its second never written), and
    # the records as firmware.net publishes them: {"match", "seq", "depth", "ev"}.
    from firmware import rules
    from firmware.journal import Journal

    j = Journal(root)
    m = Match(j)
    for i, ev in enumerate(evs):
        if i == cut_at:
            s = rules.apply(m.s, ev)
            j.append(ev, s, True)  # (more: the action's next event follows; it never comes)
            j.close()
            j.open()  # the board boots again: the unfinished action is dropped
            m = Match(j)
            m.rebuild()
        m.apply(ev)
    out = [{"match": "1-x", "seq": r[0], "depth": r[1],
            "ev": json.loads(r[3]) if r[2] in "eg" else {"t": "undo"}}
           for r in j.records(0, j.head + 1)]
    j.close()
    return out, m


@pytest.mark.parametrize("name", ["nine-ball-push-three-fouls", "straight-pool-cs4-s11"])
def test_the_replay_follows_the_records_depth_past_an_action_a_power_cut_left_unfinished(name):
    # docs/network.md: the board drops an action a power cut left unfinished; its records were
    # published, and the next record's depth says where the match went on from.
    from tests.helpers import scratch_dir

    evs = events(name)
    recs, board = _journal_records(scratch_dir("clubdepth"), evs, len(evs) // 2)
    assert len(recs) == len(evs) + 1  # the dropped record is still on flash, with its seq
    cut = recs[len(evs) // 2]
    assert recs[len(evs) // 2 + 1]["depth"] == cut["depth"]  # the next one: back one deep
    room = Room(Store())
    for r in recs:
        room.record("c/1", r)
    lv = room.live_of("c/1", "1-x")
    assert lv.dropped == 1 and not lv.refused
    want = core_state(evs).state()
    assert lv.m.state() == want == board.state()
    assert lv.m.events == core_state(evs).events
    # the same records without their depth give another match: the depth is what counts
    room = Room(Store())
    for r in recs:
        room.record("c/1", {k: v for k, v in r.items() if k != "depth"})
    lv = room.live_of("c/1", "1-x")
    assert lv.refused or lv.m.state() != want


def test_the_room_asks_again_for_what_it_lacks_and_less_often_while_it_still_lacks_it():
    # docs/network.md "resend": a gap, records before the new event, and a retained state
    # past the last record held are asked for from the first missing seq; nothing else is.
    now = [1000.0]
    room = Room(Store(), clock=lambda: now[0])
    recs = records("ten-ball-push-pass")
    for r in recs[:4] + recs[6:8]:
        room.record("c/1", r)  # seqs 4 and 5 missing
    for r in recs[2:5]:
        room.record("c/2", dict(r, match="m2"))  # no new event yet
    for r in recs[:3]:
        room.record("c/3", dict(r, match="m3"))
    room.state("c/3", {"match": "m3", "seq": 9})  # the board published up to 9
    room.state("c/4", {"match": "m4", "seq": 2})  # nothing of it came
    for r in recs[:3]:
        room.record("c/5", dict(r, match="m5"))
    room.state("c/5", {"match": "m5", "seq": 2})  # all of it came
    assert room.wants() == [("c/1", "m1", 4), ("c/2", "m2", 0), ("c/3", "m3", 3),
                            ("c/4", "m4", 0)]
    assert room.wants() == []  # not again at once
    waits = []
    for _ in range(8):
        start = now[0]
        while not room.wants():
            now[0] += 1
        waits.append(now[0] - start)
    assert waits[:3] == [5, 10, 20] and waits[-1] == 300  # doubled, up to ASK_MAX
    for r in recs[4:6]:
        room.record("c/1", r)  # the gap filled
    for r in recs[3:10]:
        room.record("c/3", dict(r, match="m3"))
    now[0] += 301
    assert {(t, m) for t, m, _ in room.wants()} == {("c/2", "m2"), ("c/4", "m4")}
    assert not room.view("c/1")["waiting"]
