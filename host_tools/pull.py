# make pull PORT=... DIR=...: copy the board's match records off it with mpremote (only new files).
"""Copy the match records off a board into a folder: the match being played (`/match`) and the
archived ones (`/hist/<n>`), as the board stores them (firmware/store.py), plus the settings.

A file already in the folder with the same size is not copied again (a journal only grows; an
archived match never changes). The folder's `match/` follows the board's: when a new match has
started on the board, the last one is in `hist/` there and here. Archived matches the board has
let go of stay in the folder. Works on a board running the scoreboard with its watchdog (mpremote's
Ctrl-C hands it to the REPL, the watchdog paused). At the end the board's clock is set to the
host's (`mpremote rtc --set`, in UTC: the times on the records to come) and the app started again
with a soft reset, so the match resumes (a hard reset would put a Pico's clock back to 2021).

usage: python -m host_tools.pull --port PORT [--out DIR] [--no-reset]
       (make pull PORT=/dev/ttyACM0 DIR=records)
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Callable

from host_tools import cli
from host_tools.deploy import Board, DeployError

# Run on the board (mpremote exec): the files of its records, with their sizes.
_LIST = """
import os, json
def _walk(p, out):
    try:
        names = os.listdir(p)
    except OSError:
        return
    for n in names:
        q = p + "/" + n
        st = os.stat(q)
        if st[0] & 0x4000:
            _walk(q, out)
        else:
            out.append([q[1:], st[6]])
_out = []
for _p in ("/match", "/hist"):
    _walk(_p, _out)
try:
    _out.append(["settings.json", os.stat("/settings.json")[6]])
except OSError:
    pass
print("PULL-LIST " + json.dumps(_out))
"""


def remote_files(b: Board) -> dict[str, int]:
    r = b.mpremote(["exec", _LIST], timeout=60)
    for line in r.stdout.splitlines():
        if line.startswith("PULL-LIST "):
            return {p: n for p, n in json.loads(line[len("PULL-LIST "):])}
    raise DeployError("the board did not list its files: %r" % r.stdout[-300:])


def pull(port: str, out_dir: str | Path, reset: bool = True,
         out: Callable[[str], None] = print) -> dict:
    """Copy what is new; returns {"copied": [...], "bytes": n, "unchanged": n, "dropped": [...]}."""
    t0 = time.monotonic()
    dest = Path(out_dir)
    b = Board(port, out)
    info = b.probe()
    if info.get("impl") != "micropython":
        raise DeployError("%s is not running MicroPython" % port)
    files = remote_files(b)
    copy = [p for p, n in sorted(files.items())
            if not (dest / p).is_file() or (dest / p).stat().st_size != n]
    # The folder's match/ mirrors the board's: files of an earlier match go.
    dropped = []
    if (dest / "match").is_dir():
        for f in sorted((dest / "match").rglob("*")):
            rel = f.relative_to(dest).as_posix()
            if f.is_file() and rel not in files:
                f.unlink()
                dropped.append(rel)
    nbytes = sum(files[p] for p in copy)
    for i in range(0, len(copy), 40):
        args: list[str] = []
        for p in copy[i:i + 40]:
            (dest / p).parent.mkdir(parents=True, exist_ok=True)
            args += (["+"] if args else []) + ["cp", ":/" + p, str(dest / p)]
        b.mpremote(args, timeout=60 + files[copy[i]] / 1000 + 2 * len(args))
    for p in copy:
        out("  copy %s (%d bytes)" % (p, files[p]))
    b.mpremote(["rtc", "--set"], timeout=20)
    if reset:
        b.start()
    out("pull: %d copied (%d bytes), %d up to date, %d dropped, into %s in %.1f s%s"
        % (len(copy), nbytes, len(files) - len(copy), len(dropped), dest,
           time.monotonic() - t0, "; clock set" + ("; app started" if reset else "")))
    if (dest / "match").is_dir() and not any((dest / "match").rglob("*")):
        shutil.rmtree(dest / "match")
    return {"copied": copy, "bytes": nbytes, "unchanged": len(files) - len(copy),
            "dropped": dropped}


def main(argv: list[str] | None = None) -> int:
    ap = cli.parser("host_tools.pull", "Copy a board's match records into a folder with mpremote "
                    "(only what is new), then list its matches.")
    ap.add_argument("--port", default="/dev/ttyACM0",
                    help="the board's serial port (default /dev/ttyACM0)")
    ap.add_argument("--out", default="records", metavar="DIR",
                    help="the folder the records go to (default records)")
    ap.add_argument("--no-reset", dest="reset", action="store_false",
                    help="leave the board at the REPL (else the app starts again: the match "
                    "resumes)")
    ns = ap.parse_args(argv)
    port, dest, reset = ns.port, ns.out, ns.reset
    try:
        pull(port, dest, reset)
    except DeployError as e:
        print("pull: error: %s" % e, file=sys.stderr)
        return 1
    from host_tools import journal_read

    journal_read.main([str(dest)])  # what the folder holds now: each match, finished or not
    return 0


if __name__ == "__main__":
    cli.run(main)
