# The embedded default broker: a local Mosquitto (Debian's package) with a generated config,
# listening on 127.0.0.1 only, started and stopped by the room view.
import os
import shutil
import socket
import subprocess
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find():
    """The mosquitto binary, or None (Debian puts it in /usr/sbin)."""
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.path.exists(p)),
        None)


class Mosquitto:
    """A Mosquitto on 127.0.0.1:port with its config, persistence and log in a folder of its
    own (a temporary one unless given). Anonymous clients are allowed: it listens on the
    loopback only."""

    def __init__(self, port=None, folder=None):
        self.port = port or free_port()
        self.own = folder is None
        self.folder = folder or tempfile.mkdtemp(prefix="club-mosquitto-")
        self.proc = None

    def config(self):
        d = self.folder
        return ("listener %d 127.0.0.1\nallow_anonymous true\npersistence true\n"
                "persistence_location %s/\nlog_dest file %s/mosquitto.log\n"
                "max_queued_messages 100000\n" % (self.port, d, d)
                # run as root, Mosquitto would switch to its own user, who can't write here
                + ("user root\n" if hasattr(os, "geteuid") and os.geteuid() == 0 else ""))

    def start(self, timeout=10.0):
        exe = find()
        if exe is None:
            raise RuntimeError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        os.makedirs(self.folder, exist_ok=True)
        conf = os.path.join(self.folder, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write(self.config())
        self.proc = subprocess.Popen([exe, "-c", conf], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError("mosquitto exited: %s" % err)
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("mosquitto did not listen on 127.0.0.1:%d" % self.port)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None and self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None
        if self.own:
            shutil.rmtree(self.folder, ignore_errors=True)
