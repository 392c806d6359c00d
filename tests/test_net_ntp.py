# The board's clock by NTP (firmware/net.py with micropython-lib's ntptime) on the board-like VM:
# an NTP server on 127.0.0.1:123, started here, answers with a time that is not the host's; the
# board's clock then gives that time, and a server that never answers leaves the clock as it was.
import socket
import struct
import threading
from pathlib import Path

import pytest

from host_tools import mpy

LIB = Path(mpy.ROOT).parent / "shared" / "micropython-lib" / "micropython" / "net" / "ntptime"
SERVED = 1893456000  # 2030-01-01 00:00 UTC: not the host's time
NTP_DELTA = 2208988800  # 1900 to 1970

BOARD = """
import sys
sys.path.append(%r)
from firmware import rtc
from firmware import net
from firmware.store import Store
import os
try:
    os.mkdir("fs")
except OSError:
    pass
n = net.Net({"broker": "127.0.0.1", "port": %d, "club": "c", "ntp": "127.0.0.1"}, Store("fs"))
before = rtc.now()
n.work(0)  # (no Wi-Fi on the VM: the first pass asks the NTP server)
print("NTP", rtc.ntp, rtc.now(), before)
n.work(10)  # then the broker (none there: refused)
print("NET", n.link, n.said)
"""


def _closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def ntp_server():
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 123))
    except OSError as e:
        pytest.skip("can't serve NTP on 127.0.0.1:123 here: %s" % e)
    s.settimeout(0.2)
    stop = threading.Event()
    asked = []

    def serve():
        while not stop.is_set():
            try:
                data, addr = s.recvfrom(48)
            except OSError:
                continue
            asked.append(data[0])
            reply = bytearray(48)
            reply[0] = 0x24  # no warning, version 4, server
            struct.pack_into("!I", reply, 40, SERVED + NTP_DELTA)  # the transmit time
            s.sendto(bytes(reply), addr)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield asked
    stop.set()
    t.join()
    s.close()


def test_ntp_sets_the_boards_clock(ntp_server):
    res = mpy.run(BOARD % (str(LIB), _closed_port()), heap="128K", timeout=120)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    line = [ln for ln in res.stdout.splitlines() if ln.startswith("NTP ")][0].split()
    assert line[1] == "True" and abs(int(line[2]) - SERVED) <= 1, res.stdout
    assert abs(int(line[3]) - SERVED) > 86400  # (the VM's own clock before: the host's)
    assert ntp_server and ntp_server[0] & 7 == 3  # one query, a client's (mode 3)
    assert "NET offline net_broker" in res.stdout, res.stdout


def test_no_ntp_answer_leaves_the_clock_and_the_broker_comes_next():
    # (nothing listens on 127.0.0.1:123 unless the test above serves: no answer in 0.2 s)
    res = mpy.run(BOARD % (str(LIB), _closed_port()), heap="128K", timeout=120)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    line = [ln for ln in res.stdout.splitlines() if ln.startswith("NTP ")][0].split()
    assert line[1] == "False" and abs(int(line[2]) - int(line[3])) <= 2, res.stdout
    assert "NET offline net_broker" in res.stdout, res.stdout
