"""The virtual Pico: MicroPython's real rp2 firmware in rp2040js, with the scoreboard's devices.

An emulated RP2040 (npm `rp2040js`, pinned in package.json; `make node_modules`) boots the
firmware UF2 (`$VPICO_UF2`, else `../shared/pico/firmware.uf2` beside the repository) with the
RP2040's boot ROM (bootrom.mjs). Its USB serial REPL is on a pseudo-terminal that the real
`mpremote` talks to (bridge.py), its 2 MB flash (the littlefs filesystem) in a file, and around
it (periph.mjs, devices.mjs) the display the profile's options choose (`display`: the SSD1306
or SH1106 OLED at 0x3C or the HD44780 LCD behind a PCF8574 at 0x27 on I2C0 GP4/GP5, the MAX7219
digits on SPI0 GP18/GP19 with LOAD on GP17, or a wall panel alone), the wall panel (`wall`:
WS2812B on GP28, or a MAX7219 dot-matrix chain with LOAD on GP27), the 4x4 keypad (rows GP6-9,
columns GP10-13) and the buttons P1 P2 FOUL UNDO MISS OK (GP14 15 16 20 21 22), wired as
boards/pico.py says, with a control socket for tests.

    with VPico() as b:          # a blank flash in a temporary folder; VPico(flash=PATH) keeps it
        b.pty                   # /dev/pts/N: mpremote connect b.pty ...
        b.press("A")            # hold a key 80 ms of emulated time
        b.text()                # the display's text rows (OLED: read off its pixels)
        b.power_cut()           # kill the emulator mid-whatever, boot again on the same flash
    VPico(display="lcd20", wall="neopixel")    # the devices of OPTIONS = {"display": ..., ...}
    b.device(), b.wall_state()  # the chips' state (DDRAM/CGRAM, MAX7219 registers, pixels)
    b.wall_rows()               # the wall panel as seen, decoded by host_tools.fakes
    b.tones(26)                 # the PWM tones on GP26 (the buzzer): (start_ms, ms, Hz)
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
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FS_START, FS_END = 0xA0000, 0x200000  # the littlefs region of the 2 MB flash (rp2 port)
UF2_SHA256 = "aad02af5478f3c6ea8ea84460495c9cc9e49f1e1bb2f9f6208e58ccb56457e4e"
DISPLAYS = ("oled", "sh1106", "lcd20", "lcd16", "digits", "neopixel", "matrix")
WALLS = ("neopixel", "matrix")


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
                 pace: bool = True, boot_timeout: float = 60.0, display: str = "oled",
                 wall: str | None = None, wall_size: tuple[int, int] = (32, 8),
                 wall_wiring: dict | None = None, flash_timing: bool = False):
        if display not in DISPLAYS or (wall is not None and wall not in WALLS):
            raise ValueError("virtual Pico: display %r, wall %r" % (display, wall))
        self.display = display
        self.wall = display if display in WALLS else wall
        self.wall_size = tuple(wall_size)
        self.wall_wiring = dict(wall_wiring or {})
        self._tmp = None
        if flash is None:
            self._tmp = tempfile.mkdtemp(prefix="vpico-")
            flash = os.path.join(self._tmp, "flash.bin")
        self.flash = Path(flash)
        self.fresh = fresh
        self.uf2 = Path(uf2) if uf2 else uf2_path()
        self.i2c_instant = i2c_instant
        self.pace = pace
        self.flash_timing = flash_timing  # erases and programs take a W25Q16JV's typical time
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
        if self.flash_timing:
            cmd.append("--flash-timing")
        cmd += ["--display", self.display, "--wall-size", "%dx%d" % self.wall_size]
        if self.wall and self.display not in WALLS:
            cmd += ["--wall", self.wall]
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

    def device(self) -> dict:
        """The selected display's chip state: an OLED's RAM and settings, the LCD's DDRAM codes
        by row, CGRAM and settings, the MAX7219 registers of each chip, or a wall panel's."""
        return json.loads(self.cmd("device"))

    def wall_state(self) -> dict | None:
        """The wall panel's state (NeoPixel: the last latched frame's bytes as sent, hex; matrix:
        each chip's registers, farthest from DIN first), or None without one."""
        return json.loads(self.cmd("wall"))

    def decoder(self, state: dict | None = None) -> Any:
        """A host_tools.fakes decoder holding what the selected display's chips hold now (the
        same decoders the host fakes feed from recorded bus bytes)."""
        return decoder_from_state(state or self.device(), self.wall_wiring)

    def wall_decoder(self) -> Any:
        st = self.wall_state()
        return None if st is None else decoder_from_state(st, self.wall_wiring)

    def wall_rows(self) -> list | None:
        """The wall panel as seen: rows of 0xRRGGBB (NeoPixel) or of 0/1 (matrix), or None."""
        d = self.wall_decoder()
        return None if d is None else d.rows()

    def wall_frame(self) -> bytes | None:
        """The NeoPixel panel's last latched frame, the bytes as the strip got them (GRB)."""
        st = self.wall_state()
        return bytes.fromhex(st["bytes"]) if st and st["kind"] == "neopixel" else None

    def text(self) -> list[str]:
        """What the display shows, as the host simulator's text() gives it: an OLED's text rows
        (read off its pixels: 8x8 cells, double size found), the LCD's rows, the digits as one
        string, a wall panel's pixel art and reading."""
        if self.display in ("oled", "sh1106"):
            from host_tools.fakes.oled import read_text

            return read_text(screen_bitmap(self.screen()[0]))
        from host_tools.fakehw import screen_text

        rows: Any = screen_text(self.display, self.decoder())
        return rows

    def png(self, path: str | os.PathLike, scale: int = 4) -> str:
        """The display as a PNG: an OLED drawn by the emulator, the others by host_tools.shots
        from the decoded chip state."""
        path = os.path.abspath(path)
        if self.display in ("oled", "sh1106"):
            return self.cmd("png %s %d" % (path, scale)).strip()
        from host_tools import shots

        d = self.decoder()
        if self.display in WALLS:
            shots.save_wall_png(d.rows(), path)
        elif self.display == "digits":
            shots.save_digits_png(d.segments(), path, scale=2)
        else:
            g = d.grid()
            shots.save_lcd_png(g, path, cols=len(g[0]))
        return "ok " + path

    def tones(self, pin: int | None = None) -> list[tuple[float, float, float]]:
        """The tones PWM slices played on pin (None: any pin), decoded from the pin's edges:
        (start_ms, duration_ms, freq_hz) in emulated time, from the first rising edge to the
        last edge; a tone still sounding is last, as far as it has come."""
        return [(t["t0"] / 1000, (t["t1"] - t["t0"]) / 1000, t["hz"]) for t in self.tone_log(pin)]

    def tone_log(self, pin: int | None = None) -> list[dict]:
        """The tones as the emulator decodes them: {pin, t0, t1 (us), hz, duty, cycles}, the
        one still sounding with "on": true."""
        return json.loads(self.cmd("tones" if pin is None else "tones %d" % pin))

    def stats(self) -> dict:
        return json.loads(self.cmd("stats"))

    def log(self, since: int = 0) -> list[dict]:
        """Events from seq since on: key down/up/seen and I2C transactions (times in us)."""
        return [json.loads(x) for x in self.cmd("log %d" % since).splitlines() if x.strip()]

    def passes(self, from_us: int = 0) -> list[tuple[int, int]]:
        """(n, us) of each keypad scan row by row since from_us: the loop passes while a key is
        down or settling (the n that events' "pass" names)."""
        return self._times("passes", from_us)

    def feeds(self, from_us: int = 0) -> list[tuple[int, int]]:
        """(n, us) of each watchdog feed since from_us: the end of each of the app's passes."""
        return self._times("feeds", from_us)

    def _times(self, what: str, from_us: int) -> list[tuple[int, int]]:
        return [tuple(int(float(x)) for x in ln.split())  # type: ignore[misc]
                for ln in self.cmd("%s %d" % (what, from_us)).splitlines() if ln.strip()]

    def serial(self, n: int = 4096) -> str:
        """The last n bytes of the board's USB serial output (this boot)."""
        return self.cmd("serial %d" % n, empty=True)

    @contextlib.contextmanager
    def filesystem(self):
        """The board's littlefs as it is on the flash file now, mounted read-only-by-use on a
        copy (littlefs-python, host_tools.norflash), without stopping the firmware: read it
        between writes.

            with board.filesystem() as fs: fs.listdir("/")
        """
        from host_tools import norflash

        _, fs = norflash.mount(self.flash.read_bytes()[FS_START:FS_END])
        try:
            yield fs
        finally:
            fs.unmount()

    def put_files(self, files: dict[str, bytes]) -> None:
        """Write files (board path: content; their folders made) into the board's littlefs on
        its flash file, as mpremote's cp would leave them; a board with no flash file yet gets
        a blank flash, its filesystem formatted as the rp2 port formats it (littlefs-python,
        host_tools.norflash). For a board not running (before start(), or after stop())."""
        if self.proc is not None:
            raise RuntimeError("virtual Pico: put_files needs the board stopped")
        from host_tools import norflash

        if self.flash.exists():
            flash = bytearray(self.flash.read_bytes())
            nor, fs = norflash.mount(bytes(flash[FS_START:FS_END]))
        else:
            flash = bytearray(b"\xff" * FS_END)
            nor, fs = norflash.new_fs(norflash.PICO_BLOCKS)
        try:
            norflash.write_files(fs, files)
        finally:
            fs.unmount()
        flash[FS_START:FS_END] = nor.buffer
        self.flash.write_bytes(flash)

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
        a string one row must contain) and stays the same for step_ms (a screen whose rows are
        still on the wire is not read half drawn); the rows. Fails after timeout seconds of
        wall time."""
        ok = want if callable(want) else (lambda rows: any(want in r for r in rows))
        deadline = time.monotonic() + timeout
        seen = None
        while True:
            rows = self.text()
            if rows == seen:
                return rows
            seen = rows if ok(rows) else None
            if time.monotonic() > deadline:
                raise TimeoutError("the panel never showed %r; it shows %r" % (want, rows))
            self.wait(step_ms)


def decoder_from_state(st: dict, wiring: dict | None = None) -> Any:
    """A host_tools.fakes decoder (Ssd1306Decoder, LcdDecoder, Max7219Decoder, WallDecoder) set
    to the chip state the control socket's `device` or `wall` gave."""
    kind = st["kind"]
    if kind in ("oled", "sh1106"):
        from host_tools.fakes.oled import Ssd1306Decoder

        o = Ssd1306Decoder(st["width"], st["height"], sh1106=kind == "sh1106")
        o.ram = bytearray.fromhex(st["ram"])
        o.on, o.inverted, o.entire_on = st["on"], st["inverse"], st["entire_on"]
        o.seg_remap, o.com_remap = st["seg_remap"], st["com_rev"]
        o.start_line, o.offset, o.contrast = st["start_line"], st["offset"], st["contrast"]
        return o
    if kind in ("lcd20", "lcd16"):
        from host_tools.fakes.lcd import LcdDecoder

        d = LcdDecoder(st["cols"], st["rows"])
        for a, row in zip(d._row_addrs(), st["codes"]):
            d.ddram[a:a + len(row)] = bytes(row)
        d.cgram = bytearray(st["cgram"])
        d.display_on, d.cursor, d.blink = st["display_on"], st["cursor"], st["blink"]
        d.backlight, d.two_lines, d.four_bit = st["backlight"], st["two_lines"], st["four_bit"]
        d.shift = st["shift"]
        return d
    if kind == "digits":
        return _max7219(st["chips"][0])
    from host_tools.fakehw import WallDecoder

    w = WallDecoder(kind, tuple(st["size"]), wiring)
    if kind == "neopixel":
        w.last = bytes.fromhex(st["bytes"])
    else:
        assert w.mx is not None
        w.mx.mods = [_max7219(c) for c in st["chips"]]
        w.mx.frames = st["latches"]
    return w


def _max7219(c: dict):
    from host_tools.fakes.max7219 import Max7219Decoder

    m = Max7219Decoder()
    m.digit = bytearray(c["digit"])
    m.decode, m.intensity, m.scan_limit = c["decode"], c["intensity"], c["scan_limit"]
    m.shutdown, m.test, m.writes = c["shutdown"], c["test"], c["writes"]
    return m
