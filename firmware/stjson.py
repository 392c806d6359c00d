# JSON text with a fixed key order, identical under CPython and MicroPython.

_ORDER = ("game", "rack", "shooter", "bih", "breaking", "push_out", "balls_left", "on_table",
          "groups", "pending", "by", "options", "winner", "players", "name", "score", "racks",
          "fouls", "innings", "run", "high_run")


def _rank(k):
    return (_ORDER.index(k), k) if k in _ORDER else (len(_ORDER), k)


def _str(v):
    out = ['"']
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
    return "".join(out)


def dumps(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join([dumps(x) for x in v]) + "]"
    if isinstance(v, dict):
        keys = sorted(v, key=_rank)
        return "{" + ", ".join([_str(k) + ": " + dumps(v[k]) for k in keys]) + "}"
    raise TypeError("can't write " + repr(v) + " as JSON")
