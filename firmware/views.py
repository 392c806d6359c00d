# Views: the screen model (docs/ui-contract.md) -> what an OLED, a character LCD or LED digits show.
# render(model, kind): kind "oled" -> (lines, big, inverse) for drivers.oled.Oled.show (16x8);
# "lcd20" -> 4 strings of 20; "lcd16" -> 2 strings of 16; "digits" -> 8 characters for Digits.show
# (scores, shooter, fouls, ball in hand);
# "wall" -> the wall panel's list of ints (firmware/wall_view.py).
# Pure functions: no drivers, no time, no I/O. Priorities where rows are short: scores and shooter
# first, then pending choice > key fault > match over > who breaks / ball in hand > why the rack
# ended, rack and spotting instructions > refusal/message > warnings > push out allowed > shot
# entry > the rest of the note (rack winner, foul) > game lines > hints; every alert gets one row
# before any gets more, a pending choice all of its rows first (_place). The 16x2 LCD turns
# pages.
import gc

from firmware import lang

_KINDS = {"oled": (16, 8), "lcd20": (20, 4), "lcd16": (16, 2)}
MARKED = _KINDS  # the kinds that mark a key's records not yet on flash ("*": _unsaved)
_UNDER = [None, -1]  # the last render's marked row as it was, and its index (-1: none)


# ---------------------------------------------------------------- text helpers

# Strings are built with % formatting where they can: one new string, where concatenating and
# slicing left a trail of pieces (garbage a render makes, which a board's small heap must hold
# until it collects).

def field(s, w):
    """s right-aligned in w columns (kept whole if longer)."""
    return "%*s" % (w, s)


def fit(left, right, w):
    """left and right on one line of w columns (at least one space between), left cut to fit."""
    if not right:
        return left if len(left) <= w else left[:w]
    room = w - len(right) - 1
    if room < 1:
        return right[:w]
    return "%-*.*s %s" % (room, room, left, right)


def wrap(text, w):
    """Word-wrap text into lines of at most w columns (a longer word is cut into pieces): each
    line up to the last space that lets it fit. (Splitting into words and packing them took a
    third of the third foul's render.)"""
    out = []
    i = 0
    n = len(text)
    while n - i > w:
        j = text.rfind(" ", i, i + w + 1)
        if j < 0:
            out.append(text[i:i + w])  # a word longer than a line
            i += w
        else:
            out.append(text[i:j])
            i = j + 1
    out.append(text[i:] if i else text)
    return out


def pack(items, w):
    """Join short items with spaces into as few lines of w columns as possible."""
    out = []
    cur = []
    n = -1  # columns taken by cur
    for it in items:
        if len(it) > w:
            it = it[:w]
        if cur and n + 1 + len(it) > w:
            out.append(" ".join(cur))
            cur = []
            n = -1
        cur.append(it)
        n += 1 + len(it)
    if cur:
        out.append(" ".join(cur))
    return out


def ranges(balls):
    """Ball numbers as short runs: [1, 3, 4, 5, 9] -> "1 3-5 9"."""
    out = []
    i = 0
    n = len(balls)
    while i < n:
        j = i
        while j + 1 < n and balls[j + 1] == balls[j] + 1:
            j += 1
        if j - i >= 2:
            out.append("%d-%d" % (balls[i], balls[j]))
        else:
            for k in range(i, j + 1):
                out.append(str(balls[k]))
        i = j + 1
    return " ".join(out)


def average(balls, innings):
    """Balls per inning with 2 decimals, integer math: (23, 12) -> "1.92"."""
    if innings <= 0:
        return "0.00"
    v = (balls * 1000 // innings + 5) // 10
    return "%d.%02d" % (v // 100, v % 100)


# ---------------------------------------------------------------- model pieces

def _tx(model, key, *args):
    s = lang.t(model.get("lang") or "en", key)
    return s.format(*args) if args else s


def _name(model, i):
    st = model.get("state")
    if st and i is not None and 0 <= i < 2:
        return st["players"][i]["name"]
    return "?"


def _get(model, k):
    # The match's field k (firmware.match.Match.get), None with no match.
    m = model.get("match")
    return None if m is None else m.get(k)


def _warned(model, i):
    """Player i is warned: two consecutive fouls with the three-foul rule on (C-S7, C-E4, C-N3)."""
    m = model.get("match")
    return m is not None and m.warned(i)


def _score(model, i, full):
    st = model["state"]
    k = "score" if st["game"] == "14.1" else "racks"
    v = st["players"][i][k]
    goal = full and _get(model, "target" if k == "score" else "race")
    if goal:
        return "%d/%d" % (v, goal[i])
    return str(v)


def _tags(model, i):
    """Player i's group (8-ball) and foul count ("!": warned): "Sol F1", "On8 F2!", "F1", ""."""
    st = model["state"]
    g = st["groups"]
    f = st["players"][i]["fouls"]
    if not g:  # (no group: the fouls alone)
        return "F%d%s" % (f, "!" if _warned(model, i) else "") if f else ""
    lo = 1 if g[i] == "solids" else 9  # the group's balls: 1-7 or 9-15
    left = [b for b in st["on_table"] if lo <= b < lo + 7]
    # E11: with the group down the player is on the 8
    t = _tx(model, ("sol" if lo == 1 else "str") if left else "on8")
    return "%s F%d%s" % (t, f, "!" if _warned(model, i) else "") if f else t


def _player_row(model, i, w):
    st = model["state"]
    p = st["players"][i]
    mark = ">" if st["shooter"] == i else ("*" if st["winner"] == i else " ")
    tags = _tags(model, i)
    sc = _score(model, i, True)
    if w - len(tags) - len(sc) - (2 if tags else 1) < 4:
        sc = _score(model, i, False)
    room = w - len(tags) - len(sc) - (3 if tags else 2)
    if room < 0:
        room = 0
    return "%s%-*.*s %s%s%s" % (mark, room, room, p["name"], tags, " " if tags else "", sc)


def _both_row(model, w):
    """Names, scores and the shooter on one line (16x2)."""
    st = model["state"]
    parts = []
    for full in (True, False):
        parts = []
        for i in (0, 1):
            mark = ">" if st["shooter"] == i else ("*" if st["winner"] == i else "")
            f = "!" if _warned(model, i) else ""
            n = st["players"][i]["fouls"]
            if w > 16 and n and st["winner"] is None:  # the 20x4: the fouls counted ("F1")
                f = " F%d%s" % (n, f)
            parts.append([mark, st["players"][i]["name"], _score(model, i, full) + f])
        fixed = 0
        for p in parts:
            fixed += len(p[0]) + len(p[2]) + 1
        if w - fixed - 1 >= 6:
            break
    room = (w - fixed - 1) // 2
    a = parts[0][0] + parts[0][1][:max(room, 1)] + " " + parts[0][2]
    b = parts[1][0] + parts[1][1][:max(room, 1)] + " " + parts[1][2]
    return fit(a, b, w)


def _key_name(model, k):
    k = str(k)
    if k[:5] == "long:":
        return _tx(model, "hold", k[5:])
    return k


def _label(model, action):
    if action in ("lag0", "lag1"):
        return _tx(model, action, _name(model, int(action[3])))
    return _tx(model, action)


def _hint_items(model, only=None, skip=()):
    out = []
    for h in model.get("hints") or ():
        if (only is None or h[1] in only) and h[1] not in skip:
            out.append("%s=%s" % (_key_name(model, h[0]), _label(model, h[1])))
    return out


def _choice_opts(model):
    st = model.get("state")
    if st and st["shooter"] is None and st["winner"] is None:
        return ("lag0", "lag1")
    pend = st and st["pending"]
    if not pend:
        return ()
    opts = list(pend["options"])
    if "rerack" in opts:
        opts.append("rerack_other")
    opts.append("next")  # (the buttons: one option shown, a key to the next)
    return opts


def _opts(model, text):
    # "accept, rerack" (option keys from rules.OPTIONS) -> translated labels
    return ", ".join([_tx(model, o.strip()) for o in str(text).split(",")])


def _refusal(model, msg, w):
    rule = msg[1]
    key = msg[2]
    args = list(msg[3:])
    if key in ("pending", "bad_option") and len(args) == 2:
        args[1] = _opts(model, args[1])
        if key == "bad_option":
            args[0] = _opts(model, args[0])
    text = _tx(model, "r_" + key)
    try:
        text = text.format(*args)
    except (IndexError, KeyError):
        pass
    head = _tx(model, "refused", rule)
    return [head] + wrap(text, w), head + " " + text


def _message(model, w):
    msg = model.get("msg")
    if not msg:
        return None
    w = _narrow(model, w)
    if msg[0] == "refused" and len(msg) >= 3:
        lines, compact = _refusal(model, msg, w)
        return (lines, compact, 1)
    if isinstance(msg[0], list):  # several (at boot): each in turn
        texts = [_msg_text(model, m) for m in msg]
        lines = []
        for t in texts:
            lines.extend(wrap(t, w))
        return (lines, " ".join(texts), 0)
    text = _msg_text(model, msg)
    short = text
    if msg[0] == "resumed" and msg[3]:  # one row's form: "Res12-2: Can Made 3"
        n = str(msg[1]) + ("" if not msg[2] else "-?" if msg[2] < 0 else "-" + str(msg[2]))
        short = _tx(model, "m_res_s", n, _action(model, msg[3]))
    return (wrap(text, w), short, 0)


def _msg_text(model, msg):
    args = list(msg[1:])
    k = msg[0]
    if k == "resumed":  # [events, lost (-1: unknown), last action or None]
        text = _tx(model, "m_resumed", args[0])
        if args[1]:
            text += ", " + (_tx(model, "m_lost_q") if args[1] < 0 else
                            _tx(model, "m_lost", args[1]))
        if args[2]:
            text += ", " + _tx(model, "m_last", _action(model, args[2]))
        return text
    if k == "not_yours" and args:
        args[0] = _name(model, args[0])
    elif k == "undone_x":
        args[0] = _tx(model, args[0])  # the action undone, in words
    text = _tx(model, "m_" + k)
    try:
        text = text.format(*args)
    except (IndexError, KeyError):
        pass
    return text


def _action(model, last):
    # An action in words, [who, text key, what] (app._last): "Can Made 3", "Deniz Foul G3".
    who, key, what = last
    if key == "breaks":
        return _tx(model, key, _name(model, who))
    t = _tx(model, key)
    if who is not None:
        t = _name(model, who) + " " + t
    return t + " " + what if what else t


def _note_alerts(model, w):
    """What the last event did, one alert each, what the table needs first (why the rack ended,
    the rack instruction, the balls to spot, who won the rack, the foul, the option chosen):
    [(lines, compact line, 0)]. The rack's winner is left out at match over (the "match over"
    alert names the winner)."""
    note = _get(model, "note")
    if not note:
        return []
    out = []
    if "end" in note:
        t = "%s %s" % (note["end"], _tx(model, "end_" + note["end"]))
        out.append((wrap(t, w), t, 0))
    if "rack" in note:
        r = note["rack"]  # (its rule ID: the first 5 characters, C-S4dh being C-S4d's case)
        t = "%s %s" % (r[:5], _tx(model, "rack_" + r))
        out.append((wrap(t, w), t, 0))
    sp = note.get("spot")
    if sp:
        if isinstance(sp, list):
            t = _tx(model, "spot_b", " ".join([str(b) for b in sp]))
        else:
            t = _tx(model, "spot_n", sp)
        out.append((wrap(t, w), t, 0))
    if "won" in note and model["state"]["winner"] is None:
        t = _tx(model, "won", _name(model, note["won"]))
        out.append((wrap(t, w), t, 0))
    if "foul" in note:
        # A 14.1 breaking violation is not a foul (C-S2): it is called by its own name.
        t = _tx(model, "viol_n" if note["foul"] == "S4" and note.get("pen") == 2 else "foul_n",
                note["foul"])
        if note.get("pen"):
            t = "%s %s" % (t, _tx(model, "pen", note["pen"]))
        out.append((wrap(t, w), t, 0))
    if "choice" in note and not out:
        t = _tx(model, "chose", _tx(model, note["choice"]))
        out.append((wrap(t, w), t, 0))
    return out


def _table_notes(model):
    # How many of _note_alerts' first alerts say what the table needs: why the rack ended, the
    # rack instruction, the balls to spot.
    note = _get(model, "note")
    n = 0
    for k in ("end", "rack", "spot"):
        if note and note.get(k):
            n += 1
    return n


def _alerts(model, w, table=()):
    """Alert groups by priority: [(lines, compact line, rows to draw inverted)]; table: what
    the table needs after the last event (_note_alerts), after ball in hand."""
    st = model["state"]
    out = []
    pend = st["pending"]
    if pend:
        opts = _choice_opts(model)
        items = _hint_items(model, opts) or [_tx(model, o) for o in pend["options"]]
        head = _tx(model, "chooses", _name(model, pend["by"]))
        out.append(([head] + pack(items, w), " ".join(items), 1))
    f = model.get("fault")
    if f:
        t = _tx(model, "stuck" if f[0] == "stuck" else "chatter", f[1])
        out.append(([t, _tx(model, "ignored")], t, 1))
    t = _time_up(model)
    if t:
        out.append(([t], t, 1))
    if st["winner"] is not None:
        t = _tx(model, "wins", _name(model, st["winner"]))
        out.append(([_tx(model, "over"), t], t, 1))
    t = _status(model)
    if t:
        out.append(([t], t, 0))
    out.extend(table)
    m = _message(model, w)
    if m:
        out.append(m)
    for i in (0, 1):  # (the player rows mark a warned player too: "F2!")
        if _warned(model, i):
            t = _tx(model, "warn", st["players"][i]["name"])
            sub = _tx(model, "warn_141" if st["game"] == "14.1" else "warn_rack")
            out.append(([t, sub], t, 1))
    if st["push_out"] and st["game"] in ("9ball", "10ball"):  # N7, T5
        t = _tx(model, "push_ok")
        out.append(([t], t, 0))
    entry = model.get("entry") or []
    hit = model.get("hit")
    if entry or model.get("shift") or hit is not None:
        t = _tx(model, "entry") + " " + " ".join([str(b) for b in entry])
        if model.get("shift"):
            t += " 1_"
        if hit is None:
            out.append((wrap(t, w), t, 0))
        else:  # the ball the referee named as hit first ("#A")
            h = _tx(model, "hit_n", hit)
            out.append((wrap(t, w) + [h], t + " " + h, 0))
    return out


def _status(model):
    st = model["state"]
    if st["winner"] is not None or st["shooter"] is None:
        return None
    if st["breaking"]:
        return _tx(model, "breaks", _name(model, st["shooter"]))
    if st["bih"]:
        return _tx(model, "bih_" + st["bih"])
    return None


def _place(alerts, room, keep=False):
    """The alerts' rows in room rows: each alert its one-row form first, in priority order, then
    each in order as much of its whole form as fits. keep: the first alert (a pending choice:
    the next shot waits on it) whole before the others get a row. (rows, inverse rows)."""
    n = min(len(alerts), room)
    used = n
    take = []  # rows of its whole form each alert gets beyond the first (0: its one-row form)
    if keep and n:
        k = min(len(alerts[0][0]), room)
        n = min(len(alerts), room - k + 1)
        used = k + n - 1
        take.append(k - 1)
    for a in alerts[len(take):n]:
        more = min(len(a[0]) - 1, room - used)
        take.append(more)
        used += more
    rows = []
    inv = []
    for i in range(n):
        a = alerts[i]
        part = a[0][:take[i] + 1] if take[i] else (a[1],)
        for k in range(len(part)):
            if k < a[2]:
                inv.append(len(rows))
            rows.append(part[k])
    return rows, inv


def _clock_row(model, w):
    # The shot clock's row (O7): player 0's extensions left, the seconds of the shot (in
    # brackets while paused: K6), player 1's extensions; None without a countdown.
    ck = model.get("clock")
    if not ck or ck[0] is None:
        return None
    a = _tx(model, "c_ext", ck[2])
    b = _tx(model, "c_ext", ck[3])
    m = ("%d" if ck[1] else "(%d)") % ck[0]
    n = w - len(a) - len(b)
    k = (n - len(m)) // 2
    return "%s%*s%*s%s" % (a, k + len(m), m, n - k - len(m), "", b)


def _time_up(model):
    # K4: the time is up in play: the board proposes the time foul, with the key that records it.
    ck = model.get("clock")
    if not ck or ck[0] != 0 or model.get("mode") != "play":
        return None
    return _tx(model, "c_up", "#9" if model.get("layout") == "keypad" else "FOUL")


def _info(model, w, n=5, right=None):
    """The shot clock's row (while a shot has a countdown), then the game lines (_lines)."""
    ck = _clock_row(model, w)
    out = _lines(model, w, n - 1 if ck else n, right)
    if ck:
        out.insert(0, ck)
    return out


def _lines(model, w, n=5, right=None):
    """Game lines, most important first (14.1: balls left, run, high run, innings, average; it
    makes no more than n, the rows a caller has for them; the other games make their two or
    three). right: what the 14.1 balls line shows on its right instead of the rack number."""
    st = model["state"]
    m = model.get("match")
    g = st["game"]
    out = []
    if g == "14.1":
        balls = _tx(model, "balls", st["balls_left"])
        if w > 16:
            # a character LCD has one row for this: balls left and the shooter's run
            sh = st["shooter"]
            if sh is None:
                right = _tx(model, "rack", st["rack"])
            else:
                right = _tx(model, "run") + " " + str(st["players"][sh]["run"])
            out.append(fit(balls, right, w))
            return out
        out.append(fit(balls, right or _tx(model, "rack", st["rack"]), w))
        lw = w - 10
        p0, p1 = st["players"]
        for key, f in (("run", "run"), ("high", "high_run"), ("inning", "innings")):
            if len(out) >= n:
                return out
            out.append("%-*.*s%5d%5d" % (lw, lw, _tx(model, key), p0[f], p1[f]))
        if m is not None and len(out) < n:
            out.append("%-*.*s%5s%5s" % (lw, lw, _tx(model, "avg"),
                                         average(m.player(0, "balls"), p0["innings"]),
                                         average(m.player(1, "balls"), p1["innings"])))
        return out
    rack = _tx(model, "rack", st["rack"])
    table = st["on_table"] or []
    if g == "9ball" or g == "10ball":  # the lowest ball first (N2, T2), the balls on the table
        low = _tx(model, "lowest", table[0]) if table else ""
        if len(rack) + len(low) >= w:   # (16 columns, 10-ball: "Rack10 Lowest 10")
            rack = rack.replace(" ", "")
        out.append(fit(rack, low, w))
        r = ranges(table)
        out.append(fit(_tx(model, "on_table"), r, w) if len(r) < w - 6 else field(r, w))
        return out
    if st["groups"] is None and not st["breaking"]:
        out.append(fit(rack, _tx(model, "open"), w))
    else:
        out.append(rack)
    sol = [b for b in table if b < 8]
    stp = [b for b in table if b > 8]
    out.append(fit(_tx(model, "sol") + ":", ranges(sol), w) if sol else _tx(model, "sol") + ": -")
    out.append(fit(_tx(model, "str") + ":", ranges(stp), w) if stp else _tx(model, "str") + ": -")
    return out


# The key hints' lines of the last screens and what each was made from, the latest first:
# [lines, language, w, hints, left out, names]. A screen mostly shows the hints of one of the
# few before it (play, a ball being entered, a break), and making and packing them again took
# a quarter of a play screen's render (2.5 of 10 ms on the virtual Pico).
_hl = []
_HL = 3  # kept at most; 1 on a hard heap of 96 KB or less (a 64 KB board: firmware/mem.py)
if hasattr(gc, "mem_free") and gc.mem_free() + gc.mem_alloc() <= 98304:
    _HL = 1


def _hint_lines(model, w):
    """Key hints packed in lines of w (those answering a pending choice are shown with it).
    The list may be one an earlier call gave: callers slice it, never change it."""
    hints = model.get("hints")
    w = _narrow(model, w)
    skip = _choice_opts(model)
    names = (_name(model, 0), _name(model, 1))  # (the lag hints name the players)
    code = model.get("lang")
    for j in range(len(_hl)):
        c = _hl[j]
        if c[3] == hints and c[2] == w and c[1] == code and c[4] == skip and c[5] == names:
            if j:
                _hl.insert(0, _hl.pop(j))
            return c[0]
    lines = pack(_hint_items(model, None, skip), w)
    if len(_hl) >= _HL:
        _hl.pop()
    # (a copy of the hints: the model's may change)
    _hl.insert(0, [lines, code, w, [list(h) for h in hints] if hints else hints, skip, names])
    return lines


def _hints_line(model, w):
    lines = _hint_lines(model, w)
    return lines[0] if lines else ""


# ---------------------------------------------------------------- screens

def _game_screen(model, w, h, page=0):
    st = model["state"]
    aw = _narrow(model, w)  # (the alerts: any may come to the bottom row)
    notes = _note_alerts(model, aw)
    if h >= 8 and st["winner"] is not None:
        return _over_oled(model, w, notes)
    k = _table_notes(model)
    alerts = _alerts(model, aw, notes[:k])
    notes = notes[k:]
    ask = model.get("mode") == "lag" and st["shooter"] is None
    if ask:
        items = _hint_items(model, ("lag0", "lag1"))
        alerts.insert(0, ([_tx(model, "lag_q")] + pack(items, aw), " ".join(items), 1))
    ask = ask or st["pending"]  # alerts[0] is the question the next shot waits on
    alerts.extend(notes)
    if h >= 8:
        return _oled_play(model, w, h, alerts, ask)
    if h < 4:
        return _lcd16(model, w, alerts, ask, page), [], []
    # 20x4: the two player rows, then the alerts whole, else the game lines and the key hints
    lines = [_player_row(model, 0, w), _player_row(model, 1, w)]
    body = h - 2
    if not alerts:
        lines.extend((_info(model, w)[:1] + [_hints_line(model, w)])[:body])
        return lines, [], []
    if sum([len(a[0]) for a in alerts]) <= body or (len(alerts) <= body and not ask):
        al = _place(alerts, body)[0]  # (whole, or a row each)
        lines.extend(_info(model, w)[:body - len(al)])
        lines.extend(al)
        return _cut(lines, w, h), [], []
    # more than two alerts, or a question: names and scores on one row; a question as its
    # chooser's name and the options' keys ("P2: 1=Accept 2=Kitchen ..."), on every row if it
    # needs them, or they and what the table needs (the chooser is the one to shoot next)
    lines = [_both_row(model, w)]
    # (its "F2!" says who is warned: the warnings' rows go to the other alerts)
    warned = [_tx(model, "warn", p["name"]) for p in st["players"]]
    alerts = [a for a in alerts if a[1] not in warned]
    m = _message(model, w)
    if m and k and sum([len(a[0]) for a in alerts]) > h - 1:
        # (and a message, what a key did, gives its row to the rack and spotting instructions)
        alerts = [a for a in alerts if a[1] != m[1]]
    if ask:
        q = _ask_rows(model, w, alerts[0])
        if len(q) > h - 1 or (len(q) == h - 1 and (k or m)):  # (or the balls to spot, or
            lines = []  # a message, would go)
        alerts[0] = (q, q[0], 1)
    al = _place(alerts, h - len(lines), bool(ask))[0]
    lines.extend(al)
    lines.extend(_info(model, w)[:h - len(lines)])
    return _cut(lines, w, h), [], []


def _ask_rows(model, w, alert):
    # A pending choice as "chooser: options" packed in rows of w; the lag as its whole alert.
    st = model["state"]
    w = _narrow(model, w)
    if not st["pending"]:
        return alert[0]
    items = _hint_items(model, _choice_opts(model)) or [_tx(model, o) for o in
                                                         st["pending"]["options"]]
    return pack([_name(model, st["pending"]["by"]) + ":"] + items, w)


def _lcd16(model, w, alerts, ask, page):
    # 16x2: pages of two rows, one a few seconds (render's page): a question as pages of its
    # chooser and options; then names, scores and the shooter over each row of each alert in
    # turn (none: the key hints), then over the players' groups and fouls.
    pages = []
    if ask:
        q = _ask_rows(model, w, alerts[0])
        for i in range(0, len(q), 2):
            pages.append(q[i:i + 2])
        alerts = alerts[1:]
    top = _both_row(model, w)
    for a in alerts:
        for r in (a[0] if a[2] or len(a[0]) > 1 else (a[1],)):
            pages.append([top, r])
    if not pages:
        pages.append([top, _hints_line(model, w)])
    ck = _clock_row(model, w)
    if ck:  # the shot clock's page first (its second redraws the page shown)
        pages.insert(0, [top, ck])
    t = _tags_row(model, w)
    if t:
        pages.append([top, t])
    return _cut(pages[page % len(pages)], w, 2)


def _oled_play(model, w, h, alerts, ask):
    # The OLED in play: the scores at double size over rows 0-1, the names row, the game lines,
    # then the alerts (what the last event did last) and the players' tags row, the key hints
    # at the bottom; the two player rows instead of the scores when the alerts need the room
    # (every alert keeps at least its row, a pending choice all of its rows). The game lines
    # keep their rows while an alert or a foul's tag comes and goes below them: a foul redraws
    # those rows, not every line under a new one (a key waits for the screen's bytes on the bus).
    st = model["state"]
    tags = _tags_row(model, w)
    tail = [tags] if tags else []
    keep = bool(ask)
    al, ai = _place(alerts, h - 4 - len(tail), keep)
    n = 0
    for a in alerts:
        n += len(a[0])
    whole = len(al) == n  # every alert whole: room for big
    if whole:
        lines = [_big_scores(model), "", _names_row(model, w)]
    else:
        al, ai = _place(alerts, h - 3, keep)
        lines = [_player_row(model, 0, w), _player_row(model, 1, w)]
        tail = []
    n = h - 1 - len(lines) - len(al) - len(tail)
    if n > 0:  # (game lines only where they have a row: a screen of alerts, as the third
        # foul's, renders a third faster; a made ball's lines no average)
        right = None
        if whole and st["game"] == "14.1":   # the targets where the rack number was
            t = _get(model, "target") or (0, 0)
            right = _tx(model, "goal", t[0]) if t[0] == t[1] else "%d/%d" % (t[0], t[1])
            if len(right) > w - 9:
                right = "%d/%d" % (t[0], t[1])
        lines.extend(_info(model, w, n, right)[:n])
    base = len(lines)
    lines.extend(al)
    lines.extend(tail)
    # key hints at the bottom, taking blank rows above the last one when they need more
    hl = _hint_lines(model, w) or [""]
    hl = hl[:h - len(lines)]
    while len(lines) + len(hl) < h:
        lines.append("")
    lines.extend(hl)
    for k in range(len(ai)):
        ai[k] += base
    return _cut(lines, w, h), [0] if whole else [], ai


def _big_scores(model):
    # Both scores for the double-size row (8 columns): "  47  12", "3/5  2/5" (race shown where
    # it fits), around the middle.
    st = model["state"]
    if st["game"] == "14.1":  # (the points alone)
        p = st["players"]
        return "%3d  %-3d" % (p[0]["score"], p[1]["score"])
    a = _score(model, 0, True)
    b = _score(model, 1, True)
    if len(a) > 3 or len(b) > 3:
        a = _score(model, 0, False)
        b = _score(model, 1, False)
    return "%3s  %-3s" % (a, b)


def _names_row(model, w):
    # The names under the big scores, the shooter marked (">" left, "<" right), the winner "*".
    st = model["state"]
    sh = st["shooter"]
    win = st["winner"]
    p = st["players"]
    k = (w - 1) // 2 - 1
    return fit((">" if sh == 0 else "*" if win == 0 else " ") + p[0]["name"][:k],
               p[1]["name"][:k] + ("<" if sh == 1 else "*" if win == 1 else " "), w)


def _tags_row(model, w):
    # Each player's group and foul count under their name ("Sol F1     F2! Str"), or "".
    a = _tags(model, 0)
    b = _tags(model, 1)
    if not a and not b:
        return ""
    return fit(a, b, w) if a else field(b, w)


def _over_oled(model, w, notes):
    # row 0 both players, 1 "match over" (inverse), 2-3 the winner in big letters, 4 why the
    # deciding rack ended (8/9-ball), then statistics (14.1: high runs and averages; 8/9-ball:
    # fouls and break-and-runs over the match), 7 keys
    st = model["state"]
    lines = [_both_row(model, w), _tx(model, "over"), _name(model, st["winner"])[:w // 2], ""]
    note = _get(model, "note")
    if note and "end" in note:
        lines.extend(notes[0][0])  # (the rack's winner is left out: the match's is named above)
    if st["game"] == "14.1":
        lines.extend(_lines(model, w)[2:5:2])  # high runs and averages
    else:
        tot = _get(model, "tot") or ((0, 0), (0, 0))
        lw = w - 8
        for j, k in ((0, "fouls"), (1, "bnr")):
            lines.append("%-*.*s%4d%4d" % (lw, lw, _tx(model, k), tot[0][j], tot[1][j]))
    del lines[7:]
    while len(lines) < 7:
        lines.append("")
    lines.append(_hints_line(model, w))
    return lines, [2], [1]


def _item_line(model, it, sel, w=16):
    label = str(it[0]) if it[0] is not None else ""
    action = it[1] if len(it) > 1 else ""
    value = it[2] if len(it) > 2 else None
    code = model.get("lang") or "en"
    field = lang.has("f_" + label, code)
    if field:
        text = _tx(model, "f_" + label)  # a setup field: its name, then its value
    elif label == action or not label:
        text = _tx(model, action) if action else ""  # a menu entry
    else:
        text = _key_name(model, label) + " " + _tx(model, action)  # help: key and what it does
    if value is not None:
        if value is True or value is False:
            v = _tx(model, "v_on" if value else "v_off")
        elif isinstance(value, (list, tuple)):
            v = "/".join([str(x) for x in value[1:]])
            h = str(value[0]) if value else ""  # a setting's value and its figures ("WPA
            if lang.has("v_" + h, code):  # 35/60"), or numbers
                v = _tx(model, "v_" + h) + " " + v
            else:
                v = h + "/" + v if v else h
        elif isinstance(value, str) and lang.has("v_" + value, code):
            v = _tx(model, "v_" + value)
        elif isinstance(value, str) and lang.has("g_" + value, code):
            v = _tx(model, "g_" + value)
        else:
            v = str(value)
        if field or v not in text:  # a menu row may name its rule already ("Touch G5.4")
            # "Player 1: Furkan", or "Player 1:Furkan" where the row is one column short
            sep = ": " if len(text) + len(v) + 3 <= w else (":" if field else " ")
            text = (text + sep + v) if text else v
    return (">" if sel else " ") + text


def _list_screen(model, w, h):
    items = model.get("items") or []
    cur = model.get("cursor") or 0
    title = _tx(model, "mode_" + str(model.get("mode")))
    if model.get("msg") and model.get("mode") in ("setup", "name"):
        title = _message(model, w)[1]  # (a roster's lines left out, a name refused)
    f = model.get("fault")
    lines = []
    inv = []
    if h >= 4:
        lines.append(title)
        inv.append(0)
    last = []
    m = _message(model, w)
    if f:
        last = [_tx(model, "stuck" if f[0] == "stuck" else "chatter", f[1])]
    elif m:  # (at boot: a bad setting, a match kept aside; after a key: its answer)
        # half the OLED, all but the title of a 20x4 LCD, all of a 16x2: till the next key
        k = h // 2 if h >= 8 else h - len(lines)
        last = m[0][:k]
    elif h >= 4 and model.get("hints"):
        # how to change and confirm, then move and back (the 20x4: the first of them)
        last = _hint_lines(model, w)[:2 if h >= 8 else 1]
    n = h - len(lines) - len(last)
    top = 0
    if h < 4:
        top = cur  # 16x2: the selected item first
    elif cur >= n:
        top = cur - n + 1
    for i in range(top, min(top + n, len(items))):
        if i == cur and h >= 8:
            inv.append(len(lines))
        lines.append(_item_line(model, items[i], i == cur, w))
    while len(lines) < h - len(last):
        lines.append("")
    if f:
        inv.append(len(lines))
    lines.extend(last)
    return _cut(lines, w, h), [], inv


def _rackq_screen(model, w, h):
    # The A10 question: both answers with their keys, the C-S4 case they give, the key that
    # sends. Short displays take the answers on one row, then the case by its rule ID only.
    it = model.get("items") or []
    ans = []
    vals = []
    for i in (0, 1):
        k = it[i][2]
        v = _tx(model, "v_yes" if k is True else ("kitchen" if k else "v_no"))
        vals.append(v)
        f = "f_ball_in_kitchen" if k == "kitchen" else "f_" + it[i][0]
        t = "%s=%s: %s" % (_hint_key(model, it[i][0]), _tx(model, f), v)
        ans.append(t if len(t) <= w else t.replace(": ", ":"))
    case = it[2][2]
    body = wrap(case[:5] + " " + _tx(model, "rack_" + case), w)
    send = _hint_items(model, ("ok", "back"))
    if h >= 8:
        keys = pack(send, w)
        lines = [_tx(model, "mode_rackq")] + ans + body
        while len(lines) + len(keys) < h:
            lines.append("")
        return _cut(lines + keys, w, h), [], [0]
    s = send[0]
    if len(body[-1]) + 1 + len(s) <= w:
        body[-1] += " " + s
    else:
        body.append(s)
    if len(ans) + len(body) > h:
        ans = [_tx(model, "rq_both", vals[0], vals[1])]
    if len(ans) + len(body) > h:
        body = [case[:5] + " " + s]
    return _cut(ans + body, w, h), [], []


def _hint_key(model, action):
    for h in model.get("hints") or ():
        if h[1] == action:
            return _key_name(model, h[0])
    return "?"


def _cut(lines, w, h):
    # lines made exactly h long, each at most w columns (in place: no copies).
    del lines[h:]
    while len(lines) < h:
        lines.append("")
    for k in range(h):
        if len(lines[k]) > w:
            lines[k] = lines[k][:w]
    return lines


def screen(model, w, h, page=0):
    """(lines, big rows, inverse rows) for a text display of w columns and h rows; page: which
    of the pages a 16x2 display turns through (any number: taken modulo their count)."""
    mode = model.get("mode")
    if mode == "rackq" and len(model.get("items") or ()) > 2:
        return _rackq_screen(model, w, h)
    if model.get("state") is None or mode in ("setup", "menu", "help", "rackq", "groupq", "pin"):
        return _list_screen(model, w, h)
    return _game_screen(model, w, h, page)


def render(model, kind, page=0):
    """What a display shows: "oled" -> (lines, big, inverse); "lcd20"/"lcd16" -> lines;
    "digits" -> an 8-character string; "wall" (or its drivers' kinds "neopixel", "matrix") ->
    the wall view list (firmware.wall_view). page: the 16x2 LCD's and the digits' page (the app
    turns them every few seconds while the screen stays the same)."""
    if kind == "digits":
        from firmware.views_digits import digits  # (only a board with LED digits loads it)

        return digits(model, page)
    if kind == "wall" or kind == "neopixel" or kind == "matrix":
        from firmware.wall_view import wall

        return wall(model)
    w, h = _KINDS[kind]
    if _hl and _hl[0][1] != model.get("lang"):
        del _hl[:]  # (another language: its hint lines let go before its texts load)
    out = screen(model, w, h, page)
    _UNDER[1] = -1
    m = model.get("match")
    if m is not None and m.unsaved():
        _unsaved(out[0], out[1], w)
    ln = model.get("link")
    if ln:
        lines = out[0]
        lines[-1] = "%-*.*s%s" % (w - 1, w - 1, lines[-1], LINK.get(ln, "?"))
    if kind == "oled":
        return out
    return out[0]


def _unsaved(lines, big, w):
    # The key's records are not yet on flash (the app writes them once the screens are out, and
    # draws them again): a "*" in the last column of the top row (the OLED's first row under
    # its double-size scores), the row's text kept: its last column if blank, else its last gap
    # of two spaces or more a column narrower (the part right of it moves left), else the last
    # character gives way.
    i = 2 if 0 in big else 0
    s = _UNDER[0] = lines[i]
    _UNDER[1] = i
    j = -1 if len(s) < w or s[w - 1] == " " else s.rfind("  ", 0, w)
    if j < 0:
        lines[i] = "%-*.*s*" % (w - 1, w - 1, s)
    else:
        lines[i] = "%s%.*s*" % (s[:j], w - 1 - j, s[j + 1:])


def unmark(out):
    """The last screen render() gave (out), in place, as if its records were on flash: its
    unsaved mark's row as it was (once they are written, the app shows it again without
    rendering it again)."""
    i = _UNDER[1]
    if i >= 0:
        (out[0] if isinstance(out, tuple) else out)[i] = _UNDER[0]
        _UNDER[0] = None
        _UNDER[1] = -1
    return out


# The club network's link (firmware.net.Net.link) as one character in the last column of the
# bottom row, on a board with a network (docs/network.md). The bottom row is mostly the key
# hints' or a message's, which such a board packs and wraps one column narrower (_narrow); the
# top row's last column is the journal's. Each is an ASCII character both the OLED's font and
# the LCD's ROM have.
LINK = {"ok": "=", "connecting": "-", "offline": "x"}


def _narrow(model, w):
    # The width for hints and messages: one column less where the link's mark is shown.
    return w - 1 if model.get("link") else w
