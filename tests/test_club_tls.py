# CPython only: the room view over TLS. The test makes a CA and a server certificate for
# 127.0.0.1 with openssl, starts Mosquitto with a TLS listener (and the password file), and runs
# the room view as `python -m host_tools.club --tls-ca` does (serve()): a table publishing over
# TLS reaches its pages; a room view that does not trust the CA, or speaks plain MQTT to the
# TLS port, gets nothing.
import argparse
import asyncio
import json
import shutil
import socket
import ssl
import subprocess
import time
import urllib.request

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from host_tools.club import broker
from host_tools.club.__main__ import serve
from host_tools.club.mqtt import Bridge
from tests.test_club import records

pytestmark = pytest.mark.skipif(not broker.find() or not shutil.which("openssl"),
                                reason="needs mosquitto and openssl")
USERS = {"t1": "pw1", "room": "pwr"}


def _ca(d):
    # A CA, and the broker's key and certificate signed by it (SAN IP 127.0.0.1); another CA
    # that signed nothing here.
    def run(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=d)

    for name in ("ca", "other"):
        run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
            "/CN=pool club %s" % name, "-keyout", name + ".key", "-out", name + ".pem")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout",
        "server.key", "-out", "server.csr")
    (d / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.pem")
    return d / "ca.pem", d / "other.pem"


@pytest.fixture
def tls_broker(tmp_path):
    ca, other = _ca(tmp_path)
    pw = tmp_path / "passwd"
    pw.write_text("")
    for u, p in USERS.items():
        subprocess.run(["mosquitto_passwd", "-b", str(pw), u, p], check=True)
    port = broker.free_port()
    conf = tmp_path / "m.conf"
    conf.write_text("listener %d 127.0.0.1\ncafile %s\ncertfile %s\nkeyfile %s\n"
                    "allow_anonymous false\npassword_file %s\npersistence false\nuser root\n"
                    % (port, ca, tmp_path / "server.pem", tmp_path / "server.key", pw))
    exe = broker.find()
    assert exe
    proc = subprocess.Popen([exe, "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    ctx = ssl.create_default_context(cafile=str(ca))
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2) as s:
                with ctx.wrap_socket(s, server_hostname="127.0.0.1"):
                    break
        except OSError:
            time.sleep(0.05)
    yield port, ca, other
    proc.kill()
    proc.wait()


def _table(port, ca):
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="table-1", protocol=mqtt.MQTTv311)
    c.username_pw_set("t1", USERS["t1"])
    c.tls_set(ca_certs=str(ca))
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def _args(tmp_path, port, ca):
    return argparse.Namespace(broker="127.0.0.1", port=port, club="+", user="room",
                              password=USERS["room"], tls_ca=str(ca), client_id="room-tls",
                              db=str(tmp_path / "c.sqlite"), http="127.0.0.1:0", stale=600.0)


def test_the_room_view_reads_the_broker_over_tls(tls_broker, tmp_path):
    port, ca, _ = tls_broker
    recs = records("ten-ball-break-and-run")
    got = {}

    async def go():
        ready = asyncio.Event()

        def up(hub, http_port, broker_port):
            got.update(hub=hub, http=http_port)
            ready.set()

        task = asyncio.ensure_future(serve(_args(tmp_path, port, ca), up))
        await asyncio.wait_for(ready.wait(), 10)
        await asyncio.sleep(1.0)  # (the room view's TLS connection and subscription)
        got["t"] = t = await asyncio.to_thread(_table, port, ca)
        for r in recs:
            await asyncio.to_thread(lambda r=r: t.publish(
                "pool/c/table/1/event", json.dumps(r), qos=1).wait_for_publish(5))
        url = "http://127.0.0.1:%d/api/table/c/1" % got["http"]
        for _ in range(100):
            v = json.loads(await asyncio.to_thread(
                lambda: urllib.request.urlopen(url, timeout=5).read()))
            if v["match"] and v["match"]["seq"] == len(recs) - 1:
                break
            await asyncio.sleep(0.05)
        got["t"].loop_stop()
        got["t"].disconnect()
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        return v

    v = asyncio.run(go())
    assert v["match"]["seq"] == len(recs) - 1 and v["match"]["winner"] is not None


def test_a_room_view_that_does_not_trust_the_ca_gets_nothing(tls_broker):
    port, ca, other = tls_broker

    async def go():
        loop = asyncio.get_running_loop()
        seen = []
        for cafile in (other, None):  # another CA; no TLS at all
            b = Bridge(loop, lambda *a: seen.append(a), "127.0.0.1", port,
                       username="room", password=USERS["room"],
                       tls_ca=str(cafile) if cafile else None)
            b.start()
            await asyncio.sleep(1.5)
            assert not b.connected
            b.stop()
        # and the right CA connects
        b = Bridge(loop, lambda *a: seen.append(a), "127.0.0.1", port, username="room",
                   password=USERS["room"], tls_ca=str(ca))
        b.start()
        for _ in range(100):
            if b.connected:
                break
            await asyncio.sleep(0.05)
        ok = b.connected
        b.stop()
        return ok, seen

    ok, seen = asyncio.run(go())
    assert ok and seen == []
