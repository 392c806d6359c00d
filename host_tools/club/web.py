# The room view's web side (aiohttp): the room page, an OBS overlay per table, the results
# page and their JSON/CSV, and live updates by Server-Sent Events (docs/club.md).
import asyncio
import json
from pathlib import Path

from aiohttp import web

from host_tools.club import results

PAGES = Path(__file__).resolve().parent / "pages"
STALE_CHECK = 5.0  # seconds between looks for tables that went stale


class Hub:
    """The room and the pages' event streams: feed() takes one broker message (kind "event",
    "state" or "status" of table tbl) into the room and pushes the table's new view to every
    stream. ask(tbl, match, seq), where given, asks a board for a match's records from seq on
    again (Bridge.resend), for what the room lacks (Room.wants) after each message and at each
    stale check."""

    def __init__(self, room, ask=None):
        self.room = room
        self.ask = ask
        self.streams = set()  # asyncio.Queue of each open event stream
        self.stale = {}  # tbl -> stale as last pushed

    def feed(self, kind, tbl, payload):
        room = self.room
        if kind == "event":
            changed = room.record(tbl, payload)
        elif kind == "state":
            changed = room.state(tbl, payload)
        elif kind == "status":
            changed = room.status(tbl, payload)
        else:
            return False
        if changed:
            self.push(tbl)
        self.ask_missing()
        return changed

    def ask_missing(self):
        if self.ask is not None:
            for tbl, match, seq in self.room.wants():
                self.ask(tbl, match, seq)

    def push(self, tbl):
        view = self.room.view(tbl)
        self.stale[tbl] = view["stale"]
        data = json.dumps(view)
        for q in self.streams:
            q.put_nowait(("table", data))

    def close(self):
        """End every open stream (before the server shuts down)."""
        for q in self.streams:
            q.put_nowait((None, None))

    def check_stale(self):
        for tbl in list(self.room.tables):
            if self.room.view(tbl)["stale"] != self.stale.get(tbl):
                self.push(tbl)
        self.ask_missing()


HUB = web.AppKey("hub", Hub)


def _tbl(req):
    return "%s/%s" % (req.match_info["club"], req.match_info["n"])


async def page(req):
    return web.FileResponse(PAGES / req.match_info.get("page", "room.html"))


async def room_page(req):
    return web.FileResponse(PAGES / "room.html")


async def overlay_page(req):
    return web.FileResponse(PAGES / "overlay.html")


async def results_page(req):
    return web.FileResponse(PAGES / "results.html")


async def room_json(req):
    return web.json_response(req.app[HUB].room.views())


async def table_json(req):
    room = req.app[HUB].room
    tbl = _tbl(req)
    if tbl not in room.tables:
        raise web.HTTPNotFound(text="no table %s" % tbl)
    return web.json_response(room.view(tbl))


async def stream(req):
    """Server-Sent Events: "room" (every table's view) first, then "table" (one table's new
    view) whenever a record, state or status changes it."""
    hub = req.app[HUB]
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                       "Cache-Control": "no-cache"})
    await resp.prepare(req)
    q = asyncio.Queue()
    hub.streams.add(q)
    try:
        await resp.write(("event: room\ndata: %s\n\n"
                          % json.dumps(hub.room.views())).encode())
        while True:
            kind, data = await q.get()
            if kind is None:
                break
            await resp.write(("event: %s\ndata: %s\n\n" % (kind, data)).encode())
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    finally:
        hub.streams.discard(q)
    return resp


def _records(room):
    out = []
    for tbl, match in room.results():
        r = results.record(room, tbl, match)
        if r is not None:
            out.append(r)
    return out


async def results_json(req):
    return web.json_response(_records(req.app[HUB].room))


async def results_csv(req):
    return web.Response(text=results.csv_all(_records(req.app[HUB].room)),
                        content_type="text/csv")


async def result_one(req):
    room = req.app[HUB].room
    r = results.record(room, _tbl(req), req.match_info["match"])
    if r is None:
        raise web.HTTPNotFound(text="no such match")
    if req.match_info["ext"] == "csv":
        return web.Response(text=results.csv_match(r), content_type="text/csv")
    return web.json_response(r)


async def _stale_task(app):
    hub = app[HUB]

    async def loop():
        while True:
            await asyncio.sleep(STALE_CHECK)
            hub.check_stale()

    task = asyncio.ensure_future(loop())
    yield
    task.cancel()


def make_app(hub):
    app = web.Application()
    app[HUB] = hub
    app.router.add_get("/", room_page)
    app.router.add_get("/overlay/{club}/{n}", overlay_page)
    app.router.add_get("/results", results_page)
    app.router.add_get("/api/room", room_json)
    app.router.add_get("/api/table/{club}/{n}", table_json)
    app.router.add_get("/api/stream", stream)
    app.router.add_get("/results.json", results_json)
    app.router.add_get("/results.csv", results_csv)
    app.router.add_get(r"/results/{club}/{n}/{match}.{ext:json|csv}", result_one)
    app.router.add_static("/static", PAGES)
    app.cleanup_ctx.append(_stale_task)
    return app
