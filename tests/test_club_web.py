# CPython only: the room view's web side (host_tools.club.web) through aiohttp's test client:
# the room JSON and pages, an update pushed by Server-Sent Events after an event with no
# reload, and the results' JSON and CSV.
import asyncio
import csv
import io
import json

from aiohttp.test_utils import TestClient, TestServer

from firmware.match import Match
from host_tools.club.room import Room
from host_tools.club.store import Store
from host_tools.club.web import Hub, make_app
from tests.test_club import events, records

NAME = "ten-ball-break-and-run"


def run(coro_fn):
    async def go():
        hub = Hub(Room(Store()))
        async with TestClient(TestServer(make_app(hub))) as client:
            await coro_fn(hub, client)
    asyncio.run(go())


async def _sse(resp):
    # The next Server-Sent Event of the stream: (event name, data decoded).
    name, data = None, []
    while True:
        line = (await asyncio.wait_for(resp.content.readline(), 5)).decode().rstrip("\n")
        if not line:
            if name or data:
                return name, json.loads("\n".join(data))
            continue
        k, _, v = line.partition(": ")
        if k == "event":
            name = v
        elif k == "data":
            data.append(v)


def test_room_json_and_pages():
    async def t(hub, client):
        for r in records(NAME):
            hub.feed("event", "club/1", r)
        hub.feed("status", "club/1", "online")
        room = await (await client.get("/api/room")).json()
        assert [v["table"] for v in room] == ["club/1"]
        m = Match()
        for ev in events(NAME):
            m.apply(ev)
        v = room[0]
        assert v["status"] == "online" and not v["stale"]
        assert [p["racks"] for p in v["match"]["players"]] == \
            [p["racks"] for p in m.state()["players"]]
        assert v["match"]["race"] == list(m.get("race") or ())
        one = await (await client.get("/api/table/club/1")).json()
        assert one["match"] == v["match"]
        assert (await client.get("/api/table/club/9")).status == 404
        html = await (await client.get("/")).text()
        assert "<title>Room view</title>" in html and "/api/stream" in \
            await (await client.get("/static/club.js")).text()
        ov = await (await client.get("/overlay/club/1")).text()
        assert "1920px" in ov and "1080px" in ov and "background: transparent" in ov
        assert "<h1>Results</h1>" in await (await client.get("/results")).text()
    run(t)


def test_an_event_is_pushed_to_an_open_stream_without_a_reload():
    async def t(hub, client):
        recs = records(NAME)
        hub.feed("event", "club/2", recs[0])
        resp = await client.get("/api/stream")
        name, room = await _sse(resp)
        assert name == "room" and room[0]["match"]["seq"] == 0
        for r in recs[1:3]:
            hub.feed("event", "club/2", r)
        seen = [await _sse(resp) for _ in range(2)]
        assert [(n, d["table"], d["match"]["seq"]) for n, d in seen] == \
            [("table", "club/2", 1), ("table", "club/2", 2)]
        hub.feed("event", "club/2", recs[2])  # a duplicate: nothing changes, nothing pushed
        hub.feed("status", "club/2", "offline")
        name, d = await _sse(resp)
        assert d["status"] == "offline" and d["stale"] and d["match"]["seq"] == 2
        resp.close()
    run(t)


def test_results_json_and_csv():
    async def t(hub, client):
        for r in records(NAME, match="final-1"):
            hub.feed("event", "club/3", r)
        for r in records("straight-pool-cs4-s11", match="sp-1"):
            hub.feed("event", "club/4", r)
        recs = await (await client.get("/results.json")).json()
        assert {r["id"] for r in recs} == {"final-1", "sp-1"}
        for r in recs:
            for k in ("id", "location", "table", "game", "player1_id", "player2_id",
                      "scores_csv", "winner_id", "started_at", "completed_at", "racks",
                      "break_and_runs", "fouls"):
                assert k in r, k
        rows = list(csv.DictReader(io.StringIO(await (await client.get("/results.csv")).text())))
        assert {r["id"]: r["scores_csv"] for r in rows} == {r["id"]: r["scores_csv"] for r in recs}
        one = await (await client.get("/results/club/3/final-1.json")).json()
        assert one == next(r for r in recs if r["id"] == "final-1")
        text = await (await client.get("/results/club/3/final-1.csv")).text()
        racks = list(csv.DictReader(io.StringIO(text)))
        assert [r["rack_winner"] for r in racks] == [k["winner"] for k in one["racks"]]
        assert (await client.get("/results/club/3/nothing.json")).status == 404
    run(t)
