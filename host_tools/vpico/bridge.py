#!/usr/bin/env python3
# pyright: reportOptionalMemberAccess=false
# (the emulator is started with stdin and stdout pipes: neither is None)
"""Put an emulated Pico's USB serial (run.mjs's stdin/stdout) on a pseudo-terminal.

usage: bridge.py [--link PATH] -- node run.mjs ARGS...

Prints "PTY /dev/pts/N" and "PID n" (this process) on stdout once the pty exists. The pty stays
the same for the life of this process; the emulator behind it is restarted when the firmware
asks for a hard reset (run.mjs exits with 3: machine.reset(), a watchdog), as a board would
reboot with its USB port re-enumerating, and on SIGHUP (a "power cut": the emulator is killed
with SIGKILL mid-whatever and booted again on the same flash file). SIGTERM/SIGINT: stop both.
"""
import argparse
import errno
import os
import select
import signal
import subprocess
import sys
import time
import tty

ap = argparse.ArgumentParser(prog="bridge.py", description="Put an emulated Pico's USB serial "
                             "(the command's stdin and stdout) on a pseudo-terminal.")
ap.add_argument("--link", metavar="PATH", help="a symlink to the pty while it lives")
ap.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND ...",
                help="the emulator's command line (node run.mjs ARGS...)")
ns = ap.parse_args()
link = ns.link
args = ns.command[1:] if ns.command[:1] == ["--"] else ns.command
if not args:
    ap.error("the emulator's command is missing (-- node run.mjs ARGS...)")

master, slave = os.openpty()
tty.setraw(slave)  # no echo, no line editing: the slave's input is the device's raw output
os.set_blocking(master, False)
pty_name = os.ttyname(slave)
if link:
    try:
        os.unlink(link)
    except FileNotFoundError:
        pass
    os.symlink(pty_name, link)
print(f"PTY {pty_name}", flush=True)
print(f"PID {os.getpid()}", flush=True)

state = {"stop": False, "powercut": False}


def on_term(signum, frame):
    state["stop"] = True


def on_hup(signum, frame):
    state["powercut"] = True


signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGINT, on_term)
signal.signal(signal.SIGHUP, on_hup)


def log(msg):
    sys.stderr.write(f"[bridge {time.strftime('%H:%M:%S')}] {msg}\n")
    sys.stderr.flush()


def start():
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    os.set_blocking(p.stdout.fileno(), False)
    log(f"emulator started, pid {p.pid}")
    return p


proc = start()
to_dev = b""  # host -> device bytes not yet written to the emulator's stdin
parent = os.getppid()
while not state["stop"]:
    if os.environ.get("VPICO_BRIDGE_ORPHAN_STOP") and os.getppid() != parent:
        log("the process that started the board is gone: stopping")
        break
    if state["powercut"]:
        state["powercut"] = False
        log("power cut (SIGKILL to the emulator), restarting")
        proc.kill()
        proc.wait()
        proc = start()
        to_dev = b""
    rfds = [master, proc.stdout.fileno()]
    wfds = [proc.stdin.fileno()] if to_dev else []
    try:
        r, w, _ = select.select(rfds, wfds, [], 0.5)
    except InterruptedError:
        continue
    if master in r:
        try:
            to_dev += os.read(master, 65536)
        except OSError as e:  # EIO: no one has the slave open (we hold it, so rare)
            if e.errno not in (errno.EIO, errno.EAGAIN):
                raise
    if w and to_dev:
        try:
            n = os.write(proc.stdin.fileno(), to_dev)
            to_dev = to_dev[n:]
        except BrokenPipeError:
            to_dev = b""
    if proc.stdout.fileno() in r:
        try:
            data = os.read(proc.stdout.fileno(), 65536)
        except BlockingIOError:
            data = None
        if data:
            try:
                os.write(master, data)
            except BlockingIOError:
                pass  # nobody reads the pty and its buffer is full: drop, like an unread USB port
    rc = proc.poll()
    if rc is not None:
        if rc in (3, 4):
            log("hard reset requested by the firmware, rebooting the emulator" if rc == 3 else
                "power cut timed by the flash (status 4), booting again")
            proc = start()
            to_dev = b""
        elif not state["stop"]:
            log(f"emulator exited with {rc}; stopping")
            break
proc.terminate()
try:
    proc.wait(5)
except subprocess.TimeoutExpired:
    proc.kill()
if link:
    try:
        os.unlink(link)
    except OSError:
        pass
