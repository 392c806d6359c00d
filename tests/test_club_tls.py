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
import sys
import time
import types
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


class _Stream:
    # MicroPython's TLS socket (extmod/modtls_mbedtls.c) on CPython's ssl: TLS over the TCP
    # socket it was given, which stays the caller's (its timeout bounds each read); the stream
    # calls umqtt.simple makes (write(buf, n); read(n): n bytes, b"" at the end, None when a
    # non-blocking read finds none), setblocking and close; no settimeout, no setsockopt.
    def __init__(self, ctx, sock, host):
        self.sock = sock
        self.inc, self.out = ssl.MemoryBIO(), ssl.MemoryBIO()
        self.tls = ctx.wrap_bio(self.inc, self.out, server_hostname=host)
        self._io(self.tls.do_handshake)

    def _io(self, op, *a):
        while True:
            try:
                r = op(*a)
            except ssl.SSLWantReadError:
                self.sock.sendall(self.out.read())
                data = self.sock.recv(4096)  # (BlockingIOError, TimeoutError: OSErrors)
                if not data:
                    return b""
                self.inc.write(data)
                continue
            self.sock.sendall(self.out.read())
            return r

    def write(self, buf, n=None):
        data = buf.encode() if isinstance(buf, str) else bytes(buf if n is None else buf[:n])
        self._io(self.tls.write, data)
        return len(data)

    def read(self, n):
        out = b""
        while len(out) < n:
            try:
                got = self._io(self.tls.read, n - len(out))
            except BlockingIOError:
                if out:
                    continue
                return None
            if not got:
                break
            out += got
        return out

    def setblocking(self, flag):
        self.sock.setblocking(flag)

    def close(self):
        self.sock.close()


class _Context:
    # MicroPython's ssl.SSLContext (micropython-lib's python-stdlib/ssl over mbedtls) on
    # CPython's ssl: the calls firmware/net.py makes; CPython's does the verification.
    def __init__(self, protocol):
        self.ctx = ssl.SSLContext(protocol)

    @property
    def verify_mode(self):
        return self.ctx.verify_mode

    @verify_mode.setter
    def verify_mode(self, mode):
        if mode == ssl.CERT_NONE:
            self.ctx.check_hostname = False  # (mbedtls: no check without CERT_REQUIRED)
        self.ctx.verify_mode = mode

    def load_verify_locations(self, cafile=None, cadata=None):
        self.ctx.load_verify_locations(cafile=cafile, cadata=cadata)

    def wrap_socket(self, sock, server_hostname=None):
        return _Stream(self.ctx, sock, server_hostname)


def _board_ssl():
    m = types.ModuleType("ssl")
    m.SSLContext = _Context  # pyright: ignore[reportAttributeAccessIssue]
    for name in ("PROTOCOL_TLS_CLIENT", "CERT_NONE", "CERT_REQUIRED"):
        setattr(m, name, getattr(ssl, name))
    return m


def test_the_boards_network_over_tls_checks_the_broker_against_its_ca(tls_broker, monkeypatch):
    # firmware/net.py with micropython-lib's umqtt.simple, on CPython (no MicroPython here has
    # ssl): with secrets' "ca" the broker's certificate must be signed by that CA (the board
    # publishes its match, every record acknowledged); signed by another CA, the board never
    # connects and says the broker does not answer; without a CA the link is encrypted but the
    # broker is not proven, and it connects.
    from apprig import Rig, start

    from firmware import net
    from firmware.store import Store
    from tests.helpers import scratch_dir
    from tests.netboard import LIB

    port, ca, other = tls_broker
    monkeypatch.syspath_prepend(str(LIB))
    got = {}
    for name, cafile in (("ca", ca), ("other", other), ("none", None)):
        st = Store(scratch_dir("tls-" + name))
        secrets = {"broker": "127.0.0.1", "port": port, "club": "c", "table": 1, "user": "t1",
                   "pass": USERS["t1"], "tls": True}
        if cafile:
            secrets["ca"] = str(cafile)
        nt = net.Net(secrets, st)
        rig = Rig("oled", "keypad", game="9ball", store=st, net=nt)
        with monkeypatch.context() as m:
            m.setitem(sys.modules, "ssl", _board_ssl())
            start(rig)
            rig.keys("1 A B")
            end = time.monotonic() + 10
            while time.monotonic() < end and not (nt.sent and nt.acked == rig.ctl.match.log.head):
                rig.run(100)
        got[name] = (nt.link, nt.sent, nt.acked, rig.ctl.match.log.head, nt.said, nt.retries)
        rig.ctl.match.log.close()
    link, sent, acked, head, said, _ = got["ca"]
    assert link == "ok" and sent == head + 1 and acked == head > 0 and said is None
    link, sent, _, _, said, retries = got["other"]
    assert link != "ok" and sent == 0 and said == "net_broker" and retries >= 2
    assert got["none"][0] == "ok" and got["none"][1] > 0
