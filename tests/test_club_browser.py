# CPython only: the room view's pages in a real browser, headless Chromium (Debian's chromium
# and chromium-driver) driven by selenium. The room view runs as `make club` runs it (its own
# local Mosquitto, host_tools.club's serve()); three tables' records go straight into its hub,
# as tests/test_club_web.py feeds them, and the fourth table's come from a paho client through
# the broker. The room page and table 1's overlay show every table's players and score, follow
# further events without a reload, and are captured as the screenshots docs/club.md shows
# (docs/club/room.png, docs/club/overlay.png).
import asyncio
import io
import json
import os
import tempfile
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from PIL import Image

from firmware.match import Match
from host_tools.club import broker
from host_tools.club.__main__ import build_parser, serve
from host_tools.club.web import Hub
from host_tools.mpy import ROOT
from tests.test_club import events, records

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
pytestmark = [
    pytest.mark.skipif(not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)),
                       reason="chromium or chromium-driver is not installed (.ci/run installs "
                              "them)"),
    pytest.mark.skipif(broker.find() is None,
                       reason="mosquitto is not installed (.ci/run installs it)"),
]

WAIT = 20.0  # seconds a page may take to show the records delivered (a busy 2-core machine)
SHOTS = ROOT / "docs" / "club"
ROOM_SIZE, OVERLAY_SIZE = (1280, 720), (1920, 1080)

# The room of docs/club/room.png: table -> (scenario, records delivered first, records in all);
# table 3 goes offline; table 4's records come through Mosquitto.
TABLES = {
    "demo/1": ("nine-ball-push-out", 6, 7),        # 0-0, then the rack won: 1-0
    "demo/2": ("eight-ball-groups", 6, 6),
    "demo/3": ("straight-pool-opening", 10, 10),
    "demo/4": ("ten-ball-break-and-run", 11, 14),  # 1-0, then 1-1 in rack 3
}
OFFLINE = "demo/3"
BY_BROKER = "demo/4"
OVERLAY = "demo/1"


def expected(tbl, upto):
    # The players and the score column (racks, or 14.1's points) after the first upto records,
    # as the rules core computes them.
    m = Match()
    for ev in events(TABLES[tbl][0])[:upto]:
        m.apply(ev)
    s = m.state()
    key = "score" if s["game"] == "14.1" else "racks"
    return [p["name"] for p in s["players"]], [str(p[key]) for p in s["players"]]


class View:
    """The room view of `make club` (serve(): a local Mosquitto, the store, the web server) on an
    asyncio loop in a thread of its own, and a paho client standing in for a board."""

    hub: Hub
    url: str
    broker_port: int

    def __init__(self, folder):
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.failed = None
        args = build_parser().parse_args(["--db", os.path.join(folder, "club.sqlite"),
                                          "--http", "127.0.0.1:0"])
        self.thread = threading.Thread(target=self._run, args=(args,), daemon=True)
        self.thread.start()
        assert self.ready.wait(30), "the room view did not start: %r" % (self.failed,)
        self.board = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="table-4",
                                 protocol=mqtt.MQTTv311)
        self.board.connect("127.0.0.1", self.broker_port)
        self.board.loop_start()

    def _run(self, args):
        asyncio.set_event_loop(self.loop)

        def ready(hub, http_port, broker_port):
            self.hub, self.url, self.broker_port = hub, "http://127.0.0.1:%d" % http_port, \
                broker_port
            self.ready.set()

        self.task = self.loop.create_task(serve(args, ready))
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass
        except Exception as e:  # (said by the assert in __init__)
            self.failed = e
            self.ready.set()
        finally:
            self.loop.close()

    def feed(self, kind, tbl, payload):
        # hub.feed on the room view's loop, as its MQTT bridge calls it
        async def go():
            return self.hub.feed(kind, tbl, payload)
        return asyncio.run_coroutine_threadsafe(go(), self.loop).result(10)

    def publish(self, tbl, kind, payload, retain=False):
        club, n = tbl.split("/")
        data = payload if isinstance(payload, str) else json.dumps(payload)
        self.board.publish("pool/%s/table/%s/%s" % (club, n, kind), data, qos=1,
                           retain=retain).wait_for_publish(10)

    def deliver(self, upto):
        # Each table's records up to its count in upto (tbl -> n): straight into the hub, or for
        # BY_BROKER through Mosquitto; a record delivered again changes nothing (the store's key).
        for tbl, n in upto.items():
            recs = records(TABLES[tbl][0])[:n]
            if tbl == BY_BROKER:
                self.publish(tbl, "status", "online", retain=True)
                for r in recs:
                    self.publish(tbl, "event", r)
            else:
                for r in recs:
                    self.feed("event", tbl, r)
                self.feed("status", tbl, "offline" if tbl == OFFLINE else "online")

    def stop(self):
        self.board.loop_stop()
        self.board.disconnect()
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(20)


@pytest.fixture(scope="module")
def view():
    with tempfile.TemporaryDirectory(prefix="club-browser-") as folder:
        v = View(folder)
        yield v
        v.stop()


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="club-chromium-") as profile:
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        # (the network is closed here: Chromium's own background connections stay off)
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--user-data-dir=" + profile, "--window-size=1920,1080"):
            opts.add_argument(a)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
        try:
            yield driver
        finally:
            driver.quit()


def wait_for(driver, cond, what):
    from selenium.webdriver.support.ui import WebDriverWait

    last = []

    def check(d):
        got = cond(d)
        last[:] = [got]
        return got is not None and got is not False

    try:
        WebDriverWait(driver, WAIT, poll_frequency=0.05).until(check)
    except Exception as e:
        raise AssertionError("%s: not shown in %g s, last seen %r" % (what, WAIT, last)) from e
    return last[0]


# Each card of the room page: its players' names (without a "won" tag), scores, whether stale.
ROOM_JS = """
const text = e => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join("").trim();
const out = {};
for (const c of document.querySelectorAll("#tables .table")) {
  out[c.dataset.table] = {names: [...c.querySelectorAll(".p .name")].map(text),
                          scores: [...c.querySelectorAll(".p .score")].map(e => e.textContent),
                          stale: c.classList.contains("stale")};
}
return out;
"""
# The overlay's bar: names (without their tags) and scores, or null while hidden.
OVERLAY_JS = """
const text = e => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join("").trim();
const bar = document.getElementById("bar");
if (!bar || bar.className === "hidden") return null;
return {names: [...bar.querySelectorAll(".name")].map(text),
        scores: [...bar.querySelectorAll(".score")].map(e => e.textContent)};
"""


def room_shows(upto):
    want = {tbl: expected(tbl, n) for tbl, n in upto.items()}

    def cond(d):
        got = d.execute_script(ROOM_JS)
        ok = set(got) == set(want) and all(
            [got[t]["names"], got[t]["scores"]] == [*want[t]] and
            got[t]["stale"] == (t == OFFLINE) for t in want)
        return got if ok else False
    return cond


def overlay_shows(n):
    names, scores = expected(OVERLAY, n)

    def cond(d):
        got = d.execute_script(OVERLAY_JS)
        return got if got == {"names": names, "scores": scores} else False
    return cond


def test_the_pages_show_every_table_and_follow_events_without_a_reload(view, browser):
    first = {t: v[1] for t, v in TABLES.items()}
    then = {t: v[2] for t, v in TABLES.items()}
    assert any(expected(t, first[t])[1] != expected(t, then[t])[1] for t in TABLES)
    assert expected(OVERLAY, first[OVERLAY])[1] != expected(OVERLAY, then[OVERLAY])[1]
    view.deliver(first)
    browser.switch_to.new_window("tab")
    browser.get(view.url + "/")
    room_tab = browser.current_window_handle
    wait_for(browser, room_shows(first), "the room after the first records")
    browser.execute_script("window.__kept = 'room';")
    browser.switch_to.new_window("tab")
    browser.get(view.url + "/overlay/" + OVERLAY)
    overlay_tab = browser.current_window_handle
    wait_for(browser, overlay_shows(first[OVERLAY]), "the overlay after the first records")
    browser.execute_script("window.__kept = 'overlay';")

    view.deliver(then)  # the pages learn of it by their event stream alone
    wait_for(browser, overlay_shows(then[OVERLAY]), "the overlay after more records")
    assert browser.execute_script("return window.__kept;") == "overlay"  # the same document
    browser.switch_to.window(room_tab)
    wait_for(browser, room_shows(then), "the room after more records")
    assert browser.execute_script("return window.__kept;") == "room"
    assert browser.execute_script(
        "return performance.getEntriesByType('navigation').length;") == 1
    for tab in (room_tab, overlay_tab):
        browser.switch_to.window(tab)
        browser.close()
    browser.switch_to.window(browser.window_handles[0])


def capture(browser, size, boxes, transparent=False):
    # The page at exactly size CSS pixels, one device pixel each, and the boxes (left, top,
    # right, bottom) of the elements the CSS selectors boxes name, as laid out at that size; with
    # transparent, what the page leaves undrawn stays alpha 0 (as OBS's browser source shows it).
    w, h = size
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": False})
    if transparent:
        browser.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride",
                                {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    try:
        assert browser.execute_script("return [innerWidth, innerHeight];") == [w, h]
        rects = browser.execute_script(
            "return arguments[0].map(s => { const b = document.querySelector(s)"
            ".getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; });", boxes)
        png = browser.get_screenshot_as_png()
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        if transparent:
            browser.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {})
    return png, [(round(a), round(b), round(c), round(d)) for a, b, c, d in rects]


def test_the_screenshots_of_the_docs_show_the_room_and_a_transparent_overlay(view, browser):
    last = {t: v[2] for t, v in TABLES.items()}
    view.deliver(last)
    SHOTS.mkdir(parents=True, exist_ok=True)

    browser.get(view.url + "/")
    wait_for(browser, room_shows(last), "the room")
    png, cards = capture(browser, ROOM_SIZE, ['[data-table="%s"]' % t for t in TABLES])
    (SHOTS / "room.png").write_bytes(png)
    im = Image.open(io.BytesIO(png)).convert("RGB")
    assert im.size == ROOM_SIZE
    bg = (0x11, 0x11, 0x11)  # room.html's body
    assert im.getpixel((ROOM_SIZE[0] - 2, ROOM_SIZE[1] - 2)) == bg
    # every card drawn where the page lays it out, inside the picture: its border and text on
    # its own background, not the body's colour
    for tbl, box in zip(TABLES, cards):
        assert 0 <= box[0] < box[2] <= ROOM_SIZE[0] and 0 <= box[1] < box[3] <= ROOM_SIZE[1]
        part = im.crop(box)
        colours = part.getcolors(part.width * part.height) or []
        assert len(colours) > 20, (tbl, box, len(colours))
        assert sum(c for c, rgb in colours if rgb == bg) < part.width * part.height / 4, tbl

    browser.get(view.url + "/overlay/" + OVERLAY)
    wait_for(browser, overlay_shows(last[OVERLAY]), "the overlay")
    png, [(left, top, right, bottom)] = capture(browser, OVERLAY_SIZE, ["#bar"], transparent=True)
    (SHOTS / "overlay.png").write_bytes(png)
    im = Image.open(io.BytesIO(png))
    assert im.size == OVERLAY_SIZE and im.mode == "RGBA"
    alpha = im.getchannel("A")
    assert bottom == OVERLAY_SIZE[1] - 60 and 0 < left < right < OVERLAY_SIZE[0]
    # nothing drawn above and beside the bar and its shadow: the video shows through there
    assert alpha.crop((0, 0, OVERLAY_SIZE[0], top - 40)).getextrema() == (0, 0)
    assert alpha.crop((0, 0, left - 40, OVERLAY_SIZE[1])).getextrema() == (0, 0)
    assert alpha.crop((right + 40, 0, OVERLAY_SIZE[0], OVERLAY_SIZE[1])).getextrema() == (0, 0)
    # the bar itself is opaque (its background's .85 at least) and holds text
    inner = (left + 12, top + 4, right - 12, bottom - 4)
    least, _ = alpha.crop(inner).getextrema()
    assert isinstance(least, int) and least >= 200
    part = im.crop(inner).convert("RGB")
    assert len(part.getcolors(part.width * part.height) or []) > 20
