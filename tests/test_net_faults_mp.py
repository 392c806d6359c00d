# The board's app with the club network on the board-like VM (tests/mp_net_board.py: the
# Runner, the journal on littlefs, firmware.net) against a real Mosquitto (password file, ACL,
# persistence) and the room view's receiving side (host_tools.club: MQTT bridge, SQLite store,
# the rules core's replay), under faults in the middle of a match: the broker killed and
# started again, the board's socket cut, the board's power cut (the VM killed and booted again
# on the same flash), 200 events scored offline. After each, the room's store holds every
# journal record once, in order, with its depth, and its replay equals the board's own state
# and the rules core's; what the broker delivered twice is counted and changes nothing.
# Then a keyed match on the board appears in the room view's pages (aiohttp) with its score.
import asyncio
import json
import socket
import threading
import time

import pytest

from firmware.match import Match
from host_tools.club.room import Room as ClubRoom
from host_tools.club.store import Store
from tests.matchkeys import match_keys
from tests.netboard import Broker, NetBoard, Room, have_mosquitto

pytestmark = pytest.mark.skipif(not have_mosquitto(),
                                reason="mosquitto is not installed (.ci/run installs it)")


@pytest.fixture
def club(tmp_path):
    b = Broker(tmp_path / "broker", persist=True).start()
    room = Room(b, tmp_path / "room.sqlite")
    boards = []

    def board(game="9ball", secrets=True):
        nb = NetBoard(b.secrets() if secrets else None, game)
        boards.append(nb)
        nb.start()
        return nb

    yield b, room, board
    for nb in boards:
        nb.kill()
        nb.close()
    room.close()
    b.kill()


def _synced(s):
    return s["link"] == "ok" and s["head"] >= 0 and s["acked"] == s["head"]


def _journal(nb):
    # The board's match as its journal holds it: [(seq, depth, event as published)], and its
    # state.
    mark = len(nb.out)
    nb.cmd("records")
    js = [json.loads(line[2:]) for line in nb.out[mark:] if line[:2] == "J "]
    nb.cmd("state")
    recs = [(r[0], r[1], json.loads(r[3]) if r[2] in "eg" else {"t": "undo"}) for r in js]
    return recs, nb.last("S")


def _check(room, nb, ctl):
    """The room's store against the board's journal once both are done: every record once, in
    order, with its depth; the replay's state equal to the board's and to the rules core's
    (ctl: the CPython controller that made the keys, or None). Returns the duplicates the
    room's store counted."""
    assert nb.until(_synced), nb.status
    recs, board_state = _journal(nb)
    n = len(recs)
    assert room.wait(lambda: len(room.records()) >= n), (len(room.records()), n, sorted(
        set(range(n)) - {s for _, s, _, _ in room.records()}), room.loop.errors,
        room.bridge.connected)
    assert not room.loop.errors
    got = room.records()
    match = got[0][0]
    assert {m for m, *_ in got} == {match}  # one match id
    assert [(s, d, e) for _, s, e, d in got] == recs  # once each, in order, with its depth
    assert room.store.count() == n
    want = board_state  # ctl None: the board's own match, read back from flash at each boot
    if ctl is not None:
        core = Match()
        for ev in ctl.match.events:
            core.apply(ev)
        want = core.state()
        assert board_state == want == ctl.match.state()
    assert room.wait(lambda: room.view()["match"]["seq"] == n - 1)
    v = room.view()
    assert not v["waiting"]
    lv = room.room.live_of("c/1", match)
    assert lv.m.state() == want
    assert not lv.refused
    # Every record delivered again to a room read back from the same SQLite file: each is a
    # duplicate, and the state does not move.
    again = ClubRoom(Store(room.path))
    assert again.live_of("c/1", match).m.state() == want
    for m, s, e, d in got:
        assert not again.record("c/1", {"match": m, "seq": s, "ev": e, "depth": d})
    assert again.store.duplicates == n
    assert again.live_of("c/1", match).m.state() == want
    again.store.close()
    return room.store.duplicates


def _setup(keys):
    # How many of keys are the new-match screen's (8, 6: rows and values; 5 starts; 1: the lag).
    return keys.index("5") + 2


def _thirds(keys):
    # The setup and the first third of play, the second, the rest.
    s = _setup(keys)
    k = (len(keys) - s) // 3
    return keys[:s + k], keys[s + k:s + 2 * k], keys[s + 2 * k:]


def _press(nb, keys, chunk=20):
    for i in range(0, len(keys), chunk):
        nb.cmd("keys " + " ".join(keys[i:i + chunk]))


def test_a_match_keyed_through_the_app_publishes_every_record_once_in_order(club):
    broker, room, board = club
    keys, ctl = match_keys("9ball", {"race1": 3, "race2": 3}, undos=2)
    nb = board()
    _press(nb, keys)
    dup = _check(room, nb, ctl)
    assert nb.status["retries"] == 0 and nb.status["said"] is None
    assert nb.status["app_error"] is None and nb.status["restarts"] == 0
    print("duplicates", dup)


def test_the_broker_killed_and_started_again_mid_match(club):
    broker, room, board = club
    keys, ctl = match_keys("9ball", {"race1": 3, "race2": 3}, undos=2)
    a, b, c = _thirds(keys)
    nb = board()
    _press(nb, a)
    assert nb.until(_synced)
    time.sleep(1.5)  # (the broker's autosave has the room's session)
    broker.kill()
    _press(nb, b)  # scored with no broker: on flash, published later
    s = nb.cmd("run 3000")
    assert s["link"] != "ok" and s["said"] == "net_broker" and s["acked"] < s["head"]
    assert s["app_error"] is None and s["restarts"] == 0  # the scoreboard went on
    broker.start()
    _press(nb, c)
    dup = _check(room, nb, ctl)
    assert nb.status["retries"] >= 1 and nb.status["said"] is None
    print("duplicates", dup)


def test_the_boards_socket_cut_mid_match(club):
    broker, room, board = club
    keys, ctl = match_keys("9ball", {"race1": 3, "race2": 3}, undos=2)
    nb = board()
    cuts = 0
    for i in range(0, len(keys), 7):
        nb.cmd("keys " + " ".join(keys[i:i + 7]))
        nb.cmd("cut")  # the link goes under the MQTT client (mid-publish, or idle)
        cuts += 1
    dup = _check(room, nb, ctl)
    assert nb.status["retries"] >= cuts // 2, (nb.status, cuts)
    print("cuts", cuts, "retries", nb.status["retries"], "duplicates", dup)


def test_the_boards_power_cut_mid_match_and_booted_again(club):
    broker, room, board = club
    keys, ctl = match_keys("9ball", {"race1": 3, "race2": 3}, undos=2)
    a, b, c = _thirds(keys)
    nb = board()
    _press(nb, a)
    nb.kill()  # the power goes right after the keys: the last acknowledgements not on flash
    s = nb.start()  # the same flash: the match resumed, the network from /net.ack
    assert s["head"] >= 0 and s["acked"] <= s["head"]
    _press(nb, b)
    nb.cmd("keys " + c[0])
    nb.kill()  # and again, between two keys
    nb.start()
    _press(nb, c[1:])
    dup = _check(room, nb, ctl)
    assert nb.boots == 3
    print("duplicates", dup)


def test_power_cuts_while_keys_are_being_scored(club):
    # The VM killed wherever it is while it scores keys (a record half-written, an action of
    # several events cut short, a publish in flight): the board's own match, read back from
    # flash at each boot, is what the room's replay must equal.
    broker, room, board = club
    keys, ctl = match_keys("8ball", {"race1": 3, "race2": 3})
    nb = board("8ball")
    s = _setup(keys)
    nb.cmd("keys " + " ".join(keys[:s]))
    i = s
    for delay in (0.004, 0.011, 0.007, 0.002, 0.015):
        nb.proc.stdin.write("keys " + " ".join(keys[i:i + 12]) + "\n")  # pyright: ignore
        nb.proc.stdin.flush()  # pyright: ignore[reportOptionalMemberAccess]
        time.sleep(delay)
        nb.kill()
        nb.start()
        i += 12
    _press(nb, keys[i:])
    dup = _check(room, nb, None)
    print("boots", nb.boots, "duplicates", dup)


def test_a_room_view_that_never_had_the_records_asks_for_them_again(club, tmp_path):
    # A second room view, with a session and a store of its own, comes when half the match is
    # published: the retained state names seqs it lacks, it asks on .../resend, and the board
    # publishes the match again from seq 0 (docs/network.md "resend").
    broker, room, board = club
    keys, ctl = match_keys("9ball", {"race1": 3, "race2": 3}, undos=2)
    a, b, c = _thirds(keys)
    nb = board()
    _press(nb, a + b)
    assert nb.until(_synced)
    sent = nb.cmd("run 1000")["sent"]  # (the retained state published too)
    late = Room(broker, tmp_path / "late.sqlite", client_id="late-room")
    try:
        _press(nb, c)
        _check(late, nb, ctl)
        assert nb.status["sent"] - sent >= nb.status["head"] + 1  # the whole match again
        _check(room, nb, ctl)  # (the first view: every record once, the resent ones dropped)
    finally:
        late.close()


def test_200_events_scored_offline_then_published_in_order(club):
    broker, room, board = club
    keys, ctl = match_keys("14.1", {}, min_events=260)
    setup = _setup(keys)
    nb = board("14.1")
    _press(nb, keys[:setup + 10])
    assert nb.until(_synced)
    head0 = nb.status["head"]
    time.sleep(1.5)
    broker.kill()
    i = setup + 10
    while nb.status["head"] - head0 < 200:  # (a key is an event, or a ball entered)
        nb.cmd("keys " + " ".join(keys[i:i + 10]))
        i += 10
    s = nb.cmd("run 1000")
    assert s["head"] - head0 >= 200 and s["acked"] <= head0 + 1  # 200 records waiting on flash
    assert s["link"] != "ok"
    broker.start()
    t = time.monotonic()
    assert nb.until(_synced, timeout=300)
    catch_up = time.monotonic() - t
    _press(nb, keys[i:])
    dup = _check(room, nb, ctl)
    print("records", nb.status["head"] + 1, "catch-up s", round(catch_up, 2), "duplicates", dup)


def test_the_room_views_pages_show_the_boards_match_with_its_score(tmp_path):
    # Board -> Mosquitto -> the room view (Bridge on the asyncio loop, Hub, aiohttp) -> its
    # JSON pages and results, read by aiohttp's test client.
    from aiohttp.test_utils import TestClient, TestServer

    from host_tools.club.mqtt import Bridge
    from host_tools.club.web import Hub, make_app
    from tests.netboard import USERS

    broker = Broker(tmp_path / "broker").start()
    keys, ctl = match_keys("8ball", {"race1": 2, "race2": 2})
    nb = NetBoard(broker.secrets(), "8ball")
    want = ctl.match.state()

    async def go():
        hub = Hub(ClubRoom(Store()))
        bridge = Bridge(asyncio.get_running_loop(), hub.feed, "127.0.0.1", broker.port,
                        club="c", username="room", password=USERS["room"])
        bridge.start()
        try:
            async with TestClient(TestServer(make_app(hub))) as client:
                for _ in range(100):
                    if bridge.connected:
                        break
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.3)
                await asyncio.to_thread(nb.start)
                for i in range(0, len(keys), 20):
                    await asyncio.to_thread(nb.cmd, "keys " + " ".join(keys[i:i + 20]))
                assert await asyncio.to_thread(nb.until, _synced)
                await asyncio.to_thread(nb.cmd, "run 2000")  # (the retained state too)
                for _ in range(100):
                    v = await (await client.get("/api/table/c/1")).json()
                    if v["match"] and v["match"]["winner"] is not None:
                        break
                    await asyncio.sleep(0.1)
                room = await (await client.get("/api/room")).json()
                page = await client.get("/")
                res = await (await client.get("/results.json")).json()
                return v, room, page.status, res
        finally:
            bridge.stop()

    try:
        v, room, page, res = asyncio.run(go())
    finally:
        nb.kill()
        nb.close()
        broker.kill()
    m = v["match"]
    assert v["status"] == "online" and not v["waiting"]
    assert [p["racks"] for p in m["players"]] == [p["racks"] for p in want["players"]]
    assert m["winner"] == want["winner"] and m["rack"] == want["rack"]
    assert [p["name"] for p in m["players"]] == [p["name"] for p in want["players"]]
    assert [t["table"] for t in room] == ["c/1"] and page == 200
    (r,) = res
    assert r["scores_csv"] == "%d-%d" % tuple(p["racks"] for p in want["players"])


def test_the_networks_heap_with_the_app_loaded(club):
    # The same keyed match on two boards, one without secrets.json (no network: firmware.net
    # never imported): what the network's code, its MQTT client, socket and buffers take of
    # the heap once the match is published (docs/figures.md).
    broker, room, board = club
    keys, ctl = match_keys("9ball", {"race1": 2, "race2": 2})
    heaps = []
    for secrets in (False, True):
        nb = board(secrets=secrets)
        _press(nb, keys)
        nb.cmd("run 3000")
        nb.cmd("heap")
        heaps.append(nb.last("H"))
        if secrets:
            assert _synced(nb.status)
    plain, net = heaps
    assert plain["net"] < 256 and net["net"] <= NET_IMPORT  # (the try: a few bytes)
    grown = net["alloc"] - plain["alloc"]
    assert grown <= NET_HEAP, (grown, heaps)
    print("net import", net["net"], "connected", grown)


NET_IMPORT = 7 * 1024  # firmware.net imported and its Net made, with the app loaded
NET_HEAP = 12 * 1024  # that and umqtt.simple, its client, socket and buffers, connected


class Stalled:
    """A broker that takes the connection and then never answers (silent), or answers the
    CONNECT and then never acknowledges a publish (no_puback): a stalled broker."""

    def __init__(self, mode):
        self.mode = mode
        self.srv = socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(8)
        self.port = self.srv.getsockname()[1]
        self.conns = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                c, _ = self.srv.accept()
            except OSError:
                return
            self.conns.append(c)
            threading.Thread(target=self._read, args=(c,), daemon=True).start()

    def _read(self, c):
        try:
            if self.mode == "no_puback":
                c.recv(4096)
                c.sendall(b"\x20\x02\x00\x00")  # CONNACK, accepted
            while c.recv(4096):
                pass
        except OSError:
            pass

    def close(self):
        self.srv.close()
        for c in self.conns:
            c.close()


@pytest.mark.parametrize("mode", ["silent", "no_puback"])
def test_a_stalled_broker_holds_a_pass_at_most_its_timeout(mode):
    # firmware.net: each socket operation has a 30 ms timeout; the app's pass waits at most
    # that long for the network, and the match goes on.
    st = Stalled(mode)
    keys, ctl = match_keys("9ball", {"race1": 2, "race2": 2})
    nb = NetBoard({"broker": "127.0.0.1", "port": st.port, "club": "c", "table": 1})
    try:
        nb.start()
        _press(nb, keys)
        s = nb.cmd("run 60000")
        nb.cmd("state")
        assert nb.last("S") == ctl.match.state()
        assert s["app_error"] is None and s["restarts"] == 0
        assert s["link"] != "ok" and s["acked"] < s["head"]
        # tried again and again, less often (1, 2, 5, 10, then 30 s): in a minute, 5 or 6
        assert 3 <= s["retries"] <= 8, s
        assert s["said"] == "net_broker"  # (no_puback: once three in a row acknowledged nothing)
        # each attempt waits out the 30 ms timeout, and no longer (the rest: this machine's
        # load on the VM's real time)
        assert 25 <= s["longest_ms"] <= 150, s
        print(mode, "retries", s["retries"], "longest net step ms", s["longest_ms"])
    finally:
        nb.kill()
        nb.close()
        st.close()
