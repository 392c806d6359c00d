# The new-match screen (docs/ui-contract.md, modes "setup" and "name"): its fields, with the
# O1-O4 and O6 settings, what a key does to each, the new event they make, and a name typed on the
# keypad. firmware.ui loads this module while the screen is up and lets it go once the match
# starts (the names read from flash with it).
NAMES = ("Ali", "Ayşe", "Burak", "Can", "Deniz", "Elif", "Emre", "Furkan", "Gül", "Hakan",
         "Mehmet", "Zeynep", "P1", "P2")  # without a roster (players.txt) on the board
_RECENT = 8  # names kept in recent.txt
_list = [None, None]  # type: list  # [store, the names a player row steps through]: read once
TARGETS = (10, 15, 20, 25, 40, 50, 60, 75, 100, 125, 150, 200)  # 10-20: short matches, practice
GAMES = ("14.1", "8ball", "9ball", "10ball")
BREAKS = ("alternate", "winner", "loser")
# The shot clock (O7): off, the WPA and TV-event profiles (firmware/shotclock.py), or custom
# seconds (cfg "ck": shot, first, ext, exts, warn), each stepped through the values below.
CLOCKS = (None, "wpa", "tv", "custom")
_FIGS = {"wpa": (35, 60), "tv": (30, 60)}  # (shot, first: the row shows them; shotclock's)
CK = ("c_shot", "c_first", "c_ext", "c_exts", "c_warn")
_CKV = ((15, 20, 25, 30, 35, 40, 45, 50, 60, 90), (20, 30, 40, 45, 50, 60, 75, 90, 120),
        (0, 10, 15, 20, 25, 30, 45, 60), (0, 1, 2, 3), (0, 5, 10, 15, 20))


def default_break(game):
    return "winner" if game == "9ball" else "alternate"


def items(c, lang):
    """The screen's rows, [field, "set", value], for the settings c (Controller.cfg)."""
    g = c["game"]
    it = [["game", "set", g], ["player1", "set", c["p1"]], ["player2", "set", c["p2"]]]
    if g == "14.1":
        it += [["target1", "set", c["t1"]], ["target2", "set", c["t2"]]]
    else:
        it += [["race1", "set", c["r1"]], ["race2", "set", c["r2"]],
               ["break", "set", c["break"] or default_break(g)]]
    it.append(["three_foul", "set", c["three"]])
    if g == "9ball":
        it.append(["nine_on_break", "set", c["nine"]])
    elif g == "10ball":
        it.append(["ten_on_break", "set", c["ten"]])  # O6
    k = c["clock"]  # O7: the profile with its shot and first-shot seconds ("WPA 35/60")
    ck = c["ck"]
    it.append(["clock", "set", [k] + list(_FIGS.get(k) or ck[:2]) if k else False])
    if k == "custom":
        for i in range(5):
            it.append([CK[i], "set", ck[i]])
    it += [["lang", "set", lang], ["start", "start", None]]
    return it


def names(store):
    """(the names a player row steps through, a message or None): the last names used
    (recent.txt), then the roster (players.txt; without one, NAMES), then P1 and P2. A roster's
    lines that are no name are left out, and the message says how many (make deploy's check of
    the file names them)."""
    msg = None
    if _list[1] is None or _list[0] is not store:
        out, ros, bad = [], [], []
        if store is not None:
            out = store.names("recent.txt")[0]
            ros, bad = store.names()
        for n in ros + ["P1", "P2"] if ros else NAMES:
            if n not in out:
                out.append(n)
        if bad:
            msg = ["roster_bad", len(bad)]
        _list[0] = store
        _list[1] = out
    return _list[1], msg


def remember(store, players):
    # The match's two names first in recent.txt (the next setup offers them first).
    if store is None:
        return
    old = store.names("recent.txt")[0]
    new = [n for n in players if n not in ("P1", "P2")]
    try:
        store.save_names((new + [n for n in old if n not in new])[:_RECENT])
    except OSError:
        pass  # (flash full: the match is what must be kept, not this list)


def change(c, key, d, store=None):
    """Step the setting of field key by d (+1 or -1); a message to show, or None."""
    if key == "game":
        c["game"] = _step(GAMES, c["game"], d)
        c["break"] = None
    elif key in ("player1", "player2"):
        f, o = ("p1", "p2") if key == "player1" else ("p2", "p1")
        lst, msg = names(store)
        if c[f] not in lst:         # a name from the settings or typed: stepped from, not lost
            lst.insert(0, c[f])
        c[f] = _step(lst, c[f], d)
        if c[f] == c[o]:            # two players never share a name
            c[f] = _step(lst, c[f], d)
        return msg
    elif key in ("target1", "target2"):
        f = "t" + key[-1]
        c[f] = _step(TARGETS, c[f], d)
    elif key in ("race1", "race2"):
        f = "r" + key[-1]
        c[f] = (c[f] - 1 + d) % 15 + 1
    elif key == "break":
        c["break"] = _step(BREAKS, c["break"] or default_break(c["game"]), d)
    elif key == "three_foul":
        c["three"] = not c["three"]
    elif key == "nine_on_break":
        c["nine"] = "spot" if c["nine"] == "win" else "win"
    elif key == "ten_on_break":
        c["ten"] = "win" if c["ten"] == "spot" else "spot"
    elif key == "clock":
        c["clock"] = _step(CLOCKS, c["clock"], d)
    elif key in CK:
        i = CK.index(key)
        ck = list(c["ck"])  # (a new list: the settings' default is shared)
        ck[i] = _step(_CKV[i], ck[i], d)
        c["ck"] = ck


def new_event(c, lang=None):
    """The new event (O1-O4) of the settings c; lang: the language on screen (the scoresheet's)."""
    ev = {"t": "new", "game": c["game"], "players": [c["p1"], c["p2"]], "three_foul": c["three"]}
    if lang:
        ev["lang"] = lang
    if c["game"] == "14.1":
        ev["target"] = [c["t1"], c["t2"]]
    else:
        ev["race"] = [c["r1"], c["r2"]]
        ev["break"] = c["break"] or default_break(c["game"])
        if c["game"] == "9ball":
            ev["nine_on_break"] = c["nine"]
        elif c["game"] == "10ball":
            ev["ten_on_break"] = c["ten"]   # O6
    k = c["clock"]
    if k == "custom":   # (the warning before the shot's end: C-K1's warn < shot)
        ck = c["ck"]
        ev["clock"] = {"shot": ck[0], "first": ck[1], "ext": ck[2], "exts": ck[3],
                       "warn": min(ck[4], ck[0] - 1)}
    elif k:
        ev["clock"] = k
    return ev


def _step(values, cur, d):
    i = values.index(cur) if cur in values else 0
    return values[(i + d) % len(values)]


# ---------------------------------------------------------------- a name typed on the keypad
# As on a phone: a key pressed again steps through its letters (Turkish ones included), another
# key (or * first, for two letters of one key) keeps the letter. The first letter of each word
# is a capital; C changes the case of the letter being typed. B takes the last letter back (held:
# all of them), A keeps the name, D goes back with the old one.
# The letters of keys 0-9, small and capital.
KEYS = (" 0", ".-'1", "abcç2", "def3", "gğhıi4", "jkl5", "mnoö6", "pqrsş7", "tuüv8", "wxyz9")
UPPER = (" 0", ".-'1", "ABCÇ2", "DEF3", "GĞHIİ4", "JKL5", "MNOÖ6", "PQRSŞ7", "TUÜV8", "WXYZ9")
_typing = None  # [field, the letters kept, the key being pressed or None, its letter, upper]


def type_start(ctl, field):
    global _typing
    _typing = [field, "", None, 0, True]
    ctl.go("name")


def _letter(t):
    return (UPPER if t[4] else KEYS)[int(t[2])][t[3]] if t[2] else ""


def _keep(t):
    # The letter being typed joins the name.
    t[1] += _letter(t)
    t[2] = None


def type_key(ctl, long, k):
    t = _typing
    if t is None:
        return ctl.go("setup")
    if len(k) == 1 and "0" <= k <= "9":
        if k == t[2]:
            t[3] = (t[3] + 1) % len(KEYS[int(k)])
            return
        _keep(t)
        if len(t[1]) >= 12:
            ctl.msg = ["name_full", 12]
            return
        t[2] = k
        t[3] = 0
        t[4] = t[1][-1:] in ("", " ")  # a capital to start each word
    elif k == "*":
        _keep(t)
    elif k == "C":
        if t[2]:
            t[4] = not t[4]
    elif k == "B":
        if long:
            t[1] = ""
            t[2] = None
        elif t[2]:
            t[2] = None
        else:
            t[1] = t[1][:-1]
    elif k == "A":
        _keep(t)
        n = t[1].strip()
        c = ctl.cfg
        f, o = ("p1", "p2") if t[0] == "player1" else ("p2", "p1")
        if not n:
            ctl.msg = ["name_empty"]
        elif n == c[o]:
            ctl.msg = ["name_taken", n]
        else:
            c[f] = n
            _type_end(ctl)
    elif k == "D":
        _type_end(ctl)
    else:
        ctl.bad(k)


def _type_end(ctl):
    global _typing
    field = _typing[0]
    _typing = None
    ctl.go("setup")
    ctl.cursor = 1 if field == "player1" else 2


def type_items(ctl):
    # The name so far ("1: " for player 1; the letter being typed last, else a "_"), the
    # letters of the key being pressed, the keys.
    t = _typing
    if t is None:
        return []
    it = [["", "", "%s: %s%s" % (t[0][-1], t[1], _letter(t) or "_"[len(t[1]) // 12:])]]
    if t[2]:
        cyc = (UPPER if t[4] else KEYS)[int(t[2])]
        i = t[3]
        it.append(["", "", "%s: %s[%s]%s" % (t[2], cyc[:i], cyc[i], cyc[i + 1:])])
    return it + [["A", "ok"], ["D", "back"], ["*", "next"], ["B", "delete"], ["C", "case"]]
