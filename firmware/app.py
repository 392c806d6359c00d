# The scoreboard loop: input -> controller -> views -> display, a watchdog, soft restart on errors.
# Pure of `machine`: the hardware comes in a Hardware bundle (built by boards/*.py or host fakes
# with firmware.hw).
import gc
import json
import sys

from firmware import views
from firmware.keys import ticks_diff
from firmware.lang import texts as lang_text
from firmware.mem import collect, const
from firmware.table import Table
from firmware.ui import Controller

_ERROR_MS = const(2000)  # how long the error screen stays before the restart (< watchdog timeout)
_HEALTHY_MS = const(3000)  # a boot is healthy once its app ran this long without an error
_PAGE_MS = const(2500)  # how long a page of the 16x2 LCD stays before the next
_PERIOD_MS = const(1)  # loop period: key sampling rate (contact_ms 1: two samples at least)

_WORDS = {"en": ("ERROR", "restarting"), "tr": ("HATA", "yeniden başlıyor")}


class Hardware:
    # What the app gets: display driver, input, watchdog (or None), reset (or None), and the kinds.
    def __init__(self, display, input, kind, layout, wdt=None, reset=None, lang="en", wall=None,
                 buzzer=None):
        self.display = display
        self.buzzer = buzzer  # the shot clock's piezo (drivers.buzzer: play, poll), or None
        # a second display: a wall panel (drivers.neopanel/matrix), the digits (drivers.digits)
        self.wall = wall
        self.input = input
        self.kind = kind  # display kind of the profile ("oled", "sh1106", "lcd20", ...)
        self.view = "oled" if kind == "sh1106" else kind  # what views.render is asked for
        self.layout = layout  # "keypad" or "buttons"
        self.wdt = wdt
        self.reset = reset
        self.lang = lang
        self.wdt_reset = False  # the board was reset by its watchdog (boards/main.py sets it)


def layout(hw):
    # The controller's input map for the hardware: "four" for buttons without MISS and OK.
    k = hw.layout
    return "four" if k == "buttons" and "MISS" not in getattr(hw.input, "names", "MISS") else k


# The filling of the holes a collection leaves (holes(), then fill() in the passes after it):
# tuples left to make (0: none), and in this pass: the run of them one after the other so far,
# the last one's id, the distance between the last two
_holes = [0, 0, 0, 0]
_FILL_MAX = const(4096)  # at most this many one-block tuples (64 KB on a 32-bit board)


def holes():
    # mem.collect(), and the filling of the holes it leaves started where the heap has room to
    # spare (all at once, it took 27 ms after each key's screen on the virtual Pico).
    _holes[0] = _FILL_MAX if collect() else 0


def fill():
    # The next part of the filling (the app's passes with no key): up to 288 one-block tuples,
    # let go at once (garbage until the next collection), until 256 in a row come one after
    # the other in one pass: a free run of 4 KB or more, the free heap above the live data,
    # where the next key's objects then come from (a run of 64 could be a hole of 1 KB, whose
    # end sent a key's larger objects through the holes above it: 2 ms of its work on the
    # virtual Pico). True while there is more. In a frame small enough for the C stack: one on
    # the heap, let go, would send the allocator back down.
    h = _holes
    h[1] = h[2] = h[3] = 0
    t = None
    k = 0
    while h[0] and k < 288:
        t = (t,)
        d = id(t) - h[2]
        h[1] = h[1] + 1 if d == h[3] else 0  # each at the same distance (a block on a board)
        h[3] = d
        h[2] += d
        h[0] = 0 if h[1] >= 256 else h[0] - 1  # ... 256 times: a free run
        k += 1
    return h[0] > 0


class App:
    # One controller on one hardware bundle; step() is one healthy pass of the loop. The
    # controller's table (firmware/table.py) gets the wall panel, the store's work and the
    # screen being out.
    def __init__(self, hw, ctl, kind=None, net=None):
        self.hw = hw
        self.ctl = ctl
        # the club network (firmware.net.Net, boards/main.py), or None; its link as last shown
        # (the screen's mark: views.render's model "link") and its message as last said
        self.net = net
        self.link = None if net is None else net.link
        self.said = None
        self.table = ctl.table
        self.kind = kind or hw.view  # what views.render is asked for: oled, lcd20, lcd16, digits
        self.drawn = None  # ctl.version last shown (None: nothing yet)
        self.secs = None  # ctl.secs last shown: the shot clock's second
        self.draws = 0
        self.held = None  # the keys told to give their long press (Controller.held; None: not
        # yet told, the first screen tells the scanner)
        # the 16x2 LCD turns pages of what does not fit its two rows: the page shown, since when
        self.page = -1 if self.kind == "lcd16" else None
        self.t_page = 0
        # the wall panel (a second display, or the only one) whose brightness the menus set
        k = self.kind
        self.panel = hw.wall if hw.wall is not None else (
            hw.display if k in ("neopixel", "matrix", "wall") else None)
        if self.panel is not None:  # (no setting yet: the board profile's level)
            self.table.panel(self.panel.level)
        self.table.defer()  # a key's records are written once its screens are out (step)

    def step(self, now):
        # Poll the keys at now (ticks_ms) and drain every queued event into the controller; if
        # that moved the controller's version, show its screen in the same pass (a key's screen
        # comes without waiting for another pass): the display's first, then the wall panel's
        # (its frame takes about 8 ms on the wire), then what the table leaves until the screen
        # is out (Table.after_screen, asked by Controller.saved: the key's records, held until
        # then, and the journal's writing that can wait; the display is drawn again without
        # its unsaved mark once they are written), then collect the garbage of judging and
        # drawing (on the board-like VM a match needs 10 KB less heap with it); a pass with no
        # key goes on filling the holes it leaves (holes(), fill()). Then feed the watchdog:
        # only a step that got here is healthy. The shot clock first (ctl.tick: the keys'
        # time, its buzzer's sound, a tone ended): a new second shown redraws, on the page
        # shown.
        # (Its parts are methods of their own so that each frame is small enough for the C
        # stack: a larger one is allocated on the heap at each call, firmware/mem.py.)
        idle = self._keys(now)  # (and no screen drawn: the network's turn, below)
        ctl = self.ctl
        if ctl.version != self.drawn or ctl.secs != self.secs:
            idle = False
            self._draw(now)
        elif self.page is not None and ticks_diff(now, self.t_page) >= _PAGE_MS:
            self._turn(now)
        elif self.hw.wall is not None:
            self.hw.wall.tick(now)  # a wall panel's blinking marks
        said = self.table.work()  # Start's archive, journal, settings, then pruning: a step a pass
        if said:
            ctl.say([said])
        if idle and not getattr(self.hw.input, "busy", 0):  # (no key in contact or settling)
            fill()
        if idle and self.net is not None:
            self.network(self.net, now)
        wdt = self.hw.wdt
        if wdt is not None:
            wdt.feed()

    def _keys(self, now):
        # The shot clock's pass and its buzzer, then every queued key into the controller; True
        # if none came.
        b = self.ctl.tick(now)
        bz = self.hw.buzzer
        if bz is not None:
            if b:
                bz.play(b, now)
            bz.poll(now)
        inp = self.hw.input
        ev = inp.poll(now)
        if ev is None:
            return True
        while ev is not None:
            self.ctl.key(ev[0], ev[1])
            ev = inp.get()
        return False

    def _draw(self, now):
        # The controller's screen: on the display, then on the wall panel, then again without
        # its unsaved mark once the key's records are written; then the collection.
        ctl = self.ctl
        self.secs = ctl.secs
        h = ctl.held()  # keys whose long press counts now (the buttons' with a clock)
        if h != self.held:
            self.held = h
            hold = getattr(self.hw.input, "hold", None)
            if hold is not None:
                hold(h)
        p = self.panel
        bright = self.table.cfg["bright"]
        if p is not None and bright != p.level:
            p.brightness(bright)
        m = ctl.model()
        if self.net is not None:
            m["link"] = self.link
        if self.page is not None and ctl.version != self.drawn:  # a new screen: its first
            self.page = 0  # page
            self.t_page = now
        self.drawn = ctl.version
        r = views.render(m, self.kind, self.page or 0)
        wall = self.hw.wall
        if wall is None:
            m = None  # the model can be collected while the display draws
        show(self.hw.display, r)
        if wall is not None:
            wv = views.render(m, getattr(wall, "view", "wall"))  # (the digits': theirs)
            m = None
            wall.show(wv)
        if ctl.saved() and self.kind in views.MARKED:  # the key's records written after
            # its screens (Table.after_screen): the same screen again, without the mark
            show(self.hw.display, views.unmark(r))
        r = None
        self.draws += 1
        holes()

    def _turn(self, now):
        # The 16x2 LCD's next page of what does not fit its two rows.
        self.page += 1  # pyright: ignore[reportOperatorIssue]  (a 16x2 LCD: never None)
        self.t_page = now
        m = self.ctl.model()
        if self.net is not None:
            m["link"] = self.link
        show(self.hw.display, views.render(m, self.kind, self.page))

    def network(self, n, now):
        # The club network's step (firmware.net: at most one socket operation of 30 ms), only
        # in a pass that drew nothing and while no key is in contact: a key's screen never
        # waits behind it (a contact that comes during it, at most those 30 ms). A new link
        # state redraws the screen (its mark); a new fault is said on the status row.
        raw = getattr(self.hw.input, "raw", None)  # (keys.KeyScanner's last levels)
        if raw and max(raw):  # (max: no iterator on the heap)
            return
        n.work(now, self.ctl.match)
        if n.said != self.said:
            self.said = n.said
            if n.said:
                self.ctl.say([n.said])
        if n.link != self.link:
            self.link = n.link
            self.drawn = None


def show(display, rendered):
    # views.render gives an OLED (lines, big, inverse), which Oled.show takes as three arguments;
    # the other drivers take what it gives as it is (LCD lines, the digits' text).
    if isinstance(rendered, tuple):
        return display.show(*rendered)
    return display.show(rendered)


def error_screen(kind, name, lang="en"):
    # What each view kind shows while restarting after an unexpected error `name`.
    words = _WORDS.get(lang) or _WORDS["en"]
    if kind == "oled":
        return ([words[0], "", name[:16], "", words[1] + "...", "", "", ""], (0,), ())
    if kind == "digits":
        return "Err  rSt"
    cols = 16 if kind == "lcd16" else 20
    lines = [words[0] + ": " + name, words[1] + "..."]
    if kind == "lcd20":
        lines += ["", ""]
    return [s[:cols] for s in lines]


def new_controller(layout, lang="en", game="14.1", log=None, store=None, safe=None):
    # A controller; with log (a match.Log or journal.Journal of accepted events) it takes that
    # match over. With a store (boot): its settings, and the match on flash, resumed; what went
    # wrong is said on screen (all of it: msg is then a list of messages), and nothing raises
    # from what flash holds. safe: the fault that reset the board (safe mode): then neither is
    # read, the match is kept aside (store.keep) and the new-match screen comes.
    table = Table(store, game)
    msgs = []
    boot = store is not None and log is None
    if boot:
        if safe is None:
            cfg, problem = store.load_settings()
            if cfg:
                c = table.cfg
                for k in c:
                    if k in cfg:
                        c[k] = cfg[k]
                lang = cfg["lang"]
            if problem:
                msgs.append(["bad_settings", problem])
            log = store.resume()
        else:
            msgs.append(["safe", safe])
            store.keep("safe mode: " + safe)
        if store.kept:
            msgs.append(["kept", store.kept])
    ctl = Controller(layout, lang, game, table)
    if store is not None:
        ctl.pin, bad = pin(store.root)
        if bad:
            msgs.append(["bad_settings", "pin"])
    if log is not None and len(log):
        try:
            ctl.restore(log)
        except Exception as e:  # noqa: BLE001 - read but not replayable: kept, not resumed
            if not boot:
                raise
            log.close()
            ctl = Controller(layout, lang, game, table)
            msgs.append(["kept", store.keep(type(e).__name__)])  # pyright: ignore
            log = None
        if log is not None and store is not None:
            msgs.append(["resumed", len(log), -1 if log.uncertain else log.lost,
                         _last(log, ctl.match)])
    if msgs:
        ctl.say(msgs[0] if len(msgs) == 1 else msgs)
    return ctl


def pin(root):
    # The referee's PIN (firmware/ui.py mode "pin") from the secrets file in root, its "pin":
    # 1 to 8 digits, as a string. (pin, bad): (None, False) where there is none, (None, True)
    # where it is not that (said at boot: the board then has no PIN).
    try:
        with open(root + "/secrets.json" if root else "secrets.json") as f:
            p = json.loads(f.read(1024)).get("pin")
    except (OSError, ValueError, AttributeError):
        return None, False
    if p is None:
        return None, False
    p = str(p) if isinstance(p, (str, int)) and not isinstance(p, bool) else ""
    if 0 < len(p) <= 8 and not p.strip("0123456789"):
        return p, False
    return None, True


def _last(log, m):
    # The last action on the journal, for the resume message: [who (or None), text key, what]
    # (what: the balls made or the foul's rule, "" if neither), or None if it can't be read.
    try:
        recs = list(log.records(log.head, log.head + 1))
        if not recs:
            return None
        rec = recs[0]
        if rec[2] == "u":
            return [None, "undo", ""]
        ev = json.loads(rec[3])
    except Exception:  # noqa: BLE001 - not a journal, or its head unreadable: not said
        return None
    t = ev["t"]
    if t == "new":
        return [None, "newmatch", ""]
    if t == "lag":
        return [ev.get("breaker"), "breaks", ""]
    if t == "choose":
        return [None, ev.get("option"), ""]
    note = m.get("note") or {}
    balls = " ".join([str(b) for b in ev.get("pots") or () if b])
    who = m.get("last")
    if "foul" in note:
        return [who, "foul", note["foul"]]
    c = ev.get("call")
    if c == "push" or c == "safety":
        return [who, "push" if c == "push" else "safe", balls]
    if ev.get("made") or balls and (m.get("game") == "9ball" or "break_rails" in ev):
        return [who, "made", balls]
    return [who, "miss", balls]


class Runner:
    # Runs an App and survives its errors: tick(now) steps it; an exception shows the error
    # screen, and error_ms later a new controller takes over the failed one's match log (a
    # journal is read back from flash; rebuilt from its latest snapshot), so the match goes on. A
    # failure right after a restart drops the newest event too (it may be what breaks), one more
    # for each failure in a row; the watchdog, fed only by healthy steps, resets the board if
    # none comes for its timeout.
    # Safe mode: with a store, a boot is marked (store.booting) until the app has run healthy
    # _HEALTHY_MS in a row, and the mark names the fault it met. A boot after a watchdog reset
    # (hw.wdt_reset, which boards/main.py sets by machine.reset_cause()) that finds the last
    # boot's mark comes up in safe mode (new_controller's safe): the fault named, the match
    # kept aside, the new-match screen. So whatever flash holds, the watchdog does not reset
    # the board twice in a row. Nothing raised while starting escapes either: it gives the
    # new-match screen naming it.
    def __init__(self, hw, ctl=None, lang=None, game="14.1", error_ms=_ERROR_MS, log=True,
                 store=None, net=None):
        self.hw = hw
        self.net = net  # the club network (firmware.net.Net) each App steps, or None
        self.lang = lang or hw.lang
        self.game = game
        self.error_ms = error_ms
        self.log = log
        self.store = store
        self.restarts = 0  # soft restarts so far
        self.failures = 0  # failures since the last healthy step
        self.error = None  # name of the error being shown, or None while running
        self.t_error = 0
        self._log = None  # the match log of the controller that failed first in this streak
        self.dropped = 0  # newest events left out in this streak of failures
        self.marked = False  # this boot's safe-mode mark is on flash (not yet healthy)
        self.t_ok = None  # when this streak of healthy steps began (while marked)
        self.safe = None  # the fault that brought this boot up in safe mode, or None
        try:
            lang_text(self.lang)  # the texts in one piece (about 3 KB) while the heap is whole
            if ctl is None and store is not None:
                last = store.booting()
                self.marked = True
                if last is not None and getattr(hw, "wdt_reset", False):
                    self.safe = last or "reset"
            if ctl is None:
                ctl = new_controller(layout(hw), self.lang, game, store=store, safe=self.safe)
            self.app = App(hw, ctl, net=net)
        except Exception as e:  # noqa: BLE001 - the new-match screen, naming what failed
            name = type(e).__name__
            ctl = Controller(layout(hw), self.lang, game, Table(store, game))
            msg = ["safe", name]
            if store is not None:  # and the match kept aside (it may be what fails)
                store.fault(name)
                if store.keep(name):
                    msg = [msg, ["kept", store.kept]]
            ctl.say(msg)
            self.app = App(hw, ctl, net=net)

    def tick(self, now):
        # One pass: True after a healthy step, False while failing or showing the error screen.
        if self.error is not None:
            if ticks_diff(now, self.t_error) < self.error_ms:
                return False
            self.restart()
            if self.error is not None:
                return False
        try:
            self.app.step(now)
        except KeyboardInterrupt:
            self.stopped()
            raise
        except Exception as e:  # noqa: BLE001 - any error in the app leads to a soft restart
            self.fail(e, now)
            return False
        if self.failures:
            self.failures = 0
            self._log = None
        if self.marked:
            if self.t_ok is None:
                self.t_ok = now
            elif ticks_diff(now, self.t_ok) >= _HEALTHY_MS:
                self.marked = False
                self.store.healthy()  # pyright: ignore[reportOptionalMemberAccess]
        return True

    def stopped(self):
        # Stopped on purpose (Ctrl-C, the REPL; a deploy's reset follows): no fault for safe mode,
        # and what the journal held for a key whose pass was cut short is written.
        try:
            self.app.ctl.saved()
        except Exception:  # noqa: BLE001 - no controller (failing): the journal is as it was
            pass
        if self.marked:
            self.marked = False
            self.store.healthy()  # pyright: ignore[reportOptionalMemberAccess]

    def fail(self, e, now):
        if not self.failures:
            self.dropped = 0
        self.failures += 1
        self.error = type(e).__name__
        self.t_error = now
        self.t_ok = None
        if self.marked:
            self.store.fault(self.error)  # pyright: ignore[reportOptionalMemberAccess]
        if self.log:
            pe = getattr(sys, "print_exception", None)
            if pe is not None:
                pe(e)
            else:
                print("app error:", self.error, e)
        ctl = self.app.ctl
        if self._log is None:
            try:
                self._log = self.app.table.log
            except Exception:  # noqa: BLE001 - no match to keep: the restart starts afresh
                pass
        try:
            self.lang = ctl.lang
        except Exception:  # noqa: BLE001
            pass
        self.app.ctl = self.app.table = None  # let the broken controller go before the restart
        # allocates (its log kept)
        gc.collect()
        try:
            inv = getattr(self.hw.display, "invalidate", None)
            if inv is not None:
                inv()
            show(self.hw.display, error_screen(self.app.kind, self.error, self.lang))
        except Exception:  # noqa: BLE001 - the display may be what failed; restart anyway
            pass

    def restart(self):
        # A new controller on the kept log, read back from flash if it is a journal, less the
        # newest events after repeated failures.
        log = self._log
        gc.collect()
        try:
            reopen = getattr(log, "open", None)
            if reopen is not None:
                reopen()
            while log is not None and len(log) > 1 and self.dropped < self.failures - 1:
                log.pop()
                self.dropped += 1
            ctl = new_controller(layout(self.hw), self.lang, self.game, log=log,
                                 store=self.store)
        except Exception as e:  # noqa: BLE001 - the events themselves fail: fail again, drop more
            self.fail(e, self.t_error)
            return
        self.error = None
        self.restarts += 1
        app = App(self.hw, ctl, self.app.kind, self.net)
        inv = getattr(self.hw.display, "invalidate", None)
        if inv is not None:
            inv()
        self.app = app


def run(hw, ticks_ms, sleep_ms, lang=None, game="14.1", period_ms=_PERIOD_MS, ticks=0,
        store=None, net=None):
    # The board's main loop (never returns unless ticks > 0: then after that many passes, for
    # tests). store: a firmware.store.Store, where the match is kept and resumed from; net:
    # the club network (firmware.net.start), or None.
    # A pass every period_ms: the sleep is what the pass left of it (key contacts are sampled
    # at an even rate, and a key acts one period after its first sample saw it). While a key
    # is in contact or settling (the scanner's busy) the next pass comes as soon as the
    # millisecond changes: a sleep of a whole period after a short pass made a key's press up
    # to a millisecond later.
    # A Ctrl-C (mpremote, a terminal) hands the board to the REPL: the display says so in the
    # language on screen (firmware.notice), and the KeyboardInterrupt goes on to boards/main.py,
    # which keeps the watchdog from resetting the board there. The match is on flash as it was.
    r = None
    try:
        r = Runner(hw, lang=lang, game=game, store=store, net=net)
        inp = hw.input if hasattr(hw.input, "busy") else None
        n = 0
        while True:
            t = ticks_ms()
            r.tick(t)
            if inp is not None and inp.busy:
                while ticks_diff(ticks_ms(), t) < period_ms:
                    sleep_ms(0)
            else:
                d = period_ms - ticks_diff(ticks_ms(), t)
                sleep_ms(d if d > 0 else 0)
            if ticks:
                n += 1
                if n >= ticks:
                    return r
    except KeyboardInterrupt:  # (between passes too, or while the Runner is made)
        if r is not None:
            r.stopped()
        elif store is not None:
            store.healthy()
        lg = lang or hw.lang
        try:
            lg = r.app.ctl.lang  # type: ignore[union-attr]
        except AttributeError:
            pass
        r = None
        gc.collect()
        from firmware import notice

        notice.show(hw, "repl", lg)
        raise
