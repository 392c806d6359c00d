# CPython: the board with the club network on the board-like VM (tests/mp_net_board.py), driven
# command by command; a Mosquitto with a password file and an ACL (Broker); the room view's
# side (Room): host_tools.club's MQTT bridge into its SQLite store and replay.
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

from host_tools import mpy
from host_tools.club import broker

LIB = Path(mpy.ROOT).parent / "shared" / "micropython-lib" / "micropython" / "umqtt.simple"
EXE = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
USERS = {"t1": "pw1", "t2": "pw2", "room": "pwr"}


def have_mosquitto():
    return Path(EXE).exists() and bool(shutil.which("mosquitto_sub"))


class Broker:
    """Mosquitto on 127.0.0.1 (a free port): each table's user writes its own topics only, the
    room's user reads, anonymous clients refused. persist: its sessions and queued messages
    saved every second and read back when it starts again (a restart keeps the room's
    subscription, as a club's broker with persistence does)."""

    def __init__(self, d, persist=False):
        self.d = Path(d)
        self.d.mkdir(parents=True, exist_ok=True)
        self.port = broker.free_port()
        pw = self.d / "passwd"
        pw.write_text("")
        for u, p in USERS.items():
            subprocess.run(["mosquitto_passwd", "-b", str(pw), u, p], check=True)
        acl = "".join("user t%d\ntopic write pool/c/table/%d/#\n"
                      "topic read pool/c/table/%d/resend\n"
                      "topic write homeassistant/sensor/pool_c_t%d_score/config\n"
                      "topic write homeassistant/sensor/pool_c_t%d_players/config\n"
                      "topic write homeassistant/sensor/pool_c_t%d_shooter/config\n"
                      % ((n,) * 6) for n in (1, 2)) + ("user room\ntopic read #\n"
                                                       "topic write pool/+/table/+/resend\n")
        (self.d / "acl").write_text(acl)
        conf = ("listener %d 127.0.0.1\nallow_anonymous false\npassword_file %s\nacl_file %s\n"
                "user root\nmax_queued_messages 100000\n" % (self.port, pw, self.d / "acl"))
        conf += ("persistence true\npersistence_location %s/\nautosave_interval 1\n" % self.d
                 if persist else "persistence false\n")
        (self.d / "m.conf").write_text(conf)
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([EXE, "-c", str(self.d / "m.conf")],
                                     stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def kill(self):
        """Killed (SIGKILL): no goodbye to its clients, nothing saved at exit."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    stop = kill

    def secrets(self, user="t1", table=1):
        return {"broker": "127.0.0.1", "port": self.port, "club": "c", "table": table,
                "user": user, "pass": USERS.get(user, "x")}


def umqtt_mpy():
    """micropython-lib's umqtt.simple compiled as the firmware is (a board's /lib has it)."""
    out = mpy.BUILD / "umqtt_simple.mpy"
    src = LIB / "umqtt" / "simple.py"
    if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(mpy.mpy_cross_cmd(src, out), check=True)
    return out.read_bytes()


class NetBoard:
    """tests/mp_net_board.py on the board-like VM, in a run folder of its own that a power cut
    (kill) leaves as it is: start() again boots the board on the same flash.bin."""

    def __init__(self, secrets, game="9ball", heap="256K"):
        self.game = game
        self.heap = mpy.heap_bytes(heap)
        self.dir = mpy.workdir(mpy.compile_tree(True))
        if secrets is not None:  # (None: a board without the network)
            (self.dir / "secrets.json").write_text(json.dumps(secrets))
        (self.dir / "umqtt").mkdir()
        (self.dir / "umqtt" / "simple.mpy").write_bytes(umqtt_mpy())
        (self.dir / "mp_argv.py").write_text("ARGV = %s\n" % json.dumps(["mp_net_board", game]))
        self.proc = None
        self.lines = None
        self.out = []  # every line the board printed that is not an "OK"
        self.status = None
        self.boots = 0

    def start(self):
        env = dict(os.environ, MICROPYPATH=":lib")
        self.proc = subprocess.Popen([str(mpy.micropython()), "-X", "heapsize=%d" % self.heap,
                                      "-m", "tests.mp_net_board"], cwd=self.dir, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, errors="replace")
        self.lines = q = queue.Queue()
        out = self.proc.stdout

        def read():
            for line in out:  # pyright: ignore[reportOptionalIterable]
                q.put(line.rstrip("\n"))
            q.put(None)

        threading.Thread(target=read, daemon=True).start()
        self.boots += 1
        return self._answer(120)

    def _answer(self, timeout):
        end = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, end - time.monotonic()))  # pyright: ignore
            except queue.Empty:
                raise TimeoutError("the board did not answer: " + "\n".join(self.out[-20:])) from None
            if line is None:
                raise RuntimeError("the board stopped: " + "\n".join(self.out[-30:]))
            if line.startswith("OK "):
                self.status = json.loads(line[3:])
                return self.status
            self.out.append(line)

    def cmd(self, line, timeout=300):
        self.proc.stdin.write(line + "\n")  # pyright: ignore[reportOptionalMemberAccess]
        self.proc.stdin.flush()  # pyright: ignore[reportOptionalMemberAccess]
        return self._answer(timeout)

    def last(self, tag):
        """The JSON of the last line the board printed with tag ("S", "J", "H")."""
        for line in reversed(self.out):
            if line.startswith(tag + " "):
                return json.loads(line[len(tag) + 1:])
        raise KeyError(tag)

    def until(self, cond, step="run 200", timeout=120):
        """Runs the board until cond(status) holds (False if it did not in timeout seconds)."""
        end = time.monotonic() + timeout
        while not cond(self.status):
            if time.monotonic() > end:
                return False
            self.cmd(step)
        return True

    def kill(self):
        """A power cut: the VM killed wherever it is."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None

    def close(self):
        if self.proc is not None:
            try:
                self.proc.stdin.write("quit\n")  # pyright: ignore[reportOptionalMemberAccess]
                self.proc.stdin.flush()  # pyright: ignore[reportOptionalMemberAccess]
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        shutil.rmtree(self.dir, ignore_errors=True)


class _Direct:
    # What Bridge hands messages to (an asyncio loop's call_soon_threadsafe): here each is
    # taken on paho's thread at once, one at a time; what one raises is kept (errors), so a
    # test can say so (paho's thread would otherwise end with it).
    def __init__(self):
        self.lock = threading.Lock()
        self.errors = []

    def call_soon_threadsafe(self, fn, *args):
        with self.lock:
            try:
                fn(*args)
            except Exception as e:  # noqa: BLE001
                self.errors.append((args[:2], repr(e)))


class Room:
    """The room view's receiving side (host_tools.club: Bridge -> Hub -> Room -> Store, the
    store an SQLite file) on the broker, as the room's user, with a persistent session."""

    def __init__(self, broker, path, client_id="pool-club-room"):
        from host_tools.club.mqtt import Bridge
        from host_tools.club.room import Room as ClubRoom
        from host_tools.club.store import Store
        from host_tools.club.web import Hub

        self.path = str(path)
        self.store = Store(self.path)
        self.room = ClubRoom(self.store)
        self.hub = Hub(self.room)
        self.loop = _Direct()
        self.bridge = Bridge(self.loop, self.hub.feed, "127.0.0.1", broker.port, club="c",
                             client_id=client_id, username="room", password=USERS["room"])
        self.hub.ask = self.bridge.resend
        self.bridge.start()
        end = time.monotonic() + 10
        while not self.bridge.connected and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(0.3)  # (its subscription acknowledged)

    def records(self, tbl="c/1"):
        """[(match, seq, ev, depth)] in the store, by match and seq."""
        with self.loop.lock:
            return [(m, s, e, d) for _t, m, *_ in self.store.matches(tbl)
                    for s, e, _at, d in self.store.records(tbl, m)]

    def view(self, tbl="c/1"):
        with self.loop.lock:
            return self.room.view(tbl)

    def wait(self, cond, timeout=30):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if cond():
                return True
            time.sleep(0.1)
        return cond()

    def close(self):
        self.bridge.stop()
        self.store.close()
