# JSON text with a fixed key order, identical under CPython and MicroPython, with little garbage.

_ORDER = ("t", "game", "rack", "shooter", "bih", "breaking", "push_out", "balls_left",
          "on_table", "groups", "pending", "by", "options", "winner", "players", "name", "score",
          "racks", "fouls", "innings", "run", "high_run")


def _plain(v):
    """True for printable ASCII without quote or backslash: written as it is."""
    for c in v:
        if c < " " or c > "~" or c == '"' or c == "\\":
            return False
    return True


def _str(v, out):
    if _plain(v):
        out.append('"')
        out.append(v)
        out.append('"')
        return
    out.append('"')
    for c in v:
        o = ord(c)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif o < 32 or o > 126:
            if o > 0xFFFF:   # outside the BMP: a surrogate pair, as CPython writes it
                o -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
            else:
                out.append("\\u%04x" % o)
        else:
            out.append(c)
    out.append('"')


def _entry(k, d, n, out):
    if n:
        out.append(", ")
    _str(k, out)
    out.append(": ")
    _write(d[k], out)


def _write(v, out):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, str):
        _str(v, out)
    elif isinstance(v, (list, tuple)):
        out.append("[")
        first = True
        for x in v:
            if not first:
                out.append(", ")
            first = False
            _write(x, out)
        out.append("]")
    elif isinstance(v, dict):
        out.append("{")
        n = 0
        for k in _ORDER:           # the contract's keys in the contract's order...
            if k in v:
                _entry(k, v, n, out)
                n += 1
        if len(v) > n:
            for k in sorted([k for k in v if k not in _ORDER]):   # ...then the rest, sorted
                _entry(k, v, n, out)
                n += 1
        out.append("}")
    else:
        raise TypeError("can't write " + repr(v) + " as JSON")


def dumps(v):
    out = []
    _write(v, out)
    return "".join(out)
