# Event contract (docs/contracts.md): shape checks that tell a malformed event from a refused one.

GAMES = ("14.1", "8ball", "9ball", "10ball")
BREAKS = ("alternate", "winner", "loser")
CHOICES = ("accept", "rerack", "kitchen", "spot8", "shoot", "pass")

_FIELDS = {
    "new": ("game", "players", "target", "race", "break", "three_foul", "nine_on_break",
            "ten_on_break", "lang", "clock"),
    "lag": ("breaker",),
    "shot": ("first", "pots", "rail", "break_rails", "cue_rail", "off", "call", "made",
             "cue_in_rack", "ball_in_rack", "ball_in_kitchen", "foul"),
    "choose": ("option", "breaker", "by"),
    "ext": ("player",),     # K3: the shooter takes a shot-clock extension
    "undo": (),
}
_BOOLS = ("rail", "cue_rail", "made", "cue_in_rack", "ball_in_rack", "ball_in_kitchen",
          "three_foul")


class BadEvent(Exception):
    """A line that is not an event of the contract (exit status 2 in replay)."""


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _player(v):
    return v is None or (is_int(v) and v in (0, 1))


def _pair(ev, k):
    v = ev.get(k)
    if v is None:
        return
    if not isinstance(v, list) or len(v) != 2 or not (is_int(v[0]) and is_int(v[1])):
        raise BadEvent(k + " must be a list of two whole numbers")
    if v[0] < 1 or v[1] < 1 or v[0] > 100000 or v[1] > 100000:
        raise BadEvent(k + " must be between 1 and 100000")


def _balls(ev, k):
    v = ev.get(k)
    if v is None:
        return
    if not isinstance(v, list):
        raise BadEvent(k + " must be a list of ball numbers")
    for b in v:
        if not is_int(b):
            raise BadEvent(k + " must be a list of ball numbers")


def _clock(v):
    # O7: null (no shot clock), a profile's name, or custom seconds (firmware/shotclock.py).
    if v is None or v in ("wpa", "tv"):
        return
    bad = "clock must be null, wpa, tv or {shot, first, ext, exts, warn}"
    if not isinstance(v, dict):
        raise BadEvent(bad)
    for k in v:
        if k not in ("shot", "first", "ext", "exts", "warn", "push", "auto"):
            raise BadEvent(bad)
    for k in ("shot", "first", "ext", "exts", "warn"):
        n = v.get(k)
        if not isinstance(n, int) or isinstance(n, bool) or \
                n < (1 if k in ("shot", "first") else 0) or \
                n > (9 if k == "exts" else 600):
            raise BadEvent("clock " + k + " must be a whole number (seconds up to 600, "
                           "extensions up to 9)")
    if v["warn"] >= v["shot"]:
        raise BadEvent("clock warn must be less than shot")
    for k in ("push", "auto"):
        if k in v and not isinstance(v[k], bool):
            raise BadEvent("clock " + k + " must be true or false")


def check(ev):
    """Raise BadEvent unless ev is a well-formed event dict."""
    if not isinstance(ev, dict):
        raise BadEvent("an event must be a JSON object")
    t = ev.get("t")
    if not isinstance(t, str) or t not in _FIELDS:
        raise BadEvent("unknown event type " + repr(t))
    allowed = _FIELDS[t]
    for k in ev:
        if k != "t" and k not in allowed:
            raise BadEvent("unknown field " + repr(k) + " in a " + t + " event")
    for k in _BOOLS:
        if k in ev and ev[k] is not None and not isinstance(ev[k], bool):
            raise BadEvent(k + " must be true or false")
    if t == "new":
        if ev.get("game") not in GAMES:
            raise BadEvent("game must be one of 14.1, 8ball, 9ball, 10ball")
        p = ev.get("players")
        if not isinstance(p, list) or len(p) != 2:
            raise BadEvent("players must be a list of two names")
        for n in p:
            if not isinstance(n, str) or not n or len(n) > 40:
                raise BadEvent("a player name must be text of 1 to 40 characters")
        _pair(ev, "target")
        _pair(ev, "race")
        if ev.get("break") not in (None,) + BREAKS:
            raise BadEvent("break must be alternate, winner or loser")
        if ev.get("nine_on_break") not in (None, "win", "spot"):
            raise BadEvent("nine_on_break must be win or spot")
        if ev.get("ten_on_break") not in (None, "spot", "win"):
            raise BadEvent("ten_on_break must be spot or win")  # O6
        if ev.get("lang") not in (None, "en", "tr"):
            raise BadEvent("lang must be en or tr")
        _clock(ev.get("clock"))
    elif t == "lag":
        b = ev.get("breaker")
        if b is None or not _player(b):
            raise BadEvent("breaker must be 0 or 1")
    elif t == "shot":
        f = ev.get("first")
        if f is not None and not is_int(f):
            raise BadEvent("first must be a ball number or null")
        _balls(ev, "pots")
        _balls(ev, "off")
        r = ev.get("break_rails")
        if r is not None and (not is_int(r) or r < 0 or r > 15):
            raise BadEvent("break_rails must be a number from 0 to 15")
        c = ev.get("call")
        if c is not None and not is_int(c) and c not in ("safety", "push"):
            raise BadEvent("call must be a ball number, safety or push")
        f = ev.get("foul")
        if f is not None and not isinstance(f, str):
            raise BadEvent("foul must be a rule ID such as G5.4")
    elif t == "ext":
        if not _player(ev.get("player")):
            raise BadEvent("player must be 0 or 1")
    elif t == "choose":
        if ev.get("option") not in CHOICES:
            raise BadEvent("option must be one of " + ", ".join(CHOICES))
        if not _player(ev.get("breaker")) or not _player(ev.get("by")):
            raise BadEvent("breaker and by must be 0 or 1")
