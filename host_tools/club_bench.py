# python -m host_tools.club_bench: the room view under load (docs/club.md "Load").
"""64 simulated tables (CPython publishers with paho-mqtt, one client each, QoS 1) play whole
matches at 10x speed against one local Mosquitto and one room view (python -m host_tools.club,
a process of its own). Each record carries its publish time ("at"); a Server-Sent Events reader
takes the time each table's update reaches it: the latency from publish to the room view's
update, p50 and p99. Also the room view's CPU (user + system over the run) and memory (peak
and last RSS), and a check that its store holds every published record exactly once and each
table's state is the rules core's."""
import asyncio
import json
import multiprocessing
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

from firmware import rules
from firmware.match import Match
from host_tools import cli

GAMES = (("9ball", {"race": [3, 3]}), ("10ball", {"race": [3, 3]}),
         ("14.1", {"target": [25, 25]}))


def _shot(**kw):
    ev = {"t": "shot"}
    ev.update(kw)
    return ev


def next_event(m, rng):
    """One legal event for match m (judged by the rules core, m advanced), None when over."""
    if m.get("winner") is not None:
        return None
    if m.get("shooter") is None:
        ev = {"t": "lag", "breaker": rng.randrange(2)}
        m.apply(ev)
        return ev
    opts = m.options()
    if opts:
        ev = {"t": "choose", "option": opts[0]}
        m.apply(ev)
        return ev
    game = m.get("game")
    r = rng.random()
    if game == "14.1":
        tries = [_shot(first=1, call=1, pots=[1], made=True, rail=True)] if r < .7 else \
            [_shot(first=1, rail=True)] if r < .9 else [_shot(first=1, pots=[0], rail=True)]
        if m.get("breaking"):
            tries = [_shot(first=1, break_rails=2, cue_rail=True, call="safety", rail=True)]
    else:
        t = m.get("table")
        low = t[0]
        if m.get("breaking"):
            tries = [_shot(first=low, pots=[t[-2]] if r < .6 else [], break_rails=4, rail=True)]
        elif r < .62:
            tries = [_shot(first=low, call=low, pots=[low], made=True, rail=True)]
        elif r < .85:
            tries = [_shot(first=low, rail=True)]
        elif r < .93:
            tries = [_shot(first=low, call="safety", rail=True)]
        else:
            tries = [_shot(first=low, pots=[0], rail=True)]
    tries.append(_shot(first=1 if game == "14.1" else m.get("table")[0], rail=True))
    for ev in tries:
        try:
            m.apply(ev)
            return ev
        except rules.Refused:
            continue
    raise RuntimeError("no legal event")


class Table:
    """A simulated table: its matches one after another, a record every few seconds."""

    def __init__(self, club, n, port, rng, speed, t0):
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.n, self.rng, self.speed = n, rng, speed
        self.topic = "pool/%s/table/%d/" % (club, n)
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-table-%d" % n,
                             protocol=mqtt.MQTTv311)
        self.c.max_inflight_messages_set(100)
        self.c.connect("127.0.0.1", port)
        self.c.loop_start()
        self.c.publish(self.topic + "status", "online", qos=1, retain=True)
        self.m = None
        self.match = None
        self.seq = 0
        self.k = 0
        self.sent = 0
        self.due = t0 + rng.uniform(0, 2)
        self.finals = {}  # match id -> the core's state at its end

    def step(self, now):
        if self.m is None or self.m.get("winner") is not None:
            if self.m is not None:
                self.finals[self.match] = self.m.state()
            game, kw = GAMES[(self.n + self.k) % len(GAMES)]
            self.k += 1
            self.m = Match()
            self.match = "b%d-%d" % (self.n, self.k)
            self.seq = 0
            ev = {"t": "new", "game": game, "players": ["P%da" % self.n, "P%db" % self.n]}
            ev.update(kw)
            self.m.apply(ev)
        else:
            ev = next_event(self.m, self.rng)
        self.c.publish(self.topic + "event", json.dumps(
            {"match": self.match, "seq": self.seq, "ev": ev, "at": time.time()}), qos=1)
        self.seq += 1
        self.sent += 1
        # a shot or a choice every 8-40 s of play; at 10x speed 0.8-4 s
        self.due = now + self.rng.uniform(8, 40) / self.speed

    def close(self):
        if self.m is not None:
            self.finals[self.match] = self.m.state()
        self.c.loop_stop()
        self.c.disconnect()


def _proc_cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def _proc_mem(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM"):
                out[k] = int(v.split()[0]) / 1024
    return out


async def _reader(port, lat, stop, seen):
    import aiohttp

    async with aiohttp.ClientSession() as s, s.get(
            "http://127.0.0.1:%d/api/stream" % port,
            timeout=aiohttp.ClientTimeout(total=None)) as resp:
        name = None
        while not stop.is_set():
            try:
                line = await asyncio.wait_for(resp.content.readline(), 0.5)
            except asyncio.TimeoutError:
                continue
            now = time.time()
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: ") and name == "table":
                v = json.loads(line[6:])
                m = v["match"]
                if m and m["last"] is not None:
                    key = (v["table"], m["match"], m["seq"])
                    if key not in seen:
                        seen.add(key)
                        lat.append(now - m["last"])


def _reader_proc(port, path, stop):
    # The SSE reader in a process of its own: the publishers' threads don't delay its reads.
    lat, seen = [], set()
    loop = asyncio.new_event_loop()

    async def go():
        task = asyncio.ensure_future(_reader(port, lat, asyncio.Event(), seen))
        while not stop.is_set():
            await asyncio.sleep(0.1)
        task.cancel()

    loop.run_until_complete(go())
    with open(path, "w") as f:
        json.dump({"lat": lat, "seen": len(seen)}, f)


def bench(tables=64, speed=10.0, seconds=60.0, out=sys.stdout):
    from host_tools.club import broker

    tmp = tempfile.mkdtemp(prefix="club-bench-")
    b = broker.Mosquitto(folder=os.path.join(tmp, "broker")).start()
    http = broker.free_port()
    db = os.path.join(tmp, "club.sqlite")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))))
    view = subprocess.Popen([sys.executable, "-m", "host_tools.club", "--broker", "127.0.0.1",
                             "--port", str(b.port), "--db", db, "--http", "127.0.0.1:%d" % http,
                             "--client-id", "bench-room"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert view.stdout is not None and view.stderr is not None
    try:
        line = view.stdout.readline()
        if "room view" not in line:
            raise RuntimeError("the room view did not start: %s" % view.stderr.read())
        time.sleep(1.0)  # its subscription
        stop = multiprocessing.Event()
        lat_file = os.path.join(tmp, "latency.json")
        reader = multiprocessing.Process(target=_reader_proc, args=(http, lat_file, stop))
        reader.start()
        time.sleep(1.0)
        rng = random.Random(1)
        t0 = time.time()
        ts = [Table("bench", n, b.port, random.Random(rng.random()), speed, t0)
              for n in range(1, tables + 1)]
        cpu0, w0 = _proc_cpu(view.pid), time.monotonic()
        mem_peak = 0.0
        end = time.monotonic() + seconds
        last_mem = time.monotonic()
        while time.monotonic() < end:
            now = time.time()
            for t in ts:
                if t.due <= now:
                    t.step(now)
            if time.monotonic() - last_mem > 1:
                mem_peak = max(mem_peak, _proc_mem(view.pid).get("VmRSS", 0))
                last_mem = time.monotonic()
            time.sleep(0.005)
        sent = sum(t.sent for t in ts)
        time.sleep(3.0)  # the last updates
        cpu = _proc_cpu(view.pid) - cpu0
        wall = time.monotonic() - w0
        mem = _proc_mem(view.pid)
        for t in ts:
            t.close()
        stop.set()
        reader.join(20)
        with open(lat_file) as f:
            got = json.load(f)
        lat, seen = got["lat"], got["seen"]
    finally:
        view.terminate()
        try:
            view.wait(10)
        except subprocess.TimeoutExpired:
            view.kill()
            view.wait()
        view.stdout.close()
        view.stderr.close()
        b.stop()
    con = sqlite3.connect(db)
    stored = con.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    distinct = con.execute("SELECT COUNT(*) FROM (SELECT DISTINCT tbl, match, seq FROM records)"
                           ).fetchone()[0]
    con.close()
    from host_tools.club.room import Room
    from host_tools.club.store import Store

    room = Room(Store(db))
    exact = 0
    finals = 0
    for t in ts:
        for match, st in t.finals.items():
            finals += 1
            lv = room.live_of("bench/%d" % t.n, match)
            exact += lv is not None and lv.m.state() == st
    matches_done = sum(1 for t in ts for m, st in t.finals.items() if st["winner"] is not None)
    lat.sort()
    res = {
        "tables": tables, "speed": speed, "seconds": seconds, "published": sent,
        "events_per_s": round(sent / wall, 1), "stored": stored, "distinct": distinct,
        "lost": sent - distinct, "duplicated": stored - distinct,
        "updates_seen": seen, "matches": finals, "matches_finished": matches_done,
        "states_exact": exact,
        "latency_ms_p50": round(1000 * statistics.median(lat), 1) if lat else None,
        "latency_ms_p99": round(1000 * lat[min(len(lat) - 1, int(.99 * len(lat)))], 1)
        if lat else None,
        "latency_ms_max": round(1000 * lat[-1], 1) if lat else None,
        "cpu_percent": round(100 * cpu / wall, 1),
        "rss_mb": round(mem.get("VmRSS", 0), 1), "rss_peak_mb": round(max(
            mem_peak, mem.get("VmHWM", 0)), 1),
    }
    for k, v in res.items():
        out.write("%-18s %s\n" % (k, v))
    return res


def main(argv):
    ap = cli.parser("host_tools.club_bench", __doc__)
    ap.add_argument("--tables", type=int, default=64, metavar="N", help="tables (64)")
    ap.add_argument("--speed", type=float, default=10.0, metavar="X",
                    help="play this many times faster than a real match (10)")
    ap.add_argument("--seconds", type=float, default=60.0, metavar="S",
                    help="how long the tables play (60)")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    res = bench(args.tables, args.speed, args.seconds)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    ok = res["lost"] == 0 and res["duplicated"] == 0 and res["states_exact"] == res["matches"]
    return 0 if ok else 1


if __name__ == "__main__":
    cli.run(main, sys.argv[1:])
