"""The virtual Pico: MicroPython's real rp2 firmware in rp2040js, with the scoreboard's devices.

An emulated RP2040 (npm `rp2040js`, pinned in package.json; `make node_modules`) boots the
firmware UF2 (`$VPICO_UF2`, else `../shared/pico/firmware.uf2` beside the repository) with the
RP2040's boot ROM (bootrom.mjs). Its USB serial REPL is on a pseudo-terminal that the real
`mpremote` talks to (bridge.py), its 2 MB flash (the littlefs filesystem) in a file, and around
it (periph.mjs) the SSD1306 OLED at 0x3C on I2C0 (GP4/GP5), the 4x4 keypad (rows GP6-9,
columns GP10-13) and the buttons P1 P2 FOUL UNDO MISS OK (GP14 15 16 20 21 22), wired as
boards/pico.py says, with a control socket for tests.

    with VPico() as b:          # a blank flash in a temporary folder; VPico(flash=PATH) keeps it
        b.pty                   # /dev/pts/N: mpremote connect b.pty ...
        b.press("A")            # hold a key 80 ms of emulated time
        b.text()                # the panel's text rows (read off its pixels)
        b.power_cut()           # kill the emulator mid-whatever, boot again on the same flash
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FS_START, FS_END = 0xA0000, 0x200000  # the littlefs region of the 2 MB flash (rp2 port)
UF2_SHA256 = "aad02af5478f3c6ea8ea84460495c9cc9e49f1e1bb2f9f6208e58ccb56457e4e"


def uf2_path() -> Path:
    """The firmware the board boots: $VPICO_UF2, else ../shared/pico/firmware.uf2."""
    env = os.environ.get("VPICO_UF2")
    return Path(env) if env else ROOT.parent / "shared" / "pico" / "firmware.uf2"


def missing() -> str | None:
    """Why a virtual Pico can't start here (no node, no rp2040js, no firmware), or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (ROOT / "node_modules" / "rp2040js").is_dir():
        return "rp2040js is not installed: run `make node_modules` (npm ci)"
    if not uf2_path().is_file():
        return "no firmware at %s (set VPICO_UF2)" % uf2_path()
    return None


def screen_bitmap(lines: list[str]) -> list[bytearray]:
    """The control socket's 64 lines of '#'/'.' as rows of 0/1."""
    return [bytearray(1 if c == "#" else 0 for c in ln) for ln in lines]


class VPico:
    """One virtual Pico: start() boots it (the bridge and the emulator, in their own process
    group), stop() ends them. The flash file outlives it unless it was made here."""

    def __init__(self, flash: str | os.PathLike | None = None, fresh: bool = False,
                 uf2: str | os.PathLike | None = None, i2c_instant: bool = False,
                 pace: bool = True, boot_timeout: float = 60.0):
        self._tmp = None
        if flash is None:
            self._tmp = tempfile.mkdtemp(prefix="vpico-")
            flash = os.path.join(self._tmp, "flash.bin")
        self.flash = Path(flash)
        self.fresh = fresh
        self.uf2 = Path(uf2) if uf2 else uf2_path()
        self.i2c_instant = i2c_instant
        self.pace = pace
        self.boot_timeout = boot_timeout
        self.ctl = str(self.flash.with_suffix(".ctl"))
        self.logfile = self.flash.with_suffix(".log")
        self.proc: subprocess.Popen | None = None
        self.pty = ""

    # ------------------------------------------------------------ life

    def start(self) -> VPico:
        why = missing() if self.uf2 == uf2_path() else None
        if why:
            raise RuntimeError("virtual Pico: " + why)
        if self.fresh and self.flash.exists():
            self.flash.unlink()
        for p in (Path(str(self.flash) + ".reset"), Path(self.ctl)):
            if p.exists():
                p.unlink()  # power-on: no watchdog state carried over
        cmd = [sys.executable, "-u", str(HERE / "bridge.py"), "--", "node", str(HERE / "run.mjs"),
               "--uf2", str(self.uf2), "--flash", str(self.flash), "--ctl", self.ctl]
        if self.i2c_instant:
            cmd.append("--i2c-instant")
        if not self.pace:
            cmd.append("--no-pace")
        self._log = open(self.logfile, "wb")
        self._log_start = 0
        # The bridge stops with the process that started it (a test run killed mid-way leaves
        # no emulator behind).
        env = dict(os.environ, VPICO_BRIDGE_ORPHAN_STOP="1")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self._log, env=env,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        if not line.startswith("PTY "):
            self.stop()
            raise RuntimeError("virtual Pico: the bridge did not start: %r %s" % (line, self.log_text()))
        self.pty = line.split()[1]
        self.proc.stdout.readline()  # "PID n": the bridge's, which is self.proc
        self.proc.stdout.close()
        self.wait_boot(1)
        return self

    def __enter__(self) -> VPico:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def log_text(self) -> str:
        try:
            with open(self.logfile, "rb") as f:
                f.seek(self._log_start)
                return f.read().decode("latin1")
        except (OSError, AttributeError):
            return ""

    def boots(self) -> int:
        """How many times the emulator's USB came up since start() (1 after start)."""
        return self.log_text().count("usb cdc connected")

    def wait_boot(self, n: int, timeout: float | None = None) -> None:
        """Wait until the USB serial has come up n times since start()."""
        deadline = time.monotonic() + (timeout or self.boot_timeout)
        while self.boots() < n:
            if self.proc is None or self.proc.poll() is not None:
                raise RuntimeError("virtual Pico stopped: " + self.log_text()[-2000:])
            if time.monotonic() > deadline:
                raise TimeoutError("virtual Pico did not come up: " + self.log_text()[-2000:])
            time.sleep(0.05)

    def power_cut(self, wait: bool = True) -> None:
        """Cut the power mid-whatever (SIGKILL to the emulator) and boot again on the same
        flash, behind the same pty; wait: until its USB is up again."""
        n = self.boots()
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGHUP)
        if wait:
            self.wait_boot(n + 1)

    def cut_during_flash(self, n: int = 1) -> None:
        """Arm a power cut in the middle of the n-th flash erase/program from now (half of its
        bytes done): the emulator ends there and boots again on the same flash."""
        self.cmd("cut %d" % n)

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                os.kill(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait()
            self.proc = None
            self._log.close()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    # ------------------------------------------------------------ the control socket

    def cmd(self, line: str, timeout: float = 120.0, retry_s: float = 30.0,
            empty: bool = False) -> str:
        """One command on the control socket, its whole reply. Retries while the socket is
        absent (the emulator restarting after a reset or a power cut)."""
        deadline = time.monotonic() + retry_s
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(timeout)
            try:
                s.connect(self.ctl)
                s.sendall(line.encode() + b"\n")
                out = b""
                while True:
                    d = s.recv(65536)
                    if not d:
                        break
                    out += d
            except (FileNotFoundError, ConnectionRefusedError, ConnectionResetError,
                    BrokenPipeError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
                continue
            finally:
                s.close()
            if not out and not empty:  # the emulator went away mid-command: ask the next one
                if time.monotonic() > deadline:
                    raise RuntimeError("virtual Pico: no reply to %r" % line)
                time.sleep(0.1)
                continue
            text = out.decode("latin1")
            if text.startswith("error:"):
                raise RuntimeError(text.strip())
            return text

    def press(self, key: str, ms: float = 80) -> tuple[int, int]:
        """Hold key (0-9 A-D * #, P1 P2 FOUL UNDO MISS OK; "0+C" both) for ms of emulated
        time; returns at once with (down_us, up_us)."""
        r = self.cmd("press %s %s" % (key, ms)).split()
        return int(r[1]), int(r[2])

    def down(self, key: str) -> int:
        return int(self.cmd("down " + key).split()[1])

    def up(self, key: str) -> int:
        return int(self.cmd("up " + key).split()[1])

    def wait(self, ms: float) -> int:
        """Block until ms of emulated time have passed; the emulated time (us) then."""
        return int(self.cmd("wait %s" % ms, timeout=600.0).split()[1])

    def time_us(self) -> int:
        return int(self.cmd("time"))

    def screen(self, raw: bool = False) -> tuple[list[str], str]:
        """(64 lines of '#'/'.' as the panel shows them, the status line)."""
        lines = self.cmd("screen raw" if raw else "screen").rstrip("\n").split("\n")
        return lines[:64], lines[64] if len(lines) > 64 else ""

    def text(self) -> list[str]:
        """The panel's text rows, read off its pixels (8x8 cells; double size found)."""
        from host_tools.fakes.oled import read_text

        return read_text(screen_bitmap(self.screen()[0]))

    def png(self, path: str | os.PathLike, scale: int = 4) -> str:
        return self.cmd("png %s %d" % (os.path.abspath(path), scale)).strip()

    def stats(self) -> dict:
        return json.loads(self.cmd("stats"))

    def log(self, since: int = 0) -> list[dict]:
        """Events from seq since on: key down/up/seen and I2C transactions (times in us)."""
        return [json.loads(x) for x in self.cmd("log %d" % since).splitlines() if x.strip()]

    def passes(self, from_us: int = 0) -> list[tuple[int, int]]:
        return [tuple(int(float(x)) for x in ln.split())  # type: ignore[misc]
                for ln in self.cmd("passes %d" % from_us).splitlines() if ln.strip()]

    def serial(self, n: int = 4096) -> str:
        """The last n bytes of the board's USB serial output (this boot)."""
        return self.cmd("serial %d" % n, empty=True)

    @contextlib.contextmanager
    def filesystem(self):
        """The board's littlefs as it is on the flash file now, mounted read-only-by-use on a
        copy (littlefs-python), without stopping the firmware: read it between writes.

            with board.filesystem() as fs: fs.listdir("/")
        """
        from littlefs import LittleFS, UserContext

        data = bytearray(self.flash.read_bytes()[FS_START:FS_END])
        fs = LittleFS(context=UserContext(buffer=data), block_size=4096,
                      block_count=len(data) // 4096, read_size=32, prog_size=32,
                      lookahead_size=32, mount=True)
        try:
            yield fs
        finally:
            fs.unmount()

    def listdir(self, path: str = "/") -> list[str]:
        with self.filesystem() as fs:
            return fs.listdir(path)

    def read_file(self, path: str) -> bytes:
        with self.filesystem() as fs, fs.open(path, "rb") as f:
            return f.read()

    def copy_tree(self, src: str, dest: str | os.PathLike) -> Path:
        """Copy folder src of the board's filesystem (as on flash now) to the host's dest."""
        out = Path(dest)

        def walk(fs, path, to):
            to.mkdir(parents=True, exist_ok=True)
            for name in fs.listdir(path):
                p = path.rstrip("/") + "/" + name
                if fs.stat(p).type == 2:  # LFS_TYPE_DIR
                    walk(fs, p, to / name)
                else:
                    with fs.open(p, "rb") as f:
                        (to / name).write_bytes(f.read())

        with self.filesystem() as fs:
            walk(fs, src, out)
        return out

    def wait_text(self, want, timeout: float = 60.0, step_ms: float = 50) -> list[str]:
        """Let the board run until its panel's text satisfies want (a function of the rows, or
        a string one row must contain); the rows. Fails after timeout seconds of wall time."""
        ok = want if callable(want) else (lambda rows: any(want in r for r in rows))
        deadline = time.monotonic() + timeout
        while True:
            rows = self.text()
            if ok(rows):
                return rows
            if time.monotonic() > deadline:
                raise TimeoutError("the panel never showed %r; it shows %r" % (want, rows))
            self.wait(step_ms)
