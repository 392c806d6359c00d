# The board with the club network, under MicroPython (the board-like VM): boards/main.py's app
# (firmware.app.Runner with a Store on littlefs and firmware.net.start's Net) on a bare fake
# I2C bus and keypad, driven by commands on stdin, one a line, each answered by "OK" and the
# board's status as JSON (tests/netboard.py drives it; a power cut is the host killing it, and
# the next run on the same flash.bin is the board booting again; the status's longest_ms is the
# longest Net.work call so far, in real time):
#   keys K K ...   press and release each keypad key (80 ms held, 60 ms after)
#   run MS         MS ms of loop passes (5 ms each, simulated time)
#   cut            the board's socket closed under the MQTT client (a link cut)
#   state          "S" and the match's state JSON
#   records        a line "J [seq, depth, kind, payload]" for each journal record (the match on
#                  flash)
#   heap           "H" and the heap after a collection: {"net": bytes of importing firmware.net
#                  and making the Net with the app loaded, "alloc": gc.mem_alloc(), "free":
#                  gc.mem_free()}
# Its files: secrets.json (firmware.net.load; without it no network, as boards/main.py),
# umqtt/simple.mpy (the MQTT client), flash.bin.
import gc
import json
import os
import sys
import time

from tests.mp_app import KEYMAP, Col, Pin, mount_flash


class Quiet:
    # An I2C bus to an OLED that takes every write and keeps nothing (the screens are not read).
    def scan(self):
        return [0x3C]

    def writeto(self, addr, buf, stop=True):
        pass

    def writevto(self, addr, vector, stop=True):
        pass


class Board:
    def __init__(self, game):
        from firmware import boot
        from firmware.mem import unload

        boot.load(boot.APP + ("ssd1306", "firmware.drivers.oled_i2c", "firmware.drivers.oled"))
        unload("boot")
        from firmware import hw
        from firmware.app import Hardware, Runner
        from firmware.store import Store

        mount_flash()
        st = Store("/flash")
        screen = hw.display("oled", i2c=Quiet(), sleep_ms=lambda ms: None)
        rows = [Pin() for _ in range(4)]
        self.cols = [Col(rows, c) for c in range(4)]
        inp = hw.keys("keypad", rows=rows, cols=self.cols, keymap=KEYMAP)
        unload("hw")
        self.runner = Runner(Hardware(screen, inp, "oled", "keypad", None, None, "en"),
                             game=game, log=True, store=st)
        gc.collect()
        self.m0 = gc.mem_alloc()  # pyright: ignore[reportAttributeAccessIssue]
        self.net = None
        try:  # as boards/main.py: without secrets.json, firmware.net is never imported
            os.stat("secrets.json")
            from firmware import net

            self.net = net.start({"wifi": True}, st)
        except OSError:
            pass
        gc.collect()
        self.cost = gc.mem_alloc() - self.m0  # pyright: ignore[reportAttributeAccessIssue]
        self.longest = 0  # the longest Net.work call so far, in real ms
        if self.net is not None:
            work = self.net.work

            def timed(now, match):
                t = time.ticks_us()  # pyright: ignore[reportAttributeAccessIssue]
                work(now, match)
                d = time.ticks_diff(time.ticks_us(), t)  # pyright: ignore
                if d > self.longest:
                    self.longest = d

            self.net.work = timed  # pyright: ignore[reportAttributeAccessIssue]
        r = self.runner
        r.net = r.app.net = self.net  # (what Runner(net=) and App(net=) hold)
        r.app.link = self.net and self.net.link
        self.now = 0

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            self.runner.tick(self.now)
            self.now += 5

    def press(self, k):
        for c in self.cols:
            c.down = KEYMAP.index(k)
        self.run(80)
        for c in self.cols:
            c.down = -1
        self.run(60)

    def status(self):
        n = self.net
        r = self.runner
        log = r.app.ctl.match.log if r.app.ctl is not None else None
        out = {"head": getattr(log, "head", -1), "restarts": r.restarts, "app_error": r.error}
        if n is not None:
            out.update(link=n.link, said=n.said, sent=n.sent, retries=n.retries, acked=n.acked,
                       n=n.n, error=repr(n.error) if n.error else None,
                       longest_ms=self.longest / 1000)
        return out

    def command(self, line):
        op, _, arg = line.partition(" ")
        if op == "keys":
            for k in arg.split():
                self.press(k)
        elif op == "run":
            self.run(int(arg))
        elif op == "cut":
            c = self.net.c
            if c is not None:
                c.sock.close()
        elif op == "state":
            print("S", json.dumps(self.runner.app.ctl.match.state()))
        elif op == "records":
            log = self.runner.app.ctl.match.log
            for r in log.records(0, log.head + 1):
                print("J", json.dumps(list(r)))
        elif op == "heap":
            gc.collect()
            print("H", json.dumps({"net": self.cost,
                                   "alloc": gc.mem_alloc(),  # pyright: ignore
                                   "free": gc.mem_free()}))  # pyright: ignore
        else:
            raise ValueError("mp_net_board: unknown command " + line)


def main():
    import mp_argv  # pyright: ignore[reportMissingImports]  (written by host_tools/mpy.py)

    b = Board(mp_argv.ARGV[1])
    print("OK", json.dumps(b.status()))
    while True:
        line = sys.stdin.readline()
        if not line or line.strip() == "quit":
            break
        b.command(line.strip())
        print("OK", json.dumps(b.status()))


main()
