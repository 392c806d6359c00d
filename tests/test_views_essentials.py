# State -> screen, for everything the next shooter needs, on every display: over random legal
# event streams of all three games (and random keys among them), at every step, the screen is
# drawn by the real drivers on fake buses and read back by host_tools.fakes' decoders, as a
# referee would read it, on the OLED, the SH1106, the 20x4 and 16x2 LCDs, with a wall panel
# beside the OLED (NeoPixel) and the SH1106 (MAX7219 matrix) and the MAX7219 digits beside the
# 16x2, in both languages. Shown fully: every option of a pending choice (with its key) and whose it is; ball
# in hand and where; the balls to spot; each player's fouls and warnings (C-S7, C-E4, C-N3); the
# shooter; why the last rack ended (E11, E12.x, N2, C-N1, N11); at match over who won and why.
# The 16x2 LCD turns pages by itself (the app, every 2.5 s): an item counts as shown on any of
# its pages, which no key is needed for. The buttons' choice shows one option and the key to the
# next (which changes nothing in the match): pressing it reaches every option.
# The digits show the scores, the shooter (a point) and each player's fouls, warning and ball in
# hand; what else the next shooter needs is on the display beside them (README: the board does
# not start with the digits alone).
import pytest
from mash import NAMES, Lcg

from firmware import lang, rules, views
from firmware.app import show
from firmware.ui import Controller
from host_tools.fakehw import FakeBoard, decoder, screen_text

PAGES = 12  # pages of the 16x2 LCD read at each step (more than any screen has)
# display kind -> the wall panel beside it
BOARDS = {"oled": "neopixel", "sh1106": "matrix", "lcd20": None, "lcd16": "digits"}
COUNTS = {}  # (game, display) -> states checked, for the report


def records(dev):
    # What a wall's fake device got: a fake SPI bus's records, a fake NeoPixel's frames.
    return dev.records


class Screen:
    # One display kind on fake buses (and its wall panel): show(model) -> the pages read back.
    def __init__(self, kind, layout):
        self.kind = kind
        self.view = "oled" if kind == "sh1106" else kind
        self.b = FakeBoard(kind, layout, wall=BOARDS[kind])
        self.dec = decoder(kind)
        self.n = 0
        self.wall = decoder(BOARDS[kind]) if BOARDS[kind] else None
        self.wn = 0

    def _read(self):
        rec = self.b.bus.records
        self.dec.feed(rec[self.n:])
        self.n = len(rec)
        return [str(x) for x in screen_text(self.kind, self.dec)]

    def check(self, md, t, step):
        # (the SH1106 is read every fourth step: its bitmap takes the longest; its driver is fed
        # every screen all the same)
        if self.kind == "sh1106" and step % 4:
            self.show(md, False)
            self.dec.feed(self.b.bus.records[self.n:])
            self.n = len(self.b.bus.records)
            return 0
        _check(md, self, self.show(md), t)
        return 1

    def show(self, md, read=True):
        pages = []
        shown = []
        for page in range(PAGES if self.kind == "lcd16" else 1):
            r = views.render(md, self.view, page)
            if r in shown:
                continue  # (the pages turn round: each read once)
            shown.append(r)
            show(self.b.hw.display, r)
            pages.append(self._read() if read else None)
        if self.wall is not None:
            wall = self.b.hw.wall
            wall.show(views.render(md, getattr(wall, "view", "wall")))
            rec = records(self.b.wall_dev)
            self.wall.feed(rec[self.wn:])
            self.wn = len(rec)
        return pages


def _key(h):
    k = str(h[0])
    return k[5:] if k[:5] == "long:" else k


def _check(md, sc, pages, t):
    st = md["state"]
    code = md["lang"]
    kind = sc.kind
    p = st["players"]
    rows = [r.rstrip() for pg in pages for r in pg]
    text = "\n".join(rows)
    why = (md, kind, pages)
    sh = st["shooter"]
    pend = st["pending"]
    note = md["match"].get("note") or {}
    if BOARDS[kind] == "digits":
        _check_digits(md, sc.wall.text(), why)
    elif sc.wall is not None:
        _check_wall(md, sc.wall.read(), why)
    if pend:
        who = p[pend["by"]]["name"]
        assert (lang.t(code, "chooses").format(who) in text or who + ":" in text), why
        acts = list(pend["options"]) + ["rerack_other"]
        hints = [h for h in md["hints"] if h[1] in acts]
        if md["layout"] == "keypad":
            for h in hints:
                assert "%s=%s" % (_key(h), t(h[1])) in text, (h, why)
        else:  # one option, and the key to the next
            assert hints and "%s=%s" % (_key(hints[0]), t(hints[0][1])) in text, why
            nxt = [h for h in md["hints"] if h[1] == "next"]
            assert not nxt or "%s=%s" % (_key(nxt[0]), t("next")) in text, why
    if sh is not None and st["winner"] is None and not pend:
        name = p[sh]["name"]
        k = 1 if kind in ("lcd16", "lcd20") else 3  # (one row for both: names cut)
        assert (">" + name[:k]) in text or (name[-3:] + "<") in text, why
    if md["mode"] == "play" and st["bih"] and not st["breaking"]:
        assert t("bih_" + st["bih"]) in rows, why
    sp = note.get("spot")
    if sp and st["winner"] is None:
        s = t("spot_b").format(" ".join([str(b) for b in sp])) if isinstance(sp, list) else \
            t("spot_n").format(sp)
        assert s in rows, why
    if "end" in note:
        assert note["end"] + " " + t("end_" + note["end"]) in rows, why
    if st["winner"] is not None:
        w = p[st["winner"]]["name"]
        assert t("wins").format(w) in rows or w in rows, why
    # (the 20x4's question that takes every row, its chooser's name first: the players' fouls
    # and warnings come back once it is answered)
    whole = pend and kind == "lcd20" and rows[0].startswith(p[pend["by"]]["name"] + ":")
    for i in (0, 1):
        f = p[i]["fouls"]
        if not f or st["winner"] is not None or whole:
            continue
        if md["match"].warned(i):
            # the warning by name, the player row's "F2!", or the one-row "-2!" / "1/5!"
            k = "score" if st["game"] == "14.1" else "racks"
            g = md["match"].get("target" if k == "score" else "race")[i]
            marks = (t("warn").format(p[i]["name"]), "F%d!" % f, "%d!" % p[i][k],
                     "%d/%d!" % (p[i][k], g))
            assert [m for m in marks if m in text], why
        else:
            assert "F%d" % f in text, why


def _check_digits(md, d, why):
    # "= 57.  3 ": A's status, A's score, B's score, B's status; the shooter's score has a point;
    # a score below -99 takes its status position
    st = md["state"]
    if md["mode"] not in ("play", "choice", "over"):
        return
    pos = []  # [character, point lit]
    for ch in d:
        if ch == "." and pos:
            pos[-1][1] = True
        else:
            pos.append([ch, False])
    assert len(pos) == 8, why
    pts = st["game"] == "14.1"
    k = "score" if pts else "racks"
    spans = ((0, 4), (4, 8)) if pts else ((0, 3), (5, 8))
    p = st["players"]
    for i in (0, 1):
        v = p[i][k]
        lo, hi = spans[i]
        big = len(str(v)) > hi - lo - 1  # in the status position too
        if big:
            digs = pos[lo:hi]
        elif i == 0:
            digs = pos[lo + 1:hi]
        else:
            digs = pos[lo:hi - 1]
        assert "".join([c for c, _ in digs]).strip() == str(v), (i, why)
        assert digs[-1][1] == (st["shooter"] == i), (i, why)  # the shooter's point
        if st["winner"] is not None or big:
            continue
        mark = pos[0 if i == 0 else 7]
        if md["match"].warned(i):
            assert mark[0] == "=", why
        elif st["shooter"] == i and st["bih"] and not st["breaking"]:
            assert mark[0] == "H", why
        elif p[i]["fouls"]:
            assert mark[0] == "_", why


def _check_wall(md, r, why):
    st = md["state"]
    if md["mode"] not in ("play", "choice", "over"):
        return
    k = "score" if st["game"] == "14.1" else "racks"
    p = st["players"]
    assert (r["a"], r["b"]) == (str(p[0][k]), str(p[1][k])), (r, why)
    sh = st["shooter"]
    if sh is not None:
        assert r["m" + "ab"[sh]] is not None and r["m" + "ba"[sh]] is None, (r, why)


# ---------------------------------------------------------------- random legal event streams

def _balls(rng, pool, most):
    out = []
    for _ in range(rng.below(most + 1)):
        b = pool[rng.below(len(pool))]
        if b not in out:
            out.append(b)
    return out


def event(rng, s):
    # An event that fits the state often enough to play deep into a match (as
    # tests/test_properties.draw_event): shots with every foul kind, off with and without the cue
    # ball, A10 answers, every choice's options, undo.
    r = rng.below(20)
    if r == 0 or (s["winner"] is not None and r < 10):
        return {"t": "undo"}  # (at match over: back into it, mostly)
    if s["pending"] and r < 12:
        opts = list(rules.OPTIONS[s["pending"][1]])
        ev = {"t": "choose", "option": opts[rng.below(len(opts))]}
        if ev["option"] == "rerack" and s["pending"][1][:2] == "E3" and rng.below(2):
            ev["breaker"] = rng.below(2)
        return ev
    table = s["table"] if s["table"] is not None else list(range(1, 16))
    if s.get("push") and table and rng.below(2) == 0:  # a clean push out (N7: a choice)
        return {"t": "shot", "call": "push", "first": table[rng.below(len(table))],
                "rail": True, "pots": []}
    ev = {"t": "shot", "rail": rng.below(4) > 0}
    ev["first"] = table[rng.below(len(table))] if table and rng.below(8) else None
    pots = _balls(rng, table, 3) if table else []
    if s["breaking"] and s["game"] == "8ball" and 8 in table and rng.below(4) == 0:
        pots.append(8)  # E4: the 8 on the break
    if rng.below(6) == 0:
        pots.append(0)
    ev["pots"] = pots
    if rng.below(10) == 0:
        ev["off"] = [0] if rng.below(2) or not table else [table[rng.below(len(table))]]
        if rng.below(3) == 0 and table:
            ev["off"].append(0)
            ev["off"] = sorted(set(ev["off"]))
    if s["breaking"]:
        ev["break_rails"] = rng.below(7)
        ev["cue_rail"] = rng.below(2) == 1
    c = rng.below(7)
    if c == 0:
        ev["call"] = "safety"
    elif c == 1 and s["game"] in ("9ball", "10ball"):
        ev["call"] = "push"
    elif c < 5 and pots and pots[0]:
        ev["call"] = pots[0]
    ev["made"] = rng.below(4) > 0 and bool(pots)
    if rng.below(4) == 0:
        ev["cue_in_rack"] = rng.below(2) == 1
        ev["ball_in_rack"] = rng.below(2) == 1
    if rng.below(12) == 0:
        ev["foul"] = rules.CALLED_FOULS[rng.below(len(rules.CALLED_FOULS))]
    return ev


def _new(game, rng, names):
    ev = {"t": "new", "game": game, "players": names, "three_foul": rng.below(5) > 0}
    if game == "14.1":
        ev["target"] = [5 + rng.below(15), 5 + rng.below(15)]
    else:
        ev["race"] = [1 + rng.below(3), 1 + rng.below(3)]
        ev["break"] = ("alternate", "winner", "loser")[rng.below(3)]
        if game == "10ball":
            ev["ten_on_break"] = ("spot", "win")[rng.below(2)]  # O6
        else:
            ev["nine_on_break"] = ("win", "spot")[rng.below(2)]
    return ev


PLAYERS = (["Ali", "Zeynep"], ["Şükrü", "İlkay"], ["Hakan", "Gökhan"], ["Ayşe", "Can"])


# Each language's first match (make check's sample), then the other four (make test adds them:
# the same streams, the first match played again without screens to get there).
PARTS = ["first", pytest.param("rest", marks=pytest.mark.slow)]


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("game", ["14.1", "8ball", "9ball", "10ball"])
@pytest.mark.parametrize("layout", ["keypad", "buttons"])
def test_every_display_shows_what_the_next_shooter_needs(game, layout, part):
    screens = [Screen(k, layout) for k in BOARDS]
    seen = {"bih": 0, "warn": 0, "choice": 0, "spot": 0, "over": 0}
    if game != "14.1":
        seen["end"] = 0  # (a 14.1 rack ends with no rule: the match goes on)
    keys = NAMES[:16] if layout == "keypad" else NAMES[16:]
    step = 0
    for code in ("en", "tr"):
        rng = Lcg(sum([ord(ch) for ch in game + layout + code]))  # (the same run each time)

        def t(key, code=code):
            return lang.t(code, key)

        for match in range(5):
            c = Controller(layout, code, game)
            c.resume([_new(game, rng, PLAYERS[(match + len(code)) % 4]),
                      {"t": "lag", "breaker": rng.below(2)}])
            for _ in range(80):
                s = c.match.s
                if c.mode in ("play", "choice", "over") and rng.below(4):
                    c.send(event(rng, s))  # (the Controller's own way in: as a key would)
                else:
                    c.key("press", keys[rng.below(len(keys))])
                    if c.mode in ("setup", "menu", "help"):
                        c.key("press", "D" if layout == "keypad" else "UNDO")
                    if c.mode == "setup":
                        break
                md = c.model()
                st = md["state"]
                if st is None or md["mode"] not in ("play", "choice", "over", "lag"):
                    continue
                if (match == 0) != (part == "first"):
                    continue
                note = md["match"].get("note") or {}
                seen["bih"] += bool(st["bih"])
                seen["warn"] += md["match"].warned(0) or md["match"].warned(1)
                seen["choice"] += bool(st["pending"])
                seen["spot"] += bool(note.get("spot"))
                if "end" in note:
                    seen["end"] += 1
                seen["over"] += st["winner"] is not None
                step += 1
                for sc in screens:
                    n = sc.check(md, t, step)
                    COUNTS[(game, sc.kind)] = COUNTS.get((game, sc.kind), 0) + n
                if layout == "buttons" and st["pending"]:
                    _every_option_by_next(c, screens, t)
    # each case was met, not skipped (the first matches alone: the commonest)
    assert all([v for k, v in seen.items() if part == "rest" or k in ("bih", "warn", "choice")]), seen
    print(game, layout, seen, {k: v for k, v in COUNTS.items() if k[0] == game})


def _every_option_by_next(c, screens, t):
    # The buttons: the key to the next option shows each option in turn, the match unchanged.
    md = c.model()
    n = len(c.match.log)
    want = set(md["state"]["pending"]["options"])
    got = set()
    for _ in range(len(want) + 1):
        for h in md["hints"]:
            if h[1] in want:
                got.add(h[1])
        sc = screens[2]  # the 20x4
        _check(md, sc, sc.show(md), t)
        c.key("press", "FOUL")
        md = c.model()
        if not md["state"]["pending"]:
            break
    assert len(c.match.log) == n and got == want, (got, want)


@pytest.mark.parametrize("name", ["m8_choice", "m9_push", "m141_two_fouls"])
@pytest.mark.parametrize("layout", ["keypad", "buttons"])
def test_a_pending_choice_and_warnings_with_a_refusal_on_every_display(name, layout):
    # A choice (E3 / N7) or two warnings, then a key refused on top: still all there.
    import views_models

    m = getattr(views_models, name)()
    screens = [Screen(k, layout) for k in BOARDS]
    for code in ("en", "tr"):
        c = Controller(layout, code)
        c.resume([m.log.event(i) for i in range(len(m.log))])
        for key in ("7", "MISS", "9", "OK"):  # wrong keys: a message each
            c.key("press", key)
            md = c.model()
            for sc in screens:
                _check(md, sc, sc.show(md), lambda k, code=code: lang.t(code, k))
