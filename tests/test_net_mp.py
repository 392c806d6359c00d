# The board's network code (firmware/net.py) on the board-like VM against a real Mosquitto on
# 127.0.0.1 (password file and ACL: each table's user publishes under its own table only,
# anonymous refused), started and stopped here; the subscriber is mosquitto_sub.
import json
import subprocess
import time

import pytest

from host_tools import mpy
from tests import netboard
from tests.matchkeys import match_keys
from tests.netboard import LIB, USERS

pytestmark = pytest.mark.skipif(not netboard.have_mosquitto(),
                                reason="mosquitto is not installed (.ci/run installs it)")


class Broker(netboard.Broker):
    # (tests/netboard.py's, without persistence) and mosquitto_sub as a subscriber
    def sub(self, topic="#", user="room", n=None):
        args = ["mosquitto_sub", "-p", str(self.port), "-t", topic, "-v", "-q", "1"]
        if user:
            args += ["-u", user, "-P", USERS[user]]
        return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


BOARD = """
import sys
sys.path.append(%r)
import gc
from firmware.match import Match
from firmware.store import Store
from firmware.ui import Controller
from firmware.table import Table
gc.collect()
m0 = gc.mem_alloc()
from firmware import net
gc.collect()
print("HEAP", gc.mem_alloc() - m0)
import os
try:
    os.mkdir("fs")
except OSError:
    pass
st = Store("fs")
n = net.Net(%r, st)
ctl = Controller("keypad", "en", "9ball", Table(st, "9ball"))
now = 0
def run(k):
    global now
    for _ in range(k):
        st.due and st.work()
        n.work(now, ctl.match)
        now += 5
for k in %r:
    ctl.key("press", k)
    ctl.table.after_screen() if ctl.table.log is not None else None
    run(4)
run(2000)
gc.collect()
print("AFTER", gc.mem_alloc() - m0)
print("NET", n.link, n.said, n.sent, n.retries)
"""


def _board(broker, keys, user="t1", table=1):
    sec = {"broker": "127.0.0.1", "port": broker.port, "club": "c", "table": table,
           "user": user, "pass": USERS.get(user, "x")}
    return mpy.run(BOARD % (str(LIB), sec, keys), heap="256K", timeout=300)


def _read(p, wait=1.0):
    time.sleep(wait)
    p.terminate()
    out, _ = p.communicate()
    return [ln.split(" ", 1) for ln in out.splitlines()]


def test_a_keyed_match_publishes_every_record_once_in_order(broker):
    keys, ctl = match_keys("9ball", {"race1": 2, "race2": 2})
    sub = broker.sub()
    time.sleep(0.3)
    res = _board(broker, keys)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    msgs = _read(sub)
    evs = [json.loads(p) for t, p in msgs if t == "pool/c/table/1/event"]
    assert [e["seq"] for e in evs] == list(range(len(evs)))  # once each, in order
    from firmware.match import Match
    m = Match()
    for e in evs:
        m.apply(e["ev"])
    assert m.state() == ctl.match.state()
    state = [json.loads(p) for t, p in msgs if t == "pool/c/table/1/state"][-1]
    assert {k: state[k] for k in ctl.match.state()} == ctl.match.state()
    assert state["seq"] == evs[-1]["seq"] and state["match"] == evs[0]["match"]
    assert "NET ok None" in res.stdout
    print([ln for ln in res.stdout.splitlines() if ln[:4] in ("HEAP", "AFTE")])


def test_anonymous_and_another_tables_user_are_refused(broker):
    sub = broker.sub("pool/#")
    time.sleep(0.3)
    anon = _board(broker, ["5"], user="")
    assert "NET offline net_auth 0" in anon.stdout, anon.stdout[-1000:] + anon.stderr[-1000:]
    wrong = _board(broker, ["5", "1"], user="t1", table=2)  # t1's login, table 2's topics
    assert wrong.returncode == 0, wrong.stderr[-2000:]
    msgs = _read(sub)
    assert not [t for t, _ in msgs if "/table/2/" in t], msgs
