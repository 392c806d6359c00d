# CPython only: the room view end to end with a real Mosquitto on 127.0.0.1 (Debian's package,
# started on a free port by the test) and paho-mqtt publishing as a fake table: the store ends
# with every event once, whatever the broker and the table deliver twice, and a view that was
# down gets what came meanwhile from its persistent session.
import asyncio
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware.match import Match
from host_tools.club import broker
from host_tools.club.mqtt import Bridge, parse
from host_tools.club.room import Room
from host_tools.club.store import Store
from host_tools.club.web import Hub
from host_tools.mpy import ROOT
from tests.test_club import events, records

NAME = "nine-ball-push-three-fouls"


@pytest.fixture
def mosquitto(tmp_path):
    assert broker.find(), "mosquitto is not installed (.ci/run installs Debian's package)"
    b = broker.Mosquitto(folder=str(tmp_path / "broker")).start()
    yield b
    b.stop()


def table(port, client_id="table-1"):
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                    protocol=mqtt.MQTTv311)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def publish(c, topic, payload, retain=False):
    c.publish(topic, payload if isinstance(payload, str) else json.dumps(payload), qos=1,
              retain=retain).wait_for_publish(5)


async def until(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.02)
    return True


def test_topics_are_parsed_and_strangers_skipped():
    assert parse("pool/c/table/3/status", b"online") == ("status", "c/3", "online")
    assert parse("pool/c/table/3/event", b'{"match": "m", "seq": 0, "ev": {"t": "new"}}')[:2] \
        == ("event", "c/3")
    for topic, data in (("pool/c/table/3/event", b"not json"),
                        ("pool/c/table/3/event", b'{"match": "m", "ev": {}}'),
                        ("pool/c/other/3/event", b"{}"), ("pool/c/table/3/state", b"[1]")):
        assert parse(topic, data) is None


def test_every_event_once_after_duplicates_and_a_view_restart(mosquitto, tmp_path):
    recs = records(NAME)
    half = len(recs) // 2

    async def go():
        loop = asyncio.get_running_loop()
        store = Store(str(tmp_path / "club.sqlite"))
        hub = Hub(Room(store))
        bridge = Bridge(loop, hub.feed, "127.0.0.1", mosquitto.port, client_id="room-t")
        bridge.start()
        assert await until(lambda: bridge.connected)
        await asyncio.sleep(0.2)  # the subscription's SUBACK
        t = table(mosquitto.port)
        publish(t, "pool/c/table/1/status", "online", retain=True)
        # the first half, each record twice (a board resending after a lost PUBACK)
        for r in recs[:half]:
            publish(t, "pool/c/table/1/event", r)
            publish(t, "pool/c/table/1/event", r)
        assert await until(lambda: store.count() == half)
        bridge.stop()  # the room view goes down; its session keeps the QoS 1 records
        for r in reversed(recs[half:]):  # late, and out of order
            publish(t, "pool/c/table/1/event", r)
        publish(t, "pool/c/table/1/event", recs[0])
        publish(t, "pool/c/table/1/state", {"match": "m1", "seq": len(recs) - 1, "clock": None},
                retain=True)
        bridge = Bridge(loop, hub.feed, "127.0.0.1", mosquitto.port, client_id="room-t")
        bridge.start()
        assert await until(lambda: store.count() == len(recs)), store.count()
        assert await until(lambda: hub.room.tables["c/1"]["retained"] is not None)
        await asyncio.sleep(0.3)  # anything more the broker would send
        t.loop_stop()
        t.disconnect()
        bridge.stop()
        return store, hub

    store, hub = asyncio.run(go())
    got = store.events("c/1", "m1")
    assert [s for s, _, _ in got] == list(range(len(recs)))
    assert [ev for _, ev, _ in got] == [r["ev"] for r in recs]
    assert store.duplicates >= half + 1
    m = Match()
    for ev in events(NAME):
        m.apply(ev)
    v = hub.room.view("c/1")
    assert v["status"] == "online" and not v["waiting"]
    assert v["match"]["winner"] == m.state()["winner"]
    assert [p["racks"] for p in v["match"]["players"]] == [p["racks"] for p in m.state()["players"]]


def test_the_command_line_starts_its_own_mosquitto_and_serves_the_room(tmp_path):
    # What `make club` runs: no --broker, so a local Mosquitto on 127.0.0.1.
    port = broker.free_port()
    p = subprocess.Popen([sys.executable, "-m", "host_tools.club", "--db",
                          str(tmp_path / "c.sqlite"), "--http", "127.0.0.1:%d" % port],
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        m = re.search(r"broker 127\.0\.0\.1:(\d+) \(local Mosquitto\)", line)
        assert m, (line, p.stderr.read() if p.poll() is not None else "")
        t = table(int(m.group(1)), "table-5")
        recs = records("ten-ball-break-and-run")
        for r in recs:
            publish(t, "pool/x/table/5/event", r)
        url = "http://127.0.0.1:%d/api/room" % port
        end = time.monotonic() + 10
        while True:
            try:
                room = json.loads(urllib.request.urlopen(url, timeout=5).read())
            except OSError:  # (the web server may listen a moment after the broker line)
                room = None
            if room and room[0]["match"] and room[0]["match"]["seq"] == len(recs) - 1:
                break
            assert time.monotonic() < end, room
            time.sleep(0.05)
        assert room[0]["table"] == "x/5" and room[0]["match"]["winner"] is not None
        t.loop_stop()
        t.disconnect()
    finally:
        p.terminate()
        p.wait(10)
        p.stdout.close()
        p.stderr.close()
    assert p.returncode == 0
