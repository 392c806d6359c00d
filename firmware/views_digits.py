# What the MAX7219 7-segment digits show (views.render(model, "digits")): 8 characters for
# drivers.digits.Digits.show. A module of its own: only a board with LED digits loads it; it
# reads the model alone (firmware.views loads it, not the other way round).


def _dmark(model, st, i):
    # Player i's status position on the 7-segment digits: "=" on two fouls (warned), "H" ball in
    # hand (the shooter's, not on a break), "=." both, "_" one foul, else blank.
    if st["winner"] is not None:
        return " "
    bih = st["shooter"] == i and st["bih"] and not st["breaking"]
    if model["match"].warned(i):
        return "=." if bih else "="
    if bih:
        return "H"
    return "_" if st["players"][i]["fouls"] else " "


def _dmsg(msg):
    # What boot said, in 8 characters (until the next key): "SAFE" safe mode, "JrnL bAd" a
    # match kept aside, "bAd  SEt" a bad setting, "r   78" resumed 78 events ("r  76L 2": 2
    # lost, "L--" an unknown loss); the first of several. Other messages: None.
    if not msg:
        return None
    for m in msg if isinstance(msg[0], list) else (msg,):
        k = m[0]
        if k == "safe":
            return "SAFE    "
        if k == "kept":
            return "JrnL bAd"
        if k == "bad_settings":
            return "bAd  SEt"
        if k == "resumed":
            lost = "" if not m[2] else ("L--" if m[2] < 0 else "L%2d" % m[2])
            return "r%4d%s" % (m[1], lost)
    return None


def digits(model, page=0):
    """8 characters for a MAX7219 module, mirrored for the two players: A's status position, A's
    score, B's score, B's status position ("= 57.  3 " 14.1; " 3.-- 2H" racks with "--"
    between). The shooter's score has a point; a status is "=" two fouls (three-foul warning),
    "_" one foul, "H" ball in hand, "=." both."""
    st = model.get("state")
    f = model.get("fault")
    if f:
        return "Err %4s" % str(f[1])[-4:]
    m = _dmsg(model.get("msg"))
    if m:
        return m
    mode = model.get("mode")
    if mode == "full":  # the flash is short of room: the row the cursor is on (delete, or go)
        return "FULL  Go" if model.get("cursor") else "FULL dEL"
    if st is None or mode == "setup":
        return " SEt UP "
    if mode == "help":
        return "  HELP  "
    if mode == "menu":
        return "--    --"
    p = st["players"]
    sh = st["shooter"]
    dot = ["", ""]
    if sh is not None:
        dot[sh] = "."
    if st["game"] == "14.1":
        k = "score"
        n = 3
        sep = ""
    else:
        k = "racks"
        n = 2
        sep = "--"
    a = "%*d" % (n, p[0][k])
    b = "%*d" % (n, p[1][k])
    ma = _dmark(model, st, 0)
    mb = _dmark(model, st, 1)
    if len(a) > n:  # a score below -99 takes its status position ("-104." for -104)
        ma = ""
    if len(b) > n:
        mb = ""
    return ma + a[-n - 1:] + dot[0] + sep + b[-n - 1:] + dot[1] + mb
